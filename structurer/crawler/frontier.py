"""The crawl's state in one SQLite file (WAL): run queue, done queue, products, outbox.

Input: tasks (canonical URL, level, crawl depth, category path) and, per batch of
fetched pages, their :class:`Outcome` (links found, list items, the detail record,
the page's simhash, or the failure). Output: leased tasks in priority order
(category and list pages before detail pages), product records in the ``outbox``
table, and what a resumed or incremental crawl needs: each page's fingerprint and
revisit schedule, and the links the run refused (each counted once per URL, resumed
or not).

Consistency: everything a batch of pages causes — the pages leave the run queue and
enter the done queue, their links are enqueued, their items and detail records are
stored, the records they complete are written to the outbox — is one transaction.
A crawl killed at any instant loses only uncommitted pages, which stay in the run
queue and are fetched again on ``--resume``. The sink copies outbox rows to the
output file and then records how far it got (``sink_seq``, ``sink_mark``); see
:mod:`structurer.crawler.sinks`.

What may enter the run queue (:class:`Guards`): URLs are deduplicated by their w3lib
canonical form, and refused when off the rule file's hosts, too long, too deep (path
segments, or category links followed), past ``max_pages_per_pattern`` category or list
pages of one URL pattern (:func:`url_pattern`: calendars, endless pagination, generated
slugs), or failing the must-include / must-exclude keywords.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from structurer.config import Settings
from structurer.crawler.schedule import (
    DAY,
    DEFAULT_INTERVAL,
    DEFAULT_REVISIT,
    History,
    Revisit,
    reschedule,
)
from structurer.crawler.tasks import CATEGORY, DETAIL, LEVELS, LIST, Item, Link, Outcome, Task
from structurer.crawler.urls import canonical, url_pattern, well_formed
from structurer.errors import FrontierError
from structurer.fetch.scope import HostScope

# the queue's data (:mod:`~structurer.crawler.tasks`), the revisit schedule
# (:mod:`~structurer.crawler.schedule`) and URL keys (:mod:`~structurer.crawler.urls`) are named
# here too: both engines import them from here
__all__ = ["CATEGORY", "DAY", "DEFAULT_INTERVAL", "DETAIL", "LEVELS", "LIST", "Frontier", "Guards",
           "History", "Item", "Link", "Outcome", "Task", "canonical", "reschedule", "url_pattern",
           "well_formed"]

PENDING, DETAILED, NO_DETAIL = 0, 1, 2   # products.state: what is known of the detail page
SCHEMA_VERSION = 1      # the state database's format (a fact, not a knob)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS run_queue(
  id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, url TEXT NOT NULL,
  level INTEGER NOT NULL, prio INTEGER NOT NULL, depth INTEGER NOT NULL, path TEXT NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS run_queue_prio ON run_queue(prio, id);
CREATE TABLE IF NOT EXISTS done(
  key TEXT PRIMARY KEY, url TEXT NOT NULL, level INTEGER NOT NULL, depth INTEGER NOT NULL,
  path TEXT NOT NULL, outcome TEXT NOT NULL, run INTEGER NOT NULL, visits INTEGER NOT NULL,
  fingerprint INTEGER, content TEXT, same INTEGER NOT NULL, changed INTEGER NOT NULL,
  interval REAL NOT NULL, next_visit REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS products(
  key TEXT PRIMARY KEY, url TEXT NOT NULL, detail TEXT, state INTEGER NOT NULL,
  touched INTEGER NOT NULL, emitted TEXT, emitted_run INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS listings(
  page TEXT NOT NULL, product TEXT NOT NULL, path TEXT NOT NULL, fields TEXT NOT NULL,
  PRIMARY KEY(page, product)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS listings_product ON listings(product);
CREATE TABLE IF NOT EXISTS refused(key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outbox(
  seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, record TEXT NOT NULL);
"""


def _signed(value: int | None) -> int | None:
    return value - (1 << 64) if value is not None and value >= 1 << 63 else value


def _unsigned(value: int | None) -> int | None:
    return value + (1 << 64) if value is not None and value < 0 else value


def _path(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))


class Frontier:
    """The state database of one site's crawl (``open_state`` in
    :mod:`structurer.crawler.sinks` checks it belongs to the crawl at hand)."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db
        self._buffers: tuple[deque[Task], deque[Task]] = (deque(), deque())
        self._cursor = [0, 0]
        self._dry = [False, False]
        self.size = db.execute("SELECT count(*) FROM run_queue").fetchone()[0]
        self.revisit: Revisit = DEFAULT_REVISIT   # the crawl's settings (Revisit.of)

    # ----- opening ------------------------------------------------------------------------
    @classmethod
    def connect(cls, path: str | Path) -> Frontier:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None, timeout=1.0)
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA cache_size=-8000")
            db.execute("BEGIN IMMEDIATE")
            db.executescript(_SCHEMA)  # commits
        except sqlite3.OperationalError as error:
            why = "in use by another crawl" if "locked" in str(error) else str(error)
            raise FrontierError(f"cannot open crawl state: {why}", url=str(path)) from None
        except sqlite3.DatabaseError as error:
            raise FrontierError(f"not a crawl state database ({error})", url=str(path)) from None
        except OSError as error:
            raise FrontierError(f"cannot create crawl state: {error.strerror}",
                                url=str(path)) from None
        return cls(path, db)

    def get(self, key: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def set(self, **values: Any) -> None:
        self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                            [(k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()])

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            try:  # SQLite may have rolled back already (a full disk): keep the first error
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        self.db.execute("COMMIT")

    def reset(self) -> None:
        """Empty the state for a new crawl, in place: deleting and recreating the file
        would drop the lock this connection holds, and let a second crawl in."""
        with self.transaction():
            for table in ("meta", "run_queue", "done", "products", "listings", "refused",
                          "outbox", "sqlite_sequence"):
                self.db.execute(f"DELETE FROM {table}")
        self.size = 0
        self._buffers = (deque(), deque())
        self._cursor = [0, 0]
        self._dry = [False, False]

    @property
    def run(self) -> int:
        return int(self.get("run", 0))

    def close(self) -> None:
        self.db.close()

    # ----- the run queue ------------------------------------------------------------------
    def seed(self, links: Sequence[Link]) -> int:
        """Enqueue links not in either queue (call inside a transaction); returns how many."""
        before = self.db.total_changes
        self.db.executemany(
            "INSERT OR IGNORE INTO run_queue(key, url, level, prio, depth, path) "
            "SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM done WHERE key = ?)",
            [(ln.key, ln.url, ln.level, ln.level == DETAIL, ln.depth,
              json.dumps(ln.path, ensure_ascii=False), ln.key) for ln in links])
        added = self.db.total_changes - before
        self.size += added
        if added:
            self._dry = [False, False]
        return added

    def lease(self, n: int) -> list[Task]:
        """Up to ``n`` tasks never leased before, category and list pages first."""
        out: list[Task] = []
        for prio in (0, 1):
            buffer = self._buffers[prio]
            while len(out) < n:
                if not buffer and not self._refill(prio, max(64, 2 * n)):
                    break
                out.append(buffer.popleft())
        return out

    def _refill(self, prio: int, n: int) -> bool:
        if self._dry[prio]:
            return False
        rows = self.db.execute(
            "SELECT id, key, url, level, depth, path, tries FROM run_queue "
            "WHERE prio = ? AND id > ? ORDER BY id LIMIT ?", (prio, self._cursor[prio], n)
        ).fetchall()
        if not rows:
            self._dry[prio] = True
            return False
        self._cursor[prio] = rows[-1][0]
        self._buffers[prio].extend(Task(r[0], r[1], r[2], r[3], r[4], _path(r[5]), r[6])
                                   for r in rows)
        return True

    def lists_pending(self) -> bool:
        """Whether category or list pages remain (leased, buffered or not yet read)."""
        row = self.db.execute("SELECT EXISTS (SELECT 1 FROM run_queue WHERE prio = 0)").fetchone()
        return bool(row[0])

    def listish_urls(self) -> Iterator[tuple[str, str, int, tuple[str, ...]]]:
        """(key, url, level, path) of every category and list page ever queued."""
        for table in ("done", "run_queue"):
            for key, url, level, path in self.db.execute(
                    f"SELECT key, url, level, path FROM {table} WHERE level < 2"):
                yield key, url, level, _path(path)

    def refused_keys(self) -> list[str]:
        """Canonical URLs of the links this run refused (and counted) so far."""
        return [key for (key,) in self.db.execute("SELECT key FROM refused")]

    # ----- applying outcomes --------------------------------------------------------------
    def apply(self, outcomes: Sequence[Outcome], run: int, now: float) -> list[str]:
        """Store a batch of outcomes (call inside a transaction). Returns the keys of the
        products whose detail page is now settled (fetched, failed or not to be fetched)."""
        db = self.db
        settled: list[str] = []
        for o in outcomes:
            t = o.task
            db.execute("DELETE FROM run_queue WHERE id = ?", (t.id,))
            self.size -= 1
            if o.refused:   # counted in this run's statistics: not again after a resume
                db.executemany("INSERT OR IGNORE INTO refused VALUES (?)",
                               [(key,) for key in o.refused])
            if o.retry:     # what it linked to before it is asked again is kept
                if o.links:
                    self.seed(o.links)
                db.execute("INSERT INTO run_queue(key, url, level, prio, depth, path, tries) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (t.key, t.url, t.level, t.level == DETAIL, t.depth,
                            json.dumps(t.path, ensure_ascii=False), t.tries + 1))
                self.size += 1
                self._dry[t.level == DETAIL] = False
                continue
            if o.links:
                self.seed(o.links)
            if o.items is not None:
                settled += self._list_items(t, o.items, run)
            if t.level == DETAIL:
                db.execute(
                    "INSERT INTO products(key, url, detail, state, touched) VALUES (?,?,?,?,?) "
                    "ON CONFLICT(key) DO UPDATE SET state = excluded.state, "
                    "touched = excluded.touched, detail = coalesce(excluded.detail, detail)",
                    (t.key, t.url, json.dumps(o.detail, ensure_ascii=False)
                     if o.detail is not None else None,
                     DETAILED if o.detail is not None else NO_DETAIL, run))
                settled.append(t.key)
            self._visit(o, run, now)
        return settled

    def _list_items(self, t: Task, items: Sequence[Item], run: int) -> list[str]:
        db = self.db
        path = json.dumps(t.path, ensure_ascii=False)
        db.execute("DELETE FROM listings WHERE page = ?", (t.key,))
        db.executemany("INSERT OR REPLACE INTO listings VALUES (?, ?, ?, ?)",
                       [(t.key, i.key, path, json.dumps(i.fields, ensure_ascii=False))
                        for i in items])
        db.executemany("INSERT OR IGNORE INTO products(key, url, state, touched) "
                       "VALUES (?, ?, ?, ?)",
                       [(i.key, i.url, PENDING if i.detail else NO_DETAIL, run)
                        for i in items])
        db.executemany("UPDATE products SET touched = ? WHERE key = ?",
                       [(run, i.key) for i in items])
        return [i.key for i in items if not i.detail]

    def _visit(self, o: Outcome, run: int, now: float) -> None:
        t = o.task
        row = self.db.execute("SELECT visits, same, changed, interval, next_visit, "
                              "fingerprint, content FROM done WHERE key = ?",
                              (t.key,)).fetchone()
        prev = History(*row[:5]) if row else None
        old_fp = _unsigned(row[5]) if row else None
        changed = row is not None and o.error is None and (
            row[6] != o.content or old_fp is None or o.fingerprint is None
            or (old_fp ^ o.fingerprint).bit_count() > self.revisit.near_bits)
        history = reschedule(prev, changed, now, self.revisit)
        if o.error is not None:  # ask again on the next recrawl
            history = History(history.visits, history.same, history.changed,
                              history.interval, now)
        self.db.execute(
            "INSERT OR REPLACE INTO done VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (t.key, t.url, t.level, t.depth, json.dumps(t.path, ensure_ascii=False),
             o.error or "ok", run, history.visits,
             _signed(o.fingerprint) if o.error is None else row[5] if row else None,
             o.content if o.error is None else row[6] if row else None,
             history.same, history.changed, history.interval, history.next_visit))

    def history(self, key: str) -> History | None:
        row = self.db.execute("SELECT visits, same, changed, interval, next_visit FROM done "
                              "WHERE key = ?", (key,)).fetchone()
        return History(*row) if row else None

    # ----- records ------------------------------------------------------------------------
    def outbox(self, after: int, limit: int = -1) -> list[tuple[int, str]]:
        """Up to ``limit`` (-1: all) outbox rows after ``after``, in order."""
        return self.db.execute("SELECT seq, record FROM outbox WHERE seq > ? ORDER BY seq "
                               "LIMIT ?", (after, limit)).fetchall()

    def sunk(self, seq: int, mark: int) -> None:
        """The sink holds every record up to ``seq`` and stands at ``mark``."""
        with self.transaction():
            self.set(sink_seq=seq, sink_mark=mark)
            self.db.execute("DELETE FROM outbox WHERE seq <= ?", (seq,))

    # ----- runs ---------------------------------------------------------------------------
    def begin_recrawl(self, now: float, *, everything: bool = False) -> int:
        """Start the next run: pages whose revisit time has come (``everything``: all
        pages) go back into the run queue (their products wait for them). Returns how
        many pages are due."""
        run = self.run + 1
        with self.transaction():
            before = self.db.total_changes
            self.db.execute(
                "INSERT OR IGNORE INTO run_queue(key, url, level, prio, depth, path) "
                "SELECT key, url, level, level = 2, depth, path FROM done "
                "WHERE next_visit <= ? OR ? ORDER BY level, key", (now, everything))
            due = self.db.total_changes - before
            self.db.execute("DELETE FROM refused")    # a run counts its refusals afresh
            self.db.execute("UPDATE products SET state = 0 WHERE key IN "
                            "(SELECT key FROM run_queue WHERE level = 2)")
            self.set(run=run, status="running", lists_done=False, sink_mark=None)
        self.size = self.db.execute("SELECT count(*) FROM run_queue").fetchone()[0]
        self._dry = [False, False]
        return due


# ----- what may enter the run queue --------------------------------------------------------
class Guards:
    """Which links may be queued, and why not (see the module docstring)."""

    def __init__(self, settings: Settings, hosts: set[str], start_url: str,
                 category_depth: int) -> None:
        self.s = settings
        self.hosts = {h.lower() for h in hosts}
        self.scope = HostScope(sorted(self.hosts))
        self.start = start_url
        self.category_depth = min(category_depth, settings.max_depth)
        self.patterns: Counter[str] = Counter()

    def host_ok(self, url: str) -> bool:
        """The fetchers' own host rule (:class:`~structurer.fetch.scope.HostScope`)."""
        return self.scope.allows(url)

    def check(self, url: str, level: int, depth: int) -> str | None:
        """Why ``url`` may not be queued, or None."""
        if not well_formed(url):
            return "malformed"
        s = self.s
        if len(url) > s.max_url_length:
            return "url_length"
        if urlsplit(url).scheme not in ("http", "https") or not self.host_ok(url):
            return "offsite"
        if sum(1 for part in urlsplit(url).path.split("/") if part) > s.max_path_depth:
            return "path_depth"
        if level == CATEGORY and depth > self.category_depth:
            return "depth"
        if any(word in url for word in s.must_exclude):
            return "excluded"
        if s.must_include and url != self.start and not any(w in url for w in s.must_include):
            return "not_included"
        return None

    def count_pattern(self, url: str) -> bool:
        """Count one more category or list page of the URL's pattern; False past the cap."""
        pattern = url_pattern(url)
        if self.patterns[pattern] >= self.s.max_pages_per_pattern:
            return False
        self.patterns[pattern] += 1
        return True
