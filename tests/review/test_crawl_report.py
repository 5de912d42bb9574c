"""The crawl report shows the statistics file's own figures, charts its timeline, and is
self-contained and readable.

A real crawl of a static demo shop (with one detail field broken, so there is a drift
warning) writes its statistics and its report through ``structurer crawl --report``;
``structurer report`` rebuilds it from the JSON. Every figure of the JSON must appear
in the page with the same value, the SVG charts must plot the timeline's samples
(pixel coordinates mapped back to values), and the page, opened in headless Chromium,
must request nothing but itself.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html

from structurer.cli import main
from structurer.crawler.stats import CrawlStats
from structurer.demo import DemoServer
from structurer.review import load_stats, render_crawl_report
from structurer.rules import save_rules
from structurer.rules.model import SiteRules
from tests.chromium import chromium
from tests.conftest import Analyzed

SHOP = "ledger"       # 81 products, 98 pages: about 2 s at 20 ms between requests
SCALARS = ("pages_total", "list_pages", "empty_lists", "items", "items_per_list_page",
           "records", "price_error_rate", "retries", "requeued", "blank_renders", "bytes",
           "elapsed", "pages_per_second")


def _broken_sku(rules: SiteRules) -> SiteRules:
    """The rules after the shop renamed its SKU element (a drift warning for detail.sku)."""
    detail = rules.levels.detail
    assert detail is not None and detail.baseline is not None
    assert detail.baseline.fill_rates["sku"] == 1.0
    fields = {**detail.fields, "sku": detail.fields["sku"].model_copy(
        update={"xpath": "//span[@class='sku-gone']", "jsonld": None})}
    levels = rules.levels.model_copy(
        update={"detail": detail.model_copy(update={"fields": fields})})
    return rules.model_copy(update={"levels": levels})


@pytest.fixture(scope="module")
def crawled(demo_server: DemoServer, analyzed: Analyzed, tmp_path_factory: pytest.TempPathFactory
            ) -> tuple[dict[str, Any], Path, Path]:
    """(stats JSON, report written by crawl --report, report written by structurer report)."""
    out = tmp_path_factory.mktemp("crawl")
    rules, _ = analyzed(demo_server.urls[SHOP] + "/", "static")
    rules_file = save_rules(_broken_sku(rules), out / "rules.yaml")
    assert main(["crawl", str(rules_file), "--out", str(out / "shop.jsonl"), "--delay", "0.02",
                 "--report", str(out / "crawl.html")]) == 0
    stats_path = out / "shop.jsonl.stats.json"
    assert main(["report", str(stats_path)]) == 0
    return json.loads(stats_path.read_text()), out / "crawl.html", out / "shop.jsonl.stats.html"


def _synthetic(tmp_path: Path) -> Path:
    """Statistics with every section filled (failures, skips, price errors, retries),
    counted and written by the crawler's own CrawlStats."""
    stats = CrawlStats(fields={"record": ["url", "name", "price", "price_text"]})
    stats.pages.update({"category": 3, "list": 12, "detail": 40})
    stats.list_pages, stats.empty_lists, stats.items = 12, 2, 117
    records = [{"url": f"u{i}", "name": "n", "price": 9.5, "price_text": "$9.50"}
               for i in range(36)]
    records += [{"url": "e", "name": "n", "price": None, "price_text": None},
                {"url": "t", "name": None, "price": None, "price_text": "call us"},
                {"url": "g", "name": "n", "price": 3.0, "price_text": "â‚¬3"},
                {"url": "m", "name": "n", "price": 4.0, "price_text": "or 4 × $308.38"},
                {"url": "r", "name": "n", "price": 5.0, "price_text": "$5.00 – $9.00"}]
    for i, record in enumerate(records):
        stats.elapsed = 0.3 * i
        stats.count("record", [record])
        stats.sample()
    stats.failures.update({"http 404": 3, "timeout": 1, "parse": 1})
    stats.skipped.update({"robots": 7, "offsite": 2, "pattern": 5})
    stats.retries, stats.requeued, stats.blank_renders, stats.bytes = 6, 2, 1, 1_234_567
    path = tmp_path / "synthetic.stats.json"
    stats.write_json(path, {"site": "shop.example", "complete": False,
                            "drift": ["detail.sku: filled on 0% of 40 detail pages, "
                                      "baseline 100%", "list: 2 of 12 list pages had no items"]})
    return path


def _figures(stats: dict[str, Any]) -> dict[str, Any]:
    """Every figure of a statistics JSON by its dotted key."""
    out = {key: stats[key] for key in SCALARS}
    for group in ("pages", "price_errors", "failures", "skipped"):
        out.update({f"{group}.{k}": v for k, v in stats[group].items()})
    for level, rates in stats["fill_rates"].items():
        out.update({f"fill_rates.{level}.{k}": v for k, v in rates.items()})
    return out


def _text(key: str, value: Any) -> str:
    """How the report is meant to print a figure."""
    if value is None:
        return "—"
    if key == "price_error_rate" or key.startswith("fill_rates."):
        return f"{value * 100:.1f}%"
    return f"{value:,.1f}" if isinstance(value, float) else f"{value:,}"


def _check_figures(stats: dict[str, Any], page: str) -> None:
    root = lxml_html.fromstring(page)
    figures = _figures(stats)
    shown = Counter(el.get("data-stat") for el in root.xpath("//*[@data-stat]"))
    assert set(shown) - {"drift"} == set(figures), set(shown) ^ set(figures)
    for key, value in figures.items():
        for el in root.xpath("//*[@data-stat=$key]", key=key):
            assert json.loads(el.get("data-value")) == value, key
            assert el.text_content().strip() == _text(key, value), key
    drift = [el.text_content().strip() for el in root.xpath("//li[@data-stat='drift']")]
    assert drift == stats["drift"]
    rows = root.xpath("//table[contains(@class, 'timeline')]/tbody/tr")
    assert [[c.text_content() for c in row.xpath("td")] for row in rows] == [
        [f"{p['elapsed']:,.1f}", f"{p['pages']:,}", f"{p['items']:,}", f"{p['records']:,}"]
        for p in stats["timeline"]]
    # accessible structure: every table has a caption and header cells, charts are images
    for table in root.xpath("//table"):
        assert table.xpath("caption") and table.xpath(".//th"), lxml_html.tostring(table)[:200]
    for svg in root.xpath("//svg"):
        assert svg.get("role") == "img" and svg.xpath("title") and svg.xpath("desc")


def test_the_report_shows_the_json_figures(crawled: tuple[dict[str, Any], Path, Path]) -> None:
    stats, by_crawl, by_report = crawled
    assert stats["records"] == 81 and stats["pages"]["detail"] == 81
    assert stats["drift"] and stats["drift"][0].startswith("detail.sku: filled on 0%")
    timeline = stats["timeline"]
    assert len(timeline) >= 4, timeline   # about 2 s, a sample at least every 0.5 s
    assert timeline[-1] == {"elapsed": stats["elapsed"], "pages": stats["pages_total"],
                            "items": stats["items"], "records": stats["records"]}
    for path in (by_crawl, by_report):
        _check_figures(stats, path.read_text(encoding="utf-8"))


def test_every_section_of_a_busy_crawl(tmp_path: Path) -> None:
    path = _synthetic(tmp_path)
    stats = json.loads(path.read_text())
    assert stats["price_errors"] == {"empty": 1, "non-numeric": 1, "garbled": 1,
                                     "multiplier": 1, "range": 1}
    assert stats["price_error_rate"] == 5 / 41
    page = render_crawl_report(load_stats(path), str(path))
    _check_figures(stats, page)
    root = lxml_html.fromstring(page)
    rows = root.xpath("//table[caption='Unusable and suspicious prices by kind']/tbody/tr")
    assert [r.xpath("string(th)") for r in rows] == [
        "empty", "non-numeric", "garbled", "multiplier", "range"]
    assert [r.xpath("string(td[2])") for r in rows] == ["2.4%"] * 5   # 1 of 41 records each
    assert "Stopped early" in page and root.xpath("//*[@role='alert']")


@pytest.mark.browser
def test_report_in_chromium(crawled: tuple[dict[str, Any], Path, Path], tmp_path: Path) -> None:
    stats, path, _ = crawled
    timeline = stats["timeline"]
    assert all(b["elapsed"] > a["elapsed"] for a, b in pairwise(timeline))
    with chromium() as browser:
        tab = browser.new_page(viewport={"width": 1366, "height": 900})
        requested: list[str] = []
        tab.on("request", lambda request: requested.append(request.url))
        tab.goto(path.resolve().as_uri())
        tab.wait_for_load_state("load")
        assert requested and all(u.startswith(("file:", "data:")) for u in requested), \
            requested
        tab.screenshot(path=tmp_path / "report.png", full_page=True)
        assert (tmp_path / "report.png").stat().st_size > 20_000
        charts = tab.evaluate(_CHARTS_JS)
        worst, where = tab.evaluate(_CONTRAST_JS)
    assert worst >= 4.5, (worst, where)
    assert set(charts) == {"rate", "progress"}
    for chart in charts.values():
        assert chart["shown"][2] >= 600          # readable: most of a laptop screen's width
    progress, rate = charts["progress"], charts["rate"]
    assert len(progress["series"]["items"]) == len(timeline)
    assert len(progress["series"]["records"]) == len(timeline)
    assert len(rate["series"]["pages/s"]) == len(timeline) - 1
    for name in ("items", "records"):
        _check_points(progress, name, [(p["elapsed"], p[name]) for p in timeline])
    speeds = [(b["elapsed"], (b["pages"] - a["pages"]) / (b["elapsed"] - a["elapsed"]))
              for a, b in pairwise(timeline)]
    _check_points(rate, "pages/s", speeds)
    _check_points(rate, "average", [(timeline[0]["elapsed"], stats["pages_per_second"]),
                                    (timeline[-1]["elapsed"], stats["pages_per_second"])])


def _check_points(chart: dict[str, Any], name: str, expected: list[tuple[float, float]]) -> None:
    """The polyline's points, mapped back through the chart's axes, are the values."""
    left, right, top, bottom = chart["left"], chart["right"], chart["top"], chart["bottom"]
    x_max, y_max = chart["xMax"], chart["yMax"]
    assert y_max >= max(v for _, v in expected)
    points = chart["series"][name]
    assert len(points) == len(expected), name
    for (x, y), (t, v) in zip(points, expected, strict=True):
        assert left <= x <= right and top <= y <= bottom
        assert math.isclose((x - left) / (right - left) * x_max, t,
                            abs_tol=0.06 * x_max / (right - left)), (name, x, t)
        assert math.isclose((bottom - y) / (bottom - top) * y_max, v,
                            abs_tol=0.06 * y_max / (bottom - top)), (name, y, v)


_CHARTS_JS = """
() => Object.fromEntries(Array.from(document.querySelectorAll('svg[data-chart]')).map(svg => {
  const r = svg.getBoundingClientRect(), d = svg.dataset;
  const series = Object.fromEntries(Array.from(svg.querySelectorAll('polyline')).map(p =>
    [p.dataset.series, p.getAttribute('points').trim().split(/\\s+/).map(xy => xy.split(',').map(Number))]));
  return [d.chart, {series, shown: [r.left, r.top, r.width, r.height], xMax: +d.xMax,
                    yMax: +d.yMax, left: +d.left, right: +d.right, top: +d.top, bottom: +d.bottom}];
}))
"""

#: The lowest WCAG contrast ratio of any text in the page against its background.
_CONTRAST_JS = """
() => {
  const rgba = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = el => {
    for (; el; el = el.parentElement) {
      const c = rgba(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  let worst = 21, where = null;
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || !Array.from(el.childNodes).some(
        n => n.nodeType === 3 && n.textContent.trim())) continue;
    const a = lum(rgba(getComputedStyle(el).color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < worst) { worst = ratio; where = el.tagName + ': ' + el.textContent.slice(0, 40); }
  }
  return [worst, where];
}
"""


@pytest.mark.parametrize(("content", "says"), [
    (None, "cannot read the crawl statistics: No such file or directory"),
    ('{"pages": ', "not JSON (line 1)"),
    ('[1, 2]', "not crawl statistics"),
    ('{"pages": {"list": "many"}, "pages_total": 1, "records": 0, "elapsed": 1}',
     "not crawl statistics: pages.list:"),
    ("[" * 100_000 + "]" * 100_000, "not crawl statistics: JSON nested too deeply"),
    ('{"pages": {}, "pages_total": 0, "records": 0, "elapsed": 1, "x": "' + "y" * 20_000_000
     + '"}', "larger than 20,000,000 bytes"),
], ids=["missing", "truncated", "not-an-object", "wrong-type", "deep", "huge"])
def test_bad_statistics_are_one_line(content: str | None, says: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "shop.stats.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["report", str(path), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(path) in err and says in err, err
    assert not (tmp_path / "r.html").exists()


def test_open_without_a_browser_says_where_the_report_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import webbrowser

    opened: list[str] = []

    def no_browser(url: str) -> bool:
        opened.append(url)
        return False

    monkeypatch.setattr(webbrowser, "open", no_browser)
    stats_path = _synthetic(tmp_path)
    out = tmp_path / "r.html"
    assert main(["report", str(stats_path), "--out", str(out), "--open"]) == 0
    assert opened == [out.resolve().as_uri()]
    assert capsys.readouterr().err == ("structurer: warning: no web browser could be opened "
                                       f"(set BROWSER to one); the report is {out}\n")
