"""The shop's sitemaps as analysis reads them: the page URLs they list.

Input: the :class:`~structurer.learn.explore.Explorer` of the analysis and its entry
URL. Output: (the sitemaps that listed URLs or indexes, the page URLs they list),
read once per analysis through the analysis fetcher (its scope and robots.txt) and
kept on the explorer. The sitemaps are robots.txt's ``Sitemap:`` lines on the entry's
host, else ``/sitemap.xml``; indexes are followed, at most ``sitemap_files`` files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from structurer.errors import AnalysisError, FetchError
from structurer.page.sitemaps import parse_sitemap, robots_sitemaps

if TYPE_CHECKING:
    from structurer.learn.explore import Explorer

__all__ = ["shop_sitemaps"]


def _same_host(url: str, base: str) -> bool:
    return urlsplit(url).netloc.lower() == urlsplit(base).netloc.lower()


async def shop_sitemaps(ex: Explorer, start: str) -> tuple[list[str], list[str]]:
    """(sitemaps that listed URLs or indexes, the page URLs they list), read once."""
    if ex.sitemaps is None:
        ex.sitemaps = await _sitemap_urls(ex, start)
    return ex.sitemaps


async def _sitemap_urls(ex: Explorer, start: str) -> tuple[list[str], list[str]]:
    parts = urlsplit(start)
    origin = f"{parts.scheme}://{parts.netloc}"
    roots: list[str] = []
    try:
        robots = await ex.sampler.fetch_raw(origin + "/robots.txt")
        roots = robots_sitemaps(robots.text, origin + "/")
    except FetchError:
        pass
    roots = [u for u in roots if _same_host(u, start)] or [origin + "/sitemap.xml"]
    todo, read = list(roots), 0
    found: list[str] = []
    urls: list[str] = []
    settings = ex.settings
    while todo and read < ex.lexicon.thresholds.sitemap_files:
        url = todo.pop(0)
        read += 1
        try:
            page = await ex.sampler.fetch_raw(url)
        except (FetchError, AnalysisError):
            continue
        sitemap = parse_sitemap(page.body, page.final_url or url,
                                max_bytes=settings.max_page_bytes,
                                max_urls=settings.max_sitemap_urls)
        if not sitemap.urls:
            continue
        if url in roots and url not in found:
            found.append(url)
        if sitemap.index:
            todo += [u for u in sitemap.urls if _same_host(u, start)]
        else:
            urls += sitemap.urls
    return found, urls
