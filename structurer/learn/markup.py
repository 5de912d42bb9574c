"""Detail fields read from markup rather than text: the page's own buy control
(availability), a link to the field's own page (a brand), prose under the title block
with no heading (description); star ratings and their review counts come from
:mod:`structurer.learn.stars`, the breadcrumb trail from :mod:`structurer.learn.breadcrumbs`.

Input: detail :class:`PageView` objects, the lexicon, the anchors and main region
:mod:`structurer.learn.detail` found. Output: one verified :class:`FieldRule` each, or
None. Split from the detail learner so each stays readable in one sitting.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.scoped import scoped_candidates, selects_first
from structurer.learn.stars import count_field, learn_rating, learn_review_count
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import text_of
from structurer.page.scope import buy_control, field_link, main_region, prose_run
from structurer.page.view import PageView
from structurer.replay.records import value_spec
from structurer.rules.model import FieldRule
from structurer.values import Base, compile_phrases, field_value, parse_availability


def learn_buy_control(pages: Sequence[PageView], lexicon: Lexicon,
                      anchors: Sequence[HtmlElement | None], cards: Sequence[list[HtmlElement]],
                      scope: str | None, hints: Sequence[str | None] | None = None
                      ) -> FieldRule | None:
    """Availability from the page's own buy control where no text says it: an enabled
    add-to-cart button is in stock, a disabled or missing one out of stock where the
    product's region is there (the main region, else its heading): a page without it (an
    error page, another layout) says nothing. Learned when some sample page has an enabled
    one and one XPath finds each page's control (and nothing where there is none),
    agreeing with structured data where that says."""
    spec = next((s for s in lexicon.fields.values() if s.kind == "availability"), None)
    vocab = lexicon.signals.get("add_to_cart", {})
    if spec is None or not vocab:
        return None
    controls = [buy_control(main_region(p, a, c), lexicon) if a is not None else None
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
    region = scope or _heading_xpath(pages, anchors)
    for xpath in scoped_candidates(ref, scope):
        if all(selects_first(xpath, page, control)
               for page, control in zip(pages, controls, strict=True)):
            on = f"{xpath}[not(@disabled)]"
            off = f"boolean({region}) and not({on})" if region else f"not({on})"
            return FieldRule(
                xpath=(f"concat(substring('in_stock', 1, 8 * boolean({on})), "
                       f"substring('out_of_stock', 1, 12 * ({off})))"),
                kind="availability", values=spec.values,
                confidence=0.8 if len(set(states)) > 1 else 0.6, samples=states[:3],
                evidence=["the page's own add-to-cart control: enabled = in stock, "
                          "disabled or missing = out of stock"
                          + (f", where the product's block {region} is on the page" if region
                             else "")])
    return None


def _heading_xpath(pages: Sequence[PageView], anchors: Sequence[HtmlElement | None]
                   ) -> str | None:
    """An XPath finding each sample page's product heading first (None where none does)."""
    first = anchors[0] if anchors else None
    if first is None or any(a is None for a in anchors):
        return None
    return next((x for x in xpaths.absolute_candidates(first)
                 if all(selects_first(x, p, a) for p, a in zip(pages, anchors, strict=True))),
                None)


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
    prose = next((k for k, f in fields.items() if f.prose), None)
    if prose is not None and prose not in rules | out:
        bare = learn_bare_description(pages, lexicon, prose, anchors, cards, scope)
        if bare is not None:
            out[prose] = bare
    elif prose is not None and prose in rules and not rules[prose].jsonld:
        # a rule reading a part of the prose run (its list alone) gives way to the run
        bare = learn_bare_description(pages, lexicon, prose, anchors, cards, scope,
                                      part=rules[prose].xpath)
        longer = bare or extend_prose(rules[prose], pages)
        if longer is not None:
            out[prose] = longer
    count = count_field(fields, rating or "")
    rated = (rules | out).get(rating or "")
    if rated is not None and count and count not in rules:
        beside = learn_review_count(pages, rated, scope)
        if beside is not None:
            out[count] = beside
    return out


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
        value = field_link(region, spec.words, lexicon.thresholds.path_word)
        title = text_of(anchor) if anchor is not None else ""
        found.append(value if value and value[1] != title else None)
    present = [f for f in found if f is not None]
    if len(present) < max(2, 0.5 * len(pages)) or len({v for _, v in present}) < 2:
        return None
    ref = present[0][0]
    view = "" if ref.tag == "a" else "/@alt" if ref.get("alt") else "/@title"
    for xpath in scoped_candidates(ref, scope):
        if all(selects_first(xpath, page, f[0] if f else None)
               for page, f in zip(pages, found, strict=True)):
            return FieldRule(xpath=xpath + view, kind=spec.kind, confidence=0.75,
                             samples=[v for _, v in present[:3]],
                             evidence=[f"a link to the {name}'s own page ({xpath})"])
    return None


def _reads_part(xpath: str, pages: Sequence[PageView], runs: Sequence[list[HtmlElement]]
                ) -> bool:
    """Whether ``xpath`` reads, on every page, one element of the prose run after its
    first (the list under the paragraph, without the paragraph)."""
    for page, run in zip(pages, runs, strict=True):
        got = next((n for n in xpaths.evaluate(xpath, page.tree) if isinstance(n, HtmlElement)
                    and text_of(n)), None)
        if got is None or got not in run[1:]:
            return False
    return True


def learn_bare_description(pages: Sequence[PageView], lexicon: Lexicon, name: str,
                           anchors: Sequence[HtmlElement | None],
                           cards: Sequence[list[HtmlElement]], scope: str | None,
                           part: str | None = None) -> FieldRule | None:
    """A description with no heading, class or label: the prose run under the title block
    (:func:`~structurer.page.scope.prose_run`) on every page, its paragraph and lists
    joined, found by one XPath (the first paragraph and the siblings after it) whose text
    varies across pages. With
    ``part`` (a learned rule's XPath), only where that XPath reads a part of the run."""
    stock = next((compile_phrases(s.values) for s in lexicon.fields.values()
                  if s.kind == "availability"), None)
    runs = [prose_run(main_region(p, a, c), a, lexicon.thresholds.min_block_text, stock)
            if a is not None else [] for p, a, c in zip(pages, anchors, cards, strict=True)]
    if not all(runs) or len(pages) < 2 or (part is not None and not _reads_part(part, pages,
                                                                               runs)):
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
        if all(selects_first(xpath, page, run[0]) and " ".join(
                text_of(n) for n in xpaths.evaluate(full, page.tree)
                if isinstance(n, HtmlElement)) == text
               for page, run, text in zip(pages, runs, texts, strict=True)):
            rule = FieldRule(xpath=full, kind=lexicon.fields[name].kind, post=["join"],
                             confidence=0.7, evidence=["prose under the product's title "
                                                       "block, no heading"])
            return rule.model_copy(update={"samples": replayed_samples(rule, pages)})
    return None


def replayed_samples(rule: FieldRule, pages: Sequence[PageView], n: int = 3,
                     width: int = 200) -> list[str]:
    """A rule's samples as its records will hold them: what replay reads with it on the
    first pages (a paragraph and its list joined as the ``join`` step joins them, each
    element's text spaced by :func:`structurer.values.element_text`), cut to ``width``."""
    spec = value_spec(rule)
    out: list[str] = []
    for page in pages:
        value = field_value(xpaths.evaluate(rule.xpath or "", page.tree), spec, Base(page.url))
        if isinstance(value, str) and value and value[:width] not in out:
            out.append(value[:width])
        if len(out) >= n:
            break
    return out


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
    joined = rule.model_copy(update={
        "xpath": full, "post": ["join"],
        "evidence": [*rule.evidence, "the lists right after the paragraph read with it"]})
    return joined.model_copy(update={"samples": replayed_samples(joined, pages)})


