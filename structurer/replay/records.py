"""Records: one level's field rules applied to one node, giving one product record.

Input: a rule file's fields (``dict[str, FieldRule]``), compiled once by
:func:`compile_fields` (XPaths checked, optimized and compiled; post steps turned
into functions; availability phrases sorted); then per record a context node (a
list item, or the page root for a detail page), the page's
:class:`~structurer.values.Base` and its lazily parsed JSON-LD. Output: a plain
``dict`` in the shape of ARCHITECTURE.md ("Contracts"): every field the rules
define (None when missing); money fields as a number under the field's name plus
``<field>_text`` (the raw text); ``currency`` (ISO 4217) from the first money field
when the rules have no currency field (or it found nothing); ``category`` from a
breadcrumb field when the rules have no ``category`` field. A field is looked up by
its ``xpath``, then its ``jsonld`` path (:mod:`structurer.structured`), then its
``const``. :func:`record_columns` names every key such records have, in order: what a
rule file declares as ``record.columns`` (:func:`record_columns_for` a lexicon).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from time import thread_time
from typing import TYPE_CHECKING, Any

from structurer.page.dom import MONEY_RE
from structurer.replay.xpaths import Clock, XPathFn, compile_xpath
from structurer.rules.model import FieldRule
from structurer.structured import JsonLd
from structurer.values import (
    Base,
    Post,
    ValueSpec,
    Words,
    field_value,
    rule_phrases,
)

if TYPE_CHECKING:
    from structurer.lexicon import Lexicon

__all__ = ["BASE_COLUMNS", "REGEX_INPUT", "CompiledField", "FieldPlan", "build_record",
           "compile_fields", "compile_post", "record_columns", "record_columns_for", "select",
           "value_spec"]

#: Characters of a value that a ``regex:`` post step reads: a true constant, the bound
#: the regex checks of :mod:`structurer.rules.regexes` assume (not a tuning choice).
REGEX_INPUT = 1000

#: The keys every product record has (ARCHITECTURE.md, "Contracts"), in this order.
BASE_COLUMNS = ("url", "name", "price", "currency", "price_text", "image", "availability",
                "sku", "description", "category", "categories")


def record_columns(fields: Iterable[tuple[str, str]],
                   start: Iterable[str] = BASE_COLUMNS) -> list[str]:
    """The keys of records with these ``(name, kind)`` fields, after ``start``, each once:
    a money field brings ``<name>_text`` (its raw text) after it."""
    names = list(dict.fromkeys(start))
    for name, kind in fields:
        for key in (name, f"{name}_text") if kind == "money" else (name,):
            if key not in names:
                names.append(key)
    return names


def record_columns_for(lexicon: Lexicon) -> list[str]:
    """The record keys a rule file learned with ``lexicon`` declares (``record.columns``):
    the contract's, then every field of the lexicon."""
    return record_columns((name, spec.kind) for name, spec in lexicon.fields.items())


def select(plan: FieldPlan, node: Any, clock: Clock | None = None,
           costs: list[float] | None = None) -> list[Any]:
    """The results of every expression of ``plan`` on ``node``; with a ``clock``, each
    one's time is added to ``costs`` (one slot per expression, from :meth:`Clock.costs`:
    pass the same list for every item of a page) and the budget is checked after them."""
    xpaths = plan.xpaths
    if clock is None:
        return [xpath(node) for xpath in xpaths]
    if costs is None:
        costs = clock.costs(plan.labels)
    out = []
    timer = thread_time
    started = timer()
    for i, xpath in enumerate(xpaths):
        out.append(xpath(node))
        now = timer()
        costs[i] += now - started
        started = now
    if started > clock.deadline:
        raise clock.timeout()
    return out


# ----- post steps (rule file syntax -> functions) --------------------------------------------
def _each(fn: Callable[[str], str]) -> Post:
    return lambda values, base: [fn(v) for v in values]


def _regex(pattern: str) -> Post:
    compiled = re.compile(pattern)

    def step(values: list[str], base: Base) -> list[str]:
        out = []
        for value in values:
            found = compiled.search(value[:REGEX_INPUT])
            if found is not None:
                out.append(found.group(1) if compiled.groups else found.group(0))
        return out
    return step


def _split(sep: str) -> Post:
    return lambda values, base: [p.strip() for v in values for p in v.split(sep) if p.strip()]


def _replace(arg: str) -> Post:
    old, _, new = arg.partition("=>")
    return _each(lambda v: v.replace(old, new))


def _absolute(values: list[str], base: Base) -> list[str]:
    return [u for u in (base.join(v) for v in values) if u is not None]


_SIMPLE: dict[str, Post] = {
    "strip": _each(str.strip),
    "collapse": _each(lambda v: " ".join(v.split())),
    "lower": _each(str.lower),
    "upper": _each(str.upper),
    "first": lambda values, base: values[:1],
    "last": lambda values, base: values[-1:],
    "join": lambda values, base: [" ".join(v.strip() for v in values)] if values else [],
    "absolute_url": _absolute,
    # only texts showing an amount with its currency: where an old price is missing, the
    # review count "(165)" its XPath reaches is no price
    "money": lambda values, base: [v for v in values if MONEY_RE.search(v)],
}
_WITH_ARG: dict[str, Callable[[str], Post]] = {
    "regex": _regex,
    "remove": lambda arg: _each(lambda v: v.replace(arg, "").strip()),
    "split": _split,
    "replace": _replace,
    "prefix": lambda arg: _each(lambda v: arg + v if v else v),
    "suffix": lambda arg: _each(lambda v: v + arg if v else v),
    "default": lambda arg: lambda values, base: values if any(values) else [arg],
}


def compile_post(steps: Iterable[str]) -> tuple[Post, ...]:
    """Post steps of a rule file (already validated) as functions over the raw strings."""
    out = []
    for step in steps:
        op, sep, arg = step.partition(":")
        out.append(_WITH_ARG[op](arg) if sep else _SIMPLE[op])
    return tuple(out)


_NEEDS_ALL_POST = ("join", "last", "split:")


def value_spec(rule: FieldRule, words: Words | None = None) -> ValueSpec:
    """How a field rule turns selected nodes into a value: kind, post steps, phrases;
    ``words``: the rule file's vocabulary (None: the shipped one)."""
    needs_all = (rule.multiple or rule.kind == "breadcrumb"
                 or any(step.startswith(_NEEDS_ALL_POST) for step in rule.post))
    return ValueSpec(rule.kind, rule.multiple, compile_post(rule.post),
                     rule_phrases(rule.values, words), needs_all, words=words)


# ----- fields ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CompiledField:
    name: str
    spec: ValueSpec
    xpath: int | None               # index into FieldPlan.xpaths
    jsonld: tuple[str, ...] | None
    const: str | None
    money: bool
    post: str = ""                  # 'levels.x.fields.name.post: [...]' (timed) when it has steps
    currency: str | None = None     # money: the code of amounts whose text names none


@dataclass(frozen=True, slots=True)
class FieldPlan:
    """The compiled fields of one level (or variant) and the derived keys they imply.

    ``xpaths`` holds each distinct expression once (a name and a detail link often
    share one), so a record evaluates every expression once."""

    fields: tuple[CompiledField, ...]
    xpaths: tuple[XPathFn, ...]
    money: tuple[str, ...]          # money fields, the one named 'price' first
    crumbs: str | None              # the breadcrumb field to copy to 'category'
    uses_jsonld: bool
    extra: tuple[int, ...] = ()     # indexes of the expressions passed as ``extra``
    labels: tuple[str, ...] = ()    # per expression: 'levels.x.fields.name.xpath: XPath '...''
    crumbs_confidence: float = 1.0  # the confidence of the ``crumbs`` field's rule


def compile_fields(fields: dict[str, FieldRule], where: str,
                   extra: tuple[tuple[str, str], ...] = (),
                   words: Words | None = None) -> FieldPlan:
    """Compile a level's fields; ``extra`` are (expression, rule path) pairs evaluated
    with them, such as the list's detail link; ``words``: the rule file's vocabulary."""
    unique: dict[tuple[str, bool], int] = {}
    xpaths: list[XPathFn] = []
    labels: list[str] = []

    def index(expr: str, at: str, smart: bool) -> int:
        key = (expr, smart)
        if key not in unique:
            unique[key] = len(xpaths)
            xpaths.append(compile_xpath(expr, at, smart_strings=smart))
            labels.append(f"{at}: XPath {expr!r}")
        return unique[key]

    compiled = tuple(
        CompiledField(
            name=name,
            spec=value_spec(rule, words),
            # lazy-image fallbacks need the element behind an attribute result
            xpath=index(rule.xpath, f"{where}.{name}.xpath", rule.kind == "image")
            if rule.xpath else None,
            jsonld=tuple(rule.jsonld.split(".")) if rule.jsonld else None,
            const=rule.const, money=rule.kind == "money",
            post=f"{where}.{name}.post: {rule.post!r}" if rule.post else "",
            currency=rule.currency)
        for name, rule in fields.items())
    extras = tuple(index(expr, at, True) for expr, at in extra)
    money = sorted((f.name for f in compiled if f.money), key=lambda name: name != "price")
    crumbs = next((f.name for f in compiled if f.spec.kind == "breadcrumb"), None)
    if "category" in fields:
        crumbs = None
    return FieldPlan(compiled, tuple(xpaths), tuple(money), crumbs,
                     any(f.jsonld for f in compiled), extras, tuple(labels),
                     fields[crumbs].confidence if crumbs is not None else 1.0)


def _fallback(field: CompiledField, base: Base, ld: JsonLd | None) -> Any:
    """The value from the JSON-LD path, else the constant."""
    value = None
    if field.jsonld is not None and ld is not None:
        found, currency = ld.lookup(field.jsonld)
        if found:
            value = field_value(found, field.spec, base, currency)
    if (value is None or value == []) and field.const is not None:
        value = field_value([field.const], field.spec, base)
    return value


def build_record(plan: FieldPlan, node: Any, base: Base, ld: JsonLd | None,
                 record: dict[str, Any], selected: list[Any] | None = None,
                 clock: Clock | None = None) -> dict[str, Any]:
    """Add every field of ``plan`` (looked up from ``node``) to ``record`` and return it.
    ``selected`` are the results of ``plan.xpaths`` on ``node`` when already evaluated;
    ``clock`` times the expressions and the post steps."""
    if selected is None:
        selected = select(plan, node, clock)
    currencies: dict[str, str | None] = {}
    for field in plan.fields:
        spec = field.spec
        started = thread_time() if field.post and clock is not None else 0.0
        value = field_value(selected[field.xpath], spec, base, field.currency) \
            if field.xpath is not None else None
        if started:
            assert clock is not None
            clock.spent[field.post] = clock.spent.get(field.post, 0.0) + thread_time() - started
        if value is None or value == []:
            value = _fallback(field, base, ld) \
                if field.jsonld is not None or field.const is not None else None
            if value == []:
                value = None
        name = field.name
        if field.money:
            if spec.multiple:
                record[name] = [m.amount for m in value] if value else None
                record[f"{name}_text"] = [m.text for m in value] if value else None
                value = value[0] if value else None
            else:
                record[name] = value.amount if value is not None else None
                record[f"{name}_text"] = value.text if value is not None else None
            currencies[name] = value.currency if value is not None else None
            continue
        if name == "url" and record.get("url") is not None:
            continue  # the detail link wins over a url field
        record[name] = value
    if plan.money and all(record.get(m) is None for m in plan.money):
        record["currency"] = None   # no amount to speak of (sold out, price hidden)
    elif plan.money and record.get("currency") is None:
        record["currency"] = next(
            (currencies[m] for m in plan.money if currencies.get(m) is not None), None)
    if plan.crumbs is not None:
        crumbs = record.get(plan.crumbs)
        if crumbs and record.get("name") and crumbs[-1] == record["name"]:
            crumbs = crumbs[:-1] or None
            record[plan.crumbs] = crumbs
        record["category"] = crumbs
    return record
