"""Page classification (analyze.pages.classify): list, detail or other, for shops (the
ecommerce lexicon) and for articles (the news lexicon)."""

from __future__ import annotations

from typing import Any

import pytest

from structurer.clean import parse_html
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView, empty_noise
from tests.page.test_density import EXPECTED, NEWS
from tests.page.test_linkclusters import LIST_SHOPS, fetch, news_page, words


def kind(url: str, html: str, template: str = "ecommerce") -> str:
    return PageView.from_html(url, html, load_lexicon(template)).kind


@pytest.mark.parametrize("shop", LIST_SHOPS)
def test_demo_shop_pages(shop: str, demo_truth: dict[str, Any]) -> None:
    """List pages (the short last page of a category too), product pages, and department
    pages that show sub-category tiles and a few bestsellers but list nothing."""
    truth = demo_truth[shop]
    lists = list(truth["list_pages"].items())
    short = [u for u, t in lists if len(t["items"]) < 3]
    cases = [(u, "list") for u, _ in lists[::max(1, len(lists) // 4)]]
    cases += [(u, "list") for u in short[:2]]
    cases += [(p["url"], "detail") for p in truth["products"][::max(1, len(truth["products"]) // 5)]]
    cases += [(c["url"], "other") for c in truth["categories"] if not c["lists_products"]]
    wrong = [(url, want, got) for url, want in cases
             if (got := kind(url, fetch(url))) != want]
    assert not wrong


def test_short_last_pages_are_lists(demo_truth: dict[str, Any]) -> None:
    short = [u for shop in LIST_SHOPS for u, t in demo_truth[shop]["list_pages"].items()
             if len(t["items"]) < 3]
    assert len(short) >= 8
    assert all(kind(u, fetch(u)) == "list" for u in short)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_news_articles_are_details(name: str) -> None:
    html = (NEWS / name).read_text(encoding="utf-8")
    assert kind(f"http://news.example/2024/{name}", html, "news") == "detail"


@pytest.mark.parametrize("layout", ["hot,main,rec", "rec,hot,main"])
def test_news_list_page(layout: str) -> None:
    assert kind("http://news.test/latest/", news_page(layout, named=False), "news") == "list"


def article_page(h1s: int) -> str:
    """An article without structured data: a headline, paragraphs, comments, related
    links and a long footer of site links (``h1s``: a site-name h1 before the headline)."""
    paras = "".join(f"<p>{words(i, 30)}. {words(i + 9, 22)}.</p>" for i in range(6))
    comments = "".join(f'<li class="c"><a href="/u/{i}">Reader number {i}</a>'
                       f"<p>{words(i + 50, 14)}.</p></li>" for i in range(6))
    related = "".join(f'<li><a href="/2024/02/{i}/r.html">{words(i + 70, 9)}</a></li>'
                      for i in range(4))
    footer = "".join(f'<li><a href="/info/{w}">{w.capitalize()} desk</a></li>' for w in WORDS_20)
    title = "Council approves harbour bridge budget after long debate"
    return (f"<html><head><title>{title} | Daily</title></head><body>"
            + ('<div class="brand"><h1>The Daily</h1></div>' if h1s == 2 else "")
            + f'<div class="story"><h1>{title}</h1><p class="by">By Ann Lee, 3 May 2024</p>'
            f'<div class="text">{paras}</div></div><div class="talk"><ul>{comments}</ul></div>'
            f'<div class="more"><ul>{related}</ul></div><div class="links"><ul>{footer}</ul>'
            "</div></body></html>")


WORDS_20 = [f"{w}{n}" for n in range(2) for w in ("world", "sport", "business", "culture",
                                                   "science", "travel", "health", "money",
                                                   "opinion", "video")]


@pytest.mark.parametrize("h1s", [1, 2])
def test_article_without_structured_data(h1s: int) -> None:
    assert kind("http://news.test/2024/05/03/bridge.html", article_page(h1s), "news") == "detail"


def test_about_page_is_other() -> None:
    desks = "".join(f'<li><a href="/section/{w}/">{w.capitalize()}</a></li>' for w in WORDS_20)
    html = ("<html><head><title>About us</title></head><body><h1>About us</h1>"
            "<p>An independent newsroom. Write to the desk.</p>"
            f"<h2>Desks</h2><ul>{desks}</ul></body></html>")
    assert kind("http://news.test/about/", html, "news") == "other"


def test_empty_noise_reaches_scripts_after_an_svg() -> None:
    tree = parse_html("<html><body><svg><path d='M0'/><g><path/></g></svg><p>text</p>"
                      "<script>var big = 1;</script><style>p{}</style></body></html>")
    empty_noise(tree)
    assert tree.xpath("string(//body)") == "text"
    assert len(tree.xpath("//svg")) == 1 and not tree.xpath("//svg/*")


def test_a_short_pages_cards_are_found_once(demo_truth: dict[str, Any],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's kind, its main list and its buy control all ask for the priced cards of
    a list too short to repeat: the page finds them once, and the main list is them."""
    from structurer.page import productkind
    from structurer.page.mainlist import main_list

    calls: list[str] = []
    find = productkind.find_loose_cards

    def counted(page: PageView) -> list[Any]:
        calls.append(page.url)
        return find(page)

    monkeypatch.setattr(productkind, "find_loose_cards", counted)
    url, truth = next((u, t) for shop in LIST_SHOPS
                      for u, t in demo_truth[shop]["list_pages"].items() if len(t["items"]) < 3)
    view = PageView.from_html(url, fetch(url), load_lexicon())
    assert view.kind == "list"
    found = main_list(view)
    assert found is not None and found.source == "cards" and len(found) == len(truth["items"])
    productkind.can_buy(view)
    assert calls == [url]


def test_lines_left_out_of_the_text_leave_the_kind() -> None:
    """A short post whose meta bar and footer bar (fields between " | ") the line filters
    leave out of its text: the kind is judged on the post's lines before those filters,
    so it stays an article (judged on the tidied text, 177 characters, it was 'other')."""
    title = "Children paint posters to keep the lakes of Berlin clean"
    html = (f"<html><head><title>{title} – Sailing blog</title></head><body>"
            f'<div class="post"><h1>{title}</h1>'
            "<p>Posted 23 February 2020 | Category: News | Tags: Berlin, water | 22 views</p>"
            "<p>For the sixth time children between six and twelve are asked to paint a "
            "poster for clean lakes and sends it in by April.</p>"
            "<p>Sailing blog | Imprint | Privacy | Contact | Newsletter</p></div></body></html>")
    view = PageView.from_html("http://blog.test/2020/02/posters/", html, load_lexicon("news"))
    assert view.content is not None
    assert view.content.text == (f"{title}\nFor the sixth time children between six and "
                                 "twelve are asked to paint a poster for clean lakes and "
                                 "sends it in by April.")
    assert view.kind == "detail"


def test_a_card_under_a_noise_heading_is_no_short_lists_card() -> None:
    """A priced card under "Trending" (a noise word of weight 8) is another product's,
    not the last product of a short list; a lexicon asking for noise words of weight 9
    (``thresholds.noise_card``) takes it for one."""
    from structurer.page.productkind import find_loose_cards

    card = ("<div class='card'><h3><a href='/p/1'>Camping Lantern One</a></h3>"
            "<span>€ 10,95</span></div>")
    html = (f"<html><body><main><h1>Lanterns</h1><section><h2>Trending</h2>{card}</section>"
            "</main></body></html>")
    lexicon = load_lexicon()
    assert find_loose_cards(PageView.from_html("http://shop.test/c/l", html, lexicon)) == []
    lax = lexicon.model_copy(update={"thresholds": lexicon.thresholds.model_copy(
        update={"noise_card": 9})})
    found = find_loose_cards(PageView.from_html("http://shop.test/c/l", html, lax))
    assert [c.get("class") for c in found] == ["card"]


def test_the_second_card_under_a_noise_heading_is_under_it_too() -> None:
    """Two priced cards under "Trending": the card before the second one is its peer,
    not its heading (its product's name is no title of the section), so neither is the
    last product of a short list."""
    from structurer.page.dom import heading_before
    from structurer.page.productkind import find_loose_cards

    cards = "".join(f"<div class='card'><h3><a href='/p/{i}'>Camping Lantern {i}</a></h3>"
                    f"<span>€ 1{i},95</span></div>" for i in (1, 2))
    html = (f"<html><body><main><h1>Lanterns</h1><section><h2>Trending</h2>{cards}"
            "</section></main></body></html>")
    view = PageView.from_html("http://shop.test/c/l", html, load_lexicon())
    assert [heading_before(c) for c in view.body.iter("div")] == ["Trending", "Trending"]
    assert find_loose_cards(view) == []


def test_a_block_of_its_class_holding_the_section_heading_is_its_heading() -> None:
    """The heading in a block of the cards' row class (``div.row`` > ``h2``) before the
    row of cards titled by ``h3`` is the section's heading, not a peer stepped over."""
    from structurer.page.dom import heading_before

    cards = "".join(f"<div class='card'><h3><a href='/p/{i}'>Camping Lantern {i}</a></h3>"
                    f"</div>" for i in (1, 2))
    html = (f"<html><body><div class='row'><h2>Trending</h2></div>"
            f"<div class='row'>{cards}</div></body></html>")
    view = PageView.from_html("http://shop.test/c/l", html, load_lexicon())
    rows = [d for d in view.body.iter("div") if d.get("class") == "row"]
    assert heading_before(rows[1]) == "Trending"
    assert [heading_before(c) for c in rows[1]] == ["Trending", "Trending"]
