"""The shared request queue: scrapy-redis's priority queue, with nothing lost to a dead worker.

scrapy-redis hands a request to a worker by removing it from the queue; a worker killed
before it finished the page would lose it (and the duplicate filter would refuse it
later). :class:`TrackedQueue` moves each popped request, in one Lua step, into the
worker's ``inflight`` hash under a token (the SHA-1 of its bytes); the spider's last
call for the page (:mod:`structurer.crawler.scrapy.state`) deletes the token, once
every effect of the page is stored and its follow-up requests queued.
What a worker leaves behind goes back to the queue (:meth:`Workers.reclaim`): its own
at its restart, another's once that worker's heartbeat key has expired. Such a
request comes back marked ``recovered``, so the page is read again and re-queues what
it had already claimed but may not have queued (see the spider).

:meth:`Workers.complete` tells, in one MULTI snapshot, when a crawl is over: no request
queued or in flight anywhere, every site seeded with its lists done, and no product
waiting for its detail page or for its record to be claimed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from scrapy_redis.queue import PriorityQueue

__all__ = ["RECOVERED", "TOKENS", "TrackedQueue", "Workers"]

TOKENS = "structurer_tokens"        # request.meta: in-flight tokens to clear when done
RECOVERED = "structurer_recovered"  # request.meta: taken back from a dead worker
RECOVERED_PRIORITY = 100   # above every level's own priority: a protocol constant

_POP = """
local got = redis.call('ZRANGE', KEYS[1], 0, 0)
if #got == 0 then return false end
redis.call('ZREM', KEYS[1], got[1])
local token = redis.sha1hex(got[1])
redis.call('HSET', KEYS[2], token, got[1])
return {got[1], token, redis.call('SREM', KEYS[3], token)}
"""
_RECLAIM = """
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  redis.call('ZADD', KEYS[2], ARGV[1], all[i + 1]); redis.call('SADD', KEYS[3], all[i])
end
redis.call('DEL', KEYS[1])
return #all / 2
"""


class TrackedQueue(PriorityQueue):  # type: ignore[misc]
    """scrapy-redis's priority queue whose pop records the request as in flight."""

    def __init__(self, server: Any, spider: Any, key: str, serializer: Any = None) -> None:
        super().__init__(server, spider, key, serializer)
        self.workers: Workers = spider.workers
        self._pop = server.register_script(_POP)

    def pop(self, timeout: int = 0) -> Any:
        got = self._pop(keys=[self.key, self.workers.inflight, self.workers.recovered])
        if not got:
            return None
        data, token, recovered = got
        request = self._decode_request(data)
        # a redirect or retry may be finished by another worker: keep whose token it is
        request.meta[TOKENS] = [*request.meta.get(TOKENS, []),
                                [self.workers.inflight, token.decode()]]
        if recovered:
            request.meta[RECOVERED] = True
        return request


class Workers:
    """The workers of one crawl in Redis: heartbeats, in-flight requests, completion."""

    def __init__(self, client: Any, crawl: str, worker: str, *, heartbeat: float) -> None:
        self.r, self.crawl, self.worker, self.ttl = client, crawl, worker, heartbeat
        self.queue = f"{crawl}:requests"
        self.inflight = f"{crawl}:inflight:{worker}"
        self.recovered = f"{crawl}:recovered"
        self.members = f"{crawl}:workers"
        self.complete_key = f"{crawl}:complete"
        self._reclaim = client.register_script(_RECLAIM)

    def beat(self) -> None:
        pipe = self.r.pipeline(transaction=False)
        pipe.sadd(self.members, self.worker)
        pipe.set(f"{self.crawl}:alive:{self.worker}", "1", px=max(1, int(self.ttl * 1000)))
        pipe.execute()

    def leave(self) -> None:
        """A worker that stops before the crawl is over gives its requests back."""
        self.reclaim(self.worker)
        self.r.delete(f"{self.crawl}:alive:{self.worker}")

    def reclaim(self, worker: str) -> int:
        """Put ``worker``'s in-flight requests back into the queue; how many."""
        return int(self._reclaim(keys=[f"{self.crawl}:inflight:{worker}", self.queue,
                                       self.recovered], args=[-RECOVERED_PRIORITY]))

    def reclaim_dead(self) -> int:
        """Take back the requests of every worker whose heartbeat expired."""
        others = [w for w in self.r.smembers(self.members) if w != self.worker]
        if not others:
            return 0
        pipe = self.r.pipeline(transaction=False)
        for other in others:
            pipe.exists(f"{self.crawl}:alive:{other}")
        alive = pipe.execute()
        return sum(self.reclaim(w) for w, up in zip(others, alive, strict=True) if not up)

    def publish(self, stats: dict[str, Any]) -> list[dict[str, Any]] | None:
        """Keep this worker's statistics (its last run's) with the crawl; once every
        worker of the crawl has kept its own, all of them (else None: a later one will)."""
        key = f"{self.crawl}:stats"
        self.r.hset(key, self.worker, json.dumps(stats))
        pipe = self.r.pipeline(transaction=True)
        pipe.smembers(self.members)
        pipe.hgetall(key)
        members, kept = pipe.execute()
        if not set(members) <= set(kept):
            return None
        return [json.loads(v) for _, v in sorted(kept.items())]

    def complete(self, sites: Iterable[str]) -> bool:
        """Whether the crawl is over (see the module docstring); marks it so."""
        if self.r.exists(self.complete_key):
            return True
        workers = list(self.r.smembers(self.members))
        sites = list(sites)
        pipe = self.r.pipeline(transaction=True)
        pipe.zcard(self.queue)
        for worker in workers:
            pipe.hlen(f"{self.crawl}:inflight:{worker}")
        for site in sites:
            pipe.exists(f"{self.crawl}:{site}:seeded")
            for name in ("pending", "waiting", "unemitted"):
                pipe.scard(f"{self.crawl}:{site}:{name}")
        got = pipe.execute()
        busy = got[:1 + len(workers)]
        per_site = [got[1 + len(workers) + 4 * i: 1 + len(workers) + 4 * (i + 1)]
                    for i in range(len(sites))]
        if any(busy) or not all(s[0] and not any(s[1:]) for s in per_site):
            return False
        self.r.set(self.complete_key, "1")
        return True
