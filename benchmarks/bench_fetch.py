"""Fetch throughput: HttpFetcher vs a threaded urllib loop on the demo shops (loopback).

Input: nothing (serves the static demo shops on 127.0.0.1 from a child process).
Output: one table of pages/s and MB/s per client, same URLs, same concurrency, run
against the demo server as shipped and tuned (TCP_NODELAY, listen backlog 128).

    python benchmarks/bench_fetch.py [--pages 500] [--concurrency 16]

Why two servers: the stdlib server under the demo shops has two loopback artefacts.
It writes headers and body separately with Nagle's algorithm on, so on a kept-alive
connection each response can stall on the client's delayed ACK (aiohttp and Scrapy
keep connections alive; urllib does not). And its listen backlog is 5, so a burst of
more than 5 new connections loses SYNs and waits a 1 s retransmit. Real web servers
have neither, so the "tuned" rows are the ones that say how fast a client is.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import http.server
import multiprocessing as mp
import time
import urllib.request
from collections.abc import Callable
from multiprocessing.synchronize import Event

from structurer.config import Settings
from structurer.demo import DemoServer, get_shop
from structurer.fetch import HttpFetcher, Page

SHOPS = ("outfitters", "nordlicht", "brightline", "kumo", "huaxia")


def demo_urls(server: DemoServer, limit: int) -> list[str]:
    """List and detail pages of the static shops, interleaved across shops."""
    per_shop: list[list[str]] = []
    for name, shop in server.shops.items():
        truth = shop.ground_truth(server.urls[name])
        per_shop.append(list(truth["list_pages"]) + list(truth["detail_pages"]))
    urls: list[str] = []
    for group in zip(*per_shop, strict=False):
        urls.extend(group)
    return urls[:limit]


def bench_http(urls: list[str], concurrency: int) -> tuple[int, int]:
    settings = Settings(concurrency=concurrency, per_host_concurrency=concurrency)

    async def run() -> tuple[int, int]:
        async with HttpFetcher(settings) as fetcher:
            results = await fetcher.fetch_all(urls)
        pages = [r for r in results if isinstance(r, Page)]
        return len(pages), sum(len(p.body) for p in pages)

    return asyncio.run(run())


def bench_urllib(urls: list[str], concurrency: int) -> tuple[int, int]:
    def get(url: str) -> int:
        with urllib.request.urlopen(url, timeout=20) as response:
            return len(response.read())

    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        sizes = list(pool.map(get, urls))
    return len(sizes), sum(sizes)


def timed(label: str, fn: Callable[[list[str], int], tuple[int, int]], urls: list[str],
          concurrency: int) -> str:
    started = time.perf_counter()
    pages, size = fn(urls, concurrency)
    seconds = time.perf_counter() - started
    return (f"{label:<44} {pages:>6} {seconds:>8.2f} {pages / seconds:>9.0f} "
            f"{size / seconds / 1e6:>7.1f}")


def serve(limit: int, tuned: bool, out: mp.Queue[list[str]], stop: Event) -> None:
    """Child process: run the demo shops until ``stop`` is set."""
    if tuned:
        http.server.BaseHTTPRequestHandler.disable_nagle_algorithm = True
        http.server.ThreadingHTTPServer.request_queue_size = 128
    with DemoServer([get_shop(name) for name in SHOPS]) as server:
        out.put(demo_urls(server, limit))
        stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    c = args.concurrency
    print(f"{'client':<44} {'pages':>6} {'seconds':>8} {'pages/s':>9} {'MB/s':>7}")
    for tuned in (False, True):
        out: mp.Queue[list[str]] = mp.Queue()
        stop = mp.Event()
        child = mp.Process(target=serve, args=(args.pages, tuned, out, stop), daemon=True)
        child.start()
        try:
            urls = out.get(timeout=60)
            bench_urllib(urls[:40], c)  # warm up
            server = "tuned" if tuned else "as shipped"
            print(timed(f"HttpFetcher c={c}, demo server {server}", bench_http, urls, c))
            print(timed(f"urllib {c} threads, demo server {server}", bench_urllib, urls, c))
        finally:
            stop.set()
            child.join(timeout=10)


if __name__ == "__main__":
    main()
