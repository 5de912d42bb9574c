"""Title, main content, publish time and author views (structurer.analyze.density)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from structurer.analyze import density
from structurer.clean import parse_html

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
    title = density.title_of(tree)
    assert title is not None and title.text == want["title"]
    found = density.main_content(tree)
    assert found is not None
    assert token_f1(found.text, want["content"]) >= 0.9
    assert "comment" not in found.text.lower() and "related" not in found.text.lower()
    published = density.published_of(tree, found.element)
    assert published is not None and published.startswith(want["published"])
    assert density.author_of(tree) == want["author"]


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
    assert density.title_of(parse_html("")) is None


@pytest.mark.parametrize(("html", "text", "source"), [
    ('<meta name="twitter:title" content="From Twitter"><title>T</title><h1>Heading</h1>',
     "From Twitter", "meta:twitter:title"),
    ("<title>Big storm hits the coast | Daily</title><h1>Daily</h1>"
     "<h2>Big storm hits the coast</h2>", "Big storm hits the coast", "h2"),
    ("<title>Big storm hits the coast | Daily Bugle</title><h3>Newsletter</h3>",
     "Big storm hits the coast", "title"),
], ids=["meta", "heading-like-title", "title-without-site"])
def test_title_sources(html: str, text: str, source: str) -> None:
    found = density.title_of(parse_html(f"<html><head></head><body>{html}</body></html>"))
    assert found == density.TitleFound(text, source)


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
    assert density.parse_date(text) == iso


@pytest.mark.parametrize(("html", "author"), [
    ('<meta name="author" content="Jane Roe">', "Jane Roe"),
    ('<p>By <a rel="author" href="/u/1">John Doe</a></p>', "John Doe"),
    ('<span itemprop="author" itemscope><span itemprop="name">Li Na</span></span>', "Li Na"),
    ('<div class="byline">By Sam Poe | 2 hours ago</div>', "Sam Poe"),
    ('<div class="article-author">作者：王芳</div>', "王芳"),
    ('<meta name="author" content="https://example.com/u/1"><p class="text">x</p>', None),
], ids=["meta", "rel", "itemprop", "byline", "zh", "url-is-not-a-name"])
def test_author(html: str, author: str | None) -> None:
    assert density.author_of(parse_html(f"<html><head></head><body>{html}</body></html>")) \
        == author


def test_time_element_and_itemprop() -> None:
    tree = parse_html('<html><body><time datetime="2023-12-01">yesterday</time></body></html>')
    assert density.published_of(tree) == "2023-12-01"
    tree = parse_html('<html><body><span itemprop="datePublished">1 May 2022</span></body></html>')
    assert density.published_of(tree) == "2022-05-01"
