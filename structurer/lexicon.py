"""Lexicons: the editable "matching templates" of the method, one YAML file each.

Input: ``templates/<name>.yaml`` or any path. Output: a validated, frozen
:class:`Lexicon`. A lexicon holds the list-structure priorities, the weights of
node attributes, the fields to find (words and weights, value kind, level) and
the thresholds of the analysis. Vocabulary is data: nothing in the analyzer
hard-codes a field word.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import ClassVar

from pydantic import Field, field_validator, model_validator

from structurer import yamlio
from structurer.errors import RuleError
from structurer.schema import FieldLevel, Strict, ValueKind, error_at
from structurer.thresholds import DEFAULT_THRESHOLDS as DEFAULT_THRESHOLDS  # re-exported:
from structurer.thresholds import Thresholds as Thresholds  # a lexicon's part
from structurer.vocabulary import Vocabulary as Vocabulary  # re-exported: a lexicon's part

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"

_ATTRIBUTE = re.compile(r"^(?:[a-z][a-z0-9_:.-]*|data-\*|aria-\*)$")
_STRUCTURE = re.compile(r"^[a-z][a-z0-9]*/[a-z][a-z0-9]*$")
_IDENT = re.compile(r"^[a-z][a-z0-9_]*$")
_SCHEMA_PATH = re.compile(r"^[A-Za-z@][A-Za-z0-9_@-]*(?:\.[A-Za-z@][A-Za-z0-9_@-]*)*$")
_META_NAME = re.compile(r"^[a-z][a-z0-9_:.-]*$")

DEFAULT_ATTRIBUTE_WEIGHTS = {
    "id": 15.0, "name": 10.0, "class": 10.0, "type": 8.0, "itemprop": 12.0, "data-*": 6.0,
    "aria-label": 5.0, "alt": 4.0, "title": 4.0, "rel": 6.0,
}
DEFAULT_LIST_STRUCTURES = {
    "ul/li": 1.0, "ol/li": 0.95, "div/div": 0.85, "table/tr": 0.8, "tbody/tr": 0.8,
    "dl/dd": 0.7, "div/article": 0.9, "section/article": 0.9, "div/p": 0.5, "p/p": 0.4,
}


def _positive_weights(value: dict[str, float], what: str,
                      prefix: list[str] | None = None) -> dict[str, float]:
    for key, weight in value.items():
        if not str(key).strip():
            raise error_at([*(prefix or []), str(key)], f"empty {what}")
        if weight <= 0:
            raise error_at([*(prefix or []), str(key)],
                           f"{what} {key!r} has weight {weight}; weights must be > 0")
    return value


class FieldSpec(Strict):
    """One field to find: the words that point at it and what its value looks like."""

    kind: ValueKind
    level: FieldLevel = "both"
    required: bool = False
    multiple: bool = False
    # attribute words (id/class/name/itemprop/data-*) and weights
    words: dict[str, float] = Field(min_length=1)
    # visible label texts near the value ('SKU:', '价格')
    labels: dict[str, float] = Field({})
    # normalized value -> phrases that mean it
    values: dict[str, list[str]] = Field({})
    partial_ratio: float | None = Field(None, ge=0, le=1)
    # the value is usually shown struck through (an old price in <del>)
    struck: bool = False
    # the field names the record: expect it in the page's <title>, og:title and h1
    title: bool = False
    # the value is a code (SKU, GTIN, ISBN): a text shaped like words is no value of it
    identifier: bool = False
    # the value is running text about the record (a description): a number, a label pair,
    # a heading or a grid of specifications (a table, a definition list) is none, a bare
    # paragraph under the title block may be, and a rule found for it is extended over
    # the paragraphs that follow
    prose: bool = False
    # where structured data keeps it: schema.org property paths in the page's Product
    # (Article), read in JSON-LD and microdata alike, the first found wins
    structured: list[str] = Field([])
    # OpenGraph / meta tag names (property or name) holding it, the first found wins
    opengraph: list[str] = Field([])
    description: str = ""

    # keys left out of the lexicon's hash at their default, so that a lexicon not setting
    # them keeps the hash it had before they existed (as ``Thresholds.UNHASHED_DEFAULTS``)
    UNHASHED_DEFAULTS: ClassVar[tuple[str, ...]] = ("prose",)

    @field_validator("words", "labels")
    @classmethod
    def _weights(cls, value: dict[str, float]) -> dict[str, float]:
        return _positive_weights(value, "word")

    @field_validator("structured")
    @classmethod
    def _paths(cls, value: list[str]) -> list[str]:
        for i, path in enumerate(value):
            if not _SCHEMA_PATH.match(path):
                raise error_at([str(i)], f"{path!r} is not a schema.org property path "
                                         "(dotted names, like 'offers.price')")
        return value

    @field_validator("opengraph")
    @classmethod
    def _metas(cls, value: list[str]) -> list[str]:
        for i, name in enumerate(value):
            if not _META_NAME.match(name):
                raise error_at([str(i)], f"{name!r} is not a meta tag name (lower case, "
                                         "like 'og:title' or 'product:price:amount')")
        return value


class PagingVocab(Strict):
    """Words of pagination controls, in many languages: what tells a "next" link from a
    "previous" one (text, symbols, ``aria-label``, ``title``, class words), the class
    words of the current page's marker, the labels of "load more" buttons, and the
    query parameter names shops use for page numbers and item offsets (tried, and
    verified by fetching, when a pager is driven by a script)."""

    next: dict[str, float] = Field({})
    previous: dict[str, float] = Field({})
    current: list[str] = Field([])
    load_more: dict[str, float] = Field({})
    page_params: list[str] = Field([])
    offset_params: list[str] = Field([])

    @field_validator("next", "previous", "load_more")
    @classmethod
    def _weights(cls, value: dict[str, float]) -> dict[str, float]:
        return _positive_weights(value, "pagination word")

    @field_validator("page_params", "offset_params")
    @classmethod
    def _params(cls, value: list[str]) -> list[str]:
        for i, name in enumerate(value):
            if not re.match(r"^[A-Za-z_][\w.\-\[\]]*$", name):
                raise error_at([str(i)], f"{name!r} is not a query parameter name")
        return value

    @model_validator(mode="after")
    def _apart(self) -> PagingVocab:
        both = sorted(set(self.next) & set(self.previous))
        if both:
            raise error_at(["previous", both[0]], f"{both[0]!r} is both a next and a "
                                                  "previous word")
        return self


class Lexicon(Strict):
    """A whole matching template (``templates/*.yaml``)."""

    name: str
    description: str = ""
    languages: list[str] = Field([])
    thresholds: Thresholds = Thresholds()
    attribute_weights: dict[str, float] = Field(
        default_factory=lambda: dict(DEFAULT_ATTRIBUTE_WEIGHTS))
    list_structures: dict[str, float] = Field(
        default_factory=lambda: dict(DEFAULT_LIST_STRUCTURES))
    signals: dict[str, dict[str, float]] = Field({})
    pagination: PagingVocab = PagingVocab()
    vocabulary: Vocabulary = Vocabulary()
    fields: dict[str, FieldSpec] = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _moved_words(cls, data: object) -> object:
        """A lexicon of an earlier version listing add-to-cart button texts as
        ``vocabulary.add_to_cart`` keeps them: they join ``signals.add_to_cart`` (the one
        list of add-to-cart words) as strong words (12)."""
        if not isinstance(data, dict):
            return data
        vocabulary = data.get("vocabulary")
        if not isinstance(vocabulary, dict) or not isinstance(vocabulary.get("add_to_cart"), list):
            return data
        signals = data.get("signals") or {}
        if isinstance(signals, dict):
            words = signals.get("add_to_cart") or {}
            if isinstance(words, dict):
                moved = {str(w): 12.0 for w in vocabulary["add_to_cart"] if str(w) not in words}
                signals = {**signals, "add_to_cart": {**words, **moved}}
        rest = {k: v for k, v in vocabulary.items() if k != "add_to_cart"}
        return {**data, "signals": signals, "vocabulary": rest}

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", value):
            raise ValueError(f"name {value!r} must be a simple identifier like 'ecommerce'")
        return value

    @field_validator("attribute_weights")
    @classmethod
    def _attributes(cls, value: dict[str, float]) -> dict[str, float]:
        for key in value:
            if not _ATTRIBUTE.match(key):
                raise error_at([key], f"{key!r} is not an attribute name "
                                      "(use e.g. 'class', 'data-*')")
        return _positive_weights(value, "attribute")

    @field_validator("list_structures")
    @classmethod
    def _structures(cls, value: dict[str, float]) -> dict[str, float]:
        for key in value:
            if not _STRUCTURE.match(key):
                raise error_at([key], f"list structure {key!r} must be 'parent/child' tags, "
                                      "like 'ul/li'")
        return _positive_weights(value, "list structure")

    @field_validator("signals")
    @classmethod
    def _signals(cls, value: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
        for key, words in value.items():
            _positive_weights(words, f"signal {key!r} word", [key])
        return value

    @model_validator(mode="after")
    def _field_names(self) -> Lexicon:
        for key in self.fields:
            if not _IDENT.match(key):
                raise error_at(["fields", key], f"field name {key!r} must be lower_snake_case")
        return self

    @model_validator(mode="after")
    def _stock_values(self) -> Lexicon:
        """An availability field listing no ``values`` of its own reads the vocabulary's
        ``stock_phrases`` (the one table of stock phrases; a rule file carries them)."""
        for key, spec in list(self.fields.items()):
            if spec.kind == "availability" and not spec.values:
                phrases = self.words().stock_phrases or {}
                self.fields[key] = spec.model_copy(update={
                    "values": {k: list(v) for k, v in phrases.items()}})
        return self

    def content_hash(self) -> str:
        """Hash of the lexicon's meaning (not its formatting), recorded in rule files."""
        data = self.model_dump(mode="json")
        data["thresholds"] = self.thresholds.hashed()
        for spec in data["fields"].values():
            for key in FieldSpec.UNHASHED_DEFAULTS:
                if spec[key] == FieldSpec.model_fields[key].default:
                    spec.pop(key)
        canonical = json.dumps(data, sort_keys=True, ensure_ascii=False)
        import hashlib  # not with every start: only a hash asked for pays for it

        return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def fields_for(self, level: str) -> dict[str, FieldSpec]:
        """The fields to look for on pages of ``level`` ('list' or 'detail')."""
        return {k: f for k, f in self.fields.items() if f.level in (level, "both")}

    def spec_of(self, kind: ValueKind, **flags: bool) -> FieldSpec | None:
        """The first field of ``kind`` whose flags (``title``, ``struck``, ``required``,
        ``prose``, ...) have the values given: a field found by what it is, whatever a
        lexicon names it (``spec_of("money", struck=False)``: the price)."""
        return next((f for f in self.fields.values() if f.kind == kind and all(
            getattr(f, flag) == value for flag, value in flags.items())), None)

    def structured_paths(self) -> dict[str, list[str]]:
        """Field -> its schema.org paths, for the fields structured data can carry."""
        return {k: f.structured for k, f in self.fields.items() if f.structured}

    def opengraph_names(self) -> dict[str, list[str]]:
        """Field -> its OpenGraph meta names, for the fields meta tags can carry."""
        return {k: f.opengraph for k, f in self.fields.items() if f.opengraph}

    def words(self) -> Vocabulary:
        """The vocabulary in force: this lexicon's, the shipped one's where it says none."""
        return self.vocabulary.over(shipped_vocabulary())

    def partial_ratio(self, field: str) -> float:
        spec = self.fields[field]
        if spec.partial_ratio is not None:
            return spec.partial_ratio
        return self.thresholds.partial_ratio


def shipped_templates() -> dict[str, Path]:
    """Name -> path of every lexicon shipped with structurer."""
    return {p.stem: p for p in sorted(TEMPLATES_DIR.glob("*.yaml"))}


def resolve_template(name_or_path: str | Path) -> Path:
    """A bare name ('ecommerce') means a shipped template; anything else is a path."""
    text = str(name_or_path)
    path = Path(text)
    if path.suffix in (".yaml", ".yml") or path.parent != Path(".") or path.exists():
        return path
    shipped = shipped_templates()
    if text in shipped:
        return shipped[text]
    raise RuleError(f"no shipped template named {text!r} (shipped: {', '.join(shipped)}); "
                    "give a path to a .yaml file instead", file=text)


def load_lexicon(name_or_path: str | Path = "ecommerce") -> Lexicon:
    """Load and validate a lexicon by shipped name or path; errors are one line."""
    return yamlio.load_model(Lexicon, resolve_template(name_or_path))


@functools.cache
def shipped_vocabulary() -> Vocabulary:
    """The shipped ``ecommerce`` lexicon's vocabulary: what every key a lexicon (or a rule
    file) leaves out means. Package data, as the word tables in code were: only its
    ``vocabulary`` section is read (once per process; its lines alone are parsed, none of
    the other blocks'), never a user's lexicon, so a crawl reads it too."""
    path = TEMPLATES_DIR / "ecommerce.yaml"
    text = yamlio.read_text(path)
    data = yamlio.parse(top_section(text, "vocabulary") or text, str(path))
    section = data.get("vocabulary") if isinstance(data, dict) else None
    value, errors = yamlio.validated(Vocabulary, section or {}, text, str(path))
    if value is None:
        raise errors[0]
    return value


def dump_lexicon(lexicon: Lexicon) -> str:
    return yamlio.dump(lexicon.model_dump(mode="json", exclude_none=True))


def top_section(text: str, key: str) -> str | None:
    """The lines of the top-level block ``key:`` of YAML text, up to the next top-level
    key, or None. For package data only (a test checks the shipped lexicon's section reads
    the same alone as in the whole file): YAML in general may refer across blocks."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines))
                if lines[i][:1] not in ("", " ", "\t", "#", "\n", "\r")), len(lines))
    return "".join(lines[start:end])
