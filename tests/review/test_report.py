"""The review report: overlays sit on the nodes the rule XPaths select, and it is self-contained.

Three static demo shops and one built entirely by JavaScript (pixel) are analyzed,
reviewed (one through the CLI), and each report is opened in headless Chromium: every
overlay box must be drawn where its data attributes say, carry a rule XPath of the rule
file, and match, within 2 px, the box of the node that XPath selects when evaluated
independently on the sample page. The records tables draw on several sample pages per
level and agree with the shops' ground truth.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from structurer.cli import main
from structurer.config import Settings
from structurer.demo.scoring import same
from structurer.review import VIEWPORT, build_review
from structurer.rules import load_rules, save_rules
from structurer.rules.model import SiteRules
from tests.chromium import chromium
from tests.conftest import Analyzed

SHOPS = ("outfitters", "brightline", "ledger", "pixel")
RENDERED = {"pixel"}      # analyzed with browser detection: every level needs one
TOLERANCE = 2.0

#: The same XPath evaluation as a person would do in devtools, written apart from the report.
_NODE_BOX_JS = """
([itemXpath, xpath, item, index]) => {
  const all = (xp, ctx) => {
    const s = document.evaluate(xp, ctx, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    return Array.from({length: s.snapshotLength}, (_, i) => s.snapshotItem(i));
  };
  let ctx = document;
  if (itemXpath !== null) ctx = all(itemXpath, document)[item];
  if (!ctx) return null;
  let node = xpath === null ? ctx : all(xpath, ctx)[index];
  if (!node) return null;
  if (node.nodeType === 2) node = node.ownerElement;
  else if (node.nodeType !== 1) node = node.parentElement;
  const r = node.getBoundingClientRect();
  return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];
}
"""

_OVERLAYS_JS = """
() => Array.from(document.querySelectorAll('.shot')).map(shot => {
  const img = shot.querySelector('img').getBoundingClientRect();
  return {level: shot.dataset.level, url: shot.dataset.url,
          width: +shot.dataset.width, height: +shot.dataset.height,
          img: [img.left, img.top, img.width, img.height],
          boxes: Array.from(shot.querySelectorAll('.box')).map(b => {
            const r = b.getBoundingClientRect();
            return {...b.dataset, drawn: [r.left, r.top, r.width, r.height]};
          })};
})
"""


@pytest.fixture(scope="module")
def reports(demo_server: Any, analyzed: Analyzed, tmp_path_factory: pytest.TempPathFactory
            ) -> dict[str, tuple[SiteRules, Path]]:
    out = tmp_path_factory.mktemp("review")
    made: dict[str, tuple[SiteRules, Path]] = {}
    for shop in SHOPS:
        rules, _ = analyzed(demo_server.urls[shop] + "/", None if shop in RENDERED else "static")
        path = out / f"{shop}.html"
        if shop == SHOPS[0]:  # one through the command line
            save_rules(rules, out / f"{shop}.yaml")
            assert main(["review", str(out / f"{shop}.yaml"), "--out", str(path)]) == 0
            rules = load_rules(out / f"{shop}.yaml")
        else:
            path.write_text(build_review(rules), encoding="utf-8")
        made[shop] = (rules, path)
    return made


def _rule_xpaths(rules: SiteRules, level: str, role: str, name: str) -> set[str | None]:
    """Every XPath the rule file has for this overlay (a field may differ per variant)."""
    levels = rules.levels
    if level == "category":
        assert levels.category is not None
        return {levels.category.link_xpath}
    if level == "list":
        assert levels.list is not None
        if role in ("item", "container"):
            return {levels.list.item_xpath + ("/.." if role == "container" else "")}
        layouts: list[Any] = [levels.list, *levels.list.variants]
    else:
        assert levels.detail is not None
        layouts = [levels.detail, *levels.detail.variants]
    return {layout.fields[name].xpath for layout in layouts if name in layout.fields}


def _independent_box(page: Page, rules: SiteRules, box: dict[str, str]) -> list[float] | None:
    item_xpath = rules.levels.list.item_xpath if rules.levels.list is not None else None
    role, item, index = box["role"], int(box["item"]), int(box["index"])
    if box["level"] != "list":
        args: list[Any] = [None, box["xpath"], 0, index]
    elif role == "container":
        args = [item_xpath, "..", 0, 0]
    elif role == "item":
        args = [item_xpath, None, item, 0]
    else:
        args = [item_xpath, box["xpath"], item, index]
    result = page.evaluate(_NODE_BOX_JS, args)
    return None if result is None else [float(v) for v in result]


def _close(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b, strict=True))


@pytest.mark.browser
def test_overlays_sit_on_the_nodes_the_rules_select(
        reports: dict[str, tuple[SiteRules, Path]], tmp_path: Path) -> None:
    with chromium() as browser:
        report_tab = browser.new_page(viewport={"width": 1366, "height": 900})
        sample_tab = browser.new_page(viewport=VIEWPORT)
        for shop, (rules, path) in reports.items():
            report_tab.goto(path.resolve().as_uri())
            report_tab.screenshot(path=tmp_path / f"{shop}.png", full_page=True)
            assert (tmp_path / f"{shop}.png").stat().st_size > 10_000
            shots = report_tab.evaluate(_OVERLAYS_JS)
            assert {s["level"] for s in shots} == {"category", "list", "detail"}, shop
            for shot in shots:
                _check_shot(shop, rules, shot, sample_tab)


def _check_shot(shop: str, rules: SiteRules, shot: dict[str, Any], sample_tab: Page) -> None:
    boxes = shot["boxes"]
    roles = {b["role"] for b in boxes}
    if shot["level"] != "category":  # a shop's category links may all be hidden menus
        assert "field" in roles, (shop, shot["level"])
    if shot["level"] == "list":
        assert {"container", "item"} <= roles
        assert sum(b["role"] == "item" for b in boxes) >= 3
    # drawn where the data attributes say, at the screenshot's scale
    left, top, width, height = shot["img"]
    scale = width / shot["width"]
    assert abs(height / shot["height"] - scale) < 0.01
    for box in boxes:
        data = [float(box[k]) for k in ("x", "y", "w", "h")]
        expected = [left + data[0] * scale, top + data[1] * scale, data[2] * scale,
                    data[3] * scale]
        assert _close(box["drawn"], expected), (shop, box)
        assert box["xpath"] in _rule_xpaths(rules, box["level"], box["role"], box["field"]), box
    # and on the node the rule XPath selects in the sample page itself
    sample_tab.goto(shot["url"], wait_until="load")
    sample_tab.wait_for_load_state("networkidle")
    for box in boxes:
        found = _independent_box(sample_tab, rules, box)
        data = [float(box[k]) for k in ("x", "y", "w", "h")]
        assert found is not None and _close(found, data), (shop, box, found)


def test_report_is_self_contained(reports: dict[str, tuple[SiteRules, Path]]) -> None:
    for shop, (rules, path) in reports.items():
        html = path.read_text(encoding="utf-8")
        # nothing is loaded from anywhere: no scripts, stylesheets or remote images
        assert not re.search(r"<script|<link|@import|url\(|<iframe|<object", html), shop
        sources = re.findall(r'\b(?:src|srcset|poster|data)\s*=\s*"([^"]*)"', html)
        assert sources and all(s.startswith("data:image/") for s in sources), shop
        assert not re.search(r'(?:src|srcset)\s*=\s*"https?:', html), shop
        # the only http(s) references are links a person may follow to the sample pages
        links = set(re.findall(r'href="(https?://[^"]*)"', html))
        assert links and all(link.startswith(rules.start_url) for link in links), shop
        for name in ("name", "price"):
            assert f'data-field="{name}"' in html, (shop, name)
        assert "confidence" in html
        for level in ("category", "list", "detail"):
            mode = getattr(rules.levels, level).render.mode
            assert mode == ("browser" if shop in RENDERED else "static")
            assert re.search(rf'id="level-{level}".*?Render mode: {mode}<', html, re.S), shop


def _table(section: Any, kind: str) -> list[dict[str, Any]]:
    """The rows of a level's table as dicts by header; links kept as their href."""
    [table] = section.xpath(f".//table[contains(@class, '{kind}')]")
    heads = [th.text_content().strip() for th in table.xpath("thead/tr/th")]
    rows = []
    for tr in table.xpath("tbody/tr"):
        cells = tr.xpath("th|td")
        rows.append({h: (c.xpath(".//a/@href") or [c.text_content().strip()])[0]
                     if h in ("page", "no.") else c.text_content().strip()
                     for h, c in zip(heads, cells, strict=True)})
    return rows


def test_records_come_from_several_sample_pages(
        reports: dict[str, tuple[SiteRules, Path]],
        demo_truth: dict[str, dict[str, Any]]) -> None:
    from lxml import html as lxml_html

    for shop, (_, path) in reports.items():
        truth = {p["url"]: p for p in demo_truth[shop]["products"]}
        root = lxml_html.fromstring(path.read_text(encoding="utf-8"))
        for level in ("list", "detail"):
            [section] = root.xpath(f"//section[@id='level-{level}']")
            samples = _table(section, "samples")
            with_records = [s["page"] for s in samples if int(s["records"]) > 0]
            assert len(with_records) == 3 == len(set(with_records)), (shop, level, samples)
            [shown] = section.xpath(".//div[@class='shot']/@data-url")
            assert shown == with_records[0], (shop, level)   # the first is photographed
            rows = _table(section, "records")
            assert {r["page"] for r in rows} == set(with_records), (shop, level)
            for row in rows:   # what each sample page yielded is the product it shows
                product = truth[row["url"]]
                assert same("name", row["name"], product["name"]), (shop, level, row)
                if level == "detail":
                    assert row["url"] == row["page"]


@pytest.mark.browser
def test_report_opens_without_network(reports: dict[str, tuple[SiteRules, Path]]) -> None:
    _, path = reports[SHOPS[1]]
    with chromium() as browser:
        tab = browser.new_page()
        requested: list[str] = []
        tab.on("request", lambda request: requested.append(request.url))
        tab.goto(path.resolve().as_uri())
        tab.wait_for_load_state("load")
        assert all(url.startswith(("file:", "data:")) for url in requested), requested
        assert tab.evaluate("Array.from(document.images).every(i => i.naturalWidth > 0)")
        assert tab.evaluate("Array.from(document.images).every(i => i.alt.length > 20)")


def test_review_without_chromium_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        reports: dict[str, tuple[SiteRules, Path]]) -> None:
    rules, _ = reports[SHOPS[2]]
    save_rules(rules, tmp_path / "shop.yaml")
    monkeypatch.setenv("STRUCTURER_CHROMIUM", str(tmp_path / "no-chromium"))
    assert main(["review", str(tmp_path / "shop.yaml")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no Chromium was found at" in err
    assert not (tmp_path / "shop.review.html").exists()


@pytest.mark.browser
def test_unreachable_sample_pages_are_reported_not_raised(
        reports: dict[str, tuple[SiteRules, Path]]) -> None:
    rules, _ = reports[SHOPS[0]]
    gone = rules.model_copy(update={"start_url": "http://127.0.0.1:9/"})
    html = build_review(gone)
    assert html.count('role="alert"') == 3 and "could not open http://127.0.0.1:9/" in html
    assert 'class="box' not in html


def test_only_http_urls_become_links() -> None:
    """A rule file's samples (or a page's links) may hold javascript: URLs."""
    from structurer.review.report import LevelView, SamplePage, render_review
    from structurer.rules.model import RenderDecision, RenderSample
    from tests.conftest import fixture_rules

    rules = fixture_rules("shop")
    decision = RenderDecision(mode="static", decided_by="auto", threshold=0.8, samples=[
        RenderSample(url="javascript:alert('sample')", similarity=0.5),
        RenderSample(url="http://127.0.0.1:8001/c/ok/", similarity=0.9)])
    view = LevelView("list", "javascript:alert('shot')", decision, [])
    view.add(SamplePage(" javascript:alert('page')", records=1), [{"name": "Boot"}])
    view.add(SamplePage("java\nscript:alert('split')"), [])
    html = render_review(rules, [view])
    links = re.findall(r'href="([^"]*)"', html)
    assert [u for u in links if not u.startswith("#")] == [
        rules.start_url, "http://127.0.0.1:8001/c/ok/"]
    assert "javascript:alert(&#39;sample&#39;)" in html and "javascript:alert(&#39;page&#39;)" in html


@pytest.mark.browser
def test_pages_larger_than_max_page_bytes_are_not_reviewed(tiny_site: Any) -> None:
    """A 50 MB page used 3.4 GB: pages are bounded by max_page_bytes, as in a crawl."""
    from tests.conftest import fixture_rules

    big = "<html><body><nav class='site-nav'><a href='/c/a/'>A</a></nav>" + (
        "<p>filler text of a very long page</p>" * 6000) + "</body></html>"
    base = tiny_site({"/": big, "/robots.txt": ""})
    rules = fixture_rules("shop")
    rules = rules.model_copy(update={"site": base.removeprefix("http://"),
                                     "start_url": base + "/"})
    html = build_review(rules, Settings(max_page_bytes=100_000))
    assert "page larger than 100000 bytes" in html and "data:image" not in html
    small = build_review(rules, Settings(max_page_bytes=1_000_000))
    assert "data:image/jpeg" in small   # the same page within the bound is photographed


def test_ambiguous_fields_show_both_candidates() -> None:
    from structurer.review.report import LevelView, _fields, render_review
    from structurer.rules import rules_from_text
    from structurer.rules.model import RenderDecision
    from tests.conftest import rule_text

    rules = rules_from_text(rule_text("shop.test", """
      detail:
        fields:
          name: {xpath: //h1, kind: text, confidence: 0.99, samples: [Trail Shoe],
                 runner_up: {xpath: //title, confidence: 0.5, samples: ['Trail Shoe | Shop']}}
          price:
            xpath: //p[@class='price']
            kind: money
            confidence: 0.41
            ambiguous: true
            samples: [$59.00, $120.50]
            runner_up: {xpath: "//p[@class='was']", confidence: 0.39, samples: [$80.00, $99.00]}
    """))
    assert rules.levels.detail is not None
    view = LevelView("detail", "http://shop.test/p/1", RenderDecision(),
                     _fields(rules.levels.detail.fields))
    html = render_review(rules, [view])
    assert html.count("data-ambiguous=") == 1 and 'data-ambiguous="price"' in html
    row = html[html.index('data-ambiguous="price"'):]
    row = row[:row.index("</tr>")]
    assert "$80.00 · $99.00" in row          # the runner-up's samples beside the winner's
    assert "Trail Shoe | Shop" not in html   # a clear runner-up's samples are not shown
