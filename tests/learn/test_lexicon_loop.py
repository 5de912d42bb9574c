"""The edit-the-lexicon loop on the "ledger" demo shop.

Its price sits under the abbreviation ``amt``, which the shipped lexicon lacks,
next to an instalment and a delivery charge. Zero-shot analysis finds the price only
by setting the other two amounts aside (the template's ``signals.not_price``: "or 4 ×",
delivery); a copy of the lexicon with that one word added finds it by its own class,
and the rule's evidence says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from structurer.api import analyze_site
from structurer.demo.scoring import score_rules
from structurer.lexicon import load_lexicon, shipped_templates
from structurer.validate import validate_file


def _edited_lexicon(tmp_path: Path, words: dict[str, dict[str, float]]) -> Path:
    """A copy of the shipped lexicon with words added, as a person would edit it."""
    text = shipped_templates()["ecommerce"].read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    for field, extra in words.items():
        data["fields"][field]["words"].update(extra)
    path = tmp_path / "my-ecommerce.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_missing_abbreviation_then_added(demo_server: Any, tmp_path: Path) -> None:
    shop = demo_server.shops["ledger"]
    base = demo_server.urls["ledger"]
    assert "amt" not in load_lexicon("ecommerce").fields["price"].words

    before, _ = analyze_site(base + "/")
    scores = score_rules(shop, base, before)
    assert scores.list_fields["price"] == 1.0, "the instalment and delivery are set aside"
    assert before.levels.list is not None
    assert not any("amt" in e for e in before.levels.list.fields["price"].evidence)

    path = _edited_lexicon(tmp_path, shop.extra_words)
    assert validate_file(path).ok
    after, _ = analyze_site(base + "/", str(path))
    scores = score_rules(shop, base, after)
    assert scores.list_fields["price"] == 1.0 and scores.detail_fields["price"] == 1.0
    assert after.template.path == str(path) and after.template.hash != before.template.hash
    assert after.levels.list is not None
    price = after.levels.list.fields["price"]
    assert "amt" in (price.xpath or "") and any("amt" in e for e in price.evidence)
