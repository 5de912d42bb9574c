"""Serve demo shops over HTTP on 127.0.0.1, one threaded server per shop.

Input: shop instances. Output: running servers on ephemeral ports and their base
URLs. Each shop gets its own port because rule files are named by host and port.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Protocol

from structurer.demo.base import Response


class Site(Protocol):
    """What the server needs of a demo site: a shop, or the news site."""

    @property
    def name(self) -> str: ...

    @property
    def routes(self) -> Mapping[str, Callable[[], Response]]: ...

    def handle(self, path_and_query: str) -> Response: ...


def _handler_for(shop: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "structurer-demo/1"
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True    # keep-alive responses must not stall 40 ms each

        def do_GET(self) -> None:
            self._serve(send_body=True)

        def do_HEAD(self) -> None:
            self._serve(send_body=False)

        def _serve(self, *, send_body: bool) -> None:
            # a site with handle_request(path, headers) sees the request's cookies and host
            answer = getattr(shop, "handle_request", None)
            response = (answer(self.path, self.headers) if answer is not None
                        else shop.handle(self.path))
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
            for key, value in response.headers.items():
                self.send_header(key, value)
            self.end_headers()
            if send_body:
                self.wfile.write(response.body)

        def log_message(self, format: str, *args: object) -> None:
            return  # quiet: tests and the README demo print their own output

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128              # bursts of new connections must not wait 1 s

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hangs up (a browser cancelling a request) is not an error."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class DemoServer:
    """Run shops on 127.0.0.1 in background threads; use as a context manager.

    >>> with DemoServer([shop]) as server:        # doctest: +SKIP
    ...     server.urls[shop.name]                # 'http://127.0.0.1:41234'
    """

    def __init__(self, shops: Iterable[Site], *, host: str = "127.0.0.1",
                 ports: dict[str, int] | None = None) -> None:
        self.shops = {shop.name: shop for shop in shops}
        self.host = host
        self._ports = ports or {}
        for name, port in self._ports.items():  # the socket would raise OverflowError
            if not 0 <= port <= 65535:
                raise ValueError(f"port {port} for {name!r} is not within 0..65535")
        self._servers: dict[str, _Server] = {}
        self._threads: list[threading.Thread] = []

    @property
    def urls(self) -> dict[str, str]:
        return {name: f"http://{self.host}:{srv.server_address[1]}"
                for name, srv in self._servers.items()}

    def start(self) -> DemoServer:
        for name, shop in self.shops.items():
            assert shop.routes  # build the route table once, before any request thread
            server = _Server((self.host, self._ports.get(name, 0)), _handler_for(shop))
            self._servers[name] = server
            thread = threading.Thread(target=server.serve_forever, name=f"demo-{name}",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        for server in self._servers.values():
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)
        self._servers.clear()
        self._threads.clear()

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
