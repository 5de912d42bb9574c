"""An article's text around its headline (page/article.py, page/titles.py): the standfirst
in the headline's own header, a breadcrumb repeating the headline, text written with
composed code points, forum posts as articles, a press contact
after the text and the meta tags of a byline (the lexicon's)."""

from __future__ import annotations

import json

import structurer
from tests.page.test_article import URL, _page, _prose

TITLE = "The council approves the new harbour plan"
LEAD = ("The vote ends a decade of quarrels over the old docks, and work on the quays starts "
        "in the spring.")
SHARE = "".join(f"<li><a href='/share/{n}'>Share this story on {n} with your friends</a></li>"
                for n in ("Facebook", "Twitter", "LinkedIn", "WhatsApp", "Telegram", "Email",
                          "Reddit", "Pinterest", "Xing", "Mastodon", "Threads", "Bluesky"))


def _content(html: str) -> str:
    return str(structurer.extract_page(html, URL, "news")["fields"]["content"] or "")


def test_the_standfirst_in_the_headlines_header_leads_the_text() -> None:
    story = _prose(6, "harbour")
    body = (f"<div class='page'><div class='story-head'><h1>{TITLE}</h1><p>{LEAD}</p>"
            f"<ul class='tools'>{SHARE}</ul></div>"
            f"<div class='story-body'>{''.join(f'<p>{p}</p>' for p in story)}</div></div>")
    text = _content(_page(body))
    assert LEAD in text
    assert all(p in text for p in story) and "Share this story" not in text


def test_no_standfirst_from_a_headline_below_the_text() -> None:
    story = _prose(6, "harbour")
    body = (f"<div class='page'><div class='story-body'>{''.join(f'<p>{p}</p>' for p in story)}"
            f"</div><div class='story-foot'><h2>{TITLE}</h2><p>{LEAD}</p>"
            f"<ul class='tools'>{SHARE}</ul></div></div>")
    assert LEAD not in _content(_page(body))


def test_a_breadcrumb_repeating_the_headline_is_not_the_headline() -> None:
    story = _prose(6, "harbour")
    crumbs = (f"<div class='site-breadcrumb'><a href='/'>Home</a> <a href='/news'>News</a> "
              f"<h1>{TITLE}</h1></div>")
    body = (f"{crumbs}<main><header class='entry-header'><h1>{TITLE}</h1>"
            f"<div class='lead'><p>{LEAD}</p></div></header>"
            f"<div class='entry-content'>{''.join(f'<p>{p}</p>' for p in story)}</div></main>")
    text = _content(_page(body, TITLE))
    assert LEAD in text and all(p in text for p in story)


def test_the_text_is_in_composed_unicode() -> None:
    # "ড়" written as one code point (U+09DC) is the letter and its nukta (U+09A1 U+09BC)
    story = [f"আজ শনিবার সকাল সা\u09dcে ৭টার দিকে {p}" for p in _prose(5, "village")]
    body = f"<article><h1>{TITLE}</h1>{''.join(f'<p>{p}</p>' for p in story)}</article>"
    text = _content(_page(body))
    assert "সাড\u09bcে" in text and "\u09dc" not in text


def test_a_forum_post_in_structured_data_is_an_article() -> None:
    post = ("Patch notes: the colour of spawn announcements changed to orange; the health of "
            "the caliphs was raised; spawn time went down from 30 to 20 minutes.")
    data = {"@context": "https://schema.org", "@type": "DiscussionForumPosting",
            "headline": "Patch notes 4.47.4", "author": {"@type": "Person", "name": "Tiberius"}}
    head = f"<script type='application/ld+json'>{json.dumps(data)}</script>"
    body = (f"<h1>Patch notes 4.47.4</h1><div class='message'><div class='bbWrapper'>{post}"
            "</div></div>")
    html = _page(body, "Patch notes 4.47.4").replace("</head>", head + "</head>")
    out = structurer.extract_page(html, URL, "news")
    assert out["kind"] == "detail" and "spawn time went down" in out["fields"]["content"]


def test_the_meta_tags_of_a_byline_are_the_lexicons() -> None:
    from structurer.clean import parse_html
    from structurer.page import byline

    tree = parse_html("<html><head><meta name='x-released' content='2024-03-05'>"
                      "<meta name='x-writer' content='Ann Lee'></head><body><h1>T</h1>"
                      "</body></html>")
    assert byline.published_of(tree) is None and byline.author_of(tree) is None
    assert "article:published_time" in byline.meta_names("published")   # news.yaml's
    assert byline.published_of(tree, metas=["x-released"]) == "2024-03-05"
    assert byline.author_of(tree, metas=["x-writer"]) == "Ann Lee"


def test_a_press_contact_after_the_text_is_left_out() -> None:
    story = _prose(6, "wind")
    contact = ("<p><b>Kontakt:</b></p><p>Frank Grüneisen Tel.: +49 (0)30-212 341-253 "
               "E-Mail: presse@wind.example</p><p>Ann Lee E-Mail: ann@wind.example</p>")
    body = f"<article><h1>{TITLE}</h1>{''.join(f'<p>{p}</p>' for p in story)}{contact}</article>"
    text = _content(_page(body))
    assert text.splitlines()[-1] == story[-1]


def test_an_article_word_inside_a_boilerplate_word_clears_nothing() -> None:
    story = _prose(6, "harbour")
    after = ("<div class='post-navigation'><p>Previous story: the old harbour master retires "
             "after forty years, and the whole town thanks him for it.</p></div>")
    body = (f"<div class='story'><h1>{TITLE}</h1>{''.join(f'<p>{p}</p>' for p in story)}"
            f"{after}</div>")
    text = _content(_page(body))
    assert all(p in text for p in story) and "master retires" not in text


def test_a_date_line_in_polish_italian_or_dutch_is_a_stamp() -> None:
    from structurer.page.blocktext import stamp

    assert stamp("opublikowano: 7 kwietnia 2021")
    assert stamp("Pubblicato il 3 settembre 2020") and stamp("Geplaatst op 12 maart 2019")
    assert not stamp("Kwietnia is a word of this sentence, and no date at all.")


def test_a_standfirst_in_a_teaser_block_stays_when_it_is_the_pages_summary() -> None:
    """A CMS names the standfirst's block "news-teaser" (a boilerplate word): its text is
    the page's meta description, or microdata marks it the article's description, so it
    is the article's lead; a teaser of another story beside the text is still left out."""
    story = _prose(4, "harbour")
    other = "The ferry company plans two new boats for the island route next year."
    for mark, head in (("", f"<meta name='description' content='{LEAD}'/>"),
                       (" itemprop='description'", "")):
        body = (f"<div class='news'><h1>{TITLE}</h1><div class='news-teaser'{mark}>{LEAD}"
                f"</div><div class='news-body'>{''.join(f'<p>{p}</p>' for p in story)}</div>"
                f"<div class='news-teaser'><p>{other}</p></div></div>")
        text = _content(_page(body).replace("</title>", f"</title>{head}"))
        assert text.splitlines()[1:] == [LEAD, *story]


def test_a_standfirst_ending_no_sentence_leads_the_text_when_it_is_the_description() -> None:
    """A standfirst without a full stop ("... from the spring") is no sentence, yet it is
    the page's meta description: it leads the text; a line that is not stays out."""
    story = _prose(6, "harbour")
    lead = "The vote ends a decade of quarrels over the old docks, and work starts in spring"
    for head, kept in ((f"<meta name='description' content='{lead}'/>", True), ("", False)):
        body = (f"<div class='page'><div class='story-head'><h1>{TITLE}</h1><p>{lead}</p>"
                f"<ul class='tools'>{SHARE}</ul></div>"
                f"<div class='story-body'>{''.join(f'<p>{p}</p>' for p in story)}</div></div>")
        text = _content(_page(body).replace("</title>", f"</title>{head}"))
        assert (lead in text) is kept
        assert all(p in text for p in story)
