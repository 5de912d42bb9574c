"""What a worker opens before Scrapy starts: rule files, shared state, output.

Input: the ``STRUCTURER_*`` settings (rule files, output, Redis URL, crawl name,
worker id, heartbeat). Output: a :class:`Context` — one :class:`Site` per rule file
(compiled rules, record columns, guards whose per-pattern page counts live in the
shared state, and the :class:`~structurer.crawler.traverse.PageReader` both runtimes
use), the state (:class:`MemoryState`, or :class:`RedisState` with its
:class:`Workers`), and the output, brought in line with this worker's claims. Opened
before Scrapy runs, so that a bad rule file, an unreachable Redis or an output in use
is one line and a non-zero exit, not a log of tracebacks.
"""

from __future__ import annotations

import hashlib
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from structurer.config import Settings
from structurer.crawler.frontier import CATEGORY, Guards, Outcome, Task, canonical, url_pattern
from structurer.crawler.products import (
    build_product,
    record_columns,
    record_hash,
    trusted_trail,
)
from structurer.crawler.rendering import Modes, expand_for, render_modes
from structurer.crawler.scrapy.sink import RecordSink
from structurer.crawler.scrapy.state import CrawlState, MemoryState, RedisState, Row
from structurer.crawler.traverse import PageReader
from structurer.errors import StructurerError
from structurer.replay.extract import CompiledRules, compile_rules
from structurer.rules import load_rules
from structurer.rules.model import SiteRules

__all__ = ["Context", "Site", "State", "crawl_name", "open_context", "worker_id"]

State = CrawlState


class SharedGuards(Guards):
    """The crawler's guards, with the pages-per-pattern count kept in the shared state."""

    def __init__(self, settings: Settings, rules: SiteRules, state: State) -> None:
        levels = rules.levels
        super().__init__(settings, set(settings.allowed_hosts), rules.start_url,
                         levels.category.max_depth if levels.category else 0)
        self.state, self.site = state, rules.site

    def count_pattern(self, url: str) -> bool:
        return self.state.count_pattern(self.site, url_pattern(url),
                                        self.s.max_pages_per_pattern, canonical(url))


class Site:
    """One rule file of the crawl."""

    def __init__(self, rules: SiteRules, settings: Settings, state: State) -> None:
        if not settings.allowed_hosts:
            settings = settings.model_copy(update={"allowed_hosts": sorted(rules.allowed_hosts)})
        self.name, self.rules, self.state = rules.site, rules, state
        self.compiled: CompiledRules = compile_rules(rules)
        self.columns = record_columns(self.compiled)
        self.trusted = trusted_trail(self.compiled)
        self.modes: Modes = render_modes(rules)
        self.expand = expand_for(rules, settings)     # "load more" / scroll in the browser
        self.guards = SharedGuards(settings, rules, state)
        self.reader = PageReader(self.compiled, self.guards, self._first_seen,
                                 fingerprints=False, first_refused=self._first_refused)
        self._page: set[str] = set()
        self._known: set[str] = set()
        self._refused: set[str] = set()
        self._recovered = False
        self.registered: list[tuple[str, tuple[str, ...]]] = []   # by the last page read

    def _first_seen(self, key: str) -> bool:
        """New to this page and, unless the page is read again after a worker died, to
        the crawl (the shared state claims it afterwards, atomically)."""
        if key in self._page:
            return False
        self._page.add(key)
        if self._recovered:
            return True
        if key in self._known or self.state.is_known(self.name, key):
            self._known.add(key)
            return False
        return True

    def _first_refused(self, key: str) -> bool:
        """Refused for the first time in the crawl (a URL this worker saw refused before
        costs no round trip)."""
        if key in self._refused:
            return False
        self._refused.add(key)
        return self.state.first_refused(self.name, key)

    def read(self, task: Task, text: str, url: str, size: int, recovered: bool,
             body: bytes | None = None) -> Outcome:
        self._page, self._recovered = set(), recovered
        if task.level == CATEGORY:
            self.reader.prefixes = self.state.prefixes(self.name)
        before = len(self.reader.prefixes)
        outcome = self.reader.read(task, text, url, size, body)
        self.registered = self.reader.prefixes[before:]
        return outcome

    def records(self, rows: Sequence[Row]) -> list[dict[str, Any]]:
        return [build_product(url, listings, detail, self.columns, self.compiled.words,
                              trusted=self.trusted)
                for _, url, listings, detail in rows]


@dataclass
class Context:
    sites: dict[str, Site]
    state: State
    workers: Any            # queue.Workers, with Redis
    sink: RecordSink
    settings: Settings
    crawl: str
    worker: str
    poll: float
    recovered: int          # records rewritten into the output at start
    reclaimed: int          # requests this worker's last run had in flight, queued again


def crawl_name(rules: Sequence[SiteRules], name: str | None = None) -> str:
    """The Redis key prefix of a crawl: ``structurer:NAME``, by default a digest of the
    rule files, so workers given the same files join the same crawl."""
    if not name:
        digest = record_hash({r.site: r.model_dump(mode="json", exclude={"generated_at"})
                              for r in rules})
        name = digest
    return "structurer:" + name


def worker_id(out: str | Path) -> str:
    """The worker's name: the host and its output file, stable across restarts."""
    path = str(Path(out).resolve())
    return f"{socket.gethostname()}-{hashlib.blake2b(path.encode(), digest_size=5).hexdigest()}"


def _redis(url: str) -> Any:
    try:
        import redis
    except ImportError:
        raise StructurerError("--redis needs the redis client: pip install "
                              "'structurer[scale]'") from None
    try:
        client = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=5)
        client.ping()
    except (redis.exceptions.RedisError, ValueError) as error:
        raise StructurerError(f"cannot reach Redis: {error}", url=url) from None
    return client


def open_context(options: Mapping[str, Any]) -> Context:
    """Open everything a worker needs from its ``STRUCTURER_*`` settings."""
    paths = list(options.get("STRUCTURER_RULES") or [])
    if not paths:
        raise StructurerError("no rule file to crawl")
    loaded = [load_rules(p) for p in paths]
    sites_seen: dict[str, str] = {}
    for path, rules in zip(paths, loaded, strict=True):
        if rules.site in sites_seen:
            raise StructurerError(f"two rule files for {rules.site}: {sites_seen[rules.site]} "
                                  f"and {path}")
        sites_seen[rules.site] = str(path)
    settings = Settings.model_validate(options.get("STRUCTURER_SETTINGS") or {})
    out = Path(options["STRUCTURER_OUT"])
    redis_url = options.get("STRUCTURER_REDIS")
    crawl = options.get("STRUCTURER_CRAWL") or crawl_name(loaded)
    worker = options.get("STRUCTURER_WORKER") or worker_id(out)
    state: State
    workers: Any = None
    if redis_url:
        from structurer.crawler.scrapy.queue import Workers

        client = _redis(str(redis_url))
        state = RedisState(client, crawl, worker)
        workers = Workers(client, crawl, worker,
                          heartbeat=float(options.get("STRUCTURER_HEARTBEAT", 30.0)))
    else:
        state = MemoryState()
    sites = {rules.site: Site(rules, settings, state) for rules in loaded}
    sink = RecordSink(out)
    if isinstance(state, RedisState):
        redis_state = state

        def rebuild(claims: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
            return [record for site, key in claims
                    for record in sites[site].records(redis_state.rows(site, [key]))]

        recovered = sink.open(state.claimed(), rebuild)
        reclaimed = workers.reclaim(worker)     # what this worker's last run had in flight
        workers.beat()
    else:
        recovered, reclaimed = sink.open(None), 0
    return Context(sites, state, workers, sink, settings, crawl, worker,
                   float(options.get("STRUCTURER_POLL", 0.5)), recovered, reclaimed)
