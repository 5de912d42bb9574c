"""Whole pages: home, list, product and info pages, as static HTML, skeletons or shells.

Input: a zoo and what a page shows. Output: a :class:`Doc` (title, body, head tags,
the script's config, an inline state) and its HTML (:func:`page_html`): the page in
full (``static``), with an empty grid a script fills from JSON (``json_grid``), or an
empty shell a script fills from the page's JSON view (``client``, see :func:`view`).
The same :class:`Doc` feeds all three, so a rendered page equals the static one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from structurer.demo.base import esc
from structurer.demo.catalog import Category
from structurer.demo.zoo.detail import detail_head, detail_main
from structurer.demo.zoo.listing import block, cards, grid
from structurer.demo.zoo.model import Item, Zoo
from structurer.demo.zoo.nav import (
    SCRIPTED,
    breadcrumbs,
    cookie_banner,
    footer,
    header,
    menu_classes,
    menu_data,
    subcategories,
    tiles,
)
from structurer.demo.zoo.pager import head_links, pager, pager_box

_HTML_LANG = {"zh": "zh-CN", "ja": "ja"}


@dataclass
class Doc:
    title: str
    body: str
    head: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] | None = None


def script_json(z: Zoo, data: Any) -> str:
    """JSON safe inside <script> (ASCII-only in legacy-charset shops)."""
    text = json.dumps(data, ensure_ascii=z.axes["encoding"] != "utf-8", separators=(",", ":"))
    return text.replace("</", "<\\/")


def charset(z: Zoo) -> str:
    return "utf-8" if z.axes["encoding"] == "utf-8" else z.locale.legacy


def _menu_config(z: Zoo, cat: Category | None) -> dict[str, Any]:
    kind = z.axes["discovery"]
    if kind not in SCRIPTED:
        return {}
    menu: dict[str, Any] = {"target": z.look.ids["menu"], "cls": menu_classes(z)}
    if kind == "script_menu":
        menu["src"] = z.urls.api_menu()
    else:
        menu.update(state=z.look.state_name, globalState=z.look.state_global)
    if cat is not None and not cat.is_leaf:
        menu.update(tiles=z.look.ids["tiles"], parent=z.urls.category(cat))
    return {"menu": menu}


def _doc(z: Zoo, title: str, main: str, *, crumbs: str = "", head: str = "",
         cat: Category | None = None, config: dict[str, Any] | None = None) -> Doc:
    body = (cookie_banner(z) + header(z) + crumbs
            + f'<main{z.style.c("main")}>{main}</main>' + footer(z))
    state = None
    if z.axes["discovery"] == "inline_json":
        state = {"navigation": {"categories": menu_data(z)}, "locale": z.locale.code}
    return Doc(f"{title}{z.look.title_sep}{z.title}", body, head,
               {**_menu_config(z, cat), **(config or {})}, state)


def home_doc(z: Zoo) -> Doc:
    c = z.style.c
    hero = f'<section class="hero"><h1{c("h1")}>{esc(z.title)}</h1><p>{esc(z.t("welcome"))}</p>'
    hero += "</section>"
    shelf = tiles(z, z.catalog.tops()) if z.axes["discovery"] == "tiles" else ""
    featured = block(z, z.t("featured"), z.featured())
    return _doc(z, z.t("home"), hero + shelf + featured)


def list_doc(z: Zoo, cat: Category, page: int) -> Doc:
    """A category page: its sub-categories (per axis), its products and pager."""
    c = z.style.c
    chain = [cat] if cat.parent is None else [z.catalog.category(cat.parent), cat]
    crumbs = breadcrumbs(z, chain, cat.name, on_detail=False)
    main = f"<h1{c('h1')}>{esc(cat.name)}</h1>" + subcategories(z, cat)
    items = z.pages_of(cat)[page - 1]
    config: dict[str, Any] = {}
    if z.lists_products(cat):
        count = f"<p{c('count')}>{esc(z.t('results', n=len(z.listing(cat))))}</p>"
        sort = (f'<label>{esc(z.t("sort"))} <select name="sort"><option value="pos">—</option>'
                f'<option value="price">{esc(z.t("col_price"))}</option></select></label>')
        skeleton = z.axes["list_render"] == "json_grid"
        shown = grid(z, [] if skeleton else items, main=True)
        paging = pager_box(z, "" if skeleton else pager(z, cat, page))
        main += count + sort + shown + paging
        if z.axes["list_noise"] != "none":
            side = block(z, z.t("bestsellers" if z.axes["list_noise"] == "bestsellers"
                                else "recommended"),
                         z.others({i.id for i in items}, 4, salt=1000 + page))
            main = (f"<aside{c('sidebar')}>{side}</aside><div>{main}</div>"
                    if z.axes["list_noise"] == "bestsellers" else main + side)
        config = _list_config(z, cat, page)
    return _doc(z, cat.name if page == 1 else f"{cat.name} ({page})", main, crumbs=crumbs,
                head=head_links(z, cat, page), cat=cat, config=config)


def _list_config(z: Zoo, cat: Category, page: int) -> dict[str, Any]:
    ids = z.look.ids
    config: dict[str, Any] = {}
    if z.axes["list_render"] == "json_grid":
        config["grid"] = {"src": z.urls.api_grid(cat, page), "grid": ids["grid"],
                          "pager": ids["pager"]}
    kind = z.axes["pagination"]
    if kind in ("script", "load_more", "infinite") and len(z.pages_of(cat)) > 1:
        config["paging"] = {
            "api": z.urls.api_grid_template(cat), "grid": ids["grid"], "pager": ids["pager"],
            "mode": {"script": "replace", "load_more": "append", "infinite": "scroll"}[kind],
            "pages": [z.urls.category(cat, n) for n in range(1, len(z.pages_of(cat)) + 1)]}
    return config


def grid_json(z: Zoo, cat: Category, page: int) -> dict[str, Any]:
    """What a list page's JSON endpoint answers: items as data and as card HTML."""
    items = z.pages_of(cat)[page - 1]
    total = len(z.pages_of(cat))
    return {"page": page, "pages": total, "total": len(z.listing(cat)),
            "next": page + 1 if page < total else None,
            "items": [item_json(z, it) for it in items],
            "html": cards(z, items), "pager": pager(z, cat, page)}


def item_json(z: Zoo, it: Item) -> dict[str, Any]:
    p = it.product
    return {"id": z.urls.product_id(p), "name": p.name, "url": z.urls.product(p),
            "price": float(it.price) if it.price is not None else None,
            "price_text": z.price_text(it), "image": z.thumb(it), "in_stock": it.in_stock}


def detail_doc(z: Zoo, it: Item, recent: Sequence[Item] = ()) -> Doc:
    chain = z.chain(it.product)
    crumbs = breadcrumbs(z, chain, it.product.name, on_detail=True)
    return _doc(z, it.product.name, detail_main(z, it, recent), crumbs=crumbs,
                head=detail_head(z, it))


def info_doc(z: Zoo, heading: str) -> Doc:
    return _doc(z, heading, f"<h1>{esc(heading)}</h1><p>{esc(z.t('welcome'))}</p>")


# ----- HTML ---------------------------------------------------------------------------------------
def _scripts(z: Zoo, config: dict[str, Any], state: dict[str, Any] | None) -> str:
    out = ""
    if state is not None:
        name = z.look.state_name
        out += (f"<script>window.{name} = {script_json(z, state)};</script>"
                if z.look.state_global else
                f'<script id="{name}" type="application/json">{script_json(z, state)}</script>')
    cid = z.look.ids["config"]
    out += f'<script type="application/json" id="{cid}">{script_json(z, config)}</script>'
    return out + f'<script src="{z.look.script}" data-config="{cid}" defer></script>'


def page_html(z: Zoo, doc: Doc, *, shell: str | None = None) -> str:
    """The page as served: ``shell`` (a view URL) serves an empty app shell instead."""
    lang = _HTML_LANG.get(z.locale.lang, z.locale.lang)
    head = (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="{charset(z)}">'
            f"<title>{esc(doc.title)}</title>"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="{z.look.css}">')
    if shell is not None:
        config = {"view": shell, "root": z.look.ids["root"]}
        return (head + f'</head><body><div id="{z.look.ids["root"]}"></div>'
                "<noscript>Please enable JavaScript to use this shop.</noscript>"
                + _scripts(z, config, None) + "</body></html>")
    return head + doc.head + "</head><body>" + doc.body + _scripts(z, doc.config, doc.state) + (
        "</body></html>")


def view(doc: Doc) -> dict[str, Any]:
    """A client shell's JSON view of a page: everything the static page would hold."""
    return {"title": doc.title, "html": doc.body, "head": doc.head, "config": doc.config,
            "state": doc.state}
