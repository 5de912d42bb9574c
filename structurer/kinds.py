"""Value kinds: the string a field selected, parsed into its typed value.

Input: one raw string (already taken from the page by :mod:`structurer.values`, and
through the rule's post steps) and, for money, the currency known from elsewhere.
Output: :class:`Money` (amount, text, ISO 4217 currency), an integer, a rating, a stock
state (``in_stock``/``out_of_stock``/``unknown``, from phrase tables) or the names of a
breadcrumb — or None when the string holds no such value. Nothing is ever invented.
Pure and table-driven; shared by replay, analysis and ``extract-page``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from structurer.vocabulary import Vocabulary

__all__ = ["Money", "Phrases", "Words", "compile_phrases", "compile_words", "crumb_separated",
           "currency_code", "default_words", "gapped_phrases", "parse_availability",
           "parse_breadcrumb", "parse_identifier", "parse_integer", "parse_money", "parse_rating",
           "rule_phrases"]


class Money(NamedTuple):
    """A price as found: the amount (None if the text holds no number), the raw text
    and the ISO 4217 currency where the text or the page says which."""

    amount: float | None
    text: str
    currency: str | None


# ----- the vocabulary ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Words:
    """A lexicon's (or a rule file's) :class:`~structurer.lexicon.Vocabulary`, compiled:
    the word tables of reading values. :func:`default_words` is the shipped one."""

    money: re.Pattern[str]           # a money amount on a page ("$12", "12,50 €")
    codes: frozenset[str]            # ISO 4217 codes
    symbols: dict[str, str]          # upper-cased symbol -> ISO code
    signs: tuple[str, ...]           # symbols naming their currency anywhere in a text
    local: dict[str, dict[str, str]]  # upper-cased shared sign -> language -> ISO code
    stock: Phrases                   # availability phrases after a field's own
    home: frozenset[str]             # a breadcrumb's first entry dropped (lower case)
    crumb_label: re.Pattern[str]     # a leading "You are here:"
    count: re.Pattern[str]           # a product count after a category's name
    said_count: re.Pattern[str]      # ... that is surely one ("(34)", "34 products")
    placeholder: re.Pattern[str]     # a placeholder picture's file name
    placeholder_folder: re.Pattern[str]
    large_attrs: tuple[str, ...]     # attributes of a larger rendition, best first
    several_items: re.Pattern[str]   # a button acting on several items ("add selected")
    rating_class: re.Pattern[str]    # a class giving a rating ("rating-4-5")
    rating_hints: tuple[str, ...]    # class words of a rating element
    rating_numbers: dict[str, str]   # class number word -> digit ("three": "3")
    months: dict[str, int]           # month name (lower case) -> 1..12
    time_words: tuple[str, ...]      # words between a date and its time of day
    other_money: re.Pattern[str]     # text making a money amount another sum (case-folded)
    other_money_class: re.Pattern[str]
    multiplier: re.Pattern[str]      # "or 4 × $308.38": a count times an amount
    not_product_image: re.Pattern[str]
    noise_class: re.Pattern[str]     # class/id/role words of a block never the main text
    content_class: re.Pattern[str]   # ... and those that clear them ("content-sidebar")
    noise_heading: re.Pattern[str]   # a comment thread's or side list's heading
    updated: re.Pattern[str]         # an "updated" label ending a text (before a date)
    author_label: re.Pattern[str]    # a leading "By", "作者："
    byline: re.Pattern[str]          # "by Ann Lee": group 1 the name
    role: re.Pattern[str]            # "Ann Lee, senior writer": group 1 the name
    cjk_byline: re.Pattern[str]      # "作者：王芳": group 1 the name
    posted: re.Pattern[str]          # a leading "Posted on May 3" before "by"
    not_author: re.Pattern[str]      # a text that is no name ("Share", "Read more")
    byline_break: re.Pattern[str]    # where a name in a byline ends


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


def _page_words(v: Vocabulary) -> dict[str, re.Pattern[str]]:
    """The patterns of reading a page's own text: noise blocks and headings, bylines."""
    labels = v.author_labels or ()
    latin = _alternatives([w for w in labels if w.isascii() and w != "author"])
    breaks = _alternatives(v.byline_breaks or ())
    name = (r"[A-ZÀ-ÞĀ-Ž][\w'’.-]*(?:\s+(?:" + _alternatives(v.name_particles or ())
            + r")?\s*[A-ZÀ-ÞĀ-Ž][\w'’.-]*){1,3}")
    return {
        "noise_class": re.compile(rf"(?:^|[-_\s])(?:{_alternatives(v.noise_classes or ())})"
                                  r"(?:$|[-_\s])", re.I),
        "content_class": re.compile(rf"(?:^|[-_\s])(?:{_alternatives(v.content_classes or ())})",
                                    re.I),
        "noise_heading": re.compile(
            rf"^\W*\d*\s*(?:{_alternatives(v.heading_counters or ())})?\s*"
            rf"(?:{_headings(v.noise_headings or ())})\W*\d*\s*$", re.I),
        "updated": re.compile(rf"(?:{_alternatives(v.updated_words or ())})\W{{0,3}}"
                              rf"(?:{breaks}|:|：)?\s*\S{{0,12}}\s*$", re.I),
        "author_label": re.compile(rf"^\s*(?:{_alternatives(labels)})\s*[:：/|]?\s*", re.I),
        "byline": re.compile(rf"(?:^|[\s(|·•])(?i:{latin})\s+({name})"),
        "role": re.compile(rf"^\s*({name}),\s+(?:[\w-]+\s+){{0,3}}"
                           rf"(?i:{_alternatives(v.author_roles or ())})\b"),
        "cjk_byline": re.compile(
            rf"(?:{_alternatives([w for w in labels if not w.isascii()])})\s*[:：/|]?\s*"
            r"([\u4e00-\u9fff·]{2,4})(?![\u4e00-\u9fff])"),
        "posted": re.compile(rf"^\s*(?:{_alternatives(v.posted_words or ())})\s+"
                             rf"(?:(?:{breaks})\s+\S+\s+)?(?={latin})", re.I),
        "not_author": re.compile(rf"^(?:{_alternatives(v.not_author or ())})\b", re.I),
        "byline_break": re.compile(rf"\s+(?:\||·|•|-|—|{breaks})\s+|\s+\d|,|，|\s{{2,}}"),
    }


@functools.lru_cache(maxsize=16)
def _compiled(text: str) -> Words:
    from structurer.lexicon import Vocabulary, shipped_vocabulary

    v = Vocabulary.model_validate_json(text).over(shipped_vocabulary())
    counted = _alternatives(v.product_count or ())
    marks = "(?:" + ("|".join(re.escape(m) for m in v.money_marks or ()) or "(?!)") + ")"
    return Words(
        money=re.compile(rf"(?:{marks}\s?-?\d[\d.,'\u00a0\u202f ]*)|"
                         rf"(?:\d[\d.,'\u00a0\u202f ]*\s?{marks})"),
        codes=frozenset(v.currency_codes or ()),
        symbols={k.strip().upper(): c for k, c in (v.currency_symbols or {}).items()},
        signs=tuple(v.currency_signs or ()),
        local={k.strip().upper(): dict(langs) for k, langs in (v.local_currencies or {}).items()},
        stock=compile_phrases(v.stock_phrases or {}),
        home=frozenset(h.lower() for h in v.home_labels or ()),
        crumb_label=re.compile(rf"^\s*(?:{_alternatives(v.breadcrumb_labels or ())})\s*[:：]\s*",
                               re.IGNORECASE),
        count=re.compile(rf"\s*[(\[]?\s*\d[\d,.]*\s*(?:{counted})?\s*[)\]]?"),
        said_count=re.compile(rf"\s*(?:\(\s*\d[\d,.]*\s*(?:{counted})?\s*\)"
                              rf"|\d[\d,.]*\s*(?:{counted}))$", re.IGNORECASE),
        placeholder=re.compile(_alternatives(v.placeholder_images or (), dashed=True)),
        placeholder_folder=re.compile(
            rf"/(?:{_alternatives(v.placeholder_folders or (), dashed=True)})/", re.IGNORECASE),
        large_attrs=tuple(v.large_image_attributes or ()),
        several_items=re.compile(_whole_ascii(v.several_items or ())),
        rating_class=re.compile(rf"^(?:{_alternatives(v.rating_classes or ())})[-_]?([0-5])"
                                r"(?:[-_.]([0-9]{1,2}))?$"),
        rating_hints=tuple(dict.fromkeys(h.lower() for h in v.rating_classes or ())),
        rating_numbers={n.lower(): str(i) for i, n in enumerate(v.rating_numbers or ())},
        months={n.strip().lower(): i + 1 for i, names in enumerate(v.months or ())
                for n in names},
        time_words=tuple(v.time_words or ()),
        other_money=re.compile("|".join(
            [_alternatives(v.other_money or ()), _edged(v.other_money_words or ())]), re.I),
        other_money_class=re.compile(_alternatives(v.other_money_classes or (), dashed=True),
                                     re.I),
        not_product_image=re.compile(_alternatives(v.not_product_images or ()), re.I),
        multiplier=re.compile(rf"(?<![\d.,])\d{{1,2}}\s*(?:{_alternatives(v.times_signs or ())})"
                              r"\s*(?:[^\d\s]{1,4}\s*){0,2}\d", re.I),
        **_page_words(v))


@functools.cache
def default_words() -> Words:
    """The shipped lexicon's vocabulary, compiled (read once, when first needed)."""
    from structurer.vocabulary import Vocabulary

    return _compiled(Vocabulary().model_dump_json(exclude_none=True))


# ----- currencies -------------------------------------------------------------------------------
_CODE = re.compile(r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])")


def currency_code(text: str, symbol: str | None = None,
                  words: Words | None = None) -> str | None:
    """ISO 4217 code of a price text: a code written in it (``$12 CAD``) wins, then the
    symbol (``$`` is USD, ``¥``/``￥``/``元``/``RMB`` CNY, ``円`` JPY, ``CA$`` CAD, ...),
    then a sign anywhere in it — by the vocabulary's currency tables."""
    w = words or default_words()
    for code in _CODE.findall(text):
        if code in w.codes:
            return str(code)
    if symbol:
        key = symbol.strip().upper()
        if key in w.codes:
            return key
        if key in w.symbols:
            return w.symbols[key]
    for char in w.signs:
        if char in text:
            return w.symbols.get(char.upper())
    return None


# ----- kinds ------------------------------------------------------------------------------------
_FAST_MONEY = re.compile(
    r"(?P<lead>\+|(?:[A-Za-z][A-Za-z.:]* )+)?"
    r"(?P<pre>[$€£¥￥]|US\$|CA\$|C\$|A\$|[A-Z]{3}(?= ))? ?"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d{1,2}))?"
    r" ?(?P<post>[€£¥￥元円]|[A-Z]{3}(?![A-Za-z]))?(?P<trail> [A-Za-z][A-Za-z.]*(?: [A-Za-z.]+)*)?")
_CODE_WORD = re.compile(r"[A-Z]{2}")
#: "4 × $308.38", "4x de R$ 77,00": an instalment, whose first number is no price


def _names_currency(text: str, symbols: dict[str, str]) -> bool:
    return bool(_CODE_WORD.search(text)) or any(
        w.rstrip(".:") in symbols or w in symbols for w in text.upper().split())


def parse_money(text: str, currency: str | None = None, words: Words | None = None) -> Money:
    """Amount, raw text and ISO currency of a price text (``$1,299.00``, ``1.299,00 €``,
    ``¥1299``, ``From $5.00``, ``£12.99 incl. VAT``; ``Now $5 Was $9`` is 5); a
    multiplier (``or 4 × $308.38``, an instalment) has no amount.

    Plain ``$1,299.00``-style texts take an exact shortcut; everything else goes through
    ``price-parser``. ``currency`` is used when the text itself does not say; ``words``
    hold the currency tables (the shipped ones by default)."""
    w = words or default_words()
    text = " ".join(text.split())
    if w.multiplier.search(text):
        return Money(None, text, currency.upper() if currency else None)  # "or 4 × $308.38"
    fast = _FAST_MONEY.fullmatch(text)
    if fast is not None and (fast["lead"] or fast["trail"]) and _names_currency(
            f"{fast['lead'] or ''} {fast['trail'] or ''}", w.symbols):
        fast = None  # words around the number might name a currency: leave it to price-parser
    if fast is not None:  # one number with a symbol or code, maybe words without digits
        _, pre, whole, dec, post, _ = fast.groups()
        whole = whole.replace(",", "")
        amount: float | None = float(f"{whole}.{dec}" if dec else whole)
        found = None
        for mark in (pre, post):
            if mark:
                mark = mark.upper()
                if mark in w.codes:
                    found = mark
                    break
                found = found or w.symbols.get(mark)
    else:
        from price_parser import Price  # here: its import compiles large patterns

        price = Price.fromstring(text)
        amount = float(price.amount) if price.amount is not None else None
        found = currency_code(text, price.currency, w) if amount is not None else None
    return Money(amount, text, found or (currency.upper() if currency else None))


_INTEGER = re.compile(r"(\d+(?:[.,]\d+)?)\s*([kKmM万])(?![a-zA-Z])|"
                      r"(\d{1,3}(?:[,.\u00a0\u202f' ]\d{3})+(?!\d)|\d+)")
_NON_DIGITS = re.compile(r"\D")
_SCALE = {"k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000, "万": 10_000}


def parse_integer(text: str) -> int | None:
    """The first whole number of a text: ``(1,234 reviews)`` -> 1234, ``1.2k`` -> 1200."""
    found = _INTEGER.search(text)
    if found is None:
        return None
    if found[1]:
        return round(float(found[1].replace(",", ".")) * _SCALE[found[2]])
    digits = found[3]
    return int(digits if digits.isdigit() else _NON_DIGITS.sub("", digits))


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def parse_rating(text: str) -> float | None:
    """The first number of a rating text: ``4.5 out of 5``, ``★ 4.3``, ``Rated 4,50``."""
    found = _NUMBER.search(text)
    return float(found[0].replace(",", ".")) if found else None


Phrases = tuple[tuple[str, str], ...]


def compile_phrases(values: dict[str, list[str]]) -> Phrases:
    """(phrase, value) pairs, longest phrase first, so ``not in stock`` beats ``in stock``."""
    pairs = {(_fold(p), v) for v, phrases in values.items() for p in [v, *phrases] if p.strip()}
    return tuple(sorted(pairs, key=lambda pair: (-len(pair[0]), pair[1] != "out_of_stock")))


def rule_phrases(values: dict[str, list[str]], words: Words | None = None) -> Phrases:
    """A field's own stock phrases (its ``values``), then the vocabulary's."""
    stock = (words or default_words()).stock
    return compile_phrases(values) + stock if values else stock


def _fold(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def parse_availability(text: str, phrases: Phrases | None = None) -> str | None:
    """``in_stock``/``out_of_stock`` (or another value of the rule's map) by the first,
    longest phrase found — the rule's phrases, then the vocabulary's ``stock_phrases``
    (``phrases`` None: those alone); ``unknown`` for text that says neither, None for
    no text at all."""
    if phrases is None:
        phrases = default_words().stock
    folded = _fold(text)
    if not folded:
        return None
    for phrase, value in phrases:
        if phrase in folded:
            return value
    if folded.isdigit():  # a stock count
        return "in_stock" if int(folded) > 0 else "out_of_stock"
    return "unknown"


_LABEL_SPLIT = re.compile(r"\s*[:：]\s*")


def parse_identifier(text: str, labels: Sequence[str] = ()) -> str | None:
    """The code a text holds (a SKU, item number, GTIN), or None for text shaped like
    words: a code has a digit in each of its few words or no lower-case letter
    ("0051-064", "FDE0084902", "978 0 316 12558 1", "ABC-XYZ"), and no label; a label
    of ``labels`` before a colon is cut ("Product code: 83810610"), any other makes it
    no code ("Couleur : noir/blanc", "Standort:A-6805"), and so do words ("В избранное")."""
    parts = _LABEL_SPLIT.split(text.strip())
    if len(parts) == 2 and _fold(parts[0]) in {_fold(label) for label in labels}:
        parts = parts[1:]
    if len(parts) != 1:
        return None
    code = " ".join(parts[0].split())
    tokens = code.split()
    if not 2 <= len(code) <= 40 or len(tokens) > 6:
        return None
    if not any(ch.isdigit() for ch in code):
        # one token of capitals and joints ("ABC-XYZ"), never a word
        return code if len(tokens) == 1 and len(code) >= 3 and not any(
            ch.islower() for ch in code) and any(ch.isalpha() for ch in code) else None
    return code if all(any(ch.isdigit() for ch in t) or not any(ch.islower() for ch in t)
                       for t in tokens) else None


_CRUMB_SPLIT = re.compile(r"\s*(?:›|»|>|＞|/|\||→|▸|≫|\\)\s*")


def parse_breadcrumb(items: Sequence[str], words: Words | None = None) -> list[str]:
    """Category names, top first: one text split on separators (› > / » |) or one name
    per node; empty items, separators, a leading label (``当前位置：``) and a leading
    "Home"/"首页"/"Start" dropped (the vocabulary's ``breadcrumb_labels``, ``home_labels``)."""
    w = words or default_words()
    if items:
        items = [w.crumb_label.sub("", items[0]), *items[1:]]
    if len(items) == 1:
        items = _CRUMB_SPLIT.split(items[0])
    names = [" ".join(item.split()) for item in items]
    names = [n for n in names if n and not _CRUMB_SPLIT.fullmatch(n)]
    if names and names[0].lower() in w.home:
        del names[0]
    return names


def crumb_separated(text: str) -> bool:
    """Whether ``text`` shows breadcrumb separators (``A › B``, ``A / B``)."""
    return _CRUMB_SPLIT.search(text) is not None
