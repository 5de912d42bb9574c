"""A crawl of N made-up products on list pages of 100, fetched from memory (no server, no
detail pages: every record is emitted at once when the lists are done, the moment that
used to hold them all in memory); prints the records written and the peak RSS (VmHWM,
kB). Run as a script by tests/crawler/test_crawl_stream.py (2,000 and 20,000 products)
and benchmarks/bench_crawl.py (200,000):

    python tests/crawler/big_shop.py N OUT.jsonl
"""
import sys

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.fetch.base import Page
from structurer.rules import rules_from_text

N, OUT, PER = int(sys.argv[1]), sys.argv[2], 100
RULES = """
schema_version: 1
site: shop.test
start_url: http://shop.test/
generated_at: '2026-01-01T00:00:00Z'
template: {name: ecommerce, hash: 'sha256:0123456789abcdef'}
levels:
  category:
    link_xpath: //nav/a
  list:
    item_xpath: //ul/li
    pagination: {next_xpath: "//a[@rel='next']"}
    fields:
      name: {xpath: ./h2, kind: text}
      url: {xpath: ./h2/a/@href, kind: url}
      price: {xpath: ./b, kind: money}
      image: {xpath: ./img/@src, kind: image}
      description: {xpath: ./p, kind: text}
"""
LAST = -(-N // PER)


class BigShop:
    async def fetch(self, url):
        path = url.split("/", 3)[3]
        page = int(path.rsplit("=", 1)[1]) if "=" in path else 1
        items = "".join(
            f'<li><h2><a href="/p/{i}.html">Product number {i}</a></h2><b>${i % 997}.99</b>'
            f'<img src="/img/{i}.jpg"><p>A fine product, number {i}, of good make.</p></li>'
            for i in range((page - 1) * PER, min(page * PER, N))) if path else ""
        more = f'<a rel="next" href="/c/all/?page={page + 1}">next</a>' \
            if path and page < LAST else ""
        text = (f"<html><body><nav><a href='/c/all/'>All products</a></nav>"
                f"<ul>{items}</ul>{more}</body></html>")
        return Page(url, url, 200, text.encode(), text, "utf-8")

    async def close(self):
        return None


result = crawl_site(rules_from_text(RULES, "big.yaml"), OUT,
                    Settings(max_pages_per_pattern=1_000_000),
                    factory=lambda mode, settings: BigShop())
with open("/proc/self/status") as status:
    hwm = next(line for line in status if line.startswith("VmHWM"))
print(result.stats.records, hwm.split()[1])
