"""Plain terminal output and the exit codes every command shares.

Exit codes: 0 success; 1 the work ran but fell short; 2 bad input (file, URL,
option). A user's mistake is printed as one line on stderr, never a traceback.
"""

from __future__ import annotations

import sys

EXIT_OK, EXIT_FELL_SHORT, EXIT_BAD_INPUT = 0, 1, 2


def say(text: str = "") -> None:
    print(text, flush=True)


def fail(text: str) -> None:
    print(f"structurer: error: {text}", file=sys.stderr, flush=True)


def warn(text: str) -> None:
    print(f"structurer: warning: {text}", file=sys.stderr, flush=True)
