"""Settings layers: default < file < rule file < command line."""

from pathlib import Path

import pytest

from structurer.config import Settings
from structurer.errors import RuleValidationError


def test_layers_override_in_order(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("delay: 1.5\nconcurrency: 3\n")
    settings = Settings.layered(Settings.from_file(path), {"concurrency": 5, "delay": None},
                                {"timeout": 4})
    assert (settings.delay, settings.concurrency, settings.timeout) == (1.5, 5, 4)
    assert settings.obey_robots and "structurer/" in settings.user_agent


def test_bad_settings_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("delay: 1.5\nconcurency: 3\n")
    with pytest.raises(RuleValidationError, match=r"settings.yaml:2: concurency: unknown key"):
        Settings.from_file(path)


def test_chromium_path_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRUCTURER_CHROMIUM", "/opt/chrome/chrome")
    assert Settings().chromium_path == "/opt/chrome/chrome"
