"""Pagination markup per the ``pagination`` axis, and the head links some shops add.

Input: a zoo, a category and a page number. Output: the pager's HTML (inside the
element a script may refill) and ``<link rel=next/prev>`` head tags. Seven kinds:

* ``shared_class`` — Bootstrap's ``li.page-item > a.page-link`` for previous, every
  number and next alike (the words or arrows are all that tell them apart);
* ``numbered`` — a window of page numbers (1 … 4 5 6 … 9), no next link;
* ``rel_next`` — numbers plus prev/next links marked ``rel``, and head links;
* ``text_next`` — "Page 2 of 5" with previous/next links of their own classes;
* ``script`` — numbers and prev/next with ``href="#"`` and ``data-page``: a click
  handler loads the page's JSON (the server still renders every ``?page=N`` URL);
* ``load_more`` — a button that appends the next page's items (no link);
* ``infinite`` — a sentinel that loads the next page when scrolled near (no link).
"""

from __future__ import annotations

from structurer.demo.base import esc
from structurer.demo.catalog import Category
from structurer.demo.zoo.model import Zoo


def window(page: int, total: int) -> list[int | None]:
    """Page numbers a pager shows: first, last and two either side (None: a gap)."""
    shown = sorted({1, total, *range(max(1, page - 2), min(total, page + 2) + 1)})
    out: list[int | None] = []
    last = 0
    for n in shown:
        if last and n - last > 1:
            out.append(None)
        out.append(n)
        last = n
    return out


def _label(z: Zoo, which: str) -> tuple[str, str]:
    """(text, aria attribute) of a previous/next link."""
    word = z.t(which)
    if z.look.pager_words:
        return esc(word.lower() if z.axes["pagination"] == "shared_class" else word), ""
    arrow = "«" if which == "prev" else "»"
    return arrow, f' aria-label="{esc(word)}"'


def head_links(z: Zoo, cat: Category, page: int) -> str:
    if z.axes["pagination"] != "rel_next":
        return ""
    total = len(z.pages_of(cat))
    out = ""
    if page > 1:
        out += f'<link rel="prev" href="{esc(z.urls.category(cat, page - 1))}">'
    if page < total:
        out += f'<link rel="next" href="{esc(z.urls.category(cat, page + 1))}">'
    return out


def _numbers(z: Zoo, cat: Category, page: int, *, script: bool) -> list[str]:
    c = z.style.c
    total = len(z.pages_of(cat))
    parts = []
    for n in window(page, total):
        if n is None:
            parts.append(f"<li{c('pager_item')}><span>…</span></li>")
        elif n == page:
            parts.append(f'<li{c("pager_current")}><span{c("pager_link")} '
                         f'aria-current="page">{n}</span></li>')
        else:
            href = "#" if script else esc(z.urls.category(cat, n))
            data = f' data-page="{n}"' if script else ""
            parts.append(f'<li{c("pager_item")}><a{c("pager_link")} href="{href}"{data}>'
                         f"{n}</a></li>")
    return parts


def _step(z: Zoo, cat: Category, page: int, which: str, *, script: bool = False,
          rel: bool = False, shared: bool = True) -> str:
    c = z.style.c
    target = page - 1 if which == "prev" else page + 1
    text, aria = _label(z, which)
    href = "#" if script else esc(z.urls.category(cat, target))
    data = f' data-page="{target}"' if script else ""
    rel_attr = f' rel="{which}"' if rel else ""
    item_role = "pager_item" if shared else f"pager_{which}"
    link_role = "pager_link" if shared else ""
    return (f'<li{c(item_role)}><a{c(link_role) if link_role else ""} href="{href}"{data}'
            f"{rel_attr}{aria}>{text}</a></li>")


def pager(z: Zoo, cat: Category, page: int) -> str:
    """The pager of list page ``page`` of ``cat`` ("" when the list has one page)."""
    total = len(z.pages_of(cat))
    if total < 2:
        return ""
    c = z.style.c
    kind = z.axes["pagination"]
    if kind in ("load_more", "infinite"):
        if page >= total:
            return ""
        if kind == "load_more":
            return (f'<div{c("pager")}><button type="button"{c("more")} '
                    f'data-next-page="{page + 1}">{esc(z.t("load_more"))}</button></div>')
        return (f'<div{c("pager")} data-next-page="{page + 1}" aria-hidden="true">'
                '<span class="spinner"></span></div>')
    script = kind == "script"
    parts: list[str] = []
    if kind == "text_next":
        if page > 1:
            parts.append(_step(z, cat, page, "prev", shared=False))
        parts.append(f"<li>{esc(z.t('results', n=len(z.listing(cat))))} · {page} / {total}</li>")
        if page < total:
            parts.append(_step(z, cat, page, "next", shared=False))
        return f"<nav><ul{c('pager')}>{''.join(parts)}</ul></nav>"
    steps = kind in ("shared_class", "rel_next", "script")
    rel, shared = kind == "rel_next", kind != "rel_next"
    if steps and page > 1:
        parts.append(_step(z, cat, page, "prev", script=script, rel=rel, shared=shared))
    parts += _numbers(z, cat, page, script=script)
    if steps and page < total:
        parts.append(_step(z, cat, page, "next", script=script, rel=rel, shared=shared))
    return f'<nav aria-label="pagination"><ul{c("pager")}>{"".join(parts)}</ul></nav>'


def pager_box(z: Zoo, inner: str) -> str:
    """The element holding the pager, which scripts refill."""
    return f'<div id="{z.look.ids["pager"]}">{inner}</div>'
