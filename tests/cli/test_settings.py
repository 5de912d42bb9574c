"""Settings on the command line: default < ``--settings FILE`` < ``-s KEY=VALUE`` < the
command's own options, and a bad key or value is one line, exit 2."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from structurer.cli import main
from structurer.cli.main import build_parser
from structurer.cli.options import settings_from
from structurer.errors import StructurerError
from tests.server import LoopbackServer, page


def _args(*argv: str) -> argparse.Namespace:
    return build_parser("crawl").parse_args(["crawl", "r.yaml", "--out", "o.jsonl", *argv])


def test_layers_apply_in_order(tmp_path: Path) -> None:
    file = tmp_path / "settings.yaml"
    file.write_text("delay: 1.0\ntimeout: 7\nobey_robots: true\n")
    args = _args("--settings", str(file), "-s", "delay=2.5", "-s", "obey_robots=false")
    settings = settings_from(args, {"delay": None, "concurrency": 3})
    assert (settings.timeout, settings.delay, settings.obey_robots, settings.concurrency) == (
        7.0, 2.5, False, 3)                      # file, then -s, flags where given
    assert settings_from(args, {"delay": 0.25}).delay == 0.25


@pytest.mark.parametrize(("argv", "expected"), [
    (["-s", "delay=inf"], "structurer: error: -s delay: Input should be a finite number"),
    (["-s", "dealy=1"], "structurer: error: -s dealy: unknown setting (did you mean 'delay'?)"),
    (["-s", "delay"], "argument -s/--set: 'delay' is not KEY=VALUE"),
    (["--settings", "missing.yaml"], "missing.yaml"),
], ids=["inf", "unknown", "no-value", "missing-file"])
def test_bad_settings_are_one_line(argv: list[str], expected: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "r.yaml"
    rules.write_text("not a rule file")
    assert main(["crawl", str(rules), "--out", str(tmp_path / "o.jsonl"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and expected in err and "Traceback" not in err


def test_a_settings_file_with_a_bad_key_names_the_file(tmp_path: Path) -> None:
    file = tmp_path / "settings.yaml"
    file.write_text("delay: 1\nuser_agnet: me\n")
    with pytest.raises(StructurerError, match=r"settings.yaml:2: user_agnet: unknown key"):
        settings_from(_args("--settings", str(file)))


ANVIL = "<html><head><title>Anvil</title></head><body><h1>Anvil</h1></body></html>"


@pytest.fixture
def anvil() -> Iterator[LoopbackServer]:
    """One product page at every path (no robots.txt), the requests' headers recorded."""
    with LoopbackServer({"/robots.txt": page(ANVIL, status=404)}, fallback=page(ANVIL)) as srv:
        yield srv


def test_extract_page_fetches_with_the_settings_given(anvil: LoopbackServer, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    base = anvil.base
    file = tmp_path / "settings.yaml"
    file.write_text("user_agent: from-the-file/1\n")
    assert main(["extract-page", base + "/p/anvil", "--settings", str(file),
                 "-s", "user_agent=from-the-command-line/2"]) == 0
    agents = [hit.headers.get("User-Agent", "") for hit in anvil.hits]
    assert agents and set(agents) == {"from-the-command-line/2"}
    assert f'"url": "{base}/p/anvil"' in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "expected"), [
    ([], "auto"),
    (["-s", "render=static"], "static"),
    (["-s", "render=static", "--render", "browser"], "browser"),
], ids=["default", "setting", "option-wins"])
def test_analyze_render_option_overrides_only_when_given(argv: list[str], expected: str) -> None:
    """``--render`` is the command's own option: given, it wins; not given, the settings'
    ``render`` (a file or ``-s``) stands, and only then the default, ``auto``."""
    from structurer.cli.analyze import _settings
    from structurer.schema import RenderMode

    for command in ("analyze", "analyze-many"):
        target = "http://shop.test/" if command == "analyze" else "urls.txt"
        args = build_parser(command).parse_args([command, target, *argv])
        assert _settings(args).render == RenderMode(expected) == expected
