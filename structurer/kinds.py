"""Value kinds: the string a field selected, parsed into its typed value.

Input: one raw string (already taken from the page by :mod:`structurer.values`, and
through the rule's post steps) and, for money, the currency known from elsewhere.
Output: :class:`Money` (amount, text, ISO 4217 currency), an integer, a rating, a stock
state (``in_stock``/``out_of_stock``/``unknown``, from phrase tables) or the names of a
breadcrumb — or None when the string holds no such value. Nothing is ever invented.
Pure and table-driven; shared by replay, analysis and ``extract-page``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple
from urllib.parse import parse_qsl, unquote, urlsplit

from structurer.words import (
    Phrases,
    Words,
    compile_phrases,
    compile_words,
    default_words,
    fold,
    gapped_phrases,
)

__all__ = ["Money", "Phrases", "Words", "compile_phrases", "compile_words", "crumb_separated",
           "currency_code", "default_words", "gapped_phrases", "parse_availability",
           "parse_breadcrumb", "parse_identifier", "parse_integer", "parse_money", "parse_rating",
           "rule_phrases", "url_identifier"]


class Money(NamedTuple):
    """A price as found: the amount (None if the text holds no number), the raw text
    and the ISO 4217 currency where the text or the page says which."""

    amount: float | None
    text: str
    currency: str | None


_CODE = re.compile(r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])")


def currency_code(text: str, symbol: str | None = None, words: Words | None = None,
                  known: str | None = None) -> str | None:
    """ISO 4217 code of a price text: a code written in it (``$12 CAD``) wins, then the
    symbol (``$`` is USD, ``¥``/``￥``/``元``/``RMB`` CNY, ``円`` JPY, ``CA$`` CAD, ...),
    then a sign anywhere in it — by the vocabulary's currency tables. A sign several
    currencies share (the vocabulary's ``local_currencies``: ``¥``) is the ``known``
    currency when one is given (a rule's, told by the pages' language)."""
    w = words or default_words()
    for code in _CODE.findall(text):
        if code in w.codes:
            return str(code)
    if symbol:
        key = symbol.strip().upper()
        if key in w.codes:
            return key
        if known and key in w.local:
            return known
        if key in w.symbols:
            return w.symbols[key]
    for char in w.signs:
        if char in text:
            return known if known and char.upper() in w.local else w.symbols.get(char.upper())
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


#: a typographic apostrophe grouping thousands, as the ASCII one price parsing knows
_TYPOGRAPHIC_GROUPS = re.compile(r"(?<=\d)[\u2019\u02bc](?=\d{3}(?!\d))")


def parse_money(text: str, currency: str | None = None, words: Words | None = None) -> Money:
    """Amount, raw text and ISO currency of a price text (``$1,299.00``, ``1.299,00 €``,
    ``¥1299``, ``From $5.00``, ``£12.99 incl. VAT``; ``Now $5 Was $9`` is 5); a
    multiplier (``or 4 × $308.38``, an instalment) has no amount.

    Plain ``$1,299.00``-style texts take an exact shortcut; everything else goes through
    ``price-parser``. ``currency`` is used when the text itself does not say; ``words``
    hold the currency tables (the shipped ones by default)."""
    w = words or default_words()
    text = shown = " ".join(text.split())
    if "\u2019" in text or "\u02bc" in text:
        text = _TYPOGRAPHIC_GROUPS.sub("'", text)   # Swiss "CHF 1’051.99"
    if w.multiplier.search(text):
        return Money(None, shown, currency.upper() if currency else None)  # "or 4 × $308.38"
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
                if currency and mark in w.local:   # "¥": JPY or CNY, as the rule says
                    found = found or currency.upper()
                found = found or w.symbols.get(mark)
    else:
        from price_parser import Price  # here: its import compiles large patterns

        price = Price.fromstring(text)
        amount = float(price.amount) if price.amount is not None else None
        found = currency_code(text, price.currency, w, currency.upper() if currency else None) \
            if amount is not None else None
    return Money(amount, shown, found or (currency.upper() if currency else None))


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


def rule_phrases(values: dict[str, list[str]], words: Words | None = None) -> Phrases:
    """A field's own stock phrases (its ``values``), then the vocabulary's it does not
    repeat (a field without its own receives a copy of the vocabulary's table)."""
    stock = (words or default_words()).stock
    if not values:
        return stock
    own = compile_phrases(values)
    seen = set(own)
    return own + tuple(pair for pair in stock if pair not in seen)


def parse_availability(text: str, phrases: Phrases | None = None) -> str | None:
    """``in_stock``/``out_of_stock`` (or another value of the rule's map) by the first,
    longest phrase found — the rule's phrases, then the vocabulary's ``stock_phrases``
    (``phrases`` None: those alone); an in-stock phrase a negation denies is out of
    stock (:func:`_denied`); ``unknown`` for text that says neither, None for no text
    at all."""
    if phrases is None:
        phrases = default_words().stock
    folded = fold(_SPACED_DASH.sub(" , ", text))   # a dash between clauses still parts them
    if not folded:
        return None
    for phrase, value in phrases:
        at = folded.find(phrase)
        if at >= 0:
            return "out_of_stock" if value == "in_stock" and _denied(folded[:at]) else value
    if folded.isdigit():  # a stock count
        return "in_stock" if int(folded) > 0 else "out_of_stock"
    return "unknown"


_CLAUSE_END = re.compile(r"[.,;:!?|()\[\]]")
_SPACED_DASH = re.compile(r"\s[-–—]+\s")


def _denied(before: str) -> bool:
    """Whether one of the two words before an in-stock phrase, in its own clause, denies
    it ("no está disponible", "is not currently available"; not "No returns. In stock"):
    the vocabulary's ``stock_negations``."""
    negations = default_words().negations
    clause = _CLAUSE_END.split(before)[-1]
    return any(word in negations for word in clause.split()[-2:])


_LABEL_SPLIT = re.compile(r"\s*[:：]\s*")


def parse_identifier(text: str, labels: Sequence[str] = ()) -> str | None:
    """The code a text holds (a SKU, item number, GTIN), or None for text shaped like
    words: a code has a digit in each of its few words or no lower-case letter
    ("0051-064", "FDE0084902", "978 0 316 12558 1", "ABC-XYZ"), and no label; a label
    of ``labels`` before a colon is cut ("Product code: 83810610"), any other makes it
    no code ("Couleur : noir/blanc", "Standort:A-6805"), and so do words ("В избранное")."""
    parts = _LABEL_SPLIT.split(text.strip())
    if len(parts) == 2 and fold(parts[0]) in {fold(label) for label in labels}:
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


_SLUG_WORD = re.compile(r"[^\W\d_]{3,}")     # a word of a slug ("teak-bench-150")
_EXTENSION = re.compile(r"\.(?:html?|aspx?|php|jsp|p)$", re.I)


def url_identifier(url: str, words: Words | None = None) -> str | None:
    """The product identifier a page's URL carries, for a page that shows none: a query
    parameter the vocabulary's ``identifier_params`` name (``?sku=TB-150``), else the path
    segment after one of its ``identifier_paths`` (``/dp/B07XJ8C8F5``, ``/itm/256012345678``,
    ``/item/1005001234.html``); only a code with a digit (:func:`parse_identifier`), never a
    slug of words ("/product/teak-bench-150")."""
    w = words or default_words()
    parts = urlsplit(url)

    def code(value: str) -> str | None:
        value = _EXTENSION.sub("", unquote(value).strip())
        found = parse_identifier(value)
        return found if found and any(c.isdigit() for c in found) and " " not in found and \
            not any(c.islower() for part in _SLUG_WORD.findall(found) for c in part) else None

    for name, value in parse_qsl(parts.query):
        if name.lower() in w.id_params and (found := code(value)):
            return found
    segments = [s for s in parts.path.split("/") if s]
    for before, segment in pairwise(segments):
        if before.lower() in w.id_paths and (found := code(segment)):
            return found
    return None


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
