"""The public surface is small and deliberate, cheap to import, and does the common jobs:
``analyze_site``, ``crawl`` (an iterator of records), ``extract`` and ``extract_page``."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import structurer
from structurer.demo import DemoServer

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
README = ROOT / "README.md"
HEAVY = ("rich", "aiohttp", "playwright", "sklearn", "scipy", "numpy", "simhash", "zss",
         "jinja2", "scrapy")


def test_exported_members() -> None:
    assert structurer.__all__ == sorted(structurer.__all__)
    assert structurer.__all__ == [
        "Lexicon", "Settings", "SiteRules", "StructurerError", "__version__", "analyze_site",
        "crawl", "dump_rules", "extract", "extract_page", "load_lexicon", "load_rules",
        "save_rules", "validate_file",
    ]
    for name in structurer.__all__:
        assert hasattr(structurer, name)
    assert set(structurer.__all__) <= set(dir(structurer))
    with pytest.raises(AttributeError, match="no attribute 'analyse_site'"):
        structurer.analyse_site  # noqa: B018


def test_error_tree() -> None:
    from structurer import errors

    assert issubclass(errors.RenderTimeout, errors.FetchError)
    assert issubclass(errors.NoRepeatedBlock, errors.AnalysisError)
    assert issubclass(errors.RuleValidationError, errors.RuleError)
    for name in ("FetchError", "AnalysisError", "RuleError", "FrontierError"):
        assert issubclass(getattr(errors, name), errors.StructurerError)
    error = errors.FetchError("connection refused", url="http://127.0.0.1:9/")
    assert str(error) == "http://127.0.0.1:9/: connection refused"


def test_crawl_is_the_verb_even_once_the_engine_is_loaded() -> None:
    from structurer import api
    from structurer.crawler import engine

    assert structurer.crawl is api.crawl                 # the engine lives in structurer.crawler
    assert engine.crawl_records.__module__ == "structurer.crawler.engine"
    assert structurer.crawl is api.crawl
    assert structurer.Settings is structurer.config.Settings
    assert api.crawl.__doc__ and "yielding each product record" in api.crawl.__doc__


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return done.stdout.strip().splitlines()[-1]


def test_import_loads_nothing_but_the_version() -> None:
    """Nothing but the version and the lazy names' loader (the standard library's
    importlib only)."""
    loaded = _run("import sys, structurer\n"
                  "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                  "('structurer', 'pydantic', 'yaml', 'lxml')))")
    assert loaded == "['structurer', 'structurer._lazy', 'structurer._version']"


@pytest.mark.parametrize("args", [
    ["--version"],
    ["validate", "templates/ecommerce.yaml", "tests/fixtures/rules/shop.yaml"],
    ["templates"],
    ["extract-page", "tests/fixtures/news/article-1.html", "--template", "news"],
    ["extract-page", "tests/fixtures/real/extruct/product_microdata.html"],
    ["extract-page", "tests/fixtures/real/autopager/19.html.gz",
     "--base-url", "http://shop.example/c/"],
], ids=["version", "validate", "templates", "extract-page-article", "extract-page-product",
        "extract-page-list"])
def test_light_commands_load_no_heavy_package(args: list[str]) -> None:
    """These commands need neither the network, the browser, the terminal UI, the crawl
    engine nor numerical code: none of it loads (each cost tens of milliseconds)."""
    # a list page's repeated blocks are confirmed by tree edit distance: zss (with numpy)
    allowed = {"zss", "numpy"} if "autopager" in " ".join(args) else set()
    loaded = _run("import sys, contextlib, io\nfrom structurer.cli import main\n"
                  "with contextlib.redirect_stdout(io.StringIO()), "
                  f"contextlib.suppress(SystemExit):\n    main({args!r})\n"
                  "print(sorted({m.split('.')[0] for m in sys.modules}))")
    assert [name for name in HEAVY if f"'{name}'" in loaded and name not in allowed] == []


# ----- the common jobs ------------------------------------------------------------------------
def test_extract_page_takes_text_or_bytes() -> None:
    body = (FIXTURES / "real" / "extruct" / "product_microdata.html").read_bytes()
    out = structurer.extract_page(body, "http://shop.example/anvil")
    assert out == structurer.extract_page(body.decode("utf-8"), "http://shop.example/anvil")
    assert out["kind"] == "detail" and out["template"] == "ecommerce"
    fields = out["fields"]
    assert (fields["name"], fields["price"], fields["currency"]) == ("Executive Anvil", 119.99,
                                                                    "USD")
    assert (fields["rating"], fields["review_count"]) == (4.4, 89)
    assert fields["image"] == "http://shop.example/anvil_executive.jpg"
    news = structurer.extract_page((FIXTURES / "news" / "article-1.html").read_bytes(),
                                   "http://news.example/a", template="news")
    assert news["kind"] == "detail" and news["fields"]["title"]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        body: bytes = response.read()
    return body


def test_extract_by_rules(demo_truth: dict[str, dict[str, Any]]) -> None:
    truth = demo_truth["outfitters"]
    rules = FIXTURES / "rules" / "outfitters.yaml"
    product = truth["products"][0]
    body = _get(product["url"])
    [record] = structurer.extract(rules, body, product["url"])
    assert structurer.extract(structurer.load_rules(rules), body.decode(),
                              product["url"]) == [record]
    keys = ("url", "name", "price", "currency", "sku", "rating", "review_count")
    assert {k: record[k] for k in keys} == {k: product[k] for k in keys}
    first, listing = next(iter(truth["list_pages"].items()))
    records = structurer.extract(rules, _get(first), first, level="list")
    assert [(r["url"], r["name"], r["price"]) for r in records] == [
        (i["url"], i["name"], i["price"]) for i in listing["items"]]


def test_readme_snippet_runs(demo_server: DemoServer, demo_truth: dict[str, dict[str, Any]],
                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Python example as written, on a demo shop."""
    base = demo_server.urls["outfitters"]
    [code] = [block for block in re.findall(r"```python\n(.*?)```",
                                            README.read_text(encoding="utf-8"), flags=re.S)
              if "structurer.crawl(" in block]
    assert code.count("http://127.0.0.1:8001/") == 1
    monkeypatch.chdir(tmp_path)
    scope: dict[str, Any] = {}
    exec(compile(code.replace("http://127.0.0.1:8001/", base + "/"), str(README), "exec"),
         scope)
    truth = {p["url"]: p for p in demo_truth["outfitters"]["products"]}
    printed = capsys.readouterr().out.splitlines()
    crawled = printed[:10]
    assert len(crawled) == 10 and all(line.split()[-1] in truth for line in crawled)
    record = scope["record"]
    product = truth[record["url"]]
    assert (record["name"], record["price"], record["currency"]) == (
        product["name"], product["price"], product["currency"])
    assert structurer.load_rules(tmp_path / "127.0.0.1_8001.yaml") == scope["rules"]
    [by_rules] = structurer.extract(scope["rules"], scope["page"], record["url"])
    assert (by_rules["name"], by_rules["price"]) == (product["name"], product["price"])
    free = structurer.extract_page(scope["page"], record["url"])
    assert free["kind"] == "detail"
    assert (free["fields"]["name"], free["fields"]["price"]) == (product["name"],
                                                                 product["price"])
    assert len(printed) == 12


def test_gzip_fixture_is_a_list_page() -> None:
    """The list page the import test reads is one (so that test covers link clusters)."""
    body = gzip.decompress((FIXTURES / "real" / "autopager" / "19.html.gz").read_bytes())
    out = structurer.extract_page(body, "http://shop.example/c/")
    assert out["kind"] == "list" and len(out["items"]) >= 5
