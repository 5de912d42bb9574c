"""YAML in and out for both file formats (lexicons and site rules).

Input: a path or text. Output: plain Python data, or the first and all problems as
:class:`RuleValidationError` with the file, the 1-based line and the key path.
Loading is always safe (no Python object tags) and refuses duplicate keys, which
PyYAML would otherwise resolve silently by keeping the last one.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from structurer.errors import RuleError, RuleValidationError

M = TypeVar("M", bound=BaseModel)


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that rejects a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None,
                    f"duplicate key {key!r} (first given on line {seen[key].start_mark.line + 1})",
                    key_node.start_mark)
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)


def read_text(path: Path) -> str:
    """The file's text, or a one-line RuleError saying why it can't be read."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RuleError("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise RuleError("is a directory, not a YAML file", file=str(path)) from None
    except OSError as error:
        raise RuleError(f"cannot read: {error.strerror}", file=str(path)) from None
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
        return yaml.load(text, Loader=_UniqueKeyLoader)
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


def validation_errors(model: type[M], data: Any, text: str, file: str) -> list[RuleValidationError]:
    """Every schema problem of ``data`` as a one-line error, in file order."""
    if not isinstance(data, dict):
        found = type(data).__name__ if data is not None else "nothing"
        return [RuleValidationError(f"expected a mapping of keys at the top, found {found}",
                                    file=file, line=1)]
    try:
        model.model_validate(data)
    except ValidationError as exc:
        try:
            root = yaml.compose(text, Loader=yaml.SafeLoader)
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
        return out
    return []


def load_model(model: type[M], path: Path) -> M:
    """Read, parse and validate one YAML file; raise its first problem as one line."""
    text = read_text(path)
    return model_from_text(model, text, str(path))


def model_from_text(model: type[M], text: str, file: str) -> M:
    data = parse(text, file)
    errors = validation_errors(model, data, text, file)
    if errors:
        first = errors[0]
        if len(errors) > 1:
            first.message += f" (and {len(errors) - 1} more problem{'s' * (len(errors) > 2)})"
        raise first
    return model.model_validate(data)


def suggest(word: str, choices: Sequence[str]) -> str:
    """' (did you mean 'x'?)' for a near miss among ``choices``, else ''."""
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
