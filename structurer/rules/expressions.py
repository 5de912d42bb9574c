"""What a rule file's expressions may be: XPaths and regexes checked before any page is read.

Input: one XPath or regex string of a rule file. Output: the string, or a ``ValueError``
whose message says what is wrong (pydantic turns it into ``FILE:LINE: key.path: ...``).
The same checks run in ``structurer validate`` and when any command loads the file, so a
rule file that validates is one the crawler can replay, within a bounded cost per page:

- an XPath must compile, call only XPath 1.0 and EXSLT ``re:`` functions and use no
  ``$variables`` (lxml finds those only when evaluation reaches them);
- its cost must stay linear in the page's size: a path that searches the whole page (an
  absolute ``/``/``//`` path, the ``following::``/``preceding::`` axes, or going up and
  then down again) is refused inside a predicate, where it runs once per node tested, and
  anywhere in an item-relative expression, where it runs once per list item; predicates
  nest at most :data:`MAX_PREDICATE_DEPTH` deep and an expression is at most
  :data:`MAX_XPATH_LENGTH` characters;
- an expression that must give nodes (``item_xpath``, link XPaths) must not give a number,
  a string or a boolean, and ``item_xpath`` must select elements;
- (regexes are checked in :mod:`structurer.rules.regexes`).

lxml cannot interrupt an XPath once it runs, so these static limits are what keeps a
hostile rule file from stalling a crawl; replay adds a time budget per page on top
(:mod:`structurer.replay.extract`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from lxml import etree

from structurer.schema import XPATH_NAMESPACES

# limits of a valid rule file, not tuning: every machine must accept the same files
MAX_XPATH_LENGTH = 4000
MAX_PREDICATE_DEPTH = 2

_PROBE = etree.fromstring("<html><head/><body><div/></body></html>", etree.HTMLParser())

# ----- XPath tokens -------------------------------------------------------------------------
_TOKEN = re.compile(r"""\s*(?:
    (?P<literal>"[^"]*"|'[^']*')
  | (?P<number>\d+(?:\.\d*)?|\.\d+)
  | (?P<op>//|::|\.\.|!=|<=|>=|[()\[\].@,/|+=<>*$-])
  | (?P<name>[^\W\d][\w.\-]*(?::(?:[^\W\d][\w.\-]*|\*))?)
)""", re.X)
_OPERATOR_NAMES = frozenset({"and", "or", "mod", "div"})
_NODE_TYPES = frozenset({"node", "text", "comment", "processing-instruction"})
_FUNCTIONS = frozenset(re.findall(r"\S+", """
    last position count id local-name namespace-uri name string concat starts-with contains
    substring-before substring-after substring string-length normalize-space translate boolean
    not true false lang number sum floor ceiling round re:test re:match re:replace"""))
_UP_AXES = frozenset({"parent", "ancestor", "ancestor-or-self"})
_DOWN_AXES = frozenset({"descendant", "descendant-or-self"})
_WIDE_AXES = frozenset({"following", "preceding"})
_OPERATORS = frozenset({"/", "//", "|", "+", "-", "=", "!=", "<", "<=", ">", ">=", "*"})


@dataclass(frozen=True, slots=True)
class Token:
    kind: str        # literal, number, op, name (or '*'), axis, function, nodetype, operator
    text: str
    start: int


def tokens(expr: str) -> list[Token]:
    """XPath 1.0 tokens with the spec's disambiguation (3.7): ``*`` and ``and``/``or``/
    ``div``/``mod`` are operators after an operand, a name before ``(`` is a function or
    node type, a name before ``::`` an axis."""
    out: list[Token] = []
    pos = 0
    while pos < len(expr):
        if expr[pos:].isspace():
            break
        found = _TOKEN.match(expr, pos)
        if found is None or found.end() == pos:
            raise ValueError(f"cannot read the XPath at character {pos + 1}")
        group = found.lastgroup or "op"
        kind, text = group, found.group(group)
        pos = found.end()
        prev = out[-1] if out else None
        after_operand = prev is not None and not (
            prev.text in ("@", "::", "(", "[", ",") or prev.kind == "operator"
            or (prev.kind == "op" and prev.text in _OPERATORS))
        if kind == "name":
            rest = expr[pos:].lstrip()
            if after_operand and text in _OPERATOR_NAMES:
                kind = "operator"
            elif rest.startswith("::"):
                kind = "axis"
            elif rest.startswith("("):
                kind = "nodetype" if text in _NODE_TYPES else "function"
        elif kind == "op" and text == "*":
            kind = "operator" if after_operand else "name"  # multiply, or any element
        out.append(Token(kind, text, found.start(group)))
    return out


def _check_names(toks: list[Token]) -> None:
    """Unknown functions and variables fail only when evaluation reaches them."""
    for tok in toks:
        if tok.kind == "function" and tok.text not in _FUNCTIONS:
            raise ValueError(f"unknown function {tok.text}()")
        if tok.kind == "op" and tok.text == "$":
            raise ValueError("XPath variables ($name) are not supported in rule files")


@dataclass
class _Frame:
    """One nesting level: the expression's top, a parenthesis or a predicate."""

    per_node: bool          # evaluated once per node (in a predicate, or once per item)
    predicates: int         # predicates around it
    operand: bool = True    # the next token starts a new operand (a new path)
    up: bool = False        # the current path went up (.., parent::, ancestor::)
    any_up: bool = False    # some path in this frame went up: '(..)//x' goes on from there
    start: int = 0          # the token the current path starts at (for messages)
    last: str = "element"   # what the current path's last step selects
    kinds: tuple[str, ...] = ()   # what each finished union branch selects
    scalar: bool = False    # an operator other than '|' made the value a number or boolean
    opened_by: str = ""     # 'function', 'nodetype' or 'group' for a parenthesis

    def selects(self) -> str:
        """What the frame's whole expression selects (the first kind that is not elements)."""
        kinds = ("other",) if self.scalar else (*self.kinds, self.last)
        return next((k for k in kinds if k != "element"), "element")


def _path_text(expr: str, toks: list[Token], start: int) -> str:
    """The text of the path starting at token ``start``, up to where it ends."""
    depth, end = 0, len(expr)
    for tok in toks[start:]:
        if tok.text in ("(", "["):
            depth += 1
        elif tok.text in (")", "]"):
            depth -= 1
        if depth < 0 or (depth == 0 and (tok.text in ("|", ",") or tok.kind == "operator" or (
                tok.kind == "op" and tok.text in _OPERATORS - {"/", "//", "*"}))):
            end = tok.start
            break
    text = expr[toks[start].start:end].strip()
    return text if len(text) <= 60 else text[:59] + "…"


def _too_costly(expr: str, toks: list[Token], start: int, what: str, frame: _Frame,
                per_item: bool) -> ValueError:
    excerpt = _path_text(expr, toks, start)
    if frame.predicates == 0 and per_item:
        place = "for every list item (item XPaths are relative to the item)"
        fix = "anchor it to the item ('./', './/')"
    else:
        place = "once for every node the predicate tests, so the cost grows with the " \
                "square of the page's size"
        fix = "anchor it to the node ('./', './/') or move it out of the predicate"
    return ValueError(f"XPath is too costly to replay: {excerpt!r} {what}, {place}; {fix}")


_UP_AND_DOWN = "goes up and then down again, which can reach the whole page"


class _Scanner:
    """One pass over an XPath's tokens with a stack of :class:`_Frame`: refuses paths
    that search the whole page once per node and tells what the expression selects."""

    def __init__(self, expr: str, toks: list[Token], per_item: bool) -> None:
        self.expr, self.toks, self.per_item = expr, toks, per_item
        self.stack = [_Frame(per_node=per_item, predicates=0)]
        self.axis: str | None = None   # the axis named for the coming node test
        self.attribute = False         # '@' seen for the coming node test

    def costly(self, start: int, what: str) -> ValueError:
        return _too_costly(self.expr, self.toks, start, what, self.stack[-1], self.per_item)

    def run(self) -> str:
        """'element', 'attribute', 'text' or 'other' (a number, string or boolean)."""
        for i, tok in enumerate(self.toks):
            frame = self.stack[-1]
            if frame.operand and not (tok.kind == "operator" or tok.text in (")", "]", ",")):
                frame.operand, frame.up, frame.start, frame.last = False, False, i, "element"
                if tok.kind == "op" and tok.text in ("/", "//"):
                    if frame.per_node:
                        raise self.costly(i, "is an absolute path that searches the whole page")
                    continue
            if tok.text in ("[", "(", ")", "]"):
                self.bracket(i, tok)
            elif tok.text in ("|", ",") or tok.kind == "operator" or (
                    tok.kind == "op" and tok.text in _OPERATORS - {"/", "//"}):
                if tok.text == "|":
                    frame.kinds += (frame.last,)
                elif tok.text != ",":
                    frame.scalar = True
                frame.operand, frame.up = True, False
            else:
                self.step(tok, frame)
        if len(self.stack) != 1:
            raise ValueError("unbalanced brackets or parentheses")
        return self.stack[0].selects()

    def step(self, tok: Token, frame: _Frame) -> None:
        """A token of a location path (axis, node test, '..', '//') or a literal."""
        text = tok.text
        if tok.kind == "axis":
            self.axis = text
            if text in _WIDE_AXES and frame.per_node:
                raise self.costly(frame.start, f"uses the {text}:: axis, which searches the "
                                               "whole page")
            if text in _UP_AXES:
                frame.up = frame.any_up = True
            elif text in _DOWN_AXES and frame.up and frame.per_node:
                raise self.costly(frame.start, _UP_AND_DOWN)
        elif tok.kind in ("name", "nodetype"):
            attribute = self.attribute or self.axis == "attribute"
            frame.last = "text" if tok.kind == "nodetype" and text != "node" else \
                "attribute" if attribute else "element"
            self.axis, self.attribute = None, False
        elif text == "@":
            self.attribute = True
        elif text in ("..", "."):
            frame.last = "element"
            if text == "..":
                frame.up = frame.any_up = True
        elif text == "//":
            if frame.up and frame.per_node:
                raise self.costly(frame.start, _UP_AND_DOWN)
        elif tok.kind in ("literal", "number", "function") or text == "$":
            frame.last = "other"

    def bracket(self, i: int, tok: Token) -> None:
        """Open a predicate or parenthesis, or close one into the frame around it."""
        frame, text = self.stack[-1], tok.text
        if text == "[":
            if frame.predicates >= MAX_PREDICATE_DEPTH:
                raise ValueError(f"predicates nested more than {MAX_PREDICATE_DEPTH} deep (at "
                                 f"character {tok.start + 1}): each level multiplies the work")
            self.stack.append(_Frame(per_node=True, predicates=frame.predicates + 1))
        elif text == "(":
            before = self.toks[i - 1].kind if i else ""
            self.stack.append(_Frame(
                per_node=frame.per_node, predicates=frame.predicates,
                opened_by=before if before in ("function", "nodetype") else "group"))
        else:
            inner = self.stack.pop() if len(self.stack) > 1 else None
            if inner is None or (text == ")") != bool(inner.opened_by):
                raise ValueError(f"unbalanced {text!r} at character {tok.start + 1}")
            outer = self.stack[-1]
            outer.up = outer.up or inner.any_up
            outer.any_up = outer.any_up or inner.any_up
            if inner.opened_by == "function":
                outer.last = "other"
            elif inner.opened_by == "group":
                outer.last = inner.selects()


def check_xpath(value: str, *, per_item: bool = False,
                gives: Literal["any", "links", "elements"] = "any") -> str:
    """``value`` stripped, when it is an XPath the crawler can afford (see the module
    docstring). ``per_item``: it runs once per list item. ``gives``: what its result must
    be: anything, links (nodes or strings, never a number or a boolean) or elements."""
    value = value.strip()
    if not value:
        raise ValueError("XPath is empty")
    if len(value) > MAX_XPATH_LENGTH:
        raise ValueError(f"XPath is {len(value)} characters long; at most {MAX_XPATH_LENGTH}")
    try:
        compiled = etree.XPath(value, namespaces=XPATH_NAMESPACES, regexp="re:" in value)
    except etree.XPathSyntaxError as error:
        raise ValueError(f"invalid XPath {value!r}: {error}") from None
    toks = tokens(value)
    _check_names(toks)
    selects = _Scanner(value, toks, per_item).run()
    try:
        result = compiled(_PROBE)
    except etree.XPathError as error:
        raise ValueError(f"XPath {value!r} cannot be evaluated: {error}") from None
    if gives == "elements" and (not isinstance(result, list) or selects != "element"):
        raise ValueError(f"XPath {value!r} {_gives(result, selects)}; it must select elements")
    if gives == "links" and not isinstance(result, (list, str)):
        raise ValueError(f"XPath {value!r} {_gives(result, selects)}; it must select links "
                         "(elements with an href, or their @href)")
    return value


def _gives(result: object, selects: str) -> str:
    if isinstance(result, bool):
        return "gives a boolean"
    if isinstance(result, float):
        return "gives a number"
    if isinstance(result, str):
        return "gives a string"
    return "selects attributes" if selects == "attribute" else "selects text"
