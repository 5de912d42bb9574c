"""What ``extract-page`` prints: values as the crawl gives them (numbers for ratings and
counts, plain text where structured data carries markup), and a template the page is
not about (``--template book`` on a product page) said so, not answered with nulls."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from structurer.api import extract_page
from structurer.values import Base, ValueSpec, field_value

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ANVIL = FIXTURES / "real" / "extruct" / "product_microdata.html"   # schema.org microdata

PRODUCT_LD = """<html><head><title>Linen Shirt | Shop</title>
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product",
 "name": "Linen Shirt", "sku": "LS-1",
 "description": "<p>Soft <b>washed</b> linen.</p><p>Machine washable &amp; quick to dry.</p>",
 "offers": {"@type": "Offer", "price": "49.00", "priceCurrency": "EUR",
            "availability": "https://schema.org/InStock"},
 "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.5", "reviewCount": "1,204"}}
</script></head><body><h1>Linen Shirt</h1><p class="price">49,00 €</p></body></html>"""

PRODUCT_MICRODATA = """<html><head><title>Desk Lamp</title></head><body>
<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Desk Lamp</h1>
<meta itemprop="description" content="&lt;p&gt;A &lt;em&gt;warm&lt;/em&gt; light.&lt;/p&gt;">
<div itemprop="offers" itemscope itemtype="http://schema.org/Offer">
<span itemprop="price" content="35.00">$35.00</span><meta itemprop="priceCurrency" content="USD">
</div><div itemprop="aggregateRating" itemscope itemtype="http://schema.org/AggregateRating">
Rated <span itemprop="ratingValue">3.5</span>/5 from <span itemprop="reviewCount">12</span>
reviews</div></div></body></html>"""

# the layout of a real bookshop's pages (SWDE christianbook): labels in <b>, values after
BOOK = """<html><head><title>Know Your Bible - Christian Books</title></head><body>
<div class="nav"><a href="/">Home</a> <a href="/books">Books</a></div>
<h1>Know Your Bible: All 66 Books Explained and Applied</h1>
<p class="author">By: <a href="/authors/paul-kent">Paul Kent</a></p>
<p>A concise, easy-to-understand guide to God's Word.</p>
<table><tr><td><b>Format:</b> Paperback<br/><b>Number of Pages:</b> 96<br/>
<b>Vendor:</b> Value Books<br/><b>Publication Date:</b> 2008<br/></td>
<td><b>ISBN:</b> 1602600155<br/><b>ISBN-13:</b> 9781602600157<br/></td></tr></table>
</body></html>"""


def test_ratings_and_counts_are_numbers_as_the_crawl_reads_them() -> None:
    fields = extract_page(ANVIL.read_bytes(), "http://shop.example/anvil")["fields"]
    assert (fields["rating"], fields["review_count"]) == (4.4, 89)
    # the crawl's reading of the same text
    base = Base("http://shop.example/anvil")
    assert fields["rating"] == field_value("4.4", ValueSpec("rating"), base)
    assert fields["review_count"] == field_value("89", ValueSpec("integer"), base)
    ld = extract_page(PRODUCT_LD, "http://shop.example/shirt")["fields"]
    assert (ld["rating"], ld["review_count"], ld["price"], ld["currency"]) == (
        4.5, 1204, 49.0, "EUR")
    micro = extract_page(PRODUCT_MICRODATA, "http://shop.example/lamp")["fields"]
    assert (micro["rating"], micro["review_count"], micro["price"]) == (3.5, 12, 35.0)


def test_descriptions_come_without_markup() -> None:
    ld = extract_page(PRODUCT_LD, "http://shop.example/shirt")
    assert ld["sources"]["description"] == "jsonld"
    assert ld["fields"]["description"] == ("Soft washed linen. Machine washable & quick "
                                           "to dry.")
    micro = extract_page(PRODUCT_MICRODATA, "http://shop.example/lamp")
    assert micro["sources"]["description"] == "microdata"
    assert micro["fields"]["description"] == "A warm light."


def test_a_page_of_another_kind_says_so() -> None:
    out = extract_page(ANVIL.read_bytes(), "http://shop.example/anvil", template="book")
    assert (out["kind"], out["template"], out["fields"]) == ("other", "book", {})
    assert extract_page(PRODUCT_LD, "http://shop.example/shirt", template="book")["kind"] == \
        "other"


def test_a_book_page_with_the_book_template() -> None:
    out = extract_page(BOOK, "http://books.example/p/600150", template="book")
    assert out["kind"] == "detail"
    assert out["fields"] == {
        "title": "Know Your Bible: All 66 Books Explained and Applied",
        "author": "Paul Kent",
        "isbn": "9781602600157",          # the weightier label of the two (ISBN-13)
        "publisher": "Value Books",       # labelled "Vendor"
        "publication_date": "2008",
    }
    assert out["sources"]["isbn"] == "label" and out["sources"]["title"] == "h1"


@pytest.mark.parametrize(("template", "kind"), [("book", "other"), ("ecommerce", "detail")])
def test_command_line(template: str, kind: str) -> None:
    done = subprocess.run([sys.executable, "-m", "structurer", "extract-page", str(ANVIL),
                           "--template", template, "--base-url", "http://shop.example/anvil"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["kind"] == kind and out["url"] == "http://shop.example/anvil"
    if kind == "detail":
        assert out["fields"]["review_count"] == 89
