"""Patterns over wide Unicode ranges cost more to compile than reading an article: they
are compiled only for a text that can match them, and cut or find the same."""

from __future__ import annotations

from structurer.page import byline, dom, titles


def test_a_latin_title_is_cut_without_the_cjk_pattern() -> None:
    titles._split_cjk.cache_clear()
    assert titles._split_title("Bohren, bis es heiß wird | ZEIT ONLINE") == [
        "Bohren, bis es heiß wird", "ZEIT ONLINE"]
    assert titles._split_title("snake_case_title - Site") == ["snake_case_title", "Site"]
    assert titles._split_cjk.cache_info().currsize == 0
    assert titles._split_title("新闻标题_体育_新浪网") == ["新闻标题", "体育", "新浪网"]
    assert titles._split_title("Ärger | 新闻_体育") == ["Ärger", "新闻", "体育"]


def test_bylines_latin_and_cjk() -> None:
    assert byline._name_in("By Ann Lee in Oslo") == "Ann Lee"
    assert byline._name_in("作者：王芳 2024年") == "王芳"
    assert byline._name_in("Share this story") is None


def test_attribute_words_split_as_before() -> None:
    assert dom.tokens("productTitle main-image_ÄÖ 商品名") == [
        "product", "title", "main", "image", "äö", "商品名"]
