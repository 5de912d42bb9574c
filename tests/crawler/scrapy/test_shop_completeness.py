"""Completeness end to end on a demo shop whose rules were learned (kumo, analyzed
statically by the ``shops`` fixture), crawled by both runtimes after the shop "changed":
list pages that yield no item (the rule's item XPath matches nothing, the pager is still
there), far fewer items per list page than analysis saw (the XPath keeps the first card
only) and pagination not followed (the rule file lost its pagination). Each warns by
level, as ``drift: list: ...``, and ``--strict`` exits 1; a crawl without any record
falls short and exits 1 whatever ``--strict`` says."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from structurer.cli import main
from structurer.rules import load_rules, save_rules
from tests.crawler.scrapy.conftest import Shops, worker

# the change of the list level (from the learned one), what the crawl of the changed shop
# says, and whether it wrote records
CASES: dict[str, tuple[Callable[[Any], dict[str, Any]], str, bool]] = {
    "empty-lists": (lambda lvl: {"item_xpath": "//article[@data-no-such-card]"},
                    "list: no items on any of ", False),
    "one-item-a-page": (lambda lvl: {"item_xpath": f"({lvl.item_xpath})[1]"},
                        "list: 1.0 items per list page over ", True),
    "no-pagination": (lambda lvl: {"pagination": None},
                      "list: 1.00 list pages per category over ", True),
}


def _changed(rules: Path, tmp_path: Path, update: Callable[[Any], dict[str, Any]]) -> Path:
    """The learned rule file with its list level changed by ``update``."""
    learned = load_rules(rules)
    lvl = learned.levels.list
    assert lvl is not None and lvl.baseline is not None and lvl.baseline.items_per_page > 5
    assert (lvl.baseline.pages_per_category or 0) > 1.5   # paginated
    levels = learned.levels.model_copy(update={"list": lvl.model_copy(update=update(lvl))})
    return save_rules(learned.model_copy(update={"levels": levels}), tmp_path / "kumo.yaml")


@pytest.mark.parametrize("engine", ["lightweight", "scrapy"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_changed_shop_warns_by_level_and_strict_exits_1(
        case: str, engine: str, shops: Shops, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    update, said, has_records = CASES[case]
    rules = _changed(next(p for p in shops.rules if p.stem == "kumo"), tmp_path, update)
    out = tmp_path / "o.jsonl"
    if engine == "scrapy":
        process = worker([rules], out, None, "--strict")
        code = process.wait(timeout=120)
        err = out.with_suffix(".log").read_text(errors="replace")
    else:
        code = main(["crawl", str(rules), "--out", str(out), "--strict"])
        err = capsys.readouterr().err
    assert code == 1, err[-3000:]
    assert f"drift: {said}" in err
    stats = json.loads(out.with_name(f"{out.name}.stats.json").read_text())
    assert any(d.startswith(said) for d in stats["drift"]), stats["drift"]
    assert (stats["records"] > 0) == has_records and stats["complete"] is has_records
    if not has_records:
        assert "fell short: no records" in err
    elif case == "no-pagination":   # every category's first page, and only it, was read
        assert stats["pages_per_category"] == 1.0 and stats["categories_listed"] >= 3
    else:
        assert stats["items"] == stats["list_pages"] >= 3
