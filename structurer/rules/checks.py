"""Checks of the rule file's plain-string values that are not expressions: post steps
(``op`` or ``op:argument``) and hosts (``host``, ``host:port``, ``[IPv6]:port``). Each
returns the value or raises a ValueError that says what is wrong in one line; the
pydantic models in :mod:`structurer.rules.model` attach them to their fields.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from structurer.rules.regexes import check_regex

_POST_OPS = {"strip", "lower", "upper", "first", "last", "join", "absolute_url", "collapse",
             "money"}
_POST_ARG_OPS = {"regex", "remove", "split", "replace", "prefix", "suffix", "default"}


def check_post(step: str) -> str:
    """A post-processing step: ``op`` or ``op:argument`` (``regex:SKU:\\s*(\\S+)``)."""
    op, sep, arg = step.partition(":")
    if not sep:
        if op in _POST_OPS:
            return step
        if op in _POST_ARG_OPS:
            raise ValueError(f"post step {op!r} needs an argument, like '{op}:...'")
        known = ", ".join(sorted(_POST_OPS | {f"{o}:..." for o in _POST_ARG_OPS}))
        raise ValueError(f"unknown post step {step!r} (known: {known})")
    if op not in _POST_ARG_OPS:
        raise ValueError(f"unknown post step {op!r} (steps with an argument: "
                         f"{', '.join(sorted(_POST_ARG_OPS))})")
    if op == "regex":
        check_regex(arg)
    if op == "replace" and "=>" not in arg:
        raise ValueError(f"replace step {step!r} must look like 'replace:old=>new'")
    return step


_LABEL = re.compile(r"^(?!-)[\w-]{1,63}(?<!-)$")
DEFAULT_PORTS = {"http": 80, "https": 443}


def split_host(value: str) -> tuple[str, int | None]:
    """(host, port) of ``host``, ``host:port`` or ``[IPv6]:port``, where the host is a DNS
    name or an IP address and the port 1..65535; else a ValueError saying why not."""
    host, sep, port = value, "", ""
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        if rest and not rest.startswith(":"):
            raise ValueError(f"{value!r} is not host:port")
        sep, port = rest[:1], rest[1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(f"{host!r} is not an IPv6 address") from None
    elif ":" in value:
        host, sep, port = value.rpartition(":")
        if ":" in host:
            raise ValueError(f"{value!r}: write an IPv6 address in brackets, like '[::1]:8000'")
    if sep and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise ValueError(f"port {port!r} of {value!r} must be a number from 1 to 65535")
    if not value.startswith("["):
        labels = host.split(".")
        if not all(_LABEL.match(label) for label in labels) or labels[-1].isdigit():
            try:
                ipaddress.IPv4Address(host)
            except ValueError:
                raise ValueError(f"{host!r} is not a host name or an IP address") from None
    return host.lower(), int(port) if port else None


def url_host(url: str) -> tuple[str, int]:
    """(host, port) of an absolute http(s) URL, the scheme's default port filled in."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{url!r} must be an absolute http(s) URL")
    host, port = split_host(parts.netloc.rpartition("@")[2])
    return host, port or DEFAULT_PORTS[parts.scheme]
