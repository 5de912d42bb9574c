"""Settings layers: default < file < rule file < command line."""

from pathlib import Path

import pytest
from pydantic import ValidationError

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


def test_chromium_path_is_found_not_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings name a Chromium only when told to; finding one is fetch.chromium's job."""
    monkeypatch.setenv("STRUCTURER_CHROMIUM", "/opt/chrome/chrome")
    assert Settings().chromium_path is None
    assert Settings(chromium_path="/opt/c").chromium_path == "/opt/c"


@pytest.mark.parametrize("key", ["delay", "timeout", "browser_timeout"])
@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1e9, "inf"])
def test_times_are_finite_and_bounded(key: str, value: float | str) -> None:
    """``--delay inf`` used to hang a crawl for ever."""
    with pytest.raises(ValidationError):
        Settings.layered({key: value})
    assert getattr(Settings.layered({key: 600}), key) == 600


def test_an_infinite_delay_on_the_command_line_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from structurer.cli import main
    from tests.conftest import FIXTURES

    code = main(["crawl", str(FIXTURES / "shop.yaml"), "--out", str(tmp_path / "out.jsonl"),
                 "--delay", "inf"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "delay" in err and "Traceback" not in err
    assert not (tmp_path / "out.jsonl").exists()
