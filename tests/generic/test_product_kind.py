"""A product page stays a product page beside a carousel of related products: structured
data for one product named by the page's heading, or the page's own buy control (a
button posting to the cart, in any language), outweigh a repeated block of cards."""

from __future__ import annotations

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()


def cards(n: int) -> str:
    """``n`` related products, each with a link, a picture, a name, a price and a button."""
    return "".join(
        f"<div class='card'><a href='/product/{i}'><img src='/t/{i}.jpg' alt='Other {i}'></a>"
        f"<a href='/product/{i}'>Lumen desk lamp model {i} with a long arm</a>"
        f"<span class='amount'>{i} 499,00 ₽</span><button type='button'>Купить</button></div>"
        for i in range(10, 10 + n))


def page(head: str, main: str, related: int = 8) -> str:
    return (f"<html><head><title>Fjord Reading Lamp R2 — Lampshop</title>{head}</head><body>"
            f"<div class='top'><a href='/'>Lampshop</a></div><div class='wrap'>"
            f"<div class='media'><img src='/img/r2.jpg' alt=''></div><div class='info'>"
            f"<h1>Fjord Reading Lamp R2</h1>{main}</div></div>"
            f"<section><h2>Вам также может понравиться</h2><div class='row'>{cards(related)}"
            f"</div></section></body></html>")


PRICE = "<p class='amount'>2 990,00 ₽</p>"


def test_one_microdata_product_named_by_the_heading_is_a_detail_page() -> None:
    main = ("<div itemscope itemtype='https://schema.org/Product'>"
            "<meta itemprop='name' content='Fjord Reading Lamp R2'>"
            f"<div itemprop='offers' itemscope itemtype='https://schema.org/Offer'>{PRICE}"
            "<meta itemprop='price' content='2990.00'>"
            "<meta itemprop='priceCurrency' content='RUB'></div></div>")
    out = extract_page_generic(page("", main), "http://shop.test/product/7", LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["name"] == "Fjord Reading Lamp R2"
    assert out["fields"]["price"] == 2990.0


def test_a_button_posting_to_the_cart_makes_the_page_its_products() -> None:
    main = (f"{PRICE}<form action='/cart/add' method='post'><input type='hidden' name='id' "
            "value='7'><button type='submit' name='add'>Bestellen</button></form>")
    out = extract_page_generic(page("", main), "http://shop.test/product/7", LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["price"] == 2990.0
    assert out["fields"]["availability"] == "in_stock"


def test_og_product_named_by_the_heading_is_a_detail_page() -> None:
    head = ("<meta property='og:type' content='product'>"
            "<meta property='og:title' content='Fjord Reading Lamp R2'>")
    out = extract_page_generic(page(head, PRICE, related=12), "http://shop.test/product/7", LEX)
    assert out["kind"] == "detail"


def test_a_list_page_with_a_featured_product_stays_a_list() -> None:
    # the structured data names a product the heading does not: a category page
    head = ("<script type='application/ld+json'>{\"@type\": \"Product\", \"name\": "
            "\"Lumen desk lamp model 10\", \"offers\": {\"price\": \"10499\"}}</script>")
    html = (f"<html><head><title>Desk lamps — Lampshop</title>{head}</head><body>"
            f"<h1>Desk lamps</h1><p>Sort by</p><div class='row'>{cards(16)}</div></body></html>")
    assert extract_page_generic(html, "http://shop.test/c/lamps", LEX)["kind"] == "list"


def test_a_price_split_over_spans_is_the_price_beside_the_title() -> None:
    main = ("<div class='box'><p class='x1'><span>¥</span><span>1,781.95</span></p></div>"
            "<p>现货</p><form action='/cart/add' method='post'><button type='submit'>"
            "加入购物车</button></form>")
    html = (f"<html><head><title>Fjord Reading Lamp R2</title></head><body><main>"
            f"<div class='info'><h1><span>Fjord Reading Lamp R2</span> <small>(Renewed)</small>"
            f"</h1>{main}</div></main><footer><p>Free delivery over ¥ 99</p></footer>"
            f"</body></html>")
    out = extract_page_generic(html, "http://shop.test/p/r2.html", LEX)
    assert out["kind"] == "detail"
    assert (out["fields"]["price"], out["fields"]["currency"]) == (1781.95, "CNY")


def test_cents_in_sup_and_a_struck_old_price_are_read_apart() -> None:
    main = ("<p class='now'>€ 352<sup>,50</sup></p><p><del>€ 518,50</del></p>"
            "<form action='/basket/add' method='post'><button type='submit'>Kaufen</button>"
            "</form>")
    out = extract_page_generic(page("", main), "http://shop.test/product/7", LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["price"] == 352.5


def test_money_the_lexicon_calls_no_price_is_not_the_price() -> None:
    # delivery costs in a language the code's own patterns do not know, marked as a price
    main = ("<p>58 552,00 ₽</p><p class='price'>+ 297,00 ₽ доставка</p>"
            "<form action='/cart/add' method='post'><button type='submit'>В корзину</button>"
            "</form>")
    out = extract_page_generic(page("", main, related=0), "http://shop.test/product/7", LEX)
    assert out["fields"]["price"] == 58552.0


def test_several_offers_in_stock_when_any_is_with_its_price() -> None:
    offers = ", ".join(
        f'{{"@type": "Offer", "price": "{price}", "priceCurrency": "EUR", '
        f'"availability": "https://schema.org/{state}"}}'
        for price, state in (("10.00", "OutOfStock"), ("12.50", "InStock"), ("9.00", "SoldOut")))
    head = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": '
            f'"Product", "name": "Fjord Reading Lamp R2", "offers": [{offers}]}}</script>')
    out = extract_page_generic(page(head, "<p>ab € 9,00</p>", related=0),
                               "http://shop.test/product/7", LEX)
    assert out["kind"] == "detail"
    assert (out["fields"]["availability"], out["fields"]["price"]) == ("in_stock", 12.5)
    assert out["fields"]["currency"] == "EUR"


def test_a_subtitle_in_small_inside_the_heading_is_not_the_name() -> None:
    html = page("", PRICE + "<form action='/cart/add'><button type='submit'>Buy</button></form>",
                related=0).replace("<h1>Fjord Reading Lamp R2</h1>",
                                   "<h1><span>Fjord Reading Lamp R2</span> <small>(Renewed)"
                                   "</small></h1>")
    out = extract_page_generic(html, "http://shop.test/product/7", LEX)
    assert out["fields"]["name"] == "Fjord Reading Lamp R2"


def test_a_sold_out_product_without_a_price_is_still_a_product_page() -> None:
    for main in ("<div><p>&nbsp;</p></div><p>Out of stock</p><a href='#notify'>Notify me</a>",
                 "<div><p></p></div><form action='/cart/add' method='post'>"
                 "<button type='submit' disabled>Add to cart</button></form>"):
        about = "".join(f"<tr><th>Feature {i}</th><td>Value number {i}</td></tr>"
                        for i in range(12))
        main += ("<p>A reading lamp with a long arm and a warm light that does not tire "
                 f"the eyes.</p><table>{about}</table>")
        out = extract_page_generic(page("", main, related=4), "http://shop.test/product/7", LEX)
        assert out["kind"] == "detail", main
        assert (out["fields"]["availability"], out["fields"]["price"]) == ("out_of_stock", None)


def test_stock_only_in_a_class_and_a_stock_label_saying_no_state() -> None:
    main = (f"{PRICE}<p class='availability outofstock'><i class='icon-remove'></i></p>"
            "<p class='stock-note'>Ships from our Berlin store</p>")
    html = page("", main, related=0).replace(
        "</body>", "<ul><li class='tile availability instock'><a href='/p/1'>Other</a></li>"
        "</ul></body>")
    out = extract_page_generic(html, "http://shop.test/product/7", LEX)
    assert out["fields"]["availability"] == "out_of_stock"


def test_a_price_range_split_over_spans_is_priced_from_its_lower_end() -> None:
    main = ("<div><p><span>¥</span><span>276.99</span> – <span>¥</span><span>626.00</span>"
            "</p></div><p>现货</p>")
    out = extract_page_generic(page("", main, related=0), "http://shop.test/product/7", LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["price"] == 276.99
