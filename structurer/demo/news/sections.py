"""Section (list) pages, the home page and the plain pages of the news demo site.

Input: sections, the articles a page lists, the side-list picks. Output: HTML. Each
language's sections have their own list template: English ``classic`` cards with
teasers, German ``magazine`` cards that are one big link, Chinese ``portal`` rows of
title and time. Every list page also carries "most read" and "recommended" side
lists whose anchor texts are often longer than the main list's.
"""

from __future__ import annotations

from structurer.demo.base import esc
from structurer.demo.news.corpus import Article, Section
from structurer.demo.news.parts import (
    Picks,
    article_url,
    footer,
    head,
    list_url,
    most_read,
    nav_links,
    newsletter,
    recommended,
    site_name,
    today_text,
    visible_date,
)
from structurer.demo.news.vocab import LANGS


def _pager(section: Section, page: int, pages: int, cls: str) -> str:
    ui = LANGS[section.lang]["ui"]
    parts = []
    if page > 1:
        parts.append(f'<a rel="prev" href="{list_url(section, page - 1)}">{esc(ui["prev"])}</a>')
    for n in range(1, pages + 1):
        parts.append(f"<span>{n}</span>" if n == page
                     else f'<a href="{list_url(section, n)}">{n}</a>')
    if page < pages:
        parts.append(f'<a rel="next" href="{list_url(section, page + 1)}">{esc(ui["next"])}</a>')
    return f'<div class="{cls}">{" ".join(parts)}</div>'


def _meta_line(a: Article) -> str:
    return f"{a.author} · {visible_date(a.published, a.lang, a.date_style, False)}"


def render_list(section: Section, page: int, pages: int, items: list[Article],
                sections: list[Section], picks: Picks) -> str:
    site = site_name(section.lang)
    title = f"{section.name} | {site}" + (f" | {page}" if page > 1 else "")
    lang = section.lang
    if lang == "en":
        cards = "".join(
            f'<article class="card"><a class="card-img" href="{article_url(a)}">'
            f'<img src="/img/news/{a.id}-m.jpg" alt=""></a><div class="card-body">'
            f'<h2 class="card-title"><a href="{article_url(a)}">{esc(a.title)}</a></h2>'
            f'<p class="card-teaser">{esc(a.teaser)}</p>'
            f'<p class="card-meta">{esc(_meta_line(a))}</p></div></article>' for a in items)
        return (head(lang, title) + '<body class="section-page"><header class="site-header">'
                f'<a class="logo" href="/">{esc(site)}</a><nav class="main-nav">'
                f'{nav_links(sections, "nav-item")}</nav></header><div class="page">'
                f'<main><h1 class="section-title">{esc(section.name)}</h1>'
                f'<div class="stream">{cards}</div>{_pager(section, page, pages, "pagination")}'
                f'</main><aside class="sidebar">{most_read(picks, lang, "most-read")}'
                f'{recommended(picks, lang, "recommended")}{newsletter(lang, "newsletter-box")}'
                f'</aside></div><footer>{footer(lang, "site-footer")}</footer></body></html>')
    if lang == "de":
        cards = "".join(
            f'<div class="q4l-i"><a class="q4l-a" href="{article_url(a)}">'
            f'<img src="/img/news/{a.id}-m.jpg" alt=""><div class="q4l-t">{esc(a.title)}</div>'
            f'<div class="q4l-x">{esc(a.teaser)}</div></a>'
            f'<div class="q4l-d">{esc(_meta_line(a))}</div></div>' for a in items)
        return (head(lang, title) + f'<body><div id="__app"><div class="q1x"><div class="q1x-top">'
                f'<span>{esc(today_text(lang))}</span> <a class="q1x-logo" href="/">{esc(site)}'
                f'</a></div><div class="q2n">{nav_links(sections, "q2n-l")}</div></div>'
                f'<div class="q3m"><div class="q4l"><div class="q4l-h">{esc(section.name)}</div>'
                f'{cards}{_pager(section, page, pages, "q4l-p")}</div>'
                f'<div class="q7s">{most_read(picks, lang, "q7s-l")}'
                f'{recommended(picks, lang, "q7s-r")}{newsletter(lang, "q8n")}</div></div>'
                f"{footer(lang, 'q9f')}</div></body></html>")
    rows = "".join(
        f'<li><a href="{article_url(a)}">{esc(a.title)}</a><span class="time">'
        f"{esc(visible_date(a.published, lang, 1, True))}</span></li>" for a in items)
    ui = LANGS[lang]["ui"]
    return (head(lang, title) + f'<body><div class="topbar"><div class="w"><span class="today">'
            f'{esc(today_text(lang))}</span></div></div><div class="head w"><div class="logo">'
            f'<a href="/">{esc(site)}</a></div></div>'
            f'<div class="navbar w">{nav_links(sections, "nv")}</div>'
            '<div class="w main clearfix"><div class="l">'
            f'<div class="crumb"><a href="/">{esc(ui["home"])}</a> &gt; {esc(section.name)}</div>'
            f'<ul class="news-list">{rows}</ul>{_pager(section, page, pages, "pages")}</div>'
            f'<div class="r">{most_read(picks, lang, "rank")}{recommended(picks, lang, "tj")}'
            f'</div></div>{footer(lang, "foot")}</body></html>')


_ABOUT = {
    "en": ("About us", "The Harbour Post is an independent newsroom. Write to the desk at "
                       "desk@harbourpost.example or call +44 20 7946 0000."),
    "de": ("Impressum", "Hafenpost GmbH, Kaistraße 12, 20457 Hamburg. Redaktion: "
                        "redaktion@hafenpost.example, Telefon 040 123456."),
    "zh": ("联系我们", "港湾新闻网编辑部，电话：010-12345678，邮箱：news@gangwan.example。"),
}


def render_plain(lang: str, sections: list[Section]) -> str:
    """An about/imprint page: a heading, one short paragraph, contacts (kind: other)."""
    heading, text = _ABOUT[lang]
    contacts = "".join(f'<li><a href="{list_url(s)}">{esc(s.name)}</a></li>' for s in sections)
    return (head(lang, f"{heading} | {site_name(lang)}") + '<body><header class="site-header">'
            f'<a class="logo" href="/">{esc(site_name(lang))}</a></header><main>'
            f"<h1>{esc(heading)}</h1><p>{esc(text)}</p><h2>Desks</h2><ul>{contacts}</ul>"
            f'</main><footer>{footer(lang, "site-footer")}</footer></body></html>')


def render_home(sections: list[Section], latest: dict[str, Article]) -> str:
    """The front door: one tile per section with its description and newest headline."""
    tiles = "".join(
        f'<section class="tile"><h2><a href="{list_url(s)}">{esc(s.name)}</a></h2>'
        f'<p><a href="{article_url(latest[s.slug])}">{esc(latest[s.slug].title)}</a></p>'
        "</section>" for s in sections)
    plain = "".join(f'<li><a href="{u}">{esc(t)}</a></li>' for u, t in
                    (("/about/", "About us"), ("/impressum/", "Impressum"),
                     ("/lianxi/", "联系我们")))
    return (head("en", "The Harbour Post – news in three languages")
            + '<body><header class="site-header"><a class="logo" href="/">The Harbour Post</a>'
            f'<nav class="main-nav">{nav_links(sections, "nav-item")}</nav></header><main>'
            f'<div class="tiles">{tiles}</div><ul class="plain">{plain}</ul></main>'
            f'<footer>{footer("en", "site-footer")}</footer></body></html>')
