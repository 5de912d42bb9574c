"""Which hosts a fetch may reach: the one host-matching rule of every fetch path.

Input: host entries (a rule file's ``site``, its start URL's host and ``hosts``, or
``Settings.allowed_hosts``) and URLs. Output: whether a URL is in scope, and URLs
without their ``user:password@``. Pure functions, no I/O.

An entry is ``host`` or ``host:port`` (``[v6]:port`` for IPv6; a URL or a
``user@`` prefix is read as its host). How it matches a URL's host and port:

* ``host:port`` admits exactly that host on exactly that port;
* a bare ``host`` admits it on the default ports (80 for http, 443 for https), and
  when it is a real domain name (two labels or more, not all digits:
  ``shop.example``) its subdomains too (``cdn.shop.example``, never ``evilshop.example``);
* IP addresses match exactly, written any way (``::1`` is ``[0:0::1]``); a name of
  one label (``localhost``, ``1``) admits only itself.

With no entries a fetch stays on the *site* of the URL it was given: the same host
on the same port, where switching between http's and https's default ports counts
as the same, and adding or dropping a leading ``www.`` too (``shop.example`` ->
``www.shop.example``). A robots.txt redirect must stay on the very same host
(:func:`same_host`).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit, urlunsplit

__all__ = ["Address", "HostScope", "address", "is_domain_name", "same_host", "same_site",
           "split_userinfo", "strip_userinfo"]

DEFAULT_PORTS = {"http": 80, "https": 443}
_LABEL = re.compile(r"^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$")


@dataclass(frozen=True)
class Address:
    """Where a URL points: canonical host (IPv6 without brackets), port, scheme."""

    host: str
    port: int
    scheme: str

    @property
    def default_port(self) -> bool:
        return DEFAULT_PORTS.get(self.scheme) == self.port


def _canonical_host(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def is_domain_name(host: str) -> bool:
    """A real DNS name with subdomains of its own: two labels or more, the last not
    numeric, no IP address (``shop.example`` yes; ``localhost``, ``1``, ``10.0.0.1`` no)."""
    if _is_ip(host):
        return False
    labels = host.split(".")
    return (len(labels) >= 2 and all(_LABEL.match(label) for label in labels)
            and not labels[-1].isdigit())


def address(url: str) -> Address | None:
    """The host, port and scheme of an http(s) URL; None when it has none or is invalid."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return Address(_canonical_host(parts.hostname), port or DEFAULT_PORTS[scheme], scheme)


def _ports_agree(a: Address, b: Address) -> bool:
    return a.port == b.port or (a.default_port and b.default_port)


def same_host(url: str, other: str) -> bool:
    """Same host, and the same port (or both on their scheme's default port)."""
    a, b = address(url), address(other)
    return a is not None and b is not None and a.host == b.host and _ports_agree(a, b)


def _bare(host: str) -> str:
    return host[4:] if host.startswith("www.") and is_domain_name(host[4:]) else host


def same_site(url: str, start: str) -> bool:
    """:func:`same_host`, or a ``www.`` added or dropped on a domain name."""
    a, b = address(url), address(start)
    if a is None or b is None or not _ports_agree(a, b):
        return False
    return a.host == b.host or (is_domain_name(a.host) and _bare(a.host) == _bare(b.host))


@dataclass(frozen=True)
class _Entry:
    text: str
    host: str
    port: int | None

    @classmethod
    def parse(cls, entry: str) -> _Entry:
        text = entry.strip().lower()
        hostport = urlsplit(text).netloc if "://" in text else text.split("/", 1)[0]
        hostport = hostport.rsplit("@", 1)[-1]
        port: int | None = None
        if hostport.startswith("["):
            host, _, rest = hostport[1:].partition("]")
            if rest[1:].isdigit() and rest.startswith(":"):
                port = int(rest[1:])
        elif hostport.count(":") == 1 and hostport.rsplit(":", 1)[1].isdigit():
            host, digits = hostport.rsplit(":", 1)
            port = int(digits)
        else:
            host = hostport
        return cls(entry, _canonical_host(host), port)

    def admits(self, where: Address) -> bool:
        if self.port is not None:
            return where.port == self.port and where.host == self.host
        if not where.default_port:
            return False
        return where.host == self.host or (
            is_domain_name(self.host) and where.host.endswith("." + self.host))


class HostScope:
    """Host entries and the URLs they admit; see the module docstring."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self.entries = tuple(_Entry.parse(e) for e in entries if e and e.strip())

    def __bool__(self) -> bool:
        return bool(self.entries)

    def allows(self, url: str, start: str | None = None) -> bool:
        """Whether ``url`` is in scope: admitted by an entry, or with no entries on the
        site of ``start`` (the URL a fetch was given; None admits nothing)."""
        where = address(url)
        if where is None:
            return False
        if self.entries:
            return any(entry.admits(where) for entry in self.entries)
        return start is not None and same_site(url, start)

    def describe(self) -> str:
        return ", ".join(entry.text for entry in self.entries)


def split_userinfo(url: str) -> tuple[str, tuple[str, str] | None]:
    """The URL without ``user:password@``, and the (user, password) it carried if any."""
    try:
        parts = urlsplit(url)
    except ValueError:  # an invalid URL: the fetch refuses it anyway
        return url, None
    if "@" not in parts.netloc:
        return url, None
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    return urlunsplit(parts._replace(netloc=hostport)), (unquote(user), unquote(password))


def strip_userinfo(url: str) -> str:
    """The URL without ``user:password@`` (a URL that has none comes back unchanged)."""
    return split_userinfo(url)[0]
