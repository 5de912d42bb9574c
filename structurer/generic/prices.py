"""The price of a single product page, without rules.

Input: a :class:`PageView` and the element naming the product (its title anchor, or
None). Output: the money text that is the product's price. Real pages put prices in
text nodes anywhere (``<b>Price:</b> £60`` keeps it in a tail), beside shipping
costs, instalments, old prices, cart totals and variant menus; so every money text
node outside navigation and product lists is a candidate, scored by the label in
front of it, the lexicon words on its element, its nearness to the title, and the
words that mark it as something else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from structurer.kinds import Words
from structurer.namewords import class_words
from structurer.page.dom import split_money
from structurer.page.match import class_word, label_text_match, lexicon_match, phrase_in
from structurer.page.view import PageView
from structurer.values import parse_money, struck

_SKIP = frozenset({"script", "style", "noscript", "template", "option", "select", "textarea",
                   "nav", "footer", "header", "aside"})


@dataclass
class _Chunk:
    owner: HtmlElement
    text: str
    order: int


def text_chunks(root: HtmlElement) -> Iterator[_Chunk]:
    """Non-blank text nodes in document order, each with the element that holds it
    (a tail belongs to its element's parent), skipping scripts, menus and variants; a
    price split over inline children is one chunk (:func:`split_money`)."""
    order = 0
    skipped: list[HtmlElement] = []
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if not isinstance(el.tag, str):
            continue
        if event == "start":
            whole = None if skipped or el.tag in _SKIP else split_money(el)
            if whole is not None:     # one price split over spans: one chunk, its owner
                order += 1
                yield _Chunk(el, whole, order)
            if el.tag in _SKIP or whole is not None:
                skipped.append(el)
            elif not skipped and el.text and el.text.strip():
                order += 1
                yield _Chunk(el, el.text.strip(), order)
            continue
        if skipped and skipped[-1] is el:
            skipped.pop()
        parent = el.getparent()
        if not skipped and parent is not None and el.tail and el.tail.strip():
            order += 1
            yield _Chunk(parent, el.tail.strip(), order)


def _own_label(label: str, vocab: Words) -> str:
    """The end of the text before an amount, as its label: none where that text is
    another amount's ("Delivery $5" before "Was $60")."""
    return label[-40:] if vocab.money.search(label) is None else ""


def _after(chunks: list[_Chunk], index: int, end: int, vocab: Words) -> str:
    """The words after an amount (ending at ``end`` of chunk ``index``): the rest of its
    text, else the text of the element beside it when that holds no amount of its own
    ("204,10 €" then ``<small>exkl. MwSt.</small>``; a tail, "£579.99</span> Free
    Delivery", is the block's words, not a word on the amount)."""
    chunk = chunks[index]
    rest = chunk.text[end:][:30]
    if rest.strip(" \t,.;:()") or index + 1 >= len(chunks):
        return rest
    following = chunks[index + 1]
    own = (following.owner.text or "").strip() == following.text   # not a tail
    beside = following.owner.getparent() in (chunk.owner, chunk.owner.getparent())
    return f"{rest} {following.text[:30]}" if own and beside and vocab.money.search(
        following.text) is None else rest


def _trails(chunks: list[_Chunk], index: int, vocab: Words) -> bool:
    """Chunk ``index`` is the words after the amount that ends the chunk before it."""
    money = vocab.money.search(chunks[index - 1].text)   # as best_price reads it
    return money is not None and _after(chunks, index - 1, money.end(), vocab) != \
        chunks[index - 1].text[money.end():][:30]


def _levels_apart(el: HtmlElement, anchor: HtmlElement) -> int:
    """How many levels above the anchor their nearest common block is (99: none)."""
    mine = set(el.iterancestors()) | {el}
    for level, node in enumerate(anchor.iterancestors(), start=1):
        if node in mine:
            return level if node.tag not in ("body", "html") else 99
    return 99


@dataclass(frozen=True)
class PriceFound:
    text: str
    score: float        # from about 1.8: a labelled or named price, or one by the title
    named: bool         # a price label before it, or the lexicon's price words on it


def price_text(view: PageView, anchor: HtmlElement | None) -> str | None:
    """The money text most likely to be the page's own product price."""
    found = best_price(view, anchor)
    return found.text if found else None


def best_price(view: PageView, anchor: HtmlElement | None) -> PriceFound | None:
    """:func:`price_text` with its score and evidence (how sure a page without
    structured data is a product page); prices in other products' cards do not count."""
    spec = view.lexicon.spec_of("money", struck=False)
    not_price = view.lexicon.signals.get("not_price", {})
    vocab = view.words

    def elsewhere(text: str) -> bool:
        # "4 × $308.38": an instalment (the vocabulary's ``times_signs``), other sums
        return bool(vocab.multiplier.search(text) or vocab.other_money.search(text))

    listed = view.listed
    chunks = list(text_chunks(view.body))
    anchor_order = None
    if anchor is not None:
        inside = {id(x) for x in anchor.iter()}
        anchor_order = max((c.order for c in chunks if id(c.owner) in inside), default=None)
    found: list[tuple[float, str, str, bool]] = []
    amounts: Counter[str] = Counter()
    previous = ""
    for index, chunk in enumerate(chunks):
        label, previous = previous, chunk.text
        if index >= 2 and _trails(chunks, index - 1, vocab):
            label = ""      # "exkl. MwSt." after the amount before is that amount's words
        money = vocab.money.search(chunk.text)
        if money is None or chunk.owner in listed or struck(chunk.owner, vocab):
            continue
        parsed = parse_money(chunk.text, words=vocab)
        if parsed.amount is None:
            continue
        score = 1.0
        lead = chunk.text[:money.start()]
        # the text before: a label, unless it is another amount ("¥12.50/米") whose words
        # are that amount's, not this one's
        said = f"{_own_label(label, vocab)} {lead}" if len(lead) < 3 else lead
        labelled = spec is not None and (label_text_match(label[-40:], spec)[0] > 0
                                         or label_text_match(lead, spec)[0] > 0)
        if labelled:
            score += 1.0
        after = chunk.text[money.end():][:30]
        if elsewhere(said) or elsewhere(after) or phrase_in(
                f"{said} {_after(chunks, index, money.end(), vocab)}", not_price):
            score -= 1.5    # shipping, an instalment, a unit price: not the price to pay
        if len(money.group(0)) < 0.5 * len(chunk.text):
            score -= 0.3
        if float(parsed.amount) == 0:
            score -= 1.5
        score, words = _by_markup(score, chunk.owner, view, vocab)
        score = _by_place(score, chunk, anchor, anchor_order)
        value = chunk.text if len(chunk.text) <= 40 else money.group(0)
        amounts[str(parsed.amount)] += 1
        found.append((score, value, str(parsed.amount), labelled or words >= 0.5))
    if not found:
        return None
    best = max(found, key=lambda f: f[0] + 0.1 * min(amounts[f[2]] - 1, 3))
    return PriceFound(best[1], best[0], best[3]) if best[0] > 0 else None


def _by_markup(score: float, owner: HtmlElement, view: PageView,
               vocab: Words) -> tuple[float, float]:
    """``score`` moved by the price words of the amount's markup (and down by an old
    price's or another sum's), with the price words' own strength."""
    spec = view.lexicon.spec_of("money", struck=False)
    old = view.lexicon.spec_of("money", struck=True)
    words = lexicon_match(owner, spec, view.lexicon, 0.5, depth=2)[0] if spec else 0.0
    score += 0.6 * words
    if old is not None and lexicon_match(owner, old, view.lexicon, 0.5, depth=1)[0]:
        score -= 0.8
    elif class_word(owner, class_words(vocab, "other_money_classes")):
        score -= 0.5
    return score, words


def _by_place(score: float, chunk: _Chunk, anchor: HtmlElement | None,
              anchor_order: int | None) -> float:
    """``score`` moved by where the amount is: near the title (``anchor``) and just after
    it is best; with no title, earlier on the page is better."""
    if anchor is not None and anchor_order is not None:
        score += max(0.0, 1.5 - 0.25 * _levels_apart(chunk.owner, anchor))
        gap = chunk.order - anchor_order
        score += 0.6 / (1 + abs(gap) / 8) + (0.2 if gap > 0 else 0.0)
    else:
        score -= 0.002 * chunk.order
    return score


def old_price_text(view: PageView, anchor: HtmlElement | None, price: float | None
                   ) -> str | None:
    """The price before a discount that the page shows beside its own price: a money text
    struck through, labelled (``RRP:``, ``Was``) or marked by the old price's words,
    outside other products' cards, nearest the title, and more than ``price`` (a saving,
    an instalment or a shipping charge is none; without a price, no old price either)."""
    old = view.lexicon.spec_of("money", struck=True)
    if old is None or price is None or anchor is None:
        return None
    vocab = view.words
    not_price = view.lexicon.signals.get("not_price", {})
    chunks = list(text_chunks(view.body))
    inside = {id(x) for x in anchor.iter()}
    anchor_order = max((c.order for c in chunks if id(c.owner) in inside), default=None)
    best: tuple[float, str] | None = None
    previous = ""
    for chunk in chunks:
        label, previous = previous, chunk.text
        money = vocab.money.search(chunk.text)
        if money is None or chunk.owner in view.listed:
            continue
        amount = parse_money(chunk.text, words=vocab).amount
        # the text before, unless it is another amount ("Delivery $5"), whose words are its
        said = f"{_own_label(label, vocab)} {chunk.text[:money.start()]}"
        after = chunk.text[money.end():][:30]
        if amount is None or float(amount) <= price or vocab.multiplier.search(said) or \
                phrase_in(f"{said} {after}", not_price):
            continue
        if not (struck(chunk.owner, vocab) or label_text_match(label[-40:], old)[0] > 0
                or label_text_match(chunk.text[:money.start()], old)[0] > 0
                or lexicon_match(chunk.owner, old, view.lexicon, 0.5, depth=1)[0] > 0):
            continue
        score = _by_place(0.0, chunk, anchor, anchor_order)
        if best is None or score > best[0]:
            best = (score, chunk.text if len(chunk.text) <= 40 else money.group(0))
    return best[1] if best is not None and best[0] >= 0.5 else None


def old_price_field(view: PageView, anchor: HtmlElement | None, values: dict[str, Any]
                    ) -> tuple[str, str] | None:
    """(the lexicon's struck money field, the price before a discount shown beside the
    price: :func:`old_price_text`) where structured data gave none; None for none."""
    name = next((n for n, f in view.lexicon.fields.items() if f.kind == "money" and f.struck),
                None)
    if name is None or name in values or values.get("price") in (None, ""):
        return None
    now = parse_money(str(values["price"]), values.get("currency"),
                      view.words).amount
    text = old_price_text(view, anchor, float(now)) if now is not None else None
    return (name, text) if text is not None else None


_SURE = 1.8   # score of a shown price sure enough to stand for structured data's zero


def shown_sale(view: PageView, anchor: HtmlElement | None, values: dict[str, Any]
               ) -> str | None:
    """The sale price the page shows where structured data gave the regular one: the
    page's own price (:func:`best_price`) is lower, and the structured amount is the price
    before the discount the page shows beside it (:func:`old_price_text`: struck through
    or labelled "was"); the page's price, where sure, for a zero in the data (a
    placeholder); None otherwise (structured data stands)."""
    given = parse_money(str(values.get("price")), values.get("currency"), view.words).amount
    found = best_price(view, anchor)
    if given is None or found is None:
        return None
    shown = parse_money(found.text, values.get("currency"), view.words).amount
    if given == 0 and shown and found.score >= _SURE:
        return found.text   # a zero in the data is a placeholder beside a shown price
    if shown is None or not 0 < shown < given:
        return None
    old = old_price_text(view, anchor, float(shown))
    before = parse_money(old, values.get("currency"), view.words).amount if old else None
    return found.text if before is not None and abs(before - given) < 0.005 else None
