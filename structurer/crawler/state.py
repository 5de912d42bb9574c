"""Where a crawl's state lives, and opening it for the crawl at hand.

Input: the output's path (None for standard output or the records iterator), the
``--state`` / ``--resume`` / ``--recrawl`` / ``--overwrite`` choices and the rule file's
path. Output: the state's path (:func:`resolve_state`), the opened
:class:`~structurer.crawler.frontier.Frontier` with the way the output begins
(:func:`open_state`), and the note from a rule file to its latest crawl.

Where the state is: ``--state PATH``; else ``<output>.state`` beside the output, from
its whole name. ``--recrawl`` revisits the previous crawl *of the rule file*, wherever
it wrote: ``<output>.state`` when that exists (a recrawl into the first crawl's own
file), else the state the rule file's latest crawl noted in ``<rules>.last-crawl.json``
(written beside the rule file when a crawl or recrawl starts). ``--resume`` looks in
the same places (the note only if its crawl was writing the same output). A crawl
without an output file and without ``--state`` keeps a temporary state.

What is refused, each with one line (``--overwrite`` starts over whatever the state
holds): a state of another site; an unfinished crawl without ``--resume``; ``--resume``
with nothing to resume while the output holds records, or with another output, format
or rule file than the crawl began with; ``--recrawl`` without a finished crawl to
revisit; two roles (output, state, rule file, statistics) naming one file.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from structurer.crawler.frontier import SCHEMA_VERSION, Frontier
from structurer.crawler.sinks import SinkMode
from structurer.errors import FrontierError, StructurerError
from structurer.logs import logger

log = logger(__name__)

__all__ = ["check_distinct", "last_crawl", "last_crawl_file", "note_last_crawl", "open_state",
           "resolve_state"]

LAST_CRAWL = ".last-crawl.json"


def last_crawl_file(rules_file: Path) -> Path:
    return rules_file.with_name(rules_file.name + LAST_CRAWL)


def note_last_crawl(rules_file: Path, state: Path, out: Path | None) -> None:
    """Note beside the rule file that its latest crawl (or recrawl) keeps its state at
    ``state`` and writes ``out`` (a folder that cannot take the note only costs a later
    ``--recrawl`` its default)."""
    note = last_crawl_file(rules_file)
    data = {"state": str(state.resolve()), "output": str(out.resolve()) if out else None}
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{note.name}.", dir=note.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(tmp, note)
    except OSError as error:
        log.info("%s: cannot note the crawl's state there (%s)", note, error.strerror)


def last_crawl(rules_file: Path, out: Path | None = None) -> Path | None:
    """The state of the rule file's latest crawl, if one was noted and is still there
    (and, given ``out``, if that crawl wrote ``out``)."""
    try:
        note = json.loads(last_crawl_file(rules_file).read_text(encoding="utf-8"))
        state = Path(note["state"])
        if out is not None and note["output"] != str(out.resolve()):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return state if state.is_file() else None


def resolve_state(out: Path | None, state: Path | None, *, rules_file: Path | None,
                  recrawl: bool, resume: bool) -> Path | None:
    """The state of this crawl (see the module docstring); None: a temporary one."""
    if state is not None:
        return state
    own = out.with_name(out.name + ".state") if out is not None else None
    if not (recrawl or resume) or (own is not None and own.exists()):
        return own
    # --recrawl: the rule file's latest crawl; --resume: it, if it was writing this output
    previous = last_crawl(rules_file, None if recrawl or out is None else out) \
        if rules_file is not None else None
    if previous is not None:
        return previous
    if recrawl:
        raise FrontierError("no earlier crawl of this rule file to recrawl: crawl it first, "
                            "or name that crawl's state with --state",
                            url=str(rules_file or out or "-"))
    return own


def check_distinct(roles: Mapping[str, Path | None]) -> None:
    """Refuse two roles naming one file: the crawl would destroy an input."""
    seen: dict[str, str] = {}
    for role, path in roles.items():
        if path is None:
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise StructurerError(f"{seen[key]} and {role} are the same file; the crawl "
                                  f"would destroy it", url=str(path))
        seen[key] = role


def open_state(path: str | Path, *, site: str, rules_hash: str, out: str, fmt: str,
               resume: bool = False, recrawl: bool = False, overwrite: bool = False,
               revisit_all: bool = False, output_empty: bool = True,
               clock: Callable[[], float] = time.time) -> tuple[Frontier, SinkMode]:
    """Open (or create) the state of a crawl of ``site`` writing to ``out``; returns the
    frontier, locked for this crawl, and how the output begins. A recrawl revisits the
    pages that are due (``revisit_all``: every page). ``resume`` with no crawl begun
    (killed before it began) starts one, if the output is empty. See the module
    docstring for what is refused."""
    frontier = Frontier.connect(path)
    try:
        return frontier, _begin(frontier, str(path), site=site, rules_hash=rules_hash,
                                out=out, fmt=fmt, resume=resume, recrawl=recrawl,
                                overwrite=overwrite, revisit_all=revisit_all,
                                output_empty=output_empty, now=clock())
    except BaseException:
        frontier.close()
        raise


def _begin(f: Frontier, where: str, *, site: str, rules_hash: str, out: str, fmt: str,
           resume: bool, recrawl: bool, overwrite: bool, revisit_all: bool,
           output_empty: bool, now: float) -> SinkMode:
    if overwrite and not recrawl:      # start over, whatever the state held
        return _fresh(f, site=site, rules_hash=rules_hash, out=out, fmt=fmt, now=now)
    state_site = f.get("site")
    if state_site is not None and state_site != site:
        raise FrontierError(f"this state belongs to a crawl of {state_site}, not {site}; "
                            f"use another --state", url=where)
    status = f.get("status")
    if resume and status is None and output_empty:   # killed before it began: begin
        return _fresh(f, site=site, rules_hash=rules_hash, out=out, fmt=fmt, now=now)
    if resume:
        if status not in ("running", "finished"):
            raise FrontierError("nothing to resume: no crawl was started with this state, "
                                "and the output holds records", url=where)
        wrong = [what for what, bad in (
            (f"output {f.get('out')} (not {out})", f.get("out") != out),
            (f"format {f.get('format')}", f.get("format") != fmt),
            ("another rule file", f.get("rules") != rules_hash)) if bad]
        if wrong:
            raise FrontierError(f"cannot resume: the crawl was started with {', '.join(wrong)}",
                                url=where)
        return "resume" if f.get("sink_mark") is not None else f.get("sink_mode", "new")
    if status == "running":
        raise FrontierError(f"holds an unfinished crawl of {site}: pass --resume to continue "
                            f"it{'' if recrawl else ', or --overwrite to start over'}",
                            url=where)
    if recrawl:
        if status != "finished":
            raise FrontierError(f"no finished crawl of {site} to recrawl here", url=where)
        f.begin_recrawl(now, everything=revisit_all)
        mode: SinkMode = "new" if overwrite else "append"
        with f.transaction():
            f.set(out=out, format=fmt, rules=rules_hash, sink_mode=mode)
        return mode
    return _fresh(f, site=site, rules_hash=rules_hash, out=out, fmt=fmt, now=now)


def _fresh(f: Frontier, *, site: str, rules_hash: str, out: str, fmt: str,
           now: float) -> SinkMode:
    f.reset()   # in place: the lock stays held
    with f.transaction():
        f.set(schema=SCHEMA_VERSION, site=site, run=1, status="running", out=out,
              format=fmt, rules=rules_hash, lists_done=False, sink_seq=0, sink_mark=None,
              sink_mode="new", created=now)
    return "new"
