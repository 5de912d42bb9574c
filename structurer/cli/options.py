"""Option value types of the command line: a bad value is one line and exit 2.

Each function is an argparse ``type=``: it returns the parsed value or raises
:class:`argparse.ArgumentTypeError`, whose message argparse prints after the option's
name (``structurer: error: analyze: argument --max-pages: must be at least 3 (got 2)``).
Floats must be finite (``nan`` and ``inf`` are refused), ports fit in 16 bits and URLs
are absolute http(s) URLs.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from urllib.parse import urlsplit

__all__ = ["at_least", "http_url", "port", "positive_float", "positive_int"]


def at_least(minimum: int) -> Callable[[str], int]:
    """An integer not below ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum} (got {value})")
        return value

    parse.__name__ = f"int>={minimum}"
    return parse


positive_int = at_least(1)


def positive_float(text: str) -> float:
    """A finite number above 0 (seconds, say)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0 (got {text})")
    return value


def port(text: str) -> int:
    """A TCP port, 1..65535, or 0 for one the system picks."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 1 to 65535, or 0 for any free "
                                         f"one (got {value})")
    return value


def http_url(text: str) -> str:
    """An absolute http(s) URL with a valid host and port."""
    try:
        parts = urlsplit(text)
        bad_port = parts.port == 0  # port raises for one out of range or not a number
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a valid URL (its host or port is "
                                         "malformed; ports go from 1 to 65535)") from None
    hint = f" (did you mean 'http://{text}'?)" if not parts.netloc and "." in text else ""
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"{text!r} is not an absolute http(s) URL{hint}")
    if bad_port:
        raise argparse.ArgumentTypeError(f"{text!r} has port 0; ports go from 1 to 65535")
    return text
