"""Building blocks shared by the two file formats (lexicons and site rules).

``Strict`` is the base of every file model: frozen, a float must be finite (``.nan``
and ``.inf`` are refused), and an unknown key is an error that names the key and
suggests the nearest known one. The XPaths and regexes of rule files are checked by
:mod:`structurer.rules.expressions` and :mod:`structurer.rules.regexes`.
:class:`RenderMode` (from :mod:`structurer.modes`) is how pages are fetched, spelled once
for settings, rule files, the analyzer, the crawler and the command line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

from structurer.modes import RenderMode as RenderMode  # re-exported: the one spelling
from structurer.yamlio import suggest

ValueKind = Literal["text", "money", "url", "image", "integer", "rating", "availability",
                    "breadcrumb", "datetime", "html", "currency"]
FieldLevel = Literal["list", "detail", "both"]


def _level_mode(value: Any) -> Any:
    """A level's mode is decided: ``auto`` (a setting, not a decision) is refused."""
    if value == RenderMode.AUTO or value not in tuple(RenderMode):
        words = [f"'{mode.value}'" for mode in RenderMode if mode is not RenderMode.AUTO]
        raise PydanticCustomError("literal_error", "Input should be {expected}",
                                  {"expected": f"{', '.join(words[:-1])} or {words[-1]}"})
    return value


#: The render mode of a level in a rule file: any but auto (static or browser).
LevelMode = Annotated[RenderMode, BeforeValidator(_level_mode)]

XPATH_NAMESPACES = {"re": "http://exslt.org/regular-expressions"}


class Strict(BaseModel):
    """Frozen model of finite numbers whose unknown keys are reported with a 'did you
    mean' hint.

    An empty list or mapping defaults to ``Field([])`` / ``Field({})`` (pydantic copies
    it for each instance) and a nested model to an instance of it, not to a
    ``default_factory``: pydantic reads every factory's signature when it builds a model
    (for ``list`` and ``dict`` by parsing their text signatures), a fifth of building the
    file models, which every ``validate`` and ``extract-page`` pays at its start."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True,
                              allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            known = set(cls.model_fields) | {
                f.alias for f in cls.model_fields.values() if f.alias}
            for key in data:
                if key not in known:
                    raise PydanticCustomError(
                        "unknown_key", "unknown key '{key}'{hint}",
                        {"key": str(key), "hint": suggest(str(key), sorted(known))})
        return data


def error_at(subpath: list[str], message: str) -> PydanticCustomError:
    """A validation error located below the validated value (a dict key, a nested
    field), so the file's line number points at the offending entry itself."""
    return PydanticCustomError("at_key", message.replace("{", "{{").replace("}", "}}"),
                               {"subpath": list(subpath)})
