"""Fixtures of the Scrapy runtime tests: a real redis-server, two static demo shops with
learned rule files, and what ``structurer crawl`` (the lightweight runtime) makes of them.
The shops are served behind a :class:`Gate`: a test may hold their answers to chosen
requests (by path and User-Agent) until it releases them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.demo import DemoServer
from structurer.demo.base import Response
from structurer.rules import save_rules
from tests.server import closed_port

SHOPS = ["kumo", "huaxia"]      # static shops; every product sits in two categories


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis-server of its own on 127.0.0.1 (Debian's package; .ci/run installs it)."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server is not installed (apt-get install redis-server; .ci/run "
                    "installs it): the Scrapy runtime's distributed tests need it")
    port = closed_port()
    workdir = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(workdir)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}"
    client = redis.Redis.from_url(url)
    try:
        for _ in range(200):
            try:
                if client.ping():
                    break
            except redis.exceptions.ConnectionError:
                time.sleep(0.02)
        else:
            pytest.fail(f"redis-server did not answer PING on port {port}")
        yield url
    finally:
        client.close()
        process.kill()
        process.wait()


@pytest.fixture
def redis_url(redis_server: str) -> Iterator[str]:
    """The server, emptied for each test."""
    client = redis.Redis.from_url(redis_server, decode_responses=True)
    client.flushall()
    yield redis_server
    client.close()


Hold = Callable[[str, str], bool]      # (path and query, User-Agent): hold the answer?
HOLD_AT_MOST = 300.0    # seconds an answer is held at most: a failing test does not hang


class Gate:
    """Holds the shops' answers to the requests ``hold`` picks until :meth:`release` (or
    ``HOLD_AT_MOST`` seconds): a worker waiting for them keeps those requests in flight,
    and the crawl cannot end meanwhile."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._hold: Hold | None = None

    def hold(self, rule: Hold | None) -> None:
        with self._changed:
            self._hold = rule
            self._changed.notify_all()

    def release(self) -> None:
        self.hold(None)

    def wait(self, path: str, agent: str) -> None:
        with self._changed:
            rule = self._hold
            if rule is not None and rule(path, agent):
                self._changed.wait_for(lambda: self._hold is not rule, timeout=HOLD_AT_MOST)


class GatedShop:
    """A demo shop whose answers pass the gate first."""

    def __init__(self, shop: Any, gate: Gate) -> None:
        self.shop, self.gate = shop, gate
        self.name = shop.name

    @property
    def routes(self) -> Mapping[str, Callable[[], Response]]:
        return self.shop.routes  # type: ignore[no-any-return]

    def handle(self, path_and_query: str) -> Response:
        return self.shop.handle(path_and_query)  # type: ignore[no-any-return]

    def handle_request(self, path_and_query: str, headers: Any) -> Response:
        self.gate.wait(path_and_query, headers.get("User-Agent", ""))
        answer = getattr(self.shop, "handle_request", None)
        return answer(path_and_query, headers) if answer is not None \
            else self.shop.handle(path_and_query)


@dataclass
class Shops:
    rules: list[Path]
    expected: dict[str, dict[str, Any]]     # url -> the lightweight crawler's record
    gate: Gate


@pytest.fixture(scope="module")
def shops(demo_server: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shops]:
    """Rule files learned from the two shops (static analysis: no browser), and the
    records ``structurer crawl`` writes for them; the shops' server of their own, gated."""
    tmp = tmp_path_factory.mktemp("shops")
    gate = Gate()
    with DemoServer([GatedShop(demo_server.shops[shop], gate) for shop in SHOPS]) as server:
        paths, expected = [], {}
        for shop in SHOPS:
            rules, _ = analyze_site(server.urls[shop] + "/", settings=Settings(render="static"))
            paths.append(save_rules(rules, tmp / f"{shop}.yaml"))
            out = tmp / f"{shop}.jsonl"
            crawl_site(rules, out, Settings(concurrency=8))
            for line in out.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                expected[record["url"]] = record
        try:
            yield Shops(paths, expected, gate)
        finally:
            gate.release()


def worker(rules: list[Path], out: Path, redis_url: str | None, *args: str
           ) -> subprocess.Popen[bytes]:
    """``structurer crawl RULES... --engine scrapy [--redis URL] --out OUT`` as a process
    (its output and errors in OUT.log)."""
    command = [sys.executable, "-m", "structurer", "crawl", *map(str, rules), "--engine",
               "scrapy", "--out", str(out), *args]
    if redis_url:
        command += ["--redis", redis_url]
    log = open(out.with_suffix(".log"), "ab")  # noqa: SIM115  # the child holds it
    try:
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    finally:
        log.close()


def finish(process: subprocess.Popen[bytes], out: Path, timeout: float = 120) -> None:
    code = process.wait(timeout=timeout)
    log = out.with_suffix(".log").read_text(errors="replace")
    assert code == 0, f"worker {out.name} exited with {code}:\n{log[-3000:]}"


def records(*outs: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for out in outs
            for line in out.read_text(encoding="utf-8").splitlines()]
