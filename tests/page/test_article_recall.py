"""The whole article however the page lays it out (page/article.py, page/articlebox.py,
page/propstext.py, page/view.py, generic/extract.py): sections set in sibling wrappers
with tables or quotes between them, a story told only by the page's description, a story
whose text only a script's JSON props hold, a gallery whose captions are the text, a live
blog whose entries link to their own anchors."""

from __future__ import annotations

import json
from html import escape

import structurer
from tests.page.test_article import URL, _prose

_NAV = "<nav><ul>" + "".join(f"<li><a href='/s{i}'>Section number {i}</a></li>"
                             for i in range(12)) + "</ul></nav>"
_FOOTER = ("<footer><ul>" + "".join(f"<li><a href='/f{i}'>Footer link {i}</a></li>"
                                    for i in range(15))
           + "</ul><p>Copyright 2024 Example News, all rights reserved.</p></footer>")
_TEASERS = "<div class='more'>" + "".join(f"<div><a href='/t{i}'>Other story {i} about the "
                                          "town</a></div>" for i in range(6)) + "</div>"


def _site_page(body: str, head: str = "",
               title: str = "The council approves the new harbour plan") -> str:
    """A page with a site header, a menu and a long footer of links around ``body``."""
    return (f"<html><head><title>{title} | Example News</title>{head}</head><body>"
            f"<header><a href='/'>Example News</a>{_NAV}</header>{body}{_FOOTER}"
            "</body></html>")


def _section(paragraphs: list[str], heading: str = "") -> str:
    return ("<div class='block topic'><div class='col'>" + heading
            + "".join(f"<p>{p}</p>" for p in paragraphs) + "</div></div>")


def test_sections_in_sibling_wrappers_with_tables_between_are_read_whole() -> None:
    """Each section of the article in a wrapper of its own, at the level of the page's
    header and footer, a table in a wrapper between two: every section is the text, the
    teasers after the last one are not."""
    first, middle, last = _prose(1, "alpha"), _prose(4, "beta"), _prose(3, "gamma")
    table = ("<div class='wide table-box'><table><tr><th>Density</th><td>0.67 kg/l</td></tr>"
             "<tr><th>Heat</th><td>8 kWh</td></tr></table></div>")
    body = ("<section class='head'><h1>The council approves the new harbour plan</h1></section>"
            + _section(first, "<h2>First part</h2>") + table + _section(middle) + table
            + _section(last, "<h2>Last part</h2>") + _TEASERS)
    out = structurer.extract_page(_site_page(body), URL, "news")
    text = out["fields"]["content"]
    assert out["kind"] == "detail"
    assert all(p in text for p in first + middle + last)
    assert "Last part" in text and "Other story" not in text and "Footer link" not in text


def test_sections_above_the_headline_are_not_taken_in() -> None:
    """A block named like the article's sections above its headline (a teaser of the
    lead story) is not part of the article."""
    above, story = _prose(1, "elsewhere"), _prose(4, "beta")
    body = (_section(above) + "<div class='block topic'><h1>The council approves the new "
            "harbour plan</h1>" + "".join(f"<p>{p}</p>" for p in story) + "</div>")
    text = structurer.extract_page(_site_page(body), URL, "news")["fields"]["content"]
    assert all(p in text for p in story) and "elsewhere" not in text


def _shell(body: str, head: str = "") -> str:
    """An app's page: its body empty but for the headline until scripts render it."""
    return ("<html><head><title>The council approves the new harbour plan | Example News"
            f"</title>{head}</head><body><div id='app'>{body}</div></body></html>")


def test_a_story_only_its_json_props_hold_is_read_from_them() -> None:
    """An empty body: the paragraphs are in the page's JSON data (a ``__NEXT_DATA__``
    script, a ``data-react-props`` attribute), the story's body beside the short teasers
    of related stories; the story is the text, the teasers are not."""
    story = _prose(4, "json")
    related = [{"title": f"Other story {i}", "summary": f"Other story {i} is about the town "
                f"and its {i} ferries, told elsewhere."} for i in range(3)]
    data = {"props": {"pageProps": {"article": {
        "title": "The council approves the new harbour plan",
        "body": [{"type": "paragraph", "text": p} for p in story]}, "related": related}}}
    script = ("<script id='__NEXT_DATA__' type='application/json'>"
              f"{json.dumps(data)}</script>")
    for html in (_shell("<h1>The council approves the new harbour plan</h1>" + script),
                 _shell("<div data-react-class='Article' data-react-props='"
                        + escape(json.dumps(data)) + "'></div>")):
        out = structurer.extract_page(html, URL, "news")
        text = out["fields"]["content"]
        assert out["kind"] == "detail"
        assert all(p in text for p in story) and "Other story" not in text


def test_a_story_told_only_by_its_description_is_its_text() -> None:
    """A page that shows only its headline: its description (meta, og:) is the text; a
    page whose body tells more keeps its body."""
    told = ("The council approved the new harbour plan on Tuesday, after a long debate "
            "about its cost, its timetable and the ferries that will use the new quay.")
    head = (f"<meta name='description' content='{told}'>"
            "<meta property='og:type' content='article'>")
    out = structurer.extract_page(_shell("<h1>The council approves the new harbour plan</h1>",
                                         head), URL, "news")
    assert out["kind"] == "detail" and told in out["fields"]["content"]
    story = _prose(3, "harbour")
    body = "<h1>The council approves the new harbour plan</h1>" + "".join(
        f"<p>{p}</p>" for p in story)
    text = structurer.extract_page(_shell(body, head), URL, "news")["fields"]["content"]
    assert all(p in text for p in story) and told not in text
    # a short post the description says again, typeset otherwise: the post, once
    post = "„Ich weiß, ich bin müde und sollte das nicht sagen…“ – „Dann sag es nicht.“"
    said = ('"Ich weiß, ich bin müde und sollte das nicht sagen..." - "Dann sag es nicht." '
            '(Nachts.)')
    head = (f"<meta name='description' content='{said}'>"
            "<meta property='og:type' content='article'>")
    text = structurer.extract_page(_shell(f"<h1>Nachts</h1><p>{post}</p>", head), URL,
                                   "news")["fields"]["content"]
    assert post in text and text.count("Dann sag es nicht") == 1


def test_a_gallerys_captions_written_as_sentences_are_its_text() -> None:
    """A gallery's figures, each captioned by a sentence of its own (no paragraph): the
    captions are the article."""
    captions = _prose(6, "slide", 10)
    figures = "".join(f"<figure class='slide'><img src='/p/{i}.jpg' alt=''>"
                      f"<figcaption class='caption'>{c}</figcaption></figure>"
                      for i, c in enumerate(captions))
    body = f"<main><h1>In pictures: the new harbour</h1><div class='gallery'>{figures}</div></main>"
    out = structurer.extract_page(_site_page(body, title="In pictures: the new harbour"),
                                  URL, "news")
    assert out["kind"] == "detail"
    assert all(c in out["fields"]["content"] for c in captions)


def test_a_live_blogs_entries_linked_to_their_own_anchors_are_its_text() -> None:
    """A live blog: each entry a time and a headline linked to the entry's own anchor on
    the page (its URL with a query or a fragment) over its text. The entries are the
    article, not a list of teasers of other pages; a list of other pages stays a list."""
    entries = _prose(5, "live", 16)
    intro = _prose(1, "intro")[0]
    posts = "".join(f"<article class='live-post'><a class='time' href='story.html?post={i}'>"
                    f"1{i}:0{i}</a><h2><a href='story.html?post={i}'>Update on the harbour "
                    f"vote number {i}</a></h2><p>{p}</p></article>"
                    for i, p in enumerate(entries))
    body = (f"<main><h1>Live: The council approves the new harbour plan</h1><p>{intro}</p>"
            f"<div class='liveblog'>{posts}</div></main>")
    out = structurer.extract_page(_site_page(body), URL, "news")
    assert out["kind"] == "detail"
    assert all(p in out["fields"]["content"] for p in entries)
    teasers = body.replace("story.html?post=", "/2024/05/other-story-")
    assert structurer.extract_page(_site_page(teasers), URL, "news")["kind"] == "list"


def test_a_quote_between_two_sections_is_read_an_ad_is_not() -> None:
    """Sections side by side at the level of the page's header and footer, a pull quote
    between the first two and an ad between the last two: the quote is the article's,
    the ad is not."""
    first, middle, last = _prose(3, "alpha"), _prose(4, "beta"), _prose(3, "gamma")
    quote = _prose(1, "quote", 10)[0]

    def section(paragraphs: list[str]) -> str:
        return "<div class='text-block'>" + "".join(f"<p>{p}</p>" for p in paragraphs) + \
            "</div>"

    body = ("<div class='head'><h1>The council approves the new harbour plan</h1></div>"
            + section(first) + f"<blockquote class='pull'><p>{quote}</p></blockquote>"
            + section(middle) + "<div class='ad'>Advertisement</div>" + section(last)
            + _TEASERS)
    text = structurer.extract_page(_site_page(body), URL, "news")["fields"]["content"]
    assert all(p in text for p in [*first, quote, *middle, *last])
    assert "Advertisement" not in text and "Other story" not in text


def test_a_slideshows_caption_blocks_are_its_text_teasers_beside_a_story_are_not() -> None:
    """A slideshow whose slides are a picture and a caption ``<div>`` (a class word
    "caption" that elsewhere names a picture's credit line): the captions are the text.
    Beside a long story, the pictures and excerpts of other stories stay out."""
    captions = _prose(6, "slide", 10)
    slides = "".join(f"<div class='slide'><img src='/p/{i}.jpg' alt=''>"
                     f"<div class='caption'>{c}</div></div>" for i, c in enumerate(captions))
    body = (f"<main><h1>In pictures: the new harbour</h1><div class='slideshow'>{slides}"
            "</div></main>")
    out = structurer.extract_page(_site_page(body, title="In pictures: the new harbour"),
                                  URL, "news")
    assert out["kind"] == "detail"
    assert all(c in out["fields"]["content"] for c in captions)
    story = _prose(8, "harbour")
    teasers = "".join(f"<div class='teaser'><a href='/o/{i}'><img src='/t/{i}.jpg' alt=''>"
                      f"</a><div class='excerpt'>{c}</div></div>"
                      for i, c in enumerate(_prose(3, "elsewhere", 8)))
    body = ("<article><h1>The council approves the new harbour plan</h1>"
            + "".join(f"<p>{p}</p>" for p in story)
            + f"</article><div class='more'>{teasers}</div>")
    text = structurer.extract_page(_site_page(body), URL, "news")["fields"]["content"]
    assert all(p in text for p in story) and "elsewhere" not in text
