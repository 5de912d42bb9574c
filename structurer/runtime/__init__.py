"""The runtime: replaying site rule files on pages (and, later, crawling with them).

Input: :class:`~structurer.rules.model.SiteRules` and parsed pages. Output: product
records, next-page URLs and category links. ``compile_rules`` once per rule file,
then ``extract_page`` (or ``extract_list`` / ``extract_detail`` /
``extract_categories`` when the caller knows the page's level) per page.

Crawling: ``crawl_site(rules, sink, settings)`` replays a rule file over a whole site
into a sink (:mod:`structurer.runtime.crawl`); it is imported on first use, so that
extraction alone does not load the crawler (aiohttp, SQLite state, live display).
"""

from typing import TYPE_CHECKING, Any

from structurer.runtime.extract import (
    CompiledRules,
    ListResult,
    PageResult,
    compile_rules,
    extract_categories,
    extract_detail,
    extract_list,
    extract_page,
)

if TYPE_CHECKING:
    from structurer.runtime.crawl import CrawlResult, crawl_site

__all__ = ["CompiledRules", "CrawlResult", "ListResult", "PageResult", "compile_rules",
           "crawl_site", "extract_categories", "extract_detail", "extract_list", "extract_page"]


def __getattr__(name: str) -> Any:
    if name in ("CrawlResult", "crawl_site"):
        from structurer.runtime import crawl

        return getattr(crawl, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
