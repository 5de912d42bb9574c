"""Which lines of an article's container are its text (page/articlelines.py): a heading
over nothing the filter kept, a sign-off as the last line, a CJK sentence closed by a
full-width bracket, a notice asking for JavaScript, a teaser ending in "read more"; and a
video's page is one item's page (page/view.py)."""

from __future__ import annotations

import structurer
from tests.page.test_article import URL, _page, _prose

TITLE = "The council approves the new harbour plan"


def _text(html: str) -> str:
    out = structurer.extract_page(html, URL, "news")
    assert out["kind"] == "detail"
    return str(out["fields"]["content"] or "")


def _story(inner: str) -> str:
    return _page(f"<article><h1>{TITLE}</h1>{inner}</article>")


def test_a_heading_over_links_left_out_goes_with_them() -> None:
    """"Elsewhere on the site" over a list of links inside the article: the links are left out
    as link lines, and the heading heads nothing of the text — it goes too, though more
    of the article follows it."""
    first, rest = _prose(3, "harbour"), _prose(3, "ferry")
    links = "".join(f"<li><a href='/s/{i}'>Other story number {i} about the port</a></li>"
                    for i in range(4))
    text = _text(_story("".join(f"<p>{p}</p>" for p in first)
                        + f"<h3>Elsewhere on the site</h3><ul>{links}</ul><h3>The ferry</h3>"
                        + "".join(f"<p>{p}</p>" for p in rest)))
    assert "Elsewhere on the site" not in text
    assert "The ferry" in text.splitlines()
    assert all(p in text for p in first + rest)


def test_a_heading_over_subheadings_a_listicle_and_a_long_heading_stay() -> None:
    """A heading whose subsections have text stays; so do a listicle's numbered headings
    over their pictures, and a paragraph a theme set as a heading."""
    lead = ("Long ago the council wrote this whole paragraph as a heading of the page, "
            "and it is a paragraph of the article all the same.")
    items = "".join(f"<h2>{n}. Harbour view number {n}</h2><img src='/{n}.jpg'/>"
                    for n in range(1, 5))
    body = ("".join(f"<p>{p}</p>" for p in _prose(2, "intro"))
            + f"<h3>{lead}</h3><h2>Part one</h2><h3>The quay</h3>"
            + "".join(f"<p>{p}</p>" for p in _prose(2, "quay")) + items
            + "".join(f"<p>{p}</p>" for p in _prose(2, "close")))
    lines = _text(_story(body)).splitlines()
    assert lead in lines and "Part one" in lines and "The quay" in lines
    assert all(f"{n}. Harbour view number {n}" in lines for n in range(1, 5))


def test_a_sign_off_ends_the_article() -> None:
    """A short last line that ends no sentence is a box's label, unless it signs the text
    off ("Euer Hans"); the label after it still goes."""
    story = _prose(4, "harbour")
    html = _story("".join(f"<p>{p}</p>" for p in story)
                  + "<p>Euer Hans</p><div><span>Infos zum Reiseziel</span></div>")
    lines = _text(html).splitlines()
    assert lines[-1] == "Euer Hans"
    plain = _story("".join(f"<p>{p}</p>" for p in story) + "<p>Hans Meier</p>")
    assert _text(plain).splitlines()[-1] == story[-1]


def test_a_cjk_last_sentence_closed_by_a_full_width_bracket_stays() -> None:
    """"……城！（评论员 罗博）": the sentence ends at the full-width bracket; a short line
    of Chinese carries a whole sentence."""
    story = [f"武汉的第{i}段文字，记录了这座城市的故事，人们在封闭中坚持，希望就在继续努力之中。" * 3
             for i in range(4)]
    last = "正是有了英勇的你们，才有这座英雄的城！（评论员 罗博）"
    text = _text(_story("".join(f"<p>{p}</p>" for p in [*story, last])))
    assert text.splitlines()[-1] == last


def test_a_notice_asking_for_javascript_or_reserving_rights_is_left_out() -> None:
    story = _prose(4, "harbour")
    rights = "DER HAFENBOTE 52/2018 Alle Rechte vorbehalten Vervielfältigung nur mit Genehmigung"
    notice = ("Sorry, but your browser needs Javascript to use this site. If you're not "
              "sure how to activate it, please refer to this site: "
              "https://www.enable-javascript.com/")
    html = _page(f"<div class='main'><div class='no_js_message'><span>{notice}</span></div>"
                 f"<h1>{TITLE}</h1>" + "".join(f"<p>{p}</p>" for p in story)
                 + f"<p>{rights}</p><p>{story[0]} Again.</p></div>")
    text = _text(html)
    assert notice not in text and rights not in text
    assert all(p in text for p in story)


def test_a_teaser_ending_in_a_read_more_link_is_left_out() -> None:
    """A paragraph ending in a "Weiterlesen" link is another page's teaser; sentences of
    the article saying "read more", with no link or ending in the words outside their
    link, stay."""
    story = _prose(5, "harbour")
    story[1] = "The rules are on the council's page, where every resident can read more."
    story[2] = "The council wants every resident to read more about the plan before they vote."
    teaser = ("Sommerzeit ist Urlaubszeit, das lässt sich die Fähre nicht zweimal sagen. "
              "Seht selbst!")
    html = "".join(f"<p>{p}</p>" for p in story).replace(
        "the council's page", "<a href='/rules'>the council's page</a>")
    text = _text(_story(html + f"<div><p>{teaser} <strong><a href='/other'>Weiterlesen</a>"
                        "</strong> »</p></div>"))
    assert text.splitlines()[1:] == story


def test_a_video_page_beside_a_list_of_the_shows_videos_is_one_item() -> None:
    """og:type video.*: the page of one video, its description the text, though the
    show's other videos make a long list of links beside it."""
    description = ("Dubious traders promise help with insomnia, joint pain and high "
                   "cholesterol or even cancer. The programme shows how gaps in the law let "
                   "them sell dangerous supplements without any control by the authorities.")
    others = "".join(
        f"<li><a href='/video/{i}'><h3>Episode {i}: the harbour and its ferries, part {i}"
        f"</h3><p>Episode {i} of the show about the port</p></a></li>" for i in range(12))
    html = ("<html><head><title>The dubious trade | Video</title>"
            "<meta property='og:type' content='video.other'/></head><body>"
            "<div class='player'><h3>The dubious trade with hope</h3>"
            f"<p class='teasertext'>{description}</p></div><h2>More from the show</h2>"
            f"<ul class='teasers'>{others}</ul></body></html>")
    out = structurer.extract_page(html, "https://tv.example/video/9", "news")
    assert out["kind"] == "detail"
    assert description in str(out["fields"]["content"])


def test_a_related_articles_label_among_the_last_lines_cuts_what_follows() -> None:
    """"Verwandte Artikel:" as a line of its own near the end (no heading element, so no
    block to drop): it and the teasers after it are not the article."""
    story = _prose(5, "harbour")
    teasers = ["Haben sich die Eltern je wegen der Schulnoten ihres Sohnes gesorgt?",
               "Die neue Brücke über den Fluss wird im Frühjahr eröffnet, sagt die Stadt."]
    html = _story("".join(f"<p>{p}</p>" for p in story) + "<p>Verwandte Artikel:</p>"
                  + "".join(f"<p>{t}</p>" for t in teasers))
    text = _text(html)
    assert text.splitlines()[-1] == story[-1]


def test_a_bar_of_fields_between_pipes_is_no_text() -> None:
    """A post's meta line and a footer's links are fields between " | "; a line of the
    text that lists long items between pipes stays."""
    story = _prose(4, "harbour")
    meta = "January 13, 2020 at 08:45 AM | categories: Harbour, Council | View Comments"
    footer = "IMPRESSUM | DATENSCHUTZ | COPYRIGHT HARBOUR NEWS | THIS IS A PORT PROJECT"
    prices = ("Day ticket for adults: from 32,90 € with the sauna | Babies up to one year: "
              "3,80 € each | Small children up to four years: 9,50 € each")
    text = _text(_story(f"<p>{meta}</p>" + "".join(f"<p>{p}</p>" for p in story)
                        + f"<p>{prices}</p><p>{story[0]} Again.</p><p>{footer}</p>"))
    assert meta not in text and footer not in text
    assert prices in text and all(p in text for p in story)


def test_a_ranking_of_stories_is_left_out_numbered_steps_stay() -> None:
    """"Most read" as 1, 2, 3 ... each beside a headline (no links the filter could see):
    the site's ranking, not the text; numbered steps of sentences stay."""
    story = _prose(4, "harbour")
    heads = ["Ferry strike: what travellers need to know now",
             "The new bridge opens in spring, says the mayor",
             "Cats and their owners: a harbour love story",
             "Five walks along the old docks for the weekend"]
    ranking = "".join(f"<div class='rank'><span>{n}</span><div>{h}</div></div>"
                      for n, h in enumerate(heads, 1))
    steps = _prose(3, "step")
    numbered = "".join(f"<div><span>{n}</span><p>{p}</p></div>"
                       for n, p in enumerate(steps, 1))
    text = _text(_story("".join(f"<p>{p}</p>" for p in story) + numbered
                        + f"<div class='box'>{ranking}</div>"))
    assert not any(h in text for h in heads)
    assert all(p in text for p in story + steps) and "1" in text.splitlines()


def test_an_events_labelled_date_stays_a_posts_date_line_goes() -> None:
    """"Termin: 29.02.2020, 19 Uhr" is when the event the text announces takes place: it
    stays; a bare date line and "Posted: May 3, 2021" are the post's byline and go. A
    price with a thousands point ("Neupreis: 20.000 Euro") is no clock: it stays too."""
    story = _prose(3, "tasting")
    html = _story("<p>Posted: May 3, 2021</p><p>Dienstag, 4. Juni 2019</p>"
                  + "".join(f"<p>{p}</p>" for p in story)
                  + "<p>Termin: 29.02.2020, 19 Uhr</p><p>Neupreis: 20.000 Euro</p>"
                  + f"<p>{_prose(1, 'menu')[0]}</p>")
    lines = _text(html).splitlines()
    assert "Termin: 29.02.2020, 19 Uhr" in lines
    assert "Neupreis: 20.000 Euro" in lines
    assert "Posted: May 3, 2021" not in lines and "Dienstag, 4. Juni 2019" not in lines
    assert all(p in lines for p in story)


def test_a_closing_list_of_other_stories_goes_with_its_excerpts() -> None:
    """"More stories" after the article: linked headlines, each over a one-line excerpt.
    The excerpts are no link lines, but they go with their headlines; a listicle whose
    linked headings head its text keeps it."""
    story = _prose(5, "harbour")
    teasers = "".join(f"<a href='/s/{n}'><h2>Other story {n}</h2></a>"
                      f"<div>Excerpt of the other story number {n} on the site.</div>"
                      for n in range(4))
    text = _text(_story("".join(f"<p>{p}</p>" for p in story) + teasers))
    assert all(p in text for p in story)
    assert "Excerpt of the other story" not in text
    items = "".join(f"<h2><a href='/tool/{n}'>Tool {n}</a></h2><p>{p}</p>"
                    for n, p in enumerate(_prose(4, "tool")))
    listicle = _text(_story(f"<p>{_prose(1, 'intro')[0]}</p>{items}"))
    assert all(p in listicle for p in _prose(4, "tool"))
