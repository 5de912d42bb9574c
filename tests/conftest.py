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
