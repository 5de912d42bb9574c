"""The same shop analyzed twice gives the same rule file, apart from its timestamp.

Each analysis runs in its own process with another ``PYTHONHASHSEED`` (so any choice that
follows the iteration order of a set or a dict of strings shows), on demo shops and on zoo
shops whose pages change with cookies ("recently viewed"), fail on their first request
(a 500, then fine), or hold grids a script fills (a browser level, its pager driven by a
script): analysis sends no cookies, which request meets a page's first answer is fixed,
and so is what the rendered pages measure. (The tie-break between two equally good
Bootstrap classes of the item XPath is tests/learn/test_listing.py's.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from structurer.demo import DemoServer, get_shop
from structurer.demo.zoo import ZooShop, axes_of_seed

ROOT = Path(__file__).resolve().parents[2]


def _seed(**want: str) -> int:
    return next(s for s in range(200) if all(axes_of_seed(s)[k] == v for k, v in want.items()))


SHOPS = {
    "kumo": get_shop("kumo"),
    "outfitters": get_shop("outfitters"),
    "recently_viewed": ZooShop(_seed(session="recently_viewed", list_render="static",
                                     detail_render="static", classes="bootstrap")),
    "first_500": ZooShop(_seed(session="first_500", list_render="static",
                               detail_render="static", discovery="server_menu")),
    # grids a script fills from JSON, a script-driven pager: a browser level whose render
    # decision and measurements, and a pager URL pattern inferred and verified, go in
    # the rule file
    "json_grid": ZooShop(_seed(list_render="json_grid", pagination="script",
                               detail_render="static", session="none")),
}
#: shops analyzed with the browser comparing raw and rendered pages (the rest: static)
AUTO = {"first_500", "json_grid"}


def _analyze(url: str, out: Path, hash_seed: str, render: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-m", "structurer", "analyze", url, "--out", str(out),
                           "--render", render, "--max-pages", "30"], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=600)
    assert done.returncode in (0, 1), done.stderr     # 1: a level missing, said the same way
    [rules] = out.glob("*.yaml")
    return "".join(line for line in rules.read_text().splitlines(True)
                   if not line.startswith("generated_at:"))


@pytest.mark.timeout(900)      # ten analyses, three at a time, in their own processes
def test_the_same_shop_analyzed_twice_gives_the_same_rule_file(tmp_path: Path) -> None:
    with DemoServer(list(SHOPS.values())) as server:
        jobs = [(name, seed, server.urls[shop.name] + "/", "auto" if name in AUTO else "static")
                for name, shop in SHOPS.items() for seed in ("1", "2")]
        with ThreadPoolExecutor(3) as pool:
            texts = list(pool.map(lambda j: _analyze(j[2], tmp_path / f"{j[0]}-{j[1]}", j[1],
                                                     j[3]), jobs))
    by_shop: dict[str, list[str]] = {}
    for (name, _, _, _), text in zip(jobs, texts, strict=True):
        by_shop.setdefault(name, []).append(text)
    different = [name for name, (one, two) in by_shop.items() if one != two]
    assert not different, different
    assert "session:" not in by_shop["recently_viewed"][0]
