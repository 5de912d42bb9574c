"""Field values by kind: tables of markup -> value, one row per case (ids name the case).

The money rows come from the formats the demo shops and real shops print (price-parser's
own test tables are the model); the fast path for plain prices is checked against
price-parser itself on a seeded sample.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urljoin

import pytest
from price_parser import Price

from structurer.clean import parse_html
from structurer.replay.records import value_spec
from structurer.rules.model import FieldRule
from structurer.values import (
    Base,
    Money,
    currency_code,
    element_text,
    field_value,
    parse_availability,
    parse_breadcrumb,
    parse_integer,
    parse_money,
    parse_rating,
)

PAGE = "https://shop.example/c/shoes/index.html"


def extract(markup: str, xpath: str, kind: str, **rule: Any) -> Any:
    """The value a field rule gives on a page holding ``markup`` in its body."""
    tree = parse_html(f"<html><head></head><body>{markup}</body></html>", PAGE)
    spec = value_spec(FieldRule(xpath=xpath, kind=kind, **rule))
    return field_value(tree.xpath(xpath), spec, Base(PAGE))


# ----- text ------------------------------------------------------------------------------------
TEXT = [
    ("collapse", "<h2>  Trail \n Runner\tX </h2>", "//h2", "Trail Runner X"),
    ("inline-joins", "<h2>Fo<b>o</b>bar</h2>", "//h2", "Foobar"),
    ("blocks-separate", "<div><p>One</p><p>Two</p>three<br>four</div>", "//div",
     "One Two three four"),
    ("script-skipped", "<div>A<script>var x=1;</script><style>p{}</style> B</div>", "//div",
     "A B"),
    ("comment-skipped", "<span>A<!-- no -->B</span>", "//span", "AB"),
    ("meta-content", '<meta itemprop="brand" content="Kestrel">', "//meta", "Kestrel"),
    ("img-alt", '<img alt="Blue shoe" src="a.jpg">', "//img", "Blue shoe"),
    ("empty-text-uses-content", '<span itemprop="sku" content="AO-1"></span>', "//span", "AO-1"),
    ("attribute-as-is", '<a title=" Hello ">x</a>', "//a/@title", "Hello"),
    ("first-non-blank", "<i> </i><i>second</i>", "//i", "second"),
    ("string-result", "<h1> A  B </h1>", "normalize-space(//h1)", "A B"),
    ("missing", "<p>x</p>", "//h1", None),
]


@pytest.mark.parametrize(("markup", "xpath", "expected"), [t[1:] for t in TEXT],
                         ids=[t[0] for t in TEXT])
def test_text(markup: str, xpath: str, expected: str | None) -> None:
    assert extract(markup, xpath, "text") == expected


def test_datetime_and_html() -> None:
    assert extract('<time datetime="2026-11-30">30 Nov</time>', "//time", "datetime") == \
        "2026-11-30"
    assert extract('<time>30 Nov</time>', "//time", "datetime") == "30 Nov"
    assert extract('<time datetime="2026-11-30">30 Nov</time>', "//time", "text") == "30 Nov"
    assert extract("<div>Hi <b>there</b> &amp; <i>you</i></div>", "//div", "html") == \
        "Hi <b>there</b> &amp; <i>you</i>"


@pytest.mark.parametrize(("markup", "expected"), [
    ("<span>EUR</span>", "EUR"), ("<span>€</span>", "EUR"), ("<span>Price in USD</span>", "USD"),
    ("<span>Couleur</span>", None),           # holds "eur", names no currency
    ("<span>Colour</span>", None),
])
def test_currency_is_a_code_or_nothing(markup: str, expected: str | None) -> None:
    assert extract(markup, "//span", "currency") == expected


def test_element_text_skip_struck() -> None:
    tree = parse_html("<div><span>$5.00</span><del>$9.00</del></div>")
    div = tree.xpath("//div")[0]
    assert element_text(div) == "$5.00$9.00"
    assert element_text(div, skip_struck=True) == "$5.00"


# ----- money -----------------------------------------------------------------------------------
MONEY = [
    ("usd-thousands", "$1,299.00", 1299.0, "USD"),
    ("eur-continental", "1.299,00 €", 1299.0, "EUR"),
    ("eur-small", "12,99 €", 12.99, "EUR"),
    ("yen-sign-cny", "¥1299", 1299.0, "CNY"),
    ("fullwidth-yuan", "￥1299.00", 1299.0, "CNY"),
    ("fullwidth-yuan-from", "￥1299.00起", 1299.0, "CNY"),
    ("yuan-char", "129元", 129.0, "CNY"),
    ("rmb", "RMB 129", 129.0, "CNY"),
    ("yen-jpy", "1299円", 1299.0, "JPY"),
    ("from", "From $5.00", 5.0, "USD"),
    ("incl-vat", "£12.99 incl. VAT", 12.99, "GBP"),
    ("now-was-first", "Now $5 Was $9", 5.0, "USD"),
    ("range-first", "$5.00 - $9.00", 5.0, "USD"),
    ("cad-prefix", "CA$12.00", 12.0, "CAD"),
    ("cad-c-dollar", "C$ 5", 5.0, "CAD"),
    ("aud", "A$3", 3.0, "AUD"),
    ("code-wins-over-dollar", "$12.00 CAD", 12.0, "CAD"),
    ("code-prefix", "EUR 5,00", 5.0, "EUR"),
    ("code-suffix", "Price: 12.50 USD", 12.5, "USD"),
    ("shipping", "+$4.00 shipping", 4.0, "USD"),
    ("no-currency", "12.50", 12.5, None),
    ("no-number", "Call for price", None, None),
    ("cents", "$0.99", 0.99, "USD"),
    ("space-thousands", "1 299,00 €", 1299.0, "EUR"),
    ("swiss-apostrophe", "CHF 1'051.99", 1051.99, "CHF"),
    ("swiss-typographic", "CHF 1\u2019051.99", 1051.99, "CHF"),   # the text stays as shown
    ("swiss-millions", "1\u2019234\u2019567.50 CHF", 1234567.5, "CHF"),
]


@pytest.mark.parametrize(("text", "amount", "currency"), [m[1:] for m in MONEY],
                         ids=[m[0] for m in MONEY])
def test_parse_money(text: str, amount: float | None, currency: str | None) -> None:
    money = parse_money(text)
    assert (money.amount, money.currency, money.text) == (amount, currency, text)


def test_money_currency_from_elsewhere() -> None:
    assert parse_money("129.99", "usd") == Money(129.99, "129.99", "USD")
    assert parse_money("€5", "USD").currency == "EUR"  # the text says which


MONEY_MARKUP = [
    ("split-elements", '<span class="p"><span>$</span><span>1,299</span><sup>.00</sup></span>',
     1299.0, "$1,299.00"),
    ("struck-original-skipped", '<div class="p"><ins>$5.00</ins> <del>$9.00</del></div>',
     5.0, "$5.00"),
    ("continental-split", '<p class="p">1.299<small>,00</small> €</p>', 1299.0, "1.299,00 €"),
]


@pytest.mark.parametrize(("markup", "amount", "text"), [m[1:] for m in MONEY_MARKUP],
                         ids=[m[0] for m in MONEY_MARKUP])
def test_money_from_markup(markup: str, amount: float, text: str) -> None:
    money = extract(markup, "//*[@class='p']", "money")
    assert (money.amount, money.text) == (amount, text)


def test_fast_money_path_agrees_with_price_parser() -> None:
    rng = random.Random(7)
    samples = []
    for _ in range(1500):
        value = rng.choice([rng.randint(0, 99), rng.randint(100, 9_999_999)])
        number = rng.choice(["{:,}", "{}", "{:,.2f}", "{:.2f}", "{:.1f}"])
        number = number.format(value / 100 if "f" in number else value)
        samples.append(rng.choice(["", "$", "€", "£", "¥", "￥", "US$", "USD ", "From ", "+$",
                                   "Now ", "Price: $", "CA$", "C$ "]) + number
                       + rng.choice(["", " €", "€", " USD", "元", " incl. VAT", " shipping"]))
    for text in samples:
        parsed = Price.fromstring(text)
        expected = float(parsed.amount) if parsed.amount is not None else None
        money = parse_money(text)
        assert money.amount == expected, text
        assert money.currency == currency_code(text, parsed.currency), text


# ----- numbers ---------------------------------------------------------------------------------
INTEGERS = [("reviews", "(1,234 reviews)", 1234), ("plain", "99", 99),
            ("k-suffix", "1.2k ratings", 1200), ("chinese", "累计评价38条", 38),
            ("space-thousands", "12 345 Bewertungen", 12345), ("first", "3 of 5", 3),
            ("none", "no reviews yet", None)]


@pytest.mark.parametrize(("text", "expected"), [i[1:] for i in INTEGERS],
                         ids=[i[0] for i in INTEGERS])
def test_parse_integer(text: str, expected: int | None) -> None:
    assert parse_integer(text) == expected


RATINGS = [("out-of", "4.5 out of 5", 4.5), ("star", "★ 4.3", 4.3), ("rated", "Rated 4.50", 4.5),
           ("comma", "4,5 Sterne", 4.5), ("integer", "5 stars", 5.0), ("none", "Be first", None)]


@pytest.mark.parametrize(("text", "expected"), [r[1:] for r in RATINGS],
                         ids=[r[0] for r in RATINGS])
def test_parse_rating(text: str, expected: float | None) -> None:
    assert parse_rating(text) == expected


def test_numbers_from_markup() -> None:
    assert extract('<span class="c">(1,234 reviews)</span>', "//span", "integer") == 1234
    assert extract('<div title="4.5 out of 5">★</div>', "//div/@title", "rating") == 4.5
    assert extract("<i>a</i><i>b</i><i>c</i>", "count(//i)", "integer") == 3


# ----- availability ----------------------------------------------------------------------------
AVAILABILITY = [
    ("in-stock", "In stock", "in_stock"), ("out-of-stock", "Out of stock", "out_of_stock"),
    ("sold-out-back-soon", "Sold out — back soon", "out_of_stock"),
    ("not-in-stock-beats-in-stock", "Not in stock", "out_of_stock"),
    ("unavailable-beats-available", "Currently unavailable", "out_of_stock"),
    ("ready-to-ship", "In stock, ready to ship", "in_stock"),
    ("schema-in", "https://schema.org/InStock", "in_stock"),
    ("schema-out", "http://schema.org/OutOfStock", "out_of_stock"),
    ("snake-case", "in_stock", "in_stock"), ("css-class", "stock out-of-stock", "out_of_stock"),
    ("zh-in", "有货", "in_stock"), ("zh-out", "无货", "out_of_stock"),
    ("zh-short", "暂时缺货", "out_of_stock"), ("zh-sold-out", "已售罄", "out_of_stock"),
    ("count", "5", "in_stock"), ("zero", "0", "out_of_stock"),
    ("unknown", "Ships in 2 weeks", "unknown"), ("empty", "  ", None),
    # a negation a word or two before an in-stock phrase denies it
    ("es-denied", "Este producto no está disponible actualmente.", "out_of_stock"),
    ("fr-denied", "Ce produit n'est pas disponible", "out_of_stock"),
    ("it-denied", "Il prodotto non è disponibile", "out_of_stock"),
    ("pl-denied", "Produkt nie jest dostępny", "out_of_stock"),
    ("en-denied", "This item is not currently available", "out_of_stock"),
    ("negation-far-before", "No fuss returns. In stock", "in_stock"),
    ("number-label", "No. of items available: 5", "in_stock"),
    ("negation-other-sentence", "No returns. Available", "in_stock"),
    ("negation-other-clause", "Free shipping, no minimum. In stock", "in_stock"),
    ("negation-before-colon", "Kein Risiko: auf Lager", "in_stock"),
    ("negation-before-dash", "no fees - available now", "in_stock"),
]


@pytest.mark.parametrize(("text", "expected"), [a[1:] for a in AVAILABILITY],
                         ids=[a[0] for a in AVAILABILITY])
def test_parse_availability(text: str, expected: str | None) -> None:
    assert parse_availability(text) == expected


def test_availability_rule_values_first() -> None:
    values = {"in_stock": ["auf Lager"], "preorder": ["vorbestellen"]}
    assert extract("<p>Jetzt vorbestellen</p>", "//p", "availability", values=values) == \
        "preorder"
    assert extract("<p>Auf Lager</p>", "//p", "availability", values=values) == "in_stock"
    assert extract("<p>Sold out</p>", "//p", "availability", values=values) == "out_of_stock"
    assert extract('<link href="https://schema.org/InStock">', "//link", "availability") == \
        "in_stock"
    assert extract('<span class="stock sold-out"></span>', "//span", "availability") == \
        "out_of_stock"
    assert extract("<p>x</p>", "//span", "availability") is None


# ----- URLs and images -------------------------------------------------------------------------
IMAGES = [
    ("src", '<img src="/img/a.jpg">', "//img", "https://shop.example/img/a.jpg"),
    ("relative", '<img src="a.jpg">', "//img", "https://shop.example/c/shoes/a.jpg"),
    ("blank-gif-data-original", '<img src="/images/blank.gif" data-original="/img/b.jpg">',
     "//img", "https://shop.example/img/b.jpg"),
    ("data-uri-data-src", '<img src="data:image/gif;base64,R0lGOD" data-src="//cdn.example/c.jpg">',
     "//img", "https://cdn.example/c.jpg"),
    ("spacer-srcset-largest", '<img src="/s/spacer.gif" srcset="/img/d-320.jpg 320w, '
     '/img/d-640.jpg 640w">', "//img", "https://shop.example/img/d-640.jpg"),
    # the best size the page offers: srcset's widest, a zoom attribute, a link to the file
    ("srcset-over-src", '<img src="/img/m.jpg?w=600" srcset="/img/m.jpg?w=600 600w, '
     '/img/m.jpg 1200w">', "//img", "https://shop.example/img/m.jpg"),
    ("srcset-density", '<img src="/img/n.jpg" srcset="/img/n.jpg 1x, /img/n@2x.jpg 2x">', "//img",
     "https://shop.example/img/n@2x.jpg"),
    ("data-zoom-image", '<img src="/img/o.jpg?w=600" data-zoom-image="/img/o.jpg">', "//img",
     "https://shop.example/img/o.jpg"),
    ("zoom-link", '<a href="/img/p.png" data-lightbox="x"><img src="/img/p.png?w=600"></a>',
     "//img", "https://shop.example/img/p.png"),
    ("product-link-is-no-zoom", '<a href="/p/q.html"><img src="/img/q.jpg"></a>', "//img",
     "https://shop.example/img/q.jpg"),
    # a shop's "no image" picture is no picture
    ("no-image-file", '<img src="/static/img/no-image.svg">', "//img", None),
    ("placeholder-folder", '<img src="/media/placeholder/default.png">', "//img", None),
    ("piano-images-is-real", '<img src="/img/piano-images.jpg">', "//img",
     "https://shop.example/img/piano-images.jpg"),
    ("1x1-data-lazy-src", '<img src="/p/1x1.png" data-lazy-src="/img/e.jpg">', "//img",
     "https://shop.example/img/e.jpg"),
    ("placeholder-data-srcset", '<img src="placeholder.svg" data-srcset="/img/f.jpg 2x">',
     "//img", "https://shop.example/img/f.jpg"),
    ("empty-src", '<img src="" data-src="/img/g.jpg">', "//img", "https://shop.example/img/g.jpg"),
    ("container", '<div class="pic"><a href="/p/1"><img src="/img/h.jpg"></a></div>',
     "//div", "https://shop.example/img/h.jpg"),
    ("attribute-placeholder-falls-back", '<img src="/images/blank.gif" data-original="/img/i.jpg">',
     "//img/@src", "https://shop.example/img/i.jpg"),
    ("attribute-as-is", '<img data-zoom="/img/z.jpg">', "//img/@data-zoom",
     "https://shop.example/img/z.jpg"),
    ("background", "<div style=\"background-image: url('/img/bg.jpg')\"></div>", "//div",
     "https://shop.example/img/bg.jpg"),
    ("only-placeholder", '<img src="/images/blank.gif">', "//img", None),
    ("no-image", "<div>none</div>", "//div", None),
]


@pytest.mark.parametrize(("markup", "xpath", "expected"), [i[1:] for i in IMAGES],
                         ids=[i[0] for i in IMAGES])
def test_image(markup: str, xpath: str, expected: str | None) -> None:
    assert extract(markup, xpath, "image") == expected


URLS = [
    ("a-href", '<a href="/p/1.html">x</a>', "//a", "https://shop.example/p/1.html"),
    ("nested-a", '<h2><span><a href="p/2.html">x</a></span></h2>', "//h2",
     "https://shop.example/c/shoes/p/2.html"),
    ("attribute", '<a href="?page=2">2</a>', "//a/@href", "https://shop.example/c/shoes/index.html?page=2"),
    ("absolute", '<a href="https://other.example/x">x</a>', "//a", "https://other.example/x"),
    ("protocol-relative", '<a href="//cdn.example/x">x</a>', "//a", "https://cdn.example/x"),
    ("dot-segments", '<a href="../boots/">x</a>', "//a", "https://shop.example/c/boots/"),
    ("javascript", '<a href="javascript:;">x</a>', "//a", None),
    ("fragment", '<a href="#reviews">x</a>', "//a", None),
    ("no-link", "<span>x</span>", "//span", None),
]


@pytest.mark.parametrize(("markup", "xpath", "expected"), [u[1:] for u in URLS],
                         ids=[u[0] for u in URLS])
def test_url(markup: str, xpath: str, expected: str | None) -> None:
    assert extract(markup, xpath, "url") == expected


@pytest.mark.parametrize("base", ["http://x/c/shoes/", "http://x/c/shoes", "http://x",
                                  "https://h:8080/a/b.html?q=1#f", "file:///tmp/a/page.html"])
def test_base_join_agrees_with_urljoin(base: str) -> None:
    for href in ["/p/x.html", "p/x.html", "./p/x.html", "../p/x.html", "?page=2", "//cdn/x.jpg",
                 "http://y/z", "a/./b", "/a/../b", ".", "..", "./", "mailto:a@b", "x?y=1#f",
                 "./football _ files/s(2).webp", "a:b/c", "/./a", " /p/ "]:
        assert Base(base).join(href) == urljoin(base, href.strip()), href


# ----- breadcrumbs -----------------------------------------------------------------------------
CRUMBS = [
    ("nodes-home-dropped", '<nav><a>Home</a><a>Shoes</a><a>Trail</a></nav>', "//nav/a",
     ["Shoes", "Trail"]),
    ("one-node-split", "<nav>Home › Shoes › Trail</nav>", "//nav", ["Shoes", "Trail"]),
    ("chinese-label", '<div class="mbx">当前位置：<a>首页</a> &gt; <a>手机数码</a> &gt; '
     "<a>手机</a></div>", "//div", ["手机数码", "手机"]),
    ("list-items", "<ol><li><a>Start</a></li><li><a>A</a></li><li>B</li></ol>", "//ol",
     ["A", "B"]),
    ("slashes", "<p>Start / Garden / Tools</p>", "//p", ["Garden", "Tools"]),
    ("pipes-and-raquo", "<p>A | B » C</p>", "//p", ["A", "B", "C"]),
    ("children-without-separators", "<div><a>Home</a><a>Kitchen</a><span>Pans</span></div>",
     "//div", ["Kitchen", "Pans"]),
    ("empty-items-dropped", "<ul><li><a>Home</a></li><li> </li><li><a>Lamps</a></li></ul>",
     "//ul/li", ["Lamps"]),
    ("nothing", "<p>x</p>", "//nav", None),
]


@pytest.mark.parametrize(("markup", "xpath", "expected"), [c[1:] for c in CRUMBS],
                         ids=[c[0] for c in CRUMBS])
def test_breadcrumb(markup: str, xpath: str, expected: list[str] | None) -> None:
    assert extract(markup, xpath, "breadcrumb", multiple=True) == expected


def test_parse_breadcrumb_texts() -> None:
    assert parse_breadcrumb(["Home > Men > Shoes"]) == ["Men", "Shoes"]
    assert parse_breadcrumb(["首页", "家用电器", "厨房小电"]) == ["家用电器", "厨房小电"]
    assert parse_breadcrumb([]) == []


# ----- post steps and multiple -----------------------------------------------------------------
POST = [
    ("strip", '<a title="  x  ">', "//a/@title", ["strip"], "x"),
    ("collapse", '<a title=" a   b ">', "//a/@title", ["collapse"], "a b"),
    ("lower", "<p>ABC</p>", "//p", ["lower"], "abc"),
    ("upper", "<p>abc</p>", "//p", ["upper"], "ABC"),
    ("first", "<p>a</p><p>b</p>", "//p", ["first"], "a"),
    ("last", "<p>a</p><p>b</p>", "//p", ["last"], "b"),
    ("join", "<p>a</p><p>b</p><p>c</p>", "//p", ["join"], "a b c"),
    ("regex-group", "<p>SKU: AO-10007 (new)</p>", "//p", [r"regex:([A-Z]{2}-\d+)"], "AO-10007"),
    ("regex-whole", "<p>Item 12345 here</p>", "//p", [r"regex:\d+"], "12345"),
    ("regex-no-match", "<p>none</p>", "//p", [r"regex:(\d+)"], None),
    ("remove", "<p>SKU: AB-1</p>", "//p", ["remove:SKU:"], "AB-1"),
    ("split-then-last", "<p>a, b, c</p>", "//p", ["split:,", "last"], "c"),
    ("replace", "<p>12-34</p>", "//p", ["replace:-=>"], "1234"),
    ("prefix-suffix", "<p>7</p>", "//p", ["prefix:#", "suffix:!"], "#7!"),
    ("default-when-missing", "<p>x</p>", "//span", ["default:n/a"], "n/a"),
    ("default-unused", "<p>x</p>", "//p", ["default:n/a"], "x"),
]


@pytest.mark.parametrize(("markup", "xpath", "post", "expected"), [p[1:] for p in POST],
                         ids=[p[0] for p in POST])
def test_post_steps(markup: str, xpath: str, post: list[str], expected: str | None) -> None:
    assert extract(markup, xpath, "text", post=post) == expected


def test_post_steps_feed_the_kind() -> None:
    assert extract('<a href="x.html">x</a>', "//a/@href", "url", post=["absolute_url"]) == \
        "https://shop.example/c/shoes/x.html"
    assert extract("<p>Price (incl. tax): 12.50</p>", "//p", "money",
                   post=["regex:: (.*)"]).amount == 12.5
    assert extract("<p>x</p>", "//span", "availability", post=["default:in stock"]) == \
        "in_stock"


def test_multiple() -> None:
    markup = '<ul><li><img src="/a.jpg"></li><li><img src="/b.jpg"></li><li>none</li></ul>'
    assert extract(markup, "//li/img", "image", multiple=True) == [
        "https://shop.example/a.jpg", "https://shop.example/b.jpg"]
    assert extract(markup, "//li", "text", multiple=True) == ["none"]
    prices = extract("<b>$1</b><b>$2.50</b>", "//b", "money", multiple=True)
    assert [m.amount for m in prices] == [1.0, 2.5]
    assert extract(markup, "//table", "text", multiple=True) == []


RATINGS = [
    ("class-word", '<div class="rating"><p class="stars three"><i></i></p><span>(12)</span></div>',
     3.0),
    ("class-number-half", '<div class="rating"><span class="rating rating-4-5"></span>'
     "<span>(341)</span></div>", 4.5),
    ("width", '<div class="rating"><span class="stars-outer"><span class="stars-inner" '
     'style="width:80%"></span></span><span>(7 reviews)</span></div>', 4.0),
    ("aria", '<div class="rating" role="img" aria-label="Rated 4.1 out of 5">★★★★☆</div>', 4.1),
    ("text", '<div class="rating"><span>4,1 / 5</span> <span>8 reviews</span></div>', 4.1),
    ("only-a-review-count", '<div class="rating"><span>(12 reviews)</span></div>', None),
    # a product without a rating: the path reaches the old price beside it, no rating
    ("a-price", '<div class="rating"><span class="old">2.062,50 €</span></div>', None),
    ("a-price-usd", '<div class="rating"><span>$1.99</span></div>', None),
]


@pytest.mark.parametrize(("markup", "expected"), [r[1:] for r in RATINGS],
                         ids=[r[0] for r in RATINGS])
def test_rating_from_markup_never_the_review_count(markup: str, expected: float | None) -> None:
    assert extract(markup, "//div[contains(@class, 'rating')]", "rating") == expected


@pytest.mark.parametrize(("text", "amount"), [
    ("or 4 × $308.38", None), ("ou 4x de R$ 77,00", None), ("$12.00 – $20.00", 12.0),
    ("1.234,50 € – 2.000,00 €", 1234.5)], ids=["instalment", "instalment-pt", "range", "range-de"])
def test_a_multiplier_is_no_price_and_a_range_starts_at_its_low_end(
        text: str, amount: float | None) -> None:
    assert parse_money(text).amount == amount

