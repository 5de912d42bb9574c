"""The Jinja2 environment both reports are rendered in, and the filters that format figures.

Input: template names under ``structurer/review/templates``. Output: HTML text; values are
escaped unless a template says otherwise, and an undefined name is an error, not a blank.
Only http(s) URLs may become links (the ``linkable`` test): a ``javascript:`` URL from a
rule file or a page is shown as text.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import jinja2

__all__ = ["cell", "count", "environment", "linkable", "number", "ordered", "rate", "raw"]


def cell(value: Any) -> str:
    """A record value for a table cell, shortened."""
    if value is None:
        return "—"
    text = " > ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= 120 else text[:117] + "…"


def count(value: int | None) -> str:
    """An integer with thousands separators (``12,345``)."""
    return "—" if value is None else f"{value:,}"


def rate(value: float | None) -> str:
    """A share as a percentage with one decimal (``97.3%``)."""
    return "—" if value is None else f"{value:.1%}"


def number(value: float | None) -> str:
    """A measured figure with one decimal (``12.5``)."""
    return "—" if value is None else f"{value:,.1f}"


def ordered(mapping: dict[str, Any], *first: str) -> list[tuple[str, Any]]:
    """The items of ``mapping``, the keys named in ``first`` first (in that order)."""
    rank = {key: i for i, key in enumerate(first)}
    return sorted(mapping.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))


def linkable(value: Any) -> bool:
    """An absolute http(s) URL, safe as an ``href``."""
    if not isinstance(value, str) or any(c.isspace() or ord(c) < 32 for c in value):
        return False
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def raw(value: Any) -> str:
    """The value exactly as the JSON file holds it (for ``data-value`` attributes)."""
    return json.dumps(value)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("structurer.review", "templates"),
        autoescape=jinja2.select_autoescape(["html", "html.j2"]),
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["pct"] = lambda value, total: f"{100 * value / total:.4f}%" if total else "0%"
    env.filters.update(cell=cell, count=count, rate=rate, number=number, raw=raw,
                       ordered=ordered)
    env.tests["linkable"] = linkable
    return env
