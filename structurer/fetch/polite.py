"""Politeness of the HTTP fetcher: how many requests are in flight, and when the next starts.

Input: the overall and per-host concurrency and a function giving, for a URL, the
seconds between request starts to its host (``delay`` or robots.txt ``Crawl-delay``).
Output: :meth:`HostSlots.slot`, held while one request is in flight: at most
``per_host`` requests to one host (host and port) and ``concurrency`` overall, and
request *starts* to one host spaced by its delay (the wait happens before the global
slot is taken, so a slow host holds no slot another host could use).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

__all__ = ["HostSlots", "host_key"]


def host_key(url: str) -> str:
    """``host:port`` of ``url`` (the default port of its scheme when none is given)."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{(parts.hostname or '').lower()}:{port}"


class HostSlots:
    """Per-host and global request slots, with request starts spaced per host."""

    def __init__(self, concurrency: int, per_host: int, delay_for: Callable[[str], float]
                 ) -> None:
        self.per_host = per_host
        self.delay_for = delay_for
        self._global = asyncio.Semaphore(concurrency)
        self._host_slots: dict[str, asyncio.Semaphore] = {}
        self._host_locks: dict[str, asyncio.Lock] = {}
        self._last_start: dict[str, float] = {}

    @asynccontextmanager
    async def slot(self, target: str) -> AsyncIterator[None]:
        """Hold a per-host and a global slot; space request starts to one host."""
        key = host_key(target)
        host_slot = self._host_slots.get(key)
        if host_slot is None:
            host_slot = self._host_slots[key] = asyncio.Semaphore(self.per_host)
        async with host_slot:
            delay = self.delay_for(target)
            if delay > 0:
                async with self._host_locks.setdefault(key, asyncio.Lock()):
                    wait = self._last_start.get(key, float("-inf")) + delay - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    await self._global.acquire()
                    self._last_start[key] = time.monotonic()
            else:
                await self._global.acquire()
            try:
                yield
            finally:
                self._global.release()
