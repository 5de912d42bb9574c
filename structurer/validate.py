"""Check a lexicon or a rule file after a person edited it, without running a crawl.

Input: a path. Output: a :class:`FileReport` naming the file's kind and every
problem found (each a one-line :class:`RuleValidationError`). The kind is told
from the top-level keys: a rule file has ``levels``, a lexicon has ``fields``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from structurer import yamlio
from structurer.errors import RuleError, RuleValidationError
from structurer.lexicon import Lexicon, resolve_template

if TYPE_CHECKING:
    from structurer.rules.model import SiteRules

FileKind = Literal["rules", "lexicon"]

_RULE_KEYS = {"levels", "schema_version", "start_url", "site"}
_LEXICON_KEYS = {"fields", "list_structures", "attribute_weights", "thresholds"}
#: Lexicons validated in this process, by resolved path and text: ``validate LEXICON RULES``
#: checks the rules against the lexicon it has just validated instead of parsing it again
#: (a large YAML file: its parse is a tenth of the command's time).
_VALIDATED: dict[tuple[Path, str], Lexicon] = {}


@dataclass
class FileReport:
    path: str
    kind: FileKind | None
    errors: list[RuleError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

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
    if kind == "lexicon":
        lexicon, problems = yamlio.validated(Lexicon, data, text, name)
        if lexicon is not None:
            _VALIDATED[(Path(path).resolve(), text)] = lexicon
        return FileReport(name, kind, list(problems))
    from structurer.rules.model import SiteRules  # a lexicon alone never builds its models

    rules, problems = yamlio.validated(SiteRules, data, text, name)
    report = FileReport(name, kind, list(problems))
    if rules is not None:
        report.warnings = template_warnings(rules, Path(path))
    return report


def template_warnings(rules: SiteRules, path: Path) -> list[str]:
    """Disagreements between a rule file and the lexicon it names, where that lexicon
    can be found: fields the lexicon does not define, kinds that differ, a changed hash."""
    ref = rules.template
    candidates = [Path(ref.path), path.parent / ref.path] if ref.path else []
    source = next((p for p in candidates if p.is_file()), None)
    try:
        lexicon = _lexicon(source if source else ref.name)
    except RuleError:
        return [f"{path}: lexicon {ref.name!r} not found, so fields were not checked against it"]
    out = []
    if lexicon.content_hash() != ref.hash:
        out.append(f"{path}: lexicon {ref.name!r} changed since these rules were learned "
                   f"({ref.hash} -> {lexicon.content_hash()}); re-run analyze to use the change")
    for level_name in ("list", "detail"):
        level = getattr(rules.levels, level_name)
        if level is None:
            continue
        layouts = [("", level), *((f" (variant {i})", v) for i, v in enumerate(level.variants))]
        for where, layout in layouts:
            for field_name, rule in layout.fields.items():
                spec = lexicon.fields.get(field_name)
                loc = f"levels.{level_name}.fields.{field_name}{where}"
                if spec is None:
                    out.append(f"{path}: {loc}: field {field_name!r} is not in lexicon "
                               f"{lexicon.name!r}{yamlio.suggest(field_name, list(lexicon.fields))}"
                               " (a typo? records carry it under this name)")
                elif spec.kind != rule.kind:
                    out.append(f"{path}: {loc}: kind {rule.kind!r} differs from the lexicon's "
                               f"{spec.kind!r}")
    return out


def _lexicon(name_or_path: str | Path) -> Lexicon:
    """:func:`~structurer.lexicon.load_lexicon`, from :data:`_VALIDATED` when this very
    text was validated already."""
    path = resolve_template(name_or_path)
    text = yamlio.read_text(path)
    known = _VALIDATED.get((path.resolve(), text))
    return known if known is not None else yamlio.model_from_text(Lexicon, text, str(path))
