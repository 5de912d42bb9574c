"""Product records: list and detail extraction merged into one validated record.

Input: the list-item records of every list page that showed a product (each with the
category path of the page), the product's detail record (or None), and the record's
keys: the rule file's ``record.columns`` (analysis writes the template's fields there,
so a crawl never reads the lexicon) and its own fields. Output: one ``dict`` in the shape of
ARCHITECTURE.md ("Contracts"), validated by :class:`Product`: ``url``, ``name``,
``price`` (a number), ``currency``, ``price_text``, ``image``, ``availability``,
``sku``, ``description``, ``category`` (the most specific path, top first),
``categories`` (every path that lists the product), plus every other field of the
template and the rules, ``None`` where nothing was found. Pure: no I/O.

Merging: detail values win where both levels have one (but a detail stock line read
as ``unknown`` leaves a list's state standing); among list records the one
from the most specific category wins (ties: the smaller page URL), so the result
does not depend on the order pages were fetched in. The category is the product's
breadcrumb where the rules' trail was confirmed (:func:`trusted_trail`) or it names a
category the crawl reached the product through, else the most specific such path.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from structurer.crawler.stats import price_disagreement
from structurer.kinds import Words, default_words
from structurer.logs import logger
from structurer.replay.extract import CompiledRules
from structurer.replay.records import BASE_COLUMNS
from structurer.replay.records import record_columns as columns_of
from structurer.thresholds import CONFIRMED

if TYPE_CHECKING:
    from structurer.crawler.frontier import Frontier

log = logger(__name__)

__all__ = ["STRUCTURED_PRICE", "Listing", "Product", "ProductRecord", "build_product",
           "category_name", "emit_records", "record_columns", "record_hash", "trusted_trail",
           "unemitted"]

# (page URL, category path of the page, the item's list record)
Listing = tuple[str, Sequence[str], dict[str, Any]]

class Product(BaseModel):
    """One product as a crawl emits it; fields beyond these are kept as found."""

    model_config = ConfigDict(extra="allow")

    url: str
    name: str | None = None
    price: float | None = None
    currency: str | None = None
    price_text: str | None = None
    image: str | None = None
    availability: str | None = None
    sku: str | None = None
    description: str | None = None
    category: list[str] | None = None
    categories: list[list[str]] = []

    @field_validator("name", "sku", "description", "currency", "price_text", "availability",
                     "image", mode="before")
    @classmethod
    def _one_text(cls, value: Any) -> Any:
        """A multiple field that gave a list of strings: its first value."""
        if isinstance(value, list):
            return next((v for v in value if isinstance(v, str)), None)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        return value


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def category_name(text: str, words: Words | None = None) -> str:
    """A category link's text without the product count menus add ("Candles (34)",
    "Candles 34 products": the rule file's ``product_count`` words); a bare trailing
    number ("Route 66") stays."""
    text = " ".join(text.split())
    return (words or default_words()).said_count.sub("", text) or text


def _names(link: str, crumb: str, words: Words) -> bool:
    """Does a category link's text name this breadcrumb entry (a count may follow)?"""
    link, crumb = _norm(link), _norm(crumb)
    return link == crumb or (link.startswith(crumb) and bool(crumb)
                             and words.count.fullmatch(link[len(crumb):]) is not None)


def _refine(path: Sequence[str], crumbs: Sequence[str] | None,
            words: Words) -> tuple[str, ...]:
    """The path a category really has: the breadcrumb up to the category's own name when
    the product's breadcrumb names it (menus often show sub-categories without parents,
    or with a product count)."""
    if crumbs and path:
        for i, crumb in enumerate(crumbs):
            if _names(path[-1], crumb, words):
                return tuple(crumbs[:i + 1])
    return tuple(path)


def _crumbs(value: Any) -> list[str] | None:
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(value)
    return None


#: Key of a detail record that carries the page's structured-data price to the record
#: build (what :class:`~structurer.crawler.traverse.PageReader` read); never a column.
STRUCTURED_PRICE = "_structured_price"


class ProductRecord(dict[str, Any]):
    """A product record, and what its build noticed about the price (not a column: the
    statistics count it, :func:`structurer.crawler.stats.price_error`)."""

    __slots__ = ("price_flag",)

    def __init__(self, record: dict[str, Any], price_flag: str | None = None) -> None:
        super().__init__(record)
        self.price_flag = price_flag


def build_product(url: str, listings: Iterable[Listing], detail: dict[str, Any] | None,
                  columns: Sequence[str] = (), words: Words | None = None, *,
                  trusted: bool = True) -> dict[str, Any]:
    """The product record of ``url`` from its listings and detail record (see module doc);
    ``words``: the rule file's vocabulary (None: the shipped one); ``trusted``: the
    rules' breadcrumb was confirmed (:func:`trusted_trail`), else a trail naming none of
    the categories the crawl reached the product through gives way to their path."""
    words = words or default_words()
    ordered = sorted(listings, key=lambda item: (-len(item[1]), item[0]))
    structured = detail.get(STRUCTURED_PRICE) if detail else None
    if detail and STRUCTURED_PRICE in detail:
        detail = {k: v for k, v in detail.items() if k != STRUCTURED_PRICE}
    merged: dict[str, Any] = dict.fromkeys(columns)
    for _, _, fields in ordered:
        for key, value in fields.items():
            if merged.get(key) is None and value is not None and value != []:
                merged[key] = value
    if detail:
        for key, value in detail.items():
            if value == "unknown" and merged.get(key) is not None:
                continue   # a stock line the detail page could not read: the list's said
            if value is not None and value != []:
                merged[key] = value
            else:
                merged.setdefault(key, None)
    merged["url"] = url
    crumbs = _crumbs(merged.get("category"))
    # a category no link and no page title named is none the record can state
    reached = [path for _, path, _ in ordered if path and all(path)]
    if crumbs and reached and not trusted and not any(
            _names(path[-1], crumb, words) for path in reached for crumb in crumbs):
        crumbs = None   # an unconfirmed trail the crawl's own paths contradict
    paths: set[tuple[str, ...]] = {_refine(path, crumbs, words) for path in reached}
    if crumbs:
        paths.add(tuple(crumbs))
    longest = sorted(paths, key=lambda p: (-len(p), p))
    merged["category"] = crumbs or (list(longest[0]) if longest else None)
    merged["categories"] = [list(p) for p in sorted(paths)]
    flag = price_disagreement((detail or {}).get("price"), structured,
                              [fields.get("price") for _, _, fields in ordered])
    return ProductRecord(validate(merged), flag)


def trusted_trail(compiled: CompiledRules) -> bool:
    """Whether every breadcrumb rule of the rule file (read as the record's category) was
    confirmed against the categories its sample products were reached through
    (:data:`~structurer.thresholds.CONFIRMED`); a rule file without one has none to doubt."""
    plans = [layout.plan for layout in compiled.lists] + \
        [layout.plan for layout in compiled.details]
    return all(plan.crumbs_confidence >= CONFIRMED for plan in plans)


def validate(record: dict[str, Any]) -> dict[str, Any]:
    """The record checked by :class:`Product`; a value of the wrong type becomes None
    (and is logged) rather than losing the whole record."""
    for _ in range(len(BASE_COLUMNS) + 1):
        try:
            return Product.model_validate(record).model_dump(mode="json")
        except ValidationError as error:
            bad = {str(e["loc"][0]) for e in error.errors() if e["loc"]}
            if not bad or "url" in bad:
                raise
            log.warning("%s: dropped values of the wrong type: %s", record.get("url"),
                        ", ".join(sorted(bad)))
            record = {**record, **dict.fromkeys(bad)}
    return Product.model_validate(record).model_dump(mode="json")


def record_hash(record: dict[str, Any]) -> str:
    """A stable digest of a record's content (key order does not matter)."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def record_columns(compiled: CompiledRules) -> list[str]:
    """Every key a record of these rules can have, in a stable order: the rule file's
    ``record.columns`` (the contract's keys without one), then the rules' own fields
    not among them; money fields bring ``<name>_text``. From the rule file alone: a
    worker on another machine gives the same records."""
    record = compiled.rules.record
    plans = [layout.plan for layout in compiled.lists] + \
        [layout.plan for layout in compiled.details]
    return columns_of(((field.name, "money" if field.money else field.spec.kind)
                       for plan in plans for field in plan.fields),
                      record.columns if record is not None else BASE_COLUMNS)


def unemitted(frontier: Frontier, run: int, after: str, limit: int, *,
              force: bool = False) -> list[str]:
    """Keys (after ``after``, in order, at most ``limit``) of the products touched in
    ``run`` and not emitted in it; whose detail page is pending only with ``force``.
    Paging by key keeps a crawl of any size to one chunk of records in memory."""
    return [key for (key,) in frontier.db.execute(
        "SELECT key FROM products WHERE key > ? AND touched = ? "
        "AND (emitted_run IS NULL OR emitted_run != ?) AND (state != 0 OR ?) "
        "ORDER BY key LIMIT ?", (after, run, run, force, limit))]


def emit_records(frontier: Frontier, keys: Sequence[str], run: int,
                 columns: Sequence[str], *, force: bool = False,
                 words: Words | None = None, trusted: bool = True) -> list[dict[str, Any]]:
    """Build the records of ``keys`` and put the new or changed ones in the outbox (call
    inside a transaction); returns those. Products already emitted in this run are left
    alone, and so are those whose detail page is pending, unless ``force``."""
    db = frontier.db
    out: list[dict[str, Any]] = []
    for key in dict.fromkeys(keys):
        row = db.execute("SELECT url, detail, state, emitted, emitted_run FROM products "
                         "WHERE key = ?", (key,)).fetchone()
        if row is None:
            continue
        url, detail, state, emitted, emitted_run = row
        if emitted_run == run or (state == 0 and not force):  # its detail page is pending
            continue
        listings: list[Listing] = [
            (page, tuple(json.loads(path)), json.loads(fields))
            for page, path, fields in db.execute(
                "SELECT page, path, fields FROM listings WHERE product = ?", (key,))]
        record = build_product(url, listings, json.loads(detail) if detail else None,
                               columns, words, trusted=trusted)
        digest = record_hash(record)
        db.execute("UPDATE products SET emitted = ?, emitted_run = ? WHERE key = ?",
                   (digest, run, key))
        if digest != emitted:
            db.execute("INSERT INTO outbox(key, record) VALUES (?, ?)",
                       (key, json.dumps(record, ensure_ascii=False)))
            out.append(record)
    return out
