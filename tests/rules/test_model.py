"""Site rule model and YAML round-trip."""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from structurer.errors import RuleValidationError
from structurer.rules import (
    DetailLevel,
    FieldRule,
    SiteRules,
    dump_rules,
    load_rules,
    rules_filename,
    rules_from_text,
    save_rules,
)
from structurer.rules.model import Levels, TemplateRef

FIXTURE = Path(__file__).parents[1] / "fixtures" / "rules" / "shop.yaml"


def test_fixture_loads_with_every_part() -> None:
    rules = load_rules(FIXTURE)
    assert rules.site == "127.0.0.1:8001"
    assert rules.levels.category and rules.levels.category.render.samples[1].similarity == 0.95
    lst = rules.levels.list
    assert lst is not None and lst.pagination and lst.pagination.url_pattern == "?page={page}"
    assert lst.fields["name"].runner_up and lst.fields["name"].runner_up.confidence == 0.62
    assert lst.variants[0].when.startswith("boolean(")
    assert rules.levels.detail and rules.levels.detail.fields["sku"].post == [r"regex:([A-Z]{2}-\d+)"]
    assert rules.levels.detail.fields["description"].samples[0].count("\n") == 1
    assert rules.allowed_hosts == {"127.0.0.1:8001", "cdn.127.0.0.1.nip.invalid"}


def test_round_trip_is_exact_and_stable(tmp_path: Path) -> None:
    rules = load_rules(FIXTURE)
    text = dump_rules(rules)
    again = rules_from_text(text, "dumped.yaml")
    assert again == rules
    assert dump_rules(again) == text, "writing is deterministic"
    path = save_rules(rules, tmp_path / "sub" / "shop.yaml")
    assert load_rules(path) == rules
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")], "no temp files left"


def test_written_file_is_pleasant_to_edit() -> None:
    text = dump_rules(load_rules(FIXTURE))
    assert text.startswith("# structurer site rules for 127.0.0.1:8001")
    keys = [line.split(":")[0] for line in text.splitlines() if line and line[0].isalpha()]
    assert keys == ["schema_version", "site", "start_url", "generated_at", "generator",
                    "template", "hosts", "levels"], "model order, not alphabetical"
    assert "null" not in text and "[]" not in text and "{}" not in text
    assert "description:" in text and "|-" in text, "multi-line samples as literal blocks"
    levels = text.index("  category:"), text.index("  list:"), text.index("  detail:")
    assert list(levels) == sorted(levels)


def test_minimal_rules_in_code_round_trip() -> None:
    rules = SiteRules(
        schema_version=1, site="shop.example", start_url="https://shop.example/",
        generated_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        template=TemplateRef(name="ecommerce", hash="sha256:" + "a" * 16),
        levels=Levels(detail=DetailLevel(fields={"name": FieldRule(xpath="//h1", kind="text")})))
    assert rules_from_text(dump_rules(rules)) == rules


def test_models_are_frozen() -> None:
    rule = FieldRule(xpath="//h1", kind="text")
    with pytest.raises(ValidationError):
        rule.xpath = "//h2"  # type: ignore[misc]


@pytest.mark.parametrize(("url", "name"), [
    ("http://127.0.0.1:8001/", "127.0.0.1_8001.yaml"),
    ("https://Shop.Example.com/start?x=1", "shop.example.com.yaml"),
    ("https://shop.example.com:443/", "shop.example.com.yaml"),
    ("http://shop.example.com:80/", "shop.example.com.yaml"),
    ("http://shop.example.com:8080/", "shop.example.com_8080.yaml"),
], ids=["port", "plain", "https-default", "http-default", "other-port"])
def test_rules_filename(url: str, name: str) -> None:
    assert rules_filename(url) == name


def test_relative_field_xpath_is_enforced() -> None:
    text = FIXTURE.read_text().replace("xpath: .//h2[@class='product-name']/a",
                                       "xpath: //h2[@class='product-name']/a")
    with pytest.raises(RuleValidationError) as info:
        rules_from_text(text, "shop.yaml")
    assert "searches the whole page" in str(info.value)
    assert info.value.loc == "levels.list.fields.name.xpath"
    assert info.value.line == 37


def test_saved_rule_files_respect_the_umask(tmp_path: Path) -> None:
    """Like any file a program writes, not the 0600 of the temporary file it starts as."""
    rules = load_rules(FIXTURE)
    old = os.umask(0o022)
    try:
        assert stat.S_IMODE(save_rules(rules, tmp_path / "a.yaml").stat().st_mode) == 0o644
        os.umask(0o077)
        assert stat.S_IMODE(save_rules(rules, tmp_path / "b.yaml").stat().st_mode) == 0o600
        os.umask(0o002)
        assert stat.S_IMODE(save_rules(rules, tmp_path / "a.yaml").stat().st_mode) == 0o664
    finally:
        os.umask(old)


@pytest.mark.parametrize(("site", "start_url", "hosts", "ok"), [
    ("shop.example", "https://shop.example/", [], True),
    ("www.shop.example", "https://shop.example/", [], True),       # a subdomain either way
    ("shop.example", "https://www.shop.example/start", [], True),
    ("shop.example:8080", "http://shop.example:8080/", [], True),
    ("shop.example", "http://shop.example:80/", [], True),          # the default port
    ("[::1]:8000", "http://[::1]:8000/", [], True),
    ("shop.example", "https://other.example/", ["other.example"], True),
    ("shop.example", "https://other.example/", [], False),
    ("shop.example:8080", "http://shop.example:8081/", [], False),
    ("shop.example", "http://shop.example:8080/", [], False),
    ("ashop.example", "https://shop.example/", [], False),          # not a subdomain
], ids=lambda v: str(v))
def test_start_url_on_the_site(site: str, start_url: str, hosts: list[str], ok: bool) -> None:
    text = FIXTURE.read_text().replace("site: 127.0.0.1:8001", f"site: '{site}'").replace(
        "start_url: http://127.0.0.1:8001/", f"start_url: '{start_url}'").replace(
        "hosts: [cdn.127.0.0.1.nip.invalid]", f"hosts: {hosts!r}")
    if ok:
        assert rules_from_text(text).site == site
    else:
        with pytest.raises(RuleValidationError, match="and the host of start_url"):
            rules_from_text(text)
