"""The site's own text around an article, in many languages (templates/news.yaml read by
page/boilerplate.py and page/articlelines.py): a block telling how to cite the article,
the comment thread's moderation notice, a donation appeal, a consent notice, the site's
"about us" blurb and a box of other stories are not the article; words of the article
that only begin like them stay."""

from __future__ import annotations

import structurer
from tests.page.test_article import URL, _page, _prose

TITLE = "The council approves the new harbour plan"


def _text(html: str) -> str:
    out = structurer.extract_page(html, URL, "news")
    assert out["kind"] == "detail"
    return str(out["fields"]["content"] or "")


def _story(paragraphs: list[str], after: str = "") -> str:
    return _page(f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs)
                 + after + "</article>")


def test_a_block_telling_how_to_cite_the_article_is_left_out() -> None:
    story = _prose(6, "harbour")
    for heading in ("Pour citer cet article", "How to cite this article", "Zitiervorschlag",
                    "Para citar este artículo"):
        cite = (f"<h3>{heading}</h3><h4>Référence électronique</h4><p>Jean Dupont, « Le "
                "port et la ville », Revue des ports [En ligne], 12 | 2019, mis en ligne le "
                "3 mai 2019, URL : http://journals.example/ports/123</p>")
        text = _text(_story(story, cite))
        assert text.splitlines()[1:] == story, heading
    bold = ("<p><b>Pour citer cet article</b></p><p>Jean Dupont, « Le port et la ville », "
            "Revue des ports, 12, 2019.</p>")
    assert _text(_story(story, bold)).splitlines()[1:] == story


def test_a_comment_moderation_notice_is_left_out() -> None:
    story = _prose(6, "harbour")
    for notice in ("Comments are moderated and will appear after approval.",
                   "Les commentaires sont modérés avant publication.",
                   "Ihre E-Mail-Adresse wird nicht veröffentlicht.",
                   "Los comentarios están moderados. Sé respetuoso."):
        text = _text(_story(story, f"<p>{notice}</p>"))
        assert text.splitlines()[1:] == story, notice


def test_a_donation_appeal_closing_the_article_is_left_out() -> None:
    story = _prose(6, "harbour")
    for appeal in ("Unterstützen Sie unsere kritische Berichterstattung mit einer Spende. "
                   "Per Paypal oder mit einer Überweisung.",
                   "If you value our reporting, please support our journalism today.",
                   "Soutenez-nous : faites un don à la rédaction."):
        assert _text(_story(story, f"<p>{appeal}</p>")).splitlines()[1:] == story, appeal


def test_consent_notices_in_other_languages_are_left_out() -> None:
    story = _prose(6, "harbour")
    for notice in ("Wij gebruiken cookies om onze website en uw ervaring te verbeteren, om "
                   "advertenties te tonen en om het verkeer te meten; lees meer in ons "
                   "privacybeleid en kies zelf welke cookies u toestaat.",
                   "Wir und unsere Partner verwenden Cookies und nicht sensible "
                   "Informationen, um Ihre Erfahrung zu personalisieren, die Zielgruppe zu "
                   "messen und Werbung auszuspielen.",
                   "Wir respektieren deine Privatsphäre und stellen deshalb ohne dein "
                   "Einverständnis keine Verbindung zu Twitter her."):
        html = _page(f"<div><p>{notice}</p></div><article><h1>{TITLE}</h1>"
                     + "".join(f"<p>{p}</p>" for p in story[:3]) + f"<p>{notice}</p>"
                     + "".join(f"<p>{p}</p>" for p in story[3:]) + "</article>")
        assert _text(html).splitlines()[1:] == story, notice


def test_the_sites_about_us_box_is_left_out_but_a_heading_beginning_alike_stays() -> None:
    story = _prose(6, "harbour")
    about = ("<div class='box'><h3>Über uns</h3><p>Das Hafenblatt berichtet seit 1998 "
             "unabhängig, kritisch und werbefrei über alles, was am Hafen geschieht.</p></div>")
    assert _text(_story(story, about)).splitlines()[1:] == story
    more = _prose(3, "usage")
    section = "<h2>About using the new quay</h2>" + "".join(f"<p>{p}</p>" for p in more)
    assert _text(_story(story, section)).splitlines()[1:] == [*story, "About using the new "
                                                              "quay", *more]


def test_a_box_of_other_stories_under_a_read_also_heading_is_left_out() -> None:
    story = _prose(6, "harbour")
    for heading in ("Te puede interesar", "Czytaj także", "Leia mais", "Read also"):
        box = (f"<div><h3>{heading}</h3><p>The mayor opens the new ferry line to the "
               "islands after two years of building work on the pier.</p><p>Fishermen "
               "protest against the new quotas set for the coming winter season.</p></div>")
        assert _text(_story(story, box)).splitlines()[1:] == story, heading


def test_a_consent_notice_opening_in_bold_is_left_out() -> None:
    story = _prose(6, "harbour")
    notice = ("<p><strong>We use cookies</strong> to give you the best experience on our "
              "website, to measure our audience and to show you personalised advertising; "
              "by clicking accept you agree to this, and you can change your mind at any "
              "time in the settings of your browser or on our privacy page.</p>")
    html = _page(f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story[:3])
                 + notice + "".join(f"<p>{p}</p>" for p in story[3:]) + "</article>")
    assert _text(html).splitlines()[1:] == story


def test_a_suggested_citation_closing_the_article_is_left_out() -> None:
    story = _prose(6, "harbour")
    cite = ("<p>SUGGESTED CITATION Dupont, Jean: The harbour plan, Harbour Blog, 2020/4/09, "
            "https://blog.example/harbour-plan/.</p>")
    assert _text(_story(story, cite)).splitlines()[1:] == story


def test_blocks_named_for_the_next_story_a_privacy_notice_or_a_rating_widget_go() -> None:
    """Class words of the site's other stories (next-story, recirculation, outbrain), of a
    privacy notice held over an embed, of a post-ratings widget."""
    story = _prose(6, "harbour")
    for name, inner in (("nextstory", "<h2>The mayor opens the new ferry line to the "
                         "islands after two years of building work</h2>"),
                        ("privacy-embed-preview", "<p>Loading this post connects you to "
                         "a social network, which may then store data about your visit.</p>"),
                        ("recirc-module", "<p>Fishermen protest against the new quotas set "
                         "for the coming winter season on the coast.</p>"),
                        ("post-ratings", "<span>(No ratings yet)</span>")):
        html = _page(f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story[:3])
                     + f"<div class='{name}'>{inner}</div>"
                     + "".join(f"<p>{p}</p>" for p in story[3:]) + "</article>")
        assert _text(html).splitlines()[1:] == story, name



def test_a_licence_notice_after_the_article_is_left_out() -> None:
    story = _prose(6, "harbour")
    tail = ("<p>Dieser Text wurde veröffentlicht unter der Lizenz CC-BY-NC-ND-4.0-DE. Die "
            "Fotos dürfen nicht verwendet werden.</p>")
    assert _text(_story(story, tail)).splitlines()[1:] == story


def test_a_side_columns_own_headline_after_the_article_is_left_out() -> None:
    """A side column opened by an ``<h1>`` of its own after the article is another page's
    headline and its text; a theme setting three sections as ``<h1>`` keeps them all."""
    story = _prose(6, "harbour")
    side = ("<div class='col'><h1>Weather in the city today</h1><p>Sunny spells and a "
            "light breeze from the west in the afternoon.</p></div>")
    html = _page(f"<div class='wrap'><div class='main'><h1>{TITLE}</h1>"
                 + "".join(f"<p>{p}</p>" for p in story) + f"</div>{side}</div>")
    assert _text(html).splitlines() == [TITLE, *story]
    sections = "".join(f"<div><h1>Part {n}</h1>" + "".join(f"<p>{p}</p>" for p in
                                                           _prose(3, f"part{n}")) + "</div>"
                       for n in (2, 3))
    html = _page(f"<div class='wrap'><div class='main'><h1>{TITLE}</h1>"
                 + "".join(f"<p>{p}</p>" for p in story) + f"</div>{sections}</div>")
    text = _text(html)
    assert "Part 3" in text and all(p in text for p in _prose(3, "part2"))


def test_a_box_of_other_stories_between_the_paragraphs_ends_only_itself() -> None:
    """A "read also" heading and its list of links set between the article's paragraphs
    are left out; the article's paragraphs after the box are read (a box closing the
    article still ends it)."""
    story = _prose(6, "harbour")
    box = ("<h3>Read also</h3><ul>" + "".join(
        f"<li><a href='/news/{i}'>Another story about the town number {i}</a></li>"
        for i in range(4)) + "</ul>")
    html = _page(f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story[:3])
                 + box + "".join(f"<p>{p}</p>" for p in story[3:]) + "</article>")
    assert _text(html).splitlines()[1:] == story
    assert _text(_story(story, box)).splitlines()[1:] == story
