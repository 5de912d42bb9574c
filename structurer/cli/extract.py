"""``structurer extract`` (rules replayed on pages) and ``structurer extract-page``
(rule-free, one page). Pages are read by :mod:`structurer.sources`: URLs or saved
files (``.gz`` too), size-bounded, with ``--base-url`` as their URL."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from structurer.cli.options import add_settings, http_url, settings_from
from structurer.cli.output import EXIT_FELL_SHORT, EXIT_OK, say, warn
from structurer.cli.startup import loading

if TYPE_CHECKING:
    from structurer.config import Settings

BASE_URL_HELP = ("the URL the saved file was fetched from; ending in '/': the folder the saved "
                 "files were fetched from (each file's URL is the folder + its name, less .gz). "
                 "Default: a <base href> the file starts with, else its file:// URL")


def cmd_extract(args: argparse.Namespace) -> int:
    from structurer.clean import parse_html
    from structurer.replay import RuleTimeout, compile_rules, extract_page
    from structurer.rules import load_rules
    from structurer.sources import read_pages

    compiled = compile_rules(load_rules(args.rules))
    empty = 0
    for source in read_pages(args.pages, _settings(args), base_url=args.base_url):
        try:
            result = extract_page(compiled, parse_html(source.text, source.url), source.url,
                                  args.level)
        except RuleTimeout as error:
            empty += 1
            warn(str(error))
            continue
        records = [r for r in result.records
                   if any(v not in (None, []) for k, v in r.items() if k != "url")]
        if not records:
            empty += 1
            warn(f"{source.given}: nothing extracted: " + (
                f"not a page these rules describe (no list item, and the detail level's "
                f"{_evidence(compiled)} are not there)" if result.level == "other"
                else f"as a {result.level} page, " + (
                    "every field is empty" if result.records else "no list item")))
        for record in records:
            say(json.dumps({"url": record["url"], "source": source.url, **record},
                           ensure_ascii=False))
    return EXIT_FELL_SHORT if empty else EXIT_OK


def _evidence(compiled: Any) -> str:
    """The detail fields that tell a detail page (as the warning names them)."""
    names = [f.name for f in compiled.details[-1].plan.fields] if compiled.details else []
    shown = [n for n in ("name", "price") if n in names] or names[:3]
    return " and ".join(shown) if shown else "fields"


def _settings(args: argparse.Namespace) -> Settings | None:
    """The settings the options name, or None (the defaults, built only when needed)."""
    return settings_from(args) if args.settings or args.set else None


def cmd_extract_page(args: argparse.Namespace) -> int:
    with loading():
        from structurer.clean import parse_html
        from structurer.generic.extract import extract_tree_generic, without_site_text
        from structurer.lexicon import load_lexicon
        from structurer.sources import read_pages

        lexicon = load_lexicon(args.template)
    sources = read_pages(args.pages, _settings(args), base_url=args.base_url)
    results = without_site_text([extract_tree_generic(parse_html(s.text, s.url), s.url, lexicon)
                                 for s in sources])
    for result in results:
        say(json.dumps(result, ensure_ascii=False))
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("extract", help="apply a rule file to saved pages or URLs",
                       description="Print one JSON line per product of each page (list "
                                   "pages) or per page (detail pages). A page the rules do "
                                   "not describe gives nothing and a warning (exit 1).")
    p.add_argument("rules", metavar="RULES.yaml")
    p.add_argument("pages", nargs="+", metavar="PAGE",
                   help="saved HTML file (.gz too) or http(s) URL")
    p.add_argument("--level", choices=["list", "detail", "auto"], default="auto",
                   help="read every page as this level; auto: as the rules find it "
                        "(default: %(default)s)")
    p.add_argument("--base-url", type=http_url, metavar="URL", help=BASE_URL_HELP)
    add_settings(p)
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("extract-page", help="rule-free extraction of pages (a JSON object each)",
                       description="Print one JSON line per page: its kind and fields or "
                                   "main list. Articles of one site given together lose the "
                                   "lines their site repeats on several of them.")
    p.add_argument("pages", nargs="+", metavar="URL|FILE",
                   help="an http(s) URL or a saved HTML file (.gz too)")
    p.add_argument("--template", default="ecommerce", metavar="NAME|PATH",
                   help="lexicon: a shipped name (ecommerce, news) or a YAML file "
                        "(default: %(default)s)")
    p.add_argument("--base-url", type=http_url, metavar="URL", help=BASE_URL_HELP)
    add_settings(p)
    p.set_defaults(func=cmd_extract_page)
