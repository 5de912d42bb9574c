"""A tiny shop for pagination tests, one pager kind at a time, served on 127.0.0.1.

Three categories of 10, 9 and 3 products, four to a page; the server renders every list
page by its URL whatever the pager looks like (as most shops do), and records each
request so tests can check that every list page was fetched once. Pager kinds:
``shared_class`` (previous, numbers and next all ``a.page-link``, German words),
``numbered`` (numbers only), ``rel_head`` (``<link rel=next>`` in the head only),
``path`` (``/page/N`` after a path without trailing slash, arrows with aria-label),
``offset`` (``?start=N`` numbered links), ``script`` (``href="#"`` and ``data-page``),
``load_more`` (a button, no link), ``api_more`` (a button whose script loads the next
items from a JSON endpoint; no page URL serves them), ``api_scroll`` (the same, loaded
when a sentinel at the bottom is scrolled near) and ``stuck`` (every ``?page=N`` answers
page 1 again, with a next link: no pagination can be verified).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from tests.server import LoopbackServer, send

SIZE = 4
CATEGORIES = {"boots": 10, "tents": 9, "stoves": 3}
NAMES = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel", "Ivy", "Juniper"]
MORE_SCRIPT = """<script>
document.addEventListener('click', function (e) {
  var b = e.target.closest('button.more'); if (!b) return;
  var n = Number(b.getAttribute('data-next'));
  fetch('/api/' + b.getAttribute('data-cat') + '?n=' + n).then(r => r.json()).then(d => {
    document.querySelector('ul.products').insertAdjacentHTML('beforeend', d.html);
    b.parentNode.innerHTML = d.more;
  });
});
</script>"""
SCROLL_SCRIPT = """<style>li.product { height: 320px; }</style><script>
var busy = false;
window.addEventListener('scroll', function () {
  var s = document.querySelector('[data-next]');
  if (busy || !s || s.getBoundingClientRect().top > window.innerHeight + 200) return;
  busy = true;
  fetch('/api/' + s.getAttribute('data-cat') + '?n=' + s.getAttribute('data-next'))
    .then(r => r.json()).then(d => {
      document.querySelector('ul.products').insertAdjacentHTML('beforeend', d.html);
      s.parentNode.innerHTML = d.more; busy = false;
    });
});
</script>"""


def products(cat: str) -> list[tuple[str, str, int]]:
    """(slug, name, price) of a category's products."""
    return [(f"{cat}-{i}", f"{NAMES[i]} {cat.title()[:-1]} {i + 1}", 20 + 7 * i)
            for i in range(CATEGORIES[cat])]


def pages_of(cat: str) -> int:
    return -(-CATEGORIES[cat] // SIZE)


def list_url(kind: str, cat: str, n: int) -> str:
    base = f"/c/{cat}" if kind == "path" else f"/c/{cat}/"
    if n == 1:
        return base
    if kind == "path":
        return f"{base}/page/{n}"
    if kind == "offset":
        return f"{base}?start={(n - 1) * SIZE}"
    return f"{base}?page={n}"


def _cards(cat: str, n: int) -> str:
    return "".join(f'<li class="product"><a class="title" href="/p/{slug}.html">{name}</a>'
                   f'<span class="price">€{price}.00</span></li>'
                   for slug, name, price in products(cat)[(n - 1) * SIZE:n * SIZE])


def _pager(kind: str, cat: str, n: int) -> str:
    total = pages_of(cat)

    def url(k: int) -> str:
        return list_url(kind, cat, k)
    if total < 2:
        return ""
    if kind in ("load_more", "api_more"):
        return "" if n >= total else (f'<div class="loader"><button type="button" class="more" '
                                      f'data-cat="{cat}" data-next="{n + 1}">Mehr laden'
                                      "</button></div>")
    if kind == "api_scroll":
        return "" if n >= total else (f'<div class="loader"><div class="sentinel" '
                                      f'data-cat="{cat}" data-next="{n + 1}"></div></div>')
    if kind in ("rel_head", "stuck"):
        return ""
    script = kind == "script"
    links = []
    for k in range(1, total + 1):
        href = "#" if script else url(k)
        links.append(f'<li class="page-item"><span class="page-link current">{k}</span></li>'
                     if k == n else f'<li class="page-item"><a class="page-link" href="{href}"'
                     f' data-page="{k}">{k}</a></li>')
    if kind in ("shared_class", "script", "path"):
        words = ("«", "»") if kind == "path" else ("Zurück", "Weiter")
        label = ' aria-label="{}"'
        if n > 1:
            href = "#" if script else url(n - 1)
            links.insert(0, f'<li class="page-item"><a class="page-link" href="{href}"'
                         f'{label.format("Previous") if kind == "path" else ""}>{words[0]}'
                         "</a></li>")
        if n < total:
            href = "#" if script else url(n + 1)
            links.append(f'<li class="page-item"><a class="page-link" href="{href}"'
                         f'{label.format("Next") if kind == "path" else ""}>{words[1]}</a></li>')
    return f'<ul class="pagination">{"".join(links)}</ul>'


def _doc(kind: str, title: str, body: str, head: str = "") -> str:
    menu = "".join(f'<li><a href="{list_url(kind, c, 1)}">{c.title()}</a></li>'
                   for c in CATEGORIES)
    return (f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>"
            f'<header><nav class="menu"><ul>{menu}</ul></nav></header>'
            f"<main>{body}</main><footer><p>Tiny Outdoor Shop</p></footer></body></html>")


def site(kind: str) -> dict[str, str]:
    """Path (with query) -> HTML of every page of the shop."""
    pages = {"/": _doc(kind, "Tiny Outdoor Shop", "<h1>Welcome</h1><p>Outdoor gear.</p>")}
    for cat in CATEGORIES:
        for n in range(1, pages_of(cat) + 1):
            head = ""
            if kind == "rel_head" and n < pages_of(cat):
                head = f'<link rel="next" href="{list_url(kind, cat, n + 1)}">'
            script = {"api_more": MORE_SCRIPT, "api_scroll": SCROLL_SCRIPT}.get(kind, "")
            body = (f"<h1>{cat.title()}</h1><p>{CATEGORIES[cat]} products</p>"
                    f'<ul class="products">{_cards(cat, n)}</ul>{_pager(kind, cat, n)}{script}')
            if kind == "stuck":   # page 1's items at every page URL, a next link onwards
                stuck = (f"<h1>{cat.title()}</h1><p>{CATEGORIES[cat]} products</p>"
                         f'<ul class="products">{_cards(cat, 1)}</ul>'
                         f'<a class="next" href="/c/{cat}/?page={n + 1}">Next</a>')
                pages[list_url(kind, cat, n)] = _doc(kind, cat.title(), stuck)
            elif not kind.startswith("api_") or n == 1:
                pages[list_url(kind, cat, n)] = _doc(kind, cat.title(), body, head)
        for slug, name, price in products(cat):
            pages[f"/p/{slug}.html"] = _doc(kind, name, (
                f'<nav class="crumbs"><a href="/">Home</a> / <a href="{list_url(kind, cat, 1)}">'
                f'{cat.title()}</a></nav><h1>{name}</h1><p class="price">€{price}.00</p>'
                f'<p class="sku">SKU: {slug.upper()}</p><div class="description"><p>The {name} '
                "is made for long days outside, light and strong.</p></div>"))
    return pages


def api(kind: str, path: str) -> str | None:
    """The JSON endpoint of ``api_more``: the next page's cards and the new button."""
    parts = urlsplit(path)
    cat = parts.path.removeprefix("/api/")
    if not kind.startswith("api_") or cat not in CATEGORIES:
        return None
    n = int(parse_qs(parts.query).get("n", ["0"])[0])
    if not 1 <= n <= pages_of(cat):
        return None
    return json.dumps({"html": _cards(cat, n), "more": _pager(kind, cat, n)
                       .removeprefix('<div class="loader">').removesuffix("</div>")})


@contextmanager
def serve(kind: str, slow: float = 0.0, pages: dict[str, str] | None = None
          ) -> Iterator[tuple[str, list[str]]]:
    """(base URL, the request paths as they come) of the shop of ``kind`` (or of
    ``pages``: path -> HTML); its JSON answers take ``slow`` seconds (a busy server)."""
    shop: dict[str, str] = site(kind) if pages is None else pages
    requests: list[str] = []

    def answer(h: BaseHTTPRequestHandler, server: LoopbackServer) -> None:
        requests.append(h.path)
        body = shop.get(h.path)
        kind_ = "application/json" if urlsplit(h.path).path.endswith(".json") else "text/html"
        if body is None and (body := api(kind, h.path)) is not None:
            kind_ = "application/json"
            time.sleep(slow)
        send(h, 200 if body is not None else 404,
             body or "<html><body><h1>Not found</h1></body></html>",
             content_type=f"{kind_}; charset=utf-8")

    with LoopbackServer(fallback=answer) as server:
        yield server.base, requests
