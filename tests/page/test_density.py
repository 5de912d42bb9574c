"""Title, main content, publish time and author views (analyze.density, analyze.byline)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from structurer.clean import parse_html
from structurer.page import byline, dates, density, titles

NEWS = Path(__file__).resolve().parents[1] / "fixtures" / "news"
EXPECTED = json.loads((NEWS / "expected.json").read_text(encoding="utf-8"))


def token_f1(got: str, want: str) -> float:
    """Token-overlap F1: words (lowercased), and single characters for CJK text."""
    def tokens(text: str) -> list[str]:
        return re.findall(r"[\u3040-\u30ff\u3400-\u9fff]|[^\W_]+", text.lower())

    a, b = tokens(got), tokens(want)
    if not a or not b:
        return 0.0
    pool: dict[str, int] = {}
    for t in b:
        pool[t] = pool.get(t, 0) + 1
    common = 0
    for t in a:
        if pool.get(t, 0) > 0:
            common += 1
            pool[t] -= 1
    if not common:
        return 0.0
    precision, recall = common / len(a), common / len(b)
    return 2 * precision * recall / (precision + recall)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_news_fixtures(name: str) -> None:
    tree = parse_html((NEWS / name).read_bytes(), base_url=f"http://news.example/{name}")
    want = EXPECTED[name]
    title = titles.title_of(tree)
    assert title is not None and title.text == want["title"]
    found = density.main_content(tree)
    assert found is not None
    assert token_f1(found.text, want["content"]) >= 0.9
    assert "comment" not in found.text.lower() and "related" not in found.text.lower()
    published = byline.published_of(tree, found.element)
    assert published is not None and published.startswith(want["published"])
    assert byline.author_of(tree) == want["author"]


def test_main_content_leaves_the_input_tree_alone() -> None:
    tree = parse_html((NEWS / "article-1.html").read_bytes())
    before = len(list(tree.iter()))
    density.main_content(tree)
    assert len(list(tree.iter())) == before


def test_dense_paragraphs_beat_a_long_link_list() -> None:
    links = "".join(f'<li><a href="/s/{i}">A fairly long headline of another story number {i}'
                    f'</a></li>' for i in range(40))
    paragraphs = "".join(f"<p>Sentence {i} of the story, with a comma, and a full stop. It "
                         f"goes on for a while so that it reads like prose.</p>" for i in range(6))
    tree = parse_html(f"<html><body><div class='x'><ul>{links}</ul></div>"
                      f"<div id='story'>{paragraphs}</div></body></html>")
    found = density.main_content(tree)
    assert found is not None and found.element.get("id") == "story"
    assert found.text.count("\n") == 5 and found.score > 0


def test_empty_page_has_no_content() -> None:
    assert density.main_content(parse_html("")) is None
    assert titles.title_of(parse_html("")) is None


@pytest.mark.parametrize(("html", "text", "source"), [
    ('<meta name="twitter:title" content="From Twitter"><title>T</title><h1>Heading</h1>',
     "From Twitter", "meta:twitter:title"),
    ("<title>Big storm hits the coast | Daily</title><h1>Daily</h1>"
     "<h2>Big storm hits the coast</h2>", "Big storm hits the coast", "h2"),
    ("<title>Big storm hits the coast | Daily Bugle</title><h3>Newsletter</h3>",
     "Big storm hits the coast", "title"),
], ids=["meta", "heading-like-title", "title-without-site"])
def test_title_sources(html: str, text: str, source: str) -> None:
    found = titles.title_of(parse_html(f"<html><head></head><body>{html}</body></html>"))
    assert found == titles.TitleFound(text, source)


@pytest.mark.parametrize(("text", "iso"), [
    ("2024-03-05", "2024-03-05"),
    ("2024-03-05T09:30:00Z", "2024-03-05T09:30:00+00:00"),
    ("Posted 2024/3/5 10:20", "2024-03-05"),
    ("veröffentlicht am 05.03.2024", "2024-03-05"),
    ("05-03-2024", "2024-03-05"),
    ("03/05/2024", "2024-03-05"),
    ("25/03/2024", "2024-03-25"),
    ("March 5, 2024", "2024-03-05"),
    ("Mar 5th 2024", "2024-03-05"),
    ("5 March 2024", "2024-03-05"),
    ("5. März 2024", "2024-03-05"),
    ("le 5 mars 2024", "2024-03-05"),
    ("5 de marzo de 2024", "2024-03-05"),
    ("2024年3月5日 10:20", "2024-03-05"),
    ("no date here", None),
    ("2024-13-45", None),
], ids=lambda v: str(v))
def test_parse_date(text: str, iso: str | None) -> None:
    assert dates.parse_date(text) == iso


@pytest.mark.parametrize(("text", "iso"), [
    ("March 5, 2024 at 2:30 p.m.", "2024-03-05T14:30:00"),
    ("Mar 5, 2024 12:05 AM ET", "2024-03-05T00:05:00"),
    ("5. März 2024, 14:30 Uhr", "2024-03-05T14:30:00"),
    ("05.03.2024 – 9:05 Uhr", "2024-03-05T09:05:00"),
    ("2024年3月5日 14:30", "2024-03-05T14:30:00"),
    ("发布时间：2024-03-05 14:30:12 来源：新华社", "2024-03-05T14:30:12"),
    ("2024-03-05T09:30:00Z", "2024-03-05T09:30:00+00:00"),
    ("5 March 2024, 3 comments", "2024-03-05"),
    ("5 Okt. 2024", "2024-10-05"),
    ("Dec 5, 2024 25:61", "2024-12-05"),
], ids=lambda v: str(v))
def test_parse_datetime(text: str, iso: str) -> None:
    assert dates.parse_datetime(text) == iso


@pytest.mark.parametrize(("html", "author"), [
    ('<meta name="author" content="Jane Roe">', "Jane Roe"),
    ('<p>By <a rel="author" href="/u/1">John Doe</a></p>', "John Doe"),
    ('<span itemprop="author" itemscope><span itemprop="name">Li Na</span></span>', "Li Na"),
    ('<div class="byline">By Sam Poe | 2 hours ago</div>', "Sam Poe"),
    ('<div class="article-author">作者：王芳</div>', "王芳"),
    ('<meta name="author" content="https://example.com/u/1"><p class="text">x</p>', None),
], ids=["meta", "rel", "itemprop", "byline", "zh", "url-is-not-a-name"])
def test_author(html: str, author: str | None) -> None:
    assert byline.author_of(parse_html(f"<html><head></head><body>{html}</body></html>")) \
        == author


def test_time_element_and_itemprop() -> None:
    tree = parse_html('<html><body><time datetime="2023-12-01">yesterday</time></body></html>')
    assert byline.published_of(tree) == "2023-12-01"
    tree = parse_html('<html><body><span itemprop="datePublished">1 May 2022</span></body></html>')
    assert byline.published_of(tree) == "2022-05-01"


@pytest.mark.parametrize(("head", "body", "text"), [
    ('<meta property="og:title" content="Storm hits the coast | Daily Planet">',
     '<h1 class="logo">Daily Planet</h1><h1>Storm hits the coast</h1>', "Storm hits the coast"),
    ('<meta property="og:title" content="Storm hits the coast – Daily Planet">'
     '<meta property="og:site_name" content="Daily Planet">', "<h2>Weather</h2>",
     "Storm hits the coast"),
    ("<title>风暴登陆沿海地区_社会_港湾新闻网</title>", '<h1 class="logo">港湾新闻网</h1>',
     "风暴登陆沿海地区"),
    ('<meta property="og:title" content="Kosten steigen – Werk verzögert sich">',
     "<h1>Kosten steigen – Werk verzögert sich</h1>", "Kosten steigen – Werk verzögert sich"),
    ('<meta property="og:title" content="Berlin renames streets | DW | 19.01.2020">',
     "<h1>Berlin renames streets′</h1>", "Berlin renames streets′"),
], ids=["heading-inside-og-title", "og-site-name", "cjk-underscores", "dash-in-headline",
        "heading-spelled-differently"])
def test_title_without_site_name(head: str, body: str, text: str) -> None:
    found = titles.title_of(parse_html(f"<html><head>{head}</head><body>{body}</body></html>"))
    assert found is not None and found.text == text


@pytest.mark.parametrize(("head", "url"), [
    ("<meta name='Title' content='retrosixty - retrosixty.co.uk'>", None),
    ("<meta property='og:title' content='Daily Bugle'>"
     "<meta property='og:site_name' content='Daily Bugle'>", None),
    ("<meta name='title' content='Bugle'>", "https://www.bugle.example/news/1"),
    ("<meta name='title' content='Daily Bugle | Daily Bugle'>", None),
], ids=["name-and-host", "og-site-name", "page-host", "repeated-part"])
def test_a_meta_title_naming_only_the_site_is_passed_over(head: str, url: str | None) -> None:
    html = (f"<html><head>{head}<title>Big storm hits the coast | Daily Bugle</title></head>"
            "<body><h3>Newsletter</h3></body></html>")
    found = titles.title_of(parse_html(html, base_url=url))
    assert found == titles.TitleFound("Big storm hits the coast", "title")


def test_a_meta_title_with_the_site_and_more_still_counts() -> None:
    head = "<meta name='title' content='Storm season | Bugle'><title>Bugle</title>"
    found = titles.title_of(parse_html(f"<html><head>{head}</head><body></body></html>",
                                       base_url="https://bugle.example/a"))
    assert found == titles.TitleFound("Storm season | Bugle", "meta:title")


def _prose(n: int, words: int = 30) -> list[str]:
    return [f"Paragraph {i} " + " ".join(f"word{i}x{j}," for j in range(words)) + " the end."
            for i in range(n)]


def test_div_paragraphs_make_one_content() -> None:
    prose = _prose(1, 90) + _prose(5)
    paragraphs = "".join(f"<div>{p}</div>" for p in prose)
    comments = "".join(f'<div class="pl-item"><span>user{i}</span><span>2024-03-0{i}</span>'
                       f'<div class="pl-txt">{p}</div></div>' for i, p in enumerate(_prose(9)))
    tree = parse_html(f'<html><body><div id="artibody">{paragraphs}</div>'
                      f'<div class="pl">{comments}</div></body></html>')
    found = density.main_content(tree)
    assert found is not None and found.element.get("id") == "artibody"
    assert found.text.splitlines() == prose


def test_one_long_paragraph_gives_way_to_its_article() -> None:
    body = (f"<p>{_prose(1, 90)[0]}</p><figure><img src='a.jpg'><figcaption>A caption."
            f"</figcaption></figure>" + "".join(f"<p>{p}</p>" for p in _prose(4, 20))
            + "<p>Also read: <a href='/x'>Another rather long story about something</a></p>")
    found = density.main_content(parse_html(f"<html><body><div id='s'>{body}</div>"
                                            "</body></html>"))
    assert found is not None and found.element.get("id") == "s"
    assert len(found.text.splitlines()) == 5 and "Also read" not in found.text
    assert "caption" not in found.text


def test_publish_date_is_the_one_next_to_the_title() -> None:
    tree = parse_html(
        "<html><body><div class='top'>Wednesday, 15 January 2025</div>"
        "<div class='x'><h1>Storm hits the coast</h1><div class='m'>By Ann Lee · 3 March "
        "2024, 14:30 GMT <span>Updated 5 March 2024</span></div><p>Text.</p></div>"
        "<ul class='comments'><li><time datetime='2024-03-04'>4 March</time> Troll</li></ul>"
        "</body></html>")
    assert byline.published_of(tree) == "2024-03-03T14:30:00"
    tree = parse_html("<html><body><p class='kicker'>5 May 2021</p><h1>Storm hits the coast"
                      "</h1><p>Updated 7 May 2021</p></body></html>")
    assert byline.published_of(tree) == "2021-05-05"


def test_author_from_byline_text_not_from_comments() -> None:
    tree = parse_html(
        "<html><body><div class='q'><h1>Kosten steigen</h1><div class='m'><span>Von Anna "
        "Schmidt, Leipzig</span></div><p>Text.</p></div><section class='comments'>"
        "<span class='comment-author'>Troll</span></section></body></html>")
    assert byline.author_of(tree) == "Anna Schmidt"
    tree = parse_html("<html><body><h1>Headline</h1><p>Grace Kim, World correspondent</p>"
                      "</body></html>")
    assert byline.author_of(tree) == "Grace Kim"
    tree = parse_html("<html><body><h1>标题</h1><div><span>来源：新华社</span><span>作者：张伟</span>"
                      "</div><p>正文。</p><div>(责任编辑：王芳)</div></body></html>")
    assert byline.author_of(tree) == "张伟"


def test_comment_thread_known_by_its_heading_not_its_class() -> None:
    article = "".join(f"<p>{p}</p>" for p in _prose(3, 25))
    thread = "".join(f"<p>user{i}: {p}</p>" for i, p in enumerate(_prose(30, 30)))
    tree = parse_html(f"<html><body><div class='a1'><h1>Headline here</h1>{article}</div>"
                      f"<div class='c9'><div class='c9h'>30 comments</div>{thread}</div>"
                      "</body></html>")
    found = density.main_content(tree)
    assert found is not None and found.text.splitlines() == _prose(3, 25)
