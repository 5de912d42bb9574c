"""Rule-free product pages, the causes of misses issue 15 lists on real shops (price,
sku, availability, page kind), each rebuilt as a small page of a garden shop: a main
product beside a strip of related products with their own buy buttons."""

from __future__ import annotations

from typing import Any

import pytest

from structurer.generic.extract import extract_page_generic
from structurer.kinds import compile_words, url_identifier
from structurer.lexicon import load_lexicon

LEX = load_lexicon()
NAME = "Teak Garden Bench 150cm"
BUY = "<form action='/basket/add' method='post'><button type='submit'>Add to basket</button></form>"


def cards(n: int) -> str:
    return "".join(
        f"<div class='card'><a href='/product/{i}'><img src='/t/{i}.jpg' alt='Other {i}'></a>"
        f"<a href='/product/{i}'>Other garden chair model {i} in teak</a>"
        f"<span class='price'>£{i}9.00</span><button>Add to basket</button></div>"
        for i in range(10, 10 + n))


def page(main: str, head: str = "", gallery: str = "") -> str:
    return (f"<html><head><title>{NAME} | Gardenshop</title>{head}</head><body>"
            "<header><a href='/'>Gardenshop</a><a href='/basket'>Basket £0.00</a></header>"
            f"<main><div class='product'><div class='gallery'>{gallery}"
            f"<img src='/img/b.jpg' alt='{NAME}'></div><div class='details'><h1>{NAME}</h1>"
            f"{main}</div></div><div class='strip'>{cards(8)}</div></main>"
            "<footer>Free delivery on orders over £50</footer></body></html>")


def jsonld(offers: str) -> str:
    return ('<script type="application/ld+json">{"@type": "Product", "name": "'
            f'{NAME}", "offers": {offers}}}</script>')


def extract(html: str, url: str = "https://shop.test/products/teak-bench") -> dict[str, Any]:
    out = extract_page_generic(html, url, LEX)
    return {"kind": out["kind"], **out["fields"]}


# (id, page, url or None, the field, its value)
CASES: list[tuple[str, str, str | None, str, Any]] = [
    # a priced product under its <title>'s heading, no buy button: a carousel does not win
    ("no-buy-button", page("<div class='price'>€ 20,- VB</div>"), None, "price", 20.0),
    ("disabled-button", page("<p>£249.00</p><button disabled>Add to basket</button>"), None,
     "availability", "out_of_stock"),
    # prices that are not the price
    ("ex-vat-beside", page("<div><span>204,10 €</span> <small>exkl. MwSt.</small></div>"
                           f"<div class='cena'>249,00 € inkl. MwSt.</div>{BUY}"), None,
     "price", 249.0),
    ("regular-in-data-sale-shown", page(f"<p><del>£299.00</del> <span>£249.00</span></p>{BUY}",
                                        jsonld('{"price": "299.00", "priceCurrency": "GBP"}')),
     None, "price", 249.0),
    ("auction-current-bid", page("<div><span>Starting bid:</span> <span>US $10.00</span></div>"
                                 "<div><span>Current bid:</span> <span>US $45.00</span></div>"
                                 "<button>Place bid</button>"), None, "price", 45.0),
    # identifiers: invisible marks around a label, a label after whose number it is,
    # labels of more languages, codes only in the URL
    ("asin-bidi-marks", page(f"<p>£249.00</p>{BUY}<ul><li><span><span>ASIN \u200f : \u200e "
                             "</span><span>B07XJ8C8F5</span></span></li></ul>"), None,
     "sku", "B07XJ8C8F5"),
    ("ebay-item-number", page(f"<p>US $249.00</p>{BUY}<div><span>eBay item number:</span>"
                              "<span>256012345678</span></div>"), None, "sku", "256012345678"),
    ("stock-no", page(f"<p>£249.00</p>{BUY}<p>CBD Stock No: WW439391</p>"), None,
     "sku", "WW439391"),
    ("id-produto", page(f"<p>R$ 249,00</p>{BUY}<p><span>ID Produto:</span> <span>1234567</span>"
                        "</p>"), None, "sku", "1234567"),
    ("url-query", page(f"<p>£249.00</p>{BUY}"), "https://shop.test/product.php?sku=TB-150",
     "sku", "TB-150"),
    ("url-path", page(f"<p>£249.00</p>{BUY}"), "https://shop.test/Teak-Bench/dp/B07XJ8C8F5",
     "sku", "B07XJ8C8F5"),
    ("url-slug", page(f"<p>£249.00</p>{BUY}"), "https://shop.test/product/teak-bench-150",
     "sku", None),
    # availability: the buy control's, not a stock phrase elsewhere
    ("image-unavailable", page(f"<p>£249.00</p>{BUY}", gallery="<span>Image Unavailable</span>"),
     None, "availability", "in_stock"),
    ("list-unavailable", page(
        "<p>£249.00</p><div id='buybox'><div id='cart'><div class='stack'><span class='b'>"
        "<span class='i'><input type='submit' name='submit.add-to-cart' value='Add to Cart'>"
        "</span></span></div></div><div id='wishlist'><div class='popover'>"
        "<span>List unavailable.</span></div></div></div>"), None, "availability", "in_stock"),
    ("sold-out-size", page("<p>£249.00</p><ul class='sizes'><li>S</li><li>M - Sold out</li>"
                           f"<li>L</li></ul>{BUY}"), None, "availability", "in_stock"),
    ("microdata-offers", page(
        "<div itemscope itemtype='http://schema.org/Product'><span itemprop='name'>Teak</span>"
        + "".join("<div itemprop='offers' itemscope itemtype='http://schema.org/Offer'>"
                  f"<meta itemprop='price' content='249'><link itemprop='availability' "
                  f"href='http://schema.org/{state}'></div>" for state in ("OutOfStock",
                                                                          "InStock"))
        + f"</div><p>£249.00</p>{BUY}"), None, "availability", "in_stock"),
    ("hidden-other-state", page("<p>£249.00</p><p class='oos' style='display: none'>Out of "
                                "stock</p><p>In stock</p>"), None, "availability", "in_stock"),
    ("wrapper-class-state", page(f"<div class='summary outofstock'><p>£249.00</p>{BUY}</div>",
                                 gallery="<span>Image Unavailable</span>"), None,
     "availability", "out_of_stock"),
    ("not-sold", page("<p>£249.00</p><p class='status'>NOT SOLD</p>"), None,
     "availability", "out_of_stock"),
    ("schema-sold-out", page("<p>£249.00</p>", jsonld(
        '{"price": "249.00", "availability": "http://schema.org/SoldOut"}')), None,
     "availability", "out_of_stock"),
]


@pytest.mark.parametrize(("html", "url", "field", "want"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_a_real_shops_miss_rebuilt(html: str, url: str | None, field: str, want: Any) -> None:
    got = extract(html, url or "https://shop.test/products/teak-bench")
    assert got["kind"] == "detail"
    assert got[field] == want


def test_data_for_one_product_under_the_titled_heading_outweighs_a_carousel() -> None:
    """The data names the product otherwise than the heading, the price is drawn by a
    script: one product described under the heading its <title> names is a product page."""
    html = page("<div id='price-root'></div>", jsonld(
        '{"price": "249.00", "priceCurrency": "GBP"}').replace(f'"{NAME}"', '"Bench 150 teak"'))
    got = extract(html)
    assert (got["kind"], got["price"]) == ("detail", 249.0)


def test_a_product_named_in_a_div_is_found_by_the_title() -> None:
    html = page(f"<p class='p'>£249.00</p>{BUY}").replace("<h1>", "<div class='pt'>").replace(
        "</h1>", "</div>")
    got = extract(html)
    assert (got["kind"], got["price"]) == ("detail", 249.0)


@pytest.mark.parametrize(("url", "code"), [
    ("https://shop.test/p.php?id=3&ItemId=A-1200", "A-1200"),
    ("https://shop.test/itm/256012345678?hash=item3b", "256012345678"),
    ("https://shop.test/item/1005001234.html", "1005001234"),
    ("https://shop.test/products/Teak-Bench-150", None),
    ("https://shop.test/category/12345/benches", None),
], ids=lambda v: str(v))
def test_an_identifier_only_in_the_url(url: str, code: str | None) -> None:
    assert url_identifier(url, compile_words(LEX.vocabulary)) == code


@pytest.mark.parametrize(("url", "shown", "code", "source"), [
    ("https://shop.test/dp/B07XJ8C8F5", "", "B07XJ8C8F5", "url"),         # shaped like a code
    ("https://shop.test/itm/256012345678", "", "256012345678", "url"),   # a long item number
    ("https://shop.test/p/9921", "", None, None),            # a database row, shown nowhere
    ("https://shop.test/p/9921", "<p>Ref. 9921</p>", "9921", "url+page"),
    ("https://shop.test/p/9921", "<p>Item 199213</p>", None, None),   # digits inside another
], ids=["code", "item-number", "row-id", "row-id-shown", "row-id-inside-a-number"])
def test_an_identifier_from_the_url_says_so(url: str, shown: str, code: str | None,
                                           source: str | None) -> None:
    out = extract_page_generic(page(f"<p>£249.00</p>{BUY}{shown}"), url, LEX)
    assert out["fields"]["sku"] == code
    assert out["sources"].get("sku") == source
