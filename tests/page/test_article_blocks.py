"""Which block of a page is its article (page/article.py, generic/extract.py), where the
markup misleads: a theme naming the article's wrapper like a sidebar; ..."""

from __future__ import annotations

import structurer
from tests.page.test_article import URL, _page, _prose

TITLE = "The council approves the new harbour plan"


def _text(html: str) -> str:
    out = structurer.extract_page(html, URL, "news")
    assert out["kind"] == "detail"
    return str(out["fields"]["content"] or "")


def test_an_article_in_a_wrapper_named_sidebar_layout_under_its_headline_is_kept() -> None:
    story = _prose(6, "harbour")
    side = "".join(f"<p>{p}</p>" for p in _prose(3, "weather"))
    body = (f"<div class='layout'><article class='c-article'><header class='c-article__header'>"
            f"<h1>{TITLE}</h1></header><div class='o-row c-fixed-sidebar-layout'>"
            f"<div class='c-article__content'>{''.join(f'<p>{p}</p>' for p in story)}</div>"
            f"</div></article><aside class='c-sidebar'>{side}</aside></div>")
    text = _text(_page(body))
    assert all(p in text for p in story)
    assert "weather" not in text



def test_a_post_shown_only_without_scripts_is_read_from_its_noscript() -> None:
    """Blogger writes the post into a script template and repeats it in <noscript> for
    readers without scripts; a short noscript notice is no text."""
    story = _prose(5, "browsing")
    post = "".join(f"<p>{p}</p>" for p in story)
    body = (f"<div class='post'><h1>{TITLE}</h1><div class='post-body'>"
            f"<script type='text/template'>{post}</script><noscript>{post}</noscript></div>"
            "</div><noscript><p>Please enable JavaScript to see the comments.</p></noscript>")
    text = _text(_page(body))
    assert all(p in text for p in story)
    assert "enable JavaScript" not in text



def test_words_of_the_text_that_a_link_list_repeats_do_not_make_it_a_list() -> None:
    """A service page names trees in its text and links their pages in a list under it
    ("<a>Birch</a> tree description"): a link's word inside a sentence of the text is no
    list shown in the body."""
    trees = ["Birch", "Beech", "Linden", "Willow", "Maple", "Cedar", "Walnut", "Poplar",
             "Chestnut", "Alder", "Hornbeam", "Spruce"]
    links = "".join(f"<li><span><a href='/trees/{t.lower()}.htm'>{t}</a> tree description and "
                    "care</span></li>" for t in trees)
    story = [f"{t} trees need a survey too: " + " ".join(_prose(1, t.lower(), 6))
             for t in trees[:5]]
    body = (f"<div id='content'><h2>Introduction</h2>{''.join(f'<p>{p}</p>' for p in story)}"
            f"<h3>More about trees</h3><ul>{links}</ul></div>")
    html = (f"<html><head><title>Tree reports</title></head><body>{body}"
            "<div id='foot'>Hoppe planning office, Bremerhaven</div></body></html>")
    text = _text(html)
    assert all(p in text for p in story)


def test_a_dense_notice_far_from_the_headline_is_not_the_article() -> None:
    """An advertiser disclosure, one long paragraph full of commas at the top of the page,
    outweighs a plain story's paragraphs by text density; the story shares its container
    with the headline."""
    notice = ("Many of the offers, cards, loans, accounts and deals on this site, as listed, "
              "come from partners, issuers, banks, lenders, brokers, insurers and shops, "
              "which pay us, in part, when you click, apply, buy, sign up or register, and "
              "this may affect where, how, in which order, and whether, offers appear, so, "
              "please, see our policy, terms, notes and disclosures, too.")
    story = [f"The airline sets a new date for its alliance membership in spring {i}. "
             f"The move follows a delay of about three months caused by the pandemic {i}."
             for i in range(5)]
    body = (f"<section class='disclosure'><p>{notice}</p></section>"
            f"<div class='post'><section class='article-content'><div class='title-wrap'>"
            f"<h1>{TITLE}</h1></div><div class='article-wrapper'><div class='the-content'>"
            f"{''.join(f'<p>{p}</p>' for p in story)}</div></div></section></div>")
    text = _text(_page(body))
    assert all(p in text for p in story)
    assert "partners, issuers" not in text


def test_more_posts_press_contact_and_follow_us_are_left_out() -> None:
    """Sections a site appends to every post, in several languages: the lexicon's
    boilerplate headings and lines."""
    story = _prose(5, "wind")
    more = "".join(f"<p>Another post about the energy transition, number {i}, with its "
                   f"teaser text of a few words.</p>" for i in range(3))
    body = (f"<div class='post'><h1>{TITLE}</h1>{''.join(f'<p>{p}</p>' for p in story)}"
            "<div class='headline'>Pressekontakt<p>Ihr Ansprechpartner für Pressefragen</p></div>"
            "<p>Nos siga no Instagram</p>"
            f"<h3>Weitere Beiträge</h3>{more}</div>")
    text = _text(_page(body))
    assert all(p in text for p in story)
    assert "Another post" not in text and "Ansprechpartner" not in text
    assert "Nos siga" not in text


def test_a_short_label_after_the_text_is_left_out_but_not_a_list_item() -> None:
    """A box's label after the article ("Infos zum Reiseziel", a permalink) ends no
    sentence; the short last item of the article's own list is text."""
    story = _prose(4, "island")
    items = "<ul><li>Ferry from the harbour, twice a day</li><li>Bike rental</li></ul>"
    body = (f"<div class='post'><h1>{TITLE}</h1>{''.join(f'<p>{p}</p>' for p in story)}"
            f"{items}<div class='box'><span>Infos zum Reiseziel</span></div>"
            "<div><a href='/p/1'>#</a> Permalink</div></div>")
    lines = _text(_page(body)).splitlines()
    assert all(p in lines for p in story)
    assert lines[-1] == "Bike rental"


def test_an_embedded_social_post_is_left_out() -> None:
    """A tweet or a Facebook post embedded between the paragraphs (``twitter-tweet``,
    ``fb-post``) is the network's post, not the article's text."""
    story = _prose(6, "harbour")
    tweet = ("<blockquote class='twitter-tweet'><p>Green hydrogen, biokerosene and new "
             "packaging: only new technologies can stop the warming climate.</p>"
             "<p>— Party (@party) <a href='https://twitter.com/x/1'>November 2, 2021</a></p>"
             "</blockquote>")
    post = ("<div class='fb-post'><blockquote><p>In times of exploding costs families must "
            "not be burdened any further by the council.</p></blockquote></div>")
    paragraphs = [f"<p>{p}</p>" for p in story]
    body = "".join(paragraphs[:2]) + tweet + "".join(paragraphs[2:4]) + post + \
        "".join(paragraphs[4:])
    text = _text(_page(f"<article><h1>{TITLE}</h1>{body}</article>"))
    assert all(p in text for p in story)
    assert "biokerosene" not in text and "exploding costs" not in text
