"""YAML in and out for both file formats (lexicons and site rules).

Input: a path or text. Output: plain Python data, or the first and all problems as
:class:`RuleValidationError` with the file, the 1-based line and the key path.
Loading is always safe (no Python object tags) and refuses duplicate keys, which
PyYAML would otherwise resolve silently by keeping the last one. It is bounded too:
a file larger than :data:`MAX_FILE_BYTES`, nested deeper than :data:`MAX_DEPTH` or
expanding (through aliases) to more than :data:`MAX_VALUES` values is refused with one
line, before any model sees it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from structurer.errors import RuleError, RuleValidationError

M = TypeVar("M", bound=BaseModel)

#: Bytes of a YAML file read at most (rule files and lexicons are a few KB).
MAX_FILE_BYTES = 5_000_000
#: Nesting of mappings and lists a file may have (a rule file needs about 8).
MAX_DEPTH = 64
#: Values a file may hold once its aliases are expanded (a rule file has a few thousand).
MAX_VALUES = 200_000

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


def read_text(path: Path) -> str:
    """The file's text, or a one-line RuleError saying why it can't be read."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise RuleError("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise RuleError("is a directory, not a YAML file", file=str(path)) from None
    except OSError as error:
        raise RuleError(f"cannot read: {error.strerror}", file=str(path)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise RuleError(f"larger than {MAX_FILE_BYTES:,} bytes; rule files and lexicons are a "
                        "few KB, so this is not one", file=str(path))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise RuleValidationError(
            f"not UTF-8 text (byte 0x{raw[error.start]:02x}); save the file as UTF-8",
            file=str(path), line=line) from None


def parse(text: str, file: str) -> Any:
    """Parse YAML text safely; syntax problems become one-line errors with a line number."""
    if not text.strip():
        raise RuleValidationError("file is empty", file=file)
    try:
        return _bounded(yaml.load(text, Loader=_FastUniqueKeyLoader), text, file)
    except yaml.MarkedYAMLError as error:
        if "nesting depth" in str(error.problem):
            raise _too_deep(text, file) from None
    except yaml.YAMLError:
        pass  # read again below, for the pure-Python parser's wording of the error
    except RecursionError:  # the pure-Python parser, when PyYAML has no libyaml
        raise _too_deep(text, file) from None
    try:
        return _bounded(yaml.load(text, Loader=_UniqueKeyLoader), text, file)
    except RecursionError:
        raise _too_deep(text, file) from None
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


def _bounded(data: Any, text: str, file: str) -> Any:
    """``data`` when it is at most MAX_DEPTH deep and holds at most MAX_VALUES values
    (aliases counted each time they are used: a 'billion laughs' file is refused)."""
    stack, count = [(data, 1)], 0
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise RuleValidationError(f"holds more than {MAX_VALUES:,} values once its aliases "
                                      "(*name) are expanded; a rule file or lexicon has a few "
                                      "thousand", file=file)
        children = value.values() if isinstance(value, dict) else value \
            if isinstance(value, list) else ()
        if children and depth >= MAX_DEPTH:
            raise _too_deep(text, file)
        stack.extend((child, depth + 1) for child in children)
    return data


def _too_deep(text: str, file: str) -> RuleValidationError:
    """The error for a file nested deeper than MAX_DEPTH, at the line where it gets so."""
    line, depth = None, 0
    try:
        for event in yaml.parse(text, Loader=_CSafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth >= MAX_DEPTH:
                    line = event.start_mark.line + 1 if event.start_mark is not None else None
                    break
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except (yaml.YAMLError, RecursionError) as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
    return RuleValidationError(f"nested more than {MAX_DEPTH} levels deep; a rule file or "
                               "lexicon needs fewer than 10", file=file, line=line)


def _node_line(root: yaml.Node | None, loc: Sequence[str | int]) -> int | None:
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


def _message(error: ErrorDetails, loc: list[str | int]) -> str:
    kind = error["type"]
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        return f"unknown key {loc[-1]!r}"
    msg = str(error["msg"])
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    return msg


def validated(model: type[M], data: Any, text: str,
              file: str) -> tuple[M | None, list[RuleValidationError]]:
    """``data`` as a ``model``, or None and every schema problem as a one-line error, in
    file order (validated once: a lexicon is large)."""
    if not isinstance(data, dict):
        found = type(data).__name__ if data is not None else "nothing"
        return None, [RuleValidationError(f"expected a mapping of keys at the top, found {found}",
                                          file=file, line=1)]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        try:
            root = yaml.compose(text, Loader=_CSafeLoader)
        except yaml.YAMLError:
            root = None
        out = []
        for error in exc.errors():
            loc = [part for part in error["loc"] if not str(part).startswith("function-")]
            ctx = error.get("ctx") or {}
            if error["type"] == "unknown_key":
                loc.append(ctx["key"])
            elif ctx.get("subpath"):
                loc.extend(ctx["subpath"])
            out.append(RuleValidationError(
                _message(error, loc), file=file, line=_node_line(root, loc),
                loc=".".join(str(p) for p in loc) or None))
        out.sort(key=lambda e: e.line or 0)
        return None, out


def load_model(model: type[M], path: Path) -> M:
    """Read, parse and validate one YAML file; raise its first problem as one line."""
    text = read_text(path)
    return model_from_text(model, text, str(path))


def model_from_text(model: type[M], text: str, file: str) -> M:
    value, errors = validated(model, parse(text, file), text, file)
    if value is None:
        first = errors[0]
        if len(errors) > 1:
            first.message += f" (and {len(errors) - 1} more problem{'s' * (len(errors) > 2)})"
        raise first
    return value


def suggest(word: str, choices: Sequence[str]) -> str:
    """' (did you mean 'x'?)' for a near miss among ``choices``, else ''."""
    import difflib  # only for a mistake: not loaded by every start

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


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
