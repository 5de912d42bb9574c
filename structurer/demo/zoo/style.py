"""Class vocabularies: the class attribute every element role gets, per shop.

Input: a vocabulary name (the ``classes`` axis) and a seeded generator. Output: a
:class:`Style` whose :meth:`Style.c` gives `` class="…"`` for a role (``card``,
``price``, ``pager_link``, …) or nothing. Five vocabularies, as on real shops:

* ``bootstrap`` — the framework's names (``card-body``, ``page-item``/``page-link`` for
  every pager entry, so prev, numbers and next share one class);
* ``tailwind`` — utility classes only, drawn per role from pools, so they carry no word
  for what an element is;
* ``bem`` — ``block__element--modifier`` with block names drawn per shop;
* ``hashed`` — CSS-module names (``ProductCard_title__x7Kq2``) or styled-components
  hashes (``sc-a1b2c3 dEfGhI``), different for every shop;
* ``none`` — no class attribute at all.

Roles whose class is the only carrier of a value (a rating's ``stars three``, a stock
class) are not styled here: the detail and list renderers add them whatever the
vocabulary, as real shops do.
"""

from __future__ import annotations

import hashlib
import random

from structurer.demo.base import esc

ROLES = (
    "header", "logo", "nav", "nav_list", "nav_item", "nav_link", "nav_sub", "main", "h1",
    "crumbs", "crumb", "grid", "cell", "card", "card_media", "card_img", "card_body",
    "card_title", "card_link", "card_brand", "price", "price_old", "price_box", "badge",
    "stock", "button", "rating", "reviews", "pager", "pager_item", "pager_link",
    "pager_current", "pager_prev", "pager_next", "more", "sidebar", "block", "block_title",
    "product", "gallery", "main_img", "thumbs", "info", "title", "subtitle", "brand", "specs",
    "desc", "tabs", "panel", "buybox", "extras", "footer", "footer_col", "cookie", "tiles",
    "tile", "subnav", "count", "related_price", "dprice",
)

BOOTSTRAP = {
    "header": "navbar navbar-expand-lg", "logo": "navbar-brand", "nav": "collapse navbar-collapse",
    "nav_list": "navbar-nav", "nav_item": "nav-item dropdown", "nav_link": "nav-link",
    "nav_sub": "dropdown-menu", "main": "container", "h1": "h2 mb-3", "crumbs": "breadcrumb",
    "crumb": "breadcrumb-item", "grid": "row row-cols-2 row-cols-md-4 g-3", "cell": "col",
    "card": "card h-100", "card_media": "ratio ratio-1x1", "card_img": "card-img-top",
    "card_body": "card-body", "card_title": "card-title h6", "card_link": "stretched-link",
    "card_brand": "text-muted small", "price": "price fw-bold", "price_old": "text-muted",
    "price_box": "d-flex gap-2", "badge": "badge bg-danger", "stock": "small",
    "button": "btn btn-primary", "rating": "small text-warning", "reviews": "text-muted small",
    "pager": "pagination", "pager_item": "page-item", "pager_link": "page-link",
    "pager_current": "page-item active", "pager_prev": "page-item", "pager_next": "page-item",
    "more": "btn btn-outline-secondary", "sidebar": "col-md-3", "block": "mt-5",
    "block_title": "h5", "product": "row", "gallery": "col-md-6", "main_img": "img-fluid",
    "thumbs": "d-flex gap-2", "info": "col-md-6", "title": "h3", "subtitle": "text-muted",
    "brand": "text-muted", "specs": "table table-sm", "desc": "mt-4", "tabs": "nav nav-tabs",
    "panel": "tab-pane", "buybox": "d-grid gap-2", "extras": "small text-muted",
    "footer": "bg-light py-4", "footer_col": "col", "cookie": "alert alert-info",
    "tiles": "row g-3", "tile": "col-6 col-md-3", "subnav": "list-inline", "count": "text-muted",
    "related_price": "small fw-bold", "dprice": "fs-3 fw-bold",
}

_UTILITIES = ("flex", "grid", "block", "inline-flex", "items-center", "justify-between", "gap-2",
              "gap-4", "p-2", "p-4", "px-3", "py-2", "mt-2", "mt-4", "mb-2", "text-sm", "text-lg",
              "text-xl", "font-semibold", "font-bold", "text-gray-500", "text-gray-900",
              "rounded", "rounded-lg", "shadow", "shadow-sm", "border", "border-gray-200",
              "w-full", "h-auto", "bg-white", "bg-gray-50", "hover:underline", "md:grid-cols-4",
              "grid-cols-2", "object-cover", "aspect-square", "tracking-tight", "leading-6",
              "line-clamp-2", "truncate", "space-y-2", "sm:px-6", "lg:px-8", "text-red-600")

_BEM_BLOCKS = {
    "grid": ("product-grid", "listing", "catalog", "products", "plp-grid"),
    "card": ("product-card", "product-tile", "item", "product-item", "tile"),
    "pager": ("pagination", "pager", "paging"),
    "pdp": ("product-detail", "pdp", "product-page", "item-detail"),
    "nav": ("main-nav", "menu", "site-nav", "navigation"),
}

_BEM_ROLES = {
    "header": "site-header", "logo": "site-header__logo", "nav": "{nav}",
    "nav_list": "{nav}__list", "nav_item": "{nav}__item", "nav_link": "{nav}__link",
    "nav_sub": "{nav}__submenu", "main": "page", "h1": "page__title", "crumbs": "breadcrumbs",
    "crumb": "breadcrumbs__item", "grid": "{grid}", "cell": "{grid}__cell", "card": "{card}",
    "card_media": "{card}__media", "card_img": "{card}__image", "card_body": "{card}__body",
    "card_title": "{card}__title", "card_link": "{card}__link", "card_brand": "{card}__brand",
    "price": "{card}__price", "price_old": "{card}__price {card}__price--old",
    "price_box": "{card}__prices", "badge": "{card}__badge", "stock": "{card}__stock",
    "button": "button button--primary", "rating": "{card}__rating", "reviews": "{card}__reviews",
    "pager": "{pager}", "pager_item": "{pager}__item", "pager_link": "{pager}__link",
    "pager_current": "{pager}__item {pager}__item--current",
    "pager_prev": "{pager}__item {pager}__item--prev",
    "pager_next": "{pager}__item {pager}__item--next", "more": "{pager}__more",
    "sidebar": "sidebar", "block": "carousel", "block_title": "carousel__title",
    "product": "{pdp}", "gallery": "{pdp}__gallery", "main_img": "{pdp}__image",
    "thumbs": "{pdp}__thumbs", "info": "{pdp}__info", "title": "{pdp}__title",
    "subtitle": "{pdp}__subtitle", "brand": "{pdp}__brand", "specs": "{pdp}__specs",
    "desc": "{pdp}__description", "tabs": "tabs", "panel": "tabs__panel",
    "buybox": "{pdp}__buy", "extras": "{pdp}__note", "footer": "site-footer",
    "footer_col": "site-footer__column", "cookie": "cookie-bar", "tiles": "category-tiles",
    "tile": "category-tiles__tile", "subnav": "subcategories", "count": "{grid}__count",
    "related_price": "carousel__price", "dprice": "{pdp}__price",
}


def _token(seed: str, n: int, alphabet: str) -> str:
    digest = hashlib.sha256(seed.encode()).digest()
    return "".join(alphabet[b % len(alphabet)] for b in digest[:n])


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


class Style:
    """The class of each role in one shop."""

    def __init__(self, vocabulary: str, rng: random.Random) -> None:
        self.vocabulary = vocabulary
        self.classes: dict[str, str] = {}
        salt = str(rng.random())
        if vocabulary == "bootstrap":
            self.classes = dict(BOOTSTRAP)
        elif vocabulary == "bem":
            blocks = {k: rng.choice(v) for k, v in _BEM_BLOCKS.items()}
            self.classes = {role: text.format(**blocks) for role, text in _BEM_ROLES.items()}
        elif vocabulary == "tailwind":
            self.classes = {role: " ".join(rng.sample(_UTILITIES, rng.randint(2, 5)))
                            for role in ROLES}
        elif vocabulary == "hashed":
            modules = rng.random() < 0.5
            for role in ROLES:
                h = _token(salt + role, 5, _ALNUM)
                component = "".join(part.title() for part in role.split("_"))
                self.classes[role] = (f"{component}_{role.split('_')[-1]}__{h}" if modules
                                      else f"sc-{_token(salt + role, 6, _ALNUM).lower()} {h}")

    def c(self, role: str, *extra: str) -> str:
        """`` class="…"`` for ``role`` (plus ``extra`` classes), or "" when it has none."""
        names = " ".join(x for x in (self.classes.get(role, ""), *extra) if x)
        return f' class="{esc(names)}"' if names else ""

    def name(self, role: str) -> str:
        return self.classes.get(role, "")
