"""What an article's text takes in at its ends (page/article.py, page/boilerplate.py,
generic/extract.py): a recipe's ingredients beside its steps, a promotion closing the
text, a page whose article is one paragraph of sentences."""

from __future__ import annotations

import structurer
from tests.page.test_article import URL, _article, _page, _prose

TITLE = "The council approves the new harbour plan"
INGREDIENTS = ["250 g Mehl", "125 g Butter", "1 Ei", "100 g Zucker", "1 Prise Salz",
               "500 g Schmand", "2 Dosen Mandarinen", "1 Päckchen Puddingpulver",
               "500 ml Milch", "2 EL Zucker", "1 Päckchen Tortenguss", "250 ml Saft",
               "1 TL Backpulver", "1 Päckchen Vanillezucker", "50 g Mandeln",
               "2 EL Kakao", "1 Zitrone", "3 Eier", "200 g Quark", "etwas Fett"]


def _text(html: str) -> str:
    out = structurer.extract_page(html, URL, "news")
    assert out["kind"] == "detail"
    return str(out["fields"]["content"] or "")


def test_a_recipes_ingredients_beside_its_steps_are_its_text() -> None:
    """The ingredient list is short items, no paragraphs, and holds the form that scales
    the servings: neither makes it boilerplate beside the steps."""
    steps = _prose(4, "cake")
    items = "".join(f"<li>{i}</li>" for i in INGREDIENTS)
    body = (f"<main><h1>{TITLE}</h1><article class='recipe-ingredients'><h2>Zutaten</h2>"
            f"<form class='servings'><input name='portionen' value='4'/></form><ul>{items}"
            "</ul></article><article class='recipe-steps'>"
            + "".join(f"<p>{p}</p>" for p in steps) + "</article></main>")
    text = _text(_page(body))
    assert all(p in text for p in steps)
    assert all(i in text.splitlines() for i in INGREDIENTS)


def test_a_form_box_around_a_search_is_still_left_out() -> None:
    story = _prose(5, "harbour")
    body = (f"<div class='page'><div><form><input name='q'/><button>Suchen</button></form>"
            f"<p>Search the archive</p></div><article><h1>{TITLE}</h1>"
            + "".join(f"<p>{p}</p>" for p in story) + "</article></div>")
    text = _text(_page(body))
    assert all(p in text for p in story)
    assert "Search the archive" not in text


def test_a_promotion_closing_the_article_and_what_follows_it_are_left_out() -> None:
    story = _prose(6, "harbour")
    tail = ["To view the full story, please subscribe to The Harbour Times.",
            "When you join us, you get unlimited access to our journalism for 20 years.",
            "If you are already a subscriber, you can log in for immediate access."]
    body = (f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story + tail)
            + "</article>")
    text = _text(_page(body))
    assert text.splitlines()[-1] == story[-1]


def test_an_article_about_a_newsletter_keeps_its_lines_above_the_end() -> None:
    """A promotion phrase far above the last lines is the article's own subject."""
    story = _prose(9, "harbour")
    story[1] = "The council will send its newsletter about the harbour plan to every home."
    body = f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story) + "</article>"
    text = _text(_page(body))
    assert all(p in text for p in story)


def test_one_paragraph_of_sentences_is_an_article() -> None:
    """A review page: one paragraph of several sentences, under a heading the page's
    title does not repeat, is an article though it is one line."""
    review = ("I cannot thank the harbour ferry enough. What a fantastic idea it was! "
              "I have always struggled to reach the island on time for work and school. "
              "Now the crossing takes ten minutes, the boats are clean and the crew are "
              "friendly, and I no longer wait for hours in the rain for a late bus. I am "
              "telling everyone about it, thanks so much to the council and the crew of "
              "the ferry! We will take it again next summer with the whole family.")
    body = (f"<div class='review'><div><a href='/users/1'>Ann</a></div><h2><a href='/r/1'>"
            f"The ferry changed my life</a></h2><p>{review}</p></div>")
    assert review in _text(_page(body, "Harbour Ferry Reviews | Read Customer Reviews"))


def test_an_authors_bio_under_a_bare_label_after_the_article_is_left_out() -> None:
    story = _prose(6, "harbour")
    bio = ["AUTOR", "Dr. Thomas Beispiel",
           "ist Gründungspartner der Kanzlei Beispiel und Partner in Berlin. Zu seinen "
           "Tätigkeitsfeldern zählen insbesondere Bankrecht und Verbraucherschutz."]
    body = (f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story + bio)
            + "</article>")
    assert _text(_page(body)).splitlines()[-1] == story[-1]


def test_a_promotion_phrase_inside_a_word_or_a_medium_named_is_no_promotion() -> None:
    """"our app" is not in "your application"; an article may be about WhatsApp."""
    story = _prose(6, "harbour")
    story[-2] = "To get fast, reproducible builds for your application:"
    story[-1] = "Rumours spread on WhatsApp before the vote, the harbour council said."
    body = f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story) + "</article>"
    assert _text(_page(body)).splitlines()[-2:] == story[-2:]


def test_a_newsletter_notice_inside_the_article_cuts_only_its_line() -> None:
    """A bracketed newsletter notice among the last paragraphs, the story going on after
    it: the notice goes, the paragraphs under it stay."""
    story = _prose(8, "harbour", 30)
    notice = ("[All the day's updates on the harbour plan are in our free newsletter "
              "'Questions of the day'. Sign up here.]")
    body = (f"<article><h1>{TITLE}</h1>"
            + "".join(f"<p>{p}</p>" for p in [*story[:5], notice, *story[5:]]) + "</article>")
    text = _text(_page(body))
    assert text.splitlines()[1:] == story


def test_a_sites_disclaimer_after_the_article_and_what_follows_it_are_left_out() -> None:
    """A disclaimer or an affiliate notice among the last lines is the site's, however long:
    it goes with the lines after it, and the label left above it ("Reader Interactions")
    heads nothing."""
    story = _prose(6, "harbour")
    tail = ["The Harbour Times does not offer medical advice, services, or treatments to its "
            "readers. If you are concerned about a medical issue we urge you to contact your "
            "doctor, who knows you and your history far better than any website can.",
            "The Harbour Times is a participant in the Amazon Services LLC Associates "
            "Program, an affiliate advertising program designed to provide a means for "
            "sites to earn advertising fees by advertising and linking to Amazon.com."]
    body = (f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story)
            + "<h2>Reader Interactions</h2>" + "".join(f"<p>{p}</p>" for p in tail)
            + "</article>")
    assert _text(_page(body)).splitlines()[1:] == story
    views = ("The views expressed in this column do not necessarily reflect those of the "
             "Harbour Times.")      # a blog's opinion disclaimer, its last line
    body = f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in [*story, views])
    assert _text(_page(body + "</article>")).splitlines()[1:] == story


def test_a_disclaimer_phrase_above_the_last_lines_is_the_articles_subject() -> None:
    story = _prose(9, "harbour")
    story[1] = "The ferry company put a disclaimer on every ticket sold at the harbour."
    body = f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story) + "</article>"
    assert _text(_page(body)).splitlines()[1:] == story


def test_a_permalink_line_after_the_article_is_left_out() -> None:
    story = _prose(6, "harbour")
    body = (f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story)
            + "<p>Permalink https://example.org/harbour/2024/p/RPYx</p></article>")
    assert _text(_page(body)).splitlines()[1:] == story


def test_a_side_column_beside_the_article_is_not_taken_in() -> None:
    """A grid holds the article's column and, after it, a side column: an offer in a
    paragraph under short unlinked labels, and its links. What it adds is not mostly
    paragraphs, and its loose words stand beside the text, not above it (no headline, no
    byline): the article's container stops at its own column."""
    story = _prose(6, "levy")
    offer = ("<div class='column-small'><div class='box'><p>Issue 52</p><p>Digital edition</p>"
             "<p>The digital world of news, with interactive graphics, videos and models: "
             "read the new issue before it is printed, from Friday six o'clock, on every "
             "device and offline too.</p><p>Subscription offers</p><p>Gift vouchers</p></div>"
             + "".join(f"<p><a href='/shop/{i}'>Order back issue number {i} of the year</a></p>"
                       for i in range(4)) + "</div>")
    body = (f"<div class='grid'><div class='column-wide'>{_article(story, TITLE)}</div>"
            f"{offer}</div>")
    text = _text(_page(body))
    assert all(p in text for p in story)
    assert "digital world" not in text and "Subscription offers" not in text


def test_a_closing_invitation_to_discover_more_and_its_blurb_are_left_out() -> None:
    """"Entdecke weitere Homestorys" closing the text opens a promotion of other pages:
    it and its blurb go."""
    story = _prose(6, "harbour")
    tail = ["Entdecke weitere Homestorys",
            "Wie wohnt die Community? Klicke dich durch die Homestorys der Mitglieder."]
    body = (f"<article><h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story + tail)
            + "</article>")
    assert _text(_page(body)).splitlines()[-1] == story[-1]


def test_a_reading_time_line_is_left_out_but_a_sentence_about_minutes_stays() -> None:
    """"11 minut czytania" under the headline is the page's meta line; a paragraph that
    opens with a number of minutes is the story's."""
    story = _prose(6, "harbour")
    story[2] = "15 minutes of reading the plan aloud opened the council's session."
    body = (f"<article><h1>{TITLE}</h1><p>11 minut czytania</p><div>4 Min Read</div>"
            + "".join(f"<p>{p}</p>" for p in story) + "</article>")
    text = _text(_page(body))
    assert all(p in text for p in story)
    assert "czytania" not in text and "Min Read" not in text
