"""The crawl state the Scrapy workers share: pages seen, listings, details, record claims.

Input: what the spider learns from each page (category and list links, list items with
their category path, detail records). Output: which links to request, and which
products a worker may emit — each product is claimed by exactly one worker, and only
once its site's category and list pages are all done (so its record holds every
category path) and its detail page is settled: what ``structurer crawl`` does with its
SQLite state (:func:`structurer.crawler.products.emit_records`).

A page costs two calls: :meth:`store_page` (claim the category and list pages it links
to, store its listings) before its follow-up requests are queued, then
:meth:`finish_page` / :meth:`finish_detail` (mark it done, claim the records it
completed, clear its in-flight tokens) — each one Lua script in Redis
(:mod:`structurer.crawler.scrapy.scripts`), so that a worker killed between two calls
leaves a state the others (or its own restart) can finish.

:class:`MemoryState` serves a single-process crawl, :class:`RedisState` the workers of a
distributed one, both as a :class:`CrawlState` (the requests themselves are in
scrapy-redis's queue). Redis keys, under ``<crawl>:<site>:``: ``known`` and ``pending``
(category and list pages queued / not yet done), ``seeded`` (and the ``seeding`` lock),
``patterns``, ``prefixes`` (category URL -> path), ``products`` (key -> URL),
``waiting`` (detail page not settled), ``listings:<key>`` (page -> [path, fields]),
``details``, ``unemitted`` (settled, not claimed), ``counted`` (a page counted against
its URL pattern's budget -> the pattern), ``refused`` (links refused, counted once);
under ``<crawl>:``: ``emitted`` (key -> worker) and ``claims:<worker>``
(``site<TAB>key``, in the order the worker writes its output).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from structurer.crawler.frontier import Item, Link
from structurer.crawler.products import Listing
from structurer.crawler.scrapy import scripts as lua

__all__ = ["CrawlState", "MemoryState", "RedisState", "Row", "Token"]

# (product key, URL, listings, detail record or None)
Row = tuple[str, str, list[Listing], dict[str, Any] | None]
Token = Sequence[str]           # (in-flight hash, token) of a request taken from the queue
Prefix = tuple[str, tuple[str, ...]]


class CrawlState(Protocol):
    """What the spider asks of a crawl's state, in memory or in Redis (one interface, so
    that the spider and the runner never ask which one they hold)."""

    def seed(self, site: str, key: str) -> bool: ...

    def mark_seeded(self, site: str) -> None: ...

    def is_known(self, site: str, key: str) -> bool: ...

    def is_waiting(self, site: str, key: str) -> bool: ...

    def lists_done(self, site: str) -> bool: ...

    def count_pattern(self, site: str, pattern: str, cap: int, key: str) -> bool: ...

    def first_refused(self, site: str, key: str) -> bool: ...

    def prefixes(self, site: str) -> list[Prefix]: ...

    def store_page(self, site: str, page: str, path: Sequence[str], links: Sequence[Link],
                   recovered: bool, items: Sequence[Item] | None,
                   prefixes: Iterable[Prefix]) -> list[Link]: ...

    def finish_page(self, site: str, page: str, tokens: Sequence[Token] = ()) -> list[Row]: ...

    def finish_detail(self, site: str, key: str, url: str, detail: dict[str, Any] | None,
                      start: bool, tokens: Sequence[Token] = ()) -> list[Row]: ...

    def claim_records(self, site: str, keys: Iterable[str] | None = None, *,
                      force: bool = False) -> list[Row]: ...

    def sweep(self, sites: Iterable[str]) -> dict[str, list[Row]]: ...

    def emitted(self) -> int:
        """Records the whole crawl has claimed (every worker's, every site's)."""
        ...


class MemoryState:
    """The state of a single-process crawl (see the module docstring)."""

    def __init__(self) -> None:
        self.known: dict[str, set[str]] = {}
        self.pending: dict[str, set[str]] = {}
        self.seeded: set[str] = set()
        self.patterns: dict[str, dict[str, int]] = {}
        self.counted: dict[str, set[str]] = {}
        self.refused: dict[str, set[str]] = {}
        self.prefix_map: dict[str, dict[str, tuple[str, ...]]] = {}
        self.products: dict[str, dict[str, str]] = {}
        self.waiting: dict[str, set[str]] = {}
        self.listings: dict[str, dict[str, dict[str, Listing]]] = {}
        self.details: dict[str, dict[str, dict[str, Any] | None]] = {}
        self.unemitted: dict[str, set[str]] = {}
        self.claimed_keys: set[str] = set()     # products claimed, of every site

    def _site(self, site: str) -> None:
        for table in (self.known, self.pending, self.waiting, self.unemitted, self.counted,
                      self.refused):
            table.setdefault(site, set())
        for mapping in (self.patterns, self.prefix_map, self.products, self.listings,
                        self.details):
            mapping.setdefault(site, {})

    # ----- reading pages ------------------------------------------------------------------
    def seed(self, site: str, key: str) -> bool:
        """Whether the start page must be queued (the site is not seeded yet)."""
        self._site(site)
        if site in self.seeded:
            return False
        self.known[site].add(key)
        self.pending[site].add(key)
        return True

    def mark_seeded(self, site: str) -> None:
        self.seeded.add(site)

    def is_known(self, site: str, key: str) -> bool:
        return key in self.known[site]

    def is_waiting(self, site: str, key: str) -> bool:
        return key in self.waiting[site]

    def lists_done(self, site: str) -> bool:
        return site in self.seeded and not self.pending[site]

    def count_pattern(self, site: str, pattern: str, cap: int, key: str) -> bool:
        """Count page ``key`` of ``pattern`` (False past ``cap``) unless known or counted
        already: a page read again (after a kill, then its retry), or a page two pages
        link before either is stored, does not count twice."""
        counts, counted = self.patterns[site], self.counted[site]
        if key in self.known[site] or key in counted:
            return True
        if counts.get(pattern, 0) >= cap:
            return False
        counts[pattern] = counts.get(pattern, 0) + 1
        counted.add(key)
        return True

    def first_refused(self, site: str, key: str) -> bool:
        """Whether link ``key`` is refused for the first time in the crawl (remembered)."""
        new = key not in self.refused[site]
        self.refused[site].add(key)
        return new

    def prefixes(self, site: str) -> list[Prefix]:
        return list(self.prefix_map[site].items())

    # ----- storing pages ------------------------------------------------------------------
    def store_page(self, site: str, page: str, path: Sequence[str], links: Sequence[Link],
                   recovered: bool, items: Sequence[Item] | None,
                   prefixes: Iterable[Prefix]) -> list[Link]:
        """Claim the category and list pages ``links`` lead to (those new to the crawl;
        re-reading a page: also those not done yet) and store the page's listings and
        registered category prefixes. Returns the links to request."""
        claimed = []
        for link in links:
            if link.key not in self.known[site] or (recovered
                                                    and link.key in self.pending[site]):
                self.known[site].add(link.key)
                self.pending[site].add(link.key)
                claimed.append(link)
        for prefix, prefix_path in prefixes:
            self.prefix_map[site].setdefault(prefix, prefix_path)
        for item in items or ():
            self.listings[site].setdefault(item.key, {})[page] = (page, tuple(path),
                                                                   item.fields)
            if item.key not in self.products[site]:
                self.products[site][item.key] = item.url
                (self.waiting if item.detail else self.unemitted)[site].add(item.key)
        return claimed

    def finish_page(self, site: str, page: str, tokens: Sequence[Token] = ()) -> list[Row]:
        """A category or list page is done: the records its site may now emit."""
        self.pending[site].discard(page)
        return self.claim_records(site)

    def finish_detail(self, site: str, key: str, url: str, detail: dict[str, Any] | None,
                      start: bool, tokens: Sequence[Token] = ()) -> list[Row]:
        """A detail page is settled (``detail`` None: it failed); the product's record if
        its site's lists are done. ``start``: the start page of detail-only rules."""
        self.products[site].setdefault(key, url)
        if detail is not None or key not in self.details[site]:
            self.details[site][key] = detail
        self.waiting[site].discard(key)
        if key not in self.claimed_keys:
            self.unemitted[site].add(key)
        if start:
            self.pending[site].discard(key)
        return self.claim_records(site, [key])

    def claim_records(self, site: str, keys: Iterable[str] | None = None, *,
                      force: bool = False) -> list[Row]:
        """Claim settled products (``keys``, or all) once the site's lists are done, and
        give their rows; ``force``: now, with those still waiting for their detail page
        too (a crawl that stops early)."""
        if not force and not self.lists_done(site):
            return []
        pool = self.unemitted[site] | (self.waiting[site] if force and keys is None else set())
        chosen = sorted(pool if keys is None else pool & set(keys))
        for key in chosen:
            self.claimed_keys.add(key)
            self.unemitted[site].discard(key)
            self.waiting[site].discard(key)
        return [(k, self.products[site][k], list(self.listings[site].get(k, {}).values()),
                 self.details[site].get(k)) for k in chosen]

    def sweep(self, sites: Iterable[str]) -> dict[str, list[Row]]:
        """:meth:`claim_records` of every site."""
        return {site: self.claim_records(site) for site in sites}

    def emitted(self) -> int:
        """See :meth:`CrawlState.emitted`."""
        return len(self.claimed_keys)


def _flat(tokens: Sequence[Token]) -> list[str]:
    return [part for token in tokens for part in token]


class RedisState:
    """The state of a distributed crawl in Redis (see the module docstring)."""

    def __init__(self, client: Any, crawl: str, worker: str) -> None:
        self.r, self.crawl, self.worker = client, crawl, worker
        self.claims_key = f"{crawl}:claims:{worker}"
        scripts = {name: client.register_script(text) for name, text in (
            ("seed", lua.SEED), ("pattern", lua.PATTERN), ("store", lua.STORE_PAGE),
            ("claim", lua.CLAIM_RECORDS), ("page", lua.FINISH_PAGE),
            ("detail", lua.FINISH_DETAIL))}
        self._scripts = scripts

    def k(self, site: str, name: str) -> str:
        return f"{self.crawl}:{site}:{name}"

    # ----- reading pages ------------------------------------------------------------------
    def seed(self, site: str, key: str) -> bool:
        keys = [self.k(site, "seeded"), self.k(site, "known"), self.k(site, "pending"),
                self.k(site, "seeding")]
        return bool(self._scripts["seed"](keys=keys, args=[key, lua.SEED_LOCK_MS, self.worker]))

    def mark_seeded(self, site: str) -> None:
        self.r.set(self.k(site, "seeded"), 1)

    def is_known(self, site: str, key: str) -> bool:
        return bool(self.r.sismember(self.k(site, "known"), key))

    def is_waiting(self, site: str, key: str) -> bool:
        return bool(self.r.sismember(self.k(site, "waiting"), key))

    def lists_done(self, site: str) -> bool:
        pipe = self.r.pipeline(transaction=True)
        pipe.exists(self.k(site, "seeded"))
        pipe.scard(self.k(site, "pending"))
        seeded, pending = pipe.execute()
        return bool(seeded) and not pending

    def count_pattern(self, site: str, pattern: str, cap: int, key: str) -> bool:
        """See :meth:`MemoryState.count_pattern`."""
        keys = [self.k(site, "patterns"), self.k(site, "known"), self.k(site, "counted")]
        return bool(self._scripts["pattern"](keys=keys, args=[pattern, cap, key]))

    def first_refused(self, site: str, key: str) -> bool:
        """See :meth:`MemoryState.first_refused` (one SADD: one worker wins)."""
        return bool(self.r.sadd(self.k(site, "refused"), key))

    def prefixes(self, site: str) -> list[Prefix]:
        return [(p, tuple(json.loads(path)))
                for p, path in self.r.hgetall(self.k(site, "prefixes")).items()]

    # ----- storing pages ------------------------------------------------------------------
    def store_page(self, site: str, page: str, path: Sequence[str], links: Sequence[Link],
                   recovered: bool, items: Sequence[Item] | None,
                   prefixes: Iterable[Prefix]) -> list[Link]:
        """See :meth:`MemoryState.store_page`."""
        prefixes = list(prefixes)
        if not links and not items and not prefixes:
            return []
        args: list[Any] = [self.k(site, ""), page, json.dumps(list(path), ensure_ascii=False),
                           "1" if recovered else "0", len(links), *[ln.key for ln in links],
                           len(prefixes)]
        for prefix, prefix_path in prefixes:
            args += [prefix, json.dumps(prefix_path, ensure_ascii=False)]
        for item in items or ():
            args += [item.key, item.url, "1" if item.detail else "0",
                     json.dumps(item.fields, ensure_ascii=False)]
        won = set(self._scripts["store"](
            keys=[self.k(site, n) for n in ("known", "pending", "prefixes", "products",
                                            "waiting", "unemitted")], args=args))
        return [ln for ln in links if ln.key in won]

    def _claiming(self, site: str) -> list[str]:
        return [self.k(site, "unemitted"), f"{self.crawl}:emitted", self.claims_key,
                self.k(site, "waiting"), self.k(site, "seeded"), self.k(site, "pending"),
                self.k(site, "products"), self.k(site, "details")]

    def finish_page(self, site: str, page: str, tokens: Sequence[Token] = ()) -> list[Row]:
        """See :meth:`MemoryState.finish_page`; clears the page's in-flight ``tokens``."""
        return _rows(self._scripts["page"](keys=self._claiming(site), args=[
            self.worker, site, self.k(site, ""), page, *_flat(tokens)]))

    def finish_detail(self, site: str, key: str, url: str, detail: dict[str, Any] | None,
                      start: bool, tokens: Sequence[Token] = ()) -> list[Row]:
        """See :meth:`MemoryState.finish_detail`; clears the page's in-flight ``tokens``."""
        return _rows(self._scripts["detail"](keys=self._claiming(site), args=[
            self.worker, site, self.k(site, ""), key, url,
            json.dumps(detail, ensure_ascii=False), "1" if start else "0", *_flat(tokens)]))

    def claim_records(self, site: str, keys: Iterable[str] | None = None, *,
                      force: bool = False) -> list[Row]:
        """See :meth:`MemoryState.claim_records`; claims go to this worker's list."""
        args = [self.worker, site, self.k(site, ""), "1" if force else "0"]
        if keys is not None:
            keys = list(keys)
            if not keys:
                return []
            args += keys
        return _rows(self._scripts["claim"](keys=self._claiming(site), args=args))

    def sweep(self, sites: Iterable[str]) -> dict[str, list[Row]]:
        """:meth:`claim_records` of every site, in one round trip."""
        sites = list(sites)
        pipe = self.r.pipeline(transaction=False)
        for site in sites:
            self._scripts["claim"](keys=self._claiming(site), client=pipe,
                                   args=[self.worker, site, self.k(site, ""), "0"])
        return {site: _rows(raw) for site, raw in zip(sites, pipe.execute(), strict=True)}

    def emitted(self) -> int:
        """See :meth:`CrawlState.emitted`."""
        return int(self.r.hlen(f"{self.crawl}:emitted"))

    # ----- a restarted worker -------------------------------------------------------------
    def claimed(self) -> list[tuple[str, str]]:
        """(site, product key) of this worker's claims, in the order it wrote them."""
        pairs = (entry.split("\t", 1) for entry in self.r.lrange(self.claims_key, 0, -1))
        return [(site, key) for site, key in pairs]

    def rows(self, site: str, keys: Sequence[str]) -> list[Row]:
        """The stored inputs of claimed products' records."""
        pipe = self.r.pipeline(transaction=False)
        for key in keys:
            pipe.hget(self.k(site, "products"), key)
            pipe.hget(self.k(site, "details"), key)
            pipe.hgetall(self.k(site, f"listings:{key}"))
        got = pipe.execute()
        return _rows([[key, *got[3 * i: 3 * i + 3]] for i, key in enumerate(keys)])


def _rows(raw: Sequence[Any]) -> list[Row]:
    """Rows from [key, url, detail JSON, listings (a dict, or a flat page/value list)]."""
    out: list[Row] = []
    for key, url, detail, listings in raw:
        pairs = listings.items() if isinstance(listings, dict) else zip(
            listings[::2], listings[1::2], strict=True)
        rows: list[Listing] = []
        for page, value in pairs:
            path, fields = json.loads(value)
            rows.append((page, tuple(path), fields))
        out.append((key, url or "", rows, json.loads(detail) if detail else None))
    return out
