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
from typing import NamedTuple

__all__ = ["DEFAULT_AVAILABILITY", "Money", "Phrases", "compile_phrases", "crumb_separated",
           "currency_code", "parse_availability", "parse_breadcrumb", "parse_integer",
           "parse_money", "parse_rating"]


class Money(NamedTuple):
    """A price as found: the amount (None if the text holds no number), the raw text
    and the ISO 4217 currency where the text or the page says which."""

    amount: float | None
    text: str
    currency: str | None


# ----- currencies -------------------------------------------------------------------------------
_ISO = frozenset(re.findall("[A-Z]{3}", """
    AED ARS AUD BGN BRL CAD CHF CLP CNY COP CZK DKK EGP EUR GBP HKD HUF IDR ILS INR JPY KES
    KRW MXN MYR NGN NOK NZD PEN PHP PLN QAR RON RUB SAR SEK SGD THB TRY TWD UAH USD VND ZAR"""))
_SYMBOLS = {
    "$": "USD", "US$": "USD", "USD$": "USD", "CA$": "CAD", "C$": "CAD", "CAD$": "CAD",
    "A$": "AUD", "AU$": "AUD", "NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "SG$": "SGD",
    "NT$": "TWD", "R$": "BRL", "MX$": "MXN", "€": "EUR", "£": "GBP", "¥": "CNY", "￥": "CNY",
    "元": "CNY", "RMB": "CNY", "円": "JPY", "₹": "INR", "RS": "INR", "RS.": "INR", "₩": "KRW",
    "원": "KRW", "₽": "RUB", "РУБ": "RUB", "РУБ.": "RUB", "ZŁ": "PLN", "KČ": "CZK", "FT": "HUF",
    "LEI": "RON", "ЛВ": "BGN", "₺": "TRY", "TL": "TRY", "₴": "UAH", "₪": "ILS", "฿": "THB",
    "₫": "VND", "₱": "PHP", "RM": "MYR", "RP": "IDR", "FR.": "CHF", "SFR.": "CHF",
}
_CODE = re.compile(r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])")


def currency_code(text: str, symbol: str | None = None) -> str | None:
    """ISO 4217 code of a price text: a code written in it (``$12 CAD``) wins, then the
    symbol (``$`` is USD, ``¥``/``￥``/``元``/``RMB`` CNY, ``円`` JPY, ``CA$`` CAD, ...)."""
    for code in _CODE.findall(text):
        if code in _ISO:
            return str(code)
    if symbol:
        key = symbol.strip().upper()
        if key in _ISO:
            return key
        if key in _SYMBOLS:
            return _SYMBOLS[key]
    for char in ("元", "円", "￥", "¥", "€", "£", "$"):
        if char in text:
            return _SYMBOLS[char]
    return None


# ----- kinds ------------------------------------------------------------------------------------
_FAST_MONEY = re.compile(
    r"(?P<lead>\+|(?:[A-Za-z][A-Za-z.:]* )+)?"
    r"(?P<pre>[$€£¥￥]|US\$|CA\$|C\$|A\$|[A-Z]{3}(?= ))? ?"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d{1,2}))?"
    r" ?(?P<post>[€£¥￥元円]|[A-Z]{3}(?![A-Za-z]))?(?P<trail> [A-Za-z][A-Za-z.]*(?: [A-Za-z.]+)*)?")
_CODE_WORD = re.compile(r"[A-Z]{2}")
#: "4 × $308.38", "4x de R$ 77,00": an instalment, whose first number is no price
_MULTIPLIER = re.compile(r"(?<![\d.,])\d{1,2}\s*[×xX]\s*(?:[^\d\s]{1,4}\s*){0,2}\d")


def _names_currency(words: str) -> bool:
    return bool(_CODE_WORD.search(words)) or any(
        w.rstrip(".:") in _SYMBOLS or w in _SYMBOLS for w in words.upper().split())


def parse_money(text: str, currency: str | None = None) -> Money:
    """Amount, raw text and ISO currency of a price text (``$1,299.00``, ``1.299,00 €``,
    ``¥1299``, ``From $5.00``, ``£12.99 incl. VAT``; ``Now $5 Was $9`` is 5); a
    multiplier (``or 4 × $308.38``, an instalment) has no amount.

    Plain ``$1,299.00``-style texts take an exact shortcut; everything else goes through
    ``price-parser``. ``currency`` is used when the text itself does not say."""
    text = " ".join(text.split())
    if _MULTIPLIER.search(text):
        return Money(None, text, currency.upper() if currency else None)  # "or 4 × $308.38"
    fast = _FAST_MONEY.fullmatch(text)
    if fast is not None and (fast["lead"] or fast["trail"]) and _names_currency(
            f"{fast['lead'] or ''} {fast['trail'] or ''}"):
        fast = None  # words around the number might name a currency: leave it to price-parser
    if fast is not None:  # one number with a symbol or code, maybe words without digits
        _, pre, whole, dec, post, _ = fast.groups()
        whole = whole.replace(",", "")
        amount: float | None = float(f"{whole}.{dec}" if dec else whole)
        found = None
        for mark in (pre, post):
            if mark:
                mark = mark.upper()
                if mark in _ISO:
                    found = mark
                    break
                found = found or _SYMBOLS.get(mark)
    else:
        from price_parser import Price  # here: its import compiles large patterns

        price = Price.fromstring(text)
        amount = float(price.amount) if price.amount is not None else None
        found = currency_code(text, price.currency) if amount is not None else None
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


def _fold(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


DEFAULT_AVAILABILITY: Phrases = compile_phrases({
    "in_stock": ["in stock", "instock", "available", "ships today", "ready to ship",
                 "add to cart", "add to basket", "buy now", "limited availability",
                 "limitedavailability", "only a few left", "有货", "现货", "在售", "库存充足",
                 "auf lager", "lieferbar", "en stock", "disponible", "在庫あり"],
    "out_of_stock": ["out of stock", "outofstock", "sold out", "soldout", "unavailable",
                     "not available", "not in stock", "no stock", "currently unavailable",
                     "discontinued", "无货", "缺货", "售罄", "已售完", "暂时缺货", "到货通知",
                     "ausverkauft", "nicht lieferbar", "rupture de stock", "agotado", "在庫切れ",
                     "品切れ"],
})


def parse_availability(text: str, phrases: Phrases = DEFAULT_AVAILABILITY) -> str | None:
    """``in_stock``/``out_of_stock`` (or another value of the rule's map) by the first,
    longest phrase found — the rule's phrases, then the built-in English, German, French,
    Spanish, Chinese and Japanese ones and schema.org URLs; ``unknown`` for text that
    says neither, None for no text at all."""
    folded = _fold(text)
    if not folded:
        return None
    for phrase, value in phrases:
        if phrase in folded:
            return value
    if folded.isdigit():  # a stock count
        return "in_stock" if int(folded) > 0 else "out_of_stock"
    return "unknown"


_CRUMB_SPLIT = re.compile(r"\s*(?:›|»|>|＞|/|\||→|▸|≫|\\)\s*")
_CRUMB_LABEL = re.compile(r"^\s*(?:you are here|location|当前位置|您的位置|当前的位置|位置|"
                          r"sie sind hier|vous êtes ici)\s*[:：]\s*", re.IGNORECASE)
_HOME = frozenset({"home", "home page", "homepage", "首页", "start", "startseite", "accueil",
                   "inicio", "ホーム", "トップ", "主页", "返回首页"})


def parse_breadcrumb(items: Sequence[str]) -> list[str]:
    """Category names, top first: one text split on separators (› > / » |) or one name
    per node; empty items, separators, a leading label (``当前位置：``) and a leading
    "Home"/"首页"/"Start" dropped."""
    if items:
        items = [_CRUMB_LABEL.sub("", items[0]), *items[1:]]
    if len(items) == 1:
        items = _CRUMB_SPLIT.split(items[0])
    names = [" ".join(item.split()) for item in items]
    names = [n for n in names if n and not _CRUMB_SPLIT.fullmatch(n)]
    if names and names[0].lower() in _HOME:
        del names[0]
    return names


def crumb_separated(text: str) -> bool:
    """Whether ``text`` shows breadcrumb separators (``A › B``, ``A / B``)."""
    return _CRUMB_SPLIT.search(text) is not None
