"""An article's whole main text without boilerplate (page/article.py), through extract_page.

Each page is small hand-written HTML showing one cue: the text must hold every part of
the article (sections, lists, quotes, subheadings) and none of the consent banner,
comments, site blurbs, teasers or newsletter box beside it; and the page must be
classed an article whatever its language and however long its comment or teaser list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import structurer
from structurer.cli import main

URL = "https://news.example/2024/05/story.html"


def _prose(n: int, topic: str, words: int = 14) -> list[str]:
    """``n`` distinct sentences of article prose about ``topic``."""
    return [f"{topic} paragraph {i} tells " + " ".join(f"{topic}{i}w{j}," for j in range(words))
            + " and ends here." for i in range(n)]


def _page(body: str, title: str = "The council approves the new harbour plan") -> str:
    return (f"<html><head><title>{title} | Example News</title></head><body>"
            f"<header><a href='/'>Example News</a></header>{body}"
            "<footer><p>Imprint</p></footer></body></html>")


def _extract(html: str, url: str = URL) -> dict[str, Any]:
    return structurer.extract_page(html, url, "news")


def _article(paragraphs: list[str], title: str = "The council approves the new harbour plan"
             ) -> str:
    return f"<h1>{title}</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs)


def test_a_cookie_consent_banner_is_left_out() -> None:
    story = _prose(3, "harbour", 8)
    banner = ("<div class='cmp-consent-layer'><p>We use cookies and similar technologies to "
              "give you the best experience, to measure our audience and to show you "
              "personalised advertising, as described in our privacy policy, which you can "
              "read at any time; by clicking accept, you agree that we and our 143 partners "
              "store, and read, information on your device, as listed in the settings below, "
              "for the purposes of analytics, personalisation and advertising, including "
              "precise geolocation data.</p><button>Accept</button></div>")
    out = _extract(_page(f"<div class='story'>{_article(story)}{banner}</div>"))
    assert out["kind"] == "detail"
    text = out["fields"]["content"]
    assert all(p in text for p in story)
    assert "cookies" not in text and "143 partners" not in text


def test_comments_are_left_out_and_do_not_make_a_list() -> None:
    story = _prose(3, "budget")
    comments = "".join(
        f"<li class='comment'><div class='vcard'><a href='/u/{i}'>reader{i}</a></div>"
        f"<div class='comment-content'><p>{p}</p></div><a href='#reply-{i}'>Reply</a></li>"
        for i, p in enumerate(_prose(40, "opinion", 20)))
    body = (f"<div class='post'>{_article(story)}<h3>Leave a Reply</h3><p>Your email address "
            "will not be published, and comments are moderated, so they may take a while to "
            "appear.</p></div><div class='discussion'><h3>40 thoughts on this story</h3>"
            f"<ol class='commentlist'>{comments}</ol></div>")
    out = _extract(_page(body))
    assert out["kind"] == "detail"
    text = out["fields"]["content"]
    assert all(p in text for p in story)
    assert "opinion" not in text and "moderated" not in text


def test_site_blurbs_author_bio_and_donation_appeal_are_left_out() -> None:
    story = _prose(4, "river")
    about = ("<div class='widget about-us'><h4>About us</h4><p>Example News is an independent "
             "newsroom, founded in 1998, that reports on the city, its people and its politics "
             "every single day, without a paywall.</p></div>")
    bio = ("<div class='author-bio'><p>Jane Roe has covered the environment for Example News "
           "since 2012, before which she worked, for many years, at a regional paper.</p></div>")
    donate = ("<div class='donation-appeal'><p>Journalism like this costs money. If you value "
              "our reporting, please support us, with a donation, from as little as 1 euro a "
              "month.</p></div>")
    newsletter = ("<div class='newsletter-box'><p>Get the morning briefing, every weekday, in "
                  "your inbox, with the stories that matter to you.</p></div>")
    body = (f"<main><article>{_article(story, 'The river is cleaner than ever')}{bio}{donate}"
            f"</article>{newsletter}</main><div class='sidebar'>{about}</div>")
    out = _extract(_page(body, "The river is cleaner than ever"))
    text = out["fields"]["content"]
    assert all(p in text for p in story)
    for leaked in ("independent newsroom", "Jane Roe has covered", "donation", "briefing"):
        assert leaked not in text


def test_every_section_list_quote_and_subheading_of_the_article() -> None:
    """A long lead and shorter sections, each in its own wrapper: the lead is densest,
    the article is all of them."""
    intro = _prose(2, "intro", 30)
    first, second, third = (_prose(2, t, 8) for t in ("costs", "voices", "next"))
    items = ["Two new piers for ferries, built of timber", "A cycle path along the quay"]
    quote = "We waited twenty years for this, and now it is finally happening, said the mayor."

    def section(heading: str, paragraphs: list[str], extra: str = "") -> str:
        return (f"<div class='module'><div class='module-inner'><h2>{heading}</h2>{extra}"
                + "".join(f"<p>{p}</p>" for p in paragraphs) + "</div></div>")

    body = ("<div class='article'><h1>The council approves the new harbour plan</h1>"
            "<div class='lead'>" + "".join(f"<p>{p}</p>" for p in intro) + "</div>"
            + section("What it costs", first,
                      "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
            + section("What people say", second, f"<blockquote>{quote}</blockquote>")
            + section("What comes next", third) + "</div>")
    out = _extract(_page(body))
    assert out["kind"] == "detail"
    text = out["fields"]["content"]
    for part in [*intro, *first, *second, *third, *items, quote, "What it costs",
                 "What people say", "What comes next"]:
        assert part in text


def test_an_article_made_of_lists_is_read_whole() -> None:
    """A recipe: the densest element is one step of its list, the article is all of it."""
    steps = ["Put the flour, the sugar and the butter into a bowl and knead them to a dough.",
             "Roll the dough out on a floured table and cut out any shapes you like.",
             "Heat the oven to 200 degrees and line a baking tray with paper.",
             "Bake the biscuits for fifteen minutes, until they are golden."]
    body = ("<div class='post'><h1>Almond biscuits for the holidays</h1><div class='entry'>"
            "<p><strong>Time:</strong> 25 minutes (+ 15 minutes baking)</p>"
            "<p><strong>Ingredients:</strong><br>300 g flour<br>200 g sugar<br>200 g butter</p>"
            "<ol>" + "".join(f"<li>{s}</li>" for s in steps) + "</ol></div></div>")
    text = _extract(_page(body, "Almond biscuits for the holidays"))["fields"]["content"]
    assert "(+ 15 minutes baking)" in text and "200 g sugar" in text
    assert all(s in text for s in steps)


def test_teasers_of_other_stories_are_left_out() -> None:
    story = _prose(4, "tram")
    teaser = ("<div class='teaser'><h3><a href='/2024/04/bus.html'>Bus fares rise again</a>"
              "</h3><p>The city's buses will cost more from July, the third rise in two years, "
              "while the trams stay at the old price for now.</p></div>")
    body = (f"<div class='story'><h1>The tram line opens in June</h1><p>{story[0]}</p>"
            f"<p>{story[1]}</p>{teaser}<p>{story[2]}</p><p>{story[3]}</p><p>Also read: "
            "<a href='/2024/04/tram.html'>How the tram line was planned over ten years</a></p>"
            "</div>")
    out = _extract(_page(body, "The tram line opens in June"))
    text = out["fields"]["content"]
    assert all(p in text for p in story)
    assert "Bus fares" not in text and "buses will cost more" not in text
    assert "Also read" not in text


def test_a_short_article_in_any_language_is_an_article() -> None:
    polish = ("Rada miasta zatwierdziła w czwartek nowy plan portu, który przewiduje dwa nowe "
              "pomosty dla promów, ścieżkę rowerową wzdłuż nabrzeża i mniej miejsc parkingowych "
              "w pobliżu rynku. Prace mają się rozpocząć jesienią.")
    related = "".join(f"<li><a href='/2024/05/inny-{i}.html'>Inny artykuł o mieście numer {i} "
                      f"z długim tytułem</a></li>" for i in range(15))
    body = (f"<div class='tresc'><h1>Rada zatwierdza nowy plan portu</h1><p>{polish}</p></div>"
            f"<div class='zobacz'><ul>{related}</ul></div>")
    out = _extract(_page(body, "Rada zatwierdza nowy plan portu"))
    assert out["kind"] == "detail"
    assert polish in out["fields"]["content"]
    assert "Inny artykuł" not in out["fields"]["content"]


def test_text_a_site_repeats_on_its_articles_is_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Several articles of one site given together: a box their site puts under every
    article, with no class word to give it away, is the site's text, not the article's."""
    briefing = ("Get the morning briefing: our editors' pick of the day's most important "
                "stories, in your inbox before seven, every weekday.")
    stories = {"tram.html": ("The tram line opens in June", _prose(4, "tram")),
               "river.html": ("The river is cleaner than ever", _prose(4, "river")),
               "budget.html": ("The budget passes after a long night", _prose(4, "budget"))}
    for name, (title, story) in stories.items():
        (tmp_path / name).write_text(_page(
            f"<div class='b1'>{_article(story, title)}<div class='b2'><p>{briefing}</p></div>"
            "</div>", title), encoding="utf-8")
    files = [str(tmp_path / name) for name in stories]
    assert main(["extract-page", files[0], "--template", "news"]) == 0
    assert briefing in json.loads(capsys.readouterr().out)["fields"]["content"]
    assert main(["extract-page", *files, "--template", "news",
                 "--base-url", "https://news.example/2024/"]) == 0
    outs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["url"] for o in outs] == [f"https://news.example/2024/{n}" for n in stories]
    for out, (_, story) in zip(outs, stories.values(), strict=True):
        text = out["fields"]["content"]
        assert all(p in text for p in story) and briefing not in text


def test_date_lines_and_picture_captions_are_left_out() -> None:
    story = _prose(4, "ferry")
    body = ("<div class='x1'><h1>The ferry returns after ten years</h1><div class='x2'>"
            "<span>Dienstag, 4. Juni 2019</span> | <span>05:28 Uhr</span></div>"
            f"<p>{story[0]}</p><figure><img src='ferry.jpg'><figcaption>The new ferry at the "
            "quay. Photo: Jane Roe/Agency</figcaption></figure>"
            + "".join(f"<p>{p}</p>" for p in story[1:]) + "</div>")
    text = _extract(_page(body, "The ferry returns after ten years"))["fields"]["content"]
    assert all(p in text for p in story)
    assert "Juni 2019" not in text and "05:28" not in text and "Jane Roe" not in text


def test_a_wrapper_named_like_boilerplate_keeps_its_article() -> None:
    """Themes name the article's own wrappers "share", "widget" or "sidebar-and-content":
    a block holding most of the page's paragraphs is not boilerplate, a dialog is."""
    story = _prose(5, "school")
    body = ("<div role='dialog' style='display:none'><p>Sign in to read this article and "
            "many more, and get our offers, news and updates about events.</p></div>"
            "<div class='sidebar-and-content-body'><div class='subscribe-sidebar'>Subscribe"
            "</div><h1>The new school opens its doors</h1><div class='entry themeform share'>"
            + "".join(f"<p>{p}</p>" for p in story) + "</div></div>"
            "<div class='sidebar'><p>Example News is an independent newsroom, founded in 1998, "
            "that reports on the city every day.</p></div>")
    out = _extract(_page(body, "The new school opens its doors"))
    assert out["kind"] == "detail"
    text = out["fields"]["content"]
    assert all(p in text for p in story)
    assert "Sign in" not in text and "independent newsroom" not in text
