"""Field values from what an XPath selected: text, money, URLs, images, stock, crumbs.

Input: the result of one XPath evaluation (element nodes, attribute or text
results, or a scalar), a :class:`ValueSpec` (value kind, ``multiple``, post steps,
availability phrases) and a :class:`Base` (the page URL that relative links are
resolved against). Output: the field's value — ``str``, ``float``, ``int``, a
:class:`Money`, a list of names for breadcrumbs, a list for ``multiple`` fields —
or ``None`` when nothing usable was selected. Nothing is ever invented.

The pipeline is: node -> raw string by kind (an element's normalized text,
``<meta>`` content, an image's real source behind lazy loading, a link's href)
-> the rule's post steps (compiled once) -> the kind's parser (``price-parser`` for
money, numbers, stock phrases, breadcrumb separators).
These functions run once per field per record, so they avoid regex compilation,
re-serialization and ``urljoin`` where a cheaper exact path exists.
"""

from __future__ import annotations

import contextlib
import html as htmllib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit

from lxml import etree

__all__ = [
    "DEFAULT_AVAILABILITY", "Base", "Money", "Post", "ValueSpec", "compile_phrases",
    "currency_code", "element_text", "field_value", "image_source", "link_target",
    "parse_availability", "parse_breadcrumb", "parse_integer", "parse_money", "parse_rating",
    "plain_text",
]

Post = Callable[[list[str], "Base"], list[str]]


class Money(NamedTuple):
    """A price as found: the amount (None if the text holds no number), the raw text
    and the ISO 4217 currency where the text or the page says which."""

    amount: float | None
    text: str
    currency: str | None


# ----- URLs -----------------------------------------------------------------------------------
class Base:
    """The URL relative links of one page resolve against (its ``<base href>`` if any)."""

    __slots__ = ("folder", "origin", "url")

    def __init__(self, url: str) -> None:
        self.url = url
        parts = urlsplit(url)
        self.origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""
        self.folder = (self.origin + parts.path[:parts.path.rfind("/") + 1]
                       if parts.path else self.origin + "/") if self.origin else ""

    def join(self, href: str) -> str | None:
        """Absolute URL of ``href``; None for empty, ``javascript:`` and fragment-only links."""
        href = href.strip()
        if not href or href[0] == "#" or href[:11].lower() == "javascript:":
            return None
        if href.startswith(("https://", "http://")):
            return href
        # paths without dot segments need no parsing: '/a/b' and 'a/b' or './a/b'
        if self.origin and "/." not in href:
            if href[0] == "/":
                if href[1:2] != "/":
                    return self.origin + href
            elif href[0] != "?" and href != "." and ":" not in href.split("/", 1)[0] \
                    and ".." not in href:
                return self.folder + (href[2:] if href.startswith("./") else href)
        return urljoin(self.url, href)


# ----- element text -----------------------------------------------------------------------------
_SKIP = frozenset({"script", "style", "noscript", "template", "head", "title"})
_STRUCK = frozenset({"del", "s", "strike"})
_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption",
    "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
    "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
    "ul", "option", "summary", "details", "button",
})
_DIGIT = re.compile(r"\d")


def _collect(el: Any, parts: list[str], skip_struck: bool) -> None:
    if el.text:
        parts.append(el.text)
    for child in el:
        tag = child.tag
        if isinstance(tag, str) and tag not in _SKIP and not (skip_struck and tag in _STRUCK):
            if tag in _BLOCK:
                parts.append(" ")
                _collect(child, parts, skip_struck)
                parts.append(" ")
            elif len(child) or child.text:
                _collect(child, parts, skip_struck)
        if child.tail:
            parts.append(child.tail)


def element_text(el: Any, *, skip_struck: bool = False) -> str:
    """Visible text of an element, whitespace collapsed; block elements and ``<br>``
    separate words, scripts and styles are left out. With ``skip_struck`` the text of
    ``<del>``/``<s>``/``<strike>`` descendants is left out when the rest has a digit."""
    if not len(el):
        text = el.text
        return " ".join(text.split()) if text else ""
    parts: list[str] = []
    _collect(el, parts, skip_struck)
    text = " ".join("".join(parts).split())
    if skip_struck and not _DIGIT.search(text):
        return element_text(el)
    return text


_MARKUP = re.compile(r"<(?:[a-zA-Z][a-zA-Z0-9]*|/[a-zA-Z][a-zA-Z0-9]*)[\s/>]")
_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


def plain_text(raw: str) -> str:
    """A text field's value as a person reads it: markup and character references that
    structured data often carries (``"<p>Soft &amp; warm</p>"``, a ``content`` attribute
    holding ``&lt;p&gt;``) become plain words, whitespace collapsed."""
    if "&" in raw and _ENTITY.search(raw):
        raw = htmllib.unescape(raw)
    if "<" in raw and _MARKUP.search(raw):
        from lxml import html as lxml_html

        with contextlib.suppress(etree.ParserError):
            raw = element_text(lxml_html.fragment_fromstring(raw, create_parent="div"))
    return " ".join(raw.split())


def _inner_html(el: Any) -> str:
    head = htmllib.escape(el.text, quote=False) if el.text else ""
    return (head + "".join(etree.tostring(child, encoding="unicode", method="html")
                           for child in el)).strip()


_LAZY_ATTRS = ("data-src", "data-original", "data-lazy-src", "data-lazy", "data-srcset",
               "srcset", "data-original-src", "data-zoom-image", "data-large_image")
_PLACEHOLDER = re.compile(r"blank|spacer|1x1|placeholder|pixel\.|transparent\.|loading\.|"
                          r"lazy\.|grey\.gif|gray\.gif|empty\.")
_BG_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")


def _is_placeholder(src: str) -> bool:
    src = src.strip()
    if not src or src[:5].lower() == "data:":
        return True
    return _PLACEHOLDER.search(src.lower(), src.rfind("/") + 1) is not None


def image_source(el: Any) -> str | None:
    """The real picture of an ``<img>`` (or of the first one inside ``el``): ``src``
    unless it is a lazy-loading placeholder, else ``data-src``/``data-original``/...,
    else the first ``srcset`` candidate; a CSS ``background-image`` as a last resort."""
    if el.tag not in ("img", "source"):
        img = next(el.iter("img"), None)
        if img is None:
            style = el.get("style") or ""
            found = _BG_URL.search(style) if "url(" in style else None
            return found.group(1).strip() if found else None
        el = img
    src: str | None = el.get("src")
    if src is not None and not _is_placeholder(src):
        return src.strip()
    for attr in _LAZY_ATTRS:
        value: str | None = el.get(attr)
        if value and value.strip():
            candidate = value.strip()
            if "srcset" in attr:
                candidate = candidate.split(",", 1)[0].strip().split(" ", 1)[0]
            if candidate and not _is_placeholder(candidate):
                return candidate
    return None


def link_target(el: Any) -> str | None:
    """``@href`` of a link element, else of the first ``<a href>`` inside it."""
    href = el.get("href")
    if href is not None:
        return str(href)
    for a in el.iter("a"):
        href = a.get("href")
        if href is not None:
            return str(href)
    return None


_TEXT_ATTRS = ("content", "value", "title", "aria-label", "alt")
_OWN_VALUE = frozenset({"meta", "link", "time", "img", "input"})
_TEXTUAL = frozenset({"text", "money", "integer", "rating", "availability", "breadcrumb",
                      "datetime"})


def _raw(node: Any, kind: str) -> str | None:
    """The string a selected node stands for, by value kind (None: nothing there)."""
    if isinstance(node, str):  # attribute / text() / string() results are used as is
        if kind == "image" and getattr(node, "is_attribute", False) and _is_placeholder(node):
            owner = node.getparent()  # type: ignore[attr-defined]
            return image_source(owner) if owner is not None else None
        return node
    tag = node.tag
    if kind in _TEXTUAL and tag not in _OWN_VALUE and not len(node):
        text = node.text  # the common case: an element holding only text
        if text and not text.isspace():
            return " ".join(text.split())
    if not isinstance(tag, str):  # comments, processing instructions
        return None
    if kind == "image":
        return image_source(node)
    if kind == "url":
        return link_target(node)
    if kind == "html":
        return _inner_html(node)
    if tag in _OWN_VALUE:
        own = {"meta": "content", "link": "href", "img": "alt", "time": "datetime"}.get(tag)
        if own is not None and (tag != "time" or kind == "datetime"):
            value: str | None = node.get(own)
            return value if value or tag != "time" else element_text(node)
    text = element_text(node, skip_struck=kind == "money")
    if text:
        return text
    for attr in _TEXT_ATTRS:
        value = node.get(attr)
        if value and value.strip():
            return value
    return str(node.get("class") or "") if kind == "availability" else text


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


def _names_currency(words: str) -> bool:
    return bool(_CODE_WORD.search(words)) or any(
        w.rstrip(".:") in _SYMBOLS or w in _SYMBOLS for w in words.upper().split())


def parse_money(text: str, currency: str | None = None) -> Money:
    """Amount, raw text and ISO currency of a price text (``$1,299.00``, ``1.299,00 €``,
    ``¥1299``, ``From $5.00``, ``£12.99 incl. VAT``; ``Now $5 Was $9`` is 5).

    Plain ``$1,299.00``-style texts take an exact shortcut; everything else goes through
    ``price-parser``. ``currency`` is used when the text itself does not say."""
    text = " ".join(text.split())
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


def _crumb_parts(el: Any) -> list[str]:
    """One element holding a whole breadcrumb: its ``<li>`` items, or its text when it
    has visible separators, else the texts of its child elements."""
    items = [element_text(li) for li in el.iter("li")]
    if items:
        return items
    text = element_text(el)
    if _CRUMB_SPLIT.search(text):
        return [text]
    children = [element_text(c) for c in el if isinstance(c.tag, str)]
    return children if len(children) > 1 else [text]


# ----- the pipeline -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ValueSpec:
    """How to turn a selection into one field's value (compiled once per rule file)."""

    kind: str = "text"
    multiple: bool = False
    post: tuple[Post, ...] = ()
    phrases: Phrases = DEFAULT_AVAILABILITY
    needs_all: bool = False  # look past the first usable node (multiple, joins, breadcrumbs)
    memo: dict[str, str | None] = field(default_factory=dict)  # stock text -> value


def _scalar_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _availability(raw: str, spec: ValueSpec, base: Base, currency: str | None) -> str | None:
    """Stock texts repeat on every page of a shop: each is looked up once."""
    memo = spec.memo
    if raw in memo:
        return memo[raw]
    value = parse_availability(raw, spec.phrases)
    if len(memo) < 512:
        memo[raw] = value
    return value


def _text(raw: str, spec: ValueSpec, base: Base, currency: str | None) -> str | None:
    return raw.strip() or None


_FINISH: dict[str, Callable[[str, ValueSpec, Base, str | None], Any]] = {
    "text": _text, "datetime": _text, "html": _text, "breadcrumb": _text,
    "money": lambda raw, spec, base, currency: parse_money(raw, currency),
    "url": lambda raw, spec, base, currency: base.join(raw),
    "image": lambda raw, spec, base, currency: base.join(raw),
    "integer": lambda raw, spec, base, currency: parse_integer(raw),
    "rating": lambda raw, spec, base, currency: parse_rating(raw),
    "availability": _availability,
}


def field_value(selected: object, spec: ValueSpec, base: Base,
                currency: str | None = None) -> Any:
    """One field's value from an XPath result (a list of nodes/strings or a scalar).

    A single-valued field takes the first selected node that stands for a non-blank
    string. ``currency`` is the currency known from elsewhere (JSON-LD
    ``priceCurrency``) for a money text that names none. Returns None (or ``[]`` for
    ``multiple``) when nothing usable was selected."""
    kind = spec.kind
    nodes: Iterable[Any]
    if isinstance(selected, list):
        nodes = selected
        if kind == "breadcrumb" and len(selected) == 1 and not isinstance(selected[0], str):
            nodes = _crumb_parts(selected[0])
    else:
        nodes = () if selected is None else (_scalar_text(selected),)
    finish = _FINISH[kind]
    if not spec.needs_all and not spec.post:
        for node in nodes:
            raw = _raw(node, kind)
            if raw and not raw.isspace():
                return finish(raw, spec, base, currency)
        return None
    raws: list[str] = []
    for node in nodes:
        raw = _raw(node, kind)
        if raw and not raw.isspace():
            raws.append(raw)
            if not spec.needs_all:
                break
    for step in spec.post:
        raws = step(raws, base)
    if kind == "breadcrumb":
        return parse_breadcrumb(raws) or None
    if spec.multiple:
        values = [finish(raw, spec, base, currency) for raw in raws if raw.strip()]
        return [v for v in values if v is not None]
    return finish(raws[0], spec, base, currency) if raws and raws[0].strip() else None
