"""``structurer extract`` (rules replayed on pages) and ``structurer extract-page``
(rule-free, one page)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from structurer.cli.output import EXIT_FELL_SHORT, EXIT_OK, say
from structurer.errors import StructurerError


def _extract_source(source: str, base_url: str | None) -> tuple[str, object]:
    """(page URL, parsed tree) of a PAGE argument: an http(s) URL (fetched politely:
    robots.txt, the user agent, size and redirect limits) or a saved file, whose URL is
    ``base_url`` joined with the file name, else file://."""
    from urllib.parse import urljoin, urlsplit

    from structurer.clean import decode_html, parse_html
    from structurer.config import Settings
    from structurer.fetch import fetch_sync

    content_type = None
    if urlsplit(source).scheme in ("http", "https"):
        [fetched] = fetch_sync([source], Settings())
        if isinstance(fetched, StructurerError):
            raise fetched
        body, content_type, url = fetched.body, fetched.content_type, fetched.final_url
    else:
        try:
            body = Path(source).read_bytes()
        except OSError as error:
            raise StructurerError(f"cannot read page: {error.strerror or error}",
                                  url=source) from None
        url = urljoin(base_url, Path(source).name) if base_url else Path(source).resolve().as_uri()
    text, _ = decode_html(body, content_type)
    return url, parse_html(text, url)


def cmd_extract(args: argparse.Namespace) -> int:
    from urllib.parse import urlsplit

    from structurer.replay import compile_rules, extract_page
    from structurer.rules import load_rules

    if args.base_url and urlsplit(args.base_url).scheme not in ("http", "https"):
        raise StructurerError(f"--base-url {args.base_url!r} must be an absolute http(s) URL")
    compiled = compile_rules(load_rules(args.rules))
    empty = 0
    for source in args.pages:
        url, tree = _extract_source(source, args.base_url)
        result = extract_page(compiled, tree, url, args.level)
        records = [r for r in result.records
                   if any(v not in (None, []) for k, v in r.items() if k != "url")]
        if not records:
            empty += 1
            print(f"structurer: warning: {source}: nothing extracted (as a {result.level} page)",
                  file=sys.stderr, flush=True)
        for record in records:
            say(json.dumps({"url": record["url"], "source": url, **record}, ensure_ascii=False))
    return EXIT_FELL_SHORT if empty else EXIT_OK


def cmd_extract_page(args: argparse.Namespace) -> int:
    from urllib.parse import urlsplit

    from structurer.generic.extract import extract_tree_generic
    from structurer.lexicon import load_lexicon

    if args.base_url and urlsplit(args.base_url).scheme not in ("http", "https"):
        raise StructurerError(f"--base-url {args.base_url!r} must be an absolute http(s) URL")
    lexicon = load_lexicon(args.template)
    url, tree = _extract_source(args.page, args.base_url)
    say(json.dumps(extract_tree_generic(tree, url, lexicon), ensure_ascii=False))
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("extract", help="apply a rule file to saved pages or URLs",
                       description="Print one JSON line per product of each page (list "
                                   "pages) or per page (detail pages).")
    p.add_argument("rules", metavar="RULES.yaml")
    p.add_argument("pages", nargs="+", metavar="PAGE", help="saved HTML file or http(s) URL")
    p.add_argument("--level", choices=["list", "detail", "auto"], default="auto")
    p.add_argument("--base-url", metavar="URL", help="URL the saved files were saved from")
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("extract-page", help="rule-free extraction of one page (one JSON object)")
    p.add_argument("page", metavar="URL|FILE", help="an http(s) URL or a saved HTML file")
    p.add_argument("--template", default="ecommerce", metavar="NAME|PATH",
                   help="lexicon: a shipped name (ecommerce, news) or a YAML file")
    p.add_argument("--base-url", metavar="URL", help="the URL a saved file was fetched from")
    p.set_defaults(func=cmd_extract_page)
