"""Article pages of the news demo site, in three layouts.

Input: an :class:`~structurer.demo.news.corpus.Article`, the sections, and the other
articles it links to. Output: the page's HTML. ``classic`` has semantic class names
(story-body, comments, most-read); ``magazine`` has generated class names only, a
header date, teaser paragraphs under "related" and text-only dates; ``portal`` is a
Chinese-portal style page with a logo ``<h1>``, a top-bar date, a desk-editor line
after the text and, on some pages, paragraphs without ``<p>``.
"""

from __future__ import annotations

from structurer.demo.base import esc
from structurer.demo.news.corpus import Article, Section
from structurer.demo.news.parts import (
    Picks,
    article_head,
    article_url,
    author_url,
    body_blocks,
    byline_text,
    footer,
    list_url,
    most_read,
    nav_links,
    newsletter,
    recommended,
    share,
    site_name,
    today_text,
    visible_date,
)
from structurer.demo.news.vocab import LANGS


def render_article(a: Article, sections: list[Section], picks: Picks) -> str:
    return {"classic": _classic, "magazine": _magazine, "portal": _portal}[a.layout](
        a, sections, picks)


def _when(a: Article, *, cls: str = "") -> str:
    """The publish time as the page shows it: in <time datetime> or as bare text."""
    text = esc(visible_date(a.published, a.lang, a.date_style, a.show_time))
    attr = f' class="{cls}"' if cls else ""
    if a.time_mode == "time":
        return f'<time{attr} datetime="{a.published.isoformat()}">{text}</time>'
    return f"<span{attr}>{text}</span>"


def _updated(a: Article) -> str:
    if a.updated is None:
        return ""
    label = LANGS[a.lang]["ui"]["updated"]
    return (f' <span class="upd">{esc(label)} '
            f"{esc(visible_date(a.updated, a.lang, a.date_style, True))}</span>")


def _comment_list(a: Article, item: str, who: str, text: str) -> str:
    """The comments: ``item``/``text`` are ``tag.class`` (a long-text density trap)."""
    reply = esc(LANGS[a.lang]["ui"]["reply"])
    (item_tag, item_cls), (text_tag, text_cls) = item.split("."), text.split(".")
    return "".join(
        f'<{item_tag} class="{item_cls}"><{who}>{esc(c.author)}</{who}> '
        f"<span>{esc(visible_date(c.when, a.lang, 1, True))}</span>"
        f'<{text_tag} class="{text_cls}">{esc(c.text)}</{text_tag}>'
        f'<a href="#reply">{reply}</a></{item_tag}>'
        for c in a.comments)


def _classic(a: Article, sections: list[Section], picks: Picks) -> str:
    site, ui = site_name(a.lang), LANGS[a.lang]["ui"]
    also = picks.related[-1] if a.id % 3 == 0 else None
    byline = esc(byline_text(a)).replace(
        esc(a.author), f'<a rel="author" href="{author_url(a.author)}">{esc(a.author)}</a>', 1)
    related = "".join(f'<li><a href="{article_url(r)}">{esc(r.title)}</a></li>'
                      for r in picks.related)
    return (
        article_head(a, f"{a.title} | {site}")
        + '<body class="article-page"><header class="site-header">'
        f'<a class="logo" href="/">{esc(site)}</a><nav class="main-nav">'
        f'{nav_links(sections, "nav-item")}</nav><form class="search" action="/search">'
        '<input name="q"><button>Search</button></form></header>'
        f'<div class="ticker"><strong>Live</strong> <a href="{article_url(picks.ticker)}">'
        f"{esc(picks.ticker.title)}</a></div>"
        '<div class="page"><main class="content-column"><article class="story">'
        f'<header class="story-header"><p class="kicker"><a href="{list_url(a.section)}">'
        f'{esc(a.section.name)}</a></p><h1 class="headline">{esc(a.title)}</h1>'
        f'<p class="standfirst">{esc(a.teaser)}</p>'
        f'<div class="byline">{byline} · {_when(a, cls="date")}{_updated(a)}</div></header>'
        f'<figure class="lead-image"><img src="/img/news/{a.id}.jpg" alt="{esc(a.place)}">'
        f"<figcaption>{esc(a.place)}. {esc(ui['photo'])}: {esc(site)}</figcaption></figure>"
        f'{share(a.lang, "share-tools")}'
        f'<div class="story-body">{body_blocks(a, "p", also=also)}</div>'
        f'<p class="topics">{esc(ui["topics"])}: <a href="/topic/{a.id}/">{esc(a.place)}</a>, '
        f'<a href="{list_url(a.section)}">{esc(a.section.name)}</a></p></article>'
        f'<section class="related-stories"><h2>{esc(ui["related"])}</h2><ul>{related}</ul>'
        f'</section><section class="comments" id="comments"><h2>{len(a.comments)} '
        f'{esc(ui["comments"])}</h2><ol>'
        f'{_comment_list(a, "li.comment", "strong", "p.ct")}</ol></section></main>'
        f'<aside class="sidebar">{most_read(picks, a.lang, "most-read")}'
        f'{newsletter(a.lang, "newsletter-box")}{recommended(picks, a.lang, "recommended")}'
        f'</aside></div><footer>{footer(a.lang, "site-footer")}</footer></body></html>')


def _magazine(a: Article, sections: list[Section], picks: Picks) -> str:
    site, ui = site_name(a.lang), LANGS[a.lang]["ui"]
    also = picks.related[-1] if a.id % 3 == 0 else None
    related = "".join(
        f'<div class="q5r-i"><a href="{article_url(r)}"><img src="/img/news/{r.id}-s.jpg" '
        f'alt=""></a><div><a class="q5r-t" href="{article_url(r)}">{esc(r.title)}</a>'
        f"<p>{esc(r.teaser)}</p></div></div>" for r in picks.related)
    return (
        article_head(a, f"{a.title} - {a.section.name} - {site}")
        + f'<body><div id="__app"><div class="q1x"><div class="q1x-top"><span>'
        f'{esc(today_text(a.lang))}</span> <a class="q1x-logo" href="/">{esc(site)}</a></div>'
        f'<div class="q2n">{nav_links(sections, "q2n-l")}</div></div>'
        '<div class="q3m"><div class="q4a">'
        f'<div class="q4a-k"><a href="{list_url(a.section)}">{esc(a.section.name)}</a></div>'
        f'<h1 class="q4a-h">{esc(a.title)}</h1><div class="q4a-s">{esc(a.teaser)}</div>'
        f'<div class="q4a-m"><span class="q4a-au">{esc(byline_text(a))}</span> '
        f'{_when(a, cls="q4a-t")}{_updated(a)}</div>'
        f'<div class="q4a-img"><img src="/img/news/{a.id}.jpg" alt=""><span>{esc(a.place)}. '
        f"{esc(ui['photo'])}: {esc(site)}</span></div>"
        f'<div class="q4a-b">{body_blocks(a, "p", "q4a-p", also=also, figure=True)}</div>'
        f'{share(a.lang, "q4a-sh")}'
        f'<div class="q5r"><div class="q5r-h">{esc(ui["related"])}</div>{related}</div>'
        f'<div class="q6c"><div class="q6c-h">{len(a.comments)} {esc(ui["comments"])}</div>'
        f'{_comment_list(a, "div.q6c-i", "b", "p.q6c-x")}</div></div>'
        f'<div class="q7s">{most_read(picks, a.lang, "q7s-l")}{newsletter(a.lang, "q8n")}'
        f"</div></div>{footer(a.lang, 'q9f')}</div></body></html>")


def _portal(a: Article, sections: list[Section], picks: Picks) -> str:
    site, ui = site_name(a.lang), LANGS[a.lang]["ui"]
    also = picks.related[-1] if a.id % 3 == 0 else None
    sep = "_" if a.lang == "zh" else " - "
    page_title = f"{a.title}{sep}{a.section.name}{sep}{site}"
    related = "".join(
        f'<li><a href="{article_url(r)}">{esc(r.title)}</a><span>'
        f"{esc(visible_date(r.published, r.lang, 1, False))}</span></li>" for r in picks.related)
    rank = "".join(f'<li><em>{i}</em><a href="{article_url(r)}">{esc(r.title)}</a></li>'
                   for i, r in enumerate(picks.most_read, start=1))
    editor = (f'<div class="art-edit">(责任编辑：{esc(a.editor)})</div>' if a.editor else "")
    para = "div" if a.para_tag == "div" else "p"
    return (
        article_head(a, page_title)
        + f'<body><div class="topbar"><div class="w"><span class="today">'
        f'{esc(today_text(a.lang))}</span><a href="/login">Login</a><a href="/app">App</a>'
        f'</div></div><div class="head w"><h1 class="logo"><a href="/">{esc(site)}</a></h1>'
        f'</div><div class="navbar w">{nav_links(sections, "nv")}</div>'
        '<div class="w main clearfix"><div class="l">'
        f'<div class="crumb"><a href="/">{esc(ui["home"])}</a> &gt; '
        f'<a href="{list_url(a.section)}">{esc(a.section.name)}</a></div>'
        f'<h1 class="art-tit">{esc(a.title)}</h1><div class="art-info">{_when(a)}'
        f'<span>{esc(ui["source"])} {esc(site)}</span><span>{esc(byline_text(a))}</span>'
        f'{_updated(a)}</div>'
        f'<div class="art-con" id="artibody">{body_blocks(a, para, also=also)}</div>{editor}'
        f'{share(a.lang, "art-share")}'
        f'<div class="xgyd"><h3>{esc(ui["related"])}</h3><ul>{related}</ul></div>'
        f'<div class="pl"><h3>{len(a.comments)} {esc(ui["comments"])}</h3>'
        f'{_comment_list(a, "div.pl-item", "span", "div.pl-txt")}</div>'
        f'</div><div class="r"><div class="rank"><h3>{esc(ui["most_read"])}</h3><ul>{rank}'
        f'</ul></div>{recommended(picks, a.lang, "tj")}</div></div>'
        f'{footer(a.lang, "foot")}</body></html>')
