"""The vocabulary compiled: a lexicon's (or a rule file's) word lists as the patterns and
phrase tables every reader matches with.

:class:`Words` is built once per vocabulary (cached by its text); :func:`default_words`
is the shipped one. Pure; the parsers in :mod:`structurer.kinds` and the page readers take
a :class:`Words` so that editing the lexicon changes what they read.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from structurer.vocabulary import Vocabulary

__all__ = ["CLASS_LISTS", "Phrases", "Words", "compile_phrases", "compile_words",
           "default_words", "fold", "gapped_phrases"]


Phrases = tuple[tuple[str, str], ...]

#: the vocabulary's lists of class and id words (matched by structurer.namewords)
CLASS_LISTS = ("rating_classes", "other_money_classes", "noise_classes", "content_classes")


def compile_phrases(values: dict[str, list[str]]) -> Phrases:
    """(phrase, value) pairs, longest phrase first, so ``not in stock`` beats ``in stock``."""
    pairs = {(fold(p), v) for v, phrases in values.items() for p in [v, *phrases] if p.strip()}
    return tuple(sorted(pairs, key=lambda pair: (-len(pair[0]), pair[1] != "out_of_stock")))


def fold(text: str) -> str:
    """Lower case, ``_`` and ``-`` as spaces, spaces squeezed: how stock phrases match."""
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


# ----- the vocabulary ---------------------------------------------------------------------------
class _Patterns:
    """The patterns of :class:`Words`, declared here so that they are no dataclass fields:
    each is compiled when first read (``Words.__getattr__``)."""

    money: re.Pattern[str]           # a money amount on a page ("$12", "12,50 €")
    crumb_label: re.Pattern[str]     # a leading "You are here:"
    count: re.Pattern[str]           # a product count after a category's name
    said_count: re.Pattern[str]      # ... that is surely one ("(34)", "34 products")
    placeholder: re.Pattern[str]     # a placeholder picture's file name
    placeholder_folder: re.Pattern[str]
    several_items: re.Pattern[str]   # a button acting on several items ("add selected")
    rating_class: re.Pattern[str]    # a class giving a rating ("rating-4-5")
    rating_text: re.Pattern[str]     # a rating as text ("Rating: 4/5"): group 2 the value
    other_money: re.Pattern[str]     # text making a money amount another sum (case-folded)
    multiplier: re.Pattern[str]      # "or 4 × $308.38": a count times an amount
    not_product_image: re.Pattern[str]
    noise_heading: re.Pattern[str]   # a comment thread's or side list's heading
    updated: re.Pattern[str]         # an "updated" label ending a text (before a date)
    author_label: re.Pattern[str]    # a leading "By", "作者："
    byline: re.Pattern[str]          # "by Ann Lee": group 1 the name
    role: re.Pattern[str]            # "Ann Lee, senior writer": group 1 the name
    cjk_byline: re.Pattern[str]      # "作者：王芳": group 1 the name
    posted: re.Pattern[str]          # a leading "Posted on May 3" before "by"
    not_author: re.Pattern[str]      # a text that is no name ("Share", "Read more")
    byline_break: re.Pattern[str]    # where a name in a byline ends


@dataclass(frozen=True, eq=False)
class Words(_Patterns):
    """A lexicon's (or a rule file's) :class:`~structurer.lexicon.Vocabulary`, compiled:
    the word tables of reading values. :func:`default_words` is the shipped one.

    Each pattern is compiled when first read, from :attr:`patterns`: an article uses a
    third of them, and compiling them all was a twentieth of ``extract-page``."""

    patterns: dict[str, tuple[str, int]]  # pattern name -> (regex, flags)
    codes: frozenset[str]            # ISO 4217 codes
    symbols: dict[str, str]          # upper-cased symbol -> ISO code
    signs: tuple[str, ...]           # symbols naming their currency anywhere in a text
    local: dict[str, dict[str, str]]  # upper-cased shared sign -> language -> ISO code
    stock: Phrases                   # availability phrases after a field's own
    negations: frozenset[str]        # words denying an in-stock phrase after them
    home: frozenset[str]             # a breadcrumb's first entry dropped (lower case)
    large_attrs: tuple[str, ...]     # attributes of a larger rendition, best first
    rating_numbers: dict[str, str]   # class number word -> digit ("three": "3")
    rating_units: frozenset[str]     # words after a rating's scale: "stars" (lower case)
    months: dict[str, int]           # month name (lower case) -> 1..12
    time_words: tuple[str, ...]      # words between a date and its time of day
    host_suffixes: frozenset[str]    # second-level labels of a country's suffix (co.uk)
    struck_classes: frozenset[str]   # class words striking a text through (lower case)
    # query parameters and path segments before a product identifier in a URL (lower case)
    id_params: frozenset[str] = frozenset()
    id_paths: frozenset[str] = frozenset()
    # the vocabulary's class-word lists by key (lower case; namewords.class_words): of a
    # rating, of another sum beside the price, of blocks never the main text and of
    # those that clear them ("content-sidebar"),
    # and the keys of lists and signals whose words also name longer tokens partly
    class_lists: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    partial_words: frozenset[str] = frozenset()
    # link texts and path segments of the account, cart, checkout pages (folded)
    site_chrome: frozenset[str] = frozenset()

    def __getattr__(self, name: str) -> re.Pattern[str]:
        sources = self.__dict__.get("patterns")  # absent while unpickling
        if sources is None or name not in sources:
            raise AttributeError(name)
        pattern = re.compile(*sources[name])
        object.__setattr__(self, name, pattern)
        return pattern


def _alternatives(words: Sequence[str], dashed: bool = False) -> str:
    """An alternation of ``words`` (longest first, so the longest wins); ``dashed``: a
    ``-`` in a word stands for '-', '_' or nothing, and a part of two letters or fewer
    before it (``no-image``) begins a word."""
    parts = []
    for word in sorted(dict.fromkeys(w.lower() for w in words), key=lambda w: (-len(w), w)):
        if dashed and "-" in word:
            short = len(word.split("-", 1)[0]) <= 2
            parts.append(("(?<![a-z])" if short else "")
                         + "[-_]?".join(re.escape(p) for p in word.split("-")))
        else:
            parts.append(re.escape(word))
    return "|".join(parts) or "(?!)"


def compile_words(vocabulary: Vocabulary | None) -> Words:
    """The compiled tables of a vocabulary (keys it leaves out: the shipped ones);
    compiled once per distinct vocabulary."""
    if vocabulary is None:
        return default_words()
    seen = _BY_ID.get(id(vocabulary))
    if seen is not None and seen[0] is vocabulary:
        return seen[1]
    words = _compiled(vocabulary.model_dump_json(exclude_none=True))
    if len(_BY_ID) >= 32:
        _BY_ID.clear()
    _BY_ID[id(vocabulary)] = (vocabulary, words)
    return words


#: a lexicon's vocabulary (frozen) -> its compiled words, without dumping it on every page
_BY_ID: dict[int, tuple[Vocabulary, Words]] = {}


@functools.lru_cache(maxsize=16)
def gapped_phrases(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """Button texts (lower case): ``add … cart`` is the whole words "add" and "cart" at
    most 15 characters apart; a text without ``…`` matches anywhere."""
    return re.compile(_gapped(phrases))


def _gapped(phrases: Sequence[str]) -> str:
    parts = []
    for phrase in dict.fromkeys(p.lower() for p in phrases):
        if "…" in phrase:
            parts.append(".{0,15}".join(rf"\b{re.escape(w.strip())}\b"
                                        for w in phrase.split("…")))
        else:
            parts.append(re.escape(phrase))
    return "|".join(parts) or "(?!)"


def _whole_ascii(words: Sequence[str]) -> str:
    """Words of a-z letters as whole words, others (umlauts, CJK) anywhere."""
    return "|".join(rf"\b{re.escape(w)}\b" if w.isascii() and w.isalpha() else re.escape(w)
                    for w in dict.fromkeys(w.lower() for w in words)) or "(?!)"


def _edged(words: Sequence[str]) -> str:
    """Whole words: a word boundary at each end that is a letter or digit ("was", "/mo")."""
    parts = []
    for word in dict.fromkeys(w.lower() for w in words):
        head = r"\b" if word[:1].isalnum() else ""
        tail = r"\b" if word[-1:].isalnum() else ""
        parts.append(head + re.escape(word) + tail)
    return "|".join(parts) or "(?!)"


def _headings(phrases: Sequence[str]) -> str:
    """Heading phrases; one ending in ``…`` goes on with any words ("more from …")."""
    return "|".join(re.escape(p.rstrip("…").strip()) + (r"\b.*" if p.endswith("…") else "")
                    for p in sorted(dict.fromkeys(p.lower() for p in phrases),
                                    key=lambda p: (-len(p), p))) or "(?!)"


def _page_words(v: Vocabulary) -> dict[str, tuple[str, int]]:
    """The patterns of reading a page's own text: noise blocks and headings, bylines."""
    labels = v.author_labels or ()
    latin = _alternatives([w for w in labels if w.isascii() and w != "author"])
    breaks = _alternatives(v.byline_breaks or ())
    name = (r"[A-ZÀ-ÞĀ-Ž][\w'’.-]*(?:\s+(?:" + _alternatives(v.name_particles or ())
            + r")?\s*[A-ZÀ-ÞĀ-Ž][\w'’.-]*){1,3}")
    return {
        "noise_heading": _source(
            rf"^\W*\d*\s*(?:{_alternatives(v.heading_counters or ())})?\s*"
            rf"(?:{_headings(v.noise_headings or ())})\W*\d*\s*$", re.I),
        "updated": _source(rf"(?:{_alternatives(v.updated_words or ())})\W{{0,3}}"
                              rf"(?:{breaks}|:|：)?\s*\S{{0,12}}\s*$", re.I),
        "author_label": _source(rf"^\s*(?:{_alternatives(labels)})\s*[:：/|]?\s*", re.I),
        "byline": _source(rf"(?:^|[\s(|·•])(?i:{latin})\s+({name})"),
        "role": _source(rf"^\s*({name}),\s+(?:[\w-]+\s+){{0,3}}"
                           rf"(?i:{_alternatives(v.author_roles or ())})\b"),
        "cjk_byline": _source(
            rf"(?:{_alternatives([w for w in labels if not w.isascii()])})\s*[:：/|]?\s*"
            r"([\u4e00-\u9fff·]{2,4})(?![\u4e00-\u9fff])"),
        "posted": _source(rf"^\s*(?:{_alternatives(v.posted_words or ())})\s+"
                             rf"(?:(?:{breaks})\s+\S+\s+)?(?={latin})", re.I),
        "not_author": _source(rf"^(?:{_alternatives(v.not_author or ())})\b", re.I),
        "byline_break": _source(rf"\s+(?:\||·|•|-|—|{breaks})\s+|\s+\d|,|，|\s{{2,}}"),
    }


def _rating_text(v: Vocabulary) -> tuple[str, int]:
    """A whole text stating a rating out of 5: ``3,5 / 5``, ``4.2 out of 5 stars``,
    ``Average rating: 4/5`` (the vocabulary's ``rating_labels`` after at most one word,
    its ``rating_scales``, a word after: "stars"); group 1 the label, group 2 the value,
    group 3 the word after."""
    return _source(
        rf"^\s*(?:(?:[^\W\d_]+\s+)?({_alternatives(v.rating_labels or ())})\s*[:：]?\s*)?"
        r"([0-5](?:[.,]\d{1,2})?)\s*"
        rf"(?:{_alternatives(v.rating_scales or ())})\s*5(?:[.,]0{{1,2}})?(?![\d.,])"
        r"(?:\s*([^\W\d_]{1,12}))?\s*[.!]?\s*$", re.I)


def _source(pattern: str, flags: int = 0) -> tuple[str, int]:
    """A pattern of :class:`Words`, compiled when first used."""
    return pattern, int(flags)


@functools.lru_cache(maxsize=16)
def _compiled(text: str) -> Words:
    from structurer.lexicon import Vocabulary, shipped_vocabulary

    v = Vocabulary.model_validate_json(text).over(shipped_vocabulary())
    counted = _alternatives(v.product_count or ())
    marks = "(?:" + ("|".join(re.escape(m) for m in v.money_marks or ()) or "(?!)") + ")"
    patterns = {
        "money": _source(rf"(?:{marks}\s?-?\d[\d.,'\u00a0\u202f ]*)|"
                         rf"(?:\d[\d.,'\u00a0\u202f ]*\s?{marks})"),
        "crumb_label": _source(rf"^\s*(?:{_alternatives(v.breadcrumb_labels or ())})\s*[:：]\s*",
                               re.IGNORECASE),
        "count": _source(rf"\s*[(\[]?\s*\d[\d,.]*\s*(?:{counted})?\s*[)\]]?"),
        "said_count": _source(rf"\s*(?:\(\s*\d[\d,.]*\s*(?:{counted})?\s*\)"
                              rf"|\d[\d,.]*\s*(?:{counted}))$", re.IGNORECASE),
        "placeholder": _source(_alternatives(v.placeholder_images or (), dashed=True)),
        "placeholder_folder": _source(
            rf"/(?:{_alternatives(v.placeholder_folders or (), dashed=True)})/", re.IGNORECASE),
        "several_items": _source(_whole_ascii(v.several_items or ())),
        "rating_class": _source(rf"^(?:{_alternatives(v.rating_classes or ())})[-_]?([0-5])"
                                r"(?:[-_.]([0-9]{1,2}))?$"),
        "rating_text": _rating_text(v),
        "other_money": _source("|".join(
            [_alternatives(v.other_money or ()), _edged(v.other_money_words or ())]), re.I),
        "not_product_image": _source(_alternatives(v.not_product_images or ()), re.I),
        "multiplier": _source(rf"(?<![\d.,])\d{{1,2}}\s*(?:{_alternatives(v.times_signs or ())})"
                              r"\s*(?:[^\d\s]{1,4}\s*){0,2}\d", re.I),
        **_page_words(v)}
    return Words(
        patterns=patterns,
        codes=frozenset(v.currency_codes or ()),
        symbols={k.strip().upper(): c for k, c in (v.currency_symbols or {}).items()},
        signs=tuple(v.currency_signs or ()),
        local={k.strip().upper(): dict(langs) for k, langs in (v.local_currencies or {}).items()},
        stock=compile_phrases(v.stock_phrases or {}),
        negations=frozenset(fold(w) for w in v.stock_negations or ()),
        home=frozenset(h.lower() for h in v.home_labels or ()),
        large_attrs=tuple(v.large_image_attributes or ()),
        rating_numbers={n.lower(): str(i) for i, n in enumerate(v.rating_numbers or ())},
        rating_units=frozenset(u.strip().lower() for u in v.rating_units or ()),
        months={n.strip().lower(): i + 1 for i, names in enumerate(v.months or ())
                for n in names},
        time_words=tuple(v.time_words or ()),
        host_suffixes=frozenset(h.strip().lower() for h in v.host_suffixes or ()),
        struck_classes=frozenset(c.strip().lower() for c in v.struck_classes or ()),
        id_params=frozenset(p.strip().lower() for p in v.identifier_params or ()),
        id_paths=frozenset(p.strip().lower() for p in v.identifier_paths or ()),
        class_lists={key: tuple(dict.fromkeys(c.strip().lower() for c in getattr(v, key) or ()))
                     for key in CLASS_LISTS},
        partial_words=frozenset(v.partial_words or ()),
        site_chrome=frozenset(fold(c) for c in v.site_chrome or ()))


@functools.cache
def default_words() -> Words:
    """The shipped lexicon's vocabulary, compiled (read once, when first needed)."""
    from structurer.vocabulary import Vocabulary

    return _compiled(Vocabulary().model_dump_json(exclude_none=True))


# ----- currencies -------------------------------------------------------------------------------
