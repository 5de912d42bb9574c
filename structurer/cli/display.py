"""What the command line shows people: rule summaries and progress.

Input: :class:`SiteRules`, progress messages. Output: text on a terminal (rich
tables and a live status line when attached to one, plain lines otherwise).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from structurer.rules.model import FieldRule, SiteRules


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _field_rows(table: Table, level: str, fields: dict[str, FieldRule]) -> None:
    for name, rule in fields.items():
        samples = " | ".join(_short(s, 28) for s in rule.samples[:2])
        if rule.xpath:
            where = rule.xpath
        elif rule.jsonld:
            where = f"jsonld:{rule.jsonld}"
        else:
            where = f"const:{rule.const}"
        table.add_row(level, name, escape(_short(where, 90)), f"{rule.confidence:.2f}",
                      escape(samples))


def print_rules_summary(rules: SiteRules, stream: TextIO | None = None) -> None:
    """Levels, item XPath, pagination and every field with XPath, confidence, samples."""
    console = Console(file=stream or sys.stdout, width=160 if not (stream or sys.stdout).isatty()
                      else None)
    lv = rules.levels
    console.print(f"[bold]{rules.site}[/] — template {rules.template.name} "
                  f"({rules.template.hash})")
    if lv.category:
        console.print(escape(f"category links: {lv.category.link_xpath}  "
                             f"(e.g. {', '.join(lv.category.samples[:4])})"))
    if lv.list:
        console.print(escape(f"list items:     {lv.list.item_xpath}  "
                             f"(confidence {lv.list.confidence})"))
        if lv.list.pagination:
            pag = lv.list.pagination
            console.print(escape(f"next page:      {pag.next_xpath or pag.url_pattern}"))
    table = Table(show_lines=False)
    for column in ("level", "field", "xpath", "conf", "samples"):
        table.add_column(column, overflow="fold")
    if lv.list:
        _field_rows(table, "list", lv.list.fields)
    if lv.detail:
        _field_rows(table, "detail", lv.detail.fields)
    console.print(table)


@contextmanager
def progress_printer(stream: TextIO) -> Iterator[Callable[[str], None]]:
    """A callable taking progress messages: a live status line on a terminal, else nothing."""
    if not stream.isatty():
        yield lambda message: None
        return
    console = Console(file=stream)
    with console.status("analyzing…") as status:
        yield lambda message: status.update(_short(message, 100))
