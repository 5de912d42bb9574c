"""YAML syntax: PyYAML's safe loaders and dumper, for :mod:`structurer.yamlio`.

Input: YAML text. Output: plain Python data, or a one-line :class:`RuleValidationError`
with the file and the 1-based line; the line of a key path; YAML text of data. Loading is
always safe (no Python object tags) and refuses duplicate keys, which PyYAML would
otherwise resolve silently by keeping the last one. It is bounded too: a file nested
deeper than ``depth`` or expanding (through aliases) to more than ``values`` values (the
bounds :mod:`structurer.yamlio` sets) is refused with one line, before any model sees it.

Only this module imports PyYAML: :mod:`structurer.yamlio` loads it when a text is not
in its cache of parsed files, so a command whose files are cached never pays for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

from structurer.errors import RuleValidationError

try:
    from yaml import CSafeLoader as _CSafeLoader
except ImportError:  # PyYAML built without libyaml
    from yaml import SafeLoader as _CSafeLoader  # type: ignore[assignment]


def _check_unique_keys(loader: yaml.constructor.SafeConstructor, node: yaml.MappingNode,
                       deep: bool) -> None:
    seen: dict[Any, yaml.Node] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None,
                f"duplicate key {key!r} (first given on line {seen[key].start_mark.line + 1})",
                key_node.start_mark)
        seen[key] = key_node


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that rejects a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        _check_unique_keys(self, node, deep)
        return super().construct_mapping(node, deep=deep)


class _FastUniqueKeyLoader(_CSafeLoader):
    """The same on libyaml's parser (several times faster); a file it rejects is read
    again by :class:`_UniqueKeyLoader`, whose messages the errors quote."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        _check_unique_keys(self, node, deep)
        return super().construct_mapping(node, deep=deep)


def parse(text: str, file: str, depth: int, values: int) -> Any:
    """Parse YAML text safely; syntax problems become one-line errors with a line number."""
    if not text.strip():
        raise RuleValidationError("file is empty", file=file)
    try:
        return _bounded(yaml.load(text, Loader=_FastUniqueKeyLoader), text, file, depth, values)
    except yaml.MarkedYAMLError as error:
        if "nesting depth" in str(error.problem):
            raise _too_deep(text, file, depth) from None
    except yaml.YAMLError:
        pass  # read again below, for the pure-Python parser's wording of the error
    except RecursionError:  # the pure-Python parser, when PyYAML has no libyaml
        raise _too_deep(text, file, depth) from None
    try:
        return _bounded(yaml.load(text, Loader=_UniqueKeyLoader), text, file, depth, values)
    except RecursionError:
        raise _too_deep(text, file, depth) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or "invalid YAML"
        if "could not determine a constructor" in problem:
            problem = ("unsupported tag " + problem.split("tag ", 1)[-1].split("\n")[0]
                       + " (only plain YAML data is allowed)")
        if error.context and "duplicate key" not in problem:
            context = error.context
            if error.context_mark is not None and mark is not None and \
                    error.context_mark.line != mark.line:
                context += f" started on line {error.context_mark.line + 1}"
            problem = f"{problem} ({context})"
        line = mark.line + 1 if mark is not None else None
        raise RuleValidationError(f"YAML syntax error: {problem}", file=file, line=line) from None
    except yaml.YAMLError as error:
        raise RuleValidationError(f"YAML error: {error}", file=file) from None


def _bounded(data: Any, text: str, file: str, depth_most: int, values_most: int) -> Any:
    """``data`` when it is at most ``depth_most`` deep and holds at most ``values_most`` values
    (aliases counted each time they are used: a 'billion laughs' file is refused)."""
    stack, count = [(data, 1)], 0
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > values_most:
            raise RuleValidationError(f"holds more than {values_most:,} values once its aliases "
                                      "(*name) are expanded; a rule file or lexicon has a few "
                                      "thousand", file=file)
        children = value.values() if isinstance(value, dict) else value \
            if isinstance(value, list) else ()
        if children and depth >= depth_most:
            raise _too_deep(text, file, depth_most)
        stack.extend((child, depth + 1) for child in children)
    return data


def _too_deep(text: str, file: str, most: int) -> RuleValidationError:
    """The error for a file nested deeper than ``most``, at the line where it gets so."""
    line, depth = None, 0
    try:
        for event in yaml.parse(text, Loader=_CSafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth >= most:
                    line = event.start_mark.line + 1 if event.start_mark is not None else None
                    break
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except (yaml.YAMLError, RecursionError) as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
    return RuleValidationError(f"nested more than {most} levels deep; a rule file or "
                               "lexicon needs fewer than 10", file=file, line=line)


def compose(text: str) -> yaml.Node | None:
    """The node tree of ``text`` (for the lines of errors), or None when it has none."""
    try:
        return yaml.compose(text, Loader=_CSafeLoader)
    except yaml.YAMLError:
        return None


def node_line(root: yaml.Node | None, loc: Sequence[str | int]) -> int | None:
    """1-based line of the YAML node at ``loc`` (the key's line for mapping entries)."""
    node, line = root, (root.start_mark.line + 1 if root is not None else None)
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == str(part):
                    node, line = value_node, key_node.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if part >= len(node.value):
                return line
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


class _Dumper(yaml.SafeDumper):
    """Block style, multi-line strings as literal blocks, no aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _list_representer(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    short = all(isinstance(v, (str, int, float)) and not (isinstance(v, str) and (
        len(v) > 40 or "\n" in v)) for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value,
                                     flow_style=bool(value) and short and len(value) <= 12)


_Dumper.add_representer(str, _str_representer)
_Dumper.add_representer(list, _list_representer)


def dump(data: Any, header: str = "") -> str:
    """YAML text with keys in the given (model) order, readable by people."""
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=4096, indent=2)
    return header + body
