"""``structurer demo``: the bundled demo shops and news site on 127.0.0.1."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from structurer.cli.output import EXIT_BAD_INPUT, EXIT_OK, say
from structurer.errors import StructurerError


def _demo_shops(names: Sequence[str]) -> list[object]:
    from structurer.demo import all_shops, get_shop
    from structurer.demo.news import NewsSite

    try:  # the news site is served and has truth, but is not a shop (named only)
        return list(all_shops()) if not names else [
            NewsSite() if n == NewsSite.name else get_shop(n) for n in names]
    except KeyError as error:
        raise StructurerError(str(error.args[0])) from None


def cmd_demo_list(args: argparse.Namespace) -> int:
    from structurer.demo import all_shops

    for shop in all_shops():
        render = "/".join(f"{k}={v}" for k, v in shop.render.items())
        say(f"{shop.name:<11} {shop.title:<20} {len(shop.catalog.products):>4} products  "
            f"{render}\n            {shop.hard}")
    return EXIT_OK


def cmd_demo_serve(args: argparse.Namespace) -> int:
    from structurer.demo import DemoServer

    shops = _demo_shops(args.shops)
    ports = ({shop.name: args.port + i for i, shop in enumerate(shops)}  # type: ignore[attr-defined]
             if args.port else None)
    try:
        server = DemoServer(shops, ports=ports).start()  # type: ignore[arg-type]
    except OSError as error:
        raise StructurerError(f"cannot listen on 127.0.0.1: {error.strerror}") from None
    for name, url in server.urls.items():
        say(f"{name:<11} {url}/")
    say("serving on 127.0.0.1; press Ctrl-C to stop")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        say("stopped")
    finally:
        server.stop()
    return EXIT_OK


def cmd_demo_truth(args: argparse.Namespace) -> int:
    shop = _demo_shops([args.shop])[0]
    truth = shop.ground_truth(args.base_url)  # type: ignore[attr-defined]
    json.dump(truth, sys.stdout, ensure_ascii=False, indent=1 if args.pretty else None)
    sys.stdout.write("\n")
    return EXIT_OK


def cmd_demo_run(args: argparse.Namespace) -> int:
    from structurer.demo.run import run_demo

    return run_demo(args.shops, out=args.out)


def register(sub: Any) -> None:
    demo = sub.add_parser("demo", help="the bundled demo shops on 127.0.0.1")
    dsub = demo.add_subparsers(dest="demo_command", metavar="ACTION")
    d = dsub.add_parser("list", help="list the demo shops and what makes each hard")
    d.set_defaults(func=cmd_demo_list)
    d = dsub.add_parser("serve", help="serve demo shops until Ctrl-C")
    d.add_argument("shops", nargs="*", metavar="SHOP",
                   help="shop names, or 'news' for the news site (default: every shop)")
    d.add_argument("--port", type=int, default=0,
                   help="first port (shops get consecutive ports); default: ephemeral")
    d.set_defaults(func=cmd_demo_serve)
    d = dsub.add_parser("truth", help="print a demo shop's ground truth as JSON")
    d.add_argument("shop", metavar="SHOP", help="a shop name, or 'news' for the news site")
    d.add_argument("--base-url", default="http://127.0.0.1:8000")
    d.add_argument("--pretty", action="store_true")
    d.set_defaults(func=cmd_demo_truth)
    d = dsub.add_parser("run", help="serve demo shops and show what structurer makes of them")
    d.add_argument("shops", nargs="*", metavar="SHOP")
    d.add_argument("--out", default="out/demo", help="directory for the demo's output files")
    d.set_defaults(func=cmd_demo_run)

    def demo_help(args: argparse.Namespace) -> int:
        demo.print_help()
        return EXIT_BAD_INPUT

    demo.set_defaults(func=demo_help)
