"""Lexicons: the shipped templates load, round-trip, and carry the method's defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from structurer import yamlio
from structurer.errors import RuleError
from structurer.lexicon import (
    Lexicon,
    dump_lexicon,
    load_lexicon,
    resolve_template,
    shipped_templates,
)


def test_shipped_templates() -> None:
    assert {"ecommerce", "news"} <= set(shipped_templates())


def test_ecommerce_has_the_fields_and_both_languages() -> None:
    lex = load_lexicon("ecommerce")
    expected = {"name", "price", "original_price", "currency", "image", "url", "sku", "brand",
                "availability", "description", "breadcrumb", "rating", "review_count"}
    assert expected <= set(lex.fields)
    assert {"en", "zh"} <= set(lex.languages)
    assert "下一页" in lex.pagination.next and "next" in lex.pagination.next
    assert "上一页" in lex.pagination.previous and "page" in lex.pagination.page_params
    assert any("价格" in w for w in lex.fields["price"].words)
    # abbreviations weigh more than the full words they stand for
    assert lex.fields["image"].words["img"] > lex.fields["image"].words["image"]
    assert lex.fields["description"].words["desc"] > lex.fields["description"].words["description"]
    assert lex.fields["price"].kind == "money" and lex.fields["image"].kind == "image"
    assert lex.fields["url"].level == "list" and lex.fields["description"].level == "detail"
    assert {"in_stock", "out_of_stock"} <= set(lex.fields["availability"].values)
    # the paper's attribute weights and list-structure priorities
    assert lex.attribute_weights["id"] == 15 and lex.attribute_weights["class"] == 10
    assert max(lex.list_structures, key=lex.list_structures.__getitem__) == "ul/li"
    assert lex.thresholds.render_similarity == 0.8 and lex.thresholds.partial_ratio == 0.5
    assert lex.fields_for("list").keys() >= {"name", "price", "url", "image"}
    assert "url" not in lex.fields_for("detail") and "description" not in lex.fields_for("list")


def test_news_is_general() -> None:
    lex = load_lexicon("news")
    assert {"title", "content", "published", "author"} <= set(lex.fields)
    assert lex.fields["published"].kind == "datetime"


@pytest.mark.parametrize("name", ["ecommerce", "news"])
def test_round_trip_and_hash(name: str, tmp_path: Path) -> None:
    lex = load_lexicon(name)
    path = tmp_path / f"{name}.yaml"
    path.write_text(dump_lexicon(lex), encoding="utf-8")
    again = load_lexicon(path)
    assert again == lex
    assert again.content_hash() == lex.content_hash()


def test_hash_follows_meaning_not_formatting(tmp_path: Path) -> None:
    original = shipped_templates()["ecommerce"].read_text(encoding="utf-8")
    reformatted = tmp_path / "a.yaml"
    reformatted.write_text("# a comment\n" + original.replace("  id: 15", "  id: 15.0"),
                           encoding="utf-8")
    assert load_lexicon(reformatted).content_hash() == load_lexicon("ecommerce").content_hash()
    changed = tmp_path / "b.yaml"
    changed.write_text(original.replace("prc: 12", "prc: 13"), encoding="utf-8")
    assert load_lexicon(changed).content_hash() != load_lexicon("ecommerce").content_hash()


def test_defaults_apply_to_a_minimal_lexicon() -> None:
    lex = yamlio.model_from_text(Lexicon, "name: tiny\nfields:\n  title: {kind: text, words: {title: 5}}\n",
                                 "tiny.yaml")
    assert lex.attribute_weights["id"] == 15 and lex.list_structures["ul/li"] == 1.0
    assert lex.thresholds.alpha == 0.75 and lex.partial_ratio("title") == 0.5


def test_unknown_template_name() -> None:
    with pytest.raises(RuleError, match="no shipped template named 'shoes'"):
        resolve_template("shoes")
    assert resolve_template("news") == shipped_templates()["news"]


@pytest.mark.parametrize(("pagination", "message"), [
    ("{next: {next: 12}, previous: {next: 8}}", "'next' is both a next and a previous word"),
    ("{next: {»: 0}}", "weights must be > 0"),
    ("{page_params: ['page number']}", "not a query parameter name"),
    ("{nxt: {next: 12}}", "unknown key 'nxt'"),
])
def test_pagination_vocabulary_is_checked(pagination: str, message: str) -> None:
    text = f"name: tiny\npagination: {pagination}\nfields:\n  title: {{kind: text}}\n"
    with pytest.raises(RuleError, match=message):
        yamlio.model_from_text(Lexicon, text, "tiny.yaml")


def _with_thresholds(tmp_path: Path, lines: str) -> Lexicon:
    """The ecommerce template with ``lines`` added to its thresholds."""
    original = shipped_templates()["ecommerce"].read_text(encoding="utf-8")
    path = tmp_path / "tuned.yaml"
    path.write_text(original.replace("thresholds:\n", f"thresholds:\n{lines}", 1), "utf-8")
    return load_lexicon(path)


def test_a_later_threshold_at_its_default_keeps_the_hash(tmp_path: Path) -> None:
    """Rule files record their template's hash: the thresholds added since (category
    checks, confidence calibration, ...) written at their defaults leave it as it was,
    so a rule file learned before still matches; a changed value changes it."""
    shipped = load_lexicon("ecommerce").content_hash()
    same = _with_thresholds(tmp_path, "  verify_rounds: 2\n  agrees: 0.95\n  trail_links: 12\n")
    assert same.thresholds.verify_rounds == 2 and same.content_hash() == shipped
    assert _with_thresholds(tmp_path, "  verify_rounds: 1\n").content_hash() != shipped
    assert _with_thresholds(tmp_path, "  agrees: 0.9\n").content_hash() != shipped


@pytest.mark.parametrize(("lines", "message"), [
    ("  agrees: 1.5\n", "thresholds.agrees"),
    ("  verify_rounds: -1\n", "thresholds.verify_rounds"),
    ("  min_checks: 5\n  full_checks: 4\n", "full_checks \\(4\\) is below min_checks \\(5\\)"),
])
def test_thresholds_are_checked(tmp_path: Path, lines: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        _with_thresholds(tmp_path, lines)


def test_a_flag_left_at_its_default_keeps_the_hash(tmp_path: Path) -> None:
    """``prose`` (a field's value is running text) joined the lexicon after rule files
    recorded its hash: written ``false`` (its default) it leaves the hash as it was; set,
    it changes it."""
    original = shipped_templates()["news"].read_text(encoding="utf-8")
    assert "prose:" not in original
    shipped = load_lexicon("news").content_hash()
    for flag, same in (("false", True), ("true", False)):
        path = tmp_path / f"{flag}.yaml"
        path.write_text(original.replace("  content:\n", f"  content:\n    prose: {flag}\n"),
                        encoding="utf-8")
        lexicon = load_lexicon(path)
        assert lexicon.fields["content"].prose is (flag == "true")
        assert (lexicon.content_hash() == shipped) is same


def test_fields_are_found_by_what_they_are_not_their_names() -> None:
    """The price, the old price, the name and the stock field by kind and flags: renamed,
    a lexicon's fields read the same (here the phrases of products not for sale)."""
    from structurer.page.lists import unsold_phrases

    lex = load_lexicon("ecommerce")
    assert lex.spec_of("money", struck=False) is lex.fields["price"]
    assert lex.spec_of("money", struck=True) is lex.fields["original_price"]
    assert lex.spec_of("text", title=True) is lex.fields["name"]
    assert lex.spec_of("availability") is lex.fields["availability"]
    assert load_lexicon("news").spec_of("money") is None
    renamed = lex.model_copy(update={"fields": {
        ("stock" if k == "availability" else k): v for k, v in lex.fields.items()}})
    assert unsold_phrases(renamed) == unsold_phrases(lex) != ()
