"""Which pages a category level's render mode is judged on (issue 13): category pages,
by the level's URL patterns, not whatever page its link rule leads to.

Hand-made raw/rendered pairs, no network and no browser.
"""

from __future__ import annotations

import re

from structurer.learn.render import (
    category_links,
    category_samples,
    decide_level,
    entry_only,
    rule_counter,
)
from structurer.replay.extract import compile_rules
from structurer.rules import rules_from_text
from tests.conftest import rule_text
from tests.learn.test_render import DEPTS, GRID, MENU, RATIO, SUBS, THRESHOLD, html

INFO = "".join(f"<li><a href='/pages/{p}'>{p}</a></li>" for p in ("about", "contact"))
FOOT = f"<footer><ul class='info'>{INFO}</ul><ul class='tops'>" + "".join(
    f"<li><a href='/c/{d}/'>{d}</a></li>" for d in ("camping", "walking")) + "</ul></footer>"
#: a link rule learned on the footer's information links (confidence 0, as on zoo 10156)
_FOOTER_RULE = """
      category:
        link_xpath: //footer/ul[1]//a
        url_patterns: ['/c/(?:[^/?]+/)*']
      list:
        item_xpath: //ul[@class='grid']/li
        fields:
          name: {xpath: .//h3, kind: text}
    """


def test_an_about_page_the_link_rule_leads_to_is_no_category_page() -> None:
    """A menu a script builds on every page the server renders (the entry, an "about"
    page), and category pages that are app shells a script fills whole. The link rule,
    learned on the footer's information links, leads from the rendered entry to the
    "about" page, which was sampled first: judged on it, every category page would be
    served its links (as the entry is) and the level would need the browser for the
    entry only. Its URL matches none of the level's patterns, so a category page (an
    app shell, no category link as fetched) takes its place: browser beyond the entry.
    Without patterns, the pages the rule leads to count as category pages as before;
    with them, so does one analysis found listing items (a top category the patterns of
    sub-categories miss)."""
    compiled = compile_rules(rules_from_text(rule_text("shop.test", _FOOTER_RULE)))
    links = category_links(compiled)
    served = html(MENU.format(DEPTS) + "<main><h1>Welcome</h1></main>" + FOOT)
    shown = html(MENU.format(DEPTS + SUBS) + "<main><h1>Welcome</h1></main>" + FOOT)
    entry = ("http://shop.test/", served, shown)
    about = ("http://shop.test/pages/about", served, shown)
    shell = ("http://shop.test/c/camping/", html("<div id='app'></div><script src='/a.js'>"
                                                 "</script>"),
             html(MENU.format(DEPTS + SUBS) + f"<main>{GRID}</main>{FOOT}"))
    assert "http://shop.test/pages/about" in links(entry[2], entry[0])
    patterns = [re.compile(p) for p in compiled.rules.levels.category.url_patterns]
    assert entry_only([entry, about], ["http://shop.test/"], links, RATIO)
    judged = category_samples([entry, about], ["http://shop.test/"], [about, shell],
                              patterns=patterns)
    assert [url for url, _, _ in judged] == ["http://shop.test/", "http://shop.test/c/camping/"]
    decision = decide_level(judged, THRESHOLD, count=rule_counter(compiled, "category"),
                            content_ratio=RATIO)
    assert decision.mode == "browser"
    assert not entry_only(judged, ["http://shop.test/"], links, RATIO)
    unpatterned = category_samples([entry, about], ["http://shop.test/"], [about, shell])
    assert unpatterned == [entry, about]
    listing = category_samples([entry, about], ["http://shop.test/"], [about, shell],
                               patterns=patterns, lists={about[0]})
    assert listing == [entry, about]
