"""The parser and ``main``: every command group registers its subcommands here."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from structurer._version import __version__
from structurer.cli import analyze, crawl, demo, extract, files, review
from structurer.cli.output import EXIT_BAD_INPUT, EXIT_FELL_SHORT, EXIT_OK, fail
from structurer.errors import AnalysisError, StructurerError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="structurer",
        description="Learn how an online shop is built, then crawl it fast from what was learned.")
    parser.add_argument("--version", action="version", version=f"structurer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in (files, demo, analyze, extract, crawl, review):
        group.register(sub)
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
        fail(str(error))
        return EXIT_FELL_SHORT
    except StructurerError as error:
        fail(str(error))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        fail("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
