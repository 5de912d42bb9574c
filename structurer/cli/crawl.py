"""``structurer crawl``: replay a rule file over a whole site (lightweight or Scrapy).

What happens to ``--out`` (the help texts say it too): a new or empty FILE is written
from scratch; a FILE that holds records is refused unless ``--overwrite`` (replace it
and start over, Scrapy's ``-O``), ``--resume`` (continue the interrupted crawl that
writes it) or ``--recrawl`` (append the new or changed records since the rule file's
previous crawl, Scrapy's ``-o``). ``--out -`` writes JSON lines or CSV to standard
output (the summary then goes to stderr). Statistics: ``FILE.stats.json``; state:
``FILE.state`` (see :mod:`structurer.crawler.state`).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from structurer.cli.options import add_settings, settings_from
from structurer.cli.output import EXIT_BAD_INPUT, EXIT_FELL_SHORT, EXIT_OK, fail, say, warn

if TYPE_CHECKING:
    from structurer.config import Settings

EXIT_INTERRUPTED = 130


def cmd_crawl(args: argparse.Namespace) -> int:
    from structurer.crawler.state import check_distinct

    n = args.concurrency
    settings = settings_from(args, {"concurrency": n, "delay": args.delay,
                                    "per_host_concurrency": min(n, 64) if n else None,
                                    "max_pages": args.max_pages})
    to_stdout = args.out == "-"
    bad = [flag for flag, used in (
        ("--out - with --resume (standard output cannot be cut back)", to_stdout and args.resume),
        ("--out - with --report (the report reads FILE.stats.json)", to_stdout and args.report),
        ("--out - with --format sqlite", to_stdout and args.format == "sqlite"),
        ("--resume with --overwrite", args.resume and args.overwrite),
        ("--revisit-all without --recrawl", args.revisit_all and not args.recrawl)) if used]
    if bad:
        fail(f"{bad[0]}: not possible")
        return EXIT_BAD_INPUT
    check_distinct({**{f"the rule file {r}": Path(r) for r in args.rules},
                    "--out": None if to_stdout else Path(args.out),
                    "--state": Path(args.state) if args.state and not args.redis else None,
                    "--report": Path(args.report) if args.report else None})
    if args.engine == "scrapy":
        return _crawl_scrapy(args, settings)
    if len(args.rules) > 1 or args.redis:
        fail("several rule files and --redis need --engine scrapy")
        return EXIT_BAD_INPUT
    return _crawl(args, settings)


def _crawl(args: argparse.Namespace, settings: Settings) -> int:
    from structurer.cli.display import CrawlDisplay, print_crawl_summary
    from structurer.crawler.engine import crawl_site
    from structurer.rules import load_rules

    to_stdout = args.out == "-"
    rules = load_rules(args.rules[0])
    try:
        with CrawlDisplay() as display:
            result = crawl_site(rules, args.out, settings, fmt=args.format, state=args.state,
                                resume=args.resume, recrawl=args.recrawl,
                                revisit_all=args.revisit_all, overwrite=args.overwrite,
                                rules_file=args.rules[0], progress=display.update)
    except KeyboardInterrupt:
        fail(_interrupted(args))
        return EXIT_INTERRUPTED
    tell = say if not to_stdout else lambda text: print(text, file=sys.stderr, flush=True)
    print_crawl_summary(result.stats, f"{'recrawl' if args.recrawl else 'crawl'} of "
                                      f"{args.rules[0]}", sys.stderr if to_stdout else None)
    what = "new or changed records" if args.recrawl else "records"
    where = "standard output" if to_stdout else str(result.out)
    tell(f"wrote {result.stats.records} {what} to {where}"
         + (f", statistics to {result.stats_path}" if result.stats_path else ""))
    if args.report and result.stats_path is not None:
        from structurer.review.crawl import write_crawl_report

        tell(f"wrote the crawl report to {write_crawl_report(result.stats_path, args.report)}")
    for drift in result.drift:
        warn(f"drift: {drift}")
    if result.drift:
        print("structurer: the site may have changed; re-run `structurer analyze`",
              file=sys.stderr, flush=True)
    if result.shortfall:
        fail(f"{args.rules[0]}: the crawl fell short: {result.shortfall}")
        return EXIT_FELL_SHORT
    return EXIT_FELL_SHORT if result.drift and args.strict else EXIT_OK


def _interrupted(args: argparse.Namespace) -> str:
    """What Ctrl-C says: how to continue, when the crawl can be continued."""
    if args.out == "-":
        return "interrupted (a crawl to standard output cannot be resumed)"
    command = ["structurer", "crawl", args.rules[0], "--out", args.out]
    for flag, value in (("--format", args.format), ("--state", args.state)):
        if value:
            command += [flag, value]
    return f"interrupted; nothing is lost: continue with {shlex.join([*command, '--resume'])}"


def _crawl_scrapy(args: argparse.Namespace, settings: Settings) -> int:
    """One Scrapy worker: alone, or sharing the crawl in Redis with other workers."""
    bad = [flag for flag, used in (("--resume", args.resume), ("--recrawl", args.recrawl),
                                   ("--strict with --redis", args.strict and args.redis),
                                   ("--out -", args.out == "-"),
                                   ("--state without --redis", args.state and not args.redis),
                                   (f"--format {args.format}", args.format not in (None, "jsonl")))
           if used]
    if bad:
        fail(f"{', '.join(bad)}: not with --engine scrapy")
        return EXIT_BAD_INPUT
    out = Path(args.out)
    # a worker of a Redis crawl continues its own file after a restart; alone, the worker
    # starts its file over, so a file holding records needs --overwrite
    if not args.redis and not args.overwrite and out.is_file() and out.stat().st_size:
        fail(f"{out}: holds records already: --overwrite replaces them")
        return EXIT_BAD_INPUT
    from structurer.cli.display import print_crawl_summary
    from structurer.crawler.scrapy import run_worker

    result = run_worker(args.rules, args.out, settings, redis_url=args.redis, crawl=args.state)
    print_crawl_summary(result.stats, f"Scrapy worker {result.worker}")
    again = f" (+{result.recovered} left by its last run)" if result.recovered else ""
    say(f"wrote {result.stats.records} records{again} to {result.out}, statistics to "
        f"{result.stats_path}")
    if result.reclaimed:
        say(f"queued again {result.reclaimed} requests its last run had in flight")
    if args.report:        # this worker's share of the crawl
        from structurer.review.crawl import write_crawl_report

        say(f"wrote the crawl report to {write_crawl_report(result.stats_path, args.report)}")
    for drift in result.drift:
        warn(f"drift: {drift}")
    if result.shortfall:
        fail(f"{args.rules[0]}: the crawl fell short: {result.shortfall}")
        return EXIT_FELL_SHORT
    if args.redis:
        say(f"crawl {result.crawl}: {'complete' if result.complete else 'not complete'}")
        if not result.drift_checked and len(args.rules) == 1:
            say("drift: checked by the last worker of the crawl to finish, over every "
                "worker's figures")
    return EXIT_FELL_SHORT if result.drift and args.strict else EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser(
        "crawl", help="crawl a site by replaying its rule file",
        description="Fetch every category, list and detail page the rule file leads to and "
                    "write one record per product. An output that already holds records is "
                    "never silently overwritten: say --overwrite, --resume or --recrawl. "
                    "Exit 1 when the crawl fell short (every page failed, no records) or, "
                    "with --strict, when the site drifted; 2 on bad input.")
    p.add_argument("rules", metavar="RULES.yaml", nargs="+",
                   help="rule file (several with --engine scrapy)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="where the records go: JSON lines, CSV or SQLite (from the suffix or "
                        "--format); '-' writes JSON lines or CSV to standard output. A new or "
                        "empty FILE is written from scratch; one that holds records is refused "
                        "unless --overwrite, --resume or --recrawl says what to do with them. "
                        "Statistics go to FILE.stats.json, the crawl state to FILE.state")
    p.add_argument("--format", choices=["jsonl", "csv", "sqlite"],
                   help="output format (default: from the file's suffix, else jsonl)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace a FILE that holds records and crawl from scratch (its old "
                        "records, statistics and crawl state are discarded; Scrapy's -O)")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted crawl that writes FILE from its state: no "
                        "record lost, none written twice")
    p.add_argument("--recrawl", action="store_true",
                   help="revisit the due pages of the previous crawl of RULES and APPEND only "
                        "new or changed records to FILE (a new file, or the first crawl's own: "
                        "never truncated; Scrapy's -o). That crawl's state: --state, else "
                        "FILE.state if it exists, else the one its last crawl noted in "
                        "RULES.yaml.last-crawl.json")
    p.add_argument("--revisit-all", action="store_true",
                   help="with --recrawl: revisit every page now, not only those due by the "
                        "adaptive schedule (a page is due a day after its last visit at first; "
                        "5 unchanged visits double its interval, 5 changed ones halve it)")
    p.add_argument("--state", metavar="PATH",
                   help="crawl state (default: FILE.state; with --out -: a temporary one); "
                        "with --redis: the crawl's name in Redis (default: from the rule files)")
    p.add_argument("--engine", choices=["lightweight", "scrapy"], default="lightweight",
                   help="lightweight (default) or Scrapy; see README 'Scaling out'")
    p.add_argument("--redis", metavar="URL", help="with --engine scrapy: join the crawl "
                   "shared in Redis (redis://HOST:PORT) as one worker")
    p.add_argument("--concurrency", type=int, metavar="N", help="requests in flight")
    p.add_argument("--delay", type=float, metavar="S", help="seconds between requests")
    p.add_argument("--max-pages", type=int, metavar="N", help="stop after N pages")
    p.add_argument("--strict", action="store_true", help="exit 1 when the site drifted")
    p.add_argument("--report", metavar="FILE",
                   help="also write a crawl report (self-contained HTML) to FILE")
    add_settings(p)
    p.set_defaults(func=cmd_crawl)
