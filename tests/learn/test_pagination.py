"""Pagination learning on small pages: next told from previous (words and symbols in
several languages, rel, aria-label, the current page's marker), numbered-only pagers,
head links, and URL patterns (query, path, offsets) from pager links."""

from __future__ import annotations

import pytest

from structurer.learn import xpaths
from structurer.learn.pagination import (
    direction,
    guess_patterns,
    infer_pattern,
    learn_pagination,
    link_pattern,
    more_controls,
    numbering,
)
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView

LEX = load_lexicon()
VOCAB = LEX.pagination
BASE = "http://shop.test/c/shoes/"


def _url(n: int) -> str:
    return BASE if n == 1 else f"{BASE}?page={n}"


def shared_pager(n: int, total: int, prev: str, nxt: str) -> str:
    """A Bootstrap pager: previous, numbers and next all ``a.page-link``."""
    items = []
    if n > 1:
        items.append(f'<li class="page-item"><a class="page-link" href="{_url(n - 1)}">{prev}</a></li>')
    for k in range(1, total + 1):
        items.append(f'<li class="page-item active"><span class="page-link">{k}</span></li>'
                     if k == n else
                     f'<li class="page-item"><a class="page-link" href="{_url(k)}">{k}</a></li>')
    if n < total:
        items.append(f'<li class="page-item"><a class="page-link" href="{_url(n + 1)}">{nxt}</a></li>')
    return f'<ul class="pagination">{"".join(items)}</ul>'


def page(n: int, pager: str, head: str = "") -> PageView:
    cards = "".join(f'<li class="card"><a href="/p/{n}-{i}.html">Shoe {n}-{i}</a>'
                    f'<span class="price">$1{i}.00</span></li>' for i in range(4))
    html = (f"<html><head><title>Shoes</title>{head}</head><body><h1>Shoes</h1>"
            f'<ul class="grid">{cards}</ul>{pager}</body></html>')
    return PageView.from_html(_url(n), html, LEX)


def first_target(xpath: str, view: PageView) -> str | None:
    for node in xpaths.evaluate(xpath, view.tree):
        href = node if isinstance(node, str) else node.get("href")  # type: ignore[attr-defined]
        return str(href)
    return None


@pytest.mark.parametrize(("prev", "nxt"), [
    ("Previous", "Next"), ("Zurück", "Weiter"), ("Précédent", "Suivant"),
    ("Anterior", "Siguiente"), ("上一页", "下一页"), ("前へ", "次へ"), ("Назад", "Далее"),
    ("«", "»"), ("‹", "›"), ("←", "→"),
], ids=["en", "de", "fr", "es", "zh", "ja", "ru", "guillemets", "angles", "arrows"])
def test_shared_class_pager_follows_next_never_previous(prev: str, nxt: str) -> None:
    pages = [page(1, shared_pager(1, 4, prev, nxt)), page(2, shared_pager(2, 4, prev, nxt)),
             page(3, shared_pager(3, 4, prev, nxt))]
    # learned on a first page alone (as analysis first sees categories), where the shared
    # class selects "2" first too: the rule must still pick the next link itself
    guess = learn_pagination(pages[:1], VOCAB)
    assert guess is not None and guess.next_xpath is not None
    # on every page the rule leads forward: 1 -> 2, 2 -> 3, 3 -> 4
    assert [first_target(guess.next_xpath, p) for p in pages] == [_url(2), _url(3), _url(4)]
    last = page(4, shared_pager(4, 4, prev, nxt))
    assert first_target(guess.next_xpath, last) is None


def test_direction_reads_words_symbols_rel_and_labels() -> None:
    view = PageView.from_html(BASE, (
        '<html><body><a href="?page=1" rel="prev">x</a><a href="?page=3" rel="next">y</a>'
        '<a href="?page=1" aria-label="Previous page">‹</a>'
        '<a href="?page=3" aria-label="Next page">›</a>'
        '<a href="?page=3" class="pagination-next"><i></i></a>'
        '<a href="/sale/">Weitere Angebote</a><a href="?page=3">Nächste Seite</a>'
        "</body></html>"), LEX)
    links = list(view.body.iter("a"))
    scores = [direction(a, VOCAB) for a in links]
    assert scores[0] < 0 < scores[1]
    assert scores[2] < 0 < scores[3]
    assert scores[4] > 0
    assert scores[5] == 0          # "weiter" only as a whole word
    assert scores[6] > 0


def test_numbered_only_pager_follows_the_number_after_the_current_one() -> None:
    def numbers(n: int) -> str:
        out = "".join(f'<span aria-current="page">{k}</span>' if k == n else
                      f'<a href="{_url(k)}">{k}</a>' for k in range(1, 6))
        return f'<nav class="pages">{out}</nav>'
    pages = [page(1, numbers(1)), page(3, numbers(3))]
    guess = learn_pagination(pages, VOCAB)
    assert guess is not None and guess.next_xpath is not None
    assert [first_target(guess.next_xpath, p) for p in pages] == [_url(2), _url(4)]
    assert first_target(guess.next_xpath, page(5, numbers(5))) is None
    assert (guess.url_pattern, guess.first_page, guess.step) == ("?page={page}", 2, 1)


def test_head_link_rel_next() -> None:
    pages = [page(1, "", f'<link rel="next" href="{_url(2)}">'),
             page(2, "", f'<link rel="prev" href="{_url(1)}"><link rel="next" href="{_url(3)}">')]
    guess = learn_pagination(pages, VOCAB)
    assert guess is not None and guess.next_xpath == '//link[@rel="next"]/@href'


@pytest.mark.parametrize(("current", "target", "want"), [
    ("http://s/c/shoes/", "http://s/c/shoes/?page=2", ("?page={page}", 2)),
    ("http://s/c/shoes/", "http://s/c/shoes/page/2/", ("/page/{page}/", 2)),
    ("http://s/collections/shoes", "http://s/collections/shoes/page/3/", ("/page/{page}/", 3)),
    ("http://s/list.php?cat=4", "http://s/list.php?cat=4&p=2", ("?p={page}", 2)),
    ("http://s/c/x?sort=a", "http://s/c/x?sort=a&start=24", ("?start={page}", 24)),
    ("http://s/list.html", "http://s/list-3.html", ("list-{page}.html", 3)),
    ("http://s/list-12-1.html", "http://s/list-12-2.html", None),   # a category id in it
    ("http://s/a/", "http://other/a/?page=2", None),
    ("http://s/c/x?sort=a", "http://s/c/x?sort=b&page=2", None),    # more than the number
], ids=["query", "path", "path-no-slash", "second-param", "offset", "file", "ids", "host",
        "two-changes"])
def test_infer_pattern(current: str, target: str, want: tuple[str, int] | None) -> None:
    assert infer_pattern(current, target) == want


def test_numbering_tells_page_numbers_zero_based_and_offsets() -> None:
    assert numbering([(2, 2), (5, 5)]) == (2, 1)
    assert numbering([(2, 1), (3, 2)]) == (1, 1)
    assert numbering([(2, 24), (4, 72)]) == (24, 24)
    assert numbering([(3, 24)]) == (12, 12)
    assert numbering([(2, 3), (3, 7), (4, 9)]) is None   # no one step


def test_offset_pattern_from_numbered_links() -> None:
    def pager(n: int) -> str:
        links = "".join(f'<a href="{BASE}?start={(k - 1) * 24}">{k}</a>' if k != n else
                        f"<b>{k}</b>" for k in range(1, 5))
        return f'<div class="pager">{links}</div>'
    view = page(1, pager(1))
    assert link_pattern([view], VOCAB) == ("?start={page}", 24, 24)


def test_script_pager_guesses_and_load_more_controls() -> None:
    html = ('<div class="pager"><button type="button" class="more" data-next-page="2">'
            "Mehr laden</button></div>")
    view = page(1, html)
    guesses = guess_patterns(view, VOCAB, 12, 3)
    assert guesses[0] == ("?page={page}", 2, 1)
    assert ("/page/{page}/", 2, 1) in guesses
    assert ("?start={page}", 12, 12) in guesses
    controls = more_controls(view, VOCAB)
    assert controls[0] == "//button[normalize-space()='Mehr laden']"
    assert all(len(view.tree.xpath(c)) == 1 for c in controls)
