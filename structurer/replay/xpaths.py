"""Rule XPaths compiled for replay, and the time budget of replaying them on one page.

Input: an XPath of a rule file (already checked by
:func:`structurer.rules.expressions.check_xpath`) and where it sits in the file. Output:
a compiled :class:`lxml.etree.XPath` (``//name[test]`` rewritten to the faster
``/descendant::name[test]`` where that selects the same nodes), or a one-line
:class:`RuleError` naming the rule. :class:`Clock` times what one page costs: lxml cannot
stop an XPath once it runs (the rule file's checks keep each expression linear in the
page's size), so the clock is read between expressions and list items, and a page whose
rules run past :data:`PAGE_BUDGET` seconds is given up with a :class:`RuleTimeout` that
names the rule that took the most time. The seconds are the thread's CPU time, not the
wall clock: a busy machine slows every page alike, and a page that is only waiting for
the processor is not a page whose rules cost too much.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from time import thread_time
from typing import Any

from lxml import etree

from structurer.config import Settings
from structurer.errors import RuleError
from structurer.rules.expressions import check_xpath
from structurer.schema import XPATH_NAMESPACES

__all__ = ["PAGE_BUDGET", "Clock", "RuleTimeout", "XPathFn", "compile_xpath", "optimize_xpath",
           "positional_predicate"]

# a compiled XPath; its result (nodes, strings, a number or a boolean) depends on the rule
XPathFn = Callable[..., Any]

#: Seconds of rule evaluation one page may take by default (the ``rule_budget``
#: setting); past it the page is given up.
PAGE_BUDGET: float = Settings.model_fields["rule_budget"].default

_PROBE = etree.fromstring("<html><head/><body><div/></body></html>", etree.HTMLParser())


_NAME_STEP = re.compile(r"(?:[A-Za-z_][\w.\-]*:)?(?:[A-Za-z_][\w.\-]*|\*)(?![\w.\-]*\s*(?:\(|::))")
_NUMERIC = re.compile(r"[\d.\s+\-*]+|\$[\w.\-]+|(?:count|sum|string-length|number|floor|"
                      r"ceiling|round)\s*\([^=<>]*")


def positional_predicate(body: str) -> bool:
    """Whether a predicate's body (no brackets) may select by position: ``2``,
    ``position() < 5``, ``last()``, ``$n``, ``count(x) - 1``."""
    body = body.strip()
    return "position(" in body or "last(" in body or bool(_NUMERIC.fullmatch(body))


def _positional(expr: str, i: int) -> bool:
    """Whether a predicate among those starting at ``expr[i]`` may select by position."""
    positional = False
    while True:
        while i < len(expr) and expr[i].isspace():
            i += 1
        if i >= len(expr) or expr[i] != "[":
            return positional
        depth, j, quote = 0, i, ""
        while j < len(expr):
            char = expr[j]
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == "[":
                depth += 1
            elif char == "]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if positional_predicate(expr[i + 1:j]):
            positional = True
        i = j + 1


def optimize_xpath(expr: str) -> str:
    """``//name[test]`` as ``/descendant::name[test]``: the same nodes when no predicate
    is positional, found in one pass instead of one child scan per node (2-3x faster)."""
    out, i, quote = [], 0, ""
    while i < len(expr):
        char = expr[i]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif expr.startswith("//", i):
            step = _NAME_STEP.match(expr, i + 2)
            if step is not None:
                positional = _positional(expr, step.end())
                if not positional:
                    out.append("/descendant::" + expr[i + 2:step.end()])
                    i = step.end()
                    continue
        out.append(char)
        i += 1
    return "".join(out)


def compile_xpath(expr: str, where: str, *, smart_strings: bool = True) -> XPathFn:
    """Compile once (see :func:`optimize_xpath`) after the rule file's own checks
    (:func:`structurer.rules.expressions.check_xpath`, already passed by a loaded file), so
    that a bad expression is a :class:`RuleError` naming the rule, not a failure mid-crawl."""
    try:
        check_xpath(expr)
        compiled = etree.XPath(optimize_xpath(expr), namespaces=XPATH_NAMESPACES,
                               regexp="re:" in expr, smart_strings=smart_strings)
        compiled(_PROBE)
    except (ValueError, etree.XPathError) as error:
        raise RuleError(f"{where}: XPath {expr!r} cannot be evaluated: {error}") from None
    return compiled


# ----- the time budget of one page ----------------------------------------------------------
class RuleTimeout(RuleError):
    """Replaying a rule file on one page ran over the page's time budget."""


class Clock:
    """The time budget of replaying rules on one page, and where the time went (CPU
    seconds of this thread per rule label, counted once the page turned slow; a clock is
    read only by the thread that made it); ``budget`` None: no limit."""

    __slots__ = ("budget", "deadline", "spent", "tallies", "url", "watch")

    def __init__(self, url: str, budget: float | None = PAGE_BUDGET) -> None:
        self.url, self.budget = url, budget
        now = thread_time()
        self.deadline = now + budget if budget is not None else math.inf
        # past a tenth of the budget the page is slow: from then on every expression is
        # timed on its own (before, list items are timed as a whole, which costs nothing)
        self.watch = now + budget / 10 if budget is not None else math.inf
        self.spent: dict[str, float] = {}
        self.tallies: list[tuple[tuple[str, ...], list[float]]] = []

    def costs(self, labels: tuple[str, ...]) -> list[float]:
        """A list of seconds, one per label, that the caller adds to in a tight loop (no
        dict per evaluation); the clock reads it when the budget runs out."""
        slots = [0.0] * len(labels)
        self.tallies.append((labels, slots))
        return slots

    def run(self, label: str, xpath: XPathFn, node: Any, **variables: Any) -> Any:
        """``xpath(node)``, its time charged to ``label``, then the budget checked."""
        started = thread_time()
        result = xpath(node, **variables)
        now = thread_time()
        self.spent[label] = self.spent.get(label, 0.0) + now - started
        if now > self.deadline:
            raise self.timeout()
        return result

    def check(self) -> None:
        if thread_time() > self.deadline:
            raise self.timeout()

    def timeout(self) -> RuleTimeout:
        spent = dict(self.spent)
        for labels, slots in self.tallies:
            for label, seconds in zip(labels, slots, strict=True):
                spent[label] = spent.get(label, 0.0) + seconds
        label, seconds = max(spent.items(), key=lambda kv: kv[1], default=("the rules", 0.0))
        return RuleTimeout(f"the rules took over the page's {self.budget:g} s budget, so it was "
                           f"not extracted; most of the time ({seconds:.1f} s) went to "
                           f"{label}", url=self.url)
