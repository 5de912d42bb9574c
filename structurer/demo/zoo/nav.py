"""Navigation: header menu, footer, breadcrumbs, category tiles, sitemaps and robots.txt.

Input: a zoo (and a category or product). Output: HTML, XML or text. Where the links
to sub-categories appear follows the ``discovery`` axis:

* ``server_menu`` — a mega menu of every category in the server's HTML, and a
  sub-category list on parent pages;
* ``script_menu`` — the menu shows top categories; their children (and the parent
  pages' sub-category tiles) are built by script from the menu JSON endpoint;
* ``inline_json`` — the same, built from an inline JSON state in every page;
* ``tiles`` — top categories in the menu and as home tiles, children as tiles on
  their parent's page;
* ``sitemap_only`` — children are listed only in the sitemap;
* ``breadcrumbs_only`` — children are linked only from product pages' breadcrumbs.

Each hidden channel is the only one its shops have: breadcrumbs show children as text
unless the axis is ``server_menu``, ``tiles`` or ``breadcrumbs_only``.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape as xml_escape

from structurer.demo.base import esc
from structurer.demo.catalog import Category, slugify
from structurer.demo.zoo.model import Zoo

SCRIPTED = ("script_menu", "inline_json")
INFO_PAGES = ("about", "contact", "delivery", "returns", "privacy")


def menu_data(z: Zoo) -> list[dict[str, Any]]:
    """Every category with its children, as menu JSON and inline states carry it."""
    return [{"name": top.name, "url": z.urls.category(top), "id": z.urls.cat_id(top),
             "children": [{"name": child.name, "url": z.urls.category(child),
                           "id": z.urls.cat_id(child)}
                          for child in (z.catalog.category(s) for s in top.children)]}
            for top in z.catalog.tops()]


def menu_classes(z: Zoo) -> dict[str, str]:
    """Class names the menu script gives the elements it builds (the shop's own)."""
    return {role: z.style.name(role) for role in ("nav_item", "nav_link", "nav_sub", "tiles",
                                                   "tile")}


def header(z: Zoo) -> str:
    c = z.style.c
    mega = z.axes["discovery"] == "server_menu"
    items = []
    for top in z.catalog.tops():
        sub = ""
        if mega:
            links = "".join(
                f'<li><a href="{esc(z.urls.category(ch))}">{esc(ch.name)}</a></li>'
                for ch in (z.catalog.category(s) for s in top.children))
            sub = (f"<ul{c('nav_sub')}>{links}<li><a href=\"{esc(z.urls.category(top))}\">"
                   f"{esc(z.t('shop_all'))}</a></li></ul>")
        items.append(f'<li{c("nav_item")}><a{c("nav_link")} href="{esc(z.urls.category(top))}">'
                     f"{esc(top.name)}</a>{sub}</li>")
    return (f'<header{c("header")}><a{c("logo")} href="/">{esc(z.title)}</a>'
            f'<form action="/search" method="get" role="search"><input type="search" name="q" '
            f'placeholder="{esc(z.t("search"))}"><button type="submit">{esc(z.t("search"))}'
            f'</button></form><a href="/account">{esc(z.t("account"))}</a> '
            f'<a href="/cart">{esc(z.t("cart"))} (0)</a>'
            f'<nav{c("nav")}><ul{c("nav_list")} id="{z.look.ids["menu"]}">{"".join(items)}</ul>'
            "</nav></header>")


def cookie_banner(z: Zoo) -> str:
    return (f'<div{z.style.c("cookie")} role="dialog" data-consent><p>{esc(z.t("cookies"))} '
            f'<a href="/pages/privacy">{esc(z.t("privacy"))}</a></p><button type="button" '
            f'data-consent-accept>{esc(z.t("accept"))}</button></div>')


def footer(z: Zoo) -> str:
    c = z.style.c
    info = "".join(f'<li><a href="/pages/{slug}">{esc(z.t(slug))}</a></li>'
                   for slug in INFO_PAGES)
    tops = "".join(f'<li><a href="{esc(z.urls.category(t))}">{esc(t.name)}</a></li>'
                   for t in z.catalog.tops())
    return (f'<footer{c("footer")}><div{c("footer_col")}><h4>{esc(z.title)}</h4><ul>{info}'
            f'</ul></div><div{c("footer_col")}><h4>{esc(z.t("categories"))}</h4><ul>{tops}'
            f'</ul></div><div{c("footer_col")}><h4>{esc(z.t("newsletter"))}</h4>'
            '<form action="/newsletter" method="post"><input type="email" name="email">'
            f'<button type="submit">OK</button></form></div><p>© 2026 {esc(z.title)} · '
            f"{z.locale.currency}</p></footer>")


def _linked(z: Zoo, cat: Category, on_detail: bool) -> bool:
    """Does a breadcrumb link this category? Top categories always; children only where
    the discovery axis shows them in the HTML (``breadcrumbs_only``: on product pages)."""
    kind = z.axes["discovery"]
    return (cat.parent is None or kind in ("server_menu", "tiles")
            or (kind == "breadcrumbs_only" and on_detail))


def breadcrumbs(z: Zoo, chain: list[Category], current: str, *, on_detail: bool) -> str:
    """The trail to a list page (``current`` its category) or a product (its name)."""
    c, kind = z.style.c, z.axes["breadcrumb"]
    cats = chain if on_detail else chain[:-1]
    steps = [(esc(cat.name), esc(z.urls.category(cat)) if _linked(z, cat, on_detail) else None)
             for cat in cats]
    last = esc(current)
    if kind == "separators":
        home = f'<a href="/">{esc(z.t("home"))}</a>'
        parts = [home] + [f'<a href="{u}">{n}</a>' if u else f"<span>{n}</span>"
                          for n, u in steps]
        if not on_detail:
            parts.append(f"<span>{last}</span>")
        return f"<div{c('crumbs')}>{esc(z.look.crumb_sep).join(parts)}</div>"
    if kind == "microdata":
        items = []
        for pos, (n, u) in enumerate([*steps, (last, None)], start=1):
            inner = (f'<a itemprop="item" href="{u}"><span itemprop="name">{n}</span></a>' if u
                     else f'<span itemprop="name">{n}</span>')
            items.append(f'<li{c("crumb")} itemprop="itemListElement" itemscope '
                         f'itemtype="https://schema.org/ListItem">{inner}'
                         f'<meta itemprop="position" content="{pos}"></li>')
        return (f'<ol{c("crumbs")} itemscope itemtype="https://schema.org/BreadcrumbList">'
                f"{''.join(items)}</ol>")
    lis = [f'<li{c("crumb")}><a href="/">{esc(z.t("home"))}</a></li>']
    lis += [f'<li{c("crumb")}>' + (f'<a href="{u}">{n}</a>' if u else n) + "</li>"
            for n, u in steps]
    lis.append(f'<li{c("crumb")} aria-current="page">{last}</li>')
    trail = f'<nav aria-label="breadcrumb"><ol{c("crumbs")}>{"".join(lis)}</ol></nav>'
    if kind == "with_dropdown":
        tops = "".join(f'<li><a href="{esc(z.urls.category(t))}">{esc(t.name)}</a></li>'
                       for t in z.catalog.tops())
        trail = (f'<div class="crumb-bar">{trail}<div class="dropdown"><button type="button" '
                 f'aria-haspopup="true">{esc(z.t("categories"))} ▾</button>'
                 f'<ul class="dropdown-menu">{tops}</ul></div></div>')
    return trail


def subcategories(z: Zoo, cat: Category) -> str:
    """Links to a parent's children on its page, where the discovery axis shows them."""
    if cat.is_leaf:
        return ""
    c, kind = z.style.c, z.axes["discovery"]
    children = [z.catalog.category(s) for s in cat.children]
    if kind == "server_menu":
        links = "".join(f'<li><a href="{esc(z.urls.category(ch))}">{esc(ch.name)}</a></li>'
                        for ch in children)
        return f"<ul{c('subnav')}>{links}</ul>"
    if kind == "tiles":
        return tiles(z, children)
    if kind in SCRIPTED:
        return f'<div id="{z.look.ids["tiles"]}"></div>'
    return ""


def tiles(z: Zoo, cats: list[Category]) -> str:
    c = z.style.c
    out = "".join(
        f'<li{c("tile")}><a href="{esc(z.urls.category(cat))}"><img src="/img/cat/'
        f'{slugify(cat.slug)}.jpg" alt=""><span>{esc(cat.name)}</span></a></li>'
        for cat in cats)
    return f"<ul{c('tiles')}>{out}</ul>"


# ----- robots.txt and sitemaps --------------------------------------------------------------------
def sitemap_root(z: Zoo) -> str | None:
    """The sitemap robots.txt names ("" none)."""
    return {"none": None, "flat": "/sitemap.xml", "index": "/sitemap_index.xml"}[
        z.axes["sitemap"]]


def sitemap_urls(z: Zoo) -> list[str]:
    """Every URL the sitemaps list: each category's first page, then each product."""
    return ([z.urls.category(cat) for cat in z.catalog.categories]
            + [z.urls.product(p) for p in z.catalog.products])


def _urlset(base: str, paths: list[str]) -> str:
    locs = "".join(f"<url><loc>{xml_escape(base + p)}</loc></url>" for p in paths)
    return ('<?xml version="1.0" encoding="UTF-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>')


def sitemap_files(z: Zoo, base: str) -> dict[str, str]:
    """Path -> XML of every sitemap file the shop serves (none, one, or an index + parts)."""
    kind = z.axes["sitemap"]
    if kind == "none":
        return {}
    if kind == "flat":
        return {"/sitemap.xml": _urlset(base, sitemap_urls(z))}
    cats = [z.urls.category(cat) for cat in z.catalog.categories]
    products = [z.urls.product(p) for p in z.catalog.products]
    half = (len(products) + 1) // 2
    parts = {"/sitemap-categories.xml": _urlset(base, cats),
             "/sitemap-products-1.xml": _urlset(base, products[:half]),
             "/sitemap-products-2.xml": _urlset(base, products[half:])}
    index = "".join(f"<sitemap><loc>{xml_escape(base + p)}</loc></sitemap>" for p in parts)
    return {"/sitemap_index.xml": '<?xml version="1.0" encoding="UTF-8"?><sitemapindex '
            f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{index}</sitemapindex>',
            **parts}


def robots_txt(z: Zoo, base: str) -> str:
    text = "User-agent: *\nDisallow: /cart\nDisallow: /account\nDisallow: /search\n"
    root = sitemap_root(z)
    return text + (f"\nSitemap: {base}{root}\n" if root else "")
