"""The command line: help, version, demo commands and honest 'not yet' messages."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from structurer import __version__
from structurer.cli import main
from structurer.demo import SHOP_CLASSES


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "structurer", *args], capture_output=True,
                          text=True, timeout=120)


def test_version_and_help() -> None:
    assert run("--version").stdout.strip() == f"structurer {__version__}"
    done = run("--help")
    assert done.returncode == 0
    for command in ("validate", "demo", "analyze", "crawl", "extract"):
        assert command in done.stdout
    assert run().returncode == 2


def test_demo_list_names_every_shop(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "list"]) == 0
    out = capsys.readouterr().out
    for name in SHOP_CLASSES:
        assert name in out


def test_demo_truth_is_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "truth", "outfitters", "--base-url", "http://127.0.0.1:9"]) == 0
    truth = json.loads(capsys.readouterr().out)
    assert truth["shop"] == "outfitters"
    assert truth["products"][0]["url"].startswith("http://127.0.0.1:9/")


def test_unknown_demo_shop_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "truth", "nosuchshop"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "unknown demo shop 'nosuchshop'" in err


def test_templates_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["templates"]) == 0
    out = capsys.readouterr().out
    assert "ecommerce" in out and "sha256:" in out
