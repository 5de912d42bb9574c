"""``structurer crawl``: outputs, drift warnings (exit 1 with --strict), bad input (one
line, exit 2), and no command that loses or silently overwrites data: an output holding
records is refused unless told, ``--recrawl`` appends what changed since the rule file's
last crawl, statistics follow the whole output name, ``--out -`` is standard output."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from structurer.cli import main
from structurer.demo import DemoServer
from structurer.rules import save_rules
from structurer.rules.model import SiteRules
from tests.conftest import Analyzed, rule_text

KUMO = 109          # products of the kumo demo shop


@pytest.fixture(scope="module")
def kumo_rules(demo_server: DemoServer, analyzed: Analyzed,
               tmp_path_factory: pytest.TempPathFactory) -> Path:
    rules, _ = analyzed(demo_server.urls["kumo"] + "/", "static")
    return save_rules(rules, tmp_path_factory.mktemp("rules") / "kumo.yaml")


@pytest.fixture
def rules_copy(kumo_rules: Path, tmp_path: Path) -> Path:
    """The kumo rule file in this test's folder (its last crawl is noted beside it)."""
    return Path(shutil.copy(kumo_rules, tmp_path / "kumo.yaml"))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _drifted(rules: SiteRules) -> SiteRules:
    """The rules after the shop renamed its SKU element and lost all but one item a page."""
    lv = rules.levels
    assert lv.list is not None and lv.detail is not None
    assert lv.detail.baseline is not None and lv.detail.baseline.fill_rates["sku"] == 1.0
    fields = dict(lv.detail.fields)
    fields["sku"] = fields["sku"].model_copy(update={"xpath": "//span[@class='sku-gone']",
                                                     "jsonld": None})
    detail = lv.detail.model_copy(update={"fields": fields})
    lst = lv.list.model_copy(update={"item_xpath": f"({lv.list.item_xpath})[1]"})
    return rules.model_copy(update={"levels": lv.model_copy(update={"detail": detail,
                                                                     "list": lst})})


def test_crawl_csv(kumo_rules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "kumo.csv"
    assert main(["crawl", str(kumo_rules), "--out", str(out), "--concurrency", "4"]) == 0
    printed = capsys.readouterr().out
    assert "price error rate" in printed and f"wrote {KUMO} records" in printed
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == KUMO and len({r["url"] for r in rows}) == KUMO
    assert all(float(r["price"]) > 0 and r["sku"] for r in rows)
    stats = json.loads((tmp_path / "kumo.csv.stats.json").read_text())
    assert stats["records"] == KUMO and stats["drift"] == [] and stats["complete"] is True


def test_drift_warns_and_strict_exits_1(kumo_rules: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from structurer.rules import load_rules

    drifted = save_rules(_drifted(load_rules(kumo_rules)), tmp_path / "drifted.yaml")
    out = tmp_path / "o.jsonl"
    assert main(["crawl", str(drifted), "--out", str(out), "--strict"]) == 1
    err = capsys.readouterr().err
    assert "drift: detail.sku: filled on 0% of" in err and "baseline 100%" in err
    assert "drift: list: 1.0 items per list page" in err and "structurer analyze" in err
    # without --strict the crawl still succeeds
    assert main(["crawl", str(drifted), "--out", str(out), "--overwrite"]) == 0


def test_an_output_holding_records_is_never_silently_overwritten(
        rules_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "products.jsonl"
    assert main(["crawl", str(rules_copy), "--out", str(out)]) == 0
    first = out.read_bytes()
    capsys.readouterr()
    assert main(["crawl", str(rules_copy), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"structurer: error: {out}: holds records already: --overwrite replaces "
                   f"them, --resume continues the crawl that wrote them, --recrawl adds what "
                   f"changed since")
    assert out.read_bytes() == first
    # --overwrite starts over: the same records once, not twice
    assert main(["crawl", str(rules_copy), "--out", str(out), "--overwrite"]) == 0
    again = out.read_bytes()
    assert sorted(again.splitlines()) == sorted(first.splitlines())
    # --recrawl into the first crawl's own file appends (nothing is due yet): all kept
    assert main(["crawl", str(rules_copy), "--out", str(out), "--recrawl"]) == 0
    assert out.read_bytes() == again


def test_readme_recrawl_example_reports_only_what_changed(
        rules_copy: Path, demo_server: DemoServer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``crawl R --out products.jsonl`` then ``crawl R --out changes.jsonl --recrawl``:
    0 changes on an unchanged shop, exactly the repriced products after prices change."""
    products, changes = tmp_path / "products.jsonl", tmp_path / "changes.jsonl"
    crawl = ["crawl", str(rules_copy)]
    assert main([*crawl, "--out", str(products)]) == 0
    first = products.read_bytes()
    assert len(_lines(products)) == KUMO
    capsys.readouterr()
    assert main([*crawl, "--out", str(changes), "--recrawl"]) == 0
    assert "wrote 0 new or changed records" in capsys.readouterr().out
    # every page fetched again, on an unchanged shop: still nothing changed
    assert main([*crawl, "--out", str(changes), "--recrawl", "--revisit-all"]) == 0
    assert changes.read_text() == ""
    stats = json.loads((tmp_path / "changes.jsonl.stats.json").read_text())
    assert stats["records"] == 0 and stats["complete"] is True
    assert stats["pages"]["detail"] == KUMO
    shop = demo_server.shops["kumo"]
    was = {p.id: p.price for p in shop.catalog.products}  # type: ignore[attr-defined]
    repriced = {p.id: p.price + Decimal(5) for p in shop.catalog.products[3:6]}  # type: ignore[attr-defined]
    shop.set_prices(repriced)  # type: ignore[attr-defined]
    try:
        assert main([*crawl, "--out", str(changes), "--recrawl", "--revisit-all"]) == 0
    finally:
        shop.set_prices(was)  # type: ignore[attr-defined]
    url = demo_server.urls["kumo"]
    truth = {url + shop.product_url(p): float(repriced[p.id])  # type: ignore[attr-defined]
             for p in shop.catalog.products if p.id in repriced}  # type: ignore[attr-defined]
    assert {r["url"]: r["price"] for r in _lines(changes)} == truth
    assert products.read_bytes() == first            # the first crawl's file is untouched


def test_outputs_of_two_formats_keep_their_own_statistics(
        kumo_rules: Path, tmp_path: Path) -> None:
    for name in ("products.jsonl", "products.csv", "products.db"):
        assert main(["crawl", str(kumo_rules), "--out", str(tmp_path / name)]) == 0
    for name in ("products.jsonl", "products.csv", "products.db"):
        stats = json.loads((tmp_path / f"{name}.stats.json").read_text())
        assert stats["output"] == str(tmp_path / name) and stats["records"] == KUMO
        assert (tmp_path / f"{name}.state").is_file()
    assert not (tmp_path / "products.stats.json").exists()


def test_out_dash_writes_to_standard_output(kumo_rules: Path, tmp_path: Path) -> None:
    for fmt in ("jsonl", "csv"):
        done = subprocess.run([sys.executable, "-m", "structurer", "crawl", str(kumo_rules),
                               "--out", "-", "--format", fmt], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        if fmt == "jsonl":
            records = [json.loads(line) for line in done.stdout.splitlines()]
        else:
            records = list(csv.DictReader(io.StringIO(done.stdout)))
        assert len({r["url"] for r in records}) == len(records) == KUMO
        assert f"wrote {KUMO} records to standard output" in done.stderr
    assert list(tmp_path.iterdir()) == []        # no file named "-", no state left behind


@pytest.mark.parametrize("case", ["bad rules", "no rules", "output is a directory",
                                  "state of another site", "unfinished state", "bad option",
                                  "output is the rule file", "state is the output",
                                  "report is the output", "nothing to resume",
                                  "recrawl without a crawl", "resume to stdout"])
def test_bad_input_is_one_line_exit_2(case: str, kumo_rules: Path, tmp_path: Path,
                                      demo_server: DemoServer, analyzed: Analyzed,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    rules = str(shutil.copy(kumo_rules, tmp_path / "kumo.yaml"))
    out, extra = str(tmp_path / "o.jsonl"), []
    kept = Path(rules).read_bytes()
    if case == "bad rules":
        (tmp_path / "bad.yaml").write_text("schema_version: 1\nsite: [\n")
        rules = str(tmp_path / "bad.yaml")
    elif case == "no rules":
        rules = str(tmp_path / "missing.yaml")
    elif case == "output is a directory":
        out = str(tmp_path)
    elif case == "state of another site":
        other, _ = analyzed(demo_server.urls["outfitters"] + "/", "static")
        other_file = save_rules(other, tmp_path / "other.yaml")
        assert main(["crawl", str(other_file), "--out", str(tmp_path / "other.jsonl"),
                     "--max-pages", "3"]) == 0
        capsys.readouterr()
        extra = ["--state", str(tmp_path / "other.jsonl.state")]
    elif case == "unfinished state":
        from structurer.crawler.frontier import Frontier

        assert main(["crawl", rules, "--out", out, "--max-pages", "3"]) == 0
        capsys.readouterr()
        frontier = Frontier.connect(out + ".state")
        with frontier.transaction():
            frontier.set(status="running")
        frontier.close()
        Path(out).write_bytes(b"")      # the output is empty: the state is what holds us
    elif case == "output is the rule file":
        out = rules
    elif case == "state is the output":
        extra = ["--state", out]
    elif case == "report is the output":
        extra = ["--report", out]
    elif case == "nothing to resume":
        Path(out).write_text('{"url": "kept"}\n')
        extra = ["--resume"]
    elif case == "recrawl without a crawl":
        extra = ["--recrawl"]
    elif case == "resume to stdout":
        out, extra = "-", ["--resume"]
    else:
        extra = ["--concurrency", "0"]
    assert main(["crawl", rules, "--out", out, *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("structurer: error:") and "Traceback" not in err
    if case.startswith("output is the rule") or case == "bad option":
        assert Path(rules).read_bytes() == kept
    if case == "nothing to resume":
        assert Path(out).read_text() == '{"url": "kept"}\n'


def test_a_crawl_where_every_page_failed_exits_1(
        tiny_site: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tiny_site({}).split("//")[1]     # every page: 404
    rules = tmp_path / "gone.yaml"
    rules.write_text(rule_text(site, """
  list:
    item_xpath: //ul/li
    fields:
      name: {xpath: ., kind: text}
"""))
    out = tmp_path / "o.jsonl"
    assert main(["crawl", str(rules), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"structurer: error: {rules}: the crawl fell short: every page failed "
                   f"(http 404 1): no records"]
    stats = json.loads((tmp_path / "o.jsonl.stats.json").read_text())
    assert stats["complete"] is False and stats["records"] == 0
    assert stats["shortfall"].startswith("every page failed")


def test_a_browser_level_without_chromium_is_bad_input(
        tiny_site: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    site = tiny_site({"/": "<ul><li>a</li><li>b</li><li>c</li></ul>"}).split("//")[1]
    rules = tmp_path / "rendered.yaml"
    rules.write_text(rule_text(site, """
  list:
    item_xpath: //ul/li
    render: {mode: browser, decided_by: auto}
    fields:
      name: {xpath: ., kind: text}
"""))
    monkeypatch.setenv("STRUCTURER_CHROMIUM", str(tmp_path / "no-such-chromium"))
    out = tmp_path / "o.jsonl"
    assert main(["crawl", str(rules), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no Chromium was found" in err and "apt-get" in err
    assert not out.exists()


def _priced_shop() -> dict[str, str]:
    """24 products: six whose price the page's JSON-LD contradicts, six the list page
    contradicts, four read from an instalment text, two ranges, six right."""
    shown = ([("$10.00", "12.00", "$10.00")] * 6 + [("$11.00", None, "$10.00")] * 6
             + [("or 4 × $2.50", None, "$10.00")] * 4 + [("$5.00 – $9.00", None, "$5.00")] * 2
             + [("$10.00", "10.00", "$10.00")] * 6)
    pages = {"/robots.txt": "", "/": "<html><body><ul>" + "".join(
        f"<li><a href='/p/{i}'>Product {i}</a> <b>{listed}</b></li>"
        for i, (_, _, listed) in enumerate(shown)) + "</ul></body></html>"}
    for i, (price, ld, _) in enumerate(shown):
        script = ("<script type='application/ld+json'>{\"@type\": \"Product\", \"offers\": "
                  f"{{\"price\": \"{ld}\"}}}}</script>") if ld else ""
        pages[f"/p/{i}"] = (f"<html><head>{script}</head><body><h1>Product {i}</h1>"
                            f"<p class='price'>{price}</p></body></html>")
    return pages


def test_suspicious_prices_are_counted_by_kind_and_warn(
        tiny_site: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import rule_text

    site = tiny_site(_priced_shop()).split("//")[1]
    rules = tmp_path / "r.yaml"
    rules.write_text(rule_text(site, """
      list:
        item_xpath: //li
        detail_link_xpath: ./a
        fields:
          name: {xpath: ./a, kind: text}
          price: {xpath: ./b, kind: money}
      detail:
        fields:
          name: {xpath: //h1, kind: text}
          price: {xpath: "//p[@class='price']", kind: money}
    """), encoding="utf-8")
    out = tmp_path / "o.jsonl"
    assert main(["crawl", str(rules), "--out", str(out), "--strict"]) == 1
    err = capsys.readouterr().err
    stats = json.loads((tmp_path / "o.jsonl.stats.json").read_text())
    assert stats["records"] == 24 and stats["price_errors"] == {
        "structured-mismatch": 6, "list-mismatch": 6, "multiplier": 4, "range": 2}
    assert stats["price_error_rate"] == 18 / 24
    assert "multiplier 4" in err and "list-mismatch 6" in err       # the summary
    assert "drift: price: 18 of 24 records (75%) have a garbled or suspicious price" in err
    assert not any("_structured_price" in line for line in out.read_text().splitlines())
