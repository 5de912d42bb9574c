"""Detail fields read from markup rather than text: the page's own buy control
(availability), star widgets (rating), the count beside the rating (review count), a
link to the field's own page (a brand), prose under the title block with no heading
(description) and the breadcrumb trail.

Input: detail :class:`PageView` objects, the lexicon, the anchors and main region
:mod:`structurer.learn.detail` found. Output: one verified :class:`FieldRule` each, or
None. Split from the detail learner so each stays readable in one sitting.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import MONEY_RE, text_of, tokens
from structurer.page.match import label_value, lexicon_match
from structurer.page.scope import buy_control, main_region
from structurer.page.view import PageView
from structurer.rules.model import FieldRule
from structurer.values import compile_phrases, parse_availability, parse_rating, rating_source


def scoped_candidates(ref: HtmlElement, scope: str | None) -> list[str]:
    """Absolute XPaths to ``ref``: first each inside the main product's region, then as is."""
    plain = xpaths.absolute_candidates(ref)
    if not scope:
        return plain
    region = next((n for n in xpaths.evaluate(scope, ref.getroottree().getroot())
                   if isinstance(n, HtmlElement)), None)
    inner = xpaths.relative_candidates(ref, region) if region is not None and (
        region in set(ref.iterancestors())) else []
    return list(dict.fromkeys([scope + x for x in plain if x.startswith("//")]
                              + [scope + x[1:] for x in inner if x.startswith("./")]
                              + plain))


def learn_buy_control(pages: Sequence[PageView], lexicon: Lexicon,
                      anchors: Sequence[HtmlElement | None], cards: Sequence[list[HtmlElement]],
                      scope: str | None, hints: Sequence[str | None] | None = None
                      ) -> FieldRule | None:
    """Availability from the page's own buy control where no text says it: an enabled
    add-to-cart button is in stock, a disabled or missing one out of stock. Learned when
    some sample page has an enabled one and one XPath finds each page's control (and
    nothing where there is none), agreeing with structured data where that says."""
    spec = next((s for s in lexicon.fields.values() if s.kind == "availability"), None)
    vocab = lexicon.signals.get("add_to_cart", {})
    if spec is None or not vocab:
        return None
    controls = [buy_control(main_region(p, a, c), vocab) if a is not None else None
                for p, a, c in zip(pages, anchors, cards, strict=True)]
    enabled = [c is not None and c.get("disabled") is None for c in controls]
    ref = next((c for c, on in zip(controls, enabled, strict=True) if on), None)
    if ref is None:
        return None
    states = ["in_stock" if on else "out_of_stock" for on in enabled]
    phrases = compile_phrases(spec.values)
    said = [(parse_availability(h, phrases), s) for h, s in zip(hints or [], states, strict=False)
            if h]
    if said and sum(h == s for h, s in said) < 0.8 * len(said):
        return None
    for xpath in scoped_candidates(ref, scope):
        if all(_selects_first(xpath, page, control)
               for page, control in zip(pages, controls, strict=True)):
            on = f"{xpath}[not(@disabled)]"
            return FieldRule(
                xpath=(f"concat(substring('in_stock', 1, 8 * boolean({on})), "
                       f"substring('out_of_stock', 1, 12 * not({on})))"),
                kind="availability", values=spec.values,
                confidence=0.8 if len(set(states)) > 1 else 0.6, samples=states[:3],
                evidence=["the page's own add-to-cart control: enabled = in stock, "
                          "disabled or missing = out of stock"])
    return None


def markup_rules(pages: Sequence[PageView], lexicon: Lexicon, fields: dict[str, FieldSpec],
                 rules: dict[str, FieldRule], anchors: Sequence[HtmlElement | None],
                 cards: Sequence[list[HtmlElement]], scope: str | None) -> dict[str, FieldRule]:
    """Rules for fields the text ranking left out, from markup: star ratings, the count
    beside the rating, fields shown as a link to their own page, a bare description."""
    out: dict[str, FieldRule] = {}
    rating = next((k for k, f in fields.items() if f.kind == "rating"), None)
    if rating and rating not in rules:
        stars = learn_rating(pages, lexicon, rating, anchors, cards, scope)
        if stars is not None:
            out[rating] = stars
    for name, spec in fields.items():
        if name not in rules and spec.kind == "text" and not spec.title and not spec.required:
            linked = learn_link_field(pages, lexicon, name, anchors, cards, scope)
            if linked is not None:
                out[name] = linked
    if "description" in fields and "description" not in rules | out:
        bare = learn_bare_description(pages, lexicon, "description", anchors, cards, scope)
        if bare is not None:
            out["description"] = bare
    elif "description" in rules:
        longer = extend_prose(rules["description"], pages)
        if longer is not None:
            out["description"] = longer
    count = next((k for k, f in fields.items() if k != rating and f.kind == "integer"
                  and "aggregateRating.reviewCount" in f.structured), None)
    rated = (rules | out).get(rating or "")
    if rated is not None and count and count not in rules:
        beside = learn_review_count(pages, rated, scope)
        if beside is not None:
            out[count] = beside
    return out


def learn_rating(pages: Sequence[PageView], lexicon: Lexicon, name: str,
                 anchors: Sequence[HtmlElement | None], cards: Sequence[list[HtmlElement]],
                 scope: str | None) -> FieldRule | None:
    """A star rating given by markup alone (a class word, ``rating-4``, a bar's width, an
    aria-label): the first element of the main region the field's words point at whose
    markup holds a rating 0-5 (:func:`rating_source`), on half the pages or more, found
    by one XPath on each. Where no word points at one (utility classes only), an
    ``aria-label``/``title`` stating a rating out of 5 in any language (``Noté 4,7 sur
    5``, :func:`_out_of_five`) is one, when the pages' ratings differ."""
    spec = lexicon.fields[name]
    regions = [main_region(page, anchor, page_cards)
               for page, anchor, page_cards in zip(pages, anchors, cards, strict=True)]

    def worded(el: HtmlElement) -> bool:
        return lexicon_match(el, spec, lexicon, lexicon.partial_ratio(name),
                             depth=0)[0] >= 0.3 and _stars(rating_source(el))

    for test, evidence in ((worded, "a rating in the markup (class, width or attribute) "
                                    "where the field's words point"),
                           (_out_of_five, "an aria-label or title stating a rating out of 5")):
        found = [next((el for el in region.iter() if isinstance(el.tag, str) and test(el)),
                      None) for region in regions]
        told = {rating_source(el) for el in found if el is not None}
        if test is worded or len(told) > 1:
            rule = _rating_rule(pages, found, scope, evidence)
            if rule is not None:
                return rule
    return None


def _out_of_five(el: HtmlElement) -> bool:
    """Whether ``el``'s ``aria-label`` or ``title`` states a rating out of 5: two numbers,
    one the scale 5, the other at most 5 (``Rated 4.5 out of 5``, ``5点中4点``)."""
    for attr in ("aria-label", "title"):
        numbers = [float(n.replace(",", ".")) for n in _NUMBER.findall(el.get(attr) or "")]
        if len(numbers) == 2 and 5.0 in numbers and all(0 <= n <= 5 for n in numbers):
            return True
    return False


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
#: a rating written after its scale (``5点中4.5点``, ``5つ星のうち4.5``): the second number
_SCALE_FIRST = r"regex:^\D*5\D+?(\d+(?:[.,]\d+)?)\D*$"


def _rating_rule(pages: Sequence[PageView], found: Sequence[HtmlElement | None],
                 scope: str | None, evidence: str) -> FieldRule | None:
    """The rating rule selecting each page's ``found`` element, on half the pages or
    more; where every rating is written after its scale 5 (the first number is 5 on
    every page and the second differs), a post step reads the second number."""
    ref = next((el for el in found if el is not None), None)
    if ref is None or sum(el is not None for el in found) < 0.5 * len(pages):
        return None
    samples = [rating_source(el) or "" for el in found if el is not None]
    numbers = [_NUMBER.findall(s) for s in samples]
    post = [_SCALE_FIRST] if all(len(n) == 2 and n[0] == "5" for n in numbers) and len(
        {n[1] for n in numbers}) > 1 else []
    for xpath in scoped_candidates(ref, scope):
        if all(_selects_first(xpath, page, el) for page, el in zip(pages, found, strict=True)):
            return FieldRule(xpath=xpath, kind="rating", confidence=0.8, samples=samples[:3],
                             post=post, evidence=[evidence])
    return None


#: a count of reviews as shops write it: "(264)", "469 отзывов", "12 reviews", "1,200"
_COUNT_RE = re.compile(r"^\(?\s*(?:\d{1,3}(?:[,.\s]\d{3})+|\d+)\s*\)?(?:\s*[^\d\s][^\d]{0,24})?$")


def _count_beside(rating: HtmlElement) -> tuple[HtmlElement, int] | None:
    """The element right after the rating (or after its parent or grandparent) holding
    only a count: where shops put the number of reviews the rating averages; with the
    levels gone up from the rating to reach it."""
    node: HtmlElement | None = rating
    for up in range(3):
        if node is None:
            return None
        nxt = node.getnext()
        while nxt is not None and not isinstance(nxt.tag, str):
            nxt = nxt.getnext()
        if nxt is not None:
            text = text_of(nxt)
            if text and _COUNT_RE.match(text) and not MONEY_RE.search(text):
                return nxt, up
            return None
        node = node.getparent()
    return None


def learn_review_count(pages: Sequence[PageView], rating: FieldRule,
                       scope: str | None) -> FieldRule | None:
    """The review count where no word names it: the count right after each page's rating
    element (:func:`_count_beside`), on half the pages or more, varying across pages and
    found by one XPath that selects nothing where there is none: read from the rating
    (``RATING/following-sibling::*[1]``) where it can be, so that a page without a
    rating gives none (not what then stands at the count's place)."""
    if not rating.xpath:
        return None
    beside: list[tuple[HtmlElement, int] | None] = []
    for page in pages:
        got = [n if isinstance(n, HtmlElement) else getattr(n, "getparent", lambda: None)()
               for n in xpaths.evaluate(rating.xpath, page.tree)[:1]]
        beside.append(_count_beside(got[0]) if got and got[0] is not None else None)
    found = [b[0] if b is not None else None for b in beside]
    present = [el for el in found if el is not None]
    if len(present) < max(2, 0.5 * len(pages)) or len({text_of(el) for el in present}) < 2:
        return None
    ups = {b[1] for b in beside if b is not None}
    relative = ([f"{rating.xpath}{'/..' * ups.pop()}/following-sibling::*[1]"]
                if len(ups) == 1 and "|" not in rating.xpath
                and not rating.xpath.startswith(("concat(", "string(")) else [])
    for xpath in relative + scoped_candidates(present[0], scope):
        if all(_selects_first(xpath, page, el) for page, el in zip(pages, found, strict=True)):
            return FieldRule(xpath=xpath, kind="integer", confidence=0.75,
                             samples=[text_of(el) for el in present[:3]],
                             evidence=["a count right after the rating (its reviews)"])
    return None


def _names_field(href: str | None, words: dict[str, float]) -> bool:
    """Whether a link's path names the field: ``/brands/penrose`` for the brand."""
    if not href:
        return False
    path = [t for part in urlsplit(href).path.lower().split("/")[:-1] for t in tokens(part)]
    return any(t == w or (len(w) >= 4 and w in t) for t in path
               for w, weight in words.items() if weight >= 8)


def _link_value(link: HtmlElement) -> tuple[HtmlElement, str] | None:
    """The node holding a link's short value: its text, else its image's alt."""
    text = text_of(link)
    if text:
        return (link, text) if len(text) <= 60 else None
    img = next(link.iter("img"), None)
    alt = " ".join((img.get("alt") or img.get("title") or "").split()) if img is not None else ""
    return (img, alt) if img is not None and alt and len(alt) <= 60 else None


def learn_link_field(pages: Sequence[PageView], lexicon: Lexicon, name: str,
                     anchors: Sequence[HtmlElement | None], cards: Sequence[list[HtmlElement]],
                     scope: str | None) -> FieldRule | None:
    """A field shown only as a link to its own page (the brand as ``<a href="/brands/x">``,
    its text or logo): the main region's first link whose path the field's words name, on
    half the pages or more, with values varying and not the product's name, found by one
    XPath on each page."""
    spec = lexicon.fields[name]
    found: list[tuple[HtmlElement, str] | None] = []
    for page, anchor, page_cards in zip(pages, anchors, cards, strict=True):
        region = main_region(page, anchor, page_cards)
        link = next((a for a in region.iter("a") if _names_field(a.get("href"), spec.words)),
                    None)
        value = _link_value(link) if link is not None else None
        title = text_of(anchor) if anchor is not None else ""
        found.append(value if value and value[1] != title else None)
    present = [f for f in found if f is not None]
    if len(present) < max(2, 0.5 * len(pages)) or len({v for _, v in present}) < 2:
        return None
    ref = present[0][0]
    view = "" if ref.tag == "a" else "/@alt" if ref.get("alt") else "/@title"
    for xpath in scoped_candidates(ref, scope):
        if all(_selects_first(xpath, page, f[0] if f else None)
               for page, f in zip(pages, found, strict=True)):
            return FieldRule(xpath=xpath + view, kind=spec.kind, confidence=0.75,
                             samples=[v for _, v in present[:3]],
                             evidence=[f"a link to the {name}'s own page ({xpath})"])
    return None


_PROSE = ("p", "ul", "ol")
_NOT_PROSE = frozenset({"form", "a", "li", "table", "label", "button", "h1", "h2", "h3"})


def _prose_run(region: HtmlElement, anchor: HtmlElement, min_text: int) -> list[HtmlElement]:
    """The paragraph (and the lists and paragraphs right after it) under the product's
    title block: the first ``<p>`` after the heading, in a block holding the heading,
    reading as a sentence (not a label pair, no amount of money), the run's text at least
    ``min_text`` characters."""
    holders = list(anchor.iterancestors())[:3]
    after = False
    for el in region.iter():
        if el is anchor:
            after = True
        if not after or el.tag != "p" or el.getparent() not in holders:
            continue
        text = text_of(el)
        if len(text.split()) < 4 or MONEY_RE.search(text) or label_value(el) is not None \
                or any(n.tag in _NOT_PROSE for n in el.iter()):
            continue
        run = [el]
        nxt = el.getnext()
        while nxt is not None and nxt.tag in _PROSE and text_of(nxt):
            run.append(nxt)
            nxt = nxt.getnext()
        if sum(len(text_of(n)) for n in run) >= min_text:
            return run   # a short line ("In stock (28)") is not the description: go on
    return []


def learn_bare_description(pages: Sequence[PageView], lexicon: Lexicon, name: str,
                           anchors: Sequence[HtmlElement | None],
                           cards: Sequence[list[HtmlElement]], scope: str | None
                           ) -> FieldRule | None:
    """A description with no heading, class or label: the prose run under the title block
    (:func:`_prose_run`) on every page, its paragraph and lists joined, found by one XPath
    (the first paragraph and the siblings after it) whose text varies across pages."""
    runs = [_prose_run(main_region(p, a, c), a, lexicon.thresholds.min_block_text)
            if a is not None else [] for p, a, c in zip(pages, anchors, cards, strict=True)]
    if not all(runs) or len(pages) < 2:
        return None
    texts = [" ".join(text_of(n) for n in run) for run in runs]
    if len(set(texts)) < len(texts):
        return None
    tags = [n.tag for n in runs[0][1:]]
    first = runs[0][0]
    parent = first.getparent()
    # the paragraph by what follows it (its list), or as its block's last one, before
    # positions (a stock line or a form before it comes and goes with the stock)
    shape = f"following-sibling::*[1][self::{tags[0]}]" if tags else "last()"
    shaped = [f"{x}/{first.tag}[{shape}]"
              for x in (scoped_candidates(parent, scope) if parent is not None else [])]
    for xpath in shaped + scoped_candidates(first, scope):
        full = " | ".join([xpath] + [f"{xpath}/following-sibling::*[{i}][self::{t}]"
                                     for i, t in enumerate(tags, 1)])
        if all(_selects_first(xpath, page, run[0]) and " ".join(
                text_of(n) for n in xpaths.evaluate(full, page.tree)
                if isinstance(n, HtmlElement)) == text
               for page, run, text in zip(pages, runs, texts, strict=True)):
            return FieldRule(xpath=full, kind=lexicon.fields[name].kind, post=["join"],
                             confidence=0.7, samples=[t[:200] for t in texts[:3]],
                             evidence=["prose under the product's title block, no heading"])
    return None


def extend_prose(rule: FieldRule, pages: Sequence[PageView]) -> FieldRule | None:
    """A description rule reading one paragraph that the same lists follow on every page
    (``<p>…</p><ul><li>…</li></ul>``, no heading between): the lists are the
    description's too, read joined to it. None where nothing is to add."""
    if not rule.xpath or rule.post or "|" in rule.xpath:
        return None
    tags: list[str] | None = None
    for page in pages:
        got = [n for n in xpaths.evaluate(rule.xpath, page.tree) if isinstance(n, HtmlElement)]
        if len(got) != 1 or got[0].tag != "p":
            return None
        run, nxt = [], got[0].getnext()
        while nxt is not None and nxt.tag in ("ul", "ol") and text_of(nxt):
            run.append(str(nxt.tag))
            nxt = nxt.getnext()
        if tags is not None and run != tags:
            return None
        tags = run
    if not tags:
        return None
    full = " | ".join([rule.xpath] + [f"{rule.xpath}/following-sibling::*[{i}][self::{t}]"
                                      for i, t in enumerate(tags, 1)])
    return rule.model_copy(update={
        "xpath": full, "post": ["join"],
        "evidence": [*rule.evidence, "the lists right after the paragraph read with it"]})


def _stars(raw: str | None) -> bool:
    value = parse_rating(raw) if raw else None
    return value is not None and 0 <= value <= 5


def _selects_first(xpath: str, page: PageView, want: HtmlElement | None) -> bool:
    got = [n for n in xpaths.evaluate(xpath, page.tree) if isinstance(n, HtmlElement)]
    return (bool(got) and got[0] is want) if want is not None else not got


def _unlinked_end(trail: HtmlElement, page: PageView, known: set[str]) -> str:
    """The step to a separator trail's unlinked last crumb (``Home » Jackets »
    <span>Rain</span>``) when it names a category (one of the ``known`` ones the product
    was reached through), or at least not the product (not its heading or title);
    "" for none."""
    if trail.findall(".//li"):
        return ""
    last = next((c for c in reversed(trail) if isinstance(c.tag, str)), None)
    text = text_of(last).lower() if last is not None else ""
    if last is None or last.tag == "a" or last.findall(".//a") or not text or len(text) > 60:
        return ""
    named = {" ".join(part.split()) for t in page.titles for part in re.split(r"[|–—:]", t.lower())}
    named |= {text_of(h).lower() for h in page.body.iter("h1")}
    if text not in {k.lower() for k in known} and any(
            (n.startswith(text) and len(text) >= 0.6 * len(n))
            or (text.startswith(n) and len(n) >= 0.6 * len(text)) for n in named if n):
        return ""   # the product's own name ends the trail
    return "/*[last()][not(self::a)][normalize-space()]"


def learn_breadcrumb(pages: Sequence[PageView], lexicon: Lexicon,
                     categories: Sequence[set[str]]) -> FieldRule | None:
    """The link trail naming the product's categories, top first: the best scoring block
    of links (:func:`_trails`) that one XPath finds on the pages and that varies with the
    product's category (a menu's sub-list naming the category too is tried and left)."""
    spec = next((s for s in lexicon.fields.values() if s.kind == "breadcrumb"), None)
    name = next((k for k, s in lexicon.fields.items() if s.kind == "breadcrumb"), None)
    if spec is None or name is None:
        return None
    for score, el, texts in _trails(pages[0], lexicon, spec, name, categories):
        chosen = _trail_xpath(el, pages, categories)
        if chosen is not None:
            return FieldRule(xpath=chosen, kind="breadcrumb", multiple=True,
                             confidence=round(min(1.0, score), 2), samples=[" > ".join(texts)])
    return None


def _trails(ref_page: PageView, lexicon: Lexicon, spec: FieldSpec, name: str,
            categories: Sequence[set[str]]) -> list[tuple[float, HtmlElement, list[str]]]:
    """Blocks of 1-12 short links of the first page that may be its trail, scored by the
    field's words and the categories they name (an unlinked last crumb counts), best
    first (document order among equals); those scoring under 0.3 left out."""
    found: list[tuple[float, HtmlElement, list[str]]] = []
    listed = {m for r in ref_page.product_regions for rec in r.records for m in rec}
    hint = {h.lower() for h in (categories[0] if categories else set())}
    for el in ref_page.body.iter("ol", "ul", "nav", "div", "p"):
        links = el.findall(".//a")
        # one link is a trail too where list items carry it (the parent linked, the
        # category and the product not)
        fewest = 1 if el.tag in ("ol", "ul") and len(el.findall("li")) >= 2 else 2
        if not fewest <= len(links) <= 12 or el in listed:
            continue
        texts = [text_of(a) for a in links]
        if sum(len(t) for t in texts) > 200 or not all(texts):
            continue
        lex, _ = lexicon_match(el, spec, lexicon, lexicon.partial_ratio(name))
        # an unlinked last crumb (``Home » Women » <span>Shoes</span>``) names a category too
        named = {t.lower() for t in texts} | {text_of(c).lower() for c in el[-1:]
                                               if c.tag != "a" and not c.findall(".//a")}
        overlap = len(named & hint) / max(len(hint), 1)
        lists = sum(1 for _ in el.iter("ol", "ul"))
        # a trail is one sequence: a block holding a second list (a menu beside it) is not
        score = lex + 1.5 * overlap - 0.02 * len(links) - (0.5 if lists > 1 else 0.0)
        if score >= 0.3:
            found.append((score, el, texts))
    return sorted(found, key=lambda f: -f[0])


def _trail_xpath(el: HtmlElement, pages: Sequence[PageView],
                 categories: Sequence[set[str]]) -> str | None:
    """The XPath reading the trail ``el`` (of the first page) on every page: found once
    a page, 1-12 crumbs on most pages, not the same links on pages of other categories."""
    ref_page = pages[0]
    # the link to the site's root is "Home" in any language: not a category
    home = any(a.get("href") == "/" for a in el.iter("a"))
    items = el.findall(".//li")
    if items:
        # the items, unlinked categories too; the last one, unlinked, is the product itself
        step = "//li[not(.//a[@href='/'])]" if home else "//li"
        if not items[-1].findall(".//a"):
            step += "[position() < last()]"
    else:
        step = "//a[not(@href='/')]" if home else "//a"
    tail = _unlinked_end(el, ref_page, categories[0] if categories else set())
    varied = len({frozenset(c) for c in categories if c}) > 1
    for trail in xpaths.absolute_candidates(el):
        xpath = trail + step + (f" | {trail}{tail}" if tail else "")
        if any(len(xpaths.evaluate(trail, page.tree)) > 1 for page in pages):
            continue   # a class the trail shares with another block: that block's links too
        ok = 0
        trails: set[tuple[str, ...]] = set()
        for page in pages:
            texts = [text_of(a) for a in xpaths.evaluate(xpath, page.tree)
                     if isinstance(a, HtmlElement)]
            trails.add(tuple(texts))
            if 1 <= len(texts) <= 12:
                ok += 1
        if varied and len(trails) == 1:
            continue   # the same links on pages of different categories: a menu, not a trail
        if ok >= 0.8 * len(pages):
            return xpath
    return None
