"""Regexes of a rule file's post steps, checked so that none can take very long.

Input: a pattern. Output: the pattern, or a ``ValueError`` saying why it is refused.
``re`` backtracks: a repeated group holding another repeat (``(a+)+``), alternatives in a
repeated group that start alike (``(a|ab)+``) or three repeats in a row that can match the
same text (``.*.*.*``) take exponential or high polynomial time on a value that almost
matches. Such patterns are refused when the rule file is read; the nested repeat that is
told apart by a separator its inner repeat cannot match (``(?:[.,]\\d+)*``) is fine.
Replay also reads at most :data:`structurer.replay.records.REGEX_INPUT` characters of a
value, which bounds what the patterns allowed here can cost.

Character sets are compared on a sample alphabet (ASCII, Latin-1 and a few CJK and
currency characters), which is enough to tell ``\\d`` from ``[.,]`` or ``\\s`` from ``\\S``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

_sre: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")
_SAMPLE = frozenset([*map(chr, range(0x20, 0x7f)), "\t", "\n", "\r",
                     *map(chr, range(0xa0, 0x100)), "€", "¥", "中", "价", "—", "\u3000"])
_CATEGORY: dict[Any, Callable[[str], bool]] = {
    _c.CATEGORY_DIGIT: str.isdigit, _c.CATEGORY_SPACE: str.isspace,
    _c.CATEGORY_WORD: lambda ch: ch.isalnum() or ch == "_",
}
_NOT = {_c.CATEGORY_NOT_DIGIT: _c.CATEGORY_DIGIT, _c.CATEGORY_NOT_SPACE: _c.CATEGORY_SPACE,
        _c.CATEGORY_NOT_WORD: _c.CATEGORY_WORD}
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)


def _in_set(items: list[tuple[Any, Any]]) -> frozenset[str]:
    chars: set[str] = set()
    negate = False
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            chars.add(chr(av))
        elif op is _c.RANGE:
            chars.update(ch for ch in _SAMPLE if av[0] <= ord(ch) <= av[1])
        elif op is _c.CATEGORY:
            test = _CATEGORY.get(_NOT.get(av, av))
            matched = {ch for ch in _SAMPLE if test is not None and test(ch)}
            chars.update(_SAMPLE - matched if av in _NOT else matched)
        else:
            chars.update(_SAMPLE)
    return _SAMPLE - chars if negate else frozenset(chars)


def _chars(op: Any, av: Any) -> frozenset[str] | None:
    """The sample characters a single-character item matches; None for other items."""
    if op is _c.LITERAL:
        return frozenset({chr(av)})
    if op is _c.NOT_LITERAL:
        return _SAMPLE - {chr(av)}
    if op is _c.ANY:
        return _SAMPLE - {"\n"}
    if op is _c.IN:
        return _in_set(av)
    return None


def _alphabet(seq: Any) -> frozenset[str]:
    """Every sample character an item of ``seq`` (at any depth) can match."""
    out: set[str] = set()
    for op, av in seq:
        chars = _chars(op, av)
        if chars is not None:
            out |= chars
        elif op in _REPEATS or op is _c.POSSESSIVE_REPEAT:
            out |= _alphabet(av[2])
        elif op is _c.SUBPATTERN:
            out |= _alphabet(av[3])
        elif op is _c.ATOMIC_GROUP:
            out |= _alphabet(av)
        elif op is _c.BRANCH:
            for alt in av[1]:
                out |= _alphabet(alt)
        elif op is _c.GROUPREF:
            out |= _SAMPLE
    return frozenset(out)


def _first(seq: Any) -> frozenset[str]:
    """Sample characters a match of ``seq`` can start with (all of them if it can be empty)."""
    out: set[str] = set()
    for op, av in seq:
        chars = _chars(op, av)
        if chars is not None:
            return frozenset(out | chars)
        if op in _REPEATS or op is _c.POSSESSIVE_REPEAT:
            out |= _first(av[2])
            if av[0] > 0:
                return frozenset(out)
        elif op is _c.SUBPATTERN:
            return frozenset(out | _first(av[3]))
        elif op is _c.BRANCH:
            return frozenset(out.union(*(_first(alt) for alt in av[1])))
        elif op not in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            return _SAMPLE
    return _SAMPLE


def _inner_repeats(seq: Any) -> frozenset[str] | None:
    """The alphabet of the repeats inside ``seq`` (None when it holds none); possessive
    repeats and atomic groups never backtrack and do not count."""
    found: set[str] = set()
    hit = False
    for op, av in seq:
        if op in _REPEATS:
            if av[1] > 1:
                hit = True
                found |= _alphabet(av[2])
            inner = _inner_repeats(av[2])
            if inner is not None:
                hit, found = True, found | inner
        elif op is _c.SUBPATTERN:
            inner = _inner_repeats(av[3])
            if inner is not None:
                hit, found = True, found | inner
        elif op is _c.BRANCH:
            for alt in av[1]:
                inner = _inner_repeats(alt)
                if inner is not None:
                    hit, found = True, found | inner
    return frozenset(found) if hit else None


def _separators(seq: Any) -> list[frozenset[str]]:
    """Single characters every match of ``seq`` must contain, at its top level."""
    out = []
    for op, av in seq:
        chars = _chars(op, av)
        if chars is not None:
            out.append(chars)
        elif op is _c.SUBPATTERN:
            out.extend(_separators(av[3]))
        elif op in _REPEATS and av[0] >= 1 and av[1] == av[0]:
            out.extend(_separators(av[2]))
    return out


def _overlapping_branch(seq: Any) -> bool:
    for op, av in seq:
        if op is _c.BRANCH:
            firsts = [_first(alt) for alt in av[1]]
            if any(a & b for i, a in enumerate(firsts) for b in firsts[i + 1:]):
                return True
            if any(_overlapping_branch(alt) for alt in av[1]):
                return True
        elif op is _c.SUBPATTERN and _overlapping_branch(av[3]):
            return True
    return False


def _regex_trouble(seq: Any) -> str | None:
    for op, av in seq:
        if op in _REPEATS and av[1] > 1:
            body = av[2]
            inner = _inner_repeats(body)
            if inner is not None and not any(sep.isdisjoint(inner) for sep in _separators(body)):
                return "a repeated group holds another repeat with nothing to tell their " \
                       "matches apart (like '(a+)+'); use one repeat, or a possessive '++'"
            if _overlapping_branch(body):
                return "alternatives inside a repeated group can start with the same " \
                       "character (like '(a|ab)+'); make them start differently"
        nested: list[Any] = []
        if op in _REPEATS or op is _c.POSSESSIVE_REPEAT:
            nested = [av[2]] if op in _REPEATS else []
        elif op is _c.SUBPATTERN:
            nested = [av[3]]
        elif op is _c.BRANCH:
            nested = list(av[1])
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            nested = [av[1]]
        elif op is _c.GROUPREF_EXISTS:
            nested = [p for p in av[1:] if p is not None]
        for sub in nested:
            trouble = _regex_trouble(sub)
            if trouble:
                return trouble
    return None


#: a repeat with more than this many repetitions allowed counts as unbounded
_LONG_REPEAT = 64


def _linear(seq: Any) -> list[tuple[str, frozenset[str]]]:
    """``seq`` as a line of ('repeat', alphabet) for unbounded repeats, ('one', chars) for
    what every match must contain, and ('maybe', chars) for what it may contain."""
    out: list[tuple[str, frozenset[str]]] = []
    for op, av in seq:
        chars = _chars(op, av)
        if chars is not None:
            out.append(("one", chars))
        elif op in _REPEATS or op is _c.POSSESSIVE_REPEAT:
            alphabet = _alphabet(av[2])
            if op in _REPEATS and av[1] > _LONG_REPEAT:
                out.append(("repeat", alphabet))
            else:
                out.append(("one" if av[0] >= 1 else "maybe", alphabet))
        elif op is _c.SUBPATTERN:
            out.extend(_linear(av[3]))
        elif op in (_c.BRANCH, _c.GROUPREF, _c.GROUPREF_EXISTS, _c.ATOMIC_GROUP):
            out.append(("maybe", _alphabet([(op, av)]) if op is not _c.GROUPREF else _SAMPLE))
    return out


def _chain(seq: Any) -> int:
    """The longest run of unbounded repeats that can each match what the next one matches,
    with nothing in between that tells them apart: the degree of the polynomial time a
    failing search can take (besides trying every start position)."""
    best = run = 0
    previous: frozenset[str] | None = None
    between: list[frozenset[str]] = []
    for kind, chars in _linear(seq):
        if kind != "repeat":
            if kind == "one":
                between.append(chars)
            continue
        apart = previous is None or not (chars & previous) or any(
            sep.isdisjoint(chars) or sep.isdisjoint(previous) for sep in between)
        run = 1 if apart else run + 1
        best = max(best, run)
        previous, between = chars, []
    return best


def check_regex(pattern: str) -> str:
    """``pattern`` when it compiles and cannot backtrack exponentially."""
    try:
        re.compile(pattern)
        parsed = _sre.parse(pattern)
    except re.error as error:
        raise ValueError(f"invalid regex {pattern!r}: {error}") from None
    trouble = _regex_trouble(parsed)
    if trouble is None and _chain(parsed) >= 3:
        trouble = "three or more repeats in a row can match the same text (like '.*.*.*'); " \
                  "let them match different characters (like '[^,]*,')"
    if trouble:
        raise ValueError(f"regex {pattern!r} can take very long on a long value: {trouble}")
    return pattern
