"""The README's examples are real: its YAML examples validate, its commands exist."""

from __future__ import annotations

import re
from pathlib import Path

from structurer import yamlio
from structurer.cli import build_parser
from structurer.lexicon import Lexicon
from structurer.rules import rules_from_text

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_rule_file_example_validates() -> None:
    examples = [b for b in _blocks("yaml") if "schema_version" in b]
    assert examples
    for text in examples:
        rules = rules_from_text(text, "README.md")
        assert rules.levels.list is not None


def test_lexicon_example_validates() -> None:
    fragments = [b for b in _blocks("yaml") if b.startswith("fields:")]
    assert fragments
    for text in fragments:
        yamlio.model_from_text(Lexicon, "name: readme\n" + text, "README.md")


def test_quick_start_is_two_make_targets() -> None:
    quick = README.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [line.split("#")[0].strip() for line in _blocks("sh")[0].splitlines()]
    assert commands == ["make demo", "make test"]
    assert "make test" in (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
    assert "make demo" in quick


def test_usage_commands_exist() -> None:
    parser = build_parser()
    for line in _blocks("sh")[1].splitlines():
        if line.startswith("structurer ") and "--help" not in line:
            args = line.split("#")[0].split()[1:]
            args = [a for a in args if not a.startswith("[")]
            concrete = [a.replace("SHOP", "outfitters") for a in args if "..." not in a]
            parser.parse_args(concrete)
