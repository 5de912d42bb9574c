"""YAML in and out for both file formats (lexicons and site rules).

Input: a path or text. Output: plain Python data, or the first and all problems as
:class:`RuleValidationError` with the file, the 1-based line and the key path.
Loading is always safe (no Python object tags) and refuses duplicate keys, which
PyYAML would otherwise resolve silently by keeping the last one. It is bounded too:
a file larger than :data:`MAX_FILE_BYTES`, nested deeper than :data:`MAX_DEPTH` or
expanding (through aliases) to more than :data:`MAX_VALUES` values is refused with one
line, before any model sees it. The parsing itself is :mod:`structurer.yamlsyntax`'s.

A text parsed once is kept, as JSON, in the user's cache folder
(``$XDG_CACHE_HOME/structurer/yaml``, else ``~/.cache/structurer/yaml``), named by the
SHA-256 of what the parse depends on: :data:`CACHE_FORMAT`, the bounds and the text
itself. Reading the same text again (a shipped lexicon, at every start of a command)
loads that JSON instead of PyYAML and its parse, a tenth of ``extract-page``'s start.
Only what JSON gives back exactly is kept (plain mappings with text keys, lists, text,
numbers, booleans, null: no dates, sets or binary), a kept value is checked against the
bounds when read, at most :data:`CACHE_ENTRIES` parses are kept (the oldest go), and a
folder that cannot be written is no error (nothing is kept).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

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
#: The parse a cached value stands for: change it when parsing accepts or gives other
#: values for the same text (the loaders, the duplicate-key rule).
CACHE_FORMAT = "structurer yaml cache 1: safe load, unique keys"
#: Parses the cache keeps; the oldest go first (every rule file analyzed is one more).
CACHE_ENTRIES = 256


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
    """Parse YAML text safely; syntax problems become one-line errors with a line number.
    A text parsed before comes from the cache (see the module's description)."""
    if not text.strip():
        raise RuleValidationError("file is empty", file=file)
    entry = cache_entry(text)
    known = _cached(entry)
    if known is not None:
        return known
    from structurer import yamlsyntax  # PyYAML: only for a text not parsed before

    data = yamlsyntax.parse(text, file, MAX_DEPTH, MAX_VALUES)
    _keep(entry, data)
    return data


def cache_entry(text: str) -> Path | None:
    """The cache file of ``text``'s parse, or None when there is no cache folder."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(root):  # no home to keep it in: not the working directory
        return None
    import hashlib  # loaded already by pydantic: no cost at start

    key = hashlib.sha256(f"{CACHE_FORMAT}\0{MAX_DEPTH}\0{MAX_VALUES}\0{text}".encode())
    return Path(root) / "structurer" / "yaml" / f"{key.hexdigest()}.json"


def _cached(entry: Path | None) -> Any:
    """The value kept in ``entry``, or None (none kept, unreadable, or out of bounds)."""
    if entry is None:
        return None
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if _plain(data, 1, [0]) else None


def _keep(entry: Path | None, data: Any) -> None:
    """Keep ``data`` in ``entry`` when JSON gives it back exactly; never an error."""
    if entry is None or data is None or not _plain(data, 1, [0]):
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_name(f"{entry.stem}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                             encoding="utf-8")
        os.replace(temporary, entry)
        _prune(entry.parent)
    except OSError:
        return


def _prune(folder: Path) -> None:
    """Drop the oldest kept parses beyond :data:`CACHE_ENTRIES` (checked only when a new
    text was parsed, which costs far more than listing the folder)."""
    kept = sorted(folder.glob("*.json"), key=lambda path: path.stat().st_mtime)
    for path in kept[:max(0, len(kept) - CACHE_ENTRIES)]:
        path.unlink(missing_ok=True)


def _plain(value: Any, depth: int, count: list[int]) -> bool:
    """True when ``value`` is what JSON reads back as itself, within the bounds."""
    count[0] += 1
    if count[0] > MAX_VALUES:
        return False
    if isinstance(value, dict):
        return depth < MAX_DEPTH and all(isinstance(k, str) and _plain(v, depth + 1, count)
                                         for k, v in value.items())
    if isinstance(value, list):
        return depth < MAX_DEPTH and all(_plain(v, depth + 1, count) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int))  # bool is an int


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
        from structurer import yamlsyntax  # the lines of the problems: only for a bad file

        root = yamlsyntax.compose(text)
        out = []
        for error in exc.errors():
            loc = [part for part in error["loc"] if not str(part).startswith("function-")]
            ctx = error.get("ctx") or {}
            if error["type"] == "unknown_key":
                loc.append(ctx["key"])
            elif ctx.get("subpath"):
                loc.extend(ctx["subpath"])
            out.append(RuleValidationError(
                _message(error, loc), file=file, line=yamlsyntax.node_line(root, loc),
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


def dump(data: Any, header: str = "") -> str:
    """YAML text with keys in the given (model) order, readable by people."""
    from structurer import yamlsyntax

    return yamlsyntax.dump(data, header)
