"""The ``structurer`` command: one short function per subcommand over the library.

Exit codes: 0 success; 1 the work ran but fell short; 2 bad input (file, URL,
option). A user's mistake is printed as one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from structurer import __version__
from structurer.config import Settings
from structurer.errors import AnalysisError, StructurerError

EXIT_OK, EXIT_FELL_SHORT, EXIT_BAD_INPUT = 0, 1, 2



def _say(text: str = "") -> None:
    print(text, flush=True)


def _fail(text: str) -> None:
    print(f"structurer: error: {text}", file=sys.stderr, flush=True)


# ----- validate ------------------------------------------------------------------------
def cmd_validate(args: argparse.Namespace) -> int:
    from structurer.validate import validate_file

    bad = 0
    for path in args.files:
        report = validate_file(path)
        for warning in report.warnings:
            print(f"warning: {warning}", file=sys.stderr, flush=True)
        if report.ok:
            _say(f"{path}: ok ({'rule file' if report.kind == 'rules' else 'lexicon'})")
            continue
        bad += 1
        kind = {"rules": "rule file", "lexicon": "lexicon", None: "file"}[report.kind]
        for error in report.errors:
            print(f"{error} [{kind}]", file=sys.stderr, flush=True)
    return EXIT_BAD_INPUT if bad else EXIT_OK


# ----- templates ------------------------------------------------------------------------
def cmd_templates(args: argparse.Namespace) -> int:
    from structurer.lexicon import load_lexicon, shipped_templates

    for name, path in shipped_templates().items():
        lexicon = load_lexicon(path)
        _say(f"{name:<12} {lexicon.content_hash()}  {len(lexicon.fields):>2} fields  {path}")
    return EXIT_OK


# ----- demo ------------------------------------------------------------------------------
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
        _say(f"{shop.name:<11} {shop.title:<20} {len(shop.catalog.products):>4} products  "
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
        _say(f"{name:<11} {url}/")
    _say("serving on 127.0.0.1; press Ctrl-C to stop")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        _say("stopped")
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


# ----- analyze ---------------------------------------------------------------------------------
def cmd_analyze(args: argparse.Namespace) -> int:
    from structurer.report import print_rules_summary, progress_printer
    from structurer.rules import rules_filename, save_rules

    settings = _settings(args)
    template = args.template or "ecommerce"
    if args.pages:
        from structurer.api import analyze_pages

        if args.level is None:
            _fail("--pages needs --level list or --level detail")
            return EXIT_BAD_INPUT
        rules = analyze_pages(args.pages, args.level, template, settings, base_url=args.base_url)
        name = rules_filename(rules.start_url)
    else:
        from structurer.api import analyze_site

        if not args.url:
            _fail("give the shop's entry URL, or --level and --pages")
            return EXIT_BAD_INPUT
        with progress_printer(sys.stderr) as progress:
            rules, report = analyze_site(args.url, template, settings, progress=progress)
        name = rules_filename(args.url)
        for note in report.notes:
            print(f"note: {note}", file=sys.stderr, flush=True)
        _say(f"analyzed {report.fetched} pages in {report.seconds:.1f} s")
    print_rules_summary(rules)
    path = save_rules(rules, Path(args.out) / name)
    _say(f"wrote {path}")
    return EXIT_OK


def _settings(args: argparse.Namespace) -> Settings:
    layers: dict[str, object] = {}
    if getattr(args, "max_pages", None):
        layers["analyze_max_pages"] = args.max_pages
    if getattr(args, "render", None):
        layers["render"] = args.render
    return Settings.layered(layers)


# ----- analyze-many ----------------------------------------------------------------------------
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
        _fail(f"--{option}: {first['msg']}")
        return EXIT_BAD_INPUT
    if args.jobs < 1 or args.timeout <= 0:
        _fail(f"-j/--jobs must be at least 1 (got {args.jobs})" if args.jobs < 1
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
    _say(f"{ok} of {len(results)} shops analyzed; rule files in {args.out}")
    return EXIT_OK if ok == len(results) else EXIT_FELL_SHORT


# ----- extract ---------------------------------------------------------------------------------
def _extract_source(source: str, base_url: str | None) -> tuple[str, object]:
    """(page URL, parsed tree) of a PAGE argument: an http(s) URL (fetched politely:
    robots.txt, the user agent, size and redirect limits) or a saved file, whose URL is
    ``base_url`` joined with the file name, else file://."""
    from urllib.parse import urljoin, urlsplit

    from structurer.clean import decode_html, parse_html
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
            _say(json.dumps({"url": record["url"], "source": url, **record}, ensure_ascii=False))
    return EXIT_FELL_SHORT if empty else EXIT_OK


# ----- crawl ---------------------------------------------------------------------------------
def cmd_crawl(args: argparse.Namespace) -> int:
    from pydantic import ValidationError
    from rich.console import Console

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
        _fail(f"--{str(first['loc'][0]).replace('_', '-')}: {first['msg']}")
        return EXIT_BAD_INPUT
    if args.engine == "scrapy":
        return _crawl_scrapy(args, settings)
    if len(args.rules) > 1 or args.redis:
        _fail("several rule files and --redis need --engine scrapy")
        return EXIT_BAD_INPUT
    result = crawl_site(load_rules(args.rules[0]), args.out, settings, fmt=args.format,
                        state=args.state, resume=args.resume, recrawl=args.recrawl)
    Console().print(summary_table(result.stats, f"crawl of {args.rules[0]}"))
    _say(f"wrote {result.stats.records} records to {result.out}, statistics to "
         f"{result.stats_path}")
    if args.report:
        from structurer.review.crawl import write_crawl_report

        _say(f"wrote the crawl report to {write_crawl_report(result.stats_path, args.report)}")
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
        _fail(f"{', '.join(bad)}: not with --engine scrapy")
        return EXIT_BAD_INPUT
    from structurer.crawl.scrapy import run_worker
    from structurer.crawl.stats import summary_table

    result = run_worker(args.rules, args.out, settings, redis_url=args.redis, crawl=args.state)
    Console().print(summary_table(result.stats, f"Scrapy worker {result.worker}"))
    again = f" (+{result.recovered} left by its last run)" if result.recovered else ""
    _say(f"wrote {result.stats.records} records{again} to {result.out}, statistics to "
         f"{result.stats_path}")
    if result.reclaimed:
        _say(f"queued again {result.reclaimed} requests its last run had in flight")
    if args.report:        # this worker's share of the crawl
        from structurer.review.crawl import write_crawl_report

        _say(f"wrote the crawl report to {write_crawl_report(result.stats_path, args.report)}")
    if args.redis:
        _say(f"crawl {result.crawl}: {'complete' if result.complete else 'not complete'}")
    return EXIT_OK


# ----- review -------------------------------------------------------------------------------
def cmd_review(args: argparse.Namespace) -> int:
    import webbrowser

    from structurer.review import write_review
    from structurer.rules import load_rules

    out = Path(args.out) if args.out else Path(args.rules).with_suffix(".review.html")
    path = write_review(load_rules(args.rules), out, Settings(), source=args.rules)
    _say(f"wrote the review of {args.rules} to {path}")
    if args.open:
        webbrowser.open(path.resolve().as_uri())
    return EXIT_OK


# ----- report -------------------------------------------------------------------------------
def cmd_report(args: argparse.Namespace) -> int:
    import webbrowser

    from structurer.review.crawl import write_crawl_report

    path = write_crawl_report(args.stats, args.out)
    _say(f"wrote the report of {args.stats} to {path}")
    if args.open:
        webbrowser.open(path.resolve().as_uri())
    return EXIT_OK


# ----- extract-page ----------------------------------------------------------------------------
def cmd_extract_page(args: argparse.Namespace) -> int:
    from urllib.parse import urlsplit

    from structurer.generic.extract import extract_tree_generic
    from structurer.lexicon import load_lexicon

    if args.base_url and urlsplit(args.base_url).scheme not in ("http", "https"):
        raise StructurerError(f"--base-url {args.base_url!r} must be an absolute http(s) URL")
    lexicon = load_lexicon(args.template)
    url, tree = _extract_source(args.page, args.base_url)
    _say(json.dumps(extract_tree_generic(tree, url, lexicon), ensure_ascii=False))
    return EXIT_OK


# ----- parser --------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="structurer",
        description="Learn how an online shop is built, then crawl it fast from what was learned.")
    parser.add_argument("--version", action="version", version=f"structurer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check lexicons and rule files after editing them")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("templates", help="list the shipped lexicons")
    p.set_defaults(func=cmd_templates)

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

    p = sub.add_parser("extract", help="apply a rule file to saved pages or URLs",
                       description="Print one JSON line per product of each page (list "
                                   "pages) or per page (detail pages).")
    p.add_argument("rules", metavar="RULES.yaml")
    p.add_argument("pages", nargs="+", metavar="PAGE", help="saved HTML file or http(s) URL")
    p.add_argument("--level", choices=["list", "detail", "auto"], default="auto")
    p.add_argument("--base-url", metavar="URL", help="URL the saved files were saved from")
    p.set_defaults(func=cmd_extract)

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

    p = sub.add_parser("review", help="visual review of a rule file, as one HTML page",
                       description="Open a sample page of every level in Chromium and write "
                                   "a self-contained HTML report with the rules drawn on it.")
    p.add_argument("rules", metavar="RULES.yaml")
    p.add_argument("--out", metavar="FILE", help="report file (default: RULES.review.html)")
    p.add_argument("--open", action="store_true", help="open the report in a web browser")
    p.set_defaults(func=cmd_review)

    p = sub.add_parser("report", help="crawl report of a crawl's statistics, as one HTML page",
                       description="Turn the statistics JSON a crawl wrote (OUT.stats.json) "
                                   "into a self-contained HTML report with charts.")
    p.add_argument("stats", metavar="STATS.json")
    p.add_argument("--out", metavar="FILE", help="report file (default: STATS.html)")
    p.add_argument("--open", action="store_true", help="open the report in a web browser")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("extract-page", help="rule-free extraction of one page (one JSON object)")
    p.add_argument("page", metavar="URL|FILE", help="an http(s) URL or a saved HTML file")
    p.add_argument("--template", default="ecommerce", metavar="NAME|PATH",
                   help="lexicon: a shipped name (ecommerce, news) or a YAML file")
    p.add_argument("--base-url", metavar="URL", help="the URL a saved file was fetched from")
    p.set_defaults(func=cmd_extract_page)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args))
    except AnalysisError as error:
        _fail(str(error))
        return EXIT_FELL_SHORT
    except StructurerError as error:
        _fail(str(error))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _fail("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
