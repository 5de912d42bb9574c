"""Score a rule file against a demo shop's ground truth: the measure every bar is set in.

Input: a shop, the base URL it is served at, and :class:`SiteRules`. Output:
:class:`Scores` — list-item precision and recall (by detail URL, per page), list
field accuracy (name, price, url, image), detail field accuracy (name, price,
sku, availability, description, breadcrumb), and pagination (the next URL is
right on every list page), plus the first mismatches for a person to read.
Pages come straight from the shop object, so scoring needs no network.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from structurer.clean import decode_html, parse_html
from structurer.demo.base import Shop
from structurer.replay.extract import compile_rules, extract_detail, extract_list
from structurer.rules.model import SiteRules

LIST_FIELDS = ("name", "price", "url", "image")
DETAIL_FIELDS = ("name", "price", "sku", "availability", "description", "breadcrumb",
                 "original_price", "brand", "currency")


@dataclass
class Scores:
    recall: float
    precision: float
    list_fields: dict[str, float]
    detail_fields: dict[str, float]
    pagination: float
    list_pages: int
    detail_pages: int
    errors: list[str] = field(default_factory=list)


def _norm(text: Any) -> str:
    return re.sub(r"\s+", " ", str(text or "")).strip().lower()


def same(name: str, got: Any, want: Any) -> bool:
    """Does an extracted value equal the truth (numbers exactly, text modulo whitespace)?"""
    if want is None:
        return got in (None, "", [])
    if name in ("price", "original_price", "rating"):
        return isinstance(got, (int, float)) and abs(float(got) - float(want)) < 0.005
    if name in ("breadcrumb", "category"):
        return [_norm(x) for x in (got or [])] == [_norm(x) for x in want]
    if name == "description":
        g, w = _norm(got), _norm(want)
        return bool(g) and (g == w or (w in g and len(g) <= 1.3 * len(w)))
    return _norm(got) == _norm(want)


def page_tree(shop: Shop, url: str, base: str,
              rendered: Mapping[str, str] | None = None) -> Any:
    """The page as the rules will see it: from ``rendered`` (browser DOMs by URL) when
    given there, else straight from the shop."""
    if rendered is not None and url in rendered:
        return parse_html(rendered[url], base_url=url)
    response = shop.handle(url[len(base):])
    text, _ = decode_html(response.body, response.content_type)
    return parse_html(text, base_url=url)


def score_rules(shop: Shop, base: str, rules: SiteRules, *, max_errors: int = 50,
                rendered: Mapping[str, str] | None = None, step: int = 1) -> Scores:
    """Apply ``rules`` to every list and detail page of ``shop`` and compare with its truth.

    Pages of levels the shop builds with JavaScript must come rendered in ``rendered``.
    ``step`` scores every n-th page only (for quick checks of rendered shops).
    """
    truth = shop.ground_truth(base)
    truth["list_pages"] = dict(list(truth["list_pages"].items())[::step])
    truth["products"] = truth["products"][::step]
    compiled = compile_rules(rules)
    errors: list[str] = []

    def miss(text: str) -> None:
        if len(errors) < max_errors:
            errors.append(text)

    tp = fp = fn = 0
    list_ok = dict.fromkeys(LIST_FIELDS, 0)
    list_total = next_ok = 0
    for url, page in truth["list_pages"].items():
        result = extract_list(compiled, page_tree(shop, url, base, rendered), url)
        got = {r["url"]: r for r in result.items}
        want = {i["url"]: i for i in page["items"]}
        tp += len(got.keys() & want.keys())
        fp += len(got.keys() - want.keys())
        fn += len(want.keys() - got.keys())
        if got.keys() != want.keys():
            miss(f"list {url}: {len(got.keys() - want.keys())} extra, "
                 f"{len(want.keys() - got.keys())} missed")
        next_ok += result.next_url == page["next"]
        if result.next_url != page["next"]:
            miss(f"next {url}: got {result.next_url} want {page['next']}")
        for item_url, item in want.items():
            list_total += 1
            record = got.get(item_url)
            for name in LIST_FIELDS:
                value = record.get(name) if record else None
                if record is not None and same(name, value, item[name]):
                    list_ok[name] += 1
                else:
                    miss(f"list.{name} {item_url}: got {value!r} want {item[name]!r}")
    detail_ok = dict.fromkeys(DETAIL_FIELDS, 0)
    products = truth["products"]
    for product in products:
        record = (extract_detail(compiled, page_tree(shop, product["url"], base, rendered),
                                 product["url"]) if compiled.has_detail else {})
        for name in DETAIL_FIELDS:
            if same(name, record.get(name), product[name]):
                detail_ok[name] += 1
            else:
                miss(f"detail.{name} {product['url']}: got {record.get(name)!r} "
                     f"want {product[name]!r}")
    return Scores(
        recall=tp / max(tp + fn, 1), precision=tp / max(tp + fp, 1),
        list_fields={f: list_ok[f] / max(list_total, 1) for f in LIST_FIELDS},
        detail_fields={f: detail_ok[f] / max(len(products), 1) for f in DETAIL_FIELDS},
        pagination=next_ok / max(len(truth["list_pages"]), 1),
        list_pages=len(truth["list_pages"]), detail_pages=len(products), errors=errors)
