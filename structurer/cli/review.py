"""``structurer review`` (a rule file drawn on its sample pages) and ``structurer report``
(a crawl's statistics as one HTML page)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from structurer.cli.options import add_settings, settings_from
from structurer.cli.output import EXIT_OK, say, warn


def open_in_browser(path: Path) -> None:
    """Open a written report in the user's web browser, or say that none could be."""
    import webbrowser

    try:
        opened = webbrowser.open(path.resolve().as_uri())
    except webbrowser.Error:
        opened = False
    if not opened:
        warn(f"no web browser could be opened (set BROWSER to one); the report is {path}")


def cmd_review(args: argparse.Namespace) -> int:
    from structurer.review import write_review
    from structurer.rules import load_rules

    out = Path(args.out) if args.out else Path(args.rules).with_suffix(".review.html")
    path = write_review(load_rules(args.rules), out, settings_from(args), source=args.rules)
    say(f"wrote the review of {args.rules} to {path}")
    if args.open:
        open_in_browser(path)
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    from structurer.review.crawl import write_crawl_report

    path = write_crawl_report(args.stats, args.out)
    say(f"wrote the report of {args.stats} to {path}")
    if args.open:
        open_in_browser(path)
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("review", help="visual review of a rule file, as one HTML page",
                       description="Open a sample page of every level in Chromium and write "
                                   "a self-contained HTML report with the rules drawn on it.")
    p.add_argument("rules", metavar="RULES.yaml")
    p.add_argument("--out", metavar="FILE", help="report file (default: RULES.review.html)")
    p.add_argument("--open", action="store_true", help="open the report in a web browser")
    add_settings(p)
    p.set_defaults(func=cmd_review)

    p = sub.add_parser("report", help="crawl report of a crawl's statistics, as one HTML page",
                       description="Turn the statistics JSON a crawl wrote (OUT.stats.json) "
                                   "into a self-contained HTML report with charts.")
    p.add_argument("stats", metavar="STATS.json")
    p.add_argument("--out", metavar="FILE", help="report file (default: STATS.html)")
    p.add_argument("--open", action="store_true", help="open the report in a web browser")
    p.set_defaults(func=cmd_report)
