"""Static vs browser detection: structure fingerprints on hand-made pages, and the
decision on every level of every demo shop from real raw and rendered pages.

The demo part fetches each sample page twice — over HTTP with HttpFetcher and rendered
in Chromium with BrowserFetcher — and checks the decision against the shops' ground
truth: pixel is browser on every level, maple is static / browser / static for
category / list / detail, the other six are static everywhere. It needs Chromium and
fails without it; it never skips.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from typing import Any

import pytest

from structurer.clean import parse_html
from structurer.config import Settings
from structurer.fetch import HttpFetcher, Page
from structurer.fetch.browser import BrowserFetcher
from structurer.learn.render import (
    BITS,
    added_links,
    decide_level,
    fingerprint,
    override,
    render_similarity,
    similarity,
    structure_features,
)
from structurer.lexicon import load_lexicon
from structurer.rules.model import RenderDecision

THRESHOLD = load_lexicon().thresholds.render_similarity
RATIO = load_lexicon().thresholds.render_content_ratio
LEVELS = ("category", "list", "detail")
SHOPS = ("outfitters", "nordlicht", "brightline", "kumo", "pixel", "huaxia", "maple", "ledger")

NAV = "<header><nav><ul>" + "".join(
    f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(12)) + "</ul></nav></header>"
FOOTER = "<footer><ul>" + "".join(f"<li><a href='/f/{i}'>Link {i}</a></li>"
                                  for i in range(8)) + "</ul></footer>"
GRID = "<ul class='grid'>" + "".join(
    f"<li><a href='/p/{i}'><img src='/i/{i}.jpg'></a><h3><a href='/p/{i}'>Product {i}</a></h3>"
    f"<span>${i}.99</span></li>" for i in range(24)) + "</ul>"


def html(body: str, head: str = "<title>t</title>") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


SHELL = html(f"{NAV}<main><h1>Shoes</h1><div id='app'></div></main>{FOOTER}"
             "<script src='/app.js'></script>")
RENDERED = html(f"{NAV}<main><h1>Shoes</h1><div id='app'>{GRID}</div></main>{FOOTER}")


# ----- fingerprints ----------------------------------------------------------------------
def test_features_are_body_tag_paths_weighted_by_count() -> None:
    page = html("<div><ul><li><a>x</a></li><li><a>y</a></li></ul></div><p>z</p>")
    assert structure_features(page) == Counter({
        "body/div": 1, "body/div/ul": 1, "body/div/ul/li": 2, "body/div/ul/li/a": 2,
        "body/p": 1})


def test_text_attributes_head_and_noise_are_ignored() -> None:
    plain = html("<main><ul><li><a href='/a'>A</a></li></ul></main>")
    noisy = html("<!-- banner --><main class='x' id='m'><ul data-v='1'><li><a href='/b'>Other "
                 "words</a><script>track()</script><style>p{}</style></li></ul>"
                 "<svg><path d='M0'/></svg><noscript><p>enable JS</p></noscript></main>",
                 head="<title>other</title><meta charset='utf-8'><script>x()</script>")
    assert structure_features(plain) == structure_features(noisy)
    assert render_similarity(plain, noisy) == 1.0


def test_browser_inserted_tbody_and_injected_links_are_see_through() -> None:
    raw = html("<table><tr><td>1</td></tr><tr><td>2</td></tr></table>")
    rendered = html("<link rel='preload' href='/x.js'><table><tbody><tr><td>1</td></tr>"
                    "<tr><td>2</td></tr></tbody></table><meta itemprop='price' content='1'>")
    assert structure_features(raw) == structure_features(rendered)
    assert render_similarity(raw, rendered) == 1.0


def test_script_built_grid_is_told_apart_where_a_bag_of_tags_is_not() -> None:
    """The grid uses the menu's own tags (ul/li/a): names barely change, paths do."""
    def names(page: str) -> Counter[str]:
        return Counter(el.tag for el in parse_html(page).iter("*"))

    bag = similarity(names(SHELL), names(RENDERED))
    paths = render_similarity(SHELL, RENDERED)
    assert paths < THRESHOLD - 0.1 < THRESHOLD <= bag


def test_small_script_additions_keep_a_page_static() -> None:
    page = html(f"{NAV}<main><h1>Shoes</h1>{GRID}</main>{FOOTER}")
    with_banner = page.replace("</footer>", "</footer><div class='cookies'><p>We use "
                               "cookies</p><button>OK</button></div>")
    assert render_similarity(page, with_banner) >= 0.9


def test_similarity_inputs_and_edge_cases() -> None:
    assert render_similarity(RENDERED.encode(), parse_html(RENDERED)) == 1.0
    assert render_similarity(html(""), html("")) == 1.0
    assert render_similarity(html(""), RENDERED) == 0.0
    assert render_similarity("", "") == 1.0
    value = fingerprint(structure_features(RENDERED))
    assert 0 < value < 2**BITS and value == fingerprint(structure_features(RENDERED))
    assert fingerprint(Counter()) == 0


# ----- the decision ----------------------------------------------------------------------
def test_decide_level_needs_two_pages() -> None:
    with pytest.raises(ValueError, match="at least 2 pages, got 1"):
        decide_level([("http://s/1", SHELL, RENDERED)], THRESHOLD)


def test_decide_level_records_evidence() -> None:
    static = decide_level([("http://s/a", RENDERED, RENDERED), ("http://s/b", SHELL, SHELL)],
                          THRESHOLD)
    assert static.mode == "static" and static.decided_by == "auto"
    assert static.threshold == THRESHOLD
    assert [(s.url, s.similarity) for s in static.samples] == [("http://s/a", 1.0),
                                                               ("http://s/b", 1.0)]
    browser = decide_level([("http://s/a", SHELL, RENDERED), ("http://s/b", SHELL, RENDERED),
                            ("http://s/c", RENDERED, RENDERED)], THRESHOLD)
    assert browser.mode == "browser" and len(browser.samples) == 3
    assert all(s.similarity == round(s.similarity, 3) for s in browser.samples)
    dumped = browser.model_dump(exclude_defaults=True)
    assert RenderDecision.model_validate(dumped) == browser  # what the rule file holds


def test_decision_follows_the_mean_against_the_threshold() -> None:
    pages = [("http://s/a", SHELL, RENDERED), ("http://s/b", RENDERED, RENDERED)]
    mean = sum(s.similarity for s in decide_level(pages, THRESHOLD).samples) / 2
    assert decide_level(pages, mean).mode == "static"
    assert decide_level(pages, min(1.0, mean + 0.01)).mode == "browser"


def test_override() -> None:
    assert override("browser") == RenderDecision(mode="browser", decided_by="override")


# ----- every demo shop, every level ------------------------------------------------------
def sample_urls(truth: dict[str, Any]) -> dict[str, list[str]]:
    """Two pages per level: the home page and a top category; a full first list page and
    the list page with the fewest products (the hardest to tell); two detail pages."""
    top = [c for c in truth["categories"] if c["parent"] is None]
    list_pages = truth["list_pages"]
    sparse = min(list_pages, key=lambda url: len(list_pages[url]["items"]))
    details = list(truth["detail_pages"])
    return {"category": [truth["home"], top[0]["url"]],
            "list": [next(iter(list_pages)), sparse],
            "detail": [details[0], details[-1]]}


@pytest.fixture(scope="module")
def decisions(demo_truth: dict[str, Any]) -> dict[tuple[str, str], RenderDecision]:
    """Each shop's levels decided from raw (HttpFetcher) and rendered (BrowserFetcher) pages."""
    plan = [(shop, level, url) for shop in SHOPS
            for level, urls in sample_urls(demo_truth[shop]).items() for url in urls]

    async def fetch() -> tuple[list[Page | Any], list[Page | Any]]:
        async with HttpFetcher(Settings()) as http, \
                BrowserFetcher(Settings(browser_pages=6)) as browser:
            urls = [url for _, _, url in plan]
            return await http.fetch_all(urls), await browser.fetch_all(urls)

    raws, rendered = asyncio.run(fetch())
    samples: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for (shop, level, url), raw, done in zip(plan, raws, rendered, strict=True):
        assert isinstance(raw, Page) and isinstance(done, Page), (raw, done)
        assert done.rendered and not raw.rendered
        samples.setdefault((shop, level), []).append((url, raw.text, done.text))
    return {key: decide_level(pages, THRESHOLD) for key, pages in samples.items()}


@pytest.mark.browser
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("shop", SHOPS)
def test_demo_levels_are_detected(decisions: dict[tuple[str, str], RenderDecision],
                                  demo_truth: dict[str, Any], shop: str, level: str) -> None:
    decision = decisions[shop, level]
    expected = demo_truth[shop]["render"][level]
    evidence = [(s.url, s.similarity) for s in decision.samples]
    assert decision.mode == expected, evidence
    assert decision.decided_by == "auto" and decision.threshold == THRESHOLD
    assert len(decision.samples) >= 2
    # every page on the right side of the threshold, by a margin
    for url, value in evidence:
        if expected == "static":
            assert value >= THRESHOLD + 0.1, (url, value)
        else:
            assert value <= THRESHOLD - 0.05, (url, value)


def test_the_demo_truth_has_both_modes(demo_truth: dict[str, Any]) -> None:
    modes = {(shop, level): demo_truth[shop]["render"][level] for shop in SHOPS
             for level in LEVELS}
    assert modes["pixel", "list"] == modes["pixel", "detail"] == "browser"
    assert [modes["maple", level] for level in LEVELS] == ["static", "browser", "static"]
    assert set(demo_truth) == set(SHOPS)


# ----- what the rules find, raw vs rendered ------------------------------------------------
MEGA = "<header><nav>" + "".join(
    f"<div class='col'><h4>Dept {d}</h4><ul>" + "".join(
        f"<li><a href='/c/{d}/{i}'>Category {d}.{i}</a></li>" for i in range(12)) + "</ul></div>"
    for d in range(10)) + "</nav></header>"
SMALL_GRID = "<div class='grid'>" + "".join(
    f"<div class='card'><a href='/p/{i}'>Product {i}</a><span class='price'>${i}.99</span></div>"
    for i in range(4)) + "</div>"
JSON_SHELL = html(f"{MEGA}<main><h1>Shoes</h1><div id='grid'></div></main>{FOOTER}")
JSON_FILLED = html(f"{MEGA}<main><h1>Shoes</h1><div id='grid'>{SMALL_GRID}</div></main>{FOOTER}")
CARD_RULES = """
  list:
    item_xpath: //div[@class='card']
    fields:
      name: {xpath: ./a, kind: text}
      price: {xpath: ./span, kind: money}
      url: {xpath: ./a, kind: url}
"""


def _card_counter() -> Any:
    from structurer.learn.render import rule_counter
    from structurer.replay.extract import compile_rules
    from structurer.rules import rules_from_text
    from tests.conftest import rule_text

    return rule_counter(compile_rules(rules_from_text(rule_text("shop.test", CARD_RULES))),
                        "list")


def test_a_grid_filled_after_load_in_a_large_page_is_browser_by_content() -> None:
    """The issue's case: the structure barely changes (a small grid in a mega-menu page),
    the items go from none to four: browser, with both measurements recorded."""
    samples = [(f"http://shop.test/c/{i}", JSON_SHELL, JSON_FILLED) for i in range(2)]
    assert render_similarity(JSON_SHELL, JSON_FILLED) >= THRESHOLD
    assert decide_level(samples, THRESHOLD).mode == "static"       # structure alone
    decision = decide_level(samples, THRESHOLD, count=_card_counter())
    assert decision.mode == "browser" and decision.by_content
    # four cards, each with its name and price (its amount, text and currency)
    assert [(s.found_raw, s.found_rendered) for s in decision.samples] == [(0, 20), (0, 20)]
    assert all(s.similarity >= THRESHOLD for s in decision.samples)


def test_pages_whose_rules_find_as_much_raw_stay_static() -> None:
    samples = [(f"http://shop.test/c/{i}", JSON_FILLED, JSON_FILLED) for i in range(2)]
    decision = decide_level(samples, THRESHOLD, count=_card_counter())
    assert decision.mode == "static" and not decision.by_content
    assert [(s.found_raw, s.found_rendered) for s in decision.samples] == [(20, 20), (20, 20)]
    # three of four items raw is not "far fewer"; one of four is
    three = JSON_FILLED.replace("<div class='card'><a href='/p/3'>", "<div><a href='/p/3'>")
    one = html(f"{MEGA}<main><h1>Shoes</h1><div id='grid'><div class='card'><a href='/p/0'>"
               f"P</a><span>$1</span></div></div></main>{FOOTER}")
    for raw, mode in ((three, "static"), (one, "browser")):
        got = decide_level([("http://shop.test/c/1", raw, JSON_FILLED)], THRESHOLD,
                           count=_card_counter(), min_pages=1)
        assert got.mode == mode


def test_pages_whose_structure_a_scripted_menu_moved_are_static_by_content() -> None:
    """A menu a script builds on every page (from the page's own JSON state) moves the
    structure below the threshold, while the grid the rules read is whole in the page as
    fetched: static, by content, both measurements kept. A grid missing raw, or served
    without the prices a script fills in, stays browser."""
    plain = html(f"<main><h1>Shoes</h1><div id='grid'>{SMALL_GRID}</div></main>{FOOTER}")
    samples = [(f"http://shop.test/c/{i}", plain, JSON_FILLED) for i in range(2)]
    assert render_similarity(plain, JSON_FILLED) < THRESHOLD
    assert decide_level(samples, THRESHOLD).mode == "browser"       # structure alone
    decision = decide_level(samples, THRESHOLD, count=_card_counter())
    assert decision.mode == "static" and decision.by_content
    assert [(s.found_raw, s.found_rendered) for s in decision.samples] == [(20, 20), (20, 20)]
    shell = html(f"<main><h1>Shoes</h1><div id='grid'></div></main>{FOOTER}")
    unpriced = re.sub(r"\$\d\.99", "", plain)   # the cards served, their prices a script's
    assert unpriced.count("class='card'") == 4 and "$" not in unpriced
    for raw in (shell, plain.replace("<div class='card'><a href='/p/3'>", "<div><a href='/p/3'>"),
                unpriced):
        got = decide_level([("http://shop.test/c/1", raw, JSON_FILLED)] * 2, THRESHOLD,
                           count=_card_counter())
        assert got.mode == "browser"


def test_links_a_script_added_are_counted() -> None:
    """A grid built in the browser beside a server-rendered side list: the rendered DOM
    links products the page as fetched does not (the sampler then analyzes it rendered);
    the shell's own links and anchors count for nothing."""
    shell = ("<html><body><nav><a href='/'>Home</a><a href='#top'>Top</a></nav>"
             "<aside><a href='/p/1'>Best 1</a><a href='/p/2'>Best 2</a></aside>"
             "<main><div id='grid'>{}</div></main></body></html>")
    grid = "".join(f"<div class='card'><a href='/p/{i}'>P {i}</a></div>" for i in range(2, 10))
    assert added_links(shell.format(""), shell.format(grid)) == 7
    assert added_links(shell.format(grid), shell.format(grid)) == 0


MENU = "<nav><ul>{}</ul></nav>"
_MENU_LEVELS = """
      category:
        link_xpath: //nav//a
        url_patterns: ['/c/']
      list:
        item_xpath: //ul[@class='grid']/li
        fields:
          name: {xpath: .//h3, kind: text}
    """   # a menu's category links over product grids
DEPTS = "".join(f"<li><a href='/c/{d}/'>{d}</a></li>" for d in ("camping", "walking"))
SUBS = "".join(f"<li><a href='/c/camping/{s}/'>{s}</a></li>" for s in ("tents", "stoves"))


def test_only_the_entry_needs_a_browser_when_it_alone_adds_category_links() -> None:
    """A menu a script fills on every page: the entry, rendered, shows the sub-categories;
    another category page, rendered, shows nothing more than it and the entry do: only
    the entry needs the browser, however far apart its structure renders (a product grid
    a script fills is the list level's). A page whose rendering adds links of its own
    (tiles a script builds), an app shell holding no category link as fetched, or no
    page but the entry to judge by: every category page does."""
    from structurer.learn.render import category_links, entry_only
    from structurer.replay.extract import compile_rules
    from structurer.rules import rules_from_text
    from tests.conftest import rule_text

    links = category_links(compile_rules(rules_from_text(rule_text("shop.test", _MENU_LEVELS))))
    entry = ("http://shop.test/", html(MENU.format(DEPTS) + FOOTER),
             html(MENU.format(DEPTS + SUBS) + FOOTER))
    raw = html(MENU.format(DEPTS) + f"<main>{GRID}</main>{FOOTER}")
    other = ("http://shop.test/c/walking/", raw,
             raw.replace(DEPTS, DEPTS + SUBS))
    assert links(entry[2], entry[0]) - links(entry[1], entry[0]) == {
        "http://shop.test/c/camping/tents/", "http://shop.test/c/camping/stoves/"}
    apart = (other[0], SHELL, RENDERED)   # its grid built in the browser, its menu served
    assert render_similarity(SHELL, RENDERED) < THRESHOLD
    for samples in ([entry, other], [entry, apart], [entry, other, apart]):
        assert entry_only(samples, ["http://shop.test/"], links, RATIO)
    tiles = (other[0], raw, other[2].replace(
        "<main>", "<main><nav><a href='/c/walking/packs/'>Packs</a></nav>"))
    app = (other[0], html("<div id='app'></div>"), other[2])
    for samples in ([entry, tiles], [entry, app], [entry, other, app], [entry], [other]):
        assert not entry_only(samples, ["http://shop.test/"], links, RATIO)


def test_the_category_level_is_judged_on_category_pages_not_an_about_page() -> None:
    """The entry (its menu in the HTML) and an "about" page probed from the entry's
    link groups render alike: static. The category pages are app shells a script fills
    whole: judged on one of them in the about page's place, the level needs a browser
    beyond the entry. Samples holding a category page already, or no category page to
    add, stay as they are."""
    from structurer.learn.render import category_links, category_samples, entry_only, rule_counter
    from structurer.replay.extract import compile_rules
    from structurer.rules import rules_from_text
    from tests.conftest import rule_text

    compiled = compile_rules(rules_from_text(rule_text("shop.test", _MENU_LEVELS)))
    home = html(MENU.format(DEPTS) + FOOTER)
    entry = ("http://shop.test/", home, home)
    about = ("http://shop.test/pages/about", home, home)
    shell = ("http://shop.test/c/camping/", html("<div id='app'></div><script src='/a.js'>"
                                                 "</script>"),
             html(MENU.format(DEPTS) + f"<main>{GRID}</main>{FOOTER}"))
    count = rule_counter(compiled, "category")
    assert decide_level([entry, about], THRESHOLD, count=count).mode == "static"
    judged = category_samples([entry, about], ["http://shop.test/"], [shell])
    assert [url for url, _, _ in judged] == ["http://shop.test/", "http://shop.test/c/camping/"]
    decision = decide_level(judged, THRESHOLD, count=count)
    assert decision.mode == "browser"
    assert [(s.found_raw, s.found_rendered) for s in decision.samples] == [(2, 2), (0, 2)]
    assert not entry_only(judged, ["http://shop.test/"], category_links(compiled), RATIO)
    assert category_samples([entry, shell], ["http://shop.test/"], [shell]) == [entry, shell]
    assert category_samples([entry, about], ["http://shop.test/"], []) == [entry, about]


def test_a_grid_the_list_level_needs_rendered_leaves_the_category_level_to_the_entry() -> None:
    """A menu a script fills from JSON on every page, and category pages whose product
    grid (and sub-category tiles, of the menu's links) a script builds: the structure of
    a category page moves far (the grid), its category links only by what the rendered
    entry shows. The list level is browser by its items; the category level is browser
    for the entry only, both measurements kept. The same category page as an app shell
    (nothing of its menu served) makes every category page browser."""
    from structurer.learn.render import category_links, entry_only, rule_counter
    from structurer.replay.extract import compile_rules
    from structurer.rules import rules_from_text
    from tests.conftest import rule_text

    compiled = compile_rules(rules_from_text(rule_text("shop.test", _MENU_LEVELS)))
    subs = SUBS + "".join(f"<li><a href='/c/walking/{s}/'>{s}</a></li>" for s in ("packs", "maps"))
    entry = ("http://shop.test/", html(MENU.format(DEPTS) + FOOTER),
             html(MENU.format(DEPTS + subs) + FOOTER))
    served = html(MENU.format(DEPTS) + f"<main><ul class='grid'></ul></main>{FOOTER}")
    built = html(MENU.format(DEPTS + subs) + f"<main><nav><ul>{subs}</ul></nav>{GRID}</main>"
                 + FOOTER)
    camping = ("http://shop.test/c/camping/", served, built)
    shell = (camping[0], html("<div id='app'></div><script src='/app.js'></script>"), built)
    listed = decide_level([camping, camping], THRESHOLD, count=rule_counter(compiled, "list"),
                          content_ratio=RATIO)
    assert listed.mode == "browser"
    assert [(s.found_raw, s.found_rendered) for s in listed.samples] == [(0, 48)] * 2
    count, links = rule_counter(compiled, "category"), category_links(compiled)
    for page, found, only in ((camping, (2, 6), True), (shell, (0, 6), False)):
        assert render_similarity(page[1], page[2]) < THRESHOLD
        decision = decide_level([entry, page], THRESHOLD, count=count, content_ratio=RATIO)
        assert decision.mode == "browser"
        assert [(s.found_raw, s.found_rendered) for s in decision.samples] == [(2, 6), found]
        assert entry_only([entry, page], ["http://shop.test/"], links, RATIO) is only
