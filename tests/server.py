"""The loopback HTTP server of every test that needs one: scripted routes, and a log of
what arrived.

Routes map a path (with its query) to a function that writes the response, a
``fallback`` route answers every other path (404 without one); the server records
every request (path, headers, start time), counts the requests of each path before
its route runs (a route reads ``server.counts[h.path]`` to answer the n-th request
differently), and the most requests it had in flight at once.
Several servers can share one :class:`Gauge` to measure global concurrency. A server
listens on 127.0.0.1 unless given another loopback address (``127.0.0.2``, or ``::1``).
"""

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Hit:
    path: str
    headers: dict[str, str]   # names in Title-Case (a browser may send them lower-case)
    started: float


class Gauge:
    """Requests in flight now and at most, thread-safe."""

    def __init__(self) -> None:
        self.now = 0
        self.peak = 0
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        with self._lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.now -= 1


Route = Callable[[BaseHTTPRequestHandler, "LoopbackServer"], None]


def send(h: BaseHTTPRequestHandler, status: int, body: bytes | str = b"",
         headers: dict[str, str] | None = None, content_type: str = "text/html; charset=utf-8") -> None:
    data = body.encode() if isinstance(body, str) else body
    h.send_response(status)
    h.send_header("Content-Type", content_type)
    h.send_header("Content-Length", str(len(data)))
    for key, value in (headers or {}).items():
        h.send_header(key, value)
    h.end_headers()
    h.wfile.write(data)


def redirect(location: str, status: int = 302) -> Route:
    return lambda h, s: send(h, status, b"", {"Location": location})


def page(body: str, status: int = 200, **headers: str) -> Route:
    return lambda h, s: send(h, status, body, headers)


def pages(site: Mapping[str, str]) -> Route:
    """The HTML of each path in ``site`` as it is when asked (a test may fill it after
    the server started, with URLs holding its port), 404 elsewhere."""
    def route(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        body = site.get(h.path)
        send(h, 200 if body is not None else 404,
             body if body is not None else "<html><body>not found</body></html>")
    return route


class _Server6(ThreadingHTTPServer):
    address_family = socket.AF_INET6


@dataclass
class LoopbackServer:
    routes: dict[str, Route] = field(default_factory=dict)
    gauge: Gauge = field(default_factory=Gauge)
    hits: list[Hit] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    state: dict[str, Any] = field(default_factory=dict)
    host: str = "127.0.0.1"
    fallback: Route | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        kind = _Server6 if ":" in self.host else ThreadingHTTPServer
        self._server = kind((self.host, 0), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.base = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,),
                                        daemon=True)

    def url(self, path: str) -> str:
        return self.base + path

    def paths(self) -> list[str]:
        return [hit.path for hit in self.hits]

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                with server._lock:
                    headers = {k.title(): v for k, v in self.headers.items()}
                    server.hits.append(Hit(self.path, headers, time.monotonic()))
                    server.counts[self.path] += 1
                route = server.routes.get(self.path, server.fallback)
                with server.gauge:
                    try:
                        if route is None:
                            send(self, 404, "<html><body>not found</body></html>")
                        else:
                            route(self, server)
                    except (BrokenPipeError, ConnectionResetError):
                        self.close_connection = True   # the client gave up: nothing to say

            def log_message(self, format: str, *args: object) -> None:
                return

        return Handler


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released): refused to a
    client, free for a server of the test's own (a redis-server) to take."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
