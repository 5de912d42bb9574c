"""Shared pieces of the news demo site's pages: URLs, dates, head, chrome, side lists.

Input: :mod:`structurer.demo.news.corpus` values. Output: HTML fragments as strings.
The three layouts (``classic``, ``magazine``, ``portal``) share these pieces but not
their markup: class names and nesting differ so that no single XPath fits them all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime

from structurer.demo.base import esc, json_script
from structurer.demo.news.corpus import Article, Section, slugify
from structurer.demo.news.vocab import LANGS

#: "Today" on the site's pages (a header date, a trap for date extraction).
TODAY = date(2025, 1, 15)


@dataclass(frozen=True)
class Picks:
    """Other articles a page links to: related, most read, recommended, a ticker item."""
    related: list[Article]
    most_read: list[Article]
    recommended: list[Article]
    ticker: Article
    long_texts: bool     # side-list anchors carry title plus teaser (long link texts)


# ----- URLs -----------------------------------------------------------------------------------
def article_url(a: Article) -> str:
    p, s = a.published, a.section.slug
    if a.lang == "en":
        return f"/{s}/{p:%Y/%m/%d}/{slugify(a.title)}/"
    if a.lang == "de":
        return f"/{s}/{slugify(a.title)}-a{a.id}.html"
    return f"/{s}/{p:%Y-%m/%d}/c_{100000 + a.id}.htm"


def list_url(section: Section, page: int = 1) -> str:
    s = section.slug
    if section.lang == "en":
        return f"/{s}/" if page == 1 else f"/{s}/page/{page}/"
    if section.lang == "de":
        return f"/{s}/" if page == 1 else f"/{s}/?seite={page}"
    return f"/{s}/index.shtml" if page == 1 else f"/{s}/index_{page}.shtml"


def author_url(name: str) -> str:
    return f"/authors/{slugify(name) or 'desk'}/"


# ----- dates ----------------------------------------------------------------------------------
def visible_date(dt: datetime, lang: str, style: int, with_time: bool) -> str:
    """A date as a reader sees it, in one of three styles per language."""
    w = LANGS[lang]
    month, short = w["months"][dt.month - 1], w["months_short"][dt.month - 1]
    h12 = dt.hour % 12 or 12
    if lang == "en":
        day = (f"{month} {dt.day}, {dt.year}", f"{dt.day} {month} {dt.year}",
               f"{short} {dt.day}, {dt.year}")[style]
        clock = (f" at {h12}:{dt:%M} {'p.m.' if dt.hour >= 12 else 'a.m.'}",
                 f", {dt:%H:%M} GMT", f" {h12}:{dt:%M} {'PM' if dt.hour >= 12 else 'AM'}")[style]
    elif lang == "de":
        day = (f"{dt.day}. {month} {dt.year}", f"{dt:%d.%m.%Y}",
               f"{dt.day}. {short} {dt.year}")[style]
        clock = (f", {dt:%H:%M} Uhr", f" – {dt:%H:%M} Uhr", f" um {dt:%H:%M} Uhr")[style]
    else:
        day = (f"{dt.year}年{dt.month}月{dt.day}日", f"{dt:%Y-%m-%d}", f"{dt:%Y/%m/%d}")[style]
        clock = (f" {dt:%H:%M}", f" {dt:%H:%M:%S}", f" {dt:%H:%M}")[style]
    return day + (clock if with_time else "")


def today_text(lang: str) -> str:
    w = LANGS[lang]
    weekday = w["weekdays"][TODAY.weekday()]
    if lang == "en":
        return f"{weekday}, {w['months'][TODAY.month - 1]} {TODAY.day}, {TODAY.year}"
    if lang == "de":
        return f"{weekday}, {TODAY.day}. {w['months'][TODAY.month - 1]} {TODAY.year}"
    return f"{TODAY.year}年{TODAY.month}月{TODAY.day}日 星期{'一二三四五六日'[TODAY.weekday()]}"


def byline_text(a: Article) -> str:
    """The author line in one of three wordings (the name is the ground truth)."""
    name, style = a.author, a.byline_style
    if a.lang == "en":
        return (f"By {name}", f"{name}, {a.section.name} correspondent",
                f"By {name} in {a.place}")[style]
    if a.lang == "de":
        return (f"Von {name}", f"Von {name}, {a.place}", f"Ein Bericht von {name}")[style]
    return (f"作者：{name}", f"记者 {name}", f"文/{name}")[style]


# ----- head -----------------------------------------------------------------------------------
def site_name(lang: str) -> str:
    return str(LANGS[lang]["site"])


def head(lang: str, title: str, extra: str = "") -> str:
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title>{extra}"
            f'<link rel="stylesheet" href="/static/news.css"></head>')


def article_head(a: Article, page_title: str) -> str:
    """<head> of an article: OpenGraph, article:* metas or JSON-LD as the article says."""
    site = site_name(a.lang)
    extra = [f'<meta name="description" content="{esc(a.teaser)}">',
             f'<meta property="og:site_name" content="{esc(site)}">']
    if a.title_mode != "plain":
        og = a.title if a.title_mode == "og" else f"{a.title} | {site}"
        extra += ['<meta property="og:type" content="article">',
                  f'<meta property="og:title" content="{esc(og)}">',
                  f'<meta property="og:description" content="{esc(a.teaser)}">']
    if a.time_mode == "meta":
        extra.append(f'<meta property="article:published_time" '
                     f'content="{a.published.isoformat()}">')
        if a.updated:
            extra.append(f'<meta property="article:modified_time" '
                         f'content="{a.updated.isoformat()}">')
    if a.time_mode == "jsonld":
        data = {"@context": "https://schema.org", "@type": "NewsArticle",
                "headline": a.title, "datePublished": a.published.isoformat(),
                "dateModified": (a.updated or a.published).isoformat(),
                "author": {"@type": "Person", "name": a.author},
                "publisher": {"@type": "Organization", "name": site}}
        extra.append(f'<script type="application/ld+json">{json_script(data)}</script>')
    extra.append(f"<script>window.__analytics={json.dumps({'id': a.id, 'kind': 'article'})};"
                 "</script>")
    return head(a.lang, page_title, "".join(extra))


# ----- chrome ---------------------------------------------------------------------------------
_FOOTER = {
    "en": ["About us", "Contact", "Careers", "Advertise with us", "Terms of use",
           "Privacy policy", "Cookie settings", "RSS feeds", "Newsletters", "Podcasts",
           "Puzzles", "Archive", "Corrections", "Ethics policy", "Help centre", "Subscribe",
           "Gift subscriptions", "Student offers", "Events", "Shop", "Accessibility",
           "Sitemap", "Apps", "Syndication"],
    "de": ["Über uns", "Kontakt", "Impressum", "Datenschutz", "Cookie-Einstellungen",
           "Mediadaten", "Karriere", "Abo", "Leserbriefe", "Archiv", "Newsletter", "RSS",
           "Podcasts", "Rätsel", "Shop", "AGB", "Barrierefreiheit", "Hilfe", "Jobs",
           "Veranstaltungen"],
    "zh": ["关于我们", "联系我们", "广告服务", "招聘信息", "网站地图", "法律声明", "隐私政策",
           "意见反馈", "新闻热线", "投稿邮箱", "客户端下载", "合作伙伴", "人民网", "新华网",
           "央视网", "光明网", "中国新闻网", "澎湃新闻", "界面新闻", "财新网"],
}


def footer(lang: str, cls: str) -> str:
    links = "".join(f'<li><a href="/info/{i}/">{esc(t)}</a></li>'
                    for i, t in enumerate(_FOOTER[lang]))
    return (f'<div class="{cls}"><ul class="{cls}-links">{links}</ul>'
            f"<p>© 2025 {esc(site_name(lang))}. All rights reserved. "
            f"Registered office: 12 Quay Street, Harbourtown.</p></div>")


def nav_links(sections: list[Section], cls: str) -> str:
    return "".join(f'<a class="{cls}" href="{list_url(s)}">{esc(s.name)}</a>'
                   for s in sections)


def share(lang: str, cls: str) -> str:
    names = {"zh": ["微信", "微博", "QQ空间"],
             "de": ["Facebook", "X", "WhatsApp", "E-Mail"]}.get(lang, ["Facebook", "X",
                                                                     "LinkedIn", "Email"])
    label = LANGS[lang]["ui"]["share"]
    return (f'<div class="{cls}"><span>{esc(label)}</span>'
            + "".join(f'<a href="#share-{i}">{esc(n)}</a>' for i, n in enumerate(names))
            + "</div>")


def newsletter(lang: str, cls: str) -> str:
    text = {"en": "Our editors' pick of the day's most important stories, in your inbox "
                  "before seven o'clock. Free, every weekday, unsubscribe at any time.",
            "de": "Die wichtigsten Nachrichten des Tages, ausgewählt von unserer Redaktion, "
                  "jeden Morgen um sieben Uhr in Ihrem Postfach. Kostenlos und jederzeit "
                  "kündbar.",
            "zh": "每天早上七点，编辑精选当日要闻，免费发送到您的邮箱，可随时退订。"}[lang]
    return (f'<div class="{cls}"><h3>{esc(LANGS[lang]["ui"]["newsletter"])}</h3>'
            f"<p>{esc(text)}</p><form action=\"/newsletter\" method=\"post\">"
            '<input type="email" name="email" placeholder="you@example.com">'
            "<button>OK</button></form></div>")


def side_text(a: Article, long_text: bool) -> str:
    """A side-list anchor: the title, or title and teaser (long link texts, a trap)."""
    if not long_text:
        return a.title
    return f"{a.title}{'：' if a.lang == 'zh' else ': '}{a.teaser}"


def most_read(picks: Picks, lang: str, cls: str) -> str:
    items = "".join(
        f'<li><span class="{cls}-n">{i}</span><a href="{article_url(a)}">'
        f"{esc(side_text(a, picks.long_texts and i % 3 != 0))}</a></li>"
        for i, a in enumerate(picks.most_read, start=1))
    label = esc(LANGS[lang]["ui"]["most_read"])
    return f'<div class="{cls}"><h3>{label}</h3><ol>{items}</ol></div>'


def recommended(picks: Picks, lang: str, cls: str) -> str:
    items = "".join(
        f'<li><a href="{article_url(a)}"><img src="/img/news/{a.id}-s.jpg" alt="">'
        f"<span>{esc(side_text(a, picks.long_texts))}</span></a></li>"
        for a in picks.recommended)
    return (f'<div class="{cls}"><h3>{esc(LANGS[lang]["ui"]["recommended"])}</h3>'
            f"<ul>{items}</ul></div>")


_ALSO = {"en": "Also read:", "de": "Lesen Sie auch:", "zh": "延伸阅读："}
_AD = {"en": "Advertisement", "de": "Anzeige", "zh": "广告"}


def body_blocks(a: Article, para: str, cls: str = "", *, also: Article | None = None,
                figure: bool = False) -> str:
    """The article text: paragraphs (with an inline link to the place), sub-headings,
    a quotation; on some pages also in-text noise the ground truth leaves out — an
    "also read" link line, an ad slot, a figure with its caption."""
    out = []
    attr = f' class="{cls}"' if cls else ""
    linked = False
    middle = max(1, len(a.blocks) // 2)
    for i, (kind, text) in enumerate(a.blocks):
        if i == middle and also is not None:
            out.append(f"<{para}{attr}><strong>{esc(_ALSO[a.lang])}</strong> "
                       f'<a href="{article_url(also)}">{esc(also.title)}</a></{para}>')
        if i == middle and a.id % 2 == 0:
            out.append(f'<div class="ad-slot"><span>{esc(_AD[a.lang])}</span></div>')
        if i == 1 and figure:
            out.append(f'<figure><img src="/img/news/{a.id}-2.jpg" alt=""><figcaption>'
                       f"{esc(a.place)}: {esc(a.teaser)}</figcaption></figure>")
        if kind == "h2":
            out.append(f"<h2>{esc(text)}</h2>")
        elif kind == "quote":
            out.append(f"<blockquote><p>{esc(text)}</p></blockquote>")
        else:
            html = esc(text)
            if not linked and esc(a.place) in html:
                place = esc(a.place)
                html = html.replace(place, f'<a href="/topic/{a.id}/">{place}</a>', 1)
                linked = True
            out.append(f"<{para}{attr}>{html}</{para}>")
    return "".join(out)
