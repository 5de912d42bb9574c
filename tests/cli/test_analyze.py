"""`structurer analyze` on the command line: a rule file, or one clear line and no file."""

from __future__ import annotations

import gzip
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from structurer.rules import load_rules
from tests.server import closed_port


def analyze(*args: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "structurer", "analyze", *args, "--out",
                           str(out)], capture_output=True, text=True, timeout=300)


def test_analyze_writes_host_port_file(demo_server: Any, tmp_path: Path) -> None:
    base = demo_server.urls["kumo"]
    done = analyze(base + "/", out=tmp_path)
    assert done.returncode == 0, done.stderr
    port = base.rsplit(":", 1)[1]
    path = tmp_path / f"127.0.0.1_{port}.yaml"
    assert path.is_file() and f"wrote {path}" in done.stdout
    rules = load_rules(path)
    assert rules.levels.list is not None and "price" in rules.levels.list.fields
    assert "price" in done.stdout and "item" in done.stdout   # the summary table


def _one_line_failure(done: subprocess.CompletedProcess[str], out: Path, *words: str) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert not list(out.glob("*.yaml")), "no rule file is written on failure"


def test_unreachable_site(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    done = analyze(url, out=tmp_path)
    _one_line_failure(done, tmp_path, url, "connection refused")
    assert done.returncode == 2


def test_site_without_repeated_blocks(tiny_site: Any, tmp_path: Path) -> None:
    text = "<html><body><h1>Welcome</h1><p>We are a small bakery.</p>{}</body></html>"
    base = tiny_site({"/": text.format("<a href='/about'>About us</a>"),
                      "/about": text.format("<p>Since 1999.</p>")})
    done = analyze(base + "/", out=tmp_path)
    _one_line_failure(done, tmp_path, base, "no product list")
    assert done.returncode == 1


def test_site_without_detail_links(tiny_site: Any, tmp_path: Path) -> None:
    items = "".join(f"<li class='item'><b>Bread loaf {i}</b> <span class='price'>${i}.50</span>"
                    f"<img src='/i/{i}.jpg'></li>" for i in range(1, 9))
    menu = "<nav><ul>" + "".join(f"<li><a href='/c/{c}'>Category {c}</a></li>"
                                 for c in "abc") + "</ul></nav>"
    page = f"<html><body>{menu}<h1>Bakery</h1><ul class='items'>{items}</ul></body></html>"
    base = tiny_site({"/": page, "/c/a": page, "/c/b": page, "/c/c": page})
    done = analyze(base + "/", out=tmp_path)
    _one_line_failure(done, tmp_path, "no links to detail pages")
    assert done.returncode == 1


def test_pages_mode_needs_a_level(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_text("<html><body><h1>x</h1></body></html>")
    done = analyze("--pages", str(page), str(page), out=tmp_path)
    _one_line_failure(done, tmp_path, "--level")


def test_too_few_pages_say_the_rule_file_is_incomplete(demo_server: Any, tmp_path: Path) -> None:
    """12 pages reach list pages but no product page: the rule file is written (its list
    level works) with a warning naming what is missing and why, and exit 1."""
    base = demo_server.urls["kumo"]
    done = analyze(base + "/", "--max-pages", "12", out=tmp_path)
    path = tmp_path / f"127.0.0.1_{base.rsplit(':', 1)[1]}.yaml"
    assert done.returncode == 1, done.stderr
    rules = load_rules(path)
    assert rules.levels.list is not None and rules.levels.detail is None
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    assert warnings == [f"structurer: warning: {path}: no detail level, so a crawl gives only "
                        "what list pages show: the page budget (--max-pages 12) ran out before "
                        "enough product pages were read; run again with more pages (default: 60)"]


def test_pages_mode_reads_gzipped_files_saved_from_a_folder(demo_truth: Any,
                                                            tmp_path: Path) -> None:
    truth = demo_truth["outfitters"]
    pages = []
    for url in list(truth["detail_pages"])[:4]:
        with urllib.request.urlopen(url, timeout=10) as response:
            path = tmp_path / (url.rsplit("/", 1)[1] + ".gz")
            path.write_bytes(gzip.compress(response.read()))
        pages.append(str(path))
    folder = truth["base_url"] + "/p/"
    done = analyze("--level", "detail", "--pages", *pages, "--base-url", folder,
                   out=tmp_path / "out")
    assert done.returncode == 0, done.stderr
    [path] = (tmp_path / "out").glob("*.yaml")
    rules = load_rules(path)
    first = next(iter(truth["detail_pages"]))
    assert rules.start_url == first == folder + Path(pages[0]).name.removesuffix(".gz")
    assert rules.site == truth["base_url"].removeprefix("http://")
    assert rules.levels.detail is not None and {"name", "price"} <= set(rules.levels.detail.fields)
