"""Rule-free product fields read the page's own product only, with the same scoping,
label pairs and buy-control reading as detail learning."""

from __future__ import annotations

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()

CARDS = "".join(
    f"<li><a href='/p/{i}'><img src='/t/{i}.jpg' alt=''></a><h3><a href='/p/{i}'>Other thing "
    f"number {i}</a></h3><span class='price'>${i}.99</span><p>Sold out</p></li>"
    for i in range(20, 24))


DETAILS = ("<div class='about'><p>A light stove for long trips, with a stable base and a "
           "simmer control that works in the wind.</p><table>" + "".join(
               f"<tr><th>Feature {i}</th><td>Value number {i}</td></tr>" for i in range(12))
           + "</table></div>")


def product(button: str, spec: str) -> str:
    return (f"<html><head><title>Camp Stove C3 | Shop</title></head><body><main>"
            f"<div class='product'><h1>Camp Stove C3</h1><img src='/img/stove.jpg' alt=''>"
            f"<div class='box'><span class='price'>$35.25</span></div>{spec}{DETAILS}"
            f"<form action='/cart/add' method='post'>{button}</form></div>"
            f"<section><h2>More to look at</h2><ul class='grid'>{CARDS}</ul></section>"
            f"</main></body></html>")


def test_the_own_buy_button_tells_availability_whatever_other_products_say() -> None:
    html = product("<button type='submit'>Add to cart</button>", "")
    fields = extract_page_generic(html, "http://shop.test/p/3", LEX)["fields"]
    assert fields["availability"] == "in_stock"
    assert fields["price"] == 35.25


def test_an_identifier_beside_its_label_without_the_label() -> None:
    html = product("<button type='submit'>Add to cart</button>",
                   "<ul><li><strong>EAN</strong>: 4006381333931</li>"
                   "<li><strong>Weight</strong>: 2 kg</li></ul>")
    fields = extract_page_generic(html, "http://shop.test/p/3", LEX)["fields"]
    assert fields["sku"] == "4006381333931"


def test_a_meta_title_naming_only_the_site_is_no_product_name() -> None:
    """A site-wide ``<meta name="Title">`` of the shop's name and host says nothing about
    the page: the name comes from the page's own <title> (no heading states it)."""
    html = ("<html><head><meta name='Title' content='retrosixty - retrosixty.co.uk'>"
            "<title>retrosixty - Perriand Infraphil lamp, c1960s for Philips</title></head>"
            "<body><div class='item'><img src='/img/lamp.jpg' alt=''><p>A fine lamp in "
            "working order, lightly worn.</p><p>Price: £450.00</p></div></body></html>")
    fields = extract_page_generic(html, "http://www.retrosixty.co.uk/item/12", LEX)["fields"]
    assert fields["name"] == "Perriand Infraphil lamp, c1960s for Philips"
