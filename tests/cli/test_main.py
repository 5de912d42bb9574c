"""The command line: help (with defaults), version, demo commands, and every bad option
value as one line with exit 2."""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from structurer import __version__
from structurer.cli import build_parser, main
from structurer.cli.startup import finished, loading
from structurer.demo import SHOP_CLASSES
from tests.conftest import FIXTURES


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



def test_version_and_help_load_no_file_models() -> None:
    """--version and --help list every command and mode without building a pydantic model
    or reading YAML: the command line starts like a small tool (bench_startup.py)."""
    code = ("import sys; from structurer.cli import main\n"
            "for argv in (['--version'], ['--help'], ['analyze', '--help']):\n"
            "    try: main(argv)\n"
            "    except SystemExit: pass\n"
            "print(sorted(m for m in ('pydantic', 'yaml', 'lxml') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"

def test_extract_page_on_a_saved_page_loads_only_what_it_reads(tmp_path: Path) -> None:
    """extract-page's start (bench_startup.py): with its lexicons parsed before (the YAML
    cache), it loads no PyYAML; a saved page loads no fetcher, nor the settings model; the
    parser no shutil (argparse's formatter imports it for the terminal's width); an
    article's kind no link clusters nor repeated regions."""
    page = tmp_path / "page.html"
    paragraphs = "".join(f"<p>The river rose for the {n} time this spring, and the people "
                         f"of the valley moved their boats, goods and animals uphill again "
                         f"while the council met to talk about the new dam ({n}).</p>"
                         for n in ("first", "second", "third", "fourth", "fifth", "sixth"))
    page.write_text("<html><head><title>The river rose again - Valley News</title></head>"
                    "<body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article>"
                    f"<h1>The river rose again</h1>{paragraphs}</article></body></html>")
    code = ("import sys, io, contextlib; from structurer.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['extract-page', {str(page)!r}, '--template', 'news'])\n"
            "print(sorted(m for m in ('yaml', 'structurer.config', 'structurer.fetch.base',"
            " 'structurer.fetch.replay', 'shutil', 'structurer.page.linkclusters',"
            " 'structurer.page.lists') if m in sys.modules))")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, timeout=120, env=env).stdout.strip() for _ in range(2)]
    assert runs[0] == "['yaml']"   # the first parses the lexicons, and keeps them
    assert runs[1] == "[]"


@pytest.mark.parametrize("columns", [None, "", "junk", "0", "-3", "57", "200"])
def test_help_is_as_wide_as_shutil_says(monkeypatch: pytest.MonkeyPatch,
                                        columns: str | None) -> None:
    import shutil

    from structurer.cli.main import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
    if columns == "57":
        assert max(map(len, build_parser("analyze").format_help().splitlines())) <= 55


@pytest.mark.parametrize(("setting", "loaded"), [(None, False), ("", True)])
def test_the_command_line_loads_no_pydantic_plugin(tmp_path: Path, setting: str | None,
                                                   loaded: bool) -> None:
    """pydantic's plugin search reads every installed package's metadata before the first
    model: the command line skips it, unless PYDANTIC_DISABLE_PLUGINS says otherwise."""
    info = tmp_path / "fakeplugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nfake = fakeplugin:plugin\n")
    marker = tmp_path / "loaded"
    (tmp_path / "fakeplugin.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "class _Plugin:\n"
        "    def new_schema_validator(self, *args, **kwargs):\n"
        "        return None, None, None\n"
        "plugin = _Plugin()\n")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    if setting is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = setting
    done = subprocess.run([sys.executable, "-m", "structurer", "validate",
                           str(FIXTURES / "shop.yaml")],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert marker.exists() is loaded


def test_no_plugin_means_no_package_metadata_import() -> None:
    """With every plugin off, pydantic's loader module (which imports importlib.metadata,
    a fifteenth of `extract-page`) is not imported; a name of it other than get_plugins
    loads the real one."""
    code = ("import sys\nfrom structurer.cli import main\n"
            f"main(['validate', {str(FIXTURES / 'shop.yaml')!r}])\n"
            "print('importlib.metadata' in sys.modules)\n"
            "from pydantic.plugin import _loader\n"
            "print(_loader.PYDANTIC_ENTRY_POINT_GROUP, 'importlib.metadata' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=env, check=True)
    assert done.stdout.strip().splitlines()[-2:] == ["False", "pydantic True"]


def test_a_short_command_loads_without_collecting() -> None:
    """Loading allocates much and frees nothing (collecting then was a twentieth of
    `extract-page`): no collection while a command loads; what it loaded is set aside,
    and the collector runs for the work after."""
    runs: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        runs.extend([info["generation"]] if phase == "start" else [])

    gc.callbacks.append(count)
    try:
        with loading():
            loaded = [[i] for i in range(20_000)]   # many collections' worth of objects
            assert not gc.isenabled() and not runs
        assert gc.isenabled() and gc.get_freeze_count() >= len(loaded)
        garbage = [[i] for i in range(20_000)]
        assert runs and garbage
    finally:
        gc.callbacks.remove(count)
        finished()
    assert gc.get_freeze_count() == 0


def test_the_command_line_leaves_nothing_set_aside(capsys: pytest.CaptureFixture[str]) -> None:
    """After `main`, every object is under the collector again (a caller in the same
    process, like this test, keeps collecting what the command loaded)."""
    assert main(["validate", str(FIXTURES / "shop.yaml")]) == 0
    assert main(["extract-page", str(FIXTURES / "nosuch.html")]) == 2
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert "ok (rule file)" in capsys.readouterr().out


def test_objects_the_caller_set_aside_stay_set_aside() -> None:
    """A process that froze its own objects (before forking workers, say) keeps them
    frozen through `main`."""
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert main(["validate", str(FIXTURES / "shop.yaml")]) == 0
        # unfreezing would leave none; a frozen object that died meanwhile leaves the count
        assert gc.get_freeze_count() >= frozen - 100 and gc.isenabled()
    finally:
        gc.unfreeze()


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


# (arguments, what the one line must say); {rules}, {page} and {urls} are filled in
BAD_VALUES = [
    (["analyze", "http://127.0.0.1:9/", "--max-pages", "2"],
     "analyze: argument --max-pages: must be at least 3 (got 2)"),
    (["analyze", "http://127.0.0.1:9/", "--max-pages", "-1"], "must be at least 3 (got -1)"),
    (["analyze", "http://127.0.0.1:9/", "--max-pages", "0"], "must be at least 3 (got 0)"),
    (["analyze", "http://127.0.0.1:9/", "--max-pages", "many"], "'many' is not a whole number"),
    (["analyze", "shop.example"], "'shop.example' is not an absolute http(s) URL (did you mean "
                                  "'http://shop.example'?)"),
    (["analyze", "http://127.0.0.1:99999/"], "ports go from 1 to 65535"),
    (["analyze", "http://[::1/"], "is not a valid URL"),
    (["analyze", "--pages", "{page}", "{page}", "--level", "list", "--base-url", "x"],
     "argument --base-url: 'x' is not an absolute http(s) URL"),
    (["analyze", "--level", "list", "--pages", "{page}"], "needs at least 2 sample pages"),
    (["analyze-many", "{urls}", "--timeout", "nan"], "must be a finite number above 0 (got nan)"),
    (["analyze-many", "{urls}", "--timeout", "inf"], "must be a finite number above 0 (got inf)"),
    (["analyze-many", "{urls}", "--timeout", "0"], "must be a finite number above 0 (got 0)"),
    (["analyze-many", "{urls}", "-j", "0"], "argument -j/--jobs: must be at least 1 (got 0)"),
    (["analyze-many", "{urls}", "--max-pages", "1"], "must be at least 3 (got 1)"),
    (["extract", "{rules}", "{page}", "--base-url", "shop.example"],
     "argument --base-url: 'shop.example' is not an absolute http(s) URL"),
    (["extract", "{rules}", "{page}", "--level", "page"], "argument --level: invalid choice"),
    (["extract-page", "{page}", "--base-url", "ftp://x/"], "'ftp://x/' is not an absolute"),
    (["demo", "serve", "--port", "70000"], "argument --port: must be a port from 1 to 65535"),
    (["demo", "serve", "--port", "-5"], "must be a port from 1 to 65535, or 0 for any free one"),
    (["demo", "serve", "kumo", "outfitters", "--port", "65535"],
     "--port 65535: 2 sites need the ports 65535 to 65536, past 65535"),
    (["demo", "truth", "kumo", "--base-url", "foo"], "argument --base-url: 'foo' is not an"),
    (["analyze", "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    (["nosuchcommand"], "argument COMMAND: invalid choice: 'nosuchcommand'"),
]


@pytest.mark.parametrize(("args", "expected"), BAD_VALUES,
                         ids=[" ".join(a).replace("{", "").replace("}", "") for a, _ in BAD_VALUES])
def test_bad_values_are_one_line_and_exit_2(args: list[str], expected: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body><h1>x</h1></body></html>")
    urls = tmp_path / "urls.txt"
    urls.write_text("http://127.0.0.1:9/\n")
    fill = {"{rules}": str(FIXTURES / "kumo.yaml"), "{page}": str(page), "{urls}": str(urls)}
    assert main([fill.get(a, a) for a in args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("structurer: error: "), err
    assert expected in err, err


def test_usage_errors_through_the_command(tmp_path: Path) -> None:
    done = run("demo", "serve", "--port", "70000")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("structurer: error: demo serve: argument --port:")
    assert done.stderr.count("\n") == 1


def _options(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for where, option in _options(sub):
                    yield f"{name} {where}".strip(), option
        else:
            yield "", action


def test_help_shows_every_default() -> None:
    """Every option with a default value says it in its help (and every option has help)."""
    missing = []
    for command, action in _options(build_parser()):
        if not action.option_strings or action.default in (None, False, argparse.SUPPRESS):
            continue
        if not action.help or "default" not in action.help:
            missing.append(f"{command} {action.option_strings[-1]}")
    assert not missing, missing
    done = run("analyze", "--help")
    assert "(default: site_rules)" in done.stdout and "(default: auto)" in done.stdout


def test_interrupted_says_what_became_of_the_work(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import structurer.api

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(structurer.api, "analyze_site", interrupted)
    assert main(["analyze", "http://127.0.0.1:9/"]) == 130
    assert capsys.readouterr().err == \
        "structurer: error: interrupted; no rule file was written\n"


def test_file_system_errors_are_one_line(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A rule file written where a file stands in the way of the directory."""
    blocker = tmp_path / "blocker"
    blocker.write_text("not a directory")
    page = tmp_path / "a.html"
    page.write_text("<html><body><h1>Tea pot</h1><span class='price'>$5</span></body></html>")
    assert main(["analyze", "--level", "detail", "--pages", str(page), str(page),
                 "--out", str(blocker / "rules")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(blocker) in err and "Traceback" not in err


def test_demo_server_refuses_ports_out_of_range() -> None:
    from structurer.demo import DemoServer, get_shop

    with pytest.raises(ValueError, match=r"port 70000 for 'kumo' is not within 0\.\.65535"):
        DemoServer([get_shop("kumo")], ports={"kumo": 70000})
