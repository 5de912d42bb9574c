"""``structurer demo``: the bundled demo shops and news site on 127.0.0.1."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from structurer.cli.options import http_url, port
from structurer.cli.output import EXIT_BAD_INPUT, EXIT_OK, say
from structurer.errors import StructurerError


def _demo_shops(names: Sequence[str]) -> list[object]:
    from structurer.demo import all_shops, get_shop
    from structurer.demo.news import NewsSite

    try:  # the news site is served and has truth, but is not a shop (named only)
        return list(all_shops()) if not names else [
            NewsSite() if n == NewsSite.name else _zoo_or_shop(n, get_shop) for n in names]
    except KeyError as error:
        raise StructurerError(str(error.args[0])) from None


def _zoo_or_shop(name: str, get_shop: Any) -> object:
    """A shop of the zoo by name (``zoo-17``), else the named demo shop."""
    if name.startswith("zoo-") and name[4:].isdigit():
        from structurer.demo.zoo import ZooShop

        return ZooShop(int(name[4:]))
    return get_shop(name)


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
    if args.port and args.port + len(shops) - 1 > 65535:
        raise StructurerError(f"--port {args.port}: {len(shops)} sites need the ports "
                              f"{args.port} to {args.port + len(shops) - 1}, past 65535")
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
    from structurer.cli.display import DemoDisplay
    from structurer.demo.run import run_demo

    shown = DemoDisplay()
    result = run_demo(args.shops, out=args.out, say=shown.say)
    shown.result(result)
    return 1 if result.failed else EXIT_OK


def _seeds(texts: Sequence[str]) -> list[int]:
    from structurer.demo.zoo import parse_seeds

    try:
        return parse_seeds(",".join(texts))
    except ValueError as error:
        raise StructurerError(f"--seeds / SEED: {error}") from None


def cmd_zoo_list(args: argparse.Namespace) -> int:
    from structurer.demo.zoo import ZooShop

    for seed in _seeds([args.seeds]):
        shop = ZooShop(seed)
        axes = " ".join(f"{k}={v}" for k, v in shop.axes.items())
        say(f"{seed:>5}  {shop.title:<24} {len(shop.zoo.items):>4} products  {axes}")
    return EXIT_OK


def cmd_zoo_serve(args: argparse.Namespace) -> int:
    names = [f"zoo-{seed}" for seed in _seeds(args.seeds)]
    return cmd_demo_serve(argparse.Namespace(**{**vars(args), "shops": names}))


def cmd_zoo_truth(args: argparse.Namespace) -> int:
    seed = _seeds([args.seed])
    if len(seed) != 1:
        raise StructurerError(f"truth takes one seed (got {args.seed!r})")
    return cmd_demo_truth(argparse.Namespace(**{**vars(args), "shop": f"zoo-{seed[0]}"}))


def _register_zoo(dsub: Any) -> None:
    zoo = dsub.add_parser("zoo", help="the shop zoo: generated shops with ground truth, by seed")
    zsub = zoo.add_subparsers(dest="zoo_command", metavar="ACTION")
    z = zsub.add_parser("list", help="seeds with their title, size and axis values")
    z.add_argument("--seeds", default="0-199",
                   help="seeds: N, A-B or a comma list (default: %(default)s)")
    z.set_defaults(func=cmd_zoo_list)
    z = zsub.add_parser("serve", help="serve zoo shops until Ctrl-C")
    z.add_argument("seeds", nargs="+", metavar="SEED", help="seeds: N or A-B")
    z.add_argument("--port", type=port, default=0,
                   help="first port (shops get consecutive ports); default: ephemeral")
    z.set_defaults(func=cmd_zoo_serve)
    z = zsub.add_parser("truth", help="print a zoo shop's ground truth as JSON")
    z.add_argument("seed", metavar="SEED")
    z.add_argument("--base-url", type=http_url, default="http://127.0.0.1:8000",
                   help="where the shop is served; the truth's URLs start with it "
                        "(default: %(default)s)")
    z.add_argument("--pretty", action="store_true", help="indent the JSON")
    z.set_defaults(func=cmd_zoo_truth)

    def zoo_help(args: argparse.Namespace) -> int:
        zoo.print_help()
        return EXIT_BAD_INPUT

    zoo.set_defaults(func=zoo_help)


def register(sub: Any) -> None:
    demo = sub.add_parser("demo", help="the bundled demo shops on 127.0.0.1")
    dsub = demo.add_subparsers(dest="demo_command", metavar="ACTION")
    d = dsub.add_parser("list", help="list the demo shops and what makes each hard")
    d.set_defaults(func=cmd_demo_list)
    d = dsub.add_parser("serve", help="serve demo shops until Ctrl-C")
    d.add_argument("shops", nargs="*", metavar="SHOP",
                   help="shop names, or 'news' for the news site (default: every shop)")
    d.add_argument("--port", type=port, default=0,
                   help="first port (shops get consecutive ports); default: ephemeral")
    d.set_defaults(func=cmd_demo_serve)
    d = dsub.add_parser("truth", help="print a demo shop's ground truth as JSON")
    d.add_argument("shop", metavar="SHOP", help="a shop name, or 'news' for the news site")
    d.add_argument("--base-url", type=http_url, default="http://127.0.0.1:8000",
                   help="where the shop is served; the truth's URLs start with it "
                        "(default: %(default)s)")
    d.add_argument("--pretty", action="store_true", help="indent the JSON")
    d.set_defaults(func=cmd_demo_truth)
    d = dsub.add_parser("run", help="serve demo shops and show what structurer makes of them")
    d.add_argument("shops", nargs="*", metavar="SHOP", help="shop names (default: every shop)")
    d.add_argument("--out", default="out/demo", metavar="DIR",
                   help="directory for the demo's output files (default: %(default)s)")
    d.set_defaults(func=cmd_demo_run)
    _register_zoo(dsub)

    def demo_help(args: argparse.Namespace) -> int:
        demo.print_help()
        return EXIT_BAD_INPUT

    demo.set_defaults(func=demo_help)
