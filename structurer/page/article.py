"""The main text of an article page, whole and without the site's boilerplate.

Input: an lxml HTML tree and the lexicon (its ``signals``: ``boilerplate`` class/id
words, ``article_body`` words that clear them, ``boilerplate_headings`` that open a
comment thread or a side list, ``boilerplate_text`` lines such as sharing prompts and
consent notices, ``consent_text`` that opens a consent paragraph). Output:
:class:`~structurer.page.density.ContentFound` — the element holding the article and
its text, one line per paragraph, heading, list item or cell.

Three steps, each what the best extractors do on top of text density:

1. *Boilerplate out*, in two passes over a cleaned copy. Sure boilerplate wherever it
   stands: hidden blocks and dialogs (consent layers), strong class/id words (cookie,
   consent, comments, newsletter, author-bio: weight 15 or more), blocks opened by a
   boilerplate heading ("Leave a reply", "Ähnliche Beiträge"; such a heading among the
   article's paragraphs ends the article), paragraphs opening a consent notice ("Wir
   verwenden Cookies, ..."), and the box around a form (signup, search, comment form);
   ruby readings (``<rt>``) are not text either. Then likely boilerplate — noise tags
   (nav, aside, footer, form ...), weaker class/id words (share, sidebar, related,
   byline, caption) without an ``article_body`` word beside them, noise headings —
   unless the block holds the title's heading or most of the page's paragraph text, or
   (no noise tag, no noise heading) ``headline_block`` characters of paragraphs and most
   of those of the container it shares with the headline: themes call the article's own
   wrappers "share", "widget", "sidebar-and-content" or "tab-menu"; nor a "teaser" just
   after the headline saying the page's description (the standfirst), a heading, a
   ``<header>`` holding posts (left unclosed) or a gallery's captions (paragraphs or
   sentences under its pictures: its text). (The verdicts on each block:
   :mod:`structurer.page.boilerplate`.)
2. *Seed, core, whole article.* The element of highest text density (the seed, often
   one paragraph or list item) votes for its ancestors; the core is the element with the
   most paragraph weight (Readability's score: a paragraph of 25 characters or more —
   a leaf block, or the loose text of a container written with ``<br>`` — gives
   ``1 + commas + min(chars / 100, 3)``, times its share outside links, to its parent,
   half to its grandparent and ``1 / (3 * level)`` up to five levels, lists passed
   through), times its own share outside links, doubled on the seed's chain and doubled
   inside the headline's containers (``headline_levels`` above it). The core
   widens to an ancestor while each step adds paragraphs and what it adds stays mostly
   paragraphs (the lexicon's ``article_slack`` characters of headline, byline and
   captions aside: loose words above the core, not links): the article's other
   sections, lists and quotes; it must hold the text the page's structured data tells
   (``told_text``: :mod:`structurer.page.told`). What follows the core inside that
   container and is not mostly paragraphs (``tail_paragraphs``: a share bar, a tag box,
   a contact card, teasers) is left out. A page that sets each section in a wrapper of
   its own beside the page's header and footer (tables between) gives the container's
   wrapper siblings of its tag and class that are mostly paragraphs: they are read too
   (:func:`~structurer.page.articlebox.sibling_sections`).
3. *Lines.* The text is cut at block elements; left out: lines mostly made of links
   ("Also read: ...", a tag list; unless links are most of the article, a link post),
   short boilerplate lines (sharing prompts, consent notices, "Posted by", "please
   enable JavaScript"), lines that are a date or a time (not an event's labelled date),
   a closing list of other stories (linked headlines and their excerpts), figures around
   pictures and captions (:mod:`blocktext`), and the short lines above the headline (a kicker, a
   date, a site's notice) unless one of them is a paragraph (``above_headline``
   characters: then the heading is no headline); a heading whose section keeps no line;
   at the end, a heading, a short line ending in a colon, a line of ``loose_end``
   characters that ends no sentence and is no list item (a box's label, a name; not a
   sign-off such as "Euer Hans"), or a short line with an e-mail address or a phone
   number (a press contact): :mod:`articlelines`. When the
   article's container does not hold the headline, the sentences between the two (a
   standfirst in the headline's ``<header>``: ``lead_line``, ``lead_most``) lead the
   text; a heading inside boilerplate (a breadcrumb's ``<h1>``) is the headline only
   when no other heading states the title. The text is in Unicode's composed form (NFC).

(:func:`~structurer.page.articlelines.site_lines` finds the lines several articles of
one site repeat: its own text.)
Pure functions: the input tree is never modified (the work is done on a copy).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from lxml import etree
from lxml.html import HtmlElement

from structurer.clean import clean_tree, drop_elements
from structurer.lexicon import Lexicon
from structurer.page import density, titles
from structurer.page.articlebox import sibling_sections, tail_blocks, widened, with_items
from structurer.page.articlelines import SENTENCE_ENDS, article_lines
from structurer.page.blocktext import Walk, stamp
from structurer.page.boilerplate import (
    BoilerplateWords,
    consent,
    cut_at_boilerplate_headings,
    descriptions,
    form_boxes,
    kept_as_text,
    likely_boilerplate,
    surely_boilerplate,
)
from structurer.page.dom import HEADING_TAGS
from structurer.page.told import probes as told_probes
from structurer.page.told import reconciled, told_element

_PARAGRAPHS = frozenset({"p", "pre", "blockquote", "li", "dd", "td", "dt"})
_CONTAINERS = ("div", "section", "article", "main", "td", "blockquote", "li", "dd", "center")
_LISTS = frozenset({"ul", "ol", "dl", "tbody", "thead", "tfoot", "tr"})
_COMMAS = re.compile(r"[,，、،]")
_CAPTION = 50    # characters of a gallery's caption written as a sentence of its own


def pruned(tree: HtmlElement, vocab: BoilerplateWords, min_text: int, least: int = 1000,
           title: str | None = None) -> tuple[HtmlElement, HtmlElement | None]:
    """The body of a cleaned copy of the page without its boilerplate: sure boilerplate
    first, then noise tags and likely boilerplate unless they hold the article — the
    title's heading, or most of the page's paragraphs (a wrapper that themes name
    "widget", "share" or "sidebar-and-content" can hold the whole article)."""
    root = clean_tree(tree)
    etree.strip_elements(root, "rt", "rp", with_tail=False)   # ruby readings: 子(こ)ども
    body = root.find(".//body")
    start = body if body is not None else root
    anchor = titles.title_element(root, title, lambda h: _in_boilerplate(h, vocab))
    keep = {anchor, *anchor.iterancestors()} if anchor is not None else set()
    fixed = {start, *keep}    # a set: every element of the page is looked up in it
    drop_elements([el for el in start.iter(etree.Element) if el not in fixed
                      and (surely_boilerplate(el, vocab) or consent(el, vocab))])
    cut_at_boilerplate_headings(start, vocab)
    drop_elements(form_boxes(start, fixed))
    _, good = _paragraph_points(start, density.text_counts(start, min_text))
    limit = (0.8 if anchor is not None else 0.5) * good.get(start, 0)
    leads = descriptions(tree) if anchor is not None else frozenset()
    fixed.update(_gallery_captions(start, good))
    drop_elements([el for el in start.iter(etree.Element) if el not in fixed
                      and el.tag not in ("article", "main") and good.get(el, 0) < limit
                      and ((el.tag in density.NOISE_SECTIONS and not _unclosed_header(el, good))
                           or (el.tag not in HEADING_TAGS and likely_boilerplate(el, vocab)))
                      and not _beside_headline(el, keep, good, least)
                      and not kept_as_text(el, anchor, leads, min_text)])
    return start, anchor


def _in_boilerplate(heading: HtmlElement, vocab: BoilerplateWords) -> bool:
    """A heading inside a navigation bar, a breadcrumb, a teaser or any other boilerplate
    block: a theme's repetition of the headline, not the headline."""
    return any((el.tag in density.NOISE_SECTIONS and el.tag != "header")
               or surely_boilerplate(el, vocab) or likely_boilerplate(el, vocab)
               for el in heading.iterancestors() if el.tag not in ("body", "html"))


def _gallery_captions(start: HtmlElement, good: dict[HtmlElement, int]) -> list[HtmlElement]:
    """The captions of a gallery, which are its text: three captions or more
    (:func:`_caption_blocks`), written in paragraphs (``<figcaption><p>``) or sentences
    of their own (``_CAPTION`` characters or more), that hold half the page's paragraph
    text or more. They are read as blocks
    (renamed ``div``, or ``p`` when they hold no paragraph; their figures ``div``),
    whatever their class words ("slide-caption"); a news picture's caption is a line,
    and beside far more text."""
    captions, size = [], 0
    for c in _caption_blocks(start):
        if c.find("p") is not None:
            captions.append(c)
            size += good.get(c, 0)
        elif len(text := " ".join(c.text_content().split())) >= _CAPTION and \
                text.endswith(SENTENCE_ENDS):
            captions.append(c)
            size += len(text)
    if len(captions) < 3 or size < 0.5 * good.get(start, 0):
        return []
    for caption in captions:
        figure = caption.getparent()
        caption.tag = "div" if caption.find("p") is not None else "p"
        if figure is not None and figure.tag == "figure":
            figure.tag = "div"
    return captions


def _caption_blocks(start: HtmlElement) -> Iterator[HtmlElement]:
    """The captions of the page's pictures: its ``<figcaption>``s, and the block right
    after a picture (or the link or ``<picture>`` around it) that holds no other picture
    and no link (a slide's "caption" ``<div>``)."""
    yield from start.iter("figcaption")
    for img in start.iter("img"):
        parent = img.getparent()
        holder = parent if parent is not None and parent.tag in ("a", "picture") else img
        after = holder.getnext()
        while after is not None and not isinstance(after.tag, str):
            after = after.getnext()     # a comment between
        if after is not None and after.tag in ("div", "span") and \
                next(after.iter("img", "a", "figcaption"), None) is None:
            yield after


def _unclosed_header(el: HtmlElement, good: dict[HtmlElement, int]) -> bool:
    """A ``<header>`` around an ``<article>`` with paragraphs, or inside another header:
    markup a page left unclosed (a forum post's attribution header) that the parser let
    swallow the posts after it — the text's, not a header's."""
    return el.tag == "header" and (any(good.get(a, 0) for a in el.iterdescendants("article"))
                                   or any(a.tag == "header" for a in el.iterancestors()))


def _beside_headline(el: HtmlElement, keep: set[HtmlElement], good: dict[HtmlElement, int],
                     least: int) -> bool:
    """A block (no noise tag) of ``least`` characters of paragraphs or more that holds most
    of the paragraphs of the headline's container (the smallest one around both: a
    theme's "fixed-sidebar-layout" or "tab-menu" wrapping the article under its headline)
    is the article's, whatever its class words say. A sidebar beside a short post, an
    author box or a post's footer under it are smaller or noise tags; a comment thread
    longer than the post is opened by a noise heading."""
    own = good.get(el, 0)
    if own < least or not keep or el.tag in density.NOISE_SECTIONS or \
            density.noise_heading(el):
        return False      # a noise tag, or a thread under "18 comments"
    around = next((a for a in el.iterancestors() if a in keep), None)
    return around is not None and around.tag not in ("body", "html") \
        and own >= 0.5 * good.get(around, 0)


def article_content(tree: HtmlElement, lexicon: Lexicon, title: str | None = None,
                    told: Sequence[str] = ()) -> density.ContentFound | None:
    """The article's element and its whole text (see the module doc); ``title``: the
    page's title when the caller has it (:func:`~structurer.page.titles.title_of`);
    ``told``: the text the page's structured data tells (its ``articleBody``), which
    the container must hold (:mod:`structurer.page.told`)."""
    vocab = BoilerplateWords.of(lexicon)
    min_text = lexicon.thresholds.min_block_text
    start, anchor = pruned(tree, vocab, min_text, lexicon.thresholds.headline_block, title)
    scores, counts = density.density_scores(start, min_text)
    if not scores:
        return None
    seed = max(scores, key=lambda el: scores[el])
    points, good = _paragraph_points(start, counts)

    def weight(el: HtmlElement) -> float:
        c = counts[el]
        return points.get(el, 0.0) * (1 - c.lt / c.t if c.t else 0.0)

    # the densest element's own container, unless another holds far more paragraphs; a
    # container beside the headline counts double too (a dense legal notice far from it
    # is not the article)
    chain = [seed, *(a for a in seed.iterancestors() if a.tag not in ("body", "html"))]
    on_chain = set(chain)
    near = _headline_containers(anchor, lexicon.thresholds.headline_levels)

    def beside(el: HtmlElement) -> bool:
        return bool(near) and any(a in near for a in (el, *el.iterancestors()))

    core = max(points, key=lambda el: (weight(el) * (2.0 if el in on_chain else 1.0)
                                       * (2.0 if beside(el) else 1.0),
                                       el in on_chain), default=seed)
    if weight(core) <= 0:
        core = seed
    chain = [core, *(a for a in core.iterancestors() if a.tag not in ("body", "html"))]
    th = lexicon.thresholds
    best = widened(core, chain, counts, with_items(start, counts, good), th.article_slack,
                    (th.tail_block, th.tail_paragraphs))
    probes, size = told_probes(told, th.told_least)
    shown = told_element(start, counts, probes) if probes else None
    best = reconciled(best, shown, start, counts, size)
    if best is core or best in core.iterancestors():    # else the told text's own element
        drop_elements([el for el in tail_blocks(core, best, counts, good, th.tail_block,
                                                 th.tail_paragraphs,
                                                 anchor.tag if anchor is not None else None)
                       if shown is None or not (el is shown or el in shown.iterancestors())])
    parts = _sections(best, anchor, counts, good)
    lines, read = article_lines(best, vocab, counts[best], anchor, th.above_headline,
                          th.caption_line, th.loose_end, th.promo_lines, th.promo_resume,
                          parts)
    # composed as Unicode's canonical form (NFC): a Bengali "ড়" written as one code point
    # is the letter and its nukta, as other texts and searches write it
    lead = _standfirst(anchor, parts[0] if parts else best, vocab, th.lead_line,
                       th.lead_most, tree)
    text = unicodedata.normalize("NFC", "\n".join([*lead, *lines]))
    if not text:
        return None
    whole = unicodedata.normalize("NFC", "\n".join([*lead, *read]))
    return density.ContentFound(best, text, scores.get(best, 0.0), whole)


def _standfirst(anchor: HtmlElement | None, best: HtmlElement, vocab: BoilerplateWords,
                least: int, most: int, page: HtmlElement | None = None) -> list[str]:
    """The sentences of ``least`` characters or more between the headline and the
    article's container when that container does not hold the headline: a standfirst or
    a lead in the headline's ``<header>`` (none when they pass ``most`` characters: no
    lead; not a line of tags, a caption or a video's title, which end no sentence — unless
    the line is the ``page``'s own description: a standfirst without a full stop)."""
    if anchor is None or anchor is best:
        return []
    above = set(best.iterancestors())
    if anchor in above:
        return []
    box = anchor
    for el in anchor.iterancestors():
        if el in above or el.tag in ("body", "html"):
            break
        box = el
    common = box.getparent()
    if common is None or common not in above:
        return []
    branch = next(el for el in (best, *best.iterancestors()) if el.getparent() is common)
    if common.index(box) >= common.index(branch):
        return []     # the headline below the article: no standfirst
    walk = Walk(anchor)
    for el in common[common.index(box):common.index(branch)]:
        if isinstance(el.tag, str):
            walk.visit(el, False)
    walk.flush()
    lines = [text for text, linked, _, _ in walk.lines[walk.headline or 0:]
             if len(text) >= least and linked < 0.5 * len(text) and not stamp(text)
             and not text.lower().startswith(vocab.lines)]
    if any(not text.rstrip().endswith(SENTENCE_ENDS) for text in lines):
        leads = descriptions(page) if page is not None else frozenset()   # read when asked
        lines = [t for t in lines if t.rstrip().endswith(SENTENCE_ENDS) or t in leads]
    return lines if sum(map(len, lines)) <= most else []


def _sections(best: HtmlElement, anchor: HtmlElement | None,
              counts: dict[HtmlElement, density.Counts], good: dict[HtmlElement, int]
              ) -> list[HtmlElement]:
    """The container's wrapper and the article's other sections beside it
    (:func:`~structurer.page.articlebox.sibling_sections`), in page order; those before
    it only when the headline is not below them (inside the container's wrapper or a
    section after it: then what precedes is no part of the article)."""
    parts = sibling_sections(best, counts, good)
    if anchor is None or not parts:
        return parts
    own = next(i for i, el in enumerate(parts) if el is best or el in best.iterancestors())
    below = {*anchor.iterancestors(), anchor}
    if own and any(el in below for el in parts[own:]):
        parts = parts[own:]
    return parts if len(parts) > 1 else []


def _headline_containers(anchor: HtmlElement | None, levels: int) -> set[HtmlElement]:
    """The headline's ancestors up to ``levels`` above it (body and html aside): the
    containers an article shares with its headline."""
    out: set[HtmlElement] = set()
    for level, el in enumerate(anchor.iterancestors() if anchor is not None else (), 1):
        if level > levels or el.tag in ("body", "html"):
            break
        out.add(el)
    return out










def _paragraph_points(start: HtmlElement, counts: dict[HtmlElement, density.Counts]
                      ) -> tuple[dict[HtmlElement, float], dict[HtmlElement, int]]:
    """Readability's paragraph weight, given to each paragraph's nearest ancestors; and
    the characters of paragraph text outside links below every ancestor. A paragraph is
    a leaf block of text, or the text a container holds beside its blocks (a blog post
    written as text and ``<br>`` between a few ``<div>`` images)."""
    points: dict[HtmlElement, float] = {}
    good: dict[HtmlElement, int] = {}
    for el in start.iter(*_PARAGRAPHS, *_CONTAINERS):
        c = counts.get(el)
        if c is None:
            continue
        if c.p or (el.tag in _CONTAINERS and c.block):
            text, total, linked = _own_text(el, counts)   # a container: its loose text
        else:
            text, total, linked = "", c.t, c.lt
        own = total - linked
        if own < 25 or own < linked:
            continue
        text = text or el.text_content()
        value = (1 + len(_COMMAS.findall(text)) + min(own / 100, 3)) * own / total
        good[el] = good.get(el, 0) + own
        level = 0
        for parent in el.iterancestors():
            good[parent] = good.get(parent, 0) + own
            if parent is start:
                break
            if level >= 5 or parent.tag in _LISTS:
                continue     # a list is part of the text around it, not a container
            points[parent] = points.get(parent, 0.0) + value / (
                1 if level == 0 else 2 if level == 1 else 3 * level)
            level += 1
    return points, good


def _own_text(el: HtmlElement, counts: dict[HtmlElement, density.Counts]
              ) -> tuple[str, int, int]:
    """The text of ``el`` outside its block children: (text, characters, link characters)."""
    parts = [el.text or ""]
    linked = 0
    for child in el:
        if isinstance(child.tag, str) and child.tag in density.INLINE and child in counts:
            parts.append(child.text_content())
            linked += counts[child].lt if child.tag != "a" else counts[child].t
        parts.append(child.tail or "")
    text = "".join(parts)
    return text, len("".join(text.split())), linked

