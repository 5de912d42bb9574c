"""A static page that failed transiently once its HTTP retries were spent (a burst of
503s longer than ``retries`` allow) goes back in the queue, at most ``crawl_retries``
times, in the Scrapy runtime as in ``structurer crawl``: one policy
(:meth:`~structurer.crawler.traverse.PageReader.failed`), the same record, the same
counts (``retries`` for HTTP requests asked again, ``requeued`` for pages put back), and
the same backoff before an HTTP request is retried
(:meth:`~structurer.fetch.retry.RetryPolicy.wait`) and before the page put back is
fetched again (:func:`~structurer.crawler.outcomes.requeue_wait`)."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest

from structurer.cli import main
from structurer.fetch.retry import RetryPolicy
from tests.crawler.scrapy.conftest import finish, records, worker
from tests.crawler.test_crawl_faults import NAMES, flaky_shop

# three 503s: one fetch (a request and its 2 retries) fails, the page put back heals
SETTINGS = ["-s", "retries=2", "-s", "crawl_retries=2"]


@pytest.mark.parametrize("engine", ["scrapy", "lightweight"])
def test_a_page_whose_http_retries_ran_out_is_put_back(engine: str, tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    with flaky_shop(tmp_path, fails=3) as (rules, server):
        if engine == "scrapy":
            finish(worker([rules], out, None, *SETTINGS), out)
        else:
            main(["crawl", str(rules), "--out", str(out), *SETTINGS])
    found = {r["name"]: r for r in records(out)}
    assert (found[NAMES[1]]["sku"], found[NAMES[2]]["sku"]) == ("SKU-1", "SKU-2")
    asked = [hit.started for hit in server.hits if hit.path == "/p/1.html"]
    assert server.counts["/p/1.html"] == 4 == len(asked)
    # each retry of the request waits RetryPolicy's backoff (attempt N: at least half of
    # backoff * 2**(N-1), jitter aside), as does the page put back; before, Scrapy's
    # RetryMiddleware asked again at once
    backoff = RetryPolicy().backoff
    waits = [later - earlier for earlier, later in pairwise(asked)]
    assert waits[0] >= backoff / 2 and waits[1] >= backoff and waits[2] >= backoff / 2
    stats = json.loads(out.with_name(f"{out.name}.stats.json").read_text())
    assert not stats["failures"]
    assert (stats["retries"], stats["requeued"], stats["blank_renders"]) == (2, 1, 0)


# 403 is not retried by default; a first wait of 1.5 s doubling (at least 0.75 s, jitter
# aside) where the default waits at most 0.5 s; a Retry-After of 600 s cut to 1 s
POLICY = ["-s", "retries=2", "-s", "crawl_retries=1", "-s", "retry_statuses=[403]",
          "-s", "retry_backoff=1.5", "-s", "retry_backoff_max=1.5", "-s", "retry_after_max=1"]


@pytest.mark.parametrize("engine", ["scrapy", "lightweight"])
def test_the_retry_policy_is_a_setting_of_both_runtimes(engine: str, tmp_path: Path) -> None:
    """The statuses retried, the backoff and the cap on a server's Retry-After are
    settings (``-s retry_*``), and both runtimes follow them: a 403 asked again after a
    1.5 s backoff, then after the Retry-After cut to 1 s; its retries spent, the page is
    put back in the queue (a transient failure), waits the backoff again and heals."""
    out = tmp_path / "o.jsonl"
    with flaky_shop(tmp_path, fails=3, status=403, retry_after={2: "600"}) as (rules, server):
        if engine == "scrapy":
            finish(worker([rules], out, None, *POLICY), out)
        else:
            assert main(["crawl", str(rules), "--out", str(out), *POLICY]) == 0
    found = {r["name"]: r for r in records(out)}
    assert (found[NAMES[1]]["sku"], found[NAMES[2]]["sku"]) == ("SKU-1", "SKU-2")
    asked = [hit.started for hit in server.hits if hit.path == "/p/1.html"]
    assert server.counts["/p/1.html"] == 4 == len(asked)
    first, second, requeued = (later - earlier for earlier, later in pairwise(asked))
    assert first >= 0.75 and 1.0 <= second < 10 and requeued >= 0.75
    stats = json.loads(out.with_name(f"{out.name}.stats.json").read_text())
    assert not stats["failures"] and (stats["retries"], stats["requeued"]) == (2, 1)
