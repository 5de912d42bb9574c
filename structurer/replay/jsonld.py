"""The JSON-LD Product of a page, for rule fields with a ``jsonld`` path.

Input: a parsed page. Output: the first schema.org Product (or ProductGroup, ...) object
of its ``application/ld+json`` scripts, parsed on first use only, and the strings at a
dotted path in it (:meth:`JsonLd.lookup`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

from lxml import etree

from structurer.replay.xpaths import XPathFn

log = logging.getLogger(__name__)

__all__ = ["JsonLd"]

_LD_SCRIPTS: XPathFn = etree.XPath("//script[contains(@type, 'ld+json')]/text()")
_PRODUCT_TYPES = frozenset({"product", "productgroup", "individualproduct", "productmodel",
                            "someproducts"})


def _is_product(obj: dict[str, Any]) -> bool:
    types = obj.get("@type")
    for value in types if isinstance(types, list) else [types]:
        if isinstance(value, str) and \
                value.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower() in _PRODUCT_TYPES:
            return True
    return False


def _objects(data: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """Every JSON object of a JSON-LD document, outer ones first (depth-limited)."""
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data:
            yield from _objects(item, depth + 1)
    elif isinstance(data, dict):
        yield data
        for value in data.values():
            if isinstance(value, (dict, list)):
                yield from _objects(value, depth + 1)


class JsonLd:
    """The page's JSON-LD Product, parsed on first use only."""

    __slots__ = ("_product", "_root")

    def __init__(self, root: Any) -> None:
        self._root = root
        self._product: dict[str, Any] | bool | None = False

    def product(self) -> dict[str, Any] | None:
        if self._product is False:
            self._product = None
            for text in _LD_SCRIPTS(self._root):
                try:
                    data = json.loads(text.strip().removeprefix("<!--").removesuffix("-->"),
                                      strict=False)
                except ValueError:
                    log.debug("unreadable JSON-LD block skipped")
                    continue
                found = next((o for o in _objects(data) if _is_product(o)), None)
                if found is not None:
                    self._product = found
                    break
        return self._product if isinstance(self._product, dict) else None

    def lookup(self, path: tuple[str, ...]) -> tuple[list[str], str | None]:
        """(the strings at the dotted path, the ``priceCurrency`` next to them). Lists on
        the way give their first element; an object at the end gives its ``name`` (or
        ``value``, ``price``, ``url``, ``@id``); ``price`` of an AggregateOffer falls back
        to ``lowPrice``."""
        current: Any = self.product()
        parent: Any = None
        for key in path:
            if isinstance(current, list):
                current = current[0] if current else None
            if not isinstance(current, dict):
                return [], None
            parent = current
            current = current.get(key, current.get("lowPrice") if key == "price" else None)
        currency = parent.get("priceCurrency") if isinstance(parent, dict) else None
        values = [_ld_text(v) for v in (current if isinstance(current, list) else [current])]
        return [v for v in values if v is not None], \
            currency if isinstance(currency, str) else None


def _ld_text(value: Any) -> str | None:
    if isinstance(value, dict):
        value = next((value[k] for k in ("name", "value", "price", "url", "@id") if k in value),
                     None)
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
