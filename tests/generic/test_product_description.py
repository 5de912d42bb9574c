"""A product page's description where the page names it: the paragraphs under a heading
of the description field ("Product Overview") up to the next heading like it, or the text
after its label ("Description:"), not the page's densest block (a testimonial in a side
column, a delivery notice)."""

from __future__ import annotations

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()
URL = "http://shop.test/p/lamp-7.html"
SIDE = ("<td class='side'><p class='sideTitle'>Testimonials</p><p>My husband and I just "
        "spent our first night on our new mattress, and we are thrilled at the terrific "
        "night's rest we both had, better than any hotel we have stayed in.</p></td>")
FIRST = "The Deluxe Mattress combines pressure relief with a soft-touch cover."
SECOND = "It not only looks luxurious, but also offers enhanced comfort."
OVERVIEW = f"{FIRST} {SECOND}"


def page(main: str) -> str:
    return ("<html><head><title>Deluxe Mattress | Sleepwell</title></head><body><table><tr>"
            f"{SIDE}<td class='main'><h1>Deluxe Mattress</h1><p><b>Price:</b> £1,049.00</p>"
            f"<form action='/cart'><button>Add to basket</button></form>{main}</td></tr>"
            "</table></body></html>")


def test_the_paragraphs_under_a_description_heading() -> None:
    main = (f"<p class='sub'>Product Overview</p><p class='body'>{FIRST}</p>"
            f"<p class='body'>{SECOND}</p><p class='sub'>Product Specification</p>"
            "<ul><li>Height 22 cm</li><li>Cover washable at 40 degrees</li></ul>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["description"] == OVERVIEW
    assert out["sources"]["description"] == "label"


def test_the_text_after_a_description_label() -> None:
    main = (f"<p><font><b>Description: </b></font><span>{OVERVIEW}</span></p>"
            "<p><b>Shipping:</b> £7 to mainland UK. Please enquire for other locations.</p>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["description"] == OVERVIEW


def test_a_description_tab_of_links_is_no_description() -> None:
    # a heading "Description" over links (a tab bar) says nothing: density decides
    main = ("<div class='tabs'><h3>Description</h3><ul><li><a href='#d'>Read the full "
            "description</a></li><li><a href='#r'>Reviews and questions (3)</a></li></ul>"
            f"</div><div class='pane'><p>{OVERVIEW}</p></div>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["description"] == OVERVIEW
    assert out["sources"]["description"] == "density"


def test_the_prose_under_the_title_block_without_a_heading() -> None:
    # no heading nor label: the paragraph and its list right under the buy form, joined
    # as replay joins them, not a cookie notice nor the densest single line
    html = ("<html><head><title>Secret Picture Book | Penrose</title></head><body>"
            "<div class='cookie'><p>We use cookies to improve your experience and to show "
            "you offers. Read our privacy policy to learn more.</p></div><main><div>"
            "<h1>Secret Picture Book C826</h1><p class='price'>£12.99</p><p>In stock</p>"
            "<form action='/cart/add'><button>Add to cart</button></form>"
            f"<p>{FIRST}</p><ul><li>{SECOND}</li><li>Printed on recycled paper.</li></ul>"
            "</div><section><h2>Specifications</h2><table><tr><th>MPN</th><td>RL99</td></tr>"
            "</table></section></main></body></html>")
    out = extract_page_generic(html, URL, LEX)
    assert out["fields"]["description"] == f"{OVERVIEW} Printed on recycled paper."
    assert out["sources"]["description"] == "under-title"


def test_a_table_under_a_details_heading_is_no_description() -> None:
    # "Product details" over a grid of specifications: the prose under the title block
    main = (f"<p>{OVERVIEW}</p><h2>Product details</h2><table><tr><th>Height</th>"
            "<td>22 cm</td></tr><tr><th>Cover</th><td>washable at 40 degrees</td></tr></table>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["description"] == OVERVIEW


def test_a_labelled_description_runs_on_in_the_paragraphs_after_it() -> None:
    """retrosixty (scrapely samples): "Description:" begins a paragraph and the text goes
    on in the next paragraph, up to the one with a label of its own."""
    main = (f"<p><font><b>Description: </b></font><span>{FIRST}</span></p>"
            f"<p class=''><span>{SECOND}</span></p>"
            "<p><font><b>Size:</b></font> 40 x 20 cm, weighing about nine kilograms</p>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["description"] == OVERVIEW
    assert out["sources"]["description"] == "label"


def test_a_description_heading_keeps_its_subheadings() -> None:
    """Under an h2 "Product Description" an h3 is part of it; the next h2 ends it."""
    main = (f"<h2>Product Description</h2><p>{FIRST}</p><h3>Comfort</h3><p>{SECOND}</p>"
            "<h2>Delivery</h2><p>We deliver within five working days to most addresses in "
            "the mainland, free of charge.</p>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["description"] == f"{FIRST} Comfort {SECOND}"


LAMP = "A sturdy lamp with a brass stem, a linen shade and a dimmer built into its base."
PRAISE = ("Our bestselling reading light, loved by thousands of customers for its warm glow, "
          "its adjustable arm, its long cable and a switch that is easy to find in the dark.")
FOOTER = ("Lights Ltd has sold lamps, shades and bulbs from its shop in the old town since "
          "1952, and every lamp we sell is tested by hand in our workshop before it ships.")


def _lamp_page(own: str) -> str:
    cards = "".join(f"<li><a href='/p/{i}.html'><img src='/i/{i}.jpg' alt=''>Lamp {i}</a>"
                    f"<b>£{i}9.00</b><p>{PRAISE}</p></li>" for i in range(2, 6))
    return ("<html><head><title>Brass Lamp | Lights</title></head><body><header><a href='/'>"
            "Lights</a></header><main><div class='product'><div class='top'><h1>Brass Lamp"
            "</h1><p class='price'>£49.00</p><form action='/cart'><button>Add to basket"
            f"</button></form></div><div class='tabs'><div class='pane'>{own}</div></div>"
            f"<section class='more'><h2>Customers also bought</h2><ul>{cards}</ul></section>"
            f"</div></main><div class='bottom'><p>{FOOTER}</p></div></body></html>")


def test_density_reads_the_products_block_not_related_products_or_the_footer() -> None:
    """No label, no prose under the title: text density reads the main product's region
    and the blocks beside it holding no other product's card (a tab beside the buy box);
    the related products' texts and the footer's are none of the product's, and without
    a text of its own the product has no description (not its buy box either)."""
    out = extract_page_generic(_lamp_page(f"<span>{LAMP}</span>"), URL, LEX)
    assert (out["fields"]["description"], out["sources"]["description"]) == (LAMP, "density")
    out = extract_page_generic(_lamp_page(""), URL, LEX)
    assert out["fields"]["description"] is None
    assert out["fields"]["price"] == 49.0
