"""RenderMode, spelled once: settings may say ``auto``, a rule file's level says ``static``
or ``browser``, and YAML and JSON hold the plain words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from structurer.config import Settings
from structurer.errors import RuleValidationError
from structurer.rules import dump_rules, load_rules, rules_from_text
from structurer.schema import RenderMode

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rules"
LIST_RENDER = "    render: {mode: static, decided_by: auto, threshold: 0.8}\n"


def test_the_modes_are_their_words() -> None:
    assert [m.value for m in RenderMode] == ["auto", "static", "browser"]
    assert RenderMode.BROWSER == "browser" and f"{RenderMode.STATIC}" == "static"


@pytest.mark.parametrize("word", ["auto", "static", "browser"])
def test_settings_take_every_mode(word: str) -> None:
    settings = Settings.layered({"render": word})
    assert settings.render is RenderMode(word)
    assert settings.model_dump(mode="json")["render"] == word


def test_settings_refuse_another_word() -> None:
    with pytest.raises(ValueError, match="Input should be 'auto', 'static' or 'browser'"):
        Settings.layered({"render": "headless"})
    assert Settings().render is RenderMode.AUTO


def _shop(list_render: str) -> str:
    text = (FIXTURES / "shop.yaml").read_text(encoding="utf-8")
    assert text.count(LIST_RENDER) == 1
    return text.replace(LIST_RENDER, list_render)


def test_a_rule_file_level_is_static_or_browser_never_auto() -> None:
    rules = rules_from_text(_shop("    render: {mode: browser, decided_by: override}\n"))
    assert rules.levels.list is not None and rules.levels.category is not None
    assert rules.levels.list.render.mode is RenderMode.BROWSER
    assert rules.levels.category.render.mode is RenderMode.STATIC
    with pytest.raises(RuleValidationError) as info:
        rules_from_text(_shop("    render: {mode: auto, decided_by: auto}\n"), "r.yaml")
    assert info.value.loc == "levels.list.render.mode"
    assert str(info.value).endswith("Input should be 'static' or 'browser'")


def test_yaml_and_json_hold_the_plain_words() -> None:
    rules = rules_from_text(_shop("    render: {mode: browser, decided_by: override}\n"))
    text = dump_rules(rules)
    assert "mode: browser" in text and "mode: static" in text
    assert "RenderMode" not in text and "!!" not in text
    assert rules_from_text(text) == rules and dump_rules(rules_from_text(text)) == text
    data = json.loads(json.dumps(rules.model_dump(mode="json")))
    assert data["levels"]["list"]["render"]["mode"] == "browser"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.yaml")), ids=lambda p: p.stem)
def test_shared_rule_files_dump_as_they_load(path: Path) -> None:
    rules = load_rules(path)
    text = dump_rules(rules)
    assert dump_rules(rules_from_text(text)) == text
    modes = [line.split(":", 1)[1].strip() for line in text.splitlines()
             if line.strip().startswith("mode:")]
    assert modes and set(modes) <= {"static", "browser"}
