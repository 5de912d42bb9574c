"""The public entry points: a few lines each over ``learn``, ``replay``, ``generic`` and
``crawl``.

Input: URLs or saved pages, a lexicon (name, path or object) and settings.
Output: :class:`SiteRules` (plus a report). Sync wrappers run the async
fetchers, so scripts and the CLI need no event loop of their own. ``analyze_many``
(``learn.batch``) runs ``analyze_site`` over many shops, one process each. For one
page's HTML (text or bytes): ``extract_page`` (rule-free) and ``extract`` (by a rule
file); ``crawl`` runs a rule file's crawl as an iterator of records.
"""

from __future__ import annotations

import functools
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from structurer.config import Settings
from structurer.errors import AnalysisError, StructurerError
from structurer.fetch import open_fetcher, run_sync
from structurer.fetch.base import Page
from structurer.learn import batch
from structurer.learn.assemble import assemble_rules, detail_level, list_level, site_of
from structurer.learn.batch import ShopResult as ShopResult
from structurer.learn.batch import ShopTask as ShopTask
from structurer.learn.batch import read_url_file as read_url_file
from structurer.learn.detail import Layouts, learn_detail
from structurer.learn.explore import ExploreReport, Progress, analyze_url
from structurer.learn.listing import learn_list
from structurer.learn.pagination import learn_pagination
from structurer.lexicon import Lexicon, load_lexicon, resolve_template
from structurer.page.view import PageView
from structurer.rules.model import Levels, RenderDecision, SiteRules
from structurer.schema import RenderMode

if TYPE_CHECKING:
    from structurer.crawler.engine import CrawlResult
    from structurer.replay import CompiledRules

LexiconArg = Lexicon | str | Path | None


def _lexicon(lexicon: LexiconArg) -> tuple[Lexicon, str | None]:
    if isinstance(lexicon, Lexicon):
        return lexicon, None
    name = lexicon or "ecommerce"
    path = resolve_template(name)
    shipped = Path(str(name)).suffix == ""
    stat = path.stat()
    return _loaded(path, stat.st_mtime_ns, stat.st_size), None if shipped else str(path)


@functools.lru_cache(maxsize=16)
def _loaded(path: Path, mtime_ns: int, size: int) -> Lexicon:
    """A lexicon file read once while it is unchanged (extract_page on many pages)."""
    return load_lexicon(path)


def analyze_site(url: str, lexicon: LexiconArg = None, settings: Settings | None = None, *,
                 progress: Progress | None = None) -> tuple[SiteRules, ExploreReport]:
    """Explore the shop at ``url`` and learn its rule file."""
    lex, path = _lexicon(lexicon)
    settings = settings or Settings()

    async def run() -> tuple[SiteRules, ExploreReport]:
        async with open_fetcher(RenderMode.STATIC, settings) as fetcher:
            return await analyze_url(url, lex, settings, fetcher, template_path=path,
                                     progress=progress)

    return run_sync(run())


def analyze_many(tasks: Sequence[ShopTask | str], out: str | Path, template: LexiconArg = None,
                 settings: Settings | None = None, *, worker: batch.Worker | None = None,
                 **options: Any) -> list[ShopResult]:
    """Run :func:`analyze_site` over many shops, one process each, writing their rule
    files to ``out``; options as :func:`structurer.learn.batch.analyze_many` (``jobs``,
    ``timeout``, the callbacks ``on_start``, ``on_progress``, ``on_done``; ``worker``
    replaces the analysis of one shop)."""
    return batch.analyze_many(tasks, out, template, settings,
                              worker=worker or batch.shop_worker(analyze_site), **options)


def _is_url(text: str) -> bool:
    return urlsplit(text).scheme in ("http", "https")


def fetch_pages(pages: Sequence[str], settings: Settings | None = None, *,
                base_url: str | None = None) -> list[Page]:
    """Pages from URLs and/or saved files (``.html``, ``.htm.gz``), in order, read by
    :func:`structurer.sources.read_pages` (size-bounded; ``base_url`` is the URL of the one
    saved page, or with a trailing ``/`` the folder the files were saved from)."""
    from structurer.sources import read_pages

    return [Page(url=s.given, final_url=s.url, status=s.status, body=s.body, text=s.text,
                 encoding=s.encoding, headers=s.headers, rendered=s.rendered)
            for s in read_pages(pages, settings, base_url=base_url)]


def analyze_pages(pages: Sequence[str], level: Literal["list", "detail"],
                  lexicon: LexiconArg = None, settings: Settings | None = None, *,
                  base_url: str | None = None) -> SiteRules:
    """Learn one level's rules from given sample pages, without exploring a site."""
    if len(pages) < 2:
        raise StructurerError(f"--level {level} needs at least 2 sample pages "
                              f"(got {len(pages)})")
    lex, path = _lexicon(lexicon)
    views = [PageView.from_html(page.final_url, page.text, lex)
             for page in fetch_pages(pages, settings, base_url=base_url)]
    start = next((v.url for v in views if _is_url(v.url)), "http://localhost/")
    if level == "list":
        learned = learn_list(views, lex)
        pagination = learn_pagination(views, lex.pagination)   # saved pages: not walked
        levels = Levels(list=list_level(learned, pagination))
    else:
        detail = detail_level(Layouts(learn_detail(views, lex)), RenderDecision())
        if detail is None:
            raise AnalysisError("no field of the lexicon was found on the sample pages",
                                url=views[0].url)
        levels = Levels(detail=detail)
    return assemble_rules(levels, site=site_of(start), start_url=start, lexicon=lex,
                          template_path=path, lists=views if level == "list" else (),
                          details=views if level == "detail" else ())


# ----- one page, with or without rules; a crawl as an iterator --------------------------------
RulesArg = SiteRules | str | Path


def _site_rules(rules: RulesArg) -> SiteRules:
    if isinstance(rules, SiteRules):
        return rules
    from structurer.rules import load_rules

    return load_rules(rules)


def _text(html: str | bytes) -> str:
    """A page's text: bytes are decoded as a fetched page's are (BOM, <meta>, sniffing)."""
    if isinstance(html, str):
        return html
    from structurer.clean import decode_html

    return decode_html(html)[0]


def extract_page(html: str | bytes, url: str, template: LexiconArg = "ecommerce"
                 ) -> dict[str, Any]:
    """Rule-free extraction of one page, what ``structurer extract-page`` prints: its
    ``kind`` and, for a detail page, every ``fields`` value of the template (with
    ``sources``), for a list page the main list's ``items``."""
    from structurer.generic.extract import extract_page_generic

    lex, _ = _lexicon(template)
    return extract_page_generic(_text(html), url, lex)


def extract(rules: RulesArg | CompiledRules, html: str | bytes, url: str,
            level: Literal["list", "detail", "auto"] = "auto") -> list[dict[str, Any]]:
    """The records a rule file gives on one page, as ``structurer extract`` prints them:
    one per product of a list page, one for a detail page (records with nothing but
    their ``url`` left out). For many pages pass ``compile_rules(rules)`` once."""
    from structurer.clean import parse_html
    from structurer.replay import CompiledRules, compile_rules
    from structurer.replay import extract_page as replay_page

    compiled = rules if isinstance(rules, CompiledRules) else compile_rules(_site_rules(rules))
    result = replay_page(compiled, parse_html(_text(html), url), url, level)
    return [r for r in result.records
            if any(v not in (None, []) for k, v in r.items() if k != "url")]


def crawl(rules: RulesArg, settings: Settings | None = None, **options: Any
          ) -> Generator[dict[str, Any], None, CrawlResult]:
    """Crawl the site of a rule file, yielding each product record as it is emitted (the
    records ``structurer crawl`` writes), with no output file; ``break`` stops the crawl.
    ``options`` as :func:`structurer.crawler.engine.crawl_records` (``max_pages``,
    ``state`` ...); the generator returns the crawl's result (statistics)."""
    from structurer.crawler.engine import crawl_records

    return crawl_records(_site_rules(rules), settings, **options)
