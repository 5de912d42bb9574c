"""Product pages: gallery, title, brand, price box, stock, identifier, description, blocks.

Input: a zoo, an item and the items a "recently viewed" cookie names. Output: the
page's main HTML and head tags (:func:`detail_main`, :func:`detail_head`). Every part
follows its axis (``title``, ``brand``, ``detail_image``, ``price_extras``,
``id_markup`` + ``id_label``, ``description``, ``related``, ``structured``); the
values shown are the item's, which the ground truth reads too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from structurer.demo.base import esc
from structurer.demo.catalog import slugify
from structurer.demo.zoo.listing import block
from structurer.demo.zoo.model import Item, Zoo
from structurer.demo.zoo.parts import buy_form, old_price_html, price_html, rating_html

_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s]


def _md(z: Zoo, prop: str) -> str:
    return f' itemprop="{prop}"' if z.axes["structured"] == "microdata" else ""


def medium(path: str) -> str:
    """The mid-size rendition of a full image (what a zoomable page shows first)."""
    return path + "?w=600"


def gallery(z: Zoo, it: Item) -> str:
    c, name = z.style.c, esc(it.product.name)
    if not it.images:
        return (f'<div{c("gallery")}><img{c("main_img")} src="{esc(z.placeholder)}" '
                f'alt="{name}"></div>')
    full, kind = esc(it.images[0]), z.axes["detail_image"]
    md = _md(z, "image")
    if kind == "srcset":
        main = (f'<img{c("main_img")}{md} src="{medium(full)}" srcset="{medium(full)} 600w, '
                f'{full} 1200w" sizes="(min-width: 768px) 50vw, 100vw" alt="{name}">')
    elif kind == "zoom_link":
        main = (f'<a href="{full}" data-lightbox="product"><img{c("main_img")}{md} '
                f'src="{medium(full)}" alt="{name}"></a>')
    elif kind == "data_zoom":
        main = (f'<img{c("main_img")}{md} src="{medium(full)}" data-zoom-image="{full}" '
                f'alt="{name}">')
    elif kind == "lazy":
        main = f'<img{c("main_img")}{md} src="{_GIF}" data-src="{full}" alt="{name}">'
    else:
        main = f'<img{c("main_img")}{md} src="{full}" alt="{name}">'
    thumbs = "".join(
        f'<li><img src="{esc(z.look.thumb.format(id=it.id, i=i, h="t"))}" alt=""></li>'
        for i in range(1, len(it.images) + 1)) if len(it.images) > 1 else ""
    return (f'<div{c("gallery")}>{main}'
            + (f"<ul{c('thumbs')}>{thumbs}</ul>" if thumbs else "") + "</div>")


def _title(z: Zoo, it: Item) -> str:
    c, name = z.style.c, esc(it.product.name)
    kind = z.axes["title"]
    if kind == "subtitle":
        return (f'<div><h1{c("title")}{_md(z, "name")}>{name}</h1> '
                f'<span{c("subtitle", "subtitle")}>{esc(it.subtitle)}</span></div>')
    if kind == "small_inside":
        return (f'<h1{c("title")}><span{_md(z, "name")}>{name}</span> '
                f"<small>{esc(it.subtitle)}</small></h1>")
    return f"<h1{c('title')}{_md(z, 'name')}>{name}</h1>"


def _brand(z: Zoo, it: Item) -> str:
    brand, kind = it.product.brand, z.axes["brand"]
    href = f"/brands/{slugify(brand)}"
    if kind == "link":
        return (f'<div{z.style.c("brand")}><a href="{href}"{_md(z, "brand")}>{esc(brand)}</a>'
                "</div>")
    if kind == "logo":
        return (f'<a{z.style.c("brand")} href="{href}"><img src="/img/brands/{slugify(brand)}'
                f'.png" alt="{esc(brand)}" title="{esc(brand)}"{_md(z, "brand")}></a>')
    return ""          # "label": a row of the identifier block


def _rows(z: Zoo, it: Item) -> list[tuple[str, str, str]]:
    """(label, value, itemprop) rows of the specification block, identifier first."""
    rows = [(z.axes["id_label"], it.sku, "sku")]
    if z.axes["brand"] == "label":
        rows.append((z.t("brand"), it.product.brand, "brand"))
    return rows + [(k, v, "") for k, v in it.specs]


def _id_inline(z: Zoo, it: Item) -> str:
    """``Label: value`` lines under the price (``label_text`` shops)."""
    if z.axes["id_markup"] != "label_text":
        return ""
    out = ""
    for label, value, prop in _rows(z, it)[:2 if z.axes["brand"] == "label" else 1]:
        attr = f' itemprop="{prop}"' if prop and _md(z, prop) else ""
        shown = (f"<span{attr}>{esc(value)}</span>" if z.look.label_span or attr
                 else esc(value))
        out += f"<p>{esc(label)}: {shown}</p>"
    return out


def specs(z: Zoo, it: Item) -> str:
    """The specification block; holds the identifier unless it is a ``Label: value`` line."""
    c, kind = z.style.c, z.axes["id_markup"]
    rows = _rows(z, it)
    if kind == "label_text":
        rows = rows[2 if z.axes["brand"] == "label" else 1:]
        kind = "table"

    def val(value: str, prop: str) -> str:
        return f"<span{_md(z, prop)}>{esc(value)}</span>" if prop and _md(z, prop) else esc(value)

    if kind == "li_strong":
        lis = "".join(f"<li><strong>{esc(k)}</strong>: {val(v, p)}</li>" for k, v, p in rows)
        return f"<ul{c('specs')}>{lis}</ul>"
    if kind == "dl":
        dts = "".join(f"<dt>{esc(k)}</dt><dd>{val(v, p)}</dd>" for k, v, p in rows)
        return f"<dl{c('specs')}>{dts}</dl>"
    trs = "".join(f"<tr><th>{esc(k)}</th><td>{val(v, p)}</td></tr>" for k, v, p in rows)
    return f"<table{c('specs')}><tbody>{trs}</tbody></table>"


def _quant(z: Zoo, amount: Decimal) -> Decimal:
    return amount.quantize(Decimal(1).scaleb(-z.locale.decimals), rounding=ROUND_HALF_UP)


def extras(z: Zoo, it: Item) -> str:
    """Other money near the price: instalments, shipping, net price, unit price, threshold."""
    kind = z.axes["price_extras"]
    if it.price is None or kind in ("none", "range"):
        return ""
    low = Decimal(z.locale.price_range[0])
    if kind == "instalments":
        text = z.t("instalments", x=z.money(_quant(z, it.price / 4)))
    elif kind == "shipping":
        text = z.t("shipping", x=z.money(_quant(z, low * Decimal("0.99"))))
    elif kind == "vat":
        text = z.t("vat", x=z.money(_quant(z, it.price / Decimal("1.2"))))
    elif kind == "unit":
        text = z.t("unit", x=z.money(_quant(z, it.price / (2 + it.id % 9))))
    else:
        threshold = _quant(z, Decimal(z.locale.price_range[1]) / 3)
        if it.price >= threshold:
            return ""
        text = z.t("free_ship", x=z.money(threshold - it.price))
    return f"<p{z.style.c('extras')}>{esc(text)}</p>"


def _description(z: Zoo, it: Item) -> tuple[str, str]:
    """(HTML under the title block, HTML after the product block)."""
    c, text = z.style.c, it.product.description
    md = _md(z, "description")
    kind = z.axes["description"]
    if kind == "bare":
        parts = sentences(text)
        bullets = "".join(f"<li>{esc(s)}</li>" for s in parts[1:])
        return (f"<p{md}>{esc(parts[0])}</p><ul>{bullets}</ul>",
                f"<section><h2>{esc(z.t('specs'))}</h2>{specs(z, it)}</section>")
    if kind == "tabs":
        labels = (("desc", z.t("description")), ("specs", z.t("specs")),
                  ("reviews", z.t("reviews_n", n=it.reviews or 0)))
        nav = "".join(f'<li><a href="#tab-{k}" role="tab">{esc(v)}</a></li>' for k, v in labels)
        return "", (f'<div{c("tabs")}><ul role="tablist">{nav}</ul>'
                    f'<div id="tab-desc" role="tabpanel"{c("panel")}><p{md}>{esc(text)}</p></div>'
                    f'<div id="tab-specs" role="tabpanel"{c("panel")} hidden>{specs(z, it)}</div>'
                    f'<div id="tab-reviews" role="tabpanel"{c("panel")} hidden></div></div>')
    return "", (f"<section{c('desc')}><h2>{esc(z.t('description'))}</h2><div{md}>"
                f"<p>{esc(text)}</p></div></section><section><h2>{esc(z.t('specs'))}</h2>"
                f"{specs(z, it)}</section>")


def detail_main(z: Zoo, it: Item, recent: Sequence[Item]) -> str:
    """The product page between header and footer (breadcrumbs excluded)."""
    c, md = z.style.c, z.axes["structured"] == "microdata"
    scope = ' itemscope itemtype="https://schema.org/Product"' if md else ""
    role = "price" if z.axes["related"] == "same_class" else "dprice"
    offer = (' itemprop="offers" itemscope itemtype="https://schema.org/Offer"' if md else "")
    availability = (f'<link itemprop="availability" href="https://schema.org/'
                    f'{"InStock" if it.in_stock else "OutOfStock"}">' if md else "")
    under, after = _description(z, it)
    info = (f'<div{c("info")}>{_brand(z, it)}{_title(z, it)}{rating_html(z, it, long_count=True)}'
            f'<div{c("price_box")}{offer}>{price_html(z, it, role, "p", microdata=md)}'
            f"{old_price_html(z, it)}{availability}</div>{extras(z, it)}{_id_inline(z, it)}"
            f"{buy_form(z, it)}{under}</div>")
    main = f'<div{c("product")}{scope}>{gallery(z, it)}{info}{after}</div>'
    if z.axes["related"] != "none":
        main += block(z, z.t("related"), z.others({it.id}, 4, salt=it.id))
    if recent:
        main += block(z, z.t("recent"), recent)
    return main


def detail_head(z: Zoo, it: Item) -> str:
    """JSON-LD or OpenGraph tags of the product page (per ``structured``)."""
    kind, p = z.axes["structured"], it.product
    if kind == "opengraph":
        tags = [("og:type", "product"), ("og:title", p.name)]
        if it.images:
            tags.append(("og:image", it.images[0]))
        if it.price is not None:
            tags += [("product:price:amount", f"{it.price:.{z.locale.decimals}f}"),
                     ("product:price:currency", z.locale.currency)]
        return "".join(f'<meta property="{k}" content="{esc(v)}">' for k, v in tags)
    if kind not in ("jsonld", "jsonld_partial"):
        return ""
    data: dict[str, Any] = {"@context": "https://schema.org/", "@type": "Product",
                            "name": p.name, "url": z.urls.product(p)}
    if it.images:
        data["image"] = list(it.images)
    if kind == "jsonld":
        data.update(description=p.description, sku=it.sku,
                    brand={"@type": "Brand", "name": p.brand})
        offer: dict[str, Any] = {"@type": "Offer", "priceCurrency": z.locale.currency,
                                 "availability": "https://schema.org/"
                                 + ("InStock" if it.in_stock else "OutOfStock")}
        if it.price is not None:
            offer["price"] = f"{it.price:.{z.locale.decimals}f}"
        data["offers"] = offer
        if it.rating is not None:
            data["aggregateRating"] = {"@type": "AggregateRating", "ratingValue": it.rating,
                                       "reviewCount": it.reviews}
    text = json.dumps(data, ensure_ascii=True).replace("</", "<\\/")
    return f'<script type="application/ld+json">{text}</script>'
