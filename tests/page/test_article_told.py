"""An article's container checked against what the page itself says (page/article.py,
page/told.py, structured.py): the text structured data tells (a recipe's steps, an
``articleBody``) must be in it; a gallery's captions written in paragraphs are its text;
a ``<header>`` left unclosed around the posts of a thread does not hide them; and a
subheading's anchor id is no boilerplate word."""

from __future__ import annotations

import json

import structurer
from structurer.structured import told_texts
from tests.page.test_article import URL, _page, _prose


def _with_jsonld(html: str, data: dict[str, object]) -> str:
    return html.replace("</head>", "<script type='application/ld+json'>"
                        f"{json.dumps(data)}</script></head>")


def test_told_texts_reads_strings_and_nested_steps_of_the_first_object_telling_any() -> None:
    objects = [{"@type": "Organization", "name": "Example"},
               {"@type": "Recipe", "recipeInstructions": [
                   "Boil the milk.",
                   {"@type": "HowToStep", "text": "Stir in the oats."},
                   {"@type": "HowToSection", "itemListElement": [
                       {"@type": "HowToStep", "text": "Serve warm."}]}]},
               {"@type": "NewsArticle", "articleBody": "Another story."}]
    keys = ("articleBody", "recipeInstructions")
    assert told_texts(objects, keys) == ["Boil the milk.", "Stir in the oats.", "Serve warm."]
    assert told_texts(objects[:1], keys) == []


def test_a_recipes_steps_told_by_structured_data_join_the_tips_density_chose() -> None:
    """Density takes a box of health tips (long paragraphs); the steps the Recipe's
    ``recipeInstructions`` tells stand in another tab, with the ingredients: the
    article is the recipe around both, not the newsletter after it."""
    tips = _prose(3, "oats", 22)
    steps = ["Bring the oat drink, the oats, the vanilla and the cinnamon to the boil "
             "and let them simmer for two minutes.",
             "Toast the nuts in a dry pan, dice the apples and serve the porridge "
             "with the apples and the nuts on top.",
             "Sprinkle the porridge with a little more cinnamon and eat it while it is "
             "still warm, or keep it in the fridge for the next morning."]
    recipe = ("<div class='recipe'><h1>Vanilla porridge with apple</h1><div class='info'>"
              "<span>Difficulty: easy</span> <span>Time: 15 min</span> <span>Calories: 434 "
              "kcal</span> <span>Health score: 9.2 / 10</span> <a href='/r'>7 ratings</a> "
              "<a href='/print'>Print</a> <a href='/save'>Save</a></div>"
              "<div class='tips-tabs'><div class='tab'>"
              + "".join(f"<p>{p}</p>" for p in tips) + "</div></div>"
              "<div class='steps-tabs'><div class='ingredients'><ul>"
              + "".join(f"<li>{n} g <a href='/food/{i}'>{i} from the shop</a></li>"
                        for n, i in enumerate(("oat drink", "oats", "vanilla", "cinnamon",
                                               "hazelnuts", "apples", "linseed", "honey",
                                               "salt", "almonds", "raisins", "yoghurt",
                                               "butter", "sugar", "lemon", "mint", "pears",
                                               "plums", "cream", "cocoa"), 1))
              + "</ul></div><div class='nutrition'>"
              + "".join(f"<div><span>{name}</span> <span>{n} g</span></div>" for n, name in
                        enumerate(("Fat", "Protein", "Carbohydrates", "Sugar", "Fibre",
                                   "Salt", "Saturated fat", "Cholesterol", "Calcium",
                                   "Iron", "Magnesium", "Potassium"), 3))
              + "</div><div class='preparation'><h2>Steps</h2>"
              + "".join(f"<div class='step'><span>{n}.</span><div class='body'><div>"
                        f"<p>{s}</p></div></div></div>" for n, s in enumerate(steps, 1))
              + "</div></div></div>")
    news = "<div class='box'><p>" + _prose(1, "weekly", 30)[0] + "</p></div>"
    html = _page(f"<main>{recipe}</main>{news}", "Vanilla porridge with apple")
    data = {"@context": "https://schema.org", "@type": "Recipe",
            "name": "Vanilla porridge with apple", "recipeInstructions": steps}
    text = structurer.extract_page(_with_jsonld(html, data), URL, "news")["fields"]["content"]
    assert all(s in text for s in steps) and all(p in text for p in tips)
    assert "weekly" not in text


def test_a_gallerys_captions_in_paragraphs_are_its_text() -> None:
    """Each slide of a gallery is a picture with a caption of two paragraphs (what the
    caption's class calls a "slide-caption"): the captions are the article."""
    slides = [(f"Costume idea number {i} for a party", _prose(1, f"costume{i}", 18)[0])
              for i in range(6)]
    figures = "".join(
        f"<figure class='slide'><h2><a href='/g/{i}'>{i}. {title}</a></h2>"
        f"<img src='/p/{i}.jpg' alt=''><figcaption class='slide-caption'><p>{title}!</p>"
        f"<p><strong>What you need:</strong> {need}</p></figcaption></figure>"
        for i, (title, need) in enumerate(slides))
    intro = "<p>Dressing up need not cost much: these ideas are cheap and quick to make.</p>"
    body = f"<article><h1>Costumes to make at home</h1>{intro}<div>{figures}</div></article>"
    out = structurer.extract_page(_page(body, "Costumes to make at home"), URL, "news")
    text = out["fields"]["content"]
    assert all(need in text for _, need in slides)


def test_a_news_pictures_caption_stays_out_of_the_text() -> None:
    story = _prose(5, "ferry")
    figure = ("<figure><img src='/p.jpg' alt=''><figcaption><p>The new ferry at the pier, "
              "seen from the harbour office on Monday morning.</p></figcaption></figure>")
    body = f"<article><h1>The council approves the new harbour plan</h1>{figure}" + \
        "".join(f"<p>{p}</p>" for p in story) + "</article>"
    text = structurer.extract_page(_page(body), URL, "news")["fields"]["content"]
    assert all(p in text for p in story) and "harbour office" not in text


def test_posts_a_thread_left_inside_an_unclosed_header_are_read() -> None:
    """A forum's markup leaves each post's attribution header unclosed: the parser puts
    the next posts inside it. A header holding an article with paragraphs is no header."""
    posts = [_prose(2, f"post{i}", 16) for i in range(4)]

    def post(i: int, inner: str) -> str:
        return (f"<article class='message'><div class='message-inner'><header class="
                f"'message-attribution'><a href='/u/{i}'>user{i}</a><div class='opposite'>"
                f"<div class='content'>{''.join(f'<p>{p}</p>' for p in posts[i])}</div>"
                f"{inner}</div></header></div></article>")

    thread = ""
    for i in reversed(range(1, 4)):
        thread = post(i, thread)
    first = ("<article class='message'><div class='message-inner'><div class='content'>"
             + "".join(f"<p>{p}</p>" for p in posts[0]) + "</div></div></article>")
    body = f"<div class='thread'><h1>Patch notes 4.47</h1>{first}{thread}</div>"
    text = structurer.extract_page(_page(body, "Patch notes 4.47"), URL, "news")["fields"][
        "content"]
    assert all(p in text for ps in posts for p in ps)


def test_a_subheading_with_an_anchor_id_saying_nav_stays() -> None:
    """A subheading's id is the anchor of the page's table of contents ("nav_the_foil"):
    a heading's class and id words name its style or anchor, not boilerplate."""
    first, second = _prose(3, "lithium"), _prose(3, "foil")
    body = ("<article><h1>The council approves the new harbour plan</h1>"
            + "".join(f"<p>{p}</p>" for p in first)
            + "<h3 class='subheading' id='nav_only_the_foil_stays'>Only the foil stays</h3>"
            + "".join(f"<p>{p}</p>" for p in second) + "</article>")
    text = structurer.extract_page(_page(body), URL, "news")["fields"]["content"]
    assert "Only the foil stays" in text and all(p in text for p in first + second)
