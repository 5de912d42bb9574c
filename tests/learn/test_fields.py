"""Field location details: labels, money disambiguation, specific values over containers."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from structurer.learn import xpaths
from structurer.learn.choose import common_prefix_post
from structurer.learn.detail import learn_detail
from structurer.learn.fields import valid
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.replay.records import value_spec
from structurer.rules.model import FieldRule
from structurer.values import Base, field_value

LEX = load_lexicon()

PRODUCTS = [("Trail Shoe A1", "SK-1001", "Acme", "$59.00", "$80.00"),
            ("Rain Jacket B2", "SK-1002", "Borealis", "$120.50", None),
            ("Camp Stove C3", "SK-1003", "Cinder", "$35.25", "$49.99"),
            ("Head Lamp D4", "SK-1004", "Acme", "$19.95", None)]


def extract_record(rule: FieldRule, page: PageView) -> object:
    """What the crawl reads with ``rule`` on ``page``."""
    return field_value(xpaths.evaluate(rule.xpath or "", page.tree), value_spec(rule),
                       Base(page.url))


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


def test_a_brand_every_sampled_name_starts_with_stays_in_the_name() -> None:
    """Sampled products all of one brand ("Kestrel Trail Shoe A1", ...; the sold-out ones
    of a shop may be few): the page titles hold the whole name, so the brand is part of
    it, no label to cut."""
    same_brand = [(f"Kestrel {n}", s, "Kestrel", p, o) for n, s, _, p, o in PRODUCTS]
    rule = learn_detail([detail_page(*p) for p in same_brand], LEX).fields["name"]
    assert rule.post == []
    other = detail_page("Kestrel Bivvy Bag E5", "SK-1005", "Kestrel", "$89.00", None)
    assert extract_record(rule, other) == "Kestrel Bivvy Bag E5"
    titled = [[f"{v} | Shop"] for v in ("Kestrel A", "Kestrel B", "Kestrel C")]
    assert common_prefix_post(["Kestrel A", "Kestrel B", "Kestrel C"], titled) == []
    assert common_prefix_post(["by Acme", "by Borealis", "by Cinder"],
                              [["Acme"], ["Borealis"], [None]]) == [r"regex:^by[\s:：]*(.+)$"]
    # the other sources hold what follows "New:": only that start is a label
    alts = [["Kestrel Drill A1"], ["Kestrel Saw B2"], ["Kestrel Cap C3"]]
    assert common_prefix_post([f"New: {a[0]}" for a in alts], alts) == [
        r"regex:^New:[\s:：]*(.+)$"]
    assert common_prefix_post([f"New: {a[0]}" for a in alts]) == [
        r"regex:^New:\ Kestrel[\s:：]*(.+)$"]


def test_cents_in_sup_stay_part_of_the_price() -> None:
    """``€ 50<span>,</span><sup>95</sup>``: the element's own first text ("€ 50") is not a
    more specific value than its whole text ("€ 50,95"), it cuts the amount short."""
    prices = [("50", "95"), ("352", "50"), ("412", "00"), ("34", "99")]

    def page(i: int, whole: str, cents: str) -> PageView:
        html = (f"<html><head><title>Lamp {i} | Shop</title></head><body><div class='product'>"
                f"<h1>Lamp {i}</h1><div class='box'><p class='price'>€ {whole}"
                f"<span class='sr-only'>,</span><sup>{cents}</sup></p></div>"
                f"<p class='note'>Ships in {i + 2} days</p></div></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    learned = learn_detail([page(i, *p) for i, p in enumerate(prices)], LEX)
    assert learned.fields["price"].samples[:2] == ["€ 50,95", "€ 352,50"]
    assert "text()" not in (learned.fields["price"].xpath or "")


def _rated_page(i: int, rating: str | None, reviews: int, *, shared: bool = False,
                counted: str = " class='e5'") -> PageView:
    """A product page whose rating is only a text on a scale ("3,5 / 5"), with no class or
    label naming it, in a block of its own, and the review count (its attributes
    ``counted``) in the element after that block; ``shared``: the count in the rating's
    block, right after it (a path to the rating's span then reads the count on a product
    nobody rated); ``rating`` None: such a product."""
    stars = f"<span>{rating} / 5</span> " if rating else ""
    count = f"<span{counted}>{reviews} отзывов</span>"
    block = (f"<div class='c3 d4'>{stars}{count}</div>" if shared else
             f"<div class='c3 d4'>{stars}</div> {count}")
    html = (f"<html><head><title>Kettle {i} | Shop</title></head><body><div class='a1'>"
            f"<h1 class='b2'>Kettle {i}</h1>{block}"
            f"<p class='price'>{100 + i},00 ₽</p></div></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


RATINGS = [("3,5", 469), ("4,1", 12), ("2,8", 7), ("4,9", 1200)]


def test_rating_read_from_a_text_on_a_five_point_scale() -> None:
    learned = learn_detail([_rated_page(i, *r) for i, r in enumerate(RATINGS)], LEX)
    rule = learned.fields["rating"]
    assert rule.samples[:2] == ["3,5 / 5", "4,1 / 5"]
    assert "a rating on a scale of 5" in " ".join(rule.evidence)
    assert extract_record(rule, _rated_page(9, None, 3)) is None


def test_a_bare_rating_beside_a_bare_count_is_read_by_its_scale() -> None:
    """Every sampled product is rated, and every plain path to the class-less rating also
    reaches the class-less review count beside it: on a product nobody rated ("3
    отзывов" alone) it would read 3.0. Learning takes each sample's rating out and sees
    those paths read the count; the path guarded by the mark every rating shows (its
    scale's "/") reads the rating, and nothing on a product nobody rated."""
    sampled = [_rated_page(i, *r, shared=True, counted="") for i, r in enumerate(RATINGS)]
    fields = learn_detail(sampled, LEX).fields
    rules = {k: fields[k] for k in ("rating", "review_count")}
    rated = _rated_page(8, "3,7", 5, shared=True, counted="")
    assert [extract_record(rule, rated) for rule in rules.values()] == [3.7, 5]
    unrated = _rated_page(9, None, 3, shared=True, counted="")
    assert extract_record(rules["rating"], unrated) is None


def test_a_bare_rating_beside_a_classed_count_is_read_by_its_bareness() -> None:
    """The same, the count with a class of its own: the path kept to the span without a
    class reads the rating, and nothing on a product nobody rated."""
    sampled = [_rated_page(i, *r, shared=True) for i, r in enumerate(RATINGS)]
    rule = learn_detail(sampled, LEX).fields["rating"]
    assert extract_record(rule, _rated_page(8, "3,7", 5, shared=True)) == 3.7
    assert extract_record(rule, _rated_page(9, None, 3, shared=True)) is None


def _seller_rated_page(i: int, rating: str | None) -> PageView:
    """The product's rating only in an aria-label, with the seller's rating (the same on
    every page) right after it, no class naming either; ``rating`` None: a product
    nobody rated."""
    own = f"<span aria-label='Rated {rating} out of 5'>★★★★</span>" if rating else ""
    html = (f"<html><head><title>Kettle {i} | Shop</title></head><body><div class='a1'>"
            f"<h1 class='b2'>Kettle {i}</h1><div class='c3 d4'>{own}"
            f"<span aria-label='Seller rated 4.2 out of 5'>★★★★</span></div>"
            f"<p class='price'>{100 + i},00 ₽</p></div></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_markup_rating_path_reaching_the_sellers_rating_is_not_learned() -> None:
    """Every sample is rated; the only path to the product's rating by markup (the first
    span) reads the seller's rating on a product nobody rated (4.2): no rule, not that."""
    sampled = [_seller_rated_page(i, r) for i, r in enumerate(["4.5", "3.9", "4.8", "2.7"])]
    rule = learn_detail(sampled, LEX).fields.get("rating")
    assert rule is None or extract_record(rule, _seller_rated_page(9, None)) is None


def test_review_count_beside_the_rating() -> None:
    """No word names the count ("469 отзывов" in a class-less span): the integer right
    after the learned rating is the review count."""
    learned = learn_detail([_rated_page(i, *r) for i, r in enumerate(RATINGS)], LEX)
    rule = learned.fields["review_count"]
    assert rule.samples[:2] == ["469 отзывов", "12 отзывов"]
    assert rule.kind == "integer"


def test_an_old_price_class_does_not_make_the_price() -> None:
    """No class on the price, "old-price" on the old one (sale products only), amounts
    written "1.161,95 €": the old price is never the price, even where its class holds
    the word "price"."""
    rows = [("761,00 €", "1.161,95 €"), ("109,50 €", None), ("7,25 €", "9,62 €"),
            ("1.024,99 €", None), ("238,50 €", "301,00 €")]

    def page(i: int, price: str, old: str | None) -> PageView:
        was = f"<span class='old-price'>{old}</span>" if old else ""
        html = (f"<html><head><title>Book {i} | Shop</title></head><body><main><div>"
                f"<h1>Book {i}</h1><div><span>{price}</span>{was}</div>"
                f"<p>Ships in {i + 2} days</p></div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    fields = learn_detail([page(i, *r) for i, r in enumerate(rows)], LEX).fields
    assert fields["price"].samples[:3] == ["761,00 €", "109,50 €", "7,25 €"]
    assert "old-price" in (fields["original_price"].xpath or "")


def test_brand_from_a_link_to_its_brand_page() -> None:
    """The brand is only a link to the brand's page (``/brands/penrose``), as text or as a
    logo whose alt names it: the link's address names the field."""
    brands = ["Penrose", "Quill & Co", "Penrose", "Ashgrove"]

    def page(i: int, brand: str, logo: bool) -> PageView:
        slug = brand.lower().replace(" & ", "-")
        inner = f"<img src='/img/{slug}.png' alt='{brand}'>" if logo else brand
        html = (f"<html><head><title>{brand} Book {i} | Shop</title></head><body><main>"
                f"<div><a href='/brands/{slug}'>{inner}</a><h1 class='title'>{brand} Book {i}</h1>"
                f"<p class='price'>£{i + 3}.50</p></div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    for logo in (False, True):
        rule = learn_detail([page(i, b, logo) for i, b in enumerate(brands)], LEX).fields["brand"]
        assert rule.samples[:2] == ["Penrose", "Quill & Co"]
        assert "brand's own page" in " ".join(rule.evidence)


def test_a_bare_description_under_the_title_block() -> None:
    """No heading, class or label: a paragraph and a bullet list right under the title
    block are the description, read whole (paragraph and bullets joined)."""
    def page(i: int) -> PageView:
        stock = ("<p>In stock (28 left)</p><form action='/cart'><button>Add</button></form>"
                 if i % 2 else "<p>Sold out</p><a href='#notify'>Notify me</a>")
        html = (f"<html><head><title>Lamp {i} | Shop</title></head><body><main><div>"
                f"<div><img src='/img/{i}.jpg' alt=''></div><div><h1>Lamp {i}</h1>"
                f"<p class='price'>${i + 10}.50</p>{stock}"
                f"<p>The Lamp {i} is made for everyday use.</p><ul><li>Built from brass "
                f"number {i}, it is light and durable.</li><li>Backed by a {i + 2}-year "
                f"warranty.</li></ul></div></div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    pages = [page(i) for i in range(5)]
    rule = learn_detail(pages, LEX).fields["description"]
    assert "join" in rule.post
    records = [extract_record(rule, p) for p in pages[:2]]
    assert records == ["The Lamp 0 is made for everyday use. Built from brass number 0, it is "
                       "light and durable. Backed by a 2-year warranty.",
                       "The Lamp 1 is made for everyday use. Built from brass number 1, it is "
                       "light and durable. Backed by a 3-year warranty."]
    assert rule.samples[:2] == records   # the rule file shows what the records hold


def test_an_old_price_reads_nothing_where_its_xpath_reaches_a_count() -> None:
    """The old price shares its class with the review count ("165条评价"): the rule keeps
    only texts showing an amount with its currency, so a product not on sale has none."""
    def page(i: int, old: bool) -> PageView:
        was = f"<span class='muted'>¥{i + 40}.50</span>" if old else ""
        html = (f"<html><head><title>Cream {i} | Shop</title></head><body><main><div>"
                f"<h1>Cream {i}</h1><div class='offer'><span class='price'>¥{i + 10}.00</span>"
                f"<del>{was}</del></div><div class='muted'>{i * 7 + 3}条评价</div>"
                f"</div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    rule = learn_detail([page(i, i % 2 == 0) for i in range(5)], LEX).fields["original_price"]
    assert rule.post == ["money"]
    loose = rule.model_copy(update={"xpath": "//*[contains(@class, 'muted')]"})
    assert extract_record(loose, page(1, False)) is None     # "10条评价" is no old price
    assert extract_record(loose, page(2, True)).amount == 42.5  # type: ignore[union-attr]


@pytest.mark.parametrize("label", ["Marca", "Marke", "Märke", "Бренд"])
def test_brand_labels_of_many_languages(label: str) -> None:
    rows = [("Lamp 1", "Köstlich"), ("Kettle 2", "Cuisson"), ("Pan 3", "Muskoka"),
            ("Pot 4", "Cuisson")]

    def page(i: int, name: str, brand: str) -> PageView:
        html = (f"<html><head><title>{name} | Shop</title></head><body><main><div>"
                f"<h1>{name}</h1><p class='price'>€{i + 5},00</p><table><tr><th>SKU</th>"
                f"<td>A-{i}</td></tr><tr><th>{label}</th><td>{brand}</td></tr></table>"
                f"</div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    rule = learn_detail([page(i, *r) for i, r in enumerate(rows)], LEX).fields["brand"]
    assert rule.samples[:3] == ["Köstlich", "Cuisson", "Muskoka"]


def test_a_description_paragraph_takes_the_list_right_after_it() -> None:
    """``<p itemprop="description">`` followed by a bullet list, no heading between: the
    description is both, joined."""
    first = ["Made for everyday use.", "Every lamp is tested.", "Light and durable.",
             "Designed with care."]

    def page(i: int) -> PageView:
        html = (f"<html><head><title>Lamp {i} | Shop</title></head><body><main><div>"
                f"<h1>Lamp {i}</h1><p class='price'>${i + 10}.50</p>"
                f"<p itemprop='description'>{first[i]}</p><ul>"
                f"<li>Built from brass number {i}.</li><li>Backed by a warranty.</li></ul>"
                f"</div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    pages = [page(i) for i in range(4)]
    rule = learn_detail(pages, LEX).fields["description"]
    assert extract_record(rule, pages[1]) == (
        "Every lamp is tested. Built from brass number 1. Backed by a warranty.")
    assert rule.samples[:2] == [extract_record(rule, p) for p in pages[:2]]


@pytest.mark.parametrize(("text", "ok"), [
    ("Verfügbar", True), ("Nicht verfügbar", True),
    ("Verfügbarkeit", False), ("Verfügbarkeit:", False),   # the field's label, not a value
    ("Disponibilité", False), ("Disponible", True),
])
def test_a_fields_own_label_is_no_value_of_it(text: str, ok: bool) -> None:
    el = lxml_html.fromstring(f"<td>{text}</td>")
    assert valid("availability", text, el, LEX.fields["availability"]) is ok


@pytest.mark.parametrize(("html", "ok"), [
    ("<table><thead><tr><th>Artikel</th><th>Verfügbarkeit</th></tr></thead></table>", False),
    ("<table><tr><th>Lager</th><td>Verfügbar</td></tr></table>", True),
])
def test_a_tables_header_row_is_no_value(html: str, ok: bool) -> None:
    """A variants table's header names its columns: its text holds a stock word."""
    tree = lxml_html.fromstring(html)
    el = tree.find(".//thead") if ok is False else tree.find(".//td")
    assert el is not None
    assert valid("availability", el.text_content(), el, LEX.fields["availability"]) is ok


@pytest.mark.parametrize(("text", "ok"), [
    ("EUR", True), ("€", True), ("CHF", True), ("Couleur", False), ("Colour: red", False),
    ("$9.54", False), ("EUR 12,00", False),                       # prices, not currencies
    ("Prices in EUR, all taxes included, delivery extra", False),   # a sentence, not a value
])
def test_a_currency_value_names_a_currency(text: str, ok: bool) -> None:
    el = lxml_html.fromstring(f"<td>{text}</td>")
    assert LEX.fields["currency"].kind == "currency"
    assert valid("currency", text, el, LEX.fields["currency"]) is ok
