"""kill -9 at three random moments, --resume each time: the output equals an uninterrupted
crawl — no record lost, none twice, no torn line."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.demo import DemoServer
from structurer.rules import save_rules
from tests.conftest import Analyzed


def _records(path: Path) -> list[dict[str, Any]]:
    return sorted((json.loads(line) for line in path.read_text().splitlines()),
                  key=lambda r: r["url"])


def test_kill_9_three_times_then_resume(demo_server: DemoServer, analyzed: Analyzed,
                                       tmp_path: Path) -> None:
    rules, _ = analyzed(demo_server.urls["outfitters"] + "/", "static")
    rules_file = save_rules(rules, tmp_path / "rules.yaml")
    crawl_site(rules, tmp_path / "reference.jsonl", Settings())
    reference = _records(tmp_path / "reference.jsonl")
    assert len(reference) == 150

    seed = int(time.time() * 1000) % 100_000
    rnd = random.Random(seed)
    out = tmp_path / "out.jsonl"
    # 20 ms between requests: the crawl takes about 4 s. The first kill lands while category
    # and list pages are read, the second once records are being written, the third at
    # random again; none of them late enough for the session to have finished
    command = [sys.executable, "-m", "structurer", "crawl", str(rules_file), "--out", str(out),
               "--delay", "0.02"]
    moments: list[tuple[float, int]] = []
    for session in range(3):
        process = subprocess.Popen([*command, *(["--resume"] if session else [])],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started = time.monotonic()
        if session == 1:
            while not (out.exists() and out.stat().st_size) and time.monotonic() - started < 60:
                time.sleep(0.01)
            time.sleep(rnd.uniform(0.0, 0.3))
        else:
            time.sleep(rnd.uniform(0.6, 1.4))
        assert process.poll() is None, (seed, session, process.stderr and process.stderr.read())
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait() == -signal.SIGKILL
        lines = out.read_bytes().splitlines() if out.exists() else []
        moments.append((round(time.monotonic() - started, 2), len(lines)))
        # whatever the file holds now, later sessions cut back to what the state confirms
        assert len({json.loads(line)["url"] for line in lines[:-1]}) == len(lines[:-1])
    assert moments[1][1] > 0, moments  # the second kill hit a crawl that was writing records
    done = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = _records(out)
    assert len(got) == len(reference) and got == reference, (seed, moments)
    print("kills (seconds after start, records in the file):", moments)
    stats = json.loads((tmp_path / "out.jsonl.stats.json").read_text())
    assert stats["records"] == 150 and stats["pages"]["detail"] >= 150
