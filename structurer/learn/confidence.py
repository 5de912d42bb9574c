"""Confidence that means what it says: how often a learned field's values are right.

Input: a field rule as a learner built it, the winning and runner-up candidates
(:class:`~structurer.learn.fields.FieldChoice`: slot, view, ranking score), how well its
XPath fits the sample pages, and independent columns of what each sample record should
say — the page's structured data, the list page's value, the page's title texts. Output:
the rule with its ``confidence`` (and the runner-up's) recomputed, ``ambiguous`` set, and
one line of evidence saying what the confidence rests on.

A ranking score orders candidates; it is not a probability. Measured on the shop zoo
(``benchmarks/bench_calibration.py``), words, labels and value shapes alone put the
right slot first about four times in five, so they earn at most ``unconfirmed_cap``. A
confidence of 0.9 and more is earned only by agreement, value by value, with a source
the ranking did not choose: structured data (trusted first: a list page can share the
detail page's markup and its mistakes), else the list page or the page title. One source
in full agreement on every sample gives at most 0.99; 1.0 needs two. A source that
disagrees caps the confidence by its agreement. A runner-up within ``ambiguous_margin``
of the winner whose values differ makes the field ambiguous and about a coin toss.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lxml.html import HtmlElement

from structurer.kinds import (
    compile_words,
    currency_code,
    parse_availability,
    parse_breadcrumb,
    parse_integer,
    parse_money,
    parse_rating,
    rule_phrases,
)
from structurer.learn import xpaths
from structurer.learn.selects import first_of_differing, repeated
from structurer.lexicon import DEFAULT_THRESHOLDS, FieldSpec, Lexicon, Thresholds
from structurer.page.catlinks import home_link
from structurer.page.dom import norm_space, text_of
from structurer.page.titles import similarity
from structurer.replay.extract import compile_rules, extract_detail, extract_list
from structurer.rules.model import FieldRule, SiteRules
from structurer.structured import jsonld_value, microdata_fields, opengraph_fields

if TYPE_CHECKING:
    from structurer.learn.fields import FieldChoice
    from structurer.page.view import PageView

__all__ = ["agreement", "calibrate", "calibrate_breadcrumb", "confidence", "confirm_lists",
           "is_ambiguous", "structured_column"]

Column = Sequence[str | None]
_COMPARABLE = frozenset({"text", "money", "integer", "rating", "image", "url",
                         "availability", "currency"})
_CROSS = frozenset({"text", "money", "integer", "rating", "availability",
                    "currency"})  # list vs detail


def _norm(text: str) -> str:
    return norm_space(text).lower().strip(" :：")


def _tail(url: str) -> str:
    """The part of an address a relative ``src`` and an absolute JSON-LD URL share."""
    return url.split("://", 1)[-1].split("/", 1)[-1].lstrip("./")


def _same(value: str, hint: str, kind: str, phrases: Any) -> bool:
    """Does a sample value say what the independent source says?"""
    if kind == "money":
        x, y = parse_money(value).amount, parse_money(hint).amount
        return x is not None and y is not None and abs(x - y) < 0.005
    if kind in ("integer", "rating"):
        parse = parse_integer if kind == "integer" else parse_rating
        n, m = parse(value), parse(hint)
        return n is not None and m is not None and abs(n - m) < 0.005
    if kind in ("image", "url"):
        return bool(_tail(value)) and _tail(value) == _tail(hint)
    if kind == "availability":
        a, b = parse_availability(value, phrases), parse_availability(hint, phrases)
        return a not in (None, "unknown") and a == b
    if kind == "currency":     # "Couleur" holds "eur" and is no euro
        code = currency_code(value, value)
        return code is not None and code == currency_code(hint, hint)
    nv, nh = _norm(value), _norm(hint)
    return bool(nv) and (nv == nh or (bool(nh) and nh in nv and len(nv) <= 1.2 * len(nh) + 4))


def agreement(values: Column, hints: Column | None, kind: str,
              phrases: Any = None) -> tuple[float, int]:
    """(share of the records the source speaks for whose value says the same, how many
    records it speaks for). A record the source has a value for and the field has none
    counts against it: an empty main value is no confirmation."""
    if not hints or kind not in _COMPARABLE:
        return 0.0, 0
    pairs = [(v, h) for v, h in zip(values, hints, strict=False) if h not in (None, "")]
    if not pairs:
        return 0.0, 0
    right = sum(bool(v) and _same(str(v), str(h), kind, phrases) for v, h in pairs)
    # a source that speaks for most records and is silent where the field shows a value:
    # the value is likely another product's (a related grid's price, a placeholder image)
    silent = sum(1 for v, h in zip(values, hints, strict=False) if v and h in (None, "")) \
        if 2 * len(pairs) >= len(values) else 0
    return right / (len(pairs) + silent), len(pairs) + silent


def title_agreement(values: Column, titles: Sequence[Sequence[str]]) -> tuple[float, int]:
    """(share of pages whose value is one of its own title texts, or inside one; pages)."""
    pairs = [(v, t) for v, t in zip(values, titles, strict=False) if t]
    if not pairs:
        return 0.0, 0
    right = sum(bool(v) and len(v or "") >= 3 and any(_norm(v or "") in _norm(x) for x in t)
                for v, t in pairs)
    return right / len(pairs), len(pairs)


def structured_column(pages: Sequence[PageView], spec: FieldSpec) -> list[str | None]:
    """Per page what its structured data says the field is (None: it says nothing): its
    JSON-LD Product, else for an amount or a stock state its microdata or OpenGraph.
    (Microdata mostly sits on the very element a slot reads — an ``img itemprop=image``
    confirms nothing about itself —, while an amount's ``content`` attribute or a
    stock ``link`` is a value of its own; an OpenGraph title or image often differs from
    the page's on purpose: a site name, a share-sized picture.)"""
    column: list[str | None] = []
    for page in pages:
        product = page.product
        raw = next((v for v in (jsonld_value(product, p) for p in spec.structured)
                    if v not in (None, "", [])), None) if product is not None else None
        value = str(raw) if raw is not None and not isinstance(raw, (dict, list)) else None
        if value is None and spec.structured and spec.kind in ("money", "availability"):
            value = microdata_fields(page.tree, {"f": spec.structured}).get("f")
        if value is None and spec.kind == "money" and spec.opengraph:
            value = opengraph_fields(page.tree, {"f": spec.opengraph}).get("f")
        column.append(value)
    return column


def _differ(a: FieldChoice, b: FieldChoice) -> bool:
    """Do two candidates give different values on at least a fifth of the records that
    have any? (Two paths to the same text are no real choice.)"""
    pairs = [(x, y) for x, y in zip(a.slot.values(a.view), b.slot.values(b.view), strict=False)
             if x or y]
    same = sum(bool(x and y) and _norm(x or "") == _norm(y or "") for x, y in pairs)
    return bool(pairs) and same < 0.8 * len(pairs)


def _cut_amounts(choice: FieldChoice) -> float:
    """Share of records whose value is an element's own text that drops part of the
    amount its whole text shows ("€ 352" of "€ 352<sup>,50</sup>")."""
    if choice.view == "text":
        return 0.0
    pairs = [(v, w) for v, w in zip(choice.slot.values(choice.view),
                                    choice.slot.values("text"), strict=False) if v and w]
    cut = 0
    for value, whole in pairs:
        a, b = parse_money(value).amount, parse_money(whole).amount
        cut += a is not None and b is not None and a != b and int(a) == int(b)
    return cut / len(pairs) if pairs else 0.0


def is_ambiguous(best: FieldChoice, runner: FieldChoice | None,
                 thresholds: Thresholds = DEFAULT_THRESHOLDS) -> bool:
    """The runner-up scored within ``ambiguous_margin`` and gives other values."""
    return runner is not None and best.score - runner.score <= thresholds.ambiguous_margin \
        and _differ(best, runner)


UNCHECKED = "nothing independent to check the values against"


def _prior(best: FieldChoice, runner: FieldChoice | None, thresholds: Thresholds) -> float:
    """What words, labels and shapes alone are worth: the ranking score squashed below
    the cap, less what a close runner-up with other values takes."""
    th = thresholds
    prior = th.unconfirmed_cap * (1 - math.exp(-max(best.score, 0.0) / th.score_scale))
    if runner is not None and _differ(best, runner):
        lead = max(best.score - runner.score, 0.0)
        prior *= th.tie_factor + (1 - th.tie_factor) * min(1.0, lead / th.full_margin)
    return prior


def confidence(best: FieldChoice, runner: FieldChoice | None, kind: str, *,
               fit: float = 1.0, sources: Sequence[tuple[str, Column | None]] = (),
               titles: Sequence[Sequence[str]] | None = None,
               thresholds: Thresholds = DEFAULT_THRESHOLDS,
               phrases: Any = None) -> tuple[float, str]:
    """(confidence that ``best``'s values are right, what it rests on). ``sources`` are
    named independent columns, most trusted first; ``titles`` the pages' title texts
    (for a field that names the record)."""
    values = best.slot.values(best.view)
    prior = _prior(best, runner, thresholds)
    if kind == "money" and _cut_amounts(best) >= 0.5:
        return round(min(prior, 0.3) * fit, 2), \
            "the element's whole text holds a longer amount than the value read"
    checks = [(name, *agreement(values, column, kind, phrases)) for name, column in sources]
    if titles:
        checks.append(("the page title", *title_agreement(values, titles)))
    checks = [c for c in checks if c[2] >= 2]
    if not checks:
        return round(prior * fit, 2), UNCHECKED
    name, share, count = checks[0]
    if share < thresholds.agrees:   # the most trusted source speaking disagrees: it decides
        capped = min(prior, max(0.05, share - 0.1))
        return round(capped * fit, 2), f"agrees with {name} on {share:.0%} of {count} samples"
    confirmed = [c for c in checks if c[1] >= thresholds.agrees and c[2] >= thresholds.min_checks]
    if not confirmed:
        return round(prior * fit, 2), f"{name} speaks for only {count} samples"
    if is_ambiguous(best, runner, thresholds):
        return round(min(0.89, max(prior, 0.7)) * fit, 2), \
            f"agrees with {name}, but a close runner-up gives other values"
    value = 0.9 + 0.09 * thresholds.confirmed_depth(count)
    perfect = [c for c in confirmed if c[1] == 1.0 and c[2] >= thresholds.full_checks]
    if len(perfect) >= 2 and fit == 1.0:
        value = 1.0
    names = " and ".join(c[0] for c in confirmed[:2])
    return round(value * fit, 2), f"agrees with {names} on every checked sample" \
        if all(c[1] == 1.0 for c in confirmed[:2]) else f"agrees with {names}"


def calibrate(rule: FieldRule, best: FieldChoice, runner: FieldChoice | None, *,
              fit: float = 1.0, structured: Column | None = None, hints: Column | None = None,
              titles: Sequence[Sequence[str]] | None = None,
              pages: Sequence[PageView] = (),
              thresholds: Thresholds = DEFAULT_THRESHOLDS) -> FieldRule:
    """``rule`` with its confidence, its runner-up's and ``ambiguous`` measured (see the
    module docstring); the learners call this once per field rule they build. ``pages``:
    the sample pages of a page-wide (detail) rule, where an XPath selecting several
    elements is confirmed by structured data only."""
    phrases = rule_phrases(rule.values)
    sources = [("structured data", structured), ("the list page", hints)]
    value, why = confidence(best, runner, rule.kind, fit=fit, sources=sources, titles=titles,
                            thresholds=thresholds, phrases=phrases)
    if value >= 0.9 and not why.startswith("agrees with structured data") and \
            not rule.multiple and repeated(rule.xpath, pages):
        value = min(value, thresholds.unconfirmed_cap)
        why += ", but its XPath selects several elements on most pages (a repeated block?)"
    trusted, clashing = first_of_differing(rule, pages)
    if trusted < 1.0:   # right on the samples by the pages' order: at most the cap, and
        #                  unconfirmed, as likely as picking one of the amounts
        by_data = why.startswith("agrees with structured data")
        value = round(min(value, thresholds.unconfirmed_cap) * (1.0 if by_data else trusted), 2)
        why += (f", but its XPath gives several differing amounts on {clashing:.0%} of pages "
                "(it reads the first, whichever product's it is)")
    update: dict[str, Any] = {"confidence": value, "evidence": [*rule.evidence, why]}
    if rule.runner_up is not None and runner is not None:
        other, _ = confidence(runner, best, rule.kind, sources=sources, titles=titles,
                              thresholds=thresholds, phrases=phrases)
        update["runner_up"] = rule.runner_up.model_copy(update={"confidence": other})
        update["ambiguous"] = is_ambiguous(best, runner, thresholds)
    return rule.model_copy(update=update)


# ----- list fields, checked against the products' own pages -------------------------------------
def _recheck(rule: FieldRule, values: list[Any], sources: Sequence[tuple[str, Column]],
             phrases: Any, th: Thresholds) -> FieldRule:
    """A list rule's confidence after comparing its values with what the products' detail
    pages say (their structured data, then the detail rule's value when confirmed)."""
    shown = [None if v in (None, "", []) else str(v) for v in values]
    checks = [(name, *agreement(shown, column, rule.kind, phrases)) for name, column in sources]
    checks = [c for c in checks if c[2] >= 2]
    if not checks:
        return rule
    name, share, count = checks[0]
    if share < th.agrees:
        value = min(rule.confidence, max(0.05, share - 0.1))
        why = f"agrees with {name} of the product on {share:.0%} of {count} samples"
    elif count >= th.min_checks and not rule.ambiguous:
        value = max(rule.confidence, round(0.9 + 0.09 * th.confirmed_depth(count), 2))
        why = f"agrees with {name} of the product on every checked sample" if share == 1.0 \
            else f"agrees with {name} of the product"
    else:
        return rule
    # the list page alone had nothing to check against; the products' pages had
    evidence = [e for e in rule.evidence if e != UNCHECKED]
    return rule.model_copy(update={"confidence": round(value, 2), "evidence": [*evidence, why]})


def confirm_lists(rules: SiteRules, lists: Sequence[PageView], details: Sequence[PageView],
                  lexicon: Lexicon) -> SiteRules:
    """The list level's fields rechecked against the sample products' detail pages: a
    list name cut short ("Acme Turbo Kettle…") or a price missing its cents disagrees
    with the product's structured data or confirmed detail value, and loses its
    confidence; one that agrees earns it. Images and links are left alone (a list shows
    a thumbnail, the detail page the large image)."""
    level, detail_level = rules.levels.list, rules.levels.detail
    if level is None or not lists or not details:
        return rules
    compiled = compile_rules(rules)
    by_url = {page.url: page for page in details}
    items: list[tuple[dict[str, Any], PageView]] = []
    for page in lists:
        for item in extract_list(compiled, page.tree, page.url,
                                 jsonld=page.jsonld).items:
            if isinstance(item.get("url"), str) and item["url"] in by_url:
                items.append((item, by_url[item["url"]]))
    if not items:
        return rules
    records = {url: extract_detail(compiled, p.tree, url, jsonld=p.jsonld)
               for url, p in by_url.items()} if detail_level is not None else {}
    fields = dict(level.fields)
    for name, rule in level.fields.items():
        spec = lexicon.fields.get(name)
        if spec is None or rule.kind not in _CROSS:
            continue
        own = detail_level.fields.get(name) if detail_level is not None else None
        sources: list[tuple[str, Column]] = [
            ("the structured data", structured_column([p for _, p in items], spec))]
        if own is not None and own.confidence >= 0.9:
            sources.append(("the detail page", [None if records[p.url].get(name) in
                                                (None, "", []) else str(records[p.url][name])
                                                for _, p in items]))
        phrases = rule_phrases(rule.values, compile_words(lexicon.vocabulary))
        fields[name] = _recheck(rule, [item.get(name) for item, _ in items], sources, phrases,
                                lexicon.thresholds)
    return rules.model_copy(update={"levels": rules.levels.model_copy(
        update={"list": level.model_copy(update={"fields": fields})})})


# ----- breadcrumbs ------------------------------------------------------------------------------
def _crumbs(rule: FieldRule, page: PageView) -> tuple[list[str], bool]:
    """(the trail ``rule`` reads on ``page`` as a crawl gives it, whether its first link
    leads to the site's root: a "Home" crumb the value should not hold)."""
    links = [n for n in xpaths.evaluate(rule.xpath or "", page.tree) if isinstance(n, HtmlElement)]
    names = parse_breadcrumb([text_of(a) for a in links])
    first = next((a for a in links if names and " ".join(text_of(a).split()) == names[0]), None)
    return names, first is not None and home_link(first.get("href"), page.url)


def _ends_right(crumbs: list[str], wanted: set[str], page: PageView) -> bool:
    """The trail ends with the category the product was listed under, or names that
    whole path and goes on to deeper categories (a product reached through its
    department's list): not to the product's own name."""
    texts = [_norm(c) for c in crumbs]
    if texts[-1] in wanted:
        return True
    own = page.title.text if page.title is not None else ""
    return wanted <= set(texts) and similarity(crumbs[-1], own) < 0.8


def calibrate_breadcrumb(rule: FieldRule | None, pages: Sequence[PageView],
                         categories: Sequence[set[str]],
                         thresholds: Thresholds = DEFAULT_THRESHOLDS) -> FieldRule | None:
    """A breadcrumb rule's confidence from the sample pages: right where the trail ends
    with the category the product was listed under (:func:`_ends_right`) and does not
    start at the home page;
    the same trail on pages of different categories is a menu, not a breadcrumb."""
    if rule is None or rule.xpath is None:
        return rule
    checked = right = 0
    trails: list[tuple[str, ...]] = []
    listed: set[frozenset[str]] = set()
    for page, names in zip(pages, categories, strict=False):
        crumbs, home = _crumbs(rule, page)
        trails.append(tuple(crumbs))
        wanted = {_norm(n) for n in names if n}
        if not wanted:
            continue
        listed.add(frozenset(wanted))   # the category path's names: one product's
        checked += 1
        right += bool(crumbs) and not home and _ends_right(crumbs, wanted, page)
    if len(set(trails)) == 1 and len(listed) > 1:
        right = 0     # one trail for products of several categories: a menu (pages of
        #               one category, each naming its parent too, are not several)
    prior = min(rule.confidence, thresholds.unconfirmed_cap)
    agree = thresholds.agrees * checked
    if checked < 2:
        value, why = prior, "no category names to check the trail against"
    elif 2 * sum(len(t) >= 2 for t in trails) < len(trails) and right >= agree:
        value, why = prior, ("trails of one crumb: they may stop short of the product's "
                             "own category")
    elif right < agree:
        value = min(prior, max(0.05, right / checked - 0.1))
        why = f"ends with the product's category on {right} of {checked} pages"
    elif checked >= thresholds.min_checks:
        value = 0.9 + 0.09 * thresholds.confirmed_depth(checked)
        why = "ends with the product's category on every page"
    else:
        value, why = prior, f"only {checked} pages to check the trail against"
    # the list page alone had nothing to check against; the products' pages had
    evidence = [e for e in rule.evidence if e != UNCHECKED]
    return rule.model_copy(update={"confidence": round(value, 2), "evidence": [*evidence, why]})
