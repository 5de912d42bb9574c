"""``structurer validate`` and ``structurer templates``: the file formats a person edits."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from structurer.cli.output import EXIT_BAD_INPUT, EXIT_OK, say
from structurer.cli.startup import loading


def cmd_validate(args: argparse.Namespace) -> int:
    with loading():
        from structurer.validate import validate_file

    bad = 0
    for path in args.files:
        report = validate_file(path)
        for warning in report.warnings:
            print(f"warning: {warning}", file=sys.stderr, flush=True)
        if report.ok:
            say(f"{path}: ok ({'rule file' if report.kind == 'rules' else 'lexicon'})")
            continue
        bad += 1
        kind = {"rules": "rule file", "lexicon": "lexicon", None: "file"}[report.kind]
        for error in report.errors:
            print(f"{error} [{kind}]", file=sys.stderr, flush=True)
    return EXIT_BAD_INPUT if bad else EXIT_OK


def cmd_templates(args: argparse.Namespace) -> int:
    with loading():
        from structurer.lexicon import load_lexicon, shipped_templates

    for name, path in shipped_templates().items():
        lexicon = load_lexicon(path)
        say(f"{name:<12} {lexicon.content_hash()}  {len(lexicon.fields):>2} fields  {path}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("validate", help="check lexicons and rule files after editing them")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("templates", help="list the shipped lexicons")
    p.set_defaults(func=cmd_templates)
