"""``structurer analyze`` and ``structurer analyze-many``: learning rule files."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from structurer.cli.options import (
    add_settings,
    at_least,
    http_url,
    positive_float,
    positive_int,
    settings_from,
)
from structurer.cli.output import EXIT_BAD_INPUT, EXIT_FELL_SHORT, EXIT_OK, fail, say, warn

if TYPE_CHECKING:
    from structurer.config import Settings


def cmd_analyze(args: argparse.Namespace) -> int:
    from structurer.cli.display import print_rules_summary, progress_printer
    from structurer.rules import rules_filename, save_rules

    settings = _settings(args)
    template = args.template or "ecommerce"
    if args.pages:
        from structurer.api import analyze_pages

        if args.level is None or args.url:
            fail("--pages needs --level list or --level detail" if args.level is None
                 else "give the shop's entry URL or --pages, not both")
            return EXIT_BAD_INPUT
        rules = analyze_pages(args.pages, args.level, template, settings, base_url=args.base_url)
        name = rules_filename(rules.start_url)
        report = None
    else:
        from structurer.api import analyze_site

        if not args.url:
            fail("give the shop's entry URL, or --level and --pages")
            return EXIT_BAD_INPUT
        if args.level or args.base_url:
            fail(f"{'--level' if args.level else '--base-url'} goes with --pages, not with a URL")
            return EXIT_BAD_INPUT
        with progress_printer(sys.stderr) as progress:
            rules, report = analyze_site(args.url, template, settings, progress=progress)
        name = rules_filename(args.url)
        for note in report.notes:
            print(f"note: {note}", file=sys.stderr, flush=True)
        walked = f" (and {report.walked} to verify pagination)" if report.walked else ""
        again = f", {report.rerendered} rendered again" if report.rerendered else ""
        rendered = f"; {report.rendered} rendered{again}" if report.rendered else ""
        say(f"analyzed {report.fetched} pages{walked}{rendered} in {report.seconds:.1f} s")
    print_rules_summary(rules)
    path = save_rules(rules, Path(args.out) / name)
    say(f"wrote {path}")
    if report is not None and report.shortfall:
        warn(f"{path}: {report.shortfall}")
        return EXIT_FELL_SHORT
    return EXIT_OK


def _settings(args: argparse.Namespace) -> Settings:
    return settings_from(args, {"analyze_max_pages": getattr(args, "max_pages", None),
                                "render": getattr(args, "render", None)})


def cmd_analyze_many(args: argparse.Namespace) -> int:
    from structurer.api import analyze_many, read_url_file
    from structurer.cli.display import BatchDisplay, print_batch_summary

    settings = _settings(args)
    tasks, bad = read_url_file(args.urls)
    with BatchDisplay(len(tasks) + len(bad)) as display:
        for result in bad:
            display.done(result)
        results = analyze_many(tasks, args.out, args.template or "ecommerce", settings,
                               jobs=args.jobs, timeout=args.timeout, on_start=display.start,
                               on_progress=display.step, on_done=display.done)
    results = sorted([*results, *bad], key=lambda r: int(r.task.source.rsplit(":", 1)[1]))
    print_batch_summary(results)
    ok = sum(r.ok for r in results)
    say(f"{ok} of {len(results)} shops analyzed; rule files in {args.out}")
    complete = ok == len(results) and not any(r.shortfall for r in results)
    return EXIT_OK if complete else EXIT_FELL_SHORT


def register(sub: Any) -> None:
    from structurer.modes import RenderMode

    # no default of its own: a settings file's or -s render stands unless --render is given
    modes = [mode.value for mode in RenderMode]
    p = sub.add_parser("analyze", help="learn a site's rule file from its entry URL",
                       description="Explore a shop from its entry URL (or learn one level from "
                                   "sample pages) and write site_rules/<host>.yaml. A rule file "
                                   "without a detail level (too few pages) is written with a "
                                   "warning and exit 1.")
    p.add_argument("url", nargs="?", metavar="URL", type=http_url,
                   help="the shop's entry page (an http(s) URL)")
    p.add_argument("--out", default="site_rules", metavar="DIR",
                   help="directory for the rule file (default: %(default)s)")
    p.add_argument("--template", metavar="NAME|PATH",
                   help="lexicon: a shipped name or a YAML file (default: ecommerce)")
    p.add_argument("--max-pages", type=at_least(3), metavar="N",
                   help="pages to fetch at most, at least 3 (default: 60); too few leave the "
                        "rule file without a detail level")
    p.add_argument("--render", choices=modes,
                   help="static HTTP or a browser per level; auto: decide per level by "
                        "comparing pages; not given: the render setting (default: auto)")
    p.add_argument("--level", choices=["list", "detail"], help="with --pages: the level to learn")
    p.add_argument("--pages", nargs="+", metavar="PAGE",
                   help="at least 2 sample pages of one level (saved files, .gz too, or URLs)")
    p.add_argument("--base-url", type=http_url, metavar="URL",
                   help="with --pages: the folder the sample files were saved from, ending in "
                        "'/' (each file's URL is the folder + its name). Default: a <base href> "
                        "a file starts with, else its file:// URL")
    add_settings(p)
    p.set_defaults(func=cmd_analyze, interrupted="no rule file was written")

    p = sub.add_parser("analyze-many", help="learn the rule files of many shops in parallel",
                       description="Analyze every shop of a URLs file (one entry URL a line; "
                                   "blank lines and # comments ignored), N shops at a time, "
                                   "each in its own process; a failed shop never stops the "
                                   "others. Exit 1 when any shop failed.")
    p.add_argument("urls", metavar="URLS.txt")
    p.add_argument("-j", "--jobs", type=positive_int, default=os.cpu_count() or 1, metavar="N",
                   help="shops analyzed at once (default: the number of CPUs, %(default)s)")
    p.add_argument("--out", default="site_rules", metavar="DIR",
                   help="directory for the rule files (default: %(default)s)")
    p.add_argument("--template", metavar="NAME|PATH",
                   help="lexicon: a shipped name or a YAML file (default: ecommerce)")
    p.add_argument("--max-pages", type=at_least(3), metavar="N",
                   help="pages to fetch per shop at most, at least 3 (default: 60)")
    p.add_argument("--render", choices=modes,
                   help="static HTTP or a browser per level; not given: the render "
                        "setting (default: auto)")
    p.add_argument("--timeout", type=positive_float, default=600, metavar="S",
                   help="give up on a shop after S seconds (default: %(default)s)")
    add_settings(p)
    p.set_defaults(func=cmd_analyze_many,
                   interrupted="the rule files of shops already finished are kept")
