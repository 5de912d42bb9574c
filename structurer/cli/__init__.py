"""The ``structurer`` command: a thin layer over the library, one module per command group.

``main`` (:mod:`structurer.cli.main`) builds the parser from each group's ``register``;
a command's module imports the library only when the command runs, so ``--version``
and ``--help`` load nothing but the parser. All terminal output lives in this package
(``output`` for plain lines and exit codes, ``display`` for rich tables and live status).
"""

from structurer.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
