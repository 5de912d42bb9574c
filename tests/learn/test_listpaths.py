"""learn.listpaths: the XPath of a list field relative to its item, checked against what
replay reads, on hand-built class-less cards with known answers."""

from __future__ import annotations

from lxml.html import HtmlElement

from structurer.clean import parse_html
from structurer.learn import xpaths
from structurer.learn.listpaths import misfit, relative_xpath
from structurer.learn.slots import collect_slots
from structurer.lexicon import load_lexicon
from structurer.page.dom import text_of


def cards(*footers: str) -> list[list[HtmlElement]]:
    items = "".join(f'<article><h2><a href="/p/{i}">Item {i}</a></h2><footer>{f}</footer>'
                    "</article>" for i, f in enumerate(footers))
    root = parse_html(f"<html><body><section>{items}</section></body></html>",
                      "http://shop.test/")
    return [[a] for a in root.iter("article")]


# class-less cards: the price is the first span, or, where a sold-out card shows no price,
# the review count is (what the zoo's class-less shops and many hand-written themes do)
FOOTERS = ('<span>R$ 54,00</span><span class="old-price">R$ 66,99</span><p>Em estoque</p>',
           '<span>R$ 1.649,95</span><div role="img">★★★★☆</div><span>(397)</span><p>Em estoque</p>',
           '<div role="img">★★★★☆</div><span>(7)</span><p>Fora de estoque</p>',
           '<span>R$ 48,99</span><div role="img">★★☆☆☆</div><span>(170)</span><p>Em estoque</p>',
           '<span>R$ 1.992,95</span><p>Em estoque</p>',
           '<div role="img">★★★☆☆</div><span>(12)</span><p>Fora de estoque</p>',
           '<span>R$ 7.972,95</span><div role="img">★★★★☆</div><span>(76)</span><p>Em estoque</p>')


def test_a_price_place_holding_a_review_count_on_sold_out_cards_reads_nothing_there() -> None:
    """The slot ``footer/span`` is the price on five cards and the review count on the two
    sold-out ones: the learned XPath reads the price where it is and nothing else (a guard
    on the currency sign every price shows), never "(7)" as a price of 7."""
    records = cards(*FOOTERS)
    slot = next(s for s in collect_slots(records) if s.key.endswith("footer/span"))
    assert slot.values("text") == ["R$ 54,00", "R$ 1.649,95", "(7)", "R$ 48,99", "R$ 1.992,95",
                                   "(12)", "R$ 7.972,95"]
    path = relative_xpath(slot, records, "text", misfit("price", load_lexicon()))
    assert path is not None
    read = [xpaths.replayed(path, "text", rec[0]) for rec in records]
    assert [text_of(el) if el is not None else None for el in read] == [
        "R$ 54,00", "R$ 1.649,95", None, "R$ 48,99", "R$ 1.992,95", None, "R$ 7.972,95"]


def test_a_slot_without_misfits_keeps_its_plain_xpath() -> None:
    """Where every card shows its price first, no guard is added."""
    records = cards(*(f for f in FOOTERS if f.startswith("<span>")))
    slot = next(s for s in collect_slots(records) if s.key.endswith("footer/span"))
    path = relative_xpath(slot, records, "text", misfit("price", load_lexicon()))
    assert path is not None and "contains(., " not in path
