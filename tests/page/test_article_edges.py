"""An article's text at its edges (page/article.py, generic/extract.py): structured data
holding only a teaser of the story, a privacy dialog beside it, a heading left at the end
with nothing of the text under it; and the class/id words and headings of page noise are
the lexicon vocabulary's (editing them changes what is noise)."""

from __future__ import annotations

import json

from lxml import html as lxml_html

import structurer
from structurer.kinds import compile_words
from structurer.page.density import is_noise, noise_heading
from structurer.vocabulary import Vocabulary
from tests.page.test_article import URL, _article, _page, _prose


def test_a_structured_teaser_does_not_stand_for_the_story() -> None:
    story = _prose(6, "port")
    teaser = "The port company announced 150 layoffs, then withdrew them."
    data = {"@context": "https://schema.org", "@type": "NewsArticle",
            "headline": "The council approves the new harbour plan", "articleBody": teaser}
    head = f"<script type='application/ld+json'>{json.dumps(data)}</script>"
    html = _page(f"<article>{_article(story)}</article>").replace("</head>", head + "</head>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert all(p in text for p in story)
    assert text.startswith(teaser)      # the standfirst the text does not repeat leads it


def test_a_privacy_dialog_is_no_article() -> None:
    story = _prose(6, "lemon")
    policy = "".join(f"<p>{p}</p>" for p in _prose(4, "privacy", 16))
    body = (f"<main>{_article(story, 'How to grow lemon trees from seed')}</main>"
            f"<div class='dialog'><div class='dialog__scroll'><h2>Privacy Policy</h2>{policy}"
            "</div></div>")
    out = structurer.extract_page(_page(body, "How to grow lemon trees from seed"), URL, "news")
    text = out["fields"]["content"]
    assert all(p in text for p in story)
    assert "privacy" not in text


def test_a_heading_heading_nothing_of_the_text_ends_it() -> None:
    story = _prose(4, "rail")
    related = "".join(f"<li><a href='/r/{i}'>Another story about trains number {i}</a></li>"
                      for i in range(5))
    body = (f"<div class='story'>{_article(story)}<h3>Sie könnten auch an folgenden Artikeln "
            f"interessiert sein</h3><ul>{related}</ul><p>Aktuelle Berichte:</p></div>")
    text = structurer.extract_page(_page(body), URL, "news")["fields"]["content"]
    assert text.splitlines()[-1] == story[-1]


def test_page_noise_words_are_the_vocabularys() -> None:
    block = lxml_html.fromstring("<div class='leserbox'><h3>Eure Meinung</h3><p>a</p></div>")
    assert not is_noise(block) and not noise_heading(block)
    words = compile_words(Vocabulary(noise_classes=["leserbox"], noise_headings=["eure meinung"]))
    assert is_noise(block, words) and noise_heading(block, words)


def test_an_article_under_an_unclosed_heading_and_ending_in_a_colon_stays_whole() -> None:
    """Text an unclosed ``<h2>`` wraps is no heading of nothing; a paragraph that ends in a
    colon before a video is the article's."""
    story = _prose(4, "virus")
    last = ("The programme, which is shown on several channels, explains what viral "
            "marketing means and how it shapes us without our noticing:")
    body = ("<main><h1>The council approves the new harbour plan</h1><h2 class='excerpt'>"
            + "".join(f"<p>{p}</p>" for p in story)
            + f"<p>{last}</p><object data='/v.swf'></object></main>")
    text = structurer.extract_page(_page(body), URL, "news")["fields"]["content"]
    assert all(p in text for p in story)
    assert text.splitlines()[-1] == last
