"""Verifying pagination by walking it: a rule is kept only if it walks to an end.

Input: a candidate :class:`~structurer.rules.model.Pagination`, first list pages
(:class:`PageView`), the learned item XPath (and item link XPath) and a ``fetch``
callback (URL -> PageView, or None when the page could not be had: 404, an error).
Output: per category a :class:`Walk` — pages reached, distinct items seen, why it
stopped and whether that is a success. The next page is computed by the crawler's own
code (:mod:`structurer.replay.pagination`), so what is verified is what will run.

A step succeeds when it reaches a page not seen before that has items not seen before.
A walk ends well when there is no next page, or, following a URL pattern, at an empty
page, a missing page (a category of one full page has no second) or a page of items
already seen (after page 2: a guessed pattern that gives page 1's items again is
wrong), or at the bound; a rule needs one walk past its first page. A next link leading back
to a page already seen (a "previous" link), to a missing page or to old items fails.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urldefrag, urljoin

from lxml.html import HtmlElement

from structurer.fetch.base import Expand
from structurer.learn import xpaths
from structurer.learn.pagination import (
    PaginationGuess,
    guess_patterns,
    learn_pagination,
    link_pattern,
    more_controls,
)
from structurer.lexicon import PagingVocab
from structurer.page.view import PageView
from structurer.replay.pagination import compile_pagination, next_url
from structurer.replay.xpaths import Clock
from structurer.rules.model import Pagination, PagingCheck
from structurer.values import Base

Fetch = Callable[[str], Awaitable[PageView | None]]

__all__ = ["Expander", "Fetch", "PagingPlan", "Walk", "item_keys", "learn_paging", "walk"]


@dataclass
class Walk:
    check: PagingCheck
    ok: bool
    sizes: list[int]                 # items per page reached, in order
    second: PageView | None = None   # the second page, when reached


def item_keys(page: PageView, item_xpath: str, link_xpath: str | None) -> list[str]:
    """One key per item of the page: its detail link, else its text."""
    keys: list[str] = []
    for node in xpaths.evaluate(item_xpath, page.tree):
        if not isinstance(node, HtmlElement):
            continue
        found = xpaths.evaluate(link_xpath, node) if link_xpath else []
        href = next((str(h) if isinstance(h, str) else str(h.get("href") or "")
                     for h in found if isinstance(h, str | HtmlElement)), "")
        keys.append(urldefrag(urljoin(page.url, href.strip()))[0] if href.strip()
                    else " ".join(node.text_content().split())[:200])
    return keys


def _next(rule: Pagination, page: PageView, items: int) -> str | None:
    compiled = compile_pagination(rule.model_copy(update={"page_size": None}), "pagination")
    return next_url(compiled, page.tree, page.url, Base(page.url), items, None,
                    Clock(page.url, None))


async def walk(rule: Pagination, first: PageView, item_xpath: str, link_xpath: str | None,
               fetch: Fetch, bound: int) -> Walk:
    """Follow ``rule`` from ``first`` to its end (at most ``bound`` pages)."""
    pattern = rule.method == "pattern"
    page, keys = first, item_keys(first, item_xpath, link_xpath)
    seen_urls, seen = {urldefrag(first.url)[0]}, set(keys)
    sizes, second = [len(keys)], None

    def done(end: str, ok: bool) -> Walk:
        return Walk(PagingCheck(url=first.url, pages=len(sizes), items=len(seen), end=end),
                    ok, sizes, second)

    if not keys:
        return done("no items on the first page", False)
    while len(sizes) < bound:
        url = _next(rule, page, len(keys))
        if url is None:
            return done("no next page", True)
        if urldefrag(url)[0] in seen_urls:
            return done(f"leads back to {url}", False)
        seen_urls.add(urldefrag(url)[0])
        view = await fetch(url)
        # a pattern's missing or empty page ends a category (one exactly full page has
        # no second); the verdict still needs a walk that went past its first page
        if view is None:
            return done(f"no page at {url}", pattern)
        keys = item_keys(view, item_xpath, link_xpath)
        if not keys:
            return done(f"no items at {url}", pattern)
        if not set(keys) - seen:
            return done(f"items already seen at {url}", pattern and len(sizes) >= 2)
        seen.update(keys)
        sizes.append(len(keys))
        second = second or view
        page = view
    return done(f"stopped after {bound} pages", True)


def verdict(walks: Sequence[Walk]) -> str | None:
    """None when the walks verify the rule (none failed, one went past its first page),
    else why not."""
    failed = [w for w in walks if not w.ok]
    if failed:
        return f"{failed[0].check.url}: {failed[0].check.end}"
    if not any(w.check.pages >= 2 for w in walks):
        return "no walk went past the first page"
    return None


def page_size(walks: Sequence[Walk]) -> int | None:
    """Items of a full page: the fewest on any page that had a next one."""
    full = [n for w in walks for n in w.sizes[:-1]]
    return min(full) if full else None


# ----- choosing a rule: link, pattern, guessed pattern, browser ----------------------------------
Expander = Callable[[str, Expand], Awaitable[tuple[PageView, int] | None]]


@dataclass
class PagingPlan:
    """What a verification may use: the item XPaths, the vocabulary, the bounds, the
    fetch callbacks (``expand``: a browser's load more / scroll, None without one)."""

    item_xpath: str
    link_xpath: str | None
    vocab: PagingVocab
    guesses: int
    bound: int
    categories: int
    fetch: Fetch
    expand: Expander | None = None


def _guess_of(rule: Pagination, walks: Sequence[Walk], samples: list[str | None]
              ) -> PaginationGuess:
    pages = sum(w.check.pages for w in walks)
    return PaginationGuess(
        rule.next_xpath, samples, url_pattern=rule.url_pattern, method=rule.method,
        first_page=rule.first_page, step=rule.step, more_xpath=rule.more_xpath,
        page_size=page_size(walks) if rule.method == "pattern" else None,
        confidence=1.0, verified=[w.check for w in walks],
        evidence=[f"walked {len(walks)} categories to their end: {pages} pages, "
                  f"{sum(w.check.items for w in walks)} items"])


async def _try(rule: Pagination, starts: Sequence[PageView], plan: PagingPlan,
               notes: list[str]) -> tuple[PaginationGuess | None, list[Walk]]:
    walks: list[Walk] = []
    for first in starts[:plan.categories]:
        walks.append(await walk(rule, first, plan.item_xpath, plan.link_xpath, plan.fetch,
                                plan.bound))
        if not walks[-1].ok:
            break
    why = verdict(walks)
    if why is None:
        samples = [w.second.url if w.second else None for w in walks]
        return _guess_of(rule, walks, samples), walks
    way = rule.next_xpath or rule.url_pattern or rule.method
    notes.append(f"pagination by {rule.method} ({way}) dropped: {why}")
    return None, walks


def _ordered(pages: Sequence[PageView], rule: Pagination, plan: PagingPlan) -> list[PageView]:
    """Pages to walk from: those with a next page by ``rule`` first, then the fullest."""
    def key(page: PageView) -> tuple[int, int]:
        items = len(item_keys(page, plan.item_xpath, plan.link_xpath))
        return (0 if _next(rule, page, items) else 1, -items)
    return sorted(pages, key=key)


async def learn_paging(lists: Sequence[PageView], plan: PagingPlan, notes: list[str]
                       ) -> PaginationGuess | None:
    """The first verified of: the next link, the pattern its links show, guessed
    patterns, a browser's "load more" or infinite scroll; None (with notes) if none."""
    guess = learn_pagination(lists, plan.vocab)
    if guess is not None and guess.next_xpath:
        rule = Pagination(next_xpath=guess.next_xpath, url_pattern=guess.url_pattern,
                          first_page=guess.first_page, step=guess.step)
        found, walks = await _try(rule, _ordered(lists, rule, plan), plan, notes)
        seconds = [w.second for w in walks if w.second is not None]
        if found is None and seconds:   # learn again with pages that have a "previous"
            again = learn_pagination([*lists, *seconds], plan.vocab)
            if again is not None and again.next_xpath not in (None, guess.next_xpath):
                rule = rule.model_copy(update={"next_xpath": again.next_xpath})
                found, _ = await _try(rule, _ordered(lists, rule, plan), plan, notes)
        if found is not None:
            return found
    shown = link_pattern(lists, plan.vocab)
    tries = [shown] if shown else []
    fullest = max(lists, key=lambda p: len(item_keys(p, plan.item_xpath, plan.link_xpath)))
    items = len(item_keys(fullest, plan.item_xpath, plan.link_xpath))
    tries += [g for g in guess_patterns(fullest, plan.vocab, items, plan.guesses) if g != shown]
    for pattern, first, step in tries:
        rule = Pagination(method="pattern", url_pattern=pattern, first_page=first, step=step)
        starts = [fullest, *(p for p in _ordered(lists, rule, plan) if p is not fullest)]
        quiet: list[str] = []
        found, _ = await _try(rule, starts, plan, quiet if (pattern, first, step) != shown
                              else notes)
        if found is not None:
            return found
    return await _browser(lists, plan, notes) if plan.expand is not None else None


async def _browser(lists: Sequence[PageView], plan: PagingPlan, notes: list[str]
                   ) -> PaginationGuess | None:
    """Load more, else infinite scroll, verified on rendered first pages: each must
    bring new items (rounds) and stop by itself within the bound."""
    assert plan.expand is not None
    controls = next((c for p in lists if (c := more_controls(p, plan.vocab))), [])
    ways = [("load_more", c) for c in controls[:2]] + [("scroll", None)]
    pages = sorted(lists, key=lambda p: -len(item_keys(p, plan.item_xpath, plan.link_xpath)))
    for method, control in ways:
        checks: list[PagingCheck] = []
        befores: list[int] = []
        for first in pages[:plan.categories]:
            befores.append(len(set(item_keys(first, plan.item_xpath, plan.link_xpath))))
            got = await plan.expand(first.url, Expand(method, plan.item_xpath, control,
                                                      plan.bound))
            if got is None:
                break
            view, rounds = got
            after = len(set(item_keys(view, plan.item_xpath, plan.link_xpath)))
            end = "no new items" if rounds < plan.bound else f"stopped after {plan.bound} rounds"
            checks.append(PagingCheck(url=first.url, pages=rounds + 1, items=after, end=end))
        if any(c.pages >= 2 for c in checks) and all(
                c.items >= b for c, b in zip(checks, befores, strict=False)):
            return PaginationGuess(None, [], method=method, more_xpath=control, confidence=1.0,
                                   verified=checks, evidence=[f"{method} verified in a browser"])
        notes.append(f"pagination by {method} ({control or 'scrolling'}) not verified: "
                     "no new items arrived")
    return None
