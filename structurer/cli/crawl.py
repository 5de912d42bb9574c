"""``structurer crawl``: replay a rule file over a whole site (lightweight or Scrapy)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from structurer.cli.output import EXIT_BAD_INPUT, EXIT_FELL_SHORT, EXIT_OK, fail, say

if TYPE_CHECKING:
    from structurer.config import Settings


def cmd_crawl(args: argparse.Namespace) -> int:
    from pydantic import ValidationError
    from rich.console import Console

    from structurer.config import Settings
    from structurer.crawl.crawler import crawl_site
    from structurer.crawl.stats import summary_table
    from structurer.rules import load_rules

    n = args.concurrency
    try:
        settings = Settings.layered({"concurrency": n, "delay": args.delay,
                                     "per_host_concurrency": min(n, 64) if n else None,
                                     "max_pages": args.max_pages})
    except ValidationError as error:
        first = error.errors()[0]
        fail(f"--{str(first['loc'][0]).replace('_', '-')}: {first['msg']}")
        return EXIT_BAD_INPUT
    if args.engine == "scrapy":
        return _crawl_scrapy(args, settings)
    if len(args.rules) > 1 or args.redis:
        fail("several rule files and --redis need --engine scrapy")
        return EXIT_BAD_INPUT
    result = crawl_site(load_rules(args.rules[0]), args.out, settings, fmt=args.format,
                        state=args.state, resume=args.resume, recrawl=args.recrawl)
    Console().print(summary_table(result.stats, f"crawl of {args.rules[0]}"))
    say(f"wrote {result.stats.records} records to {result.out}, statistics to "
        f"{result.stats_path}")
    if args.report:
        from structurer.review.crawl import write_crawl_report

        say(f"wrote the crawl report to {write_crawl_report(result.stats_path, args.report)}")
    for drift in result.drift:
        print(f"structurer: warning: drift: {drift}", file=sys.stderr, flush=True)
    if result.drift:
        print("structurer: the site may have changed; re-run `structurer analyze`",
              file=sys.stderr, flush=True)
    return EXIT_FELL_SHORT if result.drift and args.strict else EXIT_OK


def _crawl_scrapy(args: argparse.Namespace, settings: Settings) -> int:
    """One Scrapy worker: alone, or sharing the crawl in Redis with other workers."""
    from rich.console import Console

    bad = [flag for flag, used in (("--resume", args.resume), ("--recrawl", args.recrawl),
                                   ("--strict", args.strict),
                                   ("--state without --redis", args.state and not args.redis),
                                   (f"--format {args.format}", args.format not in (None, "jsonl")))
           if used]
    if bad:
        fail(f"{', '.join(bad)}: not with --engine scrapy")
        return EXIT_BAD_INPUT
    from structurer.crawl.scrapy import run_worker
    from structurer.crawl.stats import summary_table

    result = run_worker(args.rules, args.out, settings, redis_url=args.redis, crawl=args.state)
    Console().print(summary_table(result.stats, f"Scrapy worker {result.worker}"))
    again = f" (+{result.recovered} left by its last run)" if result.recovered else ""
    say(f"wrote {result.stats.records} records{again} to {result.out}, statistics to "
        f"{result.stats_path}")
    if result.reclaimed:
        say(f"queued again {result.reclaimed} requests its last run had in flight")
    if args.report:        # this worker's share of the crawl
        from structurer.review.crawl import write_crawl_report

        say(f"wrote the crawl report to {write_crawl_report(result.stats_path, args.report)}")
    if args.redis:
        say(f"crawl {result.crawl}: {'complete' if result.complete else 'not complete'}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("crawl", help="crawl a site by replaying its rule file",
                       description="Fetch every category, list and detail page the rule file "
                                   "leads to and write one record per product.")
    p.add_argument("rules", metavar="RULES.yaml", nargs="+",
                   help="rule file (several with --engine scrapy)")
    p.add_argument("--out", required=True, metavar="FILE", help="output file")
    p.add_argument("--format", choices=["jsonl", "csv", "sqlite"],
                   help="output format (default: from the file's suffix, else jsonl)")
    p.add_argument("--state", metavar="PATH", help="crawl state (default: FILE.state); with "
                   "--redis: the crawl's name in Redis (default: from the rule files)")
    p.add_argument("--engine", choices=["lightweight", "scrapy"], default="lightweight",
                   help="lightweight (default) or Scrapy; see README 'Scaling out'")
    p.add_argument("--redis", metavar="URL", help="with --engine scrapy: join the crawl "
                   "shared in Redis (redis://HOST:PORT) as one worker")
    p.add_argument("--concurrency", type=int, metavar="N", help="requests in flight")
    p.add_argument("--delay", type=float, metavar="S", help="seconds between requests")
    p.add_argument("--max-pages", type=int, metavar="N", help="stop after N pages")
    p.add_argument("--resume", action="store_true", help="continue an interrupted crawl")
    p.add_argument("--recrawl", action="store_true",
                   help="revisit due pages of a finished crawl; emit new or changed records")
    p.add_argument("--strict", action="store_true", help="exit 1 when the site drifted")
    p.add_argument("--report", metavar="FILE",
                   help="also write a crawl report (self-contained HTML) to FILE")
    p.set_defaults(func=cmd_crawl)
