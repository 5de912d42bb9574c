"""The package's shape: no import cycle, dependencies that point one way, and modules
and functions short enough to read (at most ~400 and ~60 lines).

The pipeline's layers, top to bottom: the front ends (``cli``, and ``demo``, which runs
the README demo) -> ``api`` -> the engines (``learn``, ``crawler``, ``review``) ->
extraction (``replay``, ``generic``) -> ``page`` -> page sources and values (``fetch``,
``sources``, ``clean``, ``nesting``, ``values``, ``kinds``, ``structured``) -> models
(``rules``, ``lexicon``, ``thresholds``, ``vocabulary``, ``config``, ``errors``, ``schema``, ``yamlio``, ``yamlsyntax``, ``validate``).
A module imports only from its own layer or the layers below it; the engines do not
import one another, nor do the two extractions; nothing but the command line imports
``structurer.cli`` or rich (terminal output lives in ``cli/display``); the crawler
never reads the lexicon (the rule file carries what it needs).

The import graph is read from every module's source (``ast``): module-level imports,
imports inside functions, ``importlib.import_module("structurer...")`` with a literal
name, and (for the layers only, as they never run) imports under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import structurer

PACKAGE = Path(structurer.__file__).resolve().parent

#: Layers, top first: a module may import from its own layer and the ones below.
LAYERS: list[tuple[str, set[str]]] = [
    ("front ends", {"cli", "demo", "__main__"}),
    ("api", {"api"}),
    ("engines", {"learn", "crawler", "review"}),
    ("extraction", {"replay", "generic"}),
    ("page", {"page"}),
    ("sources and values", {"fetch", "sources", "clean", "nesting", "values", "markupvalues", "words", "namewords",
                            "kinds", "structured"}),
    ("models", {"", "_version", "_lazy", "logs", "rules", "lexicon", "thresholds", "vocabulary", "config", "errors",
                "schema", "modes", "yamlio", "yamlsyntax", "validate"}),
]
#: Parts of one layer that stay apart: neither imports the other.
APART = [("learn", "crawler"), ("learn", "review"), ("crawler", "review"),
         ("replay", "generic")]


@dataclass(frozen=True)
class Import:
    source: str         # the importing module
    target: str         # the imported module (a package's ``__init__`` by its name)
    line: int
    top: bool           # at module level (runs on import), not in a function
    typing: bool        # under ``if TYPE_CHECKING:`` (never runs)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(name: str) -> str | None:
    """The module ``name`` is, or is in (``structurer.x.y.Class`` -> ``structurer.x.y``)."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _absolute(source: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = source if modules()[source].name == "__init__.py" else source.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _names(source: str, node: ast.AST) -> Iterator[str]:
    """The dotted names an import statement (or ``import_module("...")``) brings in."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = _absolute(source, node)
        for alias in node.names:    # ``from pkg import module`` imports the module
            yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base
    elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)) and (
            getattr(node.func, "attr", None) == "import_module"
            or getattr(node.func, "id", None) == "import_module") and node.args and \
            isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        yield node.args[0].value


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(source: str, node: ast.AST, *, top: bool, typing: bool) -> Iterator[tuple[str, int,
                                                                                   bool, bool]]:
    for child in ast.iter_child_nodes(node):
        inner_top = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
        inner_typing = typing or (isinstance(child, ast.If) and _is_type_checking(child))
        for name in _names(source, child):
            yield name, getattr(child, "lineno", 0), top, typing
        if isinstance(child, ast.If) and _is_type_checking(child):
            for statement in child.body:    # the else branch runs
                yield from _walk(source, ast.Module(body=[statement], type_ignores=[]),
                                 top=top, typing=True)
            for statement in child.orelse:
                yield from _walk(source, ast.Module(body=[statement], type_ignores=[]),
                                 top=top, typing=typing)
            continue
        yield from _walk(source, child, top=inner_top, typing=inner_typing)


@cache
def imports() -> tuple[Import, ...]:
    """Every import of a structurer module by a structurer module (once per statement)."""
    found: dict[Import, None] = {}
    for source, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, line, top, typing in _walk(source, tree, top=True, typing=False):
            target = _resolve(name) if name.split(".")[0] == "structurer" else None
            if target is not None and target != source:
                found[Import(source, target, line, top, typing)] = None
    return tuple(found)


def third_party(prefix: str) -> list[tuple[str, int]]:
    """Where a structurer module imports the library ``prefix`` (e.g. ``rich``)."""
    found = []
    for source, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, line, _, _ in _walk(source, tree, top=True, typing=False):
            if name == prefix or name.startswith(prefix + "."):
                found.append((source, line))
    return found


def part(module: str) -> str:
    """The top-level part of the package a module belongs to (``""``: the root)."""
    return module.split(".")[1] if "." in module else ""


def cycles(edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def _show(found: list[Import]) -> str:
    return "\n".join(f"{i.source}:{i.line} imports {i.target}" for i in found)


# ----- the reader itself -------------------------------------------------------------------
def test_the_graph_reader_sees_every_kind_of_import() -> None:
    """The reader must see what the rules below rely on: a test on a graph missing edges
    would pass whatever the code did."""
    seen = {(i.source, i.target): i for i in imports()}
    top = seen[("structurer.crawler.engine", "structurer.crawler.frontier")]
    assert top.top and not top.typing
    inner = seen[("structurer.cli.crawl", "structurer.crawler.engine")]   # in a function
    assert not inner.top and not inner.typing
    typed = seen[("structurer.cli.display", "structurer.crawler.stats")]  # TYPE_CHECKING
    assert typed.typing
    assert ("structurer.learn.explore", "structurer.learn.assemble") in seen
    assert ("structurer.api", "structurer.learn.batch") in seen       # from pkg import module
    assert len(modules()) > 100 and len(imports()) > 500
    assert cycles([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]) == [["a", "b", "c"]]
    assert cycles([("a", "b"), ("b", "c")]) == []


# ----- no cycle ----------------------------------------------------------------------------
def _cycles_of(found: list[Import]) -> str:
    """The cycles among ``found`` with the imports that make them (the failure message)."""
    lines = []
    for component in cycles((i.source, i.target) for i in found):
        inside = [i for i in found if i.source in component and i.target in component]
        lines.append(" <-> ".join(component) + "\n" + _show(inside))
    return "\n".join(lines)


def test_no_import_cycle_at_module_level() -> None:
    """Imports that run when a module is imported never come back to it."""
    assert _cycles_of([i for i in imports() if i.top and not i.typing]) == ""


def test_no_import_cycle_counting_imports_in_functions() -> None:
    """Deferred imports (inside functions, for start-up time) follow the same order."""
    assert _cycles_of([i for i in imports() if not i.typing]) == ""


def test_no_cycle_between_the_parts_of_the_package() -> None:
    """``learn`` -> ``api`` -> ``learn`` is a cycle too, though no single module has one."""
    across = [i for i in imports() if not i.typing and part(i.source) != part(i.target)]
    found = []
    for component in cycles((part(i.source), part(i.target)) for i in across):
        inside = [i for i in across if {part(i.source), part(i.target)} <= set(component)]
        found.append(" <-> ".join(p or "structurer" for p in component) + "\n" + _show(inside))
    assert found == [], "\n".join(found)


# ----- dependencies point one way ----------------------------------------------------------
def _rank(module: str) -> int:
    for rank, (_, parts) in enumerate(LAYERS):
        if part(module) in parts:
            return rank
    raise AssertionError(f"{module} is in no layer: add its part to LAYERS")


def test_every_part_of_the_package_is_in_a_layer() -> None:
    for module in modules():
        _rank(module)


def test_nothing_imports_upwards() -> None:
    """(The package root is left out as an importer: it is the lazy facade whose
    ``TYPE_CHECKING`` block names the public verbs of ``api``; it runs no import but
    ``_version`` and ``_lazy``.)"""
    upward = [i for i in imports() if _rank(i.target) < _rank(i.source)
              and i.source != "structurer"]
    assert upward == [], "\n" + _show(upward)


@pytest.mark.parametrize(("one", "other"), APART, ids=[f"{a}-{b}" for a, b in APART])
def test_peers_stay_apart(one: str, other: str) -> None:
    across = [i for i in imports() if {part(i.source), part(i.target)} == {one, other}]
    assert across == [], "\n" + _show(across)


def test_only_the_command_line_imports_the_command_line() -> None:
    outside = [i for i in imports() if part(i.target) == "cli"
               and part(i.source) not in ("cli", "__main__")]
    assert outside == [], "\n" + _show(outside)


def test_terminal_output_lives_in_the_command_line() -> None:
    """Engines report progress through callbacks; only ``cli/`` draws (with rich)."""
    outside = [f"{m}:{line}" for m, line in third_party("rich") if part(m) != "cli"]
    assert outside == []


def test_the_crawler_never_reads_the_lexicon() -> None:
    """A worker on another machine crawls from the rule file alone."""
    reads = [i for i in imports() if part(i.source) == "crawler"
             and i.target == "structurer.lexicon"]
    assert reads == [], "\n" + _show(reads)


# ----- sizes a reader can hold in mind -----------------------------------------------------
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
#: Known to be over, being split on other branches: each entry fails once it fits (so the
#: list only shrinks); nothing else may grow past the limits.
LONG_MODULES: set[str] = set()
LONG_FUNCTIONS: set[str] = set()


def long_functions(source: str, module: str, limit: int) -> dict[str, int]:
    """``module.function`` (methods and nested functions by their own name) -> lines, for
    every function whose ``def`` to last line spans more than ``limit`` lines."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                found[f"{module}.{node.name}"] = lines
    return found


def test_the_function_measure_counts_def_to_last_line() -> None:
    source = "def short():\n    return 1\n\n\nclass A:\n    async def long(self):\n" + \
        "        x = 1\n" * 4 + "        return x\n"
    assert long_functions(source, "m", 5) == {"m.long": 6}
    assert long_functions(source, "m", 6) == {}


def test_no_module_over_the_limit() -> None:
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in modules().items()}
    over = {m: n for m, n in sizes.items() if n > MAX_MODULE_LINES and m not in LONG_MODULES}
    fits = sorted(m for m in LONG_MODULES if sizes.get(m, 0) <= MAX_MODULE_LINES)
    assert over == {}, f"split these modules (at most {MAX_MODULE_LINES} lines each)"
    assert fits == [], "these fit now: remove them from LONG_MODULES"


def test_no_function_over_the_limit() -> None:
    found: dict[str, int] = {}
    for module, path in modules().items():
        found |= long_functions(path.read_text(encoding="utf-8"), module, MAX_FUNCTION_LINES)
    over = {f: n for f, n in found.items() if f not in LONG_FUNCTIONS}
    fits = sorted(LONG_FUNCTIONS - found.keys())
    assert over == {}, f"shorten these functions (at most {MAX_FUNCTION_LINES} lines each)"
    assert fits == [], "these fit now: remove them from LONG_FUNCTIONS"
