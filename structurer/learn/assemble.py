"""Assembling a rule file from what was learned: the one place a :class:`SiteRules` is built.

Input: the learned levels (the category link group, the list layouts with their
pagination, the detail layouts) with each level's render decision, the site and entry
URL, the lexicon (and the path of a template file) and the sample pages the rules were
learned from. Output: :class:`SiteRules` — levels, template reference, generator — with
baselines: what replaying the rules on the sample pages gave (items per list page,
per-field fill rates), which a crawl compares against to notice that a site changed.
``structurer analyze`` (:mod:`structurer.learn.explore`) and learning one level from
given pages (:func:`structurer.api.analyze_pages`) both build their rule files here, so
both drift-check alike.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from urllib.parse import urlsplit

from structurer._version import __version__
from structurer.config import Settings
from structurer.fetch.scope import address
from structurer.learn.categories import LinkGroup, category_xpath
from structurer.learn.confidence import confirm_lists
from structurer.learn.detail import Layouts
from structurer.learn.listing import ListLayouts, ListLearned
from structurer.learn.listnames import uncut_by_details
from structurer.learn.pagination import PaginationGuess, learn_pagination
from structurer.lexicon import Lexicon, PagingVocab, shipped_vocabulary
from structurer.page.view import PageView
from structurer.replay.extract import CompiledRules, compile_rules, extract_detail, extract_list
from structurer.replay.records import record_columns_for
from structurer.rules.model import (
    SCHEMA_VERSION,
    Baseline,
    CategoryLevel,
    DetailLevel,
    DetailVariant,
    Levels,
    ListLevel,
    ListVariant,
    Pagination,
    RecordSpec,
    RenderDecision,
    SiteRules,
    TemplateRef,
)

__all__ = ["assemble_rules", "category_level", "detail_level", "list_level", "list_levels",
           "shortfall", "site_of", "template_ref", "with_baselines"]


def template_ref(lexicon: Lexicon, path: str | None) -> TemplateRef:
    return TemplateRef(name=lexicon.name, hash=lexicon.content_hash(), path=path)


def site_of(url: str) -> str:
    """``host``, or ``host:port`` off the default port (``[v6]:port`` for IPv6)."""
    where = address(url)
    if where is None:
        return (urlsplit(url).hostname or "local").lower()
    host = f"[{where.host}]" if ":" in where.host else where.host
    return host if where.default_port else f"{host}:{where.port}"


# ----- levels ------------------------------------------------------------------------------
def _pagination(guess: PaginationGuess | None) -> Pagination | None:
    if guess is None or (guess.method == "link" and not guess.next_xpath):
        return None
    return Pagination(method=guess.method,
                      next_xpath=guess.next_xpath, url_pattern=guess.url_pattern,
                      first_page=guess.first_page, step=guess.step, page_size=guess.page_size,
                      more_xpath=guess.more_xpath, confidence=guess.confidence,
                      samples=[u for u in guess.next_urls if u][:3], verified=guess.verified)


def list_level(learned: ListLearned, pagination: PaginationGuess | None,
               render: RenderDecision | None = None) -> ListLevel:
    """The list level of one learned layout."""
    return ListLevel(item_xpath=learned.item_xpath, detail_link_xpath=learned.detail_link_xpath,
                     fields=learned.fields, pagination=_pagination(pagination),
                     render=render or RenderDecision(), confidence=learned.confidence)


def list_levels(layouts: ListLayouts, lists: Sequence[PageView],
                pagination: PaginationGuess | None, vocab: PagingVocab,
                render: RenderDecision) -> ListLevel:
    """The list level of the main layout, with the other layouts as its variants (each
    with its own pagination where that differs from the main one's)."""
    variants = []
    for i, (when, other, ids) in enumerate(layouts.variants):
        own = learn_pagination([lists[j] for j in ids], vocab)
        variants.append(ListVariant(
            name=f"layout {i + 2}", when=when, item_xpath=other.item_xpath,
            detail_link_xpath=other.detail_link_xpath, fields=other.fields,
            pagination=_pagination(own) if own and pagination is not None and
            pagination.method == "link" and own.next_xpath != pagination.next_xpath else None))
    main = list_level(layouts.main, pagination, render)
    return main.model_copy(update={"variants": variants})


def detail_level(layouts: Layouts | None, render: RenderDecision) -> DetailLevel | None:
    """The detail level of the main layout, the others as variants; None when the main
    layout has no field."""
    if layouts is None or not layouts.main.fields:
        return None
    variants = [DetailVariant(name=f"layout {i + 2}", when=when, fields=other.fields)
                for i, (when, other) in enumerate(layouts.variants) if other.fields]
    return DetailLevel(fields=layouts.main.fields, render=render,
                       confidence=layouts.main.confidence, variants=variants)


def category_level(entry: PageView, group: LinkGroup, lists: Sequence[PageView],
                   render: RenderDecision, item_xpath: str | None = None,
                   leading: Collection[str] = (), checked: Collection[str] | None = None
                   ) -> CategoryLevel:
    """The entry page's category links: the group whose links led to the list pages
    (an XPath that selects no link inside their items, ``item_xpath``'s). Its confidence
    is the share right of the links it selects that analysis fetched (``checked``; None:
    all): a list page, or a department page ``leading`` to list pages (its sub-categories')."""
    good = {p.url for p in lists}
    items = [(p.tree, item_xpath) for p in lists if item_xpath]
    xpath = category_xpath(entry, group, good, items)
    selected = set(entry.tree.xpath(xpath))
    chosen = [u for u, _, a in group.links if a in selected] or group.urls
    measured = [u for u in chosen if checked is None or u in checked or u in good] or chosen
    right = good | set(leading)
    return CategoryLevel(
        link_xpath=xpath, render=render,
        confidence=round(sum(u in right for u in measured) / len(measured), 2),
        samples=[t for _, t, a in group.links if t and (a in selected or not selected)][:5])


# ----- baselines ---------------------------------------------------------------------------
def _list_baseline(compiled: CompiledRules, fields: Sequence[str],
                   pages: Sequence[PageView]) -> Baseline:
    counts: list[int] = []
    paged = 0
    filled: dict[str, int] = dict.fromkeys(fields, 0)
    for page in pages:
        result = extract_list(compiled, page.tree, page.url, jsonld=page.jsonld)
        items = result.items
        counts.append(len(items))
        paged += result.next_url is not None
        for item in items:
            for name in filled:
                filled[name] += item.get(name) not in (None, "", [])
    total = max(sum(counts), 1)
    per_category = round(1 + paged / len(pages), 2) if compiled.lists[-1].pagination else None
    return Baseline(pages=len(pages), items_per_page=round(sum(counts) / len(counts), 2),
                    pages_per_category=per_category,
                    fill_rates={k: round(v / total, 3) for k, v in filled.items()})


def _detail_baseline(compiled: CompiledRules, fields: Sequence[str],
                     pages: Sequence[PageView]) -> Baseline:
    filled = dict.fromkeys(fields, 0)
    for page in pages:
        record = extract_detail(compiled, page.tree, page.url, jsonld=page.jsonld)
        for name in filled:
            filled[name] += record.get(name) not in (None, "", [])
    return Baseline(pages=len(pages), fill_rates={
        k: round(v / len(pages), 3) for k, v in filled.items()})


def with_baselines(rules: SiteRules, lists: Sequence[PageView],
                   details: Sequence[PageView]) -> SiteRules:
    """The rules with what replaying them on the sample pages gave: items per list page
    and per-field fill rates (a crawl compares against these to notice a changed site)."""
    compiled = compile_rules(rules)
    levels = rules.levels
    if levels.list is not None and lists:
        baseline = _list_baseline(compiled, list(levels.list.fields), lists)
        levels = levels.model_copy(update={"list": levels.list.model_copy(
            update={"baseline": baseline})})
    if levels.detail is not None and details:
        baseline = _detail_baseline(compiled, list(levels.detail.fields), details)
        levels = levels.model_copy(update={"detail": levels.detail.model_copy(
            update={"baseline": baseline})})
    return rules.model_copy(update={"levels": levels})


# ----- the rule file -----------------------------------------------------------------------
def assemble_rules(levels: Levels, *, site: str, start_url: str, lexicon: Lexicon,
                   template_path: str | None, lists: Sequence[PageView] = (),
                   details: Sequence[PageView] = (), session: bool = False) -> SiteRules:
    """The rule file of ``levels`` for ``site``, learned with ``lexicon`` (from the
    template file ``template_path``, None for a shipped one), with the baselines of
    the sample pages ``lists`` and ``details``; ``session``: the pages were read keeping
    cookies, and a crawl should too."""
    rules = SiteRules(
        schema_version=SCHEMA_VERSION, site=site, start_url=start_url, session=session,
        generated_at=datetime.now(UTC).replace(microsecond=0),
        generator=f"structurer {__version__}", template=template_ref(lexicon, template_path),
        record=RecordSpec(columns=record_columns_for(lexicon),
                          vocabulary=lexicon.vocabulary.differing(shipped_vocabulary())),
        levels=levels)
    rules = uncut_by_details(rules, lists, details, lexicon)
    return with_baselines(confirm_lists(rules, lists, details, lexicon), lists, details)


def shortfall(rules: SiteRules, fetched: int, budget: int) -> str | None:
    """What a crawl of ``rules`` will lack, and why, when analysis ran out of pages (or
    found no product page to learn from); None when the rule file is complete."""
    if rules.levels.detail is not None:
        return None
    if fetched >= budget:
        return (f"no detail level, so a crawl gives only what list pages show: the page "
                f"budget (--max-pages {budget}) ran out before enough product pages were "
                f"read; run again with more pages (default: "
                f"{Settings.model_fields['analyze_max_pages'].default})")
    return ("no detail level: no product page could be learned, so a crawl gives only "
            "what list pages show")
