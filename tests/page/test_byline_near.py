"""byline: publish time and author read around the title heading, the heading and the
walk around it found once when both are asked (``near``), with the same answers."""

from __future__ import annotations

from structurer.clean import parse_html
from structurer.page import byline

PAGE = """<html><head><title>Dam vote delayed again - Valley News</title></head><body>
<nav><a href="/">Home</a> <span class="date">1 January 2020</span></nav>
<article><h1>Dam vote delayed again</h1><p>By Ann Lee in Oslo</p><p>5 March 2024</p>
<p>The council put off its vote on the new dam for the third time this spring.</p>
</article></body></html>"""


def test_near_is_read_once_and_answers_as_without_it() -> None:
    tree = parse_html(PAGE)
    title = "Dam vote delayed again"
    alone = (byline.published_of(tree, None, title), byline.author_of(tree, title))
    assert alone == ("2024-03-05", "Ann Lee")
    near = byline.Near(tree, title)
    assert byline.published_of(tree, None, title, near=near) == alone[0]
    walk = near.walk
    assert walk is not None and near.kept[0] is not None and near.kept[0].tag == "h1"
    assert byline.author_of(tree, title, near=near) == alone[1]
    assert near.walk is walk        # author_of read the walk published_of made


def test_near_without_a_heading_walks_nothing() -> None:
    tree = parse_html("<html><body><p>No heading here, only a line of text.</p></body></html>")
    near = byline.Near(tree, "")
    assert byline.author_of(tree, "", near=near) is None
    assert near.kept[0] is None and near.walk is None
