"""A product page's structured data as fields, for :mod:`structurer.generic.products`:
its JSON-LD Product (at the lexicon's ``structured`` paths), microdata and OpenGraph,
best first; a Product with several offers (sizes, colours, sellers) read as a shopper
sees it (:func:`offer_fields`).
"""

from __future__ import annotations

from typing import Any

from structurer.page.view import PageView
from structurer.structured import (
    jsonld_value,
    microdata_fields,
    microdata_offers,
    opengraph_fields,
)
from structurer.values import compile_phrases, parse_availability


def structured_fields(view: PageView) -> list[tuple[str, Any, str]]:
    """(field, value, source) as the page's structured data gives them, best first: its
    JSON-LD Product (the offer a shopper sees first), microdata, OpenGraph."""
    out: list[tuple[str, Any, str]] = []
    paths = view.lexicon.structured_paths()
    if view.product is not None:
        out += [(name, value, "jsonld") for name, value in offer_fields(view, _jsonld_offers(view))
                .items()]
        out += [(name, jsonld_value(view.product, path), "jsonld")
                for name, options in paths.items() for path in options]
    else:
        out += [(name, value, "microdata") for name, value in
                offer_fields(view, microdata_offers(view.tree, view.words)).items()]
    out += [(name, value, "microdata")
            for name, value in microdata_fields(
                view.tree, paths, view.words).items()]
    out += [(name, value, "opengraph") for name, value in
            opengraph_fields(view.tree, view.lexicon.opengraph_names()).items()]
    return out


def _jsonld_offers(view: PageView) -> list[dict[str, Any]]:
    """The offers of the page's JSON-LD Product (an AggregateOffer's own list too)."""
    offers = (view.product or {}).get("offers")
    if isinstance(offers, dict) and isinstance(offers.get("offers"), list):
        offers = offers["offers"]           # an AggregateOffer listing its offers
    return [o for o in offers if isinstance(o, dict)] if isinstance(offers, list) else []


def offer_fields(view: PageView, offers: list[dict[str, Any]]) -> dict[str, Any]:
    """Price and stock of a Product with several ``offers`` (sizes, colours, sellers;
    JSON-LD's or microdata's) as a shopper sees them: in stock when any offer is, with
    that offer's price (the first offer's when none is; nothing for one offer, which the
    paths read)."""
    if len(offers) < 2:
        return {}
    spec = view.lexicon.spec_of("availability")
    phrases = compile_phrases(spec.values) if spec is not None else ()
    states = [parse_availability(str(o.get("availability") or ""), phrases) if phrases
              else parse_availability(str(o.get("availability") or "")) for o in offers]
    chosen = next((o for o, state in zip(offers, states, strict=True) if state == "in_stock"),
                  offers[0])
    out: dict[str, Any] = {"availability": "in_stock" if "in_stock" in states else
                           next((st for st in states if st not in (None, "unknown")), None)}
    if chosen.get("price") not in (None, ""):
        out["price"] = chosen["price"]
        out["currency"] = chosen.get("priceCurrency")
    return out
