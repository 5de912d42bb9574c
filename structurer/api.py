"""The public entry points: a few lines each over ``explore`` and ``analyze/``.

Input: URLs or saved pages, a lexicon (name, path or object) and settings.
Output: :class:`SiteRules` (plus a report). Sync wrappers run the async
fetchers, so scripts and the CLI need no event loop of their own. ``analyze_many``
(from ``batch``) runs ``analyze_site`` over many shops, one process each.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from structurer import __version__
from structurer.config import Settings
from structurer.errors import AnalysisError, FetchError
from structurer.fetch import HttpFetcher, ReplayFetcher, run_sync
from structurer.fetch.base import Page
from structurer.learn.batch import ShopResult as ShopResult
from structurer.learn.batch import ShopTask as ShopTask
from structurer.learn.batch import analyze_many as analyze_many
from structurer.learn.batch import read_url_file as read_url_file
from structurer.learn.detail import learn_detail
from structurer.learn.explore import (
    ExploreReport,
    Progress,
    analyze_url,
    list_level,
    site_of,
    template_ref,
)
from structurer.learn.listing import learn_list
from structurer.learn.pagination import learn_pagination
from structurer.lexicon import Lexicon, load_lexicon, resolve_template
from structurer.page.view import PageView
from structurer.rules.model import SCHEMA_VERSION, DetailLevel, Levels, RenderDecision, SiteRules

LexiconArg = Lexicon | str | Path | None


def _lexicon(lexicon: LexiconArg) -> tuple[Lexicon, str | None]:
    if isinstance(lexicon, Lexicon):
        return lexicon, None
    name = lexicon or "ecommerce"
    path = resolve_template(name)
    shipped = Path(str(name)).suffix == ""
    return load_lexicon(path), None if shipped else str(path)


def analyze_site(url: str, lexicon: LexiconArg = None, settings: Settings | None = None, *,
                 progress: Progress | None = None) -> tuple[SiteRules, ExploreReport]:
    """Explore the shop at ``url`` and learn its rule file."""
    lex, path = _lexicon(lexicon)
    settings = settings or Settings()

    async def run() -> tuple[SiteRules, ExploreReport]:
        async with HttpFetcher(settings) as fetcher:
            return await analyze_url(url, lex, settings, fetcher, template_path=path,
                                     progress=progress)

    return run_sync(run())


def _is_url(text: str) -> bool:
    return urlsplit(text).scheme in ("http", "https")


def fetch_pages(pages: Sequence[str], settings: Settings | None = None) -> list[Page]:
    """Pages from URLs and/or saved files (``.html``, ``.htm.gz``), in order."""
    settings = settings or Settings()
    files = [p for p in pages if not _is_url(p)]
    for name in files:
        if not Path(name).is_file():
            raise FetchError("no such file", url=name)
    replay = ReplayFetcher.from_files(files) if files else None

    async def run() -> list[Page]:
        out: list[Page] = []
        async with HttpFetcher(settings) as http:
            for page in pages:
                if _is_url(page):
                    out.append(await http.fetch(page))
                else:
                    assert replay is not None
                    out.append(await replay.fetch(Path(page).resolve().as_uri()))
        return out

    return run_sync(run())


def analyze_pages(pages: Sequence[str], level: Literal["list", "detail"],
                  lexicon: LexiconArg = None, settings: Settings | None = None, *,
                  base_url: str | None = None) -> SiteRules:
    """Learn one level's rules from given sample pages, without exploring a site."""
    if len(pages) < 2:
        raise AnalysisError(f"--level {level} needs at least 2 sample pages (got {len(pages)})")
    lex, path = _lexicon(lexicon)
    fetched = fetch_pages(pages, settings)
    views = []
    for page in fetched:
        url = page.final_url if _is_url(page.final_url) else (base_url or page.final_url)
        views.append(PageView.from_html(url, page.text, lex))
    start = next((v.url for v in views if _is_url(v.url)), base_url or "http://localhost/")
    render = RenderDecision(mode="static", decided_by="default")
    if level == "list":
        learned = learn_list(views, lex)
        pagination = learn_pagination(views, lex.signals.get("next_page", {}))
        levels = Levels(list=list_level(learned, pagination))
    else:
        detail = learn_detail(views, lex)
        if not detail.fields:
            raise AnalysisError("no field of the lexicon was found on the sample pages",
                                url=views[0].url)
        levels = Levels(detail=DetailLevel(fields=detail.fields, render=render,
                                           confidence=detail.confidence))
    return SiteRules(schema_version=SCHEMA_VERSION, site=site_of(start), start_url=start,
                     generated_at=datetime.now(UTC).replace(microsecond=0),
                     generator=f"structurer {__version__}", template=template_ref(lex, path),
                     levels=levels)
