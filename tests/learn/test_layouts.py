"""learn.layouts: a sold-out product's page is told by its own stock, not another's."""

from __future__ import annotations

from structurer.learn.layouts import sold_out
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.rules.model import FieldRule

LEX = load_lexicon("ecommerce")


def _page(state: str) -> PageView:
    """A product page whose "recently viewed" column of other products, before the
    product in the page's order, says "In stock" on each card; the product itself shows
    ``state`` and no buy button."""
    cards = "".join(f"<li class='card'><a href='/p/{i}'><img src='/i/{i}.jpg'>Lamp {i}</a>"
                    f"<span>$1{i}.00</span><span>In stock</span></li>" for i in range(3))
    html = ("<html><head><title>Desk Fan | Shop</title></head><body>"
            f"<div class='col'><h2>Recently viewed</h2><ul>{cards}</ul></div>"
            "<main><div class='product'><h1>Desk Fan</h1>"
            f"<p class='note'>{state}</p></div></main></body></html>")
    return PageView.from_html("http://shop.test/p/9", html, LEX)


def test_a_sold_out_page_is_read_from_its_own_product_not_the_cards_before_it() -> None:
    """Without an availability rule, a page that offers no buy control is sold out where
    its own product's stock phrase says so; the cards of other products before it
    ("In stock") say nothing of it."""
    title = {"name": FieldRule(xpath="//h1", kind="text", confidence=1.0)}
    assert sold_out(_page("Out of stock"), title, {})
    assert sold_out(_page("Out of stock"), {}, {})   # the one h1 names the product
    assert not sold_out(_page("Ships in 3 days"), title, {})
