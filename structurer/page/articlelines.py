"""The lines of an article's text: which lines of its container a reader would call the
article (the line filter of :mod:`structurer.page.article`).

Input: the article's container (a cleaned copy), the lexicon's boilerplate words
(:class:`~structurer.page.boilerplate.BoilerplateWords`) and the headline's element.
Output: the text, one line per paragraph, heading, list item or cell. Left out: lines
mostly made of links (unless links are most of the text: a link post), a teaser of
another page (a line ending in a "read more" link: ``teaser_end``), short
boilerplate lines (sharing prompts, "Posted by"), a reading time ("4 Min Read":
``reading_time``), a site's notice (``notice_text``:
asking the reader to switch on JavaScript, reserving rights), a bar of fields between
" | " (a post's meta line, a footer's links), lines that are a date or a time (not an
event's labelled date: ``event_date_labels``), a list of the site's other stories closing
the text (linked headlines over their excerpts), short
captions naming a picture's credit, the short lines above the headline (a kicker, a
date) unless one of them is a paragraph, a promotion among the last lines (with what
follows it), a heading whose section keeps no line (the heading of a list of links the
filter left out) and, at the end, a heading, a short line ending in a colon, a line of
``loose_end`` characters that ends no sentence and is no list item (a box's label) —
unless it signs the text off ("Euer Hans", "xx, die Redaktion": ``signoff_text``) — or
a short line with an e-mail address or a phone number (a press contact). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml.html import HtmlElement

from structurer.page import density
from structurer.page.blocktext import Walk, stamp
from structurer.page.boilerplate import BoilerplateWords, promo_tail

_CONTACT = re.compile(r"[\w.+-]+@[\w-]+\.[a-z]{2,}|\+\d[\d\s()/-]{7,}\d", re.I)
#: what ends a sentence: its mark, a closing quote or bracket (CJK's full-width ones too)
SENTENCE_ENDS = tuple('.!?…"“”»«)]。！？」』）】〉》')
_HEADING_MOST = 100      # characters of a heading: a longer one is a paragraph set as one
_SERIES = 3              # empty headings one after the other: a listicle's items
_BAR_MOST, _FIELD_MOST = 200, 40     # characters of a bar of fields, of each of its fields
_RANKED, _RANKED_HEADLINE = 3, 150   # numbers of a ranking of stories; its headlines' length
_STORIES, _EXCERPTS, _EXCERPT_MOST = 3, 2, 400   # a closing story list: headlines, excerpts
_CREDIT_TAIL = 40        # characters at a caption's end that hold its picture's credit
_READING = 40            # characters of a reading-time line ("4 Min Read")
_NUMBER = re.compile(r"(?:ca\.\s*)?\d+(?:[.,]\d+)?\s*")


def article_lines(el: HtmlElement, vocab: BoilerplateWords, counts: density.Counts,
                  anchor: HtmlElement | None = None, lead: int = 0, caption: int = 0,
                  loose: int = 0, promo: int = 0, resume: int = 0,
                  parts: Sequence[HtmlElement] = ()) -> tuple[list[str], list[str]]:
    """The text of ``el``, one line per block, boilerplate lines left out, and link lines
    too unless links are most of its text (a post that is a list of links); lines of
    ``caption`` characters or less naming a picture's credit (``credit_text``); and the
    short lines above the headline (``anchor``: a kicker, a date, a site's notice), unless
    one of them has ``lead`` characters or more (a paragraph: then it is no headline);
    the promotion among the last ``promo`` lines and what follows it, or its line alone
    when two sentences of ``resume`` characters follow it
    (:func:`~structurer.page.boilerplate.promo_tail`). Second, the lines below the
    headline that are not link lines, before any other filter: what the page's kind is
    judged on (a filter that tidies the text must not turn an article into a list).
    ``parts``: the article's sections in page order when ``el`` is one of several
    (:func:`~structurer.page.articlebox.sibling_sections`), read in turn."""
    walk = Walk(anchor)
    for part in parts or (el,):
        walk.visit(part, False)
        walk.flush()
    links_are_text = counts.lt >= 0.5 * counts.t
    top = walk.headline or 0
    if any(len(line[0]) >= lead for line in walk.lines[:top]):
        top = 0       # a paragraph above the heading: the heading is not the headline
    kept: list[bool] = []
    read: list[str] = []
    for i, (text, linked, _, _) in enumerate(walk.lines):
        squeezed = len("".join(text.split()))
        text_line = i >= top and not (linked >= 0.5 * squeezed and not links_are_text)
        if text_line:
            read.append(text)
        kept.append(text_line and not _boilerplate_line(text, vocab, caption)
                    and not _teaser(text, walk.ends[i], vocab))
    _story_list(walk.lines, kept)
    _headings_over_nothing(walk.lines, kept)
    out = [(text, level > 0, item)
           for (text, _, level, item), keep in zip(walk.lines, kept, strict=True) if keep]
    for i in sorted(_ranking([text for text, _, _ in out]), reverse=True):
        del out[i]
    for i in reversed(promo_tail([text for text, _, _ in out], vocab, promo, 300, resume)):
        del out[i]
    # a heading (or a short line announcing a list) that heads nothing of the text ends
    # it: the heading of a related list, tags or links the lines above left out
    while len(out) > 1 and (out[-1][1] or (len(out[-1][0]) <= 80
                                           and out[-1][0].endswith((":", "：")))
                            or (not out[-1][2] and (_loose_end(out[-1][0], loose, vocab)
                                                    or _contact(out[-1][0])))):
        out.pop()
    return [text for text, _, _ in out], read


def _story_list(lines: list[tuple[str, int, int, bool]], kept: list[bool]) -> None:
    """A list of the site's other stories closing the text ("More stories": each a linked
    headline over its excerpt): ``_STORIES`` linked headings or more, each over at most
    ``_EXCERPTS`` kept lines of ``_EXCERPT_MOST`` characters (no other heading), with
    nothing kept after the last one's excerpt and at least twice their text above the
    first. The headlines go as link lines; their excerpts go too. A listicle's linked
    headings head most of its text, or do not close it."""
    heads = [i for i, (text, linked, level, _) in enumerate(lines)
             if level and linked >= 0.9 * len("".join(text.split()))]
    if len(heads) < _STORIES:
        return
    sizes: list[int] = []       # the excerpt characters under each head, from the last up
    for head, after in zip(heads[::-1], [len(lines), *heads[:0:-1]], strict=True):
        own = [i for i in range(head + 1, after) if kept[i]]
        if any(lines[i][2] for i in own) or len(own) > _EXCERPTS or \
                any(len(lines[i][0]) > _EXCERPT_MOST for i in own):
            break     # another heading, or more than an excerpt: the list starts below
        sizes.append(sum(len(lines[i][0]) for i in own))
    for n in range(len(sizes), _STORIES - 1, -1):     # the longest closing run first
        first = heads[len(heads) - n]
        above = sum(len(lines[i][0]) for i in range(first) if kept[i])
        if above >= 2 * sum(sizes[:n]):
            for i in range(first, len(lines)):
                kept[i] = False
            return


def _ranking(lines: list[str]) -> set[int]:
    """A ranking of the site's stories ("Most read": 1, 2, 3 ... and their headlines): the
    lines of ``_RANKED`` bare numbers or more counting up from 1, with the line between
    two of them (one at most) and as many after the last, each a headline
    (``_RANKED_HEADLINE`` characters at most, ending no sentence). Numbered steps of a
    recipe are sentences, a table of contents gives a title and its pages: no ranking."""
    def headline(text: str) -> bool:
        return not text.isdigit() and len(text) <= _RANKED_HEADLINE and \
            not text.rstrip().endswith(SENTENCE_ENDS)

    out: set[int] = set()
    for start in (i for i, text in enumerate(lines) if text == "1"):
        numbers, i = [start], start + 1
        while i < len(lines) and (lines[i] == str(len(numbers) + 1) or (
                headline(lines[i]) and i - numbers[-1] <= 1)):
            if lines[i].isdigit():
                numbers.append(i)
            i += 1
        if len(numbers) < _RANKED:
            continue
        after = numbers[-1] + 1
        while after < len(lines) and after - numbers[-1] <= len(numbers) and \
                headline(lines[after]):
            after += 1
        out.update(range(start, after))
    return out


def _boilerplate_line(text: str, vocab: BoilerplateWords, caption: int) -> bool:
    """A sharing prompt, a "Posted by", a date line (not an event's labelled date), a
    picture's credit, a bar of fields, a reading time (a number and ``reading_time``),
    or a site's notice (``notice_text``: "Bitte aktiviere Javascript ...", "... Alle
    Rechte vorbehalten")."""
    low = text.lower()
    if (len(text) <= 120 and low.startswith(vocab.lines)) or (stamp(text)
                                                                and not _event_date(low, vocab)):
        return True
    if len(text) <= 300 and any(notice in low for notice in vocab.notices):
        return True
    if len(text) <= _READING and (m := _NUMBER.match(low)) and \
            low[m.end():].rstrip(" .") in vocab.reading:
        return True      # "4 Min Read", "11 minut czytania": a reading time
    return _field_bar(text) or (len(text) <= caption and any(word in low
                                                             for word in vocab.credits)) \
        or _credited(low, vocab, caption)


def _credited(low: str, vocab: BoilerplateWords, caption: int) -> bool:
    """A longer caption that ends in its picture's credit ("... Kastanien. Foto © Peter
    Steiger"): the credit among its last ``_CREDIT_TAIL`` characters, ending no sentence,
    in a line of up to three times ``caption`` characters."""
    if len(low) > 3 * caption or low.rstrip().endswith(SENTENCE_ENDS):
        return False
    tail = low[-_CREDIT_TAIL:]
    return any(word in tail for word in vocab.credits)


def _event_date(low: str, vocab: BoilerplateWords) -> bool:
    """A date line labelled as an event's time ("Termin: 29.02.2020, 19 Uhr", "Date: May
    3, 2021": ``event_date_labels``): what the text announces, not when it was posted."""
    label, colon, _ = low.partition(":")
    return bool(colon) and label.strip() in vocab.events


def _teaser(text: str, trailing: int, vocab: BoilerplateWords) -> bool:
    """A line of text ending in a link that says "read more" (``teaser_end``: "... Seht
    selbst! Weiterlesen"; ``trailing``: the link characters the line ends with): a teaser
    of another page, not the article's own text."""
    low = text.lower().rstrip(" .…»›→>")
    return any(low.endswith(end) and len(low) > len(end)
               and trailing >= len(end.replace(" ", ""))
               and not low[-len(end) - 1].isalnum() for end in vocab.teaser_ends)


def _field_bar(text: str) -> bool:
    """A bar of three fields or more between " | " that ends no sentence, one a date or
    all short: a post's meta line ("January 13, 2020 at 08:45 AM | categories: Python |
    View Comments", "Aufrufe: 1120 | Tags: ... | Rating: /0") or a footer's links
    ("IMPRESSUM | DATENSCHUTZ | COPYRIGHT ..."), not the text."""
    if len(text) > _BAR_MOST or text.count(" | ") < 2:
        return False
    fields = [f.strip() for f in text.split(" | ") if f.strip()]
    return len(fields) >= 3 and not any(f.endswith(SENTENCE_ENDS) for f in fields) and (
        any(stamp(f) for f in fields) or all(len(f) <= _FIELD_MOST for f in fields))


def _headings_over_nothing(lines: list[tuple[str, int, int, bool]], kept: list[bool]) -> None:
    """A heading of the text (``<h2>`` .. ``<h6>``) none of whose section's lines stay —
    the lines up to the next heading of its rank or higher were left out or there are
    none (a list of links under "Read more", the teasers under "Popular") — heads
    nothing: it goes too. A heading over subheadings whose sections have text stays
    ("Part 1" over "1.1"); so do a paragraph a theme sets as a heading (over
    ``_HEADING_MOST`` characters) and a series of ``_SERIES`` such headings one after the
    other (a listicle's "16. Stephen Fry", "17. Alan Cumming" over their pictures)."""
    doomed: list[int] = []
    for i in range(len(lines) - 1, -1, -1):
        level = lines[i][2]
        if not kept[i] or level < 2 or len(lines[i][0]) > _HEADING_MOST:
            continue      # not a heading, or a paragraph set as one
        end = next((j for j in range(i + 1, len(lines)) if 0 < lines[j][2] <= level),
                   len(lines))
        if not any(kept[j] for j in range(i + 1, end)):
            kept[i] = False
            doomed.append(i)
    series: list[int] = []
    for i in [*sorted(doomed), -1]:
        if series and (i < 0 or lines[i][2] != lines[series[-1]][2]
                       or any(kept[j] for j in range(series[-1] + 1, i))):
            for j in series if len(series) >= _SERIES else ():
                kept[j] = True
            series = []
        series.append(i)


def _contact(line: str) -> bool:
    """A short last line giving an e-mail address or a phone number ("Frank Grüneisen
    Tel.: +49 30 212 341-253 E-Mail: presse@..."): a press contact, not the text."""
    return len(line) <= 200 and bool(_CONTACT.search(line))


def _loose_end(line: str, most: int, vocab: BoilerplateWords) -> bool:
    """A short last line that ends no sentence ("Infos zum Reiseziel", "Permalink", a
    name, a tag): the label of a box after the article, not its last words (a list's
    last item is asked by the caller: it is the article's) — unless it signs the text
    off ("Euer Hans", "xx, die Redaktion", "Love, Anna": ``signoff_text``)."""
    if len(line) > most or line.rstrip().endswith(SENTENCE_ENDS):
        return False
    low = line.lower()
    return not any(low.startswith(word) and (len(low) == len(word)
                                             or not low[len(word)].isalnum())
                   for word in vocab.signoffs)


def site_lines(texts: Sequence[str], least: int = 2) -> set[str]:
    """Lines found in ``least`` or more of different texts: when the texts are articles of
    one site, the site's own text (a newsletter box, a standing notice, a blurb) that no
    class word gave away."""
    seen: dict[str, int] = {}
    for text in dict.fromkeys(texts):     # the same article twice is no evidence
        for line in dict.fromkeys(text.splitlines()):
            if line.strip():
                seen[line] = seen.get(line, 0) + 1
    return {line for line, n in seen.items() if n >= least}
