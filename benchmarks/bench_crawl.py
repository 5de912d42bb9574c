"""Crawl speed: ``structurer crawl`` vs a plain Scrapy spider on the same loopback shop.

Input: nothing. A large copy of the ``outfitters`` demo shop (a few thousand pages) is
pre-rendered to disk and served by Debian's nginx (one worker, its own config, a free
port on 127.0.0.1), so the server is not the bottleneck. The shop's rule file is learned
by ``structurer analyze``; the Scrapy spider has hand-written XPath for the same shop
(the paper's comparison). Both crawl the whole shop once, with the same concurrency,
robots.txt obeyed, writing JSON lines. Output: one table — pages, products, wall
seconds and pages/s (process start to exit), crawler-process CPU seconds per page
(user + system, the stable figure on a noisy machine), peak RSS — the peak RSS of
a process holding a 100,000-URL pending frontier, and the peak RSS of a crawl that
emits and writes 200,000 records (a made-up shop served from memory: records stream
out a chunk at a time, so the peak stays flat; ``--records N`` to change the size).

    python benchmarks/bench_crawl.py [--per-leaf 430] [--concurrency 16] [--records 200000]

Needs nginx (``apt-get install nginx``) and Scrapy (``pip install scrapy``, the
``scale`` extra); both are only used here.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path
from typing import Any

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.demo.shops.outfitters import Outfitters
from structurer.rules import save_rules

SPIDER = '''
import json, re
import scrapy

MONEY = re.compile(r"[\\d.,]+")

def money(text):
    found = MONEY.search(text or "")
    return float(found.group().replace(",", "")) if found else None


class ShopSpider(scrapy.Spider):
    name = "outfitters"

    def __init__(self, base, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [base + "/"]

    def parse(self, response):  # the home page: the category menu
        for href in response.xpath("//ul[contains(@class, 'menu')]//a/@href").getall():
            yield response.follow(href, self.parse_list)

    def parse_list(self, response):
        for item in response.xpath("//ul[contains(@class, 'columns-4')]"
                                   "/li[contains(@class, 'product')]"):
            href = item.xpath(".//h2[contains(@class, 'product-name')]/a/@href").get()
            if href:
                yield response.follow(href, self.parse_detail)
        next_page = response.xpath("//a[@rel='next']/@href").get()
        if next_page:
            yield response.follow(next_page, self.parse_list)

    def parse_detail(self, response):
        x = response.xpath
        price = x("//div[@class='summary']//span[@class='price']/text() | "
                  "//div[@class='gear-buy']/b[@class='now']/text()").get()
        yield {
            "url": response.url,
            "name": x("normalize-space(//h1)").get(),
            "price": money(price),
            "price_text": price,
            "image": response.urljoin(x("//ul[@class='thumbnails']//img/@src | "
                                        "//img[@class='gear-hero']/@src").get() or ""),
            "sku": x("//span[@class='sku-value']/text() | //table[@class='gear-facts']"
                     "//th[.='Model code']/following-sibling::td/text()").get(),
            "availability": x("normalize-space(//p[contains(@class, 'stock')] | "
                              "//th[.='Availability']/following-sibling::td)").get(),
            "description": x("normalize-space(//div[@class='description'] | "
                             "//div[@class='gear-story']/p)").get(),
            "category": x("//nav[@aria-label='Breadcrumb']//a/text()").getall()[1:],
        }

    def closed(self, reason):
        with open(self.settings.get("STATS_FILE"), "w") as handle:
            json.dump({k: str(v) for k, v in self.crawler.stats.get_stats().items()}, handle)
'''

NGINX = """
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi; uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
    types {{ text/html html; text/plain txt; }}
    default_type text/html;
    charset utf-8;
    sendfile on;
    keepalive_requests 1000000;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        location = /robots.txt {{ try_files /robots.txt =404; }}
        location / {{ try_files $uri$args.html =404; }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def render(per_leaf: int, root: Path) -> tuple[int, int]:
    """Write every page of a large outfitters shop under ``root``; (pages, products)."""
    class Big(Outfitters):
        spec = dataclasses.replace(Outfitters.spec, per_leaf=(per_leaf, per_leaf + 40))

    shop = Big()
    count = 0
    for route, handler in shop.routes.items():
        response = handler()
        if route == "/robots.txt":
            (root / "robots.txt").write_bytes(response.body)
            continue
        path, _, query = route.partition("?")
        target = root / (path.lstrip("/") + query + ".html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(response.body)
        count += 1
    return count, len(shop.catalog.products)


def start_nginx(root: Path, tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    conf = tmp / "nginx.conf"
    conf.write_text(NGINX.format(tmp=tmp, root=root, port=port))
    server = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(tmp)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/robots.txt", timeout=1).read()
            return server, base
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("nginx did not start; see " + str(tmp / "error.log"))


def measured(command: list[str]) -> dict[str, float]:
    """Run ``command``; its wall seconds, CPU seconds (user + system) and peak RSS (MB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = process.stderr.read() if process.stderr else b""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{command[:3]} failed: {stderr.decode()[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss": usage.ru_maxrss / 1024}


def products(path: Path) -> int:
    return len({json.loads(line)["url"] for line in path.read_text().splitlines()})


# A crawl of N made-up products, peak RSS measured (the script is the streaming test's)
BIG_SHOP = Path(__file__).resolve().parent.parent / "tests" / "crawler" / "big_shop.py"


def records_memory(n: int, tmp: Path) -> tuple[int, float, float]:
    """(records written, peak RSS in MB, seconds) of a crawl of ``n`` made-up products."""
    out = tmp / "big.jsonl"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(BIG_SHOP), str(n), str(out)],
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    records, kb = map(int, done.stdout.split())
    if len(out.read_bytes().splitlines()) != records:
        raise SystemExit(f"{out}: {records} records emitted, a different number written")
    return records, kb / 1024, seconds


def frontier_memory(tmp: Path) -> float:
    """Peak RSS (MB) of a process that queues 100,000 URLs (everything a crawl imports)."""
    script = textwrap.dedent(f"""
        from structurer.crawler.engine import crawl_site
        from structurer.crawler.frontier import DETAIL, Link
        from structurer.crawler.state import open_state
        f, _ = open_state({str(tmp / 'big.state')!r}, site="h:1", rules_hash="r", out="o",
                          fmt="jsonl", resume=False, recrawl=False)
        for start in range(0, 100_000, 5_000):
            with f.transaction():
                f.seed([Link(f"http://h:1/p/{{i}}.html", f"http://h:1/p/{{i}}.html", DETAIL,
                             1, ("Category", "Sub")) for i in range(start, start + 5_000)])
        assert f.size == 100_000 and len(f.lease(16)) == 16
        # VmHWM, not ru_maxrss: Linux carries the parent's peak over into a forked child
        hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
        print(hwm.split()[1])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    return int(done.stdout) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-leaf", type=int, default=430, help="products per leaf category")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--records", type=int, default=200_000,
                        help="products of the made-up shop whose crawl's memory is measured")
    args = parser.parse_args()
    if shutil.which("nginx") is None:
        raise SystemExit("needs nginx: apt-get install -y nginx")
    try:
        import scrapy  # noqa: F401
    except ImportError:
        raise SystemExit("needs Scrapy: pip install scrapy (the 'scale' extra)") from None
    tmp = Path(tempfile.mkdtemp(prefix="bench_crawl_"))
    tmp.chmod(0o755)
    root = tmp / "site"
    root.mkdir()
    pages, catalog = render(args.per_leaf, root)
    server, base = start_nginx(root, tmp)
    n = str(args.concurrency)
    results: dict[str, dict[str, Any]] = {}
    try:
        static = {"render": "static"} if "render" in Settings.model_fields else {}
        rules, _ = analyze_site(base + "/", settings=Settings.model_validate(static))
        rules_file = save_rules(rules, tmp / "rules.yaml")
        out = tmp / "structurer.jsonl"
        results["structurer crawl"] = measured(
            [sys.executable, "-m", "structurer", "crawl", str(rules_file), "--out", str(out),
             "--concurrency", n])
        stats = json.loads((tmp / "structurer.jsonl.stats.json").read_text())
        results["structurer crawl"].update(pages=stats["pages_total"], products=products(out))
        spider = tmp / "spider.py"
        spider.write_text(SPIDER)
        scraped = tmp / "scrapy.jsonl"
        results["Scrapy spider"] = measured(
            [sys.executable, "-m", "scrapy", "runspider", str(spider), "-a", f"base={base}",
             "-s", "LOG_LEVEL=ERROR", "-s", "ROBOTSTXT_OBEY=True",
             "-s", f"CONCURRENT_REQUESTS={n}", "-s", f"CONCURRENT_REQUESTS_PER_DOMAIN={n}",
             "-s", "TELNETCONSOLE_ENABLED=False", "-s", f"STATS_FILE={tmp / 'scrapy.json'}",
             "-o", f"{scraped}:jsonl"])
        sstats = json.loads((tmp / "scrapy.json").read_text())
        fetched = int(sstats["response_received_count"]) - 1  # robots.txt
        results["Scrapy spider"].update(pages=fetched, products=products(scraped))
    finally:
        server.terminate()
        server.wait()
    memory = frontier_memory(tmp)
    records, records_mb, records_s = records_memory(args.records, tmp)
    print(f"shop: {pages} pre-rendered pages ({catalog} products) served by nginx at {base}; "
          f"concurrency {args.concurrency}")
    print(f"{'crawler':<18}{'pages':>7}{'products':>10}{'wall s':>9}{'pages/s':>9}"
          f"{'CPU ms/page':>13}{'peak RSS MB':>13}")
    for name, r in results.items():
        print(f"{name:<18}{r['pages']:>7}{r['products']:>10}{r['wall']:>9.2f}"
              f"{r['pages'] / r['wall']:>9.0f}{1000 * r['cpu'] / r['pages']:>13.3f}"
              f"{r['rss']:>13.0f}")
    ours, theirs = results["structurer crawl"], results["Scrapy spider"]
    ratio = (ours["pages"] / ours["wall"]) / (theirs["pages"] / theirs["wall"])
    cpu = (ours["cpu"] / ours["pages"]) / (theirs["cpu"] / theirs["pages"])
    print(f"pages/s ratio structurer/Scrapy: {ratio:.2f} (target >= 1.0); CPU per page "
          f"ratio: {cpu:.2f} (target <= 1.0)")
    print(f"peak RSS with a 100,000-URL pending frontier: {memory:.0f} MB (target < 300 MB)")
    print(f"peak RSS of a crawl writing {records:,} records: {records_mb:.0f} MB in "
          f"{records_s:.0f} s (target < 300 MB)")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
