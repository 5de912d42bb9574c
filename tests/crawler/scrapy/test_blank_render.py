"""The Scrapy engine asks again for a rendered page its script left blank, as ``structurer
crawl`` does (:meth:`~structurer.crawler.traverse.PageReader.blank`, one check for both
runtimes), through Scrapy's own retry, at most ``crawl_retries`` times; the retry is
counted. End to end in Chromium: a list page whose grid a script fills from a JSON
endpoint that answers nothing the first time (a shop's API busy for a moment); and a
product page whose render runs out of time once (``render_timeout``, transient)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from structurer.rules import rules_from_text, save_rules
from tests.conftest import rule_text
from tests.crawler.scrapy.conftest import finish, records, worker

RULES = rule_text("{site}", """
  category:
    link_xpath: //nav//a
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    render: {{mode: browser}}
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
""")
GRID = ('<nav><a href="/c/a/">A</a></nav><ul></ul><script>'
        "fetch('/api/a').then(r => r.text()).then(t => "
        "{document.querySelector('ul').innerHTML = t;});</script>")
ITEMS = '<li><a href="/p/1">One</a></li><li><a href="/p/2">Two</a></li>'


class BusyOnce(dict[str, str]):
    """The shop's pages; its JSON endpoint answers nothing the first time it is asked."""

    def __init__(self, pages: dict[str, str]) -> None:
        super().__init__(pages)
        self.asked = 0

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        if key == "/api/a":
            self.asked += 1
            return "" if self.asked == 1 else ITEMS
        return super().get(key, default)


def test_a_blank_rendered_list_page_is_asked_again(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    pages = BusyOnce({"/": '<nav><a href="/c/a/">A</a></nav>', "/c/a/": GRID,
                      "/p/1": "<h1>One!</h1>", "/p/2": "<h1>Two!</h1>"})
    site = tiny_site(pages).split("//")[1]
    path = save_rules(rules_from_text(RULES.format(site=site), "r.yaml"), tmp_path / "r.yaml")
    out = tmp_path / "o.jsonl"
    finish(worker([path], out, None), out, timeout=300)
    assert sorted(r["name"] for r in records(out)) == ["One!", "Two!"]
    assert pages.asked == 2
    stats = json.loads(out.with_name(f"{out.name}.stats.json").read_text())
    # asked again as a blank render, not an HTTP request retried
    assert (stats["requeued"], stats["blank_renders"], stats["retries"]) == (1, 1, 0)
    assert stats["empty_lists"] == 0 and stats["complete"]


SLOW_RULES = rule_text("{site}", """
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    render: {{mode: browser}}
    fields:
      name: {{xpath: //h1, kind: text}}
""")


class SlowOnce(dict[str, str]):
    """The shop's pages; one product page answers only after ``delay`` seconds the first
    time it is asked (a shop busy for a moment)."""

    def __init__(self, pages: dict[str, str], slow: str, delay: float) -> None:
        super().__init__(pages)
        self.slow, self.delay, self.asked = slow, delay, 0

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        if key == self.slow:
            self.asked += 1
            if self.asked == 1:
                time.sleep(self.delay)
        return super().get(key, default)


def test_a_render_that_ran_out_of_time_is_asked_again(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """As ``structurer crawl`` requeues a page whose render timed out (``render_timeout``
    is transient), at most ``crawl_retries`` times: the product page is read the second
    time, not lost as a failure."""
    pages = SlowOnce({"/": '<ul><li><a href="/p/1">One</a></li><li><a href="/p/2">Two</a></li>'
                           "</ul>", "/p/1": "<h1>One!</h1>", "/p/2": "<h1>Two!</h1>"},
                     "/p/1", delay=10.0)
    site = tiny_site(pages).split("//")[1]
    path = save_rules(rules_from_text(SLOW_RULES.format(site=site), "r.yaml"), tmp_path / "r.yaml")
    out = tmp_path / "o.jsonl"
    finish(worker([path], out, None, "-s", "browser_timeout=5"), out, timeout=300)
    assert sorted(r["name"] for r in records(out)) == ["One!", "Two!"]
    assert pages.asked >= 2             # (more only if a loaded machine renders slower)
    stats = json.loads(out.with_name(f"{out.name}.stats.json").read_text())
    assert not stats["failures"] and stats["requeued"] >= 1 and stats["blank_renders"] == 0
    assert stats["retries"] == 0        # no HTTP request was retried
