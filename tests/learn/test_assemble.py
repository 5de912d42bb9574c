"""One assembly of a rule file: a rule file learned from given pages (``analyze --pages``)
carries the same baselines as one learned by exploring a site, so a crawl drift-checks
both alike."""

from __future__ import annotations

from typing import Any

from structurer._version import __version__
from structurer.api import analyze_pages
from structurer.learn.assemble import assemble_rules, detail_level, site_of
from structurer.learn.detail import DetailLearned, Layouts
from structurer.lexicon import load_lexicon
from structurer.rules.model import FieldRule, Levels, RenderDecision


def _share(products: list[dict[str, Any]], name: str) -> float:
    return round(sum(p.get(name) is not None for p in products) / len(products), 3)


def test_rule_files_from_given_pages_carry_baselines(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["outfitters"]
    products = {p["url"]: p for p in truth["products"]}
    lists = list(truth["list_pages"].items())[:3]
    rules = analyze_pages([url for url, _ in lists], "list")
    assert rules.levels.list is not None
    baseline = rules.levels.list.baseline
    assert baseline is not None and baseline.pages == 3
    counts = [len(page["items"]) for _, page in lists]
    assert baseline.items_per_page == sum(counts) / len(counts)
    listed = [products[item["url"]] for _, page in lists for item in page["items"]]
    rates = baseline.fill_rates
    assert rates["name"] == rates["price"] == rates["image"] == 1.0
    assert rates["original_price"] == _share(listed, "original_price") > 0
    assert rates["rating"] == _share(listed, "rating") > 0

    details = list(truth["detail_pages"])[:4]
    rules = analyze_pages(details, "detail")
    assert rules.levels.detail is not None
    baseline = rules.levels.detail.baseline
    assert baseline is not None and baseline.pages == 4 and baseline.items_per_page is None
    shown = [products[url] for url in details]
    assert baseline.fill_rates["name"] == baseline.fill_rates["sku"] == 1.0
    assert baseline.fill_rates["rating"] == _share(shown, "rating") < 1


def test_assembly_names_the_site_template_and_generator() -> None:
    lexicon = load_lexicon("ecommerce")
    name = FieldRule(xpath="//h1", kind="text", confidence=0.9)
    detail = detail_level(Layouts(DetailLearned({"name": name}, 0.9)), RenderDecision())
    assert detail is not None and detail.variants == []
    rules = assemble_rules(Levels(detail=detail), site=site_of("http://shop.example:8080/x"),
                           start_url="http://shop.example:8080/x", lexicon=lexicon,
                           template_path=None)
    assert rules.site == "shop.example:8080" and rules.generator == f"structurer {__version__}"
    assert (rules.template.name, rules.template.hash) == ("ecommerce", lexicon.content_hash())
    assert rules.levels.detail is not None and rules.levels.detail.baseline is None  # no pages
    assert detail_level(Layouts(DetailLearned({}, 0.0)), RenderDecision()) is None
    assert site_of("https://shop.example/") == "shop.example"
    assert site_of("http://[::1]:8001/") == "[::1]:8001"
