"""The lexicon's ``vocabulary``: the word tables of reading values and pages are data.

Each case edits one key of a copy of the shipped lexicon and shows the behaviour it
drives change (a currency, a stock phrase, a home label, a product count, a placeholder
picture, an add-to-cart button recognised), that a rule file carries the keys a lexicon
changed to the crawl, and that bad entries are one clear line naming file and key.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import html as lxml_html

from structurer import yamlio
from structurer.crawler.products import build_product, category_name
from structurer.generic.extract import extract_page_generic
from structurer.kinds import (
    compile_words,
    currency_code,
    parse_availability,
    parse_breadcrumb,
    parse_money,
    rule_phrases,
)
from structurer.learn.listing import learn_list
from structurer.lexicon import (
    TEMPLATES_DIR,
    Lexicon,
    Vocabulary,
    load_lexicon,
    shipped_vocabulary,
    top_section,
)
from structurer.page.dates import find_dates, parse_datetime
from structurer.page.productkind import can_buy
from structurer.page.view import PageView
from structurer.replay.extract import compile_rules, extract_detail
from structurer.rules.io import dump_rules, rules_from_text
from structurer.rules.model import RecordSpec
from structurer.validate import validate_file
from structurer.values import image_source, rating_source, struck
from structurer.words import Words
from tests.conftest import rule_text


def _edited(tmp_path: Path, key: str, entry: str) -> Lexicon:
    """The shipped ecommerce lexicon with one vocabulary key's list extended by ``entry``
    (a YAML flow item, written as a person editing the file would)."""
    text = (Path(__file__).resolve().parent.parent / "templates" / "ecommerce.yaml").read_text(
        encoding="utf-8")
    top, section, below = text.partition("\nvocabulary:")
    head, sep, rest = below.partition(f"\n  {key}: ")
    assert section and sep, key
    head = top + section + head
    opener = rest[0]
    rest = rest[0] + f"{entry}, " + rest[1:] if opener in "[{" else rest
    path = tmp_path / "edited.yaml"
    path.write_text(head + sep + rest, encoding="utf-8")
    return load_lexicon(path)


def test_the_shipped_lexicon_sets_every_key_and_others_inherit_it() -> None:
    shipped = load_lexicon("ecommerce").vocabulary
    assert all(value is not None for value in shipped.model_dump().values())
    news = load_lexicon("news")
    assert news.vocabulary == Vocabulary() and news.words() == shipped
    assert Vocabulary(home_labels=["inicio"]).over(shipped).currency_codes == \
        shipped.currency_codes


def test_a_new_currency_symbol_is_recognised(tmp_path: Path) -> None:
    # "kr" is Swedish, Danish or Norwegian: the shipped table leaves it open, a Swedish
    # shop's lexicon can say
    edited = compile_words(_edited(tmp_path, "currency_symbols", "kr: SEK").vocabulary)
    assert parse_money("199 kr") == (199.0, "199 kr", None)
    assert parse_money("199 kr", words=edited) == (199.0, "199 kr", "SEK")
    assert currency_code("199", "kr", edited) == "SEK" and currency_code("199", "kr") is None


def test_a_new_currency_code_is_recognised(tmp_path: Path) -> None:
    edited = compile_words(_edited(tmp_path, "currency_codes", "GHS").vocabulary)
    assert currency_code("GHS 40") is None
    assert currency_code("GHS 40", words=edited) == "GHS"


def test_a_new_sign_names_its_currency_anywhere(tmp_path: Path) -> None:
    lexicon = _edited(tmp_path, "currency_symbols", "₦: NGN")
    assert currency_code("Total ₦5 000") is None
    edited = lexicon.vocabulary.model_copy(
        update={"currency_signs": [*(lexicon.vocabulary.currency_signs or []), "₦"]})
    assert currency_code("Total ₦5 000", words=compile_words(edited)) == "NGN"


def test_a_new_stock_phrase_is_recognised(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parent.parent / "templates" / "ecommerce.yaml").read_text(
        encoding="utf-8")
    assert "    in_stock: [in stock, available," in text
    text = text.replace("    in_stock: [in stock, available,",
                        "    in_stock: [ready for pickup, in stock, available,", 1)
    (tmp_path / "stock.yaml").write_text(text, encoding="utf-8")
    lexicon = load_lexicon(tmp_path / "stock.yaml")
    edited = compile_words(lexicon.vocabulary)
    assert parse_availability("Ready for pickup") == "unknown"
    # the one table of stock phrases: the availability field (no values of its own) reads it
    assert "ready for pickup" in lexicon.fields["availability"].values["in_stock"]
    assert "ready for pickup" not in load_lexicon().fields["availability"].values["in_stock"]
    assert parse_availability("Ready for pickup", rule_phrases({}, edited)) == "in_stock"
    # a field's own phrases still come first
    own = rule_phrases({"out_of_stock": ["ready for pickup soon"]}, edited)
    assert parse_availability("Ready for pickup soon", own) == "out_of_stock"
    # the field's copy of the table and the table itself: each phrase once
    copied = rule_phrases(lexicon.fields["availability"].values, edited)
    assert len(copied) == len(set(copied)) == len(edited.stock)


def test_new_home_and_breadcrumb_labels_are_dropped(tmp_path: Path) -> None:
    home = compile_words(_edited(tmp_path, "home_labels", "startpagina").vocabulary)
    assert parse_breadcrumb(["Startpagina", "Gereedschap"]) == ["Startpagina", "Gereedschap"]
    assert parse_breadcrumb(["Startpagina", "Gereedschap"], home) == ["Gereedschap"]
    label = compile_words(_edited(tmp_path, "breadcrumb_labels", "u bent hier").vocabulary)
    assert parse_breadcrumb(["U bent hier: Tuin › Scharen"]) == ["U bent hier: Tuin", "Scharen"]
    assert parse_breadcrumb(["U bent hier: Tuin › Scharen"], label) == ["Tuin", "Scharen"]


def test_a_new_product_count_word_is_cut_from_category_names(tmp_path: Path) -> None:
    words = compile_words(_edited(tmp_path, "product_count", "artikelen").vocabulary)
    assert category_name("Kaarsen (34 artikelen)") == "Kaarsen (34 artikelen)"
    assert category_name("Kaarsen (34 artikelen)", words) == "Kaarsen"
    # a menu's "Kaarsen 34 artikelen" names the breadcrumb's "Kaarsen": the path is refined
    listings = [("http://s/l", ("Wonen", "Kaarsen 34 artikelen"), {"name": "Bijenwas"})]
    detail = {"category": ["Huis", "Kaarsen"]}
    assert build_product("http://s/p", listings, detail, ("url",))["categories"] == [
        ["Huis", "Kaarsen"], ["Wonen", "Kaarsen 34 artikelen"]]
    assert build_product("http://s/p", listings, detail, ("url",), words)["categories"] == [
        ["Huis", "Kaarsen"]]


def _img(markup: str) -> object:
    return lxml_html.fragment_fromstring(markup)


def test_new_placeholder_words_and_large_image_attributes(tmp_path: Path) -> None:
    stand_in = _img('<img src="/media/geen-foto.png" data-src="/media/p1.jpg">')
    assert image_source(stand_in) == "/media/geen-foto.png"
    words = compile_words(_edited(tmp_path, "placeholder_images", "geen-foto").vocabulary)
    assert image_source(stand_in, words) == "/media/p1.jpg"
    folder = compile_words(_edited(tmp_path, "placeholder_folders", "dummy").vocabulary)
    assert image_source(_img('<img src="/dummy/x.png">')) == "/dummy/x.png"
    assert image_source(_img('<img src="/dummy/x.png">'), folder) is None
    big = _img('<img src="/m/p1-300.jpg" data-superzoom="/m/p1-2000.jpg">')
    assert image_source(big) == "/m/p1-300.jpg"
    zoom = compile_words(_edited(tmp_path, "large_image_attributes", "data-superzoom")
                         .vocabulary)
    assert image_source(big, zoom) == "/m/p1-2000.jpg"


def test_extract_page_reads_a_microdata_picture_with_the_runs_vocabulary(
        tmp_path: Path) -> None:
    """The microdata picture is read with the loaded lexicon's large-rendition attributes,
    not the shipped ones."""
    page = ('<html><body><div itemscope itemtype="https://schema.org/Product">'
            '<h1 itemprop="name">Bijenwas kaars</h1><img itemprop="image" '
            'src="/m/p1-300.jpg" data-superzoom="/m/p1-2000.jpg">'
            '<p>€ 12,95</p></div></body></html>')
    url = "https://shop.example/p/1"
    shipped = extract_page_generic(page, url, load_lexicon())["fields"]
    assert shipped["image"] == "https://shop.example/m/p1-300.jpg"
    lexicon = _edited(tmp_path, "large_image_attributes", "data-superzoom")
    edited = extract_page_generic(page, url, lexicon)
    assert edited["fields"]["image"] == "https://shop.example/m/p1-2000.jpg"
    assert edited["sources"]["image"] == "microdata"


_BUY_PAGE = """<html><body><h1>Bijenwas kaars</h1><p class="prijs">€ 12,95</p>
<form><button type="submit">{label}</button></form></body></html>"""


def _signal_edited(tmp_path: Path, entry: str) -> Lexicon:
    """The shipped lexicon with ``entry`` added to its ``signals.add_to_cart`` words."""
    text = (Path(__file__).resolve().parent.parent / "templates" / "ecommerce.yaml").read_text(
        encoding="utf-8")
    head, sep, rest = text.partition("\n  add_to_cart: {")
    assert sep
    path = tmp_path / "signal.yaml"
    path.write_text(head + sep + entry + ", " + rest, encoding="utf-8")
    return load_lexicon(path)


def test_new_add_to_cart_and_several_items_words(tmp_path: Path) -> None:
    shipped = load_lexicon("ecommerce")
    page = _BUY_PAGE.format(label="Setja í körfu")
    assert not can_buy(PageView.from_html("http://s/p", page, shipped))
    edited = _signal_edited(tmp_path, "setja í körfu: 12")
    assert can_buy(PageView.from_html("http://s/p", page, edited))
    gapped = _signal_edited(tmp_path, '"setja … körfu": 12')
    assert can_buy(PageView.from_html("http://s/p", _BUY_PAGE.format(
        label="Setja vöruna í körfu"), gapped))
    weak = _signal_edited(tmp_path, "setja í körfu: 6")     # a weak word alone is no button
    assert not can_buy(PageView.from_html("http://s/p", page, weak))
    several = _BUY_PAGE.format(label="Add chosen to cart")
    assert can_buy(PageView.from_html("http://s/p", several, shipped))
    not_one = _edited(tmp_path, "several_items", "chosen")
    assert not can_buy(PageView.from_html("http://s/p", several, not_one))


def test_a_lexicon_listing_add_to_cart_texts_as_vocabulary_still_reads_them(
        tmp_path: Path) -> None:
    """``vocabulary.add_to_cart`` of earlier lexicons joins ``signals.add_to_cart`` (the
    one list of add-to-cart words); a rule file's copy is dropped, the crawl never
    reads it."""
    path = tmp_path / "old.yaml"
    path.write_text("name: old\nvocabulary:\n  add_to_cart: [legg i handlekurv]\n"
                    "signals:\n  add_to_cart: {kjøp: 6}\nfields:\n"
                    "  title: {kind: text, words: {title: 5}}\n", encoding="utf-8")
    assert validate_file(path).ok
    old = load_lexicon(path)
    assert old.signals["add_to_cart"] == {"kjøp": 6, "legg i handlekurv": 12}
    assert can_buy(PageView.from_html("http://s/p", _BUY_PAGE.format(
        label="Legg i handlekurv"), old))
    assert Vocabulary.model_validate({"add_to_cart": ["x"], "home_labels": ["hjem"]}) == \
        Vocabulary(home_labels=["hjem"])


_DETAIL = """
detail:
  fields:
    name: {xpath: '//h1', kind: text}
    price: {xpath: '//span[@class="price"]', kind: money}
"""


def test_the_rule_file_carries_the_changed_keys_to_the_crawl(tmp_path: Path) -> None:
    """A worker on another machine reads the edited words from the rule file alone."""
    edited = _edited(tmp_path, "currency_symbols", "kr: SEK").vocabulary
    changed = edited.differing(shipped_vocabulary())
    assert changed is not None and set(changed.model_dump(exclude_none=True)) == {
        "currency_symbols"}
    assert load_lexicon("ecommerce").vocabulary.differing(shipped_vocabulary()) is None
    base = rules_from_text(rule_text("s", _DETAIL), "rules.yaml")
    page = lxml_html.document_fromstring(
        '<html><body><h1>Kaffekopp</h1><span class="price">199 kr</span></body></html>')
    plain = extract_detail(compile_rules(base), page, "http://s/p")
    carried = base.model_copy(update={"record": RecordSpec(columns=["url"],
                                                           vocabulary=changed)})
    text = yamlio.dump(carried.model_dump(mode="json", exclude_none=True))
    assert "kr: SEK" in text
    read = extract_detail(compile_rules(rules_from_text(text, "rules.yaml")), page, "http://s/p")
    assert (plain["price"], plain["currency"]) == (199.0, None)
    assert (read["price"], read["currency"]) == (199.0, "SEK")


@pytest.mark.parametrize(("entry", "message"), [
    ('currency_symbols: {"$": usd}',
     "vocabulary.currency_symbols.$: currency symbol '$' names 'usd', not an ISO 4217 code"),
    ("currency_codes: [EUR, euro]", "vocabulary.currency_codes.1: 'euro' is not an ISO 4217"),
    ('currency_symbols: {"$": USD}\n  currency_signs: ["€"]',
     "vocabulary.currency_signs.0: currency sign '€' is not a key of currency_symbols"),
    ("stock_phrases: {In-Stock: [here]}",
     "vocabulary.stock_phrases.In-Stock: stock value 'In-Stock' must be lower_snake_case"),
    ('home_labels: [home, " "]', "vocabulary.home_labels.1: empty phrase"),
    ("large_image_attributes: [Data Zoom]",
     "vocabulary.large_image_attributes.0: 'Data Zoom' is not an attribute name"),
    ("product_count: items", "vocabulary.product_count: Input should be a valid list"),
    ("placeholder_image: [blank]", "vocabulary.placeholder_image: unknown key"),
])
def test_bad_entries_are_one_line_naming_file_and_key(tmp_path: Path, entry: str,
                                                      message: str) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(f"name: mine\nvocabulary:\n  {entry}\nfields:\n"
                    "  title: {kind: text, words: {title: 5}}\n", encoding="utf-8")
    report = validate_file(path)
    assert not report.ok and len(report.errors) == 1
    line = str(report.errors[0])
    at = 4 if "\n" in entry else 3   # the entry's own line
    assert "\n" not in line and line.startswith(f"{path}:{at}: ") and message in line, line


_SHOP_PAGE = """<html><head><title>Bijenwas kaars</title></head><body><div class="product">
<h1>Bijenwas kaars</h1><div class="buy"><span>{said}</span> <span class="{cls}">€ 4,95</span></div>
<div><span>€ 12,95</span></div><img src="/img/winkel-embleem.png"><img src="/img/kaars.jpg">
</div></body></html>"""


@pytest.mark.parametrize(("key", "entry", "cls", "said"), [
    ("other_money", "adviesprijs", "b", "adviesprijs"),
    ("other_money_words", "voorheen", "b", "voorheen"),
    ("other_money_classes", "verzend", "verzendkosten", ""),
])
def test_new_words_of_other_sums_leave_the_price_to_extract_page(
        tmp_path: Path, key: str, entry: str, cls: str, said: str) -> None:
    page = _SHOP_PAGE.format(cls=cls, said=said)
    shipped = extract_page_generic(page, "http://s/p", load_lexicon("ecommerce"))["fields"]
    assert shipped["price"] == 4.95    # the delivery charge, by its place beside the title
    edited = extract_page_generic(page, "http://s/p", _edited(tmp_path, key, entry))
    assert edited["fields"]["price"] == 12.95


def test_a_new_not_product_image_word(tmp_path: Path) -> None:
    page = _SHOP_PAGE.format(cls="b", said="")
    shipped = extract_page_generic(page, "http://s/p", load_lexicon("ecommerce"))["fields"]
    assert shipped["image"] == "http://s/img/winkel-embleem.png"
    edited = extract_page_generic(page, "http://s/p",
                                  _edited(tmp_path, "not_product_images", "embleem"))
    assert edited["fields"]["image"] == "http://s/img/kaars.jpg"


_TURKISH_MONTHS = """
vocabulary:
  months: [[ocak], [şubat], [mart], [nisan], [mayıs], [haziran], [temmuz], [ağustos],
           [eylül], [ekim], [kasım], [aralık]]
  time_words: [saat]
"""

_ARTICLE = """<html><head><title>Yeni köprü açıldı</title></head><body><article>
<h1>Yeni köprü açıldı</h1><p class="meta">Yayınlanma 5 mart 2024 saat 14:30</p>
<p>{body}</p></article></body></html>"""


def test_new_month_names_and_time_words_read_dates(tmp_path: Path) -> None:
    """Month names and time words the shipped lexicons lack (Turkish) come from a
    lexicon's vocabulary, for dates in text and an article's publish time."""
    news = (Path(__file__).resolve().parent.parent / "templates" / "news.yaml").read_text(
        encoding="utf-8")
    (tmp_path / "haber.yaml").write_text(news + _TURKISH_MONTHS, encoding="utf-8")
    turkish = load_lexicon(tmp_path / "haber.yaml")
    words = compile_words(turkish.vocabulary)
    assert find_dates("5 mart 2024") == []
    assert [d.iso for d in find_dates("5 mart 2024", words)] == ["2024-03-05"]
    assert [d.iso for d in find_dates("5.3.2024 saat 9:15")] == ["2024-03-05"]
    assert [d.iso for d in find_dates("5.3.2024 saat 9:15", words)] == ["2024-03-05T09:15:00"]
    assert parse_datetime("12 mayıs 2023") is None and parse_datetime(
        "12 mayıs 2023", words) == "2023-05-12"
    page = _ARTICLE.format(body="Nehir üzerindeki köprü bugün törenle açıldı. " * 8)
    assert extract_page_generic(page, "http://s/a", load_lexicon("news"))["fields"][
        "published"] is None
    assert extract_page_generic(page, "http://s/a", turkish)["fields"]["published"] == \
        "2024-03-05T14:30:00"
    assert turkish.vocabulary.currency_codes is None     # the other keys: the shipped ones


def test_months_are_twelve_lists_each_name_one_month(tmp_path: Path) -> None:
    for months, message in (("[[jan], [feb]]", "months must be twelve lists"),
                            ("[[jan], [feb], [mar], [apr], [may], [jun], [jul], [aug], [sep], "
                             "[oct], [nov], [dec, jan]]", "'jan' names month 1 and month 12")):
        path = tmp_path / "m.yaml"
        path.write_text(f"name: m\nvocabulary:\n  months: {months}\nfields:\n"
                        "  title: {kind: text, words: {title: 5}}\n", encoding="utf-8")
        report = validate_file(path)
        assert len(report.errors) == 1 and message in str(report.errors[0]), report.errors


def test_new_rating_class_and_number_words(tmp_path: Path) -> None:
    classed = _img('<span class="sterren-4"></span>')
    assert rating_source(classed) is None
    words = compile_words(_edited(tmp_path, "rating_classes", "sterren").vocabulary)
    assert rating_source(classed, words) == "4.0"
    spelled = _img('<p class="star-rating vier"></p>')
    assert rating_source(spelled) is None
    dutch = Vocabulary(rating_numbers=["nul", "een", "twee", "drie", "vier", "vijf"])
    assert rating_source(spelled, compile_words(dutch)) == "4"
    path = tmp_path / "r.yaml"
    path.write_text("name: r\nvocabulary:\n  rating_numbers: [a, b, c, d, e, f, g]\nfields:\n"
                    "  title: {kind: text, words: {title: 5}}\n", encoding="utf-8")
    assert "at most six words" in str(validate_file(path).errors[0])


def test_a_new_money_mark_makes_a_price(tmp_path: Path) -> None:
    page = """<html><head><title>Qilim i leshit</title></head><body><div class="product">
<h1>Qilim i leshit</h1><p>Çmimi: 4 500 Lek</p><p>Një qilim i punuar me dorë.</p>
</div></body></html>"""
    shipped = extract_page_generic(page, "http://s/p", load_lexicon("ecommerce"))["fields"]
    assert shipped.get("price") is None
    edited = extract_page_generic(page, "http://s/p", _edited(tmp_path, "money_marks", "Lek"))
    assert edited["fields"]["price"] == 4500.0


def test_a_rule_file_keeps_an_emptied_list() -> None:
    """``home_labels: []`` (keep "Home" in breadcrumbs) is a lexicon's choice the crawl
    must see, not an empty default a written rule file may drop."""
    base = rules_from_text(rule_text("s", _DETAIL), "rules.yaml")
    mine = Vocabulary(home_labels=[])
    rules = base.model_copy(update={"record": RecordSpec(
        columns=["url"], vocabulary=mine.differing(shipped_vocabulary()))})
    again = rules_from_text(dump_rules(rules), "rules.yaml")
    assert again.record is not None and again.record.vocabulary == Vocabulary(home_labels=[])
    words = compile_rules(again).words
    assert parse_breadcrumb(["Home", "Tools"], words) == ["Home", "Tools"]
    assert parse_breadcrumb(["Home", "Tools"]) == ["Tools"]


def test_the_shipped_vocabulary_is_parsed_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up: the shipped words are the lines of ecommerce.yaml's ``vocabulary`` block,
    parsed alone, and read the same as in the whole lexicon. What is checked is that no
    other top-level block (fields, signals, pagination, ...) is parsed with it, not the
    block's share of the file: words join the vocabulary without breaking the test, and
    the saving is every other block's lines, whatever their length."""
    from structurer import yamlio

    parsed: list[str] = []
    real_parse = yamlio.parse
    monkeypatch.setattr(yamlio, "parse", lambda text, file: parsed.append(text) or
                        real_parse(text, file))
    shipped_vocabulary.cache_clear()
    try:
        alone = shipped_vocabulary()
    finally:
        shipped_vocabulary.cache_clear()
    [text] = parsed
    whole = (TEMPLATES_DIR / "ecommerce.yaml").read_text(encoding="utf-8")
    assert text == top_section(whole, "vocabulary") and text.startswith("vocabulary:\n")
    others = [line.split(":")[0] for line in whole.splitlines() if re.match(r"[a-z_]+:", line)]
    assert {"name", "signals", "fields"} < set(others) and others.count("vocabulary") == 1
    assert not [line for line in text.splitlines()[1:] if re.match(r"[a-z_]+:", line)]
    assert alone == load_lexicon("ecommerce").vocabulary


def test_a_top_section_ends_at_the_next_top_level_key() -> None:
    text = "a: 1\nvocabulary:\n  x: [1, 2]\n\n# about b\n  y: 3\nb:\n  z: 4\n"
    assert top_section(text, "vocabulary") == "vocabulary:\n  x: [1, 2]\n\n# about b\n  y: 3\n"
    assert top_section(text, "b") == "b:\n  z: 4\n"
    assert top_section(text, "c") is None


def test_new_times_signs_make_an_amount_one_of_several_payments(tmp_path: Path) -> None:
    text = "oder 4 mal 20,00 €"
    assert parse_money(text).amount == 4.0
    edited = compile_words(_edited(tmp_path, "times_signs", "mal").vocabulary)
    assert parse_money(text, None, edited).amount is None
    assert parse_money("20,00 €", None, edited).amount == 20.0


def test_new_item_action_words_keep_a_list_from_the_action_link(tmp_path: Path) -> None:
    """A card's "remember it" link (picture and text) beside the product's own link: the
    lexicon's ``item_actions`` words tell it is no way to the product's page."""
    def page(n: int) -> str:
        cards = "".join(
            f"<li><a class='merkzettel' href='/merken?add={i}'><img src='/t/{i}.jpg' alt=''>"
            f"Auf den Merkzettel setzen</a><a href='/p/{i}'>Ding {i}</a>"
            f"<span class='price'>{i},95 €</span></li>" for i in range(6 * n, 6 * n + 6))
        return f"<html><body><ul class='grid'>{cards}</ul></body></html>"

    text = (Path(__file__).resolve().parent.parent / "templates" / "ecommerce.yaml").read_text(
        encoding="utf-8")
    head, sep, rest = text.partition("\n  item_actions: {")
    assert sep
    path = tmp_path / "actions.yaml"
    path.write_text(head + sep + "merkzettel: 10, " + rest, encoding="utf-8")
    for lexicon, want in ((load_lexicon("ecommerce"), "/merken?add=0"),
                          (load_lexicon(path), "/p/0")):
        views = [PageView.from_html(f"http://s/c/{n}", page(n), lexicon) for n in range(3)]
        learned = learn_list(views, lexicon)
        assert learned.detail_link_xpath is not None
        got = views[0].tree.xpath(learned.item_xpath)[0].xpath(learned.detail_link_xpath)
        href = got[0] if isinstance(got[0], str) else got[0].get("href")
        assert href == want


def test_word_patterns_compile_when_first_read() -> None:
    """Compiling every pattern of a vocabulary was a twentieth of `extract-page`, and an
    article reads a third of them: each is compiled when first read, once, and a copy
    (pickled to a worker) reads the same."""
    import pickle
    import re

    from structurer.words import default_words

    words = _fresh(default_words())
    names = sorted(words.patterns)
    declared = {n for c in Words.__mro__ for n, kind in vars(c).get("__annotations__", {}).items()
                if "Pattern" in kind}
    assert names == sorted(declared)
    assert not [n for n in names if n in vars(words)], "a pattern compiled before it was read"
    copy = pickle.loads(pickle.dumps(words))
    for name in names:
        pattern = getattr(words, name)
        assert isinstance(pattern, re.Pattern) and getattr(words, name) is pattern
        assert getattr(copy, name).pattern == pattern.pattern
    with pytest.raises(AttributeError):
        _ = words.no_such_pattern  # type: ignore[attr-defined]


def _fresh(words: Words) -> Words:
    """The same words with none of their patterns compiled yet."""
    from dataclasses import fields, replace

    return replace(words, **{f.name: getattr(words, f.name) for f in fields(words)})


def test_new_rating_units_make_a_whole_number_out_of_5_a_rating(tmp_path: Path) -> None:
    """"4 von 5 Punkten" without a label: a whole number out of 5 is read as the rating
    only with a unit of the lexicon's ``rating_units`` after it (else a counter)."""
    html = ("<html><head><title>Kaffeemühle | Laden</title></head><body><main><div class='p'>"
            "<h1>Kaffeemühle</h1><span>4 von 5 Punkten</span><p class='price'>19,90 €</p>"
            "<form action='/cart'><button>In den Warenkorb</button></form></div></main>"
            "</body></html>")
    shipped = extract_page_generic(html, "http://s/p/1", load_lexicon("ecommerce"))
    edited = extract_page_generic(html, "http://s/p/1", _edited(tmp_path, "rating_units",
                                                                "punkten"))
    assert shipped["fields"]["rating"] is None and edited["fields"]["rating"] == 4.0


def test_new_struck_classes_mark_the_price_before_a_discount(tmp_path: Path) -> None:
    """A class of the lexicon's ``struck_classes`` strikes an amount through, as ``<del>``
    does: extract-page and field learning (:func:`structurer.values.struck`) take it for
    the price before a discount, not the price."""
    html = ("<html><head><title>Bienenwachskerze</title></head><body><div class='product'>"
            "<h1>Bienenwachskerze</h1><div><span class='durchgestrichen'>19,99 €</span> "
            "<span>14,99 €</span></div><form action='/cart'><button>In den Warenkorb</button>"
            "</form></div></body></html>")
    lexicon = _edited(tmp_path, "struck_classes", "durchgestrichen")
    shipped = extract_page_generic(html, "http://s/p/1", load_lexicon("ecommerce"))["fields"]
    edited = extract_page_generic(html, "http://s/p/1", lexicon)["fields"]
    assert (shipped["price"], shipped["original_price"]) == (19.99, None)
    assert (edited["price"], edited["original_price"]) == (14.99, 19.99)
    old = lxml_html.fromstring(html).find(".//span")
    words = compile_words(lexicon.vocabulary)
    assert not struck(old) and struck(old, words)
    strike = lxml_html.fromstring("<p><span class='price strikethrough'><b>£5</b></span></p>")
    assert struck(strike.find(".//b"), levels=1) and not struck(strike.find(".//b"), levels=0)


def test_money_that_is_no_price_and_other_sums_are_two_lists() -> None:
    """``signals.not_price`` (shipping, instalments, thresholds: no price of the product,
    set aside by every price reader, the old price's too) and ``vocabulary.other_money``
    (an old price, a saving, a total: extract-page's price only) share no word; the
    old price's own labels are other sums, never money that is no price."""
    lexicon = load_lexicon("ecommerce")
    not_price = {w.lower() for w in lexicon.signals["not_price"]}
    vocabulary = lexicon.vocabulary
    others = {w.lower() for w in (vocabulary.other_money or []) +
              (vocabulary.other_money_words or [])}
    assert not_price and others and not not_price & others
    assert not any(w.lower() in not_price for w in lexicon.fields["original_price"].labels)
    assert {"rrp", "was", "compare"} <= others and {"shipping", "spend"} <= not_price
