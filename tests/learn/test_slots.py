"""How learn.slots cuts records into slots and reads their values, on hand-built records
with known answers: keys by tag and class path (digits, state tokens and BEM modifiers
blanked), repeats as ``#2``, tag-only keys where classes vary, the value views, records of
several siblings, pruning, and slots found by their visible labels."""

from __future__ import annotations

from lxml.html import HtmlElement

from structurer.clean import parse_html
from structurer.learn.slots import Slot, collect_slots, label_slots


def body(html: str) -> HtmlElement:
    return parse_html(f"<html><body>{html}</body></html>", "http://shop.test/").find("body")


CARDS = body(
    '<ul>'
    '<li class="item-3 odd"><a href="/p/1" title="One">'
    '<img data-src="/i/1.jpg" src="data:image/gif;base64,R0lGOD" alt="One pic"></a>'
    '<h3>One <small>new</small></h3><span class="price">$1</span>'
    '<span class="price">$2</span><span class="stock stock--in" data-sku="A1">In stock</span>'
    '</li>'
    '<li class="item-7 even"><a href="#"><img src="/i/2.jpg"></a><h3>Two</h3>'
    '<span class="price sale">$3</span><span class="stock stock--out">Sold</span></li>'
    '</ul>')
RECORDS = [[li] for li in CARDS.iter("li")]


def tags(slot: Slot) -> list[str | None]:
    return [None if e is None else str(e.tag) for e in slot.elements]


def by_key(slots: list[Slot]) -> dict[str, Slot]:
    return {s.key: s for s in slots}


def test_records_are_cut_into_slots_by_tag_and_class_path() -> None:
    """item-3 ~ item-7 (digits), odd ~ even (state), stock--in ~ stock--out (a BEM
    modifier); a second price in one card is slot ``#2``; the sale price, styled
    differently, is a slot of its own and, by tag path alone, shares ``~…/span`` with
    the first card's price."""
    slots = by_key(collect_slots(RECORDS))
    assert {k: tags(s) for k, s in slots.items()} == {
        "0:li.item-0": ["li", "li"],
        "0:li.item-0/a": ["a", "a"],
        "0:li.item-0/a/img": ["img", "img"],
        "0:li.item-0/h3": ["h3", "h3"],
        "0:li.item-0/h3/small": ["small", None],
        "0:li.item-0/span.price": ["span", None],
        "0:li.item-0/span.price#2": ["span", None],
        "0:li.item-0/span.stock": ["span", "span"],
        "0:li.item-0/span.price.sale": [None, "span"],
        # tag-path keys, only where they group other elements than a class-path key
        "~0:li/span": ["span", "span"],
        "~0:li/span#2": ["span", "span"],
        "~0:li/span#3": ["span", None],
    }
    assert slots["~0:li/span"].values("text") == ["$1", "$3"]
    assert slots["~0:li/span#2"].values("text") == ["$2", "Sold"]
    assert slots["0:li.item-0/span.stock"].elements == [
        li.find("span[@data-sku]") if i == 0 else li.findall("span")[-1]
        for i, li in enumerate(CARDS.iter("li"))]


def test_the_value_views_of_a_slot() -> None:
    slots = by_key(collect_slots(RECORDS))
    assert slots["0:li.item-0/a"].views == {"@href": ["/p/1", None],      # "#" is no link
                                            "@title": ["One", None]}
    # the lazy-loaded picture, not its placeholder (the replay's image rule); data-src
    # is read through @src, never as a view of its own
    assert slots["0:li.item-0/a/img"].views == {"@src": ["/i/1.jpg", "/i/2.jpg"],
                                                "@alt": ["One pic", None]}
    # "own" only where the element's own text differs from all its text
    assert slots["0:li.item-0/h3"].views == {"text": ["One new", "Two"], "own": ["One", None]}
    assert slots["0:li.item-0/span.stock"].views == {"text": ["In stock", "Sold"],
                                                     "@data-sku": ["A1", None]}


def test_value_attributes_and_long_data() -> None:
    record = body('<div><span itemprop="ratingValue" content=" 4.5 "></span><time datetime="2024-01-02">Jan 2</time>'
                  f'<input value="7"><b data-long="{"x" * 120}" data-id="9">b</b></div>')
    slots = by_key(collect_slots([[record[0]]], tag_keys=False))
    assert slots["0:div/span"].views == {"@content": ["4.5"]}                # stripped
    assert slots["0:div/time"].views == {"text": ["Jan 2"], "@datetime": ["2024-01-02"]}
    assert slots["0:div/input"].views == {"@value": ["7"]}
    assert slots["0:div/b"].views == {"text": ["b"], "@data-id": ["9"]}      # no data-long
    other = body('<p class="--dark lead" title=" ">Same<br></p>')[0]
    assert by_key(collect_slots([[other]], tag_keys=False))["0:p.lead"].views == {
        "text": ["Same"]}                # no "own" equal to the text, no blank title


def test_digits_and_tag_keys_can_be_kept_apart() -> None:
    """Detail pages compare one page's body with another's: there item-3 and item-7 are
    different places, and there are no tag-only keys."""
    slots = by_key(collect_slots(RECORDS, tag_keys=False, digits=False))
    assert not any(k.startswith("~") for k in slots)
    assert tags(slots["0:li.item-3"]) == ["li", None]
    assert tags(slots["0:li.item-7"]) == [None, "li"]
    assert tags(slots["0:li.item-7/span.stock"]) == [None, "span"]


def test_records_of_several_siblings() -> None:
    """A record spanning a dt and its dd: members are numbered, each has its own slots."""
    dl = body("<dl><dt><a href='/p/1'>One</a></dt><dd>$1</dd>"
              "<dt><a href='/p/2'>Two</a></dt><dd>$2</dd></dl>")[0]
    records = [dl[0:2], dl[2:4]]
    slots = by_key(collect_slots(records, tag_keys=False))
    assert sorted(slots) == ["0:dt", "0:dt/a", "1:dd"]
    assert slots["0:dt/a"].values("@href") == ["/p/1", "/p/2"]
    assert slots["1:dd"].values("text") == ["$1", "$2"]


def test_skipped_subtrees_depth_and_noise() -> None:
    record = body('<div class="card"><h3>A</h3><div class="ads"><b>Buy</b></div>'
                  '<script>x()</script><p><i><u>deep</u></i></p></div>')[0]
    slots = by_key(collect_slots([[record]], skip=lambda el: el.get("class") == "ads",
                                 tag_keys=False))
    assert sorted(slots) == ["0:div.card", "0:div.card/h3", "0:div.card/p", "0:div.card/p/i",
                             "0:div.card/p/i/u"]
    shallow = by_key(collect_slots([[record]], max_depth=1, tag_keys=False))
    assert sorted(shallow) == ["0:div.card", "0:div.card/div.ads", "0:div.card/h3",
                               "0:div.card/p"]


def test_slot_presence_samples_and_depth() -> None:
    slots = by_key(collect_slots(RECORDS))
    price = slots["0:li.item-0/span.price"]
    assert price.presence == 0.5 and slots["0:li.item-0/a"].presence == 1.0
    assert price.values("@href") == [None, None]                 # a view it never had
    assert slots["0:li.item-0/a/img"].depth == 2 and slots["0:li.item-0"].depth == 0
    many = Slot("k", [None] * 5, {"text": ["aaaa", None, "aaaa", "bbbb", "cccc"]})
    assert many.samples("text") == ["aaaa", "bbbb", "cccc"]     # distinct, in order
    assert many.samples("text", n=2, width=2) == ["aa", "bb"]
    assert Slot("e", []).presence == 0.0


def test_label_slots_read_the_value_after_a_label() -> None:
    pages = [body(f"<p><b>ISBN-13:</b> 978-{i}\nPages: 300<b>ISBN-13:</b> 0</p>"
                  f"<dl><dt>SKU</dt><dd>BK-{i}</dd></dl>"
                  f"<span>Colour</span> red<div><b>Note:</b><i>a</i><i>b</i></div>")
             for i in range(3)]
    slots = by_key(label_slots([[p] for p in pages]))
    # "Colour" has no colon and is no dt/th; a label followed by another tag right away
    # takes that tag's text ("next"), so Note: reads "a"
    assert sorted(slots) == ["label:b:ISBN-13::tail", "label:b:Note::next",
                             "label:dt:SKU:next"]
    isbn = slots["label:b:ISBN-13::tail"]
    assert isbn.label == ("b", "ISBN-13:", "tail") and isbn.depth == 1
    assert isbn.values("text") == ["978-0", "978-1", "978-2"]     # the first, its first line
    assert [el.tag for el in isbn.elements if el is not None] == ["b", "b", "b"]
    assert slots["label:dt:SKU:next"].values("text") == ["BK-0", "BK-1", "BK-2"]
    assert slots["label:b:Note::next"].values("text") == ["a", "a", "a"]


def test_label_slots_skip_long_texts_and_skipped_places() -> None:
    long_label = "x" * 40 + ":"
    pages = [body(f"<header><b>Search:</b> all</header><b>{long_label}</b> 1"
                  f"<th>Weight</th><td>{'9' * 301}</td><b>Size:</b> M"
                  "<span><i>Fit</i><i>:</i></span> slim") for _ in range(2)]
    skip = {el for p in pages for h in p.iter("header") for el in h.iter()}
    slots = by_key(label_slots([[p] for p in pages], skip=skip.__contains__))
    assert sorted(slots) == ["label:b:Size::tail"]
    assert slots["label:b:Size::tail"].values("text") == ["M", "M"]
