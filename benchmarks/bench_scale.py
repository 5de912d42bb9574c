"""Scaling out: pages/s with 1, 2 and 4 scrapy-redis workers vs ``structurer crawl``.

Input: nothing. The large ``outfitters`` copy of ``bench_crawl.py`` (pre-rendered,
served by nginx on a free loopback port) and its rule file learned by ``structurer
analyze``; a redis-server of its own on a free port. In one run: the lightweight
``structurer crawl``, the Scrapy engine alone (``--engine scrapy``, no Redis), then N
workers (``--engine scrapy --redis``) started together for N = 1, 2, 4, Redis emptied
between runs. Each run must give every product exactly once (over all workers'
outputs). Output: one table — pages, products, wall seconds from the first process
start to the last exit (process start-up included; the best of ``--repeat`` runs),
pages/s over that wall time, CPU seconds of all crawler processes (the steadier figure
on a busy machine) — and the pages each worker fetched.

    python benchmarks/bench_scale.py [--per-leaf 200] [--concurrency 16] [--workers 1 2 4]
                                     [--repeat 2]

Needs nginx and redis-server (Debian packages) and the ``scale`` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_crawl import free_port, render, start_nginx  # the nginx-served shop

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.rules import save_rules


def start_redis(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no", "--dir", str(tmp)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        done = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True,
                              text=True, check=False)
        if done.stdout.strip() == "PONG":
            return server, f"redis://127.0.0.1:{port}"
        time.sleep(0.02)
    server.kill()
    raise SystemExit("redis-server did not start")


def run_together(commands: list[list[str]]) -> dict[str, float]:
    """Start ``commands`` at once; wall seconds until the last exits, CPU seconds of all."""
    started = time.perf_counter()
    processes = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for c in commands]
    cpu = 0.0
    for process in processes:
        _, status, usage = os.wait4(process.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
        stderr = process.stderr.read() if process.stderr else b""
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{process.args[:6]} failed: {stderr.decode()[-2000:]}")
    return {"wall": time.perf_counter() - started, "cpu": cpu}


def outputs(paths: list[Path], catalog: int) -> tuple[int, list[int]]:
    """(products over all outputs, pages per worker); every product exactly once."""
    urls = [json.loads(line)["url"] for p in paths for line in p.read_text().splitlines()]
    if len(urls) != len(set(urls)) or len(urls) != catalog:
        raise SystemExit(f"{len(urls)} records ({len(set(urls))} distinct), not {catalog}")
    pages = [json.loads(p.with_name(f"{p.name}.stats.json").read_text())["pages_total"]
             for p in paths]
    return len(urls), pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-leaf", type=int, default=200, help="products per leaf category")
    parser.add_argument("--concurrency", type=int, default=16, help="per process")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--repeat", type=int, default=2, help="runs per row; the best counts")
    args = parser.parse_args()
    for tool in ("nginx", "redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            raise SystemExit(f"needs {tool}: apt-get install -y nginx redis-server")
    tmp = Path(tempfile.mkdtemp(prefix="bench_scale_"))
    tmp.chmod(0o755)
    root = tmp / "site"
    root.mkdir()
    pages, catalog = render(args.per_leaf, root)
    load = os.getloadavg()
    server, base = start_nginx(root, tmp)
    redis_server, redis_url = start_redis(tmp)
    crawl = [sys.executable, "-m", "structurer", "crawl"]
    n = ["--concurrency", str(args.concurrency)]
    rows: list[dict[str, Any]] = []
    try:
        rules, _ = analyze_site(base + "/", settings=Settings(render="static"))
        rules_file = str(save_rules(rules, tmp / "rules.yaml"))
        configs: list[tuple[str, int, list[str]]] = [
            ("structurer crawl", 1, []), ("scrapy, no Redis", 1, ["--engine", "scrapy"]),
            *[("scrapy-redis", w, ["--engine", "scrapy", "--redis", redis_url])
              for w in args.workers]]
        for c, (name, workers, options) in enumerate(configs):
            best: dict[str, Any] = {}
            for _ in range(args.repeat):
                subprocess.run(["redis-cli", "-u", redis_url, "flushall"], check=True,
                               capture_output=True)
                outs = [tmp / f"run{c}_{i}.jsonl" for i in range(workers)]
                figures = run_together([[*crawl, rules_file, *options, "--out", str(o),
                                         "--overwrite", *n] for o in outs])
                got, per = outputs(outs, catalog)
                if not best or figures["wall"] < best["wall"]:
                    best = {"name": name, "workers": workers, "products": got, "pages": per,
                            **figures}
            rows.append(best)
    finally:
        server.terminate()
        redis_server.terminate()
        server.wait()
        redis_server.wait()
    print(f"shop: {pages} pre-rendered pages ({catalog} products) served by nginx at {base}; "
          f"concurrency {args.concurrency} per process; {os.cpu_count()} CPUs; best of "
          f"{args.repeat}; load average before: {load[0]:.1f}")
    print(f"{'engine':<18}{'workers':>8}{'pages':>7}{'products':>10}{'wall s':>8}"
          f"{'pages/s':>9}{'CPU s':>8}  pages per worker")
    for r in rows:
        total = sum(r["pages"])
        print(f"{r['name']:<18}{r['workers']:>8}{total:>7}{r['products']:>10}"
              f"{r['wall']:>8.2f}{total / r['wall']:>9.0f}{r['cpu']:>8.1f}  "
              f"{' '.join(map(str, r['pages']))}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
