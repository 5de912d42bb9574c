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
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from structurer.config import Settings

__all__ = ["add_settings", "at_least", "http_url", "port", "positive_float", "positive_int",
           "settings_from"]


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


# ----- settings: default < --settings FILE < -s KEY=VALUE < the command's own options ---------
def add_settings(parser: argparse.ArgumentParser) -> None:
    """``--settings FILE`` and ``-s KEY=VALUE`` (Scrapy's convention), on every command
    that fetches or crawls; the keys are :class:`structurer.Settings` fields."""
    parser.add_argument("--settings", metavar="FILE",
                        help="a YAML file of settings (keys of structurer.Settings, see README "
                             "'Settings'); default: none")
    parser.add_argument("-s", "--set", dest="set", action="append", default=[],
                        metavar="KEY=VALUE", type=_key_value,
                        help="one setting (a YAML value), e.g. -s delay=0.5 -s obey_robots=false;"
                             " overrides --settings, and the command's own options override it;"
                             " default: none")


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key.strip(), value


def settings_from(args: argparse.Namespace, options: dict[str, object] | None = None
                  ) -> Settings:
    """The command's :class:`~structurer.config.Settings`: defaults, then ``--settings``,
    then ``-s`` values, then ``options`` (the command's own flags; None values skipped).
    A bad key or value is one :class:`~structurer.errors.StructurerError` line naming it."""
    import yaml
    from pydantic import ValidationError

    from structurer.config import Settings
    from structurer.errors import StructurerError
    from structurer.yamlio import suggest

    layers: list[dict[str, object]] = []
    if getattr(args, "settings", None):
        layers.append(Settings.from_file(args.settings))
    given: dict[str, object] = {}
    for key, value in getattr(args, "set", []):
        if key not in Settings.model_fields:
            raise StructurerError(f"-s {key}: unknown setting"
                                  f"{suggest(key, list(Settings.model_fields))}")
        try:
            given[key] = yaml.safe_load(value) if value.strip() else None
        except yaml.YAMLError:
            given[key] = value
    layers += [given, options or {}]
    try:
        return Settings.layered(*layers)
    except ValidationError as error:
        first = error.errors()[0]
        key = str(first["loc"][0]) if first["loc"] else "settings"
        flag = next((f"-s {key}" for k in given if k == key), None) or \
            (f"--{key.removeprefix('analyze_').replace('_', '-')}" if key in (options or {})
             else f"--settings {args.settings}: {key}" if getattr(args, "settings", None)
             else key)
        raise StructurerError(f"{flag}: {first['msg']}") from None
