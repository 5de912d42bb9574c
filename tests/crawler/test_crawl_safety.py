"""A crawl never loses data: two crawls of one output (or one state) never run together,
Ctrl-C says how to continue and ``--resume`` finishes the job, a full disk ends the crawl
with one line and ``--resume`` then finishes it, a folder that cannot take the crawl's
files is refused before the first request."""

from __future__ import annotations

import json
import os
import resource
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from structurer.cli import main
from tests.conftest import rule_text

PRODUCTS = 60
RULES = rule_text("{site}", """
  category:
    link_xpath: //nav//a
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
      price: {{xpath: "//b[@class='price']", kind: money}}
      description: {{xpath: //p, kind: text}}
""")


class Shop(dict[str, str]):
    """Four categories of 15 products; counts what is asked for; while ``gate`` is
    clear, product pages wait (a crawl that is surely still running)."""

    def __init__(self) -> None:
        nav = "<nav>" + "".join(f'<a href="/c/{c}/">Cat {c}</a>' for c in "abcd") + "</nav>"
        super().__init__({"/": f"<html><body>{nav}</body></html>"})
        for k, c in enumerate("abcd"):
            ids = range(15 * k, 15 * k + 15)
            self[f"/c/{c}/"] = (f"<html><body>{nav}<ul>" + "".join(
                f'<li><a href="/p/{n}.html">Item {n}</a></li>' for n in ids) + "</ul></body></html>")
            for n in ids:
                self[f"/p/{n}.html"] = (f"<html><body><h1>Item {n}</h1><b class='price'>"
                                        f"${n}.50</b><p>{'A sturdy thing. ' * 40}</p></body></html>")
        self.hits: Counter[str] = Counter()
        self.gate = threading.Event()
        self.gate.set()

    def get(self, path: str, default: Any = None) -> Any:  # type: ignore[override]
        self.hits[path] += 1
        if path.startswith("/p/"):
            self.gate.wait(timeout=60)
        return super().get(path, default)


@pytest.fixture
def shop(tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> tuple[Shop, Path]:
    pages = Shop()
    site = tiny_site(pages).split("//")[1]
    rules = tmp_path / "shop.yaml"
    rules.write_text(RULES.format(site=site))
    return pages, rules


def _command(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "structurer", "crawl", *map(str, args)]


def _names(path: Path) -> list[str]:
    return sorted(json.loads(line)["name"] for line in path.read_text().splitlines())


ALL = sorted(f"Item {n}" for n in range(PRODUCTS))


def _wait_for(condition: Callable[[], bool], process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_two_crawls_of_one_output_never_run_together(shop: tuple[Shop, Path],
                                                     tmp_path: Path) -> None:
    pages, rules = shop
    out = tmp_path / "o.jsonl"
    slow = ["--delay", "0.05"]
    # started at the same instant: one of them crawls, the other is refused
    both = [subprocess.Popen(_command(rules, "--out", out, *slow), stderr=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, text=True) for _ in range(2)]
    results = sorted((p.wait(timeout=120), p.communicate()[1]) for p in both)
    assert [code for code, _ in results] == [0, 2], results
    assert results[1][1].strip().count("\n") == 0
    assert "in use by another crawl" in results[1][1]
    assert _names(out) == ALL
    # one running, a second one with the same output but its own state: refused; and a
    # third with the first one's state but its own output: refused too
    out = tmp_path / "o2.jsonl"
    pages.gate.clear()                  # the next crawl waits at its first product page
    waiting = sum(n for path, n in pages.hits.items() if path.startswith("/p/"))
    first = subprocess.Popen(_command(rules, "--out", out), stderr=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, text=True)
    _wait_for(lambda: sum(n for path, n in pages.hits.items()
                          if path.startswith("/p/")) > waiting, first)
    try:
        for args in (["--out", out, "--state", tmp_path / "own.state"],
                     ["--out", tmp_path / "other.jsonl", "--state", f"{out}.state"]):
            done = subprocess.run(_command(rules, *args), capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == 2 and "in use by another crawl" in done.stderr, \
                done.stderr
            assert done.stderr.strip().count("\n") == 0
        assert first.poll() is None          # the refusals came while it was crawling
    finally:
        pages.gate.set()
    assert first.wait(timeout=120) == 0, first.communicate()
    assert _names(out) == ALL
    assert not (tmp_path / "other.jsonl").exists()


def test_ctrl_c_says_how_to_continue_and_resume_finishes(shop: tuple[Shop, Path],
                                                         tmp_path: Path) -> None:
    _, rules = shop
    out = tmp_path / "o.jsonl"
    process = subprocess.Popen(_command(rules, "--out", out, "--delay", "0.05"),
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    _wait_for(lambda: out.exists() and out.stat().st_size > 0, process)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 130
    err = process.communicate()[1].strip().splitlines()
    hint = f"structurer crawl {shlex.quote(str(rules))} --out {shlex.quote(str(out))} --resume"
    assert err[-1] == f"structurer: error: interrupted; nothing is lost: continue with {hint}"
    assert "Traceback" not in "\n".join(err)
    assert len(_names(out)) < PRODUCTS
    again = shlex.split(err[-1].rsplit("continue with ", 1)[1])
    done = subprocess.run([sys.executable, "-m", *again], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert _names(out) == ALL


def _limit_file_size(size: int) -> Callable[[], None]:
    def limit() -> None:  # in the child: writes past `size` bytes fail (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_full_disk_is_one_line_and_resume_finishes(shop: tuple[Shop, Path],
                                                    tmp_path: Path) -> None:
    _, rules = shop
    out = tmp_path / "o.jsonl"
    full = subprocess.run(_command(rules, "--out", out), capture_output=True, text=True,
                          timeout=120, preexec_fn=_limit_file_size(96 * 1024))
    err = full.stderr.strip()
    assert full.returncode == 2, err
    assert err.count("\n") == 0 and err.startswith("structurer: error:"), err
    assert "crawl state" in err or "cannot write output" in err, err
    done = subprocess.run(_command(rules, "--out", out, "--resume"), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _names(out) == ALL


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` takes no new files: its mode for a user, immutable for root (who
    ignores modes)."""
    folder.chmod(0o555)
    root = os.geteuid() == 0
    if root:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
    try:
        yield
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def test_a_read_only_output_folder_is_refused_before_any_work(
        shop: tuple[Shop, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The output file may be written, its folder not: the statistics could not be put
    beside it. Refused before the first request, not after the whole crawl."""
    pages, rules = shop
    folder = tmp_path / "ro"
    folder.mkdir()
    out = folder / "o.jsonl"
    out.write_bytes(b"")
    with read_only(folder):
        code = main(["crawl", str(rules), "--out", str(out), "--state",
                     str(tmp_path / "s.state")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.count("\n") == 0, err
    assert err.startswith(f"structurer: error: {folder}/o.jsonl.stats.json: cannot write "
                          f"statistics: "), err
    assert err.endswith(f" (in {folder})"), err
    assert not pages.hits and not (tmp_path / "s.state").exists()
