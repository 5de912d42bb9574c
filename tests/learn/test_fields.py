"""Field location details: labels, money disambiguation, specific values over containers."""

from __future__ import annotations

from structurer.learn.detail import learn_detail
from structurer.learn.fields import common_prefix_post
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView

LEX = load_lexicon()

PRODUCTS = [("Trail Shoe A1", "SK-1001", "Acme", "$59.00", "$80.00"),
            ("Rain Jacket B2", "SK-1002", "Borealis", "$120.50", None),
            ("Camp Stove C3", "SK-1003", "Cinder", "$35.25", "$49.99"),
            ("Head Lamp D4", "SK-1004", "Acme", "$19.95", None)]


def detail_page(name: str, sku: str, brand: str, price: str, old: str | None) -> PageView:
    old_html = f"<del>{old}</del>" if old else ""
    html = (f"<html><head><title>{name} | Shop</title></head><body>"
            f"<nav><a href='/'>Home</a> / <a href='/c/gear'>Gear</a></nav>"
            f"<div class='product'><h1>{name}</h1>"
            f"<div class='buy'>{old_html}<strong>{price}</strong></div>"
            f"<table class='spec'><tr><th>Brand</th><td>{brand}</td></tr>"
            f"<tr><th>Item number</th><td>{sku}</td></tr></table>"
            f"<p><b>Shipping:</b> 2-3 days</p></div>"
            f"<ul class='related'>" + "".join(
                f"<li><a href='/p/{i}'>Other product {i}</a> <span>$9.{i}0</span></li>"
                for i in range(5)) + "</ul></body></html>")
    return PageView.from_html(f"http://shop.test/p/{sku}", html, LEX)


def test_detail_fields_from_labels_title_and_money() -> None:
    pages = [detail_page(*p) for p in PRODUCTS]
    learned = learn_detail(pages, LEX)
    fields = learned.fields
    assert "h1" in (fields["name"].xpath or "")
    assert fields["sku"].samples[:2] == ["SK-1001", "SK-1002"]
    assert "Item number" in (fields["sku"].xpath or "")      # anchored on its label
    assert fields["brand"].samples[0] == "Acme"
    assert fields["price"].samples[:2] == ["$59.00", "$120.50"]   # not the struck-through one
    assert "del" in (fields["original_price"].xpath or "")


def test_common_prefix_becomes_a_post_step() -> None:
    assert common_prefix_post(["by Acme", "by Borealis", "by Cinder"]) == [
        r"regex:^by[\s:：]*(.+)$"]
    assert common_prefix_post(["Acme", "Borealis", "Cinder"]) == []
    assert common_prefix_post(["Kestrel A", "Kestrel B"]) == []   # too few to tell
