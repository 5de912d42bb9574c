"""Patterns over wide Unicode ranges cost more to compile than reading an article: they
are compiled only for a text that can match them, and cut or find the same."""

from __future__ import annotations

from structurer.clean import parse_html
from structurer.kinds import compile_words, default_words
from structurer.page import byline, dom, titles
from structurer.vocabulary import Vocabulary


def test_a_latin_title_is_cut_without_the_cjk_pattern() -> None:
    titles._split_cjk.cache_clear()
    assert titles._split_title("Bohren, bis es heiß wird | ZEIT ONLINE") == [
        "Bohren, bis es heiß wird", "ZEIT ONLINE"]
    assert titles._split_title("snake_case_title - Site") == ["snake_case_title", "Site"]
    assert titles._split_cjk.cache_info().currsize == 0
    assert titles._split_title("新闻标题_体育_新浪网") == ["新闻标题", "体育", "新浪网"]
    assert titles._split_title("Ärger | 新闻_体育") == ["Ärger", "新闻", "体育"]


def test_bylines_latin_and_cjk() -> None:
    w = default_words()
    assert byline._name_in("By Ann Lee in Oslo", w) == "Ann Lee"
    assert byline._name_in("作者：王芳 2024年", w) == "王芳"
    assert byline._name_in("Share this story", w) is None


def test_an_edited_lexicons_author_label_finds_the_byline() -> None:
    """The byline reads the lexicon's vocabulary, not the shipped one: a Dutch "door"."""
    page = parse_html("<html><body><h1>Nieuwe brug geopend in het centrum</h1>"
                      "<p>door Anna Visser</p><p>Tekst van het artikel.</p></body></html>",
                      "http://news.test/a")
    title = "Nieuwe brug geopend in het centrum"
    assert byline.author_of(page, title) is None
    dutch = compile_words(Vocabulary(author_labels=["by", "door"]))
    assert byline.author_of(page, title, words=dutch) == "Anna Visser"


def test_attribute_words_split_as_before() -> None:
    assert dom.tokens("productTitle main-image_ÄÖ 商品名") == [
        "product", "title", "main", "image", "äö", "商品名"]
