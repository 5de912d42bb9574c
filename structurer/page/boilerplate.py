"""Boilerplate of article pages, block by block: the lexicon's words compiled once
(:class:`BoilerplateWords`) and what each block of a page is by them.

Input: lxml elements of a cleaned copy of a page and the lexicon (its ``signals``:
``boilerplate`` class/id words, ``article_body`` words that clear them,
``boilerplate_headings`` that open a comment thread or a side list, ``boilerplate_text``
lines such as sharing prompts and consent notices, ``consent_text`` that opens a consent
paragraph, ``credit_text`` of pictures). Output: verdicts — sure boilerplate (hidden, a
dialog, a strong class/id word, opened by a boilerplate heading), likely boilerplate (a
weaker word without an article word beside it, a noise heading), a consent paragraph,
the box around a form — and the cut of an article at a boilerplate heading. How they
are weighed against the article's own text is :func:`structurer.page.article.pruned`'s.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from structurer.clean import normalize_space, short_text
from structurer.lexicon import Lexicon
from structurer.namewords import NameWords, name_tokens, value_tokens
from structurer.page import density
from structurer.page.dom import hiding_style
from structurer.page.titles import meta_contents
from structurer.words import compile_words

_SENTENCE_ENDS = tuple('.!?…"“”»«)]。！？」')


@dataclass(frozen=True, eq=False)
class BoilerplateWords:
    """The lexicon's words for an article's boilerplate (see the module doc), the class/id
    words compiled: ``strong`` those of weight ``thresholds.strong_boilerplate`` or more (a
    word that names boilerplate even beside an article word), ``weak`` the rest. Compiled
    once per lexicon and compared by identity."""
    strong: NameWords
    weak: NameWords
    body: frozenset[str]
    headings: tuple[str, ...]
    lines: tuple[str, ...]
    consent: tuple[str, ...] = ()
    sure_headings: frozenset[str] = frozenset()   # headings of weight strong_signal or more
    credits: tuple[str, ...] = ()
    promos: tuple[str, ...] = ()
    closers: frozenset[str] = frozenset()
    signoffs: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    disclaimers: tuple[str, ...] = ()
    teaser_ends: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    reading: frozenset[str] = frozenset()   # after a number: a reading time ("4 min read")
    #: class and id values read (:func:`_class_verdicts`): their verdicts' numbers
    verdicts: dict[str, int] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def consent_read(self) -> int:
        """The characters of a paragraph's opening that :func:`consent` reads: its
        longest phrase and a margin (lower case may take the next letters into account)."""
        return max(map(len, self.consent), default=0) + 16

    @classmethod
    def of(cls, lexicon: Lexicon) -> BoilerplateWords:
        return _boilerplate_words(lexicon)


_COMPILED: dict[int, tuple[Lexicon, BoilerplateWords]] = {}


def _boilerplate_words(lexicon: Lexicon) -> BoilerplateWords:
    """The lexicon's vocabulary, compiled once per lexicon object (a page at a time)."""
    known = _COMPILED.get(id(lexicon))
    if known is not None and known[0] is lexicon:
        return known[1]
    if len(_COMPILED) >= 8:
        _COMPILED.clear()
    signals = lexicon.signals
    words, strong = signals.get("boilerplate", {}), lexicon.thresholds.strong_boilerplate
    partly = "boilerplate" in compile_words(lexicon.vocabulary).partial_words
    vocab = BoilerplateWords(NameWords((w for w, v in words.items() if v >= strong),
                                       partial=partly),
                       NameWords((w for w, v in words.items() if 0 < v < strong),
                                 partial=partly),
                       frozenset(k.lower() for k in signals.get("article_body", {})),
                       tuple(k.lower() for k in signals.get("boilerplate_headings", {})),
                       tuple(k.lower() for k in signals.get("boilerplate_text", {})),
                       tuple(k.lower() for k in signals.get("consent_text", {})),
                       frozenset(k.lower() for k, v in signals.get("boilerplate_headings",
                                                                   {}).items()
                                 if v >= lexicon.thresholds.strong_signal),
                       tuple(k.lower() for k in signals.get("credit_text", {})),
                       tuple(k.lower() for k in signals.get("promo_text", {})),
                       frozenset(k.lower() for k in signals.get("closing_lines", {})),
                       tuple(k.lower() for k in signals.get("signoff_text", {})),
                       tuple(k.lower() for k in signals.get("notice_text", {})),
                       tuple(k.lower() for k in signals.get("disclaimer_text", {})),
                       tuple(k.lower() for k in signals.get("teaser_end", {})),
                       tuple(k.lower() for k in signals.get("event_date_labels", {})),
                       frozenset(k.lower() for k in signals.get("reading_time", {})))
    _COMPILED[id(lexicon)] = (lexicon, vocab)
    return vocab


def attribute_tokens(el: HtmlElement) -> tuple[str, ...]:
    """The words of an element's class and id ("commentList" -> comment, list)."""
    return name_tokens(f"{el.get('class') or ''} {el.get('id') or ''}")


def _class_words(el: HtmlElement, vocab: BoilerplateWords) -> tuple[bool, bool]:
    """(a strong boilerplate word, a weaker one without an article word beside it) among
    the words of the element's class and id (:mod:`structurer.namewords`: a word
    names whole tokens, or its stem a longer one: "cookie" names ``cookieBanner``,
    ``cookie-bar``; "share" names ``sharedaddy``); read once per class and id (a page
    repeats a few hundred of them over thousands of elements)."""
    cls, ident = el.get("class"), el.get("id")
    if cls is None and ident is None:
        return False, False
    return _class_verdicts(vocab, f"{cls or ''} {ident or ''}")


def _class_verdicts(vocab: BoilerplateWords, raw: str) -> tuple[bool, bool]:
    """:func:`_class_words` of a class and id joined by a space (``raw``), read once per
    vocabulary and value: kept as a number in a plain dict (:attr:`BoilerplateWords.
    verdicts`), which the garbage collector never walks, unlike a cache of tuples that
    every page grows by the values only it has (``post-16992``, ``menu-item-1234``)."""
    known = vocab.verdicts.get(raw)
    if known is None:
        if len(vocab.verdicts) >= _VERDICTS_KEPT:
            vocab.verdicts.clear()
        strong, weak = _read_class(vocab, raw)
        known = vocab.verdicts[raw] = 2 * strong + weak
    return _VERDICTS[known]


#: the verdicts (strong, weak) by their number in :attr:`BoilerplateWords.verdicts`
_VERDICTS = ((False, False), (False, True), (True, False), (True, True))

#: class values whose verdicts a vocabulary keeps (then it reads them afresh)
_VERDICTS_KEPT = 1 << 15


def _read_class(vocab: BoilerplateWords, raw: str) -> tuple[bool, bool]:
    """:func:`_class_verdicts` read afresh."""
    tokens = value_tokens(raw)
    strong, weak = vocab.strong.finds(tokens), vocab.weak.finds(tokens)
    if not weak or not vocab.body.intersection(tokens):
        return strong, weak     # no article word beside the weak one
    covered = {i for f in vocab.weak.read(tokens) for i in range(f.start, f.end)}
    return strong, not vocab.body.intersection(
        t for i, t in enumerate(tokens) if i not in covered)


def surely_boilerplate(el: HtmlElement, vocab: BoilerplateWords) -> bool:
    """Boilerplate wherever it stands and however much text it holds: hidden (as
    :func:`~structurer.page.dom.hidden` reads it), a dialog, a strong class/id word
    (cookie, consent, comments, newsletter ...), or a block opened by a boilerplate
    heading. Asked of every element of a page: its attributes are read in one call
    (each ``get`` costs about as much)."""
    cls = ident = None
    for name, value in el.items():
        if name == "class":
            cls = value
        elif name == "id":
            ident = value
        elif name == "hidden" or (name == "style" and hiding_style(value)) or \
                (name == "role" and value in ("dialog", "alertdialog")) or \
                (name == "aria-modal" and value == "true"):
            return True
    if (cls is not None or ident is not None) and \
            _class_verdicts(vocab, f"{cls or ''} {ident or ''}")[0]:
        return True
    return _opened_by_boilerplate(el, vocab)


def likely_boilerplate(el: HtmlElement, vocab: BoilerplateWords) -> bool:
    """Boilerplate unless it holds the article: a weaker class/id word (share, sidebar,
    related: words themes also give the article's wrappers) and no article word beside
    it, or a block under a noise heading (:func:`density.noise_heading`)."""
    if _class_words(el, vocab)[1]:
        return True   # an article word inside the boilerplate word clears nothing: entry-meta
    return density.noise_heading(el)


def _opened_by_boilerplate(el: HtmlElement, vocab: BoilerplateWords) -> bool:
    """A block whose first child is a heading such as "Leave a reply" or "Related posts"."""
    if not vocab.headings or el.tag not in ("div", "section", "ul", "ol", "dl", "aside") \
            or len(el) < 2:
        return False
    head = el[0]
    if not isinstance(head.tag, str) or head.tag not in ("h2", "h3", "h4", "h5", "h6"):
        return False
    text = (short_text(head, 60) or "").lower()
    return 0 < len(text) <= 60 and _opens_with(text, vocab.headings)


def _opens_with(text: str, phrases: tuple[str, ...]) -> bool:
    """``text`` starts with one of ``phrases`` as whole words ("About us", not "About
    using"; "Newsletter-Anmeldung", not "Newsletters of the week")."""
    return text.startswith(phrases) and any(
        text.startswith(p) and (len(text) == len(p) or not text[len(p)].isalnum()
                                or not p[-1].isalnum())
        for p in phrases)


def consent(el: HtmlElement, vocab: BoilerplateWords) -> bool:
    """A paragraph opening a consent notice ("We use cookies to ..."), however long (its
    opening read: the whitespace-normalized start of a text begins the normalized text);
    its opening words may be set bold ("<p><b>We use cookies</b> to ...")."""
    if not vocab.consent or el.tag not in ("p", "div", "span"):
        return False
    text = el.text or ""
    if el.tag == "p" and not text.strip() and len(el) and isinstance(el[0].tag, str) \
            and el[0].tag in density.INLINE:
        text = f"{el[0].text_content()}{el[0].tail or ''}"   # the bold opening words
    read = 4 * vocab.consent_read
    opening = normalize_space(text[:read])
    if len(opening) < vocab.consent_read and len(text) > read:
        opening = normalize_space(text)   # long runs of spaces in its opening
    return opening.lower().startswith(vocab.consent)


def cut_at_boilerplate_headings(start: HtmlElement, vocab: BoilerplateWords) -> None:
    """A heading such as "Leave a reply" or "Related posts" among the article's own
    paragraphs ends the article: it and what follows it in its parent are removed (up to
    the article's own prose going on after a box of links, :func:`_box_after`); so does
    a paragraph that is all such a heading ("<p><b>About the author</b></p>")."""
    if not vocab.headings:
        return
    doomed = []
    for heading in start.iter("h2", "h3", "h4", "h5", "h6", "p", "div"):
        text = (short_text(heading, 60) or "").lower()
        if not 0 < len(text) <= 60:
            continue
        if heading.tag in ("p", "div"):   # a paragraph set bold as a heading: all of it
            if text.rstrip(" :") in vocab.sure_headings and all(
                    isinstance(d.tag, str) and d.tag in density.INLINE
                    for d in heading.iterdescendants()):
                doomed.append(heading)
        elif _opens_with(text, vocab.headings):
            doomed.append(heading)
    for heading in doomed:
        parent = heading.getparent()
        if parent is None or parent is start:
            continue
        for el in [heading, *_box_after(heading)]:
            parent.remove(el)


#: characters of unlinked text that make a paragraph the article's own prose
_PROSE = 150


def _box_after(heading: HtmlElement) -> list[HtmlElement]:
    """What a boilerplate heading opens among its siblings: all that follows it, but for
    a box of links set between the article's paragraphs (a "read also" list, a "See also"
    list of links): after it the article goes on where a paragraph of its prose follows
    (:data:`_PROSE` characters outside links) and, with what comes after, three times
    as much (one paragraph after a box is a promotion or the author's card as often)."""
    siblings = [el for el in heading.itersiblings() if isinstance(el.tag, str)]
    if not siblings or not _linked(siblings[0]):
        return siblings
    rests = [_unlinked(el) for el in siblings]
    for at, el in enumerate(siblings):
        if at and not _linked(el) and sum(rests[at:]) >= 3 * _PROSE and any(
                _unlinked(p) >= _PROSE for rest in siblings[at:] for p in rest.iter("p")):
            return siblings[:at]
    return siblings


def _linked(el: HtmlElement) -> bool:
    """Mostly the text of links, or a list each of whose items links somewhere (a box of
    other stories' titles, a list of further reading)."""
    items = [li for li in el if isinstance(li.tag, str)] if el.tag in ("ul", "ol") else []
    if items and all(li.xpath(".//a[@href]") for li in items):
        return True
    text = len(el.text_content().strip())
    return text > 0 and 2 * (text - _unlinked(el)) >= text


def _unlinked(el: HtmlElement) -> int:
    """Characters of an element's text outside its links."""
    return len(el.text_content().strip()) - sum(len(a.text_content().strip())
                                                for a in el.iter("a"))


def descriptions(tree: HtmlElement) -> frozenset[str]:
    """The page's own summary of its article (meta description, og: and twitter:
    description), whitespace-normalized."""
    return frozenset(text for _, text in meta_contents(
        tree, ("description", "og:description", "twitter:description")))


def kept_as_text(el: HtmlElement, anchor: HtmlElement | None, leads: frozenset[str],
                 least: int) -> bool:
    """The article's own text whatever its class words say: the standfirst after the
    headline, or words inside a sentence."""
    return _in_sentence(el, least) or _lead_block(el, anchor, leads)


def _lead_block(el: HtmlElement, anchor: HtmlElement | None, leads: frozenset[str]) -> bool:
    """The article's standfirst in a block themes name "teaser" or "intro-box": among the
    three blocks after the headline (``anchor``) or a wrapper of it, and marked as the
    article's ``description`` (microdata) or saying the page's own summary
    (:func:`descriptions`) — not the same summary in a list of the site's latest stories
    further down."""
    if anchor is None or el.tag in density.NOISE_SECTIONS:
        return False
    before = [b for b in el.itersiblings(preceding=True) if isinstance(b.tag, str)][:3]
    if not any(b is anchor or anchor in b.iterdescendants() for b in before):
        return False      # a picture or a date may stand between headline and lead
    return el.get("itemprop") == "description" or \
        normalize_space(el.text_content()) in leads


def _in_sentence(el: HtmlElement, least: int) -> bool:
    """An inline element a paragraph's sentence goes on after (``least`` characters of
    text follow it): a dateline ("<span class='dateline'>KOBE –</span> A total of ..."),
    words of the text whatever their class says."""
    return el.tag in density.INLINE and len("".join((el.tail or "").split())) >= least


def form_boxes(start: HtmlElement, fixed: Collection[HtmlElement]) -> list[HtmlElement]:
    """The box around each form of the page (the largest block above it of at most 300
    characters, holding no list or table of its own): a newsletter signup, a search, a
    comment form — never the article, nor a recipe's list of ingredients around the form
    that scales its servings."""
    boxes = []
    for form in start.iter("form"):
        box = None
        inside = _items(form)
        for el in (form, *form.iterancestors()):
            if el in fixed or len("".join(el.text_content().split())) > 300 or \
                    _items(el) - inside >= 3:
                break
            box = el
        if box is not None:
            boxes.append(box)
    return boxes


def _items(el: HtmlElement) -> int:
    """The list items and table rows below ``el``."""
    return sum(1 for _ in el.iter("li", "tr", "dt"))


def promo_tail(lines: list[str], vocab: BoilerplateWords, last: int, most: int,
               resume: int = 0) -> list[int]:
    """The lines of a promotion closing an article: from the first of its ``last`` lines
    of ``most`` characters or less holding a ``promo_text`` phrase ("Subscribe now for the
    full story", "Síguenos en Telegram", "Melde dich für unseren Newsletter an") or saying
    a ``closing_lines`` label and nothing else ("Autor", "About the author") to the end —
    it and what follows it (a paywall's pitch, the site's other stories, an author's bio)
    are not the article; so is a line of any length holding a ``disclaimer_text`` phrase
    (the site's disclaimer, an affiliate notice). A promotion followed by two sentences
    of ``resume`` characters or more is a notice inside the article ("[... im kostenlosen
    Newsletter ...]"), whose text goes on: only its line goes. The first line is never
    cut."""
    notices: list[int] = []
    for i in range(max(len(lines) - last, 1), len(lines)):
        low = lines[i].lower()
        if (len(low) <= most and any(_word_at(low, p) for p in vocab.promos)) or \
                low.strip(" :：").strip() in vocab.closers or \
                any(_word_at(low, d) for d in vocab.disclaimers):
            if resume and sum(len(line) >= resume and line.rstrip().endswith(_SENTENCE_ENDS)
                              for line in lines[i + 1:]) >= 2:
                notices.append(i)
                continue
            return [*notices, *range(i, len(lines))]
    return notices


def _word_at(text: str, phrase: str) -> bool:
    """``phrase`` in ``text`` starting a word ("our app" is not in "your application";
    "subscribe" is in "subscribers")."""
    start = text.find(phrase)
    while start >= 0:
        if start == 0 or not text[start - 1].isalnum():
            return True
        start = text.find(phrase, start + 1)
    return False
