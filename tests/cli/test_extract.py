"""``structurer extract RULES PAGE...``: JSON lines from saved files and demo URLs, and
one-line errors with exit codes 2 (bad input) and 1 (a page gave nothing)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from structurer.cli import main
from tests.conftest import FIXTURES

Truth = dict[str, dict[str, Any]]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "structurer", "extract", *args],
                          capture_output=True, text=True, timeout=120)


def save(url: str, path: Path) -> Path:
    with urllib.request.urlopen(url, timeout=10) as response:
        path.write_bytes(response.read())
    return path


def test_saved_gbk_file_with_base_url(demo_truth: Truth, tmp_path: Path) -> None:
    truth = demo_truth["huaxia"]
    url, pid = next(iter(truth["detail_pages"].items()))
    page = save(url, tmp_path / url.rsplit("/", 1)[1])
    done = run(str(FIXTURES / "huaxia.yaml"), str(page), "--base-url", truth["base_url"] + "/")
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    record = json.loads(line)
    product = truth["products"][pid]
    assert list(record)[:2] == ["url", "source"]
    assert record["url"] == record["source"] == url
    for key in ("name", "price", "price_text", "currency", "sku", "breadcrumb", "availability"):
        assert record[key] == product[key], key


def test_saved_list_file(demo_truth: Truth, tmp_path: Path,
                         capsys: pytest.CaptureFixture[str]) -> None:
    truth = demo_truth["outfitters"]
    url, page = next(iter(truth["list_pages"].items()))
    saved = save(url, tmp_path / "footwear.html")
    assert main(["extract", str(FIXTURES / "outfitters.yaml"), str(saved),
                 "--level", "list", "--base-url", url]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["url"] for r in records] == [i["url"] for i in page["items"]]
    assert {r["source"] for r in records} == {url + "footwear.html"}
    assert main(["extract", str(FIXTURES / "outfitters.yaml"), str(saved)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["source"] == saved.resolve().as_uri()


def test_demo_urls(demo_truth: Truth) -> None:
    truth = demo_truth["kumo"]
    list_url, page = list(truth["list_pages"].items())[1]
    detail_url = next(iter(truth["detail_pages"]))
    done = run(str(FIXTURES / "kumo.yaml"), list_url, detail_url)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == len(page["items"]) + 1
    assert [(r["url"], r["name"], r["price"]) for r in records[:-1]] == [
        (i["url"], i["name"], i["price"]) for i in page["items"]]
    assert all(r["source"] == list_url for r in records[:-1])
    assert records[-1]["url"] == records[-1]["source"] == detail_url
    assert records[-1]["sku"]


@pytest.mark.parametrize("bad", ["rules", "file", "url", "http-404", "base-url"])
def test_bad_input_exits_2_with_one_line(bad: str, demo_truth: Truth, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    rules, page = str(FIXTURES / "kumo.yaml"), next(iter(demo_truth["kumo"]["detail_pages"]))
    args = {
        "rules": [str(tmp_path / "missing.yaml"), page],
        "file": [rules, str(tmp_path / "missing.html")],
        "url": [rules, "http://127.0.0.1:9/p/1.html"],
        "http-404": [rules, demo_truth["kumo"]["base_url"] + "/no/such/page"],
        "base-url": [rules, page, "--base-url", "shop.example"],
    }[bad]
    assert main(["extract", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("structurer: error: ")
    assert "Traceback" not in err


def test_bad_rule_file_subprocess(tmp_path: Path) -> None:
    broken = tmp_path / "rules.yaml"
    broken.write_text((FIXTURES / "kumo.yaml").read_text(encoding="utf-8")
                      .replace("kind: money", "kind: cash", 1), encoding="utf-8")
    done = run(str(broken), "http://127.0.0.1:9/")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "rules.yaml:" in done.stderr


def test_page_with_nothing_exits_1(demo_truth: Truth,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Huaxia's rules on an outfitters page find no item and no detail field."""
    page = next(iter(demo_truth["outfitters"]["list_pages"]))
    good = next(iter(demo_truth["huaxia"]["detail_pages"]))
    assert main(["extract", str(FIXTURES / "huaxia.yaml"), page, good]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and json.loads(out)["url"] == good
    assert err.strip() == (f"structurer: warning: {page}: nothing extracted: not a page these "
                           "rules describe (no list item, and the detail level's name and "
                           "price are not there)")


def test_home_page_gives_no_invented_record(demo_truth: Truth,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Nordlicht's home page has neither its list items nor a product's price: it used
    to come out as a detail record named after the home page's headline."""
    home = demo_truth["nordlicht"]["home"]
    assert main(["extract", str(FIXTURES / "nordlicht.yaml"), home]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "not a page these rules describe" in err
    # forced to be read as a detail page, it is (the user asked for it)
    assert main(["extract", str(FIXTURES / "nordlicht.yaml"), home, "--level", "detail"]) == 0
    assert json.loads(capsys.readouterr().out)["price"] is None


def _saved_detail(demo_truth: Truth, tmp_path: Path, name: str) -> tuple[str, dict[str, Any]]:
    truth = demo_truth["kumo"]
    url, pid = next(iter(truth["detail_pages"].items()))
    with urllib.request.urlopen(url, timeout=10) as response:
        body = response.read()
    path = tmp_path / name
    path.write_bytes(gzip.compress(body) if name.endswith(".gz") else body)
    return url, truth["products"][pid]


def test_base_url_is_the_url_of_the_saved_page(demo_truth: Truth, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    url, product = _saved_detail(demo_truth, tmp_path, "saved-copy.html")
    saved = str(tmp_path / "saved-copy.html")
    assert main(["extract", str(FIXTURES / "kumo.yaml"), saved, "--base-url", url]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["url"] == record["source"] == url and record["sku"] == product["sku"]
    assert main(["extract-page", saved, "--base-url", url]) == 0
    assert json.loads(capsys.readouterr().out)["url"] == url
    # a folder (ending in '/') is joined with each file's name
    folder = url.rsplit("/", 1)[0] + "/"
    assert main(["extract", str(FIXTURES / "kumo.yaml"), saved, "--base-url", folder]) == 0
    assert json.loads(capsys.readouterr().out)["url"] == folder + "saved-copy.html"
    # one page's URL for several files is refused
    assert main(["extract", str(FIXTURES / "kumo.yaml"), saved, saved, "--base-url", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "end it with '/'" in err


def test_gzipped_pages(demo_truth: Truth, tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    url, product = _saved_detail(demo_truth, tmp_path, "page.htm.gz")
    saved = str(tmp_path / "page.htm.gz")
    assert main(["extract", str(FIXTURES / "kumo.yaml"), saved, "--base-url", url]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["name"], record["price"]) == (product["name"], product["price"])
    assert main(["extract-page", saved]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "detail" and out["fields"]["name"] == product["name"]
    assert out["url"] == Path(saved).resolve().as_uri()


def test_pages_are_size_bounded(tmp_path: Path) -> None:
    """A page file larger than max_page_bytes (8 MB), or an endless one, is one line."""
    big = tmp_path / "big.html"
    with big.open("wb") as handle:
        handle.truncate(9_000_000)
    bomb = tmp_path / "bomb.html.gz"
    with gzip.open(bomb, "wb") as zipped:
        for _ in range(9):
            zipped.write(b" " * 1_000_000)
    for page in [str(big), str(bomb), "/dev/zero"]:
        if page == "/dev/zero" and not Path(page).exists():
            continue
        done = subprocess.run([sys.executable, "-m", "structurer", "extract-page", page],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == (f"structurer: error: {page}: larger than 8,000,000 bytes (the "
                               "max_page_bytes setting); not a page to read\n")
