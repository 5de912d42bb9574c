"""namewords: the one reading of class and attribute words, by the lexicon's field
words (page.match.lexicon_match), the vocabulary's class lists (page.match.class_word,
page.density.is_noise, markupvalues.rating_source, page.stars.rating_text), the
add-to-cart signal's (page.match.buy_words, page.productkind.can_buy) and an article's
boilerplate words alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml.html import fragment_fromstring

from structurer.lexicon import Vocabulary, load_lexicon
from structurer.markupvalues import rating_source
from structurer.namewords import Found, NameWords, class_words, name_tokens
from structurer.page.density import is_noise
from structurer.page.match import buy_words, class_word, lexicon_match
from structurer.page.productkind import can_buy
from structurer.page.stars import rating_text
from structurer.page.view import PageView
from structurer.validate import validate_file
from structurer.words import compile_words, default_words

WORDS = NameWords(["old", "ship", "mini-cart", "add to cart", "instal", "title", "cookie"])


@pytest.mark.parametrize(("value", "found"), [
    ("old-price", "old"), ("fw-bold", None), ("text_bold", None),
    ("shipping-cost", "ship"), ("ship", "ship"), ("relationship", None),
    ("product-relationship__price", None), ("miniCart", "mini-cart"), ("mini_cart", "mini-cart"),
    ("minicart", "mini-cart"), ("add-to-cart", "add to cart"), ("addToCart", "add to cart"),
    ("installments", "instal"), ("product-title", "title"), ("productTitle", "title"),
    ("subtitle", None), ("cookieBanner", "cookie"), ("cookiebanner", "cookie"),
    ("", None)],
    ids=lambda v: v if isinstance(v, str) else None)
def test_a_word_names_whole_tokens_or_begins_one(value: str, found: str | None) -> None:
    """A word is a run of whole tokens (camelCase, kebab- and snake-case split, or run
    together), or a stem of four letters or more beginning a longer token; never letters
    inside or ending a token: "ship" names ``shipping``, not ``relationship``."""
    assert WORDS.first(value) == found


def test_a_partial_match_counts_only_where_allowed() -> None:
    tokens = name_tokens("shippingInfo")
    assert tokens == ("shipping", "info")
    assert NameWords(["ship"]).find(tokens) == (Found("ship", 0, 1, False),)
    assert NameWords(["ship"]).find(tokens, partial=False) == ()
    assert NameWords(["shipping"]).find(tokens, partial=False) == (Found("shipping", 0, 1, True),)
    assert NameWords(["ad"]).find(name_tokens("ads-slot")) == ()   # three letters: whole only


def test_the_lexicon_s_title_word_does_not_name_a_subtitle() -> None:
    """A subtitle ("(Hardcover)") is no title: "title" ends the token, it begins none."""
    lexicon = load_lexicon("ecommerce")
    spec = lexicon.fields["name"]
    sub = fragment_fromstring("<span class='subtitle'>(Hardcover)</span>")
    main = fragment_fromstring("<h1 class='productTitle'>A Dance with Dragons</h1>")
    assert lexicon_match(sub, spec, lexicon, 0.5, depth=0)[0] == 0.0
    score, why = lexicon_match(main, spec, lexicon, 0.5, depth=0)
    assert score > 0.5 and why == "class 'product-title' ~ word 'product-title' (12)"


def test_other_sums_class_words_read_class_id_and_itemprop_as_words() -> None:
    box = fragment_fromstring("<div class='product-relationship'><p><span>$5</span></p></div>")
    assert class_word(box[0][0], NameWords(["ship", "old"])) is None
    ship = fragment_fromstring("<div id='shippingCost'><p><span>$5</span></p></div>")
    assert class_word(ship[0][0], NameWords(["old", "ship"])) == "ship"


@pytest.mark.parametrize(("cls", "noise"), [
    ("commentList", True), ("comment-list", True), ("sidebar_left", True), ("head", False),
    ("badge", False), ("content-sidebar-wrap", False), ("mainNav", False),
    ("sharing", True), ("shared-header", False)])
def test_noise_classes_are_whole_words_of_any_case(cls: str, noise: bool) -> None:
    """The vocabulary's ``noise_classes`` name whole words, camelCase split ("comment" in
    ``commentList``); "ad" is no part of ``head`` or ``badge``, "share" of ``shared``;
    a content word beside them clears them."""
    assert is_noise(fragment_fromstring(f"<div class='{cls}'><p>x</p></div>")) is noise


@pytest.mark.parametrize(("cls", "score"), [
    ("product-price", 10 / 12), ("productprice", 5 / 12), ("saleprice", 5 / 12),
    ("pricebox", 5 / 12), ("dprice", 0.0), ("ourprice", 0.0)])
def test_a_token_run_together_from_the_lexicon_s_words_holds_them(cls: str, score: float
                                                                   ) -> None:
    """``productprice`` is run together from two words of the lexicon ("product" of
    ``product-name``, "price"): the price word names it partly, as it does ``pricebox``
    (a stem beginning a token); a part the lexicon does not know ("our", "d") splits
    nothing."""
    lexicon = load_lexicon("ecommerce")
    el = fragment_fromstring(f"<span class='{cls}'>$5.00</span>")
    got = lexicon_match(el, lexicon.fields["price"], lexicon, 0.5, depth=0)[0]
    assert got == pytest.approx(score)


def test_a_stem_is_found_where_a_longer_word_might_go_on() -> None:
    """"shipping" begins ``shipping-address`` and holds the stem "ship": both are read."""
    words = NameWords(["shipping-address", "ship"])
    assert words.first("shipping cost") == "ship"
    assert words.first("shippingAddress") == "shipping-address"


# ----- the class-word checks of ratings and buy buttons read words, not letters ------------
def test_rating_class_words_name_whole_tokens_or_a_stem_never_letters_inside() -> None:
    words = default_words()
    bar = "<div class='{}'><span style='width:80%'></span></div>"
    assert rating_source(fragment_fromstring(bar.format("product-ratings"))) == "4"
    assert rating_source(fragment_fromstring(bar.format("starRating"))) == "4"
    # "star" is no word of "restart", nor "rated" of "curated"
    assert rating_source(fragment_fromstring(bar.format("restart-box"))) is None
    counter = "<div><p>Photos</p><span class='{}'>3 / 5</span></div>"
    assert rating_text(fragment_fromstring(counter.format("rated")), words) is not None
    assert rating_text(fragment_fromstring(counter.format("curated-pick")), words) is None


def test_buy_controls_read_text_as_words_and_names_as_class_words() -> None:
    lexicon = load_lexicon("ecommerce")

    def buys(html: str) -> bool:
        return buy_words(next(fragment_fromstring(html).iter("button")), lexicon)

    assert buys("<div><button class='btn addToCartButton'></button></div>")  # a compound
    assert buys("<form action='https://shop.example/cart/add?id=3'><button>Go</button></form>")
    assert buys("<div><button>马上购买</button></div>")
    assert buys("<div><button>In den Warenkorb</button></div>")
    # the side cart's toggle, a cartoon's title, a host's name carry no add-to-cart word
    assert not buys("<div><button class='sidecart-toggle'>Menu</button></div>")
    assert not buys("<div><button>Scart cable</button></div>")
    assert not buys("<form action='https://cartshop.example/search'><button>Go</button></form>")
    # a malformed action is no reason to fail: the button is read by its other words
    assert not buys("<form action='http://[shop/cart/add'><button>Go</button></form>")


def test_a_buy_button_named_by_any_strong_add_to_cart_word_sells_the_product() -> None:
    lexicon = load_lexicon("ecommerce")
    page = ("<html><body><h1>Lamp</h1><p>$12</p><button class='{}'><i class='icon'></i>"
            "</button></body></html>")
    assert can_buy(PageView.from_html("http://s/p", page.format("btn add-to-basket"), lexicon))
    assert can_buy(PageView.from_html("http://s/p", page.format("AddToCart"), lexicon))
    assert not can_buy(PageView.from_html("http://s/p", page.format("wishlist"), lexicon))
    assert not can_buy(PageView.from_html("http://s/p", page.format("sidecart-add"), lexicon))
    # a form posting to the cart sells the product whatever its button says; one posting
    # to the side cart's update does not
    form = ("<html><body><h1>Lamp</h1><p>$12</p><form action='{}' method='post'>"
            "<button type='submit'>OK</button></form></body></html>")
    assert can_buy(PageView.from_html("http://s/p", form.format("/cart/add"), lexicon))
    assert not can_buy(PageView.from_html("http://s/p", form.format("/sidecart/update"), lexicon))


def test_partial_words_are_declared_by_the_vocabulary(tmp_path: Path) -> None:
    """Which lists name longer tokens partly is the template's (``partial_words``)."""
    words = default_words()
    assert "rating_classes" in words.partial_words and "noise_classes" not in words.partial_words
    assert class_words(words, "rating_classes").names("ratings")
    assert not class_words(words, "noise_classes").names("navy")
    whole = compile_words(Vocabulary(partial_words=["noise_classes"]))
    assert not class_words(whole, "rating_classes").names("ratings")
    assert class_words(whole, "rating_classes").names("product-rating")
    path = tmp_path / "p.yaml"
    path.write_text("name: p\nvocabulary:\n  partial_words: [Rating Classes]\nfields:\n"
                    "  title: {kind: text, words: {title: 5}}\n", encoding="utf-8")
    report = validate_file(path)
    assert len(report.errors) == 1 and "lower_snake_case" in str(report.errors[0])
