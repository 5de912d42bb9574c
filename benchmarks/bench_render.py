"""Rendering cost: BrowserFetcher's tab pool vs one tab, and a browser level vs a static one.

Input: nothing (serves the demo shops pixel and maple on 127.0.0.1 from a child
process). Output: one table, one run:

* rendered pages/s on pixel's client-rendered list and detail pages, one tab at a time
  vs pools of tabs (``browser_pages``), waiting for network idle; and with the pool
  waiting for the item XPath instead (what a crawl with a rule file does);
* the cost of a browser level against a static level on the same content: maple's
  static detail pages fetched with HttpFetcher and rendered with BrowserFetcher;
* Chromium's launch and close, paid once per fetcher.

    python benchmarks/bench_render.py [--pages 40] [--pool 4]
"""

from __future__ import annotations

import argparse
import asyncio
import http.server
import multiprocessing as mp
import time
from multiprocessing.synchronize import Event

from structurer.config import Settings
from structurer.demo import DemoServer, get_shop
from structurer.fetch import HttpFetcher, Page
from structurer.fetch.browser import BrowserFetcher

PIXEL_ITEM = '//div[@class="grid"]/div[contains(concat(" ", @class, " "), " card ")]'
PIXEL_DETAIL = '//div[@class="pdp__info"]//h1'


def quiet(self: object, request: object, client_address: object) -> None:
    return


def serve(out: mp.Queue[dict[str, list[str]]], stop: Event) -> None:
    """Child process: serve pixel and maple (tuned like bench_fetch) until ``stop``."""
    http.server.BaseHTTPRequestHandler.disable_nagle_algorithm = True
    http.server.ThreadingHTTPServer.request_queue_size = 128
    # Chromium drops kept-alive connections when tabs close: not worth a traceback each
    http.server.ThreadingHTTPServer.handle_error = quiet  # type: ignore[method-assign]
    with DemoServer([get_shop("pixel"), get_shop("maple")]) as server:
        pixel = get_shop("pixel").ground_truth(server.urls["pixel"])
        maple = get_shop("maple").ground_truth(server.urls["maple"])
        out.put({"pixel_list": list(pixel["list_pages"]),
                 "pixel_detail": list(pixel["detail_pages"]),
                 "maple_detail": list(maple["detail_pages"])})
        stop.wait()


def pixel_jobs(urls: dict[str, list[str]], pages: int) -> list[tuple[str, str]]:
    """(url, item XPath) alternating list and detail pages of pixel."""
    jobs: list[tuple[str, str]] = []
    for pair in zip(urls["pixel_list"], urls["pixel_detail"], strict=False):
        jobs += [(pair[0], PIXEL_ITEM), (pair[1], PIXEL_DETAIL)]
    return jobs[:pages]


async def render(jobs: list[tuple[str, str]], pool: int, *, xpath: bool) -> tuple[int, float]:
    """Pages rendered and seconds, the browser already running when the clock starts."""
    async with BrowserFetcher(Settings(browser_pages=pool)) as fetcher:
        await fetcher.fetch(jobs[0][0])  # warm up: robots.txt, first tab, caches
        started = time.perf_counter()
        if pool == 1:
            for url, item in jobs:
                await fetcher.fetch(url, item if xpath else None)
            done = len(jobs)
        else:
            results = await asyncio.gather(*(fetcher.fetch(url, item if xpath else None)
                                             for url, item in jobs))
            done = sum(isinstance(r, Page) for r in results)
        return done, time.perf_counter() - started


async def static(urls: list[str]) -> tuple[int, float]:
    async with HttpFetcher(Settings(concurrency=8, per_host_concurrency=8)) as fetcher:
        await fetcher.fetch(urls[0])
        started = time.perf_counter()
        results = await fetcher.fetch_all(urls)
        return sum(isinstance(r, Page) for r in results), time.perf_counter() - started


async def launch() -> tuple[int, float]:
    started = time.perf_counter()
    async with BrowserFetcher(Settings()):
        pass
    return 1, time.perf_counter() - started


def row(label: str, result: tuple[int, float]) -> tuple[str, float]:
    pages, seconds = result
    print(f"{label:<58} {pages:>5} {seconds:>8.2f} {pages / seconds:>8.1f} "
          f"{1000 * seconds / pages:>8.1f}")
    return label, pages / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--pool", type=int, default=4)
    args = parser.parse_args()
    out: mp.Queue[dict[str, list[str]]] = mp.Queue()
    stop = mp.Event()
    child = mp.Process(target=serve, args=(out, stop), daemon=True)
    child.start()
    try:
        urls = out.get(timeout=60)
        jobs = pixel_jobs(urls, args.pages)
        maple = urls["maple_detail"][: args.pages]
        pool = args.pool
        print(f"{'what':<58} {'pages':>5} {'seconds':>8} {'pages/s':>8} {'ms/page':>8}")
        row("Chromium launch + close (once per fetcher)", asyncio.run(launch()))
        _, one = row("pixel, rendered, 1 tab, network idle",
                     asyncio.run(render(jobs, 1, xpath=False)))
        _, pooled = row(f"pixel, rendered, pool of {pool} tabs, network idle",
                        asyncio.run(render(jobs, pool, xpath=False)))
        row(f"pixel, rendered, pool of {2 * pool} tabs, network idle",
            asyncio.run(render(jobs, 2 * pool, xpath=False)))
        row("pixel, rendered, 1 tab, item XPath", asyncio.run(render(jobs, 1, xpath=True)))
        row(f"pixel, rendered, pool of {pool} tabs, item XPath",
            asyncio.run(render(jobs, pool, xpath=True)))
        _, http_rate = row("maple detail (static level), HttpFetcher c=8",
                           asyncio.run(static(maple)))
        maple_jobs = [(url, "//h1") for url in maple]
        _, browser_rate = row(f"maple detail as a browser level, pool of {pool}, network idle",
                              asyncio.run(render(maple_jobs, pool, xpath=False)))
        _, xpath_rate = row(f"maple detail as a browser level, pool of {pool}, XPath //h1",
                            asyncio.run(render(maple_jobs, pool, xpath=True)))
        print(f"\npool of {pool} vs 1 tab: {pooled / one:.1f}x;  a browser level costs "
              f"{http_rate / browser_rate:.0f}x (network idle) / {http_rate / xpath_rate:.0f}x "
              "(item XPath) a static level on the same pages")
    finally:
        stop.set()
        child.join(timeout=10)


if __name__ == "__main__":
    main()
