"""The news demo site: routes, HTTP answers and ground truth.

Input: a seed. Output: a site object with the duck type :class:`~structurer.demo.server.
DemoServer` serves (``name``, ``routes``, ``handle``) and :meth:`NewsSite.ground_truth`:
per article its title, text, publish date/time and author; per list page its main
list; per URL its page kind (``list``, ``detail``, ``other``). Not a shop: it is not in
:func:`structurer.demo.all_shops`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cached_property, partial
from typing import Any

from structurer.demo.base import Response, esc, placeholder_svg
from structurer.demo.news.article import render_article
from structurer.demo.news.corpus import Article, Section, build_articles, sections
from structurer.demo.news.parts import Picks, article_url, list_url
from structurer.demo.news.sections import render_home, render_list, render_plain

_PLAIN = {"/about/": "en", "/impressum/": "de", "/lianxi/": "zh"}


class NewsSite:
    """A deterministic three-language news site (the ``news`` lexicon's demo)."""

    name = "news"
    title = "The Harbour Post"
    hard = ("three article layouts and three list templates; dates as meta, <time> or bare "
            "text in three languages; long comment threads, teaser side lists, header dates")
    robots_txt = "User-agent: *\nDisallow: /search\n"

    def __init__(self, seed: int = 7) -> None:
        self.seed = seed
        self.sections: list[Section] = sections()
        self.articles: list[Article] = build_articles(seed)

    # ----- structure -------------------------------------------------------------------------
    def in_section(self, section: Section) -> list[Article]:
        return [a for a in self.articles if a.section == section]

    def pages_of(self, section: Section) -> list[list[Article]]:
        items, n = self.in_section(section), section.page_size
        return [items[i:i + n] for i in range(0, len(items), n)]

    def _picks(self, salt: int, lang: str, section: Section, exclude: set[int]) -> Picks:
        rng = random.Random(self.seed * 100_003 + salt)
        pool = [a for a in self.articles if a.lang == lang and a.id not in exclude]
        own = [a for a in pool if a.section == section]
        return Picks(related=rng.sample(own, 4), most_read=rng.sample(pool, 6),
                     recommended=rng.sample(pool, 4), ticker=rng.choice(pool),
                     long_texts=rng.random() < 0.7)

    def article_picks(self, a: Article) -> Picks:
        return self._picks(a.id, a.lang, a.section, {a.id})

    def list_picks(self, section: Section, page: int, items: list[Article]) -> Picks:
        salt = 10_000 + 100 * self.sections.index(section) + page
        return self._picks(salt, section.lang, section, {a.id for a in items})

    # ----- HTTP ------------------------------------------------------------------------------
    @staticmethod
    def _html(text: str, status: int = 200) -> Response:
        return Response(status, text.encode("utf-8"), "text/html; charset=utf-8")

    def _article_page(self, a: Article) -> Response:
        return self._html(render_article(a, self.sections, self.article_picks(a)))

    def _list_page(self, section: Section, page: int) -> Response:
        pages = self.pages_of(section)
        items = pages[page - 1]
        return self._html(render_list(section, page, len(pages), items, self.sections,
                                      self.list_picks(section, page, items)))

    def _home(self) -> Response:
        latest = {s.slug: self.in_section(s)[0] for s in self.sections}
        return self._html(render_home(self.sections, latest))

    @cached_property
    def routes(self) -> dict[str, Callable[[], Response]]:
        table: dict[str, Callable[[], Response]] = {
            "/": self._home,
            "/robots.txt": lambda: Response(200, self.robots_txt.encode(), "text/plain")}
        for path, lang in _PLAIN.items():
            table[path] = partial(lambda lg: self._html(render_plain(lg, self.sections)), lang)
        for section in self.sections:
            for n in range(1, len(self.pages_of(section)) + 1):
                table[list_url(section, n)] = partial(self._list_page, section, n)
        for a in self.articles:
            url = article_url(a)
            if url in table:
                raise ValueError(f"news demo site has two pages at {url}")
            table[url] = partial(self._article_page, a)
        return table

    def handle(self, path_and_query: str) -> Response:
        route = self.routes.get(path_and_query)
        if route is not None:
            return route()
        if path_and_query.startswith("/img/"):
            return Response(200, placeholder_svg(path_and_query), "image/svg+xml")
        if path_and_query.startswith("/static/"):
            return Response(200, b"body{font-family:serif}", "text/css")
        return self._html("<!doctype html><html><head><title>Not found</title></head><body>"
                          f"<h1>Page not found</h1><p>{esc(path_and_query)}</p></body></html>",
                          status=404)

    # ----- ground truth ------------------------------------------------------------------------
    def article_record(self, a: Article, base_url: str) -> dict[str, Any]:
        return {
            "url": base_url + article_url(a),
            "title": a.title,
            "content": a.content,
            "published": a.published.date().isoformat(),
            "published_datetime": a.published.isoformat() if a.show_time
            or a.time_mode != "text" else None,
            "author": a.author,
            "section": a.section.slug,
            "lang": a.lang,
            "layout": a.layout,
            "time_mode": a.time_mode,
        }

    def ground_truth(self, base_url: str) -> dict[str, Any]:
        """Everything a test or benchmark needs to score rule-free extraction here."""
        base_url = base_url.rstrip("/")
        pages: dict[str, str] = {base_url + "/": "other"}
        pages.update({base_url + p: "other" for p in _PLAIN})
        list_pages: dict[str, Any] = {}
        for section in self.sections:
            chunks = self.pages_of(section)
            for n, items in enumerate(chunks, start=1):
                url = base_url + list_url(section, n)
                pages[url] = "list"
                list_pages[url] = {
                    "section": section.slug, "page": n,
                    "next": base_url + list_url(section, n + 1) if n < len(chunks) else None,
                    "items": [base_url + article_url(a) for a in items],
                    "titles": [a.title for a in items]}
        articles = {}
        for a in self.articles:
            record = self.article_record(a, base_url)
            articles[record["url"]] = record
            pages[record["url"]] = "detail"
        return {"site": self.name, "title": self.title, "hard": self.hard,
                "base_url": base_url, "home": base_url + "/",
                "sections": [{"slug": s.slug, "name": s.name, "lang": s.lang,
                              "url": base_url + list_url(s)} for s in self.sections],
                "pages": pages, "list_pages": list_pages, "articles": articles}
