"""A zoo shop on the demo server: routes, JSON endpoints, session behaviour, truth.

Input: a seed. Output: :class:`ZooShop`, which :class:`~structurer.demo.server.DemoServer`
serves like a demo shop (``name``, ``routes``, ``handle``) and which also answers
with the request's headers (:meth:`ZooShop.handle_request`): the ``session`` axis needs
them for its cookie-driven "recently viewed" block. ``requests`` records every path
asked for (the benchmark counts the listing pages a crawl reached from it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from http.cookies import CookieError, SimpleCookie
from typing import Any

from structurer.demo.base import Response, esc, json_response, placeholder_svg, static_file
from structurer.demo.catalog import Category
from structurer.demo.zoo.model import Item, Zoo, build_zoo
from structurer.demo.zoo.nav import INFO_PAGES, menu_data, robots_txt, sitemap_files
from structurer.demo.zoo.pages import (
    Doc,
    charset,
    detail_doc,
    grid_json,
    home_doc,
    info_doc,
    list_doc,
    page_html,
    view,
)
from structurer.demo.zoo.truth import ground_truth
from structurer.demo.zoo.urls import route_key

Builder = Callable[[Sequence[Item]], Doc]
RouteKey = tuple[str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class Route:
    """One HTML page: its kind (home, list, detail, info), URL, builder and product."""

    kind: str
    url: str
    build: Builder
    item: Item | None = None


IMAGE_SUFFIXES = (".jpg", ".png", ".webp", ".svg")
RECENT = "recently_viewed"


class ZooShop:
    """The shop of one seed (see :mod:`structurer.demo.zoo`)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.zoo: Zoo = build_zoo(seed)
        self.name = f"zoo-{seed}"
        self.title = self.zoo.title
        self.axes: dict[str, str] = dict(self.zoo.axes)
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._failed: set[RouteKey] = set()

    # ----- pages ----------------------------------------------------------------------------------
    @cached_property
    def pages(self) -> dict[RouteKey, Route]:
        """Every HTML page by its route key (the URL with its query sorted)."""
        z = self.zoo
        out: dict[RouteKey, Route] = {}

        def add(route: Route) -> None:
            key = route_key(route.url)
            if key in out:
                raise ValueError(f"zoo shop {self.seed} has two pages at {route.url}")
            out[key] = route

        add(Route("home", "/", lambda recent: home_doc(z)))
        for cat in z.catalog.categories:
            for n in range(1, len(z.pages_of(cat)) + 1):
                add(Route("list", z.urls.category(cat, n), partial(_list, z, cat, n)))
        for it in z.items:
            add(Route("detail", z.urls.product(it.product), partial(_detail, z, it), it))
        for slug in INFO_PAGES:
            add(Route("info", f"/pages/{slug}", partial(_info, z, z.t(slug))))
        return out

    @property
    def routes(self) -> dict[str, Callable[[], Response]]:
        return {route.url: partial(self.handle, route.url) for route in self.pages.values()}

    def _client(self, kind: str) -> bool:
        axes = self.axes
        if kind == "list":
            return axes["list_render"] == "client"
        if kind == "detail":
            return axes["detail_render"] == "client"
        return kind == "home" and axes["list_render"] == axes["detail_render"] == "client"

    # ----- answering ------------------------------------------------------------------------------
    def handle(self, path_and_query: str) -> Response:
        return self.handle_request(path_and_query, {})

    def handle_request(self, path_and_query: str, headers: Mapping[str, str]) -> Response:
        """The answer to a GET, given the request's headers (cookies, host)."""
        with self._lock:
            self.requests.append(path_and_query)
        head = {k.lower(): v for k, v in headers.items()}
        key = route_key(path_and_query)
        route = self.pages.get(key)
        if route is not None:
            if self.axes["session"] == "first_500" and self._first_hit(key):
                return self._html("<!DOCTYPE html><html><head><title>Error</title></head><body>"
                                  "<h1>Internal Server Error</h1><p>Please try again.</p>"
                                  "</body></html>", status=500)
            doc = route.build(self._recent(head, route))
            shell = self.zoo.urls.api_view(route.url) if self._client(route.kind) else None
            return self._remember(self._html(page_html(self.zoo, doc, shell=shell)), route, head)
        base = f"http://{head.get('host', '127.0.0.1')}"
        other = self._other(key, base, head)
        if other is not None:
            return other
        path = key[0]
        if path.startswith("/brands/"):
            return self._html(page_html(self.zoo, info_doc(self.zoo, path.split("/")[-1])))
        if path.endswith(IMAGE_SUFFIXES):
            return Response(200, placeholder_svg(path), "image/svg+xml",
                            {"Cache-Control": "max-age=86400"})
        return self._html("<!DOCTYPE html><html><head><title>Not found</title></head><body>"
                          f"<h1>Page not found</h1><p>{esc(path_and_query)}</p>"
                          '<a href="/">Home</a></body></html>', status=404)

    def _other(self, key: RouteKey, base: str, head: Mapping[str, str]) -> Response | None:
        """robots.txt, sitemaps, the script and styles, and the JSON endpoints."""
        z, path = self.zoo, key[0]
        if path == "/robots.txt":
            return Response(200, robots_txt(z, base).encode(), "text/plain; charset=utf-8")
        sitemaps = sitemap_files(z, base)
        if path in sitemaps:
            return Response(200, sitemaps[path].encode(), "application/xml")
        if path == z.look.script:
            return Response(200, static_file("zoo.js"), "application/javascript; charset=utf-8")
        if path == z.look.css:
            return Response(200, static_file("zoo.css"), "text/css; charset=utf-8")
        if path == z.urls.api_menu() and self.axes["discovery"] == "script_menu":
            return json_response({"categories": menu_data(z)})
        query = dict(key[1])
        if path == z.urls.api + "grid":
            return self._grid(query)
        if path == z.urls.api + "view" and "u" in query:
            route = self.pages.get(route_key(query["u"]))
            if route is not None and self._client(route.kind):
                answer = json_response(view(route.build(self._recent(head, route))))
                return self._remember(answer, route, head)
        return None

    def _grid(self, query: Mapping[str, str]) -> Response | None:
        z = self.zoo
        for cat in z.catalog.categories:
            if str(z.urls.cat_id(cat)) == query.get("c") and z.lists_products(cat):
                page = query.get("page", "1")
                if page.isdigit() and 1 <= int(page) <= len(z.pages_of(cat)):
                    return json_response(grid_json(z, cat, int(page)))
        return None

    def _html(self, text: str, *, status: int = 200) -> Response:
        code = charset(self.zoo)
        return Response(status, text.encode(code, "xmlcharrefreplace"),
                        f"text/html; charset={code}")

    def _first_hit(self, key: RouteKey) -> bool:
        """True the first time a page is asked for (it then fails once, like a cold cache)."""
        with self._lock:
            if key in self._failed:
                return False
            self._failed.add(key)
            return True

    # ----- the "recently viewed" cookie -----------------------------------------------------------
    def _recent(self, head: Mapping[str, str], route: Route) -> list[Item]:
        if route.item is None or self.axes["session"] != RECENT:
            return []
        ids = _cookie_ids(head.get("cookie", ""))
        by_public = {self.zoo.urls.product_id(i.product): i for i in self.zoo.items}
        return [by_public[i] for i in ids if i in by_public][:4]

    def _remember(self, response: Response, route: Route, head: Mapping[str, str]) -> Response:
        """Detail answers of a recently-viewed shop put the product first in the cookie."""
        if route.item is None or self.axes["session"] != RECENT:
            return response
        pid = self.zoo.urls.product_id(route.item.product)
        seen = [pid] + [i for i in _cookie_ids(head.get("cookie", "")) if i != pid]
        response.headers["Set-Cookie"] = (f"{RECENT}={'.'.join(map(str, seen[:6]))}; Path=/; "
                                          "SameSite=Lax")
        return response

    # ----- truth ----------------------------------------------------------------------------------
    def ground_truth(self, base_url: str) -> dict[str, Any]:
        return ground_truth(self.zoo, base_url)


def _cookie_ids(header: str) -> list[int]:
    try:
        jar = SimpleCookie(header)
    except CookieError:
        return []
    morsel = jar.get(RECENT)
    if morsel is None:
        return []
    return [int(x) for x in morsel.value.split(".") if x.isdigit()]


def _list(z: Zoo, cat: Category, page: int, recent: Sequence[Item]) -> Doc:
    return list_doc(z, cat, page)


def _detail(z: Zoo, it: Item, recent: Sequence[Item]) -> Doc:
    return detail_doc(z, it, [r for r in recent if r.id != it.id])


def _info(z: Zoo, heading: str, recent: Sequence[Item]) -> Doc:
    return info_doc(z, heading)
