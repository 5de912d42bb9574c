"""`structurer analyze-many`: every good shop gets its rule file, every bad one a line.

The end-to-end test analyzes all demo shops (auto render: pixel and maple need the
browser) plus an unreachable URL and a line that is no URL, two shops at a time.
The process handling (a crashed or hung analysis process) is tested with stand-in
workers, which take a second instead of a browser's analysis.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from structurer.api import ShopResult, ShopTask, analyze_many, read_url_file
from structurer.config import Settings
from structurer.errors import StructurerError
from structurer.learn.batch import analyze_one
from structurer.rules import load_rules
from tests.server import closed_port


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "structurer", "analyze-many", *args],
                          capture_output=True, text=True, timeout=600)


def test_all_demo_shops_and_an_unreachable_one(demo_server: Any, tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/"
    urls = tmp_path / "urls.txt"
    shops = list(demo_server.urls.items())
    urls.write_text("# the demo shops\n" + "".join(f"{url}/\n" for _, url in shops)
                    + f"\n{dead}\nshop.example.com/no-scheme\n", encoding="utf-8")
    out = tmp_path / "rules"
    done = run_cli(str(urls), "-j", "2", "--out", str(out))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout

    for name, base in shops:
        path = out / f"127.0.0.1_{base.rsplit(':', 1)[1]}.yaml"
        rules = load_rules(path)
        assert rules.start_url == base + "/"
        assert rules.levels.list is not None and rules.levels.list.fields, name
        assert {"name", "price"} <= set(rules.levels.list.fields), name
        assert rules.levels.detail is not None and "name" in rules.levels.detail.fields, name
        shop = demo_server.shops[name]
        for level in ("list", "detail"):   # the render mode each shop really needs
            assert getattr(rules.levels, level).render.mode == shop.render[level], (name, level)
        assert f"{path} (" in done.stderr   # its progress line names the rule file
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"127.0.0.1_{base.rsplit(':', 1)[1]}.yaml" for _, base in shops)

    failed = [line for line in done.stderr.splitlines() if " failed " in line]
    assert len(failed) == 2, done.stderr
    [unreachable] = [line for line in failed if dead in line]
    assert f"{urls}:{len(shops) + 3}: {dead}: connection refused" in unreachable
    [not_url] = [line for line in failed if "no-scheme" in line]
    assert f"{urls}:{len(shops) + 4}: 'shop.example.com/no-scheme': not an http(s) URL" in not_url
    assert f"analyze-many: {len(shops)} of {len(shops) + 2} shops ok" in done.stdout
    assert f"{len(shops)} of {len(shops) + 2} shops analyzed" in done.stdout


@pytest.mark.parametrize(("content", "words"), [
    (None, ["cannot read URLs file", "No such file"]),
    ("# only a comment\n\n", ["no http(s) URL in the file"]),
    ("ftp://example.com/\nexample.com\n", ["no http(s) URL in the file", "2 bad lines",
                                           "urls.txt:1"]),
    (b"\xff\xfe\xfa not utf-8\n", ["cannot read URLs file"]),
], ids=["missing", "no-urls", "only-bad-lines", "not-utf8"])
def test_bad_urls_file_is_one_line_and_exit_2(tmp_path: Path, content: str | bytes | None,
                                               words: list[str]) -> None:
    urls = tmp_path / "urls.txt"
    if isinstance(content, bytes):
        urls.write_bytes(content)
    elif content is not None:
        urls.write_text(content)
    done = run_cli(str(urls), "--out", str(tmp_path / "rules"))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"structurer: error: {urls}: "), done.stderr
    for word in words:
        assert word in lines[0]
    assert not (tmp_path / "rules").exists()


def test_bad_options_are_exit_2(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("http://127.0.0.1:9/\n")
    for args, word in ((["-j", "0"], "-j/--jobs"), (["--max-pages", "1"], "--max-pages"),
                       (["--template", "nosuch"], "no shipped template named 'nosuch'")):
        done = run_cli(str(urls), "--out", str(tmp_path / "rules"), *args)
        assert done.returncode == 2, args
        assert len(done.stderr.strip().splitlines()) == 1 and word in done.stderr, done.stderr


def test_url_file_lines(tmp_path: Path) -> None:
    urls = tmp_path / "shops.txt"
    urls.write_text("\ufeff# comment\n\n  https://a.example/  # the first\n"
                    "http://b.example:8080/start?x=1#top\nmailto:x@example.com\n"
                    "https://a.example/other\nhttp://c.example/ trailing words\n"
                    "http://d.example:99999/\n",
                    encoding="utf-8")
    tasks, bad = read_url_file(urls)
    assert tasks == [ShopTask("https://a.example/", f"{urls}:3"),
                     ShopTask("http://b.example:8080/start?x=1#top", f"{urls}:4")]
    assert [r.line() for r in bad] == [
        f"{urls}:5: 'mailto:x@example.com': not an http(s) URL",
        f"{urls}:6: https://a.example/other: same site as {urls}:3 (one rule file per site)",
        f"{urls}:7: 'http://c.example/ trailing words': not an http(s) URL",
        f"{urls}:8: http://d.example:99999/: not an http(s) URL",
    ]
    assert not any(r.ok for r in bad)


# ----- process handling, with stand-in workers --------------------------------------------
def fake_worker(task: ShopTask, out: Path, template: Any, settings: Settings,
                progress: Any) -> ShopResult:
    """Module level, so the child process can import it: crash, hang or succeed by URL."""
    progress(f"looking at {task.url}")
    if "crash" in task.url:
        os._exit(3)
    if "kill" in task.url:
        os.kill(os.getpid(), 9)
    if "hang" in task.url:
        child = subprocess.Popen(["sleep", "120"])   # like a browser the worker started
        (out / "grandchild.pid").write_text(str(child.pid))
        time.sleep(120)
    path = out / f"{task.url.split('/')[2]}.yaml"
    path.write_text("written\n")
    return ShopResult(task, ok=True, path=path, seconds=0.1, list_fields={"name": 0.9})


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_crash_and_hang_fail_only_their_shop(tmp_path: Path) -> None:
    urls = ["http://ok1.example/", "http://crash.example/", "http://kill.example/",
            "http://hang.example/", "http://ok2.example/"]
    seen: list[tuple[str, str]] = []
    started = time.monotonic()
    results = analyze_many(urls, tmp_path, None, Settings(), jobs=2, timeout=4,
                           worker=fake_worker,
                           on_progress=lambda task, text: seen.append((task.url, text)),
                           on_done=lambda r: seen.append((r.task.url, "done")))
    assert time.monotonic() - started < 60
    assert [r.task.url for r in results] == urls
    assert [r.ok for r in results] == [True, False, False, False, True]
    assert results[1].reason == "analysis process died (exit code 3)"
    assert results[2].reason == "analysis process died (signal SIGKILL)"
    assert results[3].reason == "gave up after 4 s" and results[3].seconds >= 4
    assert (tmp_path / "ok1.example.yaml").is_file() and (tmp_path / "ok2.example.yaml").is_file()
    assert results[0].list_fields == {"name": 0.9}
    grandchild = int((tmp_path / "grandchild.pid").read_text())
    deadline = time.monotonic() + 5
    while _running(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(grandchild), "a timed-out shop's whole process group is ended"
    for url in urls:
        assert (url, f"looking at {url}") in seen and (url, "done") in seen


def test_an_unexpected_error_is_a_result(tmp_path: Path) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("price\nsecond line")

    result = analyze_one(ShopTask("http://a.example/", "u.txt:1"), tmp_path, None, Settings(),
                         lambda text: None, analyze=boom)
    assert not result.ok and result.path is None
    assert result.line() == "u.txt:1: http://a.example/: unexpected ValueError: price second line"
    assert not list(tmp_path.iterdir())


def test_jobs_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(StructurerError, match="at least 1"):
        analyze_many(["http://a.example/"], tmp_path, jobs=0)


def test_an_incomplete_rule_file_is_said_and_exits_1(demo_server: Any, tmp_path: Path) -> None:
    """Too few pages to reach a product page: the rule file is written, but the shop's
    line and row say what it lacks, and the batch exits 1 (it fell short)."""
    urls = tmp_path / "urls.txt"
    urls.write_text(demo_server.urls["kumo"] + "/\n")
    done = run_cli(str(urls), "--out", str(tmp_path / "rules"),
                   "--max-pages", "12", "--render", "static", "-j", "1")
    assert done.returncode == 1, done.stderr
    assert "(incomplete: no detail level" in done.stderr
    assert "incomplete" in done.stdout and "--max-pages 12" in done.stdout
    [path] = (tmp_path / "rules").glob("*.yaml")
    assert load_rules(path).levels.detail is None
