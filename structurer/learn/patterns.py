"""URL patterns of one kind of page (category URLs, product URLs), learned from examples.

Input: URLs known to be of the kind (list pages fetched during analysis) and URLs known
not to be (product pages, further pages of a list). Output: regexes over
:func:`~structurer.page.catlinks.url_key` (path, then ``?`` and the query pairs sorted),
each matching at least two examples and no counter-example, most general first:
the examples' shared first path segment, then any number of segments (sub-categories
nest), the same ending (``/``, ``.html`` or none) and the same query keys, with the
values that never vary kept literally; where that is too general (it matches a
counter-example, like ``/c/shoes/page/2/``), one pattern per number of segments. Pure
and deterministic (sorted), so the same examples give the same patterns.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from urllib.parse import parse_qsl, urlsplit

from structurer.page.catlinks import url_key

__all__ = ["learn_patterns"]

_SEGMENT = "[^/?]+"


def _parts(url: str) -> tuple[list[str], str, list[tuple[str, str]]]:
    """Path segments, the path's ending ('/', '.ext' or '') and the sorted query pairs."""
    parts = urlsplit(url)
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    ending = "/" if path.endswith("/") else ("." + last.rsplit(".", 1)[1]
                                             if "." in last else "")
    return segments, ending, sorted(parse_qsl(parts.query, keep_blank_values=True))


def _query(group: Sequence[list[tuple[str, str]]]) -> str:
    if not group[0]:
        return ""
    pairs = []
    for i, (key, value) in enumerate(group[0]):
        same = all(q[i][1] == value for q in group)
        pairs.append(f"{re.escape(key)}=" + (re.escape(value) if same else "[^&]*"))
    return r"\?" + "&".join(pairs)


def _tail(ending: str) -> str:
    if ending == "/":
        return "/"
    return re.escape(ending) if ending else ""


def _last(ending: str) -> str:
    """The last segment: any name, keeping its file extension."""
    return f"[^/?]+{re.escape(ending)}" if ending.startswith(".") else _SEGMENT


def _candidates(urls: Sequence[str]) -> list[str]:
    """Patterns for URLs of one form (ending and query keys), most general first."""
    parsed = [_parts(u) for u in urls]
    ending = parsed[0][1]
    query = _query([q for _, _, q in parsed])
    firsts = {segs[0] if len(segs) > 1 else None for segs, _, _ in parsed}
    paths = {urlsplit(u).path or "/" for u in urls}
    if len(paths) == 1:             # /index.php?route=...&path=...: the query tells them
        return [re.escape(paths.pop()) + query] if query else []
    out: list[str] = []
    first = firsts.pop() if len(firsts) == 1 else None
    head = f"/{re.escape(first)}/" if first else "/"
    last = _last(ending) if ending != "/" else _SEGMENT
    out.append(f"{head}(?:{_SEGMENT}/)*{last}{_tail(ending) if ending == '/' else ''}{query}")
    by_count: dict[int, list[list[str]]] = defaultdict(list)
    for segs, _, _ in parsed:
        by_count[len(segs)].append(segs)
    for count in sorted(by_count):
        group = by_count[count]
        steps = []
        for i in range(count):
            values = {segs[i] for segs in group}
            if len(values) == 1 and (i < count - 1 or (len(group) == 1 and count == 1)):
                steps.append(re.escape(values.pop()))
            else:
                steps.append(last if i == count - 1 else _SEGMENT)
        end = "/" if ending == "/" else ""
        out.append("/" + "/".join(steps) + end + query)
    return out


def learn_patterns(examples: Iterable[str], counter: Iterable[str], *,
                   min_examples: int = 2) -> list[str]:
    """Regexes (for ``re.fullmatch`` on a URL key) covering the examples, none matching a
    counter-example; every pattern covers ``min_examples`` examples at least."""
    urls = sorted(set(examples))
    against = {url_key(u) for u in counter} - {url_key(u) for u in urls}
    forms: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
    for url in urls:
        _, ending, query = _parts(url)
        forms[(ending, tuple(k for k, _ in query))].append(url)
    chosen: list[str] = []
    for form in sorted(forms):
        group = forms[form]
        covered: set[str] = set()
        for n, pattern in enumerate(_candidates(group)):
            regex = re.compile(pattern)
            hits = {u for u in group if regex.fullmatch(url_key(u))}
            # a pattern per number of segments may stand on one example of a form
            # that has others
            least = min_examples if n == 0 or len(group) < min_examples else 1
            if len(hits) < least or hits <= covered:
                continue
            if any(regex.fullmatch(k) for k in against):
                continue
            chosen.append(pattern)
            covered |= hits
            if covered == set(group):
                break
    return sorted(dict.fromkeys(chosen))

