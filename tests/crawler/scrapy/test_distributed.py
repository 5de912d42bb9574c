"""The Scrapy runtime against two demo shops at once: alone, with two scrapy-redis workers,
and with a worker killed (SIGKILL) mid-crawl and started again. Every run must write
exactly the records ``structurer crawl`` writes for those shops — same URLs, same
field values, same category paths — each product exactly once over all outputs."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis

from structurer.cli import main
from structurer.crawler.scrapy.worker import crawl_name, worker_id
from structurer.rules import load_rules
from tests.crawler.scrapy.conftest import Shops, finish, records, worker

DELAY = "0.02"      # seconds between requests of a worker: a crawl of the two shops lasts
                    # seconds, so that both workers get work and a kill lands mid-crawl


def _same_as_lightweight(found: list[dict[str, Any]], shops: Shops) -> None:
    twice = [url for url, n in Counter(r["url"] for r in found).items() if n > 1]
    assert not twice, f"emitted more than once: {twice[:3]}"
    by_url = {r["url"]: r for r in found}
    assert set(by_url) == set(shops.expected), (
        sorted(set(shops.expected) - set(by_url))[:3], sorted(set(by_url) - set(shops.expected))[:3])
    # every field the same, category paths included
    wrong = [url for url, record in by_url.items() if record != shops.expected[url]]
    assert not wrong, (wrong[:1], [by_url[u] for u in wrong[:1]], [shops.expected[u] for u in wrong[:1]])


def _stats(out: Path) -> dict[str, Any]:
    return json.loads(out.with_name(f"{out.name}.stats.json").read_text())


def test_single_process_scrapy_crawl(shops: Shops, tmp_path: Path) -> None:
    out = tmp_path / "alone.jsonl"
    report = tmp_path / "alone.html"
    finish(worker(shops.rules, out, None, "--report", str(report)), out)
    _same_as_lightweight(records(out), shops)
    stats = _stats(out)
    assert stats["engine"] == "scrapy" and stats["complete"]
    assert stats["pages"]["detail"] == len(shops.expected) == stats["records"]
    # the crawl report of a Scrapy worker: its figures and a timeline ending at them
    last = stats["timeline"][-1]
    assert (last["pages"], last["items"], last["records"]) == (
        stats["pages_total"], stats["items"], stats["records"])
    html = report.read_text(encoding="utf-8")
    assert f'data-stat="records" data-value="{stats["records"]}"' in html


def test_two_workers_share_one_crawl(shops: Shops, redis_url: str, tmp_path: Path) -> None:
    outs = [tmp_path / "w1.jsonl", tmp_path / "w2.jsonl"]
    processes = [worker(shops.rules, out, redis_url, "--delay", DELAY) for out in outs]
    for process, out in zip(processes, outs, strict=True):
        finish(process, out)
    _same_as_lightweight(records(*outs), shops)
    stats = [_stats(out) for out in outs]
    assert all(s["pages_total"] > 0 and s["complete"] for s in stats), stats
    # no page was fetched twice: the shared queue and duplicate filter split the work
    details = sum(s["pages"].get("detail", 0) for s in stats)
    assert details == len(shops.expected)
    assert sum(s["records"] for s in stats) == len(shops.expected)


def _wait_for(condition: Any, what: str, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def _kill_when(process: subprocess.Popen[bytes], ready: Callable[[], bool], what: str) -> None:
    _wait_for(lambda: ready() or process.poll() is not None, what)
    assert process.poll() is None, f"the victim finished before {what}"
    process.kill()      # SIGKILL: no cleanup of any kind
    process.wait()


VICTIM = "structurer-test-victim"      # the killed worker's User-Agent: the shops know it


def test_a_killed_worker_loses_nothing(shops: Shops, redis_url: str, tmp_path: Path) -> None:
    """Kill one worker while it holds pages taken from the queue — first early in the
    crawl, then once it has written records — and start it again each time; then a
    second worker joins it. Each kill lands while the victim holds pages by
    construction, however loaded the machine: the shops hold their answers (to the
    victim's every request, then to one product page) until it is killed, so the crawl
    cannot end before."""
    victim, other = tmp_path / "victim.jsonl", tmp_path / "other.jsonl"
    crawl = crawl_name([load_rules(p) for p in shops.rules])
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    inflight = f"{crawl}:inflight:{worker_id(victim)}"
    claims = f"{crawl}:claims:{worker_id(victim)}"
    as_victim = ("--delay", DELAY, "-s", f"user_agent={VICTIM}")
    held = min(urlsplit(url)._replace(scheme="", netloc="").geturl()
               for url in shops.expected if url.isascii())
    # 1. alone, its answers held: it is killed holding the start pages it took
    shops.gate.hold(lambda path, agent: agent == VICTIM)
    _kill_when(worker(shops.rules, victim, redis_url, *as_victim),
               lambda: client.hlen(inflight) > 0, "kill point 0")
    # 2. restarted, it takes back what it held and crawls alone; one product page is held:
    # it is killed holding it, with every other record claimed
    shops.gate.hold(lambda path, agent: path == held)
    _kill_when(worker(shops.rules, victim, redis_url, *as_victim),
               lambda: client.hlen(inflight) > 0 and client.llen(claims) >= 3, "kill point 1")
    assert client.llen(claims) < len(shops.expected)
    # 3. nothing held: restarted once more, with a second worker
    shops.gate.release()
    process = worker(shops.rules, victim, redis_url, *as_victim)
    survivor = worker(shops.rules, other, redis_url, "--delay", DELAY)
    finish(process, victim)
    finish(survivor, other)
    _same_as_lightweight(records(victim, other), shops)
    # what the killed runs had taken from the queue was done by someone: nothing waits
    assert client.exists(f"{crawl}:complete")
    assert not client.hlen(inflight)
    client.close()
    assert "requests its last run had in flight" in victim.with_suffix(".log").read_text()


def test_missing_scrapy_is_one_line(shops: Shops, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    for name in [m for m in sys.modules if m == "scrapy" or m.startswith(("scrapy.",
                                                                           "structurer.crawler.scrapy"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "scrapy", None)     # import scrapy raises ImportError
    code = main(["crawl", str(shops.rules[0]), "--engine", "scrapy", "--out",
                 str(tmp_path / "x.jsonl")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == ["structurer: error: the Scrapy engine needs Scrapy: pip install "
                   "'structurer[scale]'"]


def test_bad_engine_options_are_one_line(shops: Shops, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.jsonl")
    assert main(["crawl", *map(str, shops.rules), "--out", out]) == 2
    assert "need --engine scrapy" in capsys.readouterr().err
    assert main(["crawl", str(shops.rules[0]), "--engine", "scrapy", "--resume",
                 "--out", out]) == 2
    assert "--resume: not with --engine scrapy" in capsys.readouterr().err
    assert main(["crawl", str(shops.rules[0]), "--engine", "scrapy", "--out", out,
                 "--redis", "redis://127.0.0.1:1"]) == 2
    assert "cannot reach Redis" in capsys.readouterr().err


@pytest.mark.parametrize("broken", [False, True])
def test_workers_check_the_whole_crawl_for_drift(broken: bool, shops: Shops, redis_url: str,
                                                  tmp_path: Path) -> None:
    """Two workers of one shop's crawl: the last to finish checks every worker's figures
    together against the rule file's baselines. A shop whose list markup changed (the
    item XPath now matches nothing) is reported, and, no record written by any worker,
    the crawl fell short (exit 1, as ``structurer crawl``'s); the unchanged shop is not."""
    rules = shops.rules[0]
    if broken:
        text = rules.read_text(encoding="utf-8")
        item = next(line for line in text.splitlines() if "item_xpath:" in line)
        rules = tmp_path / rules.name
        rules.write_text(text.replace(item, item.split("item_xpath:")[0]
                                      + "item_xpath: //nothing-here"), encoding="utf-8")
    outs = [tmp_path / "w1.jsonl", tmp_path / "w2.jsonl"]
    processes = [worker([rules], out, redis_url, "--delay", DELAY) for out in outs]
    for process, out in zip(processes, outs, strict=True):
        if broken:
            assert process.wait(timeout=120) == 1
            assert "fell short: no records" in out.with_suffix(".log").read_text()
        else:
            finish(process, out)
    stats = [_stats(out) for out in outs]
    assert all(s["complete"] is not broken for s in stats), stats
    checked = [s["drift"] for s in stats if s["drift_checked"]]
    assert checked, stats           # (both, when they finish at the same moment)
    for drift in checked:
        if broken:
            assert any(d.startswith("list") for d in drift), drift
        else:
            assert drift == [], drift
    # a worker that finished first, and saw a share only, says nothing
    assert all(s["drift"] == [] for s in stats if not s["drift_checked"]), stats


def test_a_distributed_crawl_without_records_is_not_complete(
        tiny_site: Callable[[dict[str, str]], str], redis_url: str, tmp_path: Path) -> None:
    """Two workers share a crawl of the issue's shop (grids a script fills, rules that say
    every level is static): no worker writes a record, and none calls the crawl complete
    (each says it fell short, exit 1); the last to finish warns by level over both
    workers' figures."""
    from tests.crawler.test_completeness import _rules
    from tests.learn.test_render_content import json_grid_shop

    rules = tmp_path / "shop.yaml"
    rules.write_text(_rules(tiny_site(json_grid_shop()).removeprefix("http://")))
    outs = [tmp_path / "w1.jsonl", tmp_path / "w2.jsonl"]
    processes = [worker([rules], out, redis_url) for out in outs]
    logs = []
    for process, out in zip(processes, outs, strict=True):
        assert process.wait(timeout=120) == 1
        logs.append(out.with_suffix(".log").read_text(errors="replace"))
        stats = _stats(out)
        assert stats["complete"] is False and stats["records"] == 0
        assert stats["shortfall"].startswith("no records")
    assert all("fell short: no records" in log and "crawl structurer:" not in log
               for log in logs), logs
    assert any("drift: list: no list page reached" in log for log in logs), logs
