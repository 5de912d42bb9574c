"""Check a lexicon or a rule file after a person edited it, without running a crawl.

Input: a path. Output: a :class:`FileReport` naming the file's kind and every
problem found (each a one-line :class:`RuleValidationError`). The kind is told
from the top-level keys: a rule file has ``levels``, a lexicon has ``fields``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from structurer import yamlio
from structurer.errors import RuleError, RuleValidationError
from structurer.lexicon import Lexicon
from structurer.rules.model import SiteRules

FileKind = Literal["rules", "lexicon"]

_RULE_KEYS = {"levels", "schema_version", "start_url", "site"}
_LEXICON_KEYS = {"fields", "list_structures", "attribute_weights", "thresholds"}


@dataclass
class FileReport:
    path: str
    kind: FileKind | None
    errors: list[RuleError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def file_kind(data: object) -> FileKind | None:
    if not isinstance(data, dict):
        return None
    keys = set(data)
    if keys & _RULE_KEYS:
        return "rules"
    if keys & _LEXICON_KEYS:
        return "lexicon"
    return None


def validate_file(path: str | Path) -> FileReport:
    """Every problem of one lexicon or rule file; never raises for a bad file."""
    name = str(path)
    try:
        text = yamlio.read_text(Path(path))
        data = yamlio.parse(text, name)
    except RuleError as error:
        return FileReport(name, None, [error])
    if not isinstance(data, dict):
        found = "a list" if isinstance(data, list) else type(data).__name__
        return FileReport(name, None, [RuleValidationError(
            f"expected a mapping of keys at the top, found {found}", file=name, line=1)])
    kind = file_kind(data)
    if kind is None:
        return FileReport(name, None, [RuleValidationError(
            "cannot tell whether this is a rule file or a lexicon (a rule file has 'levels', "
            "a lexicon has 'fields')", file=name, line=1)])
    model = SiteRules if kind == "rules" else Lexicon
    errors: list[RuleError] = list(yamlio.validation_errors(model, data, text, name))
    return FileReport(name, kind, errors)
