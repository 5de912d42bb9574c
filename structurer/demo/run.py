"""``structurer demo run``: the README's one-command demo.

Input: shop names (default all). Output: the shops served on 127.0.0.1, a table of
what each one holds (checked over HTTP against its ground truth), the ground
truth written as JSON under ``out``, and a return code. Analysis and crawling
join this demo as soon as the library has them.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from structurer.demo.server import DemoServer
from structurer.demo.shops import all_shops, get_shop
from structurer.errors import StructurerError
from structurer.lexicon import load_lexicon, shipped_templates


def _reachable(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def run_demo(names: Sequence[str], *, out: str | Path) -> int:
    try:
        shops = [get_shop(n) for n in names] if names else all_shops()
    except KeyError as error:
        raise StructurerError(str(error.args[0])) from None
    console = Console()
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, path in shipped_templates().items():
        lexicon = load_lexicon(path)
        console.print(f"lexicon [bold]{name}[/]: {len(lexicon.fields)} fields, "
                      f"{lexicon.content_hash()}  ({path})")
    table = Table(title="demo shops on 127.0.0.1")
    for column in ("shop", "url", "categories", "list pages", "products", "render", "sample"):
        table.add_column(column, overflow="fold")
    failed = 0
    with DemoServer(shops) as server:
        for shop in shops:
            url = server.urls[shop.name]
            truth = shop.ground_truth(url)
            (out_dir / f"{shop.name}.truth.json").write_text(
                json.dumps(truth, ensure_ascii=False, indent=1), encoding="utf-8")
            sample = truth["products"][0]
            pages_ok = all(_reachable(u) for u in [truth["home"], *list(truth["list_pages"])[:3],
                                                   sample["url"]])
            failed += not pages_ok
            table.add_row(
                shop.name, url + "/", str(len(truth["categories"])),
                str(len(truth["list_pages"])), str(len(truth["products"])),
                "/".join(v[0] for v in shop.render.values()),
                f"{sample['name']} — {sample['price_text']}"
                + ("" if pages_ok else "  [red]UNREACHABLE"))
    console.print(table)
    console.print(f"ground truth written to {out_dir}/*.truth.json")
    console.print("[yellow]note:[/] `structurer analyze` and `structurer crawl` are not in this "
                  "version yet (issues #3, #4); this demo grows into analyze + crawl as they land.")
    return 1 if failed else 0
