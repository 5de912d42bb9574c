"""Whether a vocabulary word names an element: the one reading of class, id and other
attribute words, for the lexicon's field words (:mod:`structurer.page.match`), the
vocabulary's class lists (another sum beside the price, noise blocks, an article's
boilerplate).

Input: an attribute's value and a list of words. Output: the words found in it, each
with the run of the value's tokens it covers and whether it covers them whole.

A value is split into tokens at everything but letters and digits and inside camelCase
(``productPrice`` -> product, price; ``old_price``, ``old-price``). A word (``mini-cart``,
``add to cart``, ``price``) names a value when its letters are a run of whole tokens
(``mini_cart``, ``miniCart``, ``minicart``; ``add-to-cart`` for ``addtocart``), never
letters inside a token ("old" is no part of ``fw-bold``, "ship" none of
``relationship``, "title" none of ``subtitle``). Where the lexicon allows it (its
``partial_ratio`` of a field's words; for the vocabulary's class-word lists and the
signals, its ``vocabulary.partial_words``: :func:`class_words`, :func:`signal_words`), a
partial match is the word's last four letters or more going on into a longer token, as a
stem does (``ship`` -> ``shipping``, ``cookie`` -> ``cookiebanner``, ``instal`` ->
``installments``), or the word as one of the known parts a token is run together from
(``productprice``, ``oldprice``: the lexicon's words of three letters or more). Pure.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from structurer.lexicon import Lexicon
    from structurer.words import Words

__all__ = ["Found", "NameWords", "class_words", "name_tokens", "name_words", "signal_words",
           "value_tokens"]

#: letters a word's part inside a longer token needs to count (shorter ones, "old",
#: "ad", "cur", begin too many unrelated words)
PARTIAL_LETTERS = 4

#: letters of each known part a token run together is split into ("old" of ``oldprice``)
COMPOUND_LETTERS = 3

#: what a token says alone: a word is found inside it; a run of tokens beginning with it
#: may go on into the next one (it begins a word)
_INSIDE, _GOES_ON = 1, 2

#: tokens whose flags a list keeps (then it reads them afresh)
_SAID_MOST = 1 << 16

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SPLIT = re.compile(r"[\W_]+")


def value_tokens(value: str) -> tuple[str, ...]:
    """The lower-case tokens of an attribute value (camelCase, kebab-, snake-case and
    spaces split; letters of any script kept)."""
    low = value.lower()
    if low != value:     # camelCase only where a letter is upper case (most are not)
        low = _CAMEL.sub(" ", value).lower()
    return tuple(filter(None, _SPLIT.split(low)))


@functools.lru_cache(maxsize=1 << 14)
def name_tokens(value: str) -> tuple[str, ...]:
    """:func:`value_tokens`, kept per value (for callers that do not keep what they read
    of a value themselves)."""
    return value_tokens(value)


@dataclass(frozen=True)
class Found:
    """A word found in a run of tokens: ``tokens[start:end]``, whole or partly."""
    word: str
    start: int
    end: int
    whole: bool


class NameWords:
    """A list of words compiled for :meth:`find` (their letters without separators);
    ``partial``: whether they name a longer token partly where a call does not say (the
    list's declaration); compared by identity, so that a cache may key on it."""

    def __init__(self, words: Iterable[str], parts: Iterable[str] = (),
                 partial: bool = True) -> None:
        self.words = tuple(dict.fromkeys(w for w in words if w))
        self.partial = partial
        self._joined: dict[str, str] = {}
        for word in self.words:
            self._joined.setdefault("".join(name_tokens(word)), word)
        self._joined.pop("", None)
        self._longest = max(map(len, self._joined), default=0)
        # the words' proper beginnings: a run of tokens that is one may go on
        self._prefixes = frozenset(w[:n] for w in self._joined for n in range(1, len(w)))
        # what a token run together may be made of: the words, their parts and the
        # caller's (the lexicon's other words: "product" of ``productprice``)
        self._parts = frozenset(self._joined) | frozenset(
            t for w in (*self.words, *parts) for t in name_tokens(w)
            if len(t) >= COMPOUND_LETTERS)
        # what each token says alone (:meth:`finds`), read once per token: whole words
        # or partly
        self._said: tuple[dict[str, int], dict[str, int]] = ({}, {})

    def __repr__(self) -> str:
        return f"NameWords({list(self.words)!r}, partial={self.partial})"

    def __len__(self) -> int:
        return len(self.words)

    def find(self, tokens: Sequence[str], partial: bool | None = None) -> tuple[Found, ...]:
        """The words found in ``tokens`` (see the module doc), by where they start;
        ``partial`` None: as the list declares."""
        return _find(self, tuple(tokens), self.partial if partial is None else partial)

    def read(self, tokens: Sequence[str], partial: bool | None = None) -> tuple[Found, ...]:
        """:meth:`find` afresh, not kept (for a caller that keeps what it makes of it)."""
        partial = self.partial if partial is None else partial
        tokens = tuple(tokens)
        return self._scan(tokens, partial) if self.finds(tokens, partial) else ()

    def finds(self, tokens: Sequence[str], partial: bool | None = None) -> bool:
        """Whether :meth:`find` finds a word in ``tokens``: most values are answered by
        what their tokens say alone (a word inside one, or none beginning at any: each
        token read once per list); the rest are scanned from the tokens a longer word
        may begin at. ``partial`` None: as the list declares."""
        partial = self.partial if partial is None else partial
        said = self._said[partial]
        starts: list[int] = []
        for at, token in enumerate(tokens):
            flags = said.get(token)
            if flags is None:
                flags = self._read(token, partial)
            if flags & _INSIDE:
                return True
            if flags & _GOES_ON:
                starts.append(at)
        if not starts:
            return False
        tokens = tuple(tokens)
        return any(next(self._runs(tokens, at, partial), None) is not None for at in starts)

    def names(self, value: str, partial: bool | None = None) -> bool:
        """Whether one of the words names ``value`` (an attribute's whole value)."""
        return bool(self.find(name_tokens(value), partial))

    def first(self, value: str, partial: bool | None = None) -> str | None:
        """The first of the words (in the list's order) naming ``value``, or None."""
        found = {f.word for f in self.find(name_tokens(value), partial)}
        return next((w for w in self.words if w in found), None)

    def _read(self, token: str, partial: bool) -> int:
        """What ``token`` says alone (:data:`_INSIDE`, :data:`_GOES_ON`), kept."""
        said = self._said[partial]
        if len(said) >= _SAID_MOST:
            said.clear()
        flags = said[token] = (_INSIDE if self._scan((token,), partial) else 0) | \
            (_GOES_ON if token in self._prefixes else 0)
        return flags

    def _scan(self, tokens: tuple[str, ...], partial: bool) -> tuple[Found, ...]:
        out: list[Found] = []
        if partial:   # a token run together from known words (productprice): each a part
            for at, token in enumerate(tokens):
                pieces = _pieces(self, token) if token not in self._joined else None
                if pieces:
                    out.extend(Found(f.word, at, at + 1, False)
                               for f in self._scan(pieces, False))
        for start in range(len(tokens)):
            out.extend(self._runs(tokens, start, partial))
        return tuple(out)

    def _runs(self, tokens: tuple[str, ...], start: int, partial: bool) -> Iterator[Found]:
        """The words found in runs of whole tokens from ``start`` on (or, partly, ending
        inside the run's last token)."""
        joined, longest, prefixes = self._joined, self._longest, self._prefixes
        run = ""
        for end in range(start, len(tokens)):
            before = len(run)
            run += tokens[end]
            word = joined.get(run)
            if word is not None:
                yield Found(word, start, end + 1, True)
            if partial:   # a word ending inside this token, a stem of 4+ letters in it
                for cut in range(before + PARTIAL_LETTERS, min(len(run), longest + 1)):
                    if run[:cut] not in prefixes and run[:cut] not in joined:
                        break
                    word = joined.get(run[:cut])
                    if word is not None:
                        yield Found(word, start, end + 1, False)
            if run not in prefixes:
                break     # no word goes on into the next token


def _pieces(words: NameWords, token: str, memo: dict[str, tuple[str, ...] | None] | None = None
            ) -> tuple[str, ...] | None:
    """``token`` as two or more known parts run together (``productprice`` -> product,
    price), the longest first part first; None where it is none ("relationship",
    "subtitle", "fwbold"). Each token is asked once per list (:meth:`NameWords._read`):
    only the rests of one token are kept (``memo``), not a cache that every page grows
    and the garbage collector walks."""
    parts = words._parts
    if len(token) < 2 * COMPOUND_LETTERS:
        return None
    for cut in range(len(token) - COMPOUND_LETTERS, COMPOUND_LETTERS - 1, -1):
        head, rest = token[:cut], token[cut:]
        if head in parts:
            if rest in parts:
                return head, rest
            memo = {} if memo is None else memo
            if rest not in memo:
                memo[rest] = _pieces(words, rest, memo)
            more = memo[rest]
            if more:
                return (head, *more)
    return None


@functools.lru_cache(maxsize=1 << 15)
def _find(words: NameWords, tokens: tuple[str, ...], partial: bool) -> tuple[Found, ...]:
    """:meth:`NameWords.find`, read once per list and value (a page repeats a few hundred
    class values over thousands of elements)."""
    return words.read(tokens, partial)


@functools.lru_cache(maxsize=256)
def name_words(words: tuple[str, ...], parts: frozenset[str] = frozenset(),
               partial: bool = True) -> NameWords:
    """The compiled :class:`NameWords` of a tuple of words (one per list) and the other
    known ``parts`` of tokens run together."""
    return NameWords(words, parts, partial)


def class_words(words: Words, key: str) -> NameWords:
    """The vocabulary's class-word list ``key`` (``rating_classes``, ``noise_classes``),
    naming longer tokens partly where its ``partial_words`` lists ``key``."""
    return name_words(words.class_lists[key], partial=key in words.partial_words)


def signal_words(lexicon: Lexicon, name: str, least: float = 0.0) -> NameWords:
    """The words of the lexicon's signal ``name`` (``add_to_cart``) weighing ``least`` or
    more, naming longer tokens partly where its vocabulary's ``partial_words`` lists
    ``name``."""
    from structurer.words import compile_words

    vocab = lexicon.signals.get(name, {})
    return name_words(tuple(w for w, v in vocab.items() if v >= least),
                      partial=name in compile_words(lexicon.vocabulary).partial_words)

