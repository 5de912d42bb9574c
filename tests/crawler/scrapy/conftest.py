"""Fixtures of the Scrapy runtime tests: a real redis-server, two static demo shops with
learned rule files, and what ``structurer crawl`` (the lightweight runtime) makes of them."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.demo import DemoServer
from structurer.rules import save_rules

SHOPS = ["kumo", "huaxia"]      # static shops; every product sits in two categories


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis-server of its own on 127.0.0.1 (Debian's package; .ci/run installs it)."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server is not installed (apt-get install redis-server; .ci/run "
                    "installs it): the Scrapy runtime's distributed tests need it")
    port = free_port()
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


@dataclass
class Shops:
    rules: list[Path]
    expected: dict[str, dict[str, Any]]     # url -> the lightweight crawler's record


@pytest.fixture(scope="module")
def shops(demo_server: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> Shops:
    """Rule files learned from the two shops (static analysis: no browser), and the
    records ``structurer crawl`` writes for them."""
    tmp = tmp_path_factory.mktemp("shops")
    paths, expected = [], {}
    for shop in SHOPS:
        rules, _ = analyze_site(demo_server.urls[shop] + "/", settings=Settings(render="static"))
        paths.append(save_rules(rules, tmp / f"{shop}.yaml"))
        out = tmp / f"{shop}.jsonl"
        crawl_site(rules, out, Settings(concurrency=8))
        for line in out.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            expected[record["url"]] = record
    return Shops(paths, expected)


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
