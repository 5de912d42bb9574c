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


def test_ruby_readings_and_soft_hyphens_are_not_text() -> None:
    """A reader sees 子ども and Mittelalter: the readings over the characters (``<rt>``) and
    the hyphenation hints inside words (U+00AD) are not the article's words."""
    story = _prose(3, "castle")
    ruby = ("<p><ruby>子<rt>こ</rt></ruby>どもへの<ruby>体罰<rp>(</rp><rt>たいばつ</rt>"
            "<rp>)</rp></ruby>を<ruby>禁<rt>きん</rt>止<rt>し</rt></ruby>する法律ができました。"
            "親が子どもを教育するために、たたいたり蹴ったりすることは禁止です。</p>")
    hyphenated = ("<p>Schon im Mit\u00adtel\u00adal\u00adter war der Wein das Aus\u00adhän"
                  "\u00adge\u00adschild der Stadt und ihrer Händler am Markt.</p>")
    html = _page(f"<article>{_article(story)}{ruby}{hyphenated}</article>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert "子どもへの体罰を禁止する法律ができました。" in text
    assert "こ" not in text.replace("ことは", "") and "たいばつ" not in text
    assert "Schon im Mittelalter war der Wein das Aushängeschild der Stadt" in text


def test_a_short_post_under_a_short_headline_is_an_article() -> None:
    """A short blog post whose headline is only a part of the title beside the blog's
    name ("Gefällt mir – jovelblog") is an article, not a page of other kind."""
    post = ["Manchmal überrascht einen der Alltag mit kleinen Freuden. Unlängst spazierte "
            "ich durch Eimsbüttel, da baumelte vom Balkon eine lange Schnur herunter:",
            "Gut investierte zwanzig Cent, wenn auch das Bild etwas unscharf geraten ist."]
    html = (f"<html><head><title>Gefällt mir – jovelblog</title></head><body>"
            f"<div id='header'><a href='/'>jovelblog</a></div><div class='post'>"
            f"<h1>Gefällt mir</h1>{''.join(f'<p>{p}</p>' for p in post)}</div></body></html>")
    out = structurer.extract_page(html, "http://blog.example/2011/09/11/gefallt-mir/", "news")
    assert out["kind"] == "detail"
    assert all(p in out["fields"]["content"] for p in post)


def test_a_paywall_prompt_is_left_out() -> None:
    story = _prose(4, "wages")
    wall = ("<div class='paywall-template'><h2>Möchten Sie weiterlesen?</h2><p>Ja, ich bin "
            "Abonnent und melde mich an, um den ganzen Artikel und alle weiteren zu lesen.</p>"
            "</div>")
    html = _page(f"<div class='page'><div class='article'>{_article(story)}</div>{wall}</div>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert all(p in text for p in story)
    assert "weiterlesen" not in text and "Abonnent" not in text


def test_short_lines_above_the_headline_are_left_out() -> None:
    """A site's standing notice and a kicker above the headline are not the article; a
    heading with a paragraph above it is no headline, and nothing above it is cut."""
    story = _prose(4, "browser")
    notice = "<p>For links on this page the site may earn a commission from the seller.</p>"
    html = _page(f"<div class='main'>{notice}<p>Browsers</p>{_article(story)}</div>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert all(p in text for p in story)
    assert "commission" not in text and "Browsers" not in text
    later = _page(f"<div class='main'><p>{story[0]}</p><p>Browsers</p>"
                  f"{_article(story[1:])}</div>")
    text = structurer.extract_page(later, URL, "news")["fields"]["content"]
    assert all(p in text for p in story) and "Browsers" in text


def test_blocks_after_the_article_that_are_not_paragraphs_are_left_out() -> None:
    """The article's container also holds, after its paragraphs, a contact card and a
    list of teasers to other stories: not the article; a section of paragraphs after
    the first is."""
    story = _prose(5, "levy")
    more = _prose(1, "appeal")
    contact = ("<div class='box'><h3>Press contact</h3><ul><li>Jane Roe</li><li>Tel.: +49 30 "
               "212 341</li><li>E-Mail: press@example.org</li><li>Example Association</li>"
               "<li>Street 1, 10115 Berlin</li><li>Press office hours</li></ul></div>")
    teasers = "".join(f"<li><a href='/2024/05/other-{i}.html'>Another story number {i} about "
                      f"the city</a></li>" for i in range(4))
    body = (f"<div class='wrap'><div class='text'>{_article(story)}</div>"
            f"<div class='more'>{''.join(f'<p>{p}</p>' for p in more)}</div>"
            f"{contact}<div class='next'><ul>{teasers}</ul></div></div>")
    text = structurer.extract_page(_page(body), URL, "news")["fields"]["content"]
    assert all(p in text for p in story + more)
    assert "Tel.:" not in text and "Press contact" not in text and "Another story" not in text


def test_the_pages_own_text_is_preferred_to_a_structured_body_telling_the_same_story() -> None:
    """``articleBody`` holds the story in one run of text with a photo caption a CMS left
    in it; the page's own text tells the same story in paragraphs, without the caption."""
    story = _prose(5, "tram")
    caption = "Photo: the new tram at the depot, courtesy of the city archive."
    data = {"@context": "https://schema.org", "@type": "NewsArticle",
            "headline": "The council approves the new harbour plan",
            "articleBody": " ".join([story[0], caption, *story[1:]])}
    head = f"<script type='application/ld+json'>{json.dumps(data)}</script>"
    html = _page(f"<article>{_article(story)}</article>").replace("</head>", head + "</head>")
    out = structurer.extract_page(html, URL, "news")
    text = out["fields"]["content"]
    assert text.splitlines()[-5:] == story and caption not in text
    assert out["sources"]["content"] == "density"


def test_a_long_consent_notice_without_a_class_word_is_left_out() -> None:
    story = _prose(4, "pier")
    notice = ("<div><p>Wir verwenden Cookies, um Inhalte und Anzeigen zu personalisieren, "
              "Funktionen für soziale Medien anbieten zu können und die Zugriffe auf unsere "
              "Website zu analysieren. Außerdem geben wir Informationen zu Ihrer Verwendung "
              "unserer Website an unsere Partner weiter.</p></div>")
    html = _page(f"<div class='x'>{notice}{_article(story)}</div>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert all(p in text for p in story) and "Cookies" not in text


def test_a_bold_paragraph_saying_about_the_author_ends_the_article() -> None:
    """No <h2>: the theme sets "About the author" as a bold paragraph, the bio follows."""
    story = _prose(4, "river")
    bio = ("<p><strong>About the author</strong></p><p>Hi! I am Chris, an angler and the "
           "author of this blog, and I write about fish, rivers and lakes every week.</p>")
    html = _page(f"<div class='post'>{_article(story)}{bio}</div>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert all(p in text for p in story)
    assert "About the author" not in text and "I am Chris" not in text


def test_caption_and_credit_lines_outside_a_figure_are_left_out() -> None:
    """A picture's caption set as a paragraph (no <figure>), ending in its credit; a
    longer caption of two sentences too, when the credit ends it; a figure's label
    ("Abbildung:") is a caption's."""
    story = _prose(4, "slope")
    caption = "<p>Marco Odermatt, ski star from Switzerland. © AFP / MARCO BERTORELLO</p>"
    credit = "<div><img src='a.jpg'><span>(Foto: Getty)</span></div>"
    long = ("<p>Target species of the chestnut groves are the woodland grayling (Hipparchia "
            "fagi) and the stag beetle (Lucanus cervus). Foto © Jörg Gemsch, Heidi Jost</p>")
    figure = "<p>Abbildung: colour-coded snow depth over the valley</p>"
    html = _page(f"<div class='post'>{_article(story[:2])}{caption}{credit}{long}{figure}"
                 f"{''.join(f'<p>{p}</p>' for p in story[2:])}</div>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert all(p in text for p in story)
    assert "BERTORELLO" not in text and "Getty" not in text
    assert "stag beetle" not in text and "snow depth" not in text


def test_gallery_controls_are_not_text() -> None:
    story = _prose(4, "phone")
    gallery = ("<div class='g'><img src='a.jpg'><div><button>Vergrößern</button> Eine kleine "
               "runde Aussparung für die Kamera im Display.</div><p>Bild anzeigen Bild schließen"
               "</p></div>")
    html = _page(f"<div class='post'>{_article(story[:2])}{gallery}"
                 f"{''.join(f'<p>{p}</p>' for p in story[2:])}</div>")
    text = structurer.extract_page(html, URL, "news")["fields"]["content"]
    assert all(p in text for p in story)
    assert "Vergrößern" not in text and "Bild anzeigen" not in text


def test_a_paywalled_storys_structured_body_is_led_by_the_standfirst_the_page_shows() -> None:
    """The page shows headline, standfirst (its meta description) and a paywall; the full
    story is only in ``articleBody``, without the standfirst: the standfirst leads it."""
    story = _prose(6, "quay")
    lead = "Snow on the quays slows the work, and the engineers warn against clearing it."
    data = {"@context": "https://schema.org", "@type": "NewsArticle",
            "headline": "The council approves the new harbour plan",
            "articleBody": " ".join(story)}
    head = (f"<meta name='description' content='{lead}'/>"
            f"<script type='application/ld+json'>{json.dumps(data)}</script>")
    body = (f"<article><header><h1>The council approves the new harbour plan</h1>"
            f"<p class='intro'>{lead}</p></header><p>{story[0]}</p><div class='paywall'>"
            "<p>Read on with Harbour+.</p></div></article>")
    out = structurer.extract_page(_page(body).replace("</head>", head + "</head>"), URL, "news")
    assert out["sources"]["content"] == "jsonld"
    assert out["fields"]["content"] == f"{lead}\n{' '.join(story)}"


def test_a_dateline_inside_the_first_sentence_stays() -> None:
    """"<span class='dateline'>KOBE –</span> A total of ...": a boilerplate class word on
    words the sentence goes on after is no boilerplate; a dateline line alone still is."""
    story = _prose(5, "quay")
    first = "A total of 6,000 masks have been lost at the harbour hospital, it was learned."
    body = (f"<article><h1>The council approves the new harbour plan</h1>"
            f"<div class='dateline'>Published Tuesday in the harbour section</div>"
            f"<p><span class='dateline'>KOBE – </span>{first}</p>"
            + "".join(f"<p>{p}</p>" for p in story) + "</article>")
    text = structurer.extract_page(_page(body), URL, "news")["fields"]["content"]
    assert f"KOBE – {first}" in text.splitlines()
    assert "Published Tuesday" not in text
