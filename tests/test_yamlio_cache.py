"""The cache of parsed YAML (structurer.yamlio): a text parsed once is read back as JSON,
without PyYAML, the same value; only what JSON gives back exactly is kept; an entry
that is damaged, out of bounds or for another text is never used; errors are never
kept; a folder that cannot be written is no error."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from structurer import yamlio
from structurer.errors import RuleValidationError

TEXT = "name: shop\nweights: {id: 15.0, class: 10}\nwords: [a, b]\nflag: true\nnone: ~\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder / "structurer" / "yaml"


def test_a_text_parsed_once_is_read_back_without_pyyaml(cache: Path, tmp_path: Path) -> None:
    first = yamlio.parse(TEXT, "shop.yaml")
    [entry] = cache.glob("*.json")
    assert entry == yamlio.cache_entry(TEXT)
    code = ("import sys\nfrom structurer import yamlio\n"
            f"print(repr(yamlio.parse({TEXT!r}, 'shop.yaml')), 'yaml' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=dict(os.environ), timeout=60)
    assert done.stdout.strip() == f"{first!r} False"
    assert first == {"name": "shop", "weights": {"id": 15.0, "class": 10},
                     "words": ["a", "b"], "flag": True, "none": None}
    again = yamlio.parse(TEXT, "shop.yaml")
    assert again == first and [type(v) for v in again["weights"].values()] == [float, int]


@pytest.mark.parametrize("text", ["when: 2024-03-05\n", "1: one\n", "s: !!set {a: null}\n",
                                  "big: .inf\n", "b: !!binary aGk=\n"])
def test_values_json_would_change_are_not_kept(cache: Path, text: str) -> None:
    value = yamlio.parse(text, "x.yaml")
    assert not list(cache.glob("*.json"))
    assert yamlio.parse(text, "x.yaml") == value
    if text.startswith("when"):
        assert value == {"when": datetime.date(2024, 3, 5)}


def test_an_edited_text_is_parsed_anew(cache: Path) -> None:
    assert yamlio.parse("a: 1\n", "f.yaml") == {"a": 1}
    assert yamlio.parse("a: 2\n", "f.yaml") == {"a": 2}
    assert len(list(cache.glob("*.json"))) == 2


def test_the_oldest_parses_go_beyond_the_cap(cache: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "CACHE_ENTRIES", 3)
    for n in range(5):
        yamlio.parse(f"a: {n}\n", "f.yaml")
        entry = yamlio.cache_entry(f"a: {n}\n")
        assert entry is not None
        os.utime(entry, (1_000_000 + n, 1_000_000 + n))  # one second apart, in order
    kept = {path.name for path in cache.glob("*.json")}
    assert kept == {yamlio.cache_entry(f"a: {n}\n").name for n in (2, 3, 4)}  # type: ignore[union-attr]


@pytest.mark.parametrize("kept", ["{not json", '{"a": 1', "[1, 2]x",
                                  "[" * 70 + "]" * 70, '{"a": ' * 3000 + "1" + "}" * 3000])
def test_a_damaged_or_deep_entry_is_not_used(cache: Path, kept: str) -> None:
    entry = yamlio.cache_entry(TEXT)
    assert entry is not None
    entry.parent.mkdir(parents=True)
    entry.write_text(kept)
    assert yamlio.parse(TEXT, "shop.yaml")["name"] == "shop"
    assert json.loads(entry.read_text())["name"] == "shop"   # written again, whole


def test_problems_are_never_kept(cache: Path) -> None:
    for _ in range(2):
        with pytest.raises(RuleValidationError) as error:
            yamlio.parse("a: 1\na: 2\n", "dup.yaml")
        assert "duplicate key 'a'" in str(error.value) and error.value.line == 2
    assert not list(cache.glob("*.json"))


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert yamlio.parse(TEXT, "shop.yaml")["words"] == ["a", "b"]


def test_no_home_means_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never a relative folder (the working directory) for want of a home."""
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)
    assert yamlio.cache_entry(TEXT) is None
    assert yamlio.parse(TEXT, "shop.yaml")["flag"] is True
