"""Shared fixtures: demo shops served once per test session on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from structurer.demo import DemoServer, all_shops

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def demo_server() -> Iterator[DemoServer]:
    with DemoServer(all_shops()) as server:
        yield server


@pytest.fixture(scope="session")
def demo_truth(demo_server: DemoServer) -> dict[str, dict[str, Any]]:
    """Ground truth of every demo shop, with absolute URLs of the running servers."""
    return {name: shop.ground_truth(demo_server.urls[name])
            for name, shop in demo_server.shops.items()}


@pytest.fixture
def tiny_site() -> Iterator[Any]:
    """Serve a dict of path -> HTML on 127.0.0.1; yields a function returning the base URL."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    servers: list[ThreadingHTTPServer] = []

    def start(pages: dict[str, str]) -> str:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = pages.get(self.path)
                status = 200 if body is not None else 404
                data = (body or "<html><body>not found</body></html>").encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                return

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
