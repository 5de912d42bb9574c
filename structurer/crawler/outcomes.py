"""What becomes of a settled page of a crawl: counted, failed, or unreadable.

Input: an :class:`~structurer.crawler.frontier.Outcome` (a page read, or one that could
not be fetched or read). Output: its counts in :class:`~structurer.crawler.stats.CrawlStats`
(:func:`count_page`, both runtimes count alike), the outcome of a page that could not
be read (:func:`unreadable`), the failure kinds both runtimes treat alike: refusals
that are not failures (``SKIPS``), pages gone (``GONE``), failures worth asking again
for (:func:`transient`), and how long a page put back in the queue waits before it is
fetched again (:func:`requeue_wait`).
"""

from __future__ import annotations

from collections.abc import Collection

from structurer.crawler.frontier import LEVELS, LIST, Outcome, Task
from structurer.crawler.stats import CrawlStats
from structurer.fetch.retry import RetryPolicy
from structurer.logs import logger
from structurer.replay.xpaths import RuleTimeout

log = logger(__name__)

__all__ = ["GONE", "SKIPS", "TRANSPORT", "count_page", "requeue_wait", "transient",
           "unreadable"]

# fetch refusals that are not failures, and a guessed next page that is not there
SKIPS = frozenset({"robots", "offsite", "past_last_page"})
GONE = frozenset({"http 404", "http 410"})
DEFAULT_POLICY = RetryPolicy()
# failures both runtimes ask a page again for (``crawl_retries``; a slow render too)
# whatever the retry policy's statuses (:func:`transient`)
TRANSPORT = frozenset({"timeout", "render_timeout", "connection"})

def count_page(stats: CrawlStats, o: Outcome) -> None:
    """Count one settled page in the statistics (both engines count alike)."""
    stats.skipped.update(o.skipped)
    if o.error is not None:
        (stats.skipped if o.error in SKIPS else stats.failures)[o.error] += 1
        return
    stats.pages[LEVELS[o.task.level]] += 1
    stats.bytes += o.size
    if o.detail is not None:
        stats.count("detail", [o.detail])
    if o.items is not None and o.is_list:
        stats.list_pages += 1
        stats.categories_listed += o.task.level != LIST     # not a next page
        stats.empty_lists += not o.items
        stats.items += len(o.items)
        stats.count("list", [i.fields for i in o.items])


def unreadable(task: Task, error: Exception) -> Outcome:
    """The outcome of a fetched page that could not be read, logged once: a rule file
    that ran over its time budget on it (``rule_timeout``, naming the costly rule), or a
    page lxml refuses (``parse``). One page never ends the crawl."""
    if isinstance(error, RuleTimeout):
        log.warning("%s", error)
        return Outcome(task, error="rule_timeout")
    log.warning("%s: cannot read the page: %s: %s", task.url, type(error).__name__, error)
    return Outcome(task, error="parse")


def transient(kind: str, statuses: Collection[int]) -> bool:
    """Whether a failure of ``kind`` is worth asking the page again for: a transport
    failure, or one of the ``statuses`` the crawl's retry policy retries."""
    return kind in TRANSPORT or kind in {f"http {status}" for status in statuses}


def requeue_wait(tries: int, retry_after: str | None = None,
                 policy: RetryPolicy = DEFAULT_POLICY) -> float:
    """Seconds a page put back in the queue ``tries`` times waits before it is fetched
    again (0 for a first fetch): the backoff of a retried HTTP request
    (:class:`~structurer.fetch.retry.RetryPolicy`: doubling with jitter, capped, or the
    server's ``Retry-After``), by the times the page was put back — in both runtimes, so
    a server that failed transiently is not asked again at once (``policy``: the crawl's,
    :meth:`~structurer.fetch.retry.RetryPolicy.from_settings`)."""
    return policy.wait(tries, retry_after) if tries > 0 else 0.0
