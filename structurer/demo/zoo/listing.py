"""List markup: product cards and the containers that hold them, per ``list_markup``.

Input: a zoo and items. Output: HTML of one card (:func:`card`), of the cards alone
(:func:`cards`, what a JSON endpoint sends to be appended) and of a whole grid
(:func:`grid`). Six markups, as on real shops: ``ul/li``; a Bootstrap-like ``div``
grid with a cell wrapper around each card; ``table`` rows; a ``dl`` per item; an
``article`` per item; and cards that are one big link with more links beside it
(brand, reviews, wishlist). Side blocks (bestsellers, related, recently viewed)
reuse the same card markup, as real shops do.
"""

from __future__ import annotations

from collections.abc import Sequence

from structurer.demo.base import esc
from structurer.demo.catalog import slugify
from structurer.demo.zoo.model import Item, Zoo
from structurer.demo.zoo.parts import list_stock, old_price_html, price_html, rating_html


def shown_name(z: Zoo, it: Item) -> str:
    """The name a card shows: cut with "…" in shops that truncate long names."""
    name = it.product.name
    if z.axes["list_names"] == "truncated" and len(name) > z.look.truncate:
        return name[: z.look.truncate].rstrip() + "…"
    return name


def card(z: Zoo, it: Item, price_role: str = "price") -> str:
    """One product in the shop's list markup."""
    c, p = z.style.c, it.product
    url = esc(z.urls.product(p))
    name = shown_name(z, it)
    title = f' title="{esc(p.name)}"' if name != p.name else ""
    img = (f'<img{c("card_img")} src="{esc(z.thumb(it))}" alt="{esc(p.name)}" '
           'loading="lazy" width="300" height="300">')
    price = price_html(z, it, price_role) + old_price_html(z, it)
    rating = rating_html(z, it)
    state, stock = list_stock(z, it)
    brand = esc(p.brand)
    link = f'<a{c("card_link")} href="{url}"{title}>{esc(name)}</a>'
    markup = z.axes["list_markup"]
    if markup == "ul_li":
        return (f'<li{c("card", state)}><a href="{url}">{img}</a>'
                f'<h3{c("card_title")}>{link}</h3><div{c("card_brand")}>{brand}</div>'
                f'{rating}<div{c("price_box")}>{price}</div>{stock}</li>')
    if markup == "div_grid":
        return (f'<div{c("cell")}><div{c("card", state)}><a{c("card_media")} href="{url}">'
                f'{img}</a><div{c("card_body")}><h5{c("card_title")}>{link}</h5>'
                f'<div{c("card_brand")}>{brand}</div><div{c("price_box")}>{price}</div>'
                f"{rating}{stock}</div></div></div>")
    if markup == "article":
        return (f'<article{c("card", state)}><figure><a href="{url}">{img}</a></figure>'
                f'<header><h2{c("card_title")}>{link}</h2></header>'
                f'<p{c("card_brand")}>{brand}</p><footer>{price}{rating}{stock}</footer>'
                "</article>")
    if markup == "table":
        return (f'<tr{c("card", state)}><td><a href="{url}">{img}</a></td>'
                f"<td>{link}<br><small{c('card_brand')}>{brand}</small>{rating}</td>"
                f"<td{c('price_box')}>{price}</td><td>{stock}</td></tr>")
    if markup == "dl":
        return (f'<dl{c("card", state)}><dt{c("card_title")}>{link}</dt>'
                f'<dd><a href="{url}">{img}</a></dd><dd{c("price_box")}>{price}</dd>'
                f'<dd{c("card_brand")}>{brand}</dd>'
                + (f"<dd>{rating}</dd>" if rating else "")
                + (f"<dd>{stock}</dd>" if stock else "") + "</dl>")
    # nested_links: the card is one link, with brand, reviews and wishlist links beside it
    reviews = (f'<a href="{url}#reviews">{rating}</a>' if rating else "")
    return (f'<div{c("card", state)}><a{c("card_link")} href="{url}"{title}>{img}'
            f'<span{c("card_title")}>{esc(name)}</span><span{c("price_box")}>{price}</span>'
            f'</a><a{c("card_brand")} href="/brands/{slugify(p.brand)}">{brand}</a>{reviews}'
            f'{stock}<a href="/account/wishlist?add={it.id}" aria-label="Wishlist">♡</a></div>')


def cards(z: Zoo, items: Sequence[Item], price_role: str = "price") -> str:
    return "".join(card(z, it, price_role) for it in items)


def grid(z: Zoo, items: Sequence[Item], *, main: bool = False,
         price_role: str = "price") -> str:
    """Cards in their container; ``main`` marks the list a script may refill."""
    c = z.style.c
    ident = f' id="{z.look.ids["grid"]}"' if main else ""
    inner = cards(z, items, price_role)
    markup = z.axes["list_markup"]
    if markup == "ul_li":
        return f"<ul{c('grid')}{ident}>{inner}</ul>"
    if markup == "article":
        return f"<section{c('grid')}{ident}>{inner}</section>"
    if markup == "table":
        head = "".join(f"<th>{esc(z.t(k))}</th>" for k in ("col_product", "col_price",
                                                               "col_stock"))
        return (f"<table{c('grid')}><thead><tr><th></th>{head}</tr></thead>"
                f"<tbody{ident}>{inner}</tbody></table>")
    return f"<div{c('grid')}{ident}>{inner}</div>"


def block(z: Zoo, title: str, items: Sequence[Item], price_role: str = "price") -> str:
    """A side block of products (bestsellers, related, recently viewed) in card markup."""
    if not items:
        return ""
    c = z.style.c
    return (f"<section{c('block')}><h2{c('block_title')}>{esc(title)}</h2>"
            f"{grid(z, items, price_role=price_role)}</section>")
