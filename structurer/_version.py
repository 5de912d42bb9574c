"""The version of structurer (imported alone by the command line, for a fast start)."""

__version__ = "0.1.0"
