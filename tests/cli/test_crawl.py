"""``structurer crawl``: outputs, drift warnings (exit 1 with --strict) and bad input
(one line, exit 2)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from structurer.api import analyze_site
from structurer.cli import main
from structurer.config import Settings
from structurer.demo import DemoServer
from structurer.rules import save_rules
from structurer.rules.model import SiteRules


def _static() -> Settings:
    """Analysis settings for shops known to be static: no browser to compare pages with
    (when the settings know the ``render`` option)."""
    return Settings.model_validate({"render": "static"} if "render" in Settings.model_fields
                                   else {})


@pytest.fixture(scope="module")
def kumo_rules(demo_server: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    rules, _ = analyze_site(demo_server.urls["kumo"] + "/", settings=_static())
    return save_rules(rules, tmp_path_factory.mktemp("rules") / "kumo.yaml")


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
    assert "price error rate" in printed and "wrote 109 records" in printed
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 109 and len({r["url"] for r in rows}) == 109
    assert all(float(r["price"]) > 0 and r["sku"] for r in rows)
    stats = json.loads((tmp_path / "kumo.stats.json").read_text())
    assert stats["records"] == 109 and stats["drift"] == []


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
    assert main(["crawl", str(drifted), "--out", str(out)]) == 0


@pytest.mark.parametrize("case", ["bad rules", "no rules", "output is a directory",
                                  "state of another site", "unfinished state", "bad option"])
def test_bad_input_is_one_line_exit_2(case: str, kumo_rules: Path, tmp_path: Path,
                                      demo_server: DemoServer,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    rules, out, extra = str(kumo_rules), str(tmp_path / "o.jsonl"), []
    if case == "bad rules":
        (tmp_path / "bad.yaml").write_text("schema_version: 1\nsite: [\n")
        rules = str(tmp_path / "bad.yaml")
    elif case == "no rules":
        rules = str(tmp_path / "missing.yaml")
    elif case == "output is a directory":
        out = str(tmp_path)
    elif case == "state of another site":
        other, _ = analyze_site(demo_server.urls["outfitters"] + "/", settings=_static())
        other_file = save_rules(other, tmp_path / "other.yaml")
        assert main(["crawl", str(other_file), "--out", out, "--max-pages", "3"]) == 0
        capsys.readouterr()
    elif case == "unfinished state":
        from structurer.crawl.frontier import Frontier

        assert main(["crawl", rules, "--out", out, "--max-pages", "3"]) == 0
        capsys.readouterr()
        frontier = Frontier.connect(out + ".state")
        with frontier.transaction():
            frontier.set(status="running")
        frontier.close()
    else:
        extra = ["--concurrency", "0"]
    assert main(["crawl", rules, "--out", out, *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("structurer: error:") and "Traceback" not in err
