"""Shop "ledger": the price sits under an abbreviation the shipped lexicon lacks.

The fixture of the edit-the-lexicon loop. Every card and product page shows three
amounts in a row — an instalment ("or 4 × $31.25"), the price, and a delivery
charge — and the price's class is ``amt``, a word the shipped lexicon lacks.
Zero-shot analysis finds the price only by setting the instalment and the delivery
aside (the template's ``signals.not_price``); adding ``amt`` with a weight to a copy
of the lexicon makes the price's own class the evidence. No JSON-LD, so structured
data cannot give the answer away.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

from structurer.demo.base import esc
from structurer.demo.catalog import CatalogSpec, Product, Vocabulary
from structurer.demo.shops.outfitters import Outfitters

VOCAB = Vocabulary(
    tree={
        "Desks": {
            "Standing Desks": ["Sit-Stand Desk", "Desk Frame", "Desk Converter"],
            "Writing Desks": ["Writing Desk", "Secretary Desk"],
        },
        "Seating": {
            "Office Chairs": ["Task Chair", "Mesh Chair", "Executive Chair"],
            "Stools": ["Drafting Stool", "Saddle Stool"],
        },
    },
    adjectives=["Oak", "Walnut", "Graphite", "Linen", "Ash", "Birch"],
    brands=["Ledgerline", "Quire", "Folio", "Margin"],
    materials=["solid oak", "powder-coated steel", "recycled mesh", "walnut veneer"],
    sentences=[
        "The {name} is made to order in our workshop.",
        "Built from {material} with a ten-year frame warranty.",
        "{brand} designs every {noun} for long working days.",
        "Flat-packed with tools included; assembly takes twenty minutes.",
    ],
)


class Ledger(Outfitters):
    name = "ledger"
    title = "Ledger Office Supply"
    hard = ("Three amounts per product (instalment, price, delivery) told apart only by the "
            "price's class 'amt', an abbreviation the shipped lexicon lacks.")
    jsonld = False
    vocabulary = VOCAB
    spec = CatalogSpec(seed=707, currency="USD", price_range=(40, 1600), sku_prefix="LG",
                       discount_rate=0.2, per_leaf=(16, 24))
    # what a person adds to a copy of templates/ecommerce.yaml for this shop
    extra_words: ClassVar[dict[str, dict[str, float]]] = {"price": {"amt": 14}}
    feature_top = None

    def _amounts(self, p: Product) -> str:
        instalment = (p.price / 4).quantize(Decimal("0.01"))
        delivery = ("Free delivery" if p.price >= 500 else
                    f"+ {self.format_money(Decimal('9.95') + p.price % 7)} delivery")
        was = (f"<del class=\"was\">{esc(self.format_money(p.original_price))}</del>"
               if p.original_price else "")
        return (f"<div class=\"tile-money\"><span class=\"bnpl\">or 4 × "
                f"{esc(self.format_money(instalment))}</span>"
                f"<span class=\"amt\">{esc(self.price_text(p))}</span>{was}"
                f"<span class=\"shp\">{esc(delivery)}</span></div>")

    def _card(self, p: Product) -> str:
        url = esc(self.product_url(p))
        return (f"<li class=\"tile\"><a class=\"tile-link\" href=\"{url}\">"
                f"<img class=\"tile-img\" src=\"{esc(self.card_image(p))}\" alt=\"\"></a>"
                f"<h2 class=\"tile-title\"><a href=\"{url}\">{esc(p.name)}</a></h2>"
                f"{self._amounts(p)}</li>")

    def _jsonld(self, p: Product) -> str:
        return ""

    def render_detail(self, p: Product) -> str:
        page = super().render_detail(p)
        start = page.index("<div class=\"product-price\">")
        end = page.index("</div>", start) + len("</div>")
        return page[:start] + self._amounts(p) + page[end:]
