"""page.namewords: the one reading of class and attribute words, by the lexicon's field
words (page.match.lexicon_match), the vocabulary's class lists (page.match.class_word,
page.density.is_noise) and an article's boilerplate words alike."""

from __future__ import annotations

import pytest
from lxml.html import fragment_fromstring

from structurer.lexicon import load_lexicon
from structurer.page.density import is_noise
from structurer.page.match import class_word, lexicon_match
from structurer.page.namewords import Found, NameWords, name_tokens

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
    assert class_word(box[0][0], ["ship", "old"]) is None
    ship = fragment_fromstring("<div id='shippingCost'><p><span>$5</span></p></div>")
    assert class_word(ship[0][0], ["old", "ship"]) == "ship"


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
