"""``structurer analyze`` and ``structurer analyze-many``: learning rule files."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from structurer.cli.output import EXIT_BAD_INPUT, EXIT_FELL_SHORT, EXIT_OK, fail, say

if TYPE_CHECKING:
    from structurer.config import Settings


def cmd_analyze(args: argparse.Namespace) -> int:
    from structurer.cli.display import print_rules_summary, progress_printer
    from structurer.rules import rules_filename, save_rules

    settings = _settings(args)
    template = args.template or "ecommerce"
    if args.pages:
        from structurer.api import analyze_pages

        if args.level is None:
            fail("--pages needs --level list or --level detail")
            return EXIT_BAD_INPUT
        rules = analyze_pages(args.pages, args.level, template, settings, base_url=args.base_url)
        name = rules_filename(rules.start_url)
    else:
        from structurer.api import analyze_site

        if not args.url:
            fail("give the shop's entry URL, or --level and --pages")
            return EXIT_BAD_INPUT
        with progress_printer(sys.stderr) as progress:
            rules, report = analyze_site(args.url, template, settings, progress=progress)
        name = rules_filename(args.url)
        for note in report.notes:
            print(f"note: {note}", file=sys.stderr, flush=True)
        say(f"analyzed {report.fetched} pages in {report.seconds:.1f} s")
    print_rules_summary(rules)
    path = save_rules(rules, Path(args.out) / name)
    say(f"wrote {path}")
    return EXIT_OK


def _settings(args: argparse.Namespace) -> Settings:
    from structurer.config import Settings

    layers: dict[str, object] = {}
    if getattr(args, "max_pages", None):
        layers["analyze_max_pages"] = args.max_pages
    if getattr(args, "render", None):
        layers["render"] = args.render
    return Settings.layered(layers)


def cmd_analyze_many(args: argparse.Namespace) -> int:
    from pydantic import ValidationError
    from rich.console import Console

    from structurer.api import analyze_many, read_url_file
    from structurer.learn.batch import BatchDisplay, summary_table

    try:
        settings = _settings(args)
    except ValidationError as error:
        first = error.errors()[0]
        option = str(first["loc"][0]).removeprefix("analyze_").replace("_", "-")
        fail(f"--{option}: {first['msg']}")
        return EXIT_BAD_INPUT
    if args.jobs < 1 or args.timeout <= 0:
        fail(f"-j/--jobs must be at least 1 (got {args.jobs})" if args.jobs < 1
             else f"--timeout must be positive (got {args.timeout:g})")
        return EXIT_BAD_INPUT
    tasks, bad = read_url_file(args.urls)
    with BatchDisplay(len(tasks) + len(bad)) as display:
        for result in bad:
            display.done(result)
        results = analyze_many(tasks, args.out, args.template or "ecommerce", settings,
                               jobs=args.jobs, timeout=args.timeout, on_start=display.start,
                               on_progress=display.step, on_done=display.done)
    results = sorted([*results, *bad], key=lambda r: int(r.task.source.rsplit(":", 1)[1]))
    Console(width=None if sys.stdout.isatty() else 200).print(summary_table(results))
    ok = sum(r.ok for r in results)
    say(f"{ok} of {len(results)} shops analyzed; rule files in {args.out}")
    return EXIT_OK if ok == len(results) else EXIT_FELL_SHORT


def register(sub: Any) -> None:
    p = sub.add_parser("analyze", help="learn a site's rule file from its entry URL",
                       description="Explore a shop from its entry URL (or learn one level from "
                                   "sample pages) and write site_rules/<host>.yaml.")
    p.add_argument("url", nargs="?", metavar="URL")
    p.add_argument("--out", default="site_rules", help="directory for the rule file")
    p.add_argument("--template", metavar="NAME|PATH", help="lexicon (default: ecommerce)")
    p.add_argument("--max-pages", type=int, metavar="N", help="pages to fetch at most")
    p.add_argument("--render", choices=["auto", "static", "browser"], default="auto")
    p.add_argument("--level", choices=["list", "detail"], help="with --pages: the level to learn")
    p.add_argument("--pages", nargs="+", metavar="PAGE", help="sample pages (files or URLs)")
    p.add_argument("--base-url", help="URL the sample files were saved from")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("analyze-many", help="learn the rule files of many shops in parallel",
                       description="Analyze every shop of a URLs file (one entry URL a line; "
                                   "blank lines and # comments ignored), N shops at a time, "
                                   "each in its own process; a failed shop never stops the "
                                   "others. Exit 1 when any shop failed.")
    p.add_argument("urls", metavar="URLS.txt")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="shops analyzed at once (default: the number of CPUs)")
    p.add_argument("--out", default="site_rules", help="directory for the rule files")
    p.add_argument("--template", metavar="NAME|PATH", help="lexicon (default: ecommerce)")
    p.add_argument("--max-pages", type=int, metavar="N", help="pages to fetch per shop at most")
    p.add_argument("--render", choices=["auto", "static", "browser"], default="auto")
    p.add_argument("--timeout", type=float, default=600, metavar="S",
                   help="give up on a shop after S seconds (default: 600)")
    p.set_defaults(func=cmd_analyze_many)
