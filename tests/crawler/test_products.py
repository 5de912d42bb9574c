"""A record's keys come from the rule file alone: a worker that cannot read the lexicon
(another machine, an edited template) gives the same records."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from structurer import lexicon as lexicon_module
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.crawler.products import record_columns
from structurer.demo import DemoServer
from structurer.errors import RuleError
from structurer.lexicon import load_lexicon
from structurer.replay import compile_rules
from structurer.replay.records import BASE_COLUMNS, record_columns_for
from structurer.rules import dump_rules, rules_from_text
from structurer.validate import validate_file
from tests.conftest import FIXTURES

RECORD = "record: {columns: [%s]}\n"


def with_record(shop: str, columns: list[str], template: str = "ecommerce") -> str:
    text = (FIXTURES / f"{shop}.yaml").read_text(encoding="utf-8")
    text = text.replace("template: {name: ecommerce,", f"template: {{name: {template},")
    return text.replace("levels:\n", RECORD % ", ".join(columns) + "levels:\n", 1)


def test_the_lexicon_of_a_rule_file_declares_every_template_field() -> None:
    assert record_columns_for(load_lexicon("ecommerce")) == [
        *BASE_COLUMNS, "original_price", "original_price_text", "brand", "breadcrumb",
        "rating", "review_count"]


def test_columns_come_from_the_rule_file_without_the_lexicon(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_lexicon(*args: object, **kwargs: object) -> None:
        raise AssertionError("the crawler read the lexicon")

    monkeypatch.setattr(lexicon_module, "load_lexicon", no_lexicon)
    declared = [*BASE_COLUMNS, "gtin", "review_count"]
    compiled = compile_rules(rules_from_text(with_record("outfitters", declared,
                                                         template="nowhere")))
    # the rules' own fields not declared follow, money fields with their text
    assert record_columns(compiled) == [*declared, "original_price", "original_price_text",
                                        "brand", "rating", "images", "breadcrumb"]


def test_an_older_rule_file_gives_the_contract_and_its_own_fields() -> None:
    rules = rules_from_text((FIXTURES / "outfitters.yaml").read_text(encoding="utf-8"))
    assert rules.record is None
    assert record_columns(compile_rules(rules)) == [
        *BASE_COLUMNS, "original_price", "original_price_text", "brand", "rating",
        "review_count", "images", "breadcrumb"]


def test_record_columns_round_trip_and_validate(tmp_path: Path) -> None:
    text = with_record("outfitters", [*BASE_COLUMNS, "brand"])
    rules = rules_from_text(text)
    assert rules.record is not None and rules.record.columns[-1] == "brand"
    assert rules_from_text(dump_rules(rules)) == rules
    path = tmp_path / "rules.yaml"
    path.write_text(text.replace("description, category", "description, name"), "utf-8")
    report = validate_file(path)
    assert [str(e) for e in report.errors] and "listed twice" in str(report.errors[0])
    with pytest.raises(RuleError, match="must be a field name"):
        rules_from_text(with_record("outfitters", ["url", "price text"]))


def test_a_crawl_writes_the_declared_columns(demo_server: DemoServer, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexicon_module, "load_lexicon", lambda *a, **k: pytest.fail("read"))
    declared = [*BASE_COLUMNS, "brand", "gtin"]
    where = demo_server.urls["outfitters"].removeprefix("http://")
    text = with_record("outfitters", declared, template="nowhere").replace(
        "127.0.0.1:8001", where)
    out = tmp_path / "products.csv"
    crawl_site(rules_from_text(text), out, Settings(max_pages=4))
    with out.open(encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert header[:len(declared)] == declared
