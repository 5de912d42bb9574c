"""Building blocks shared by the two file formats (lexicons and site rules).

``Strict`` is the base of every file model: frozen, and an unknown key is an error
that names the key and suggests the nearest known one. ``XPathExpr`` is a string
checked to compile with lxml, so a typo in a rule file is caught by ``validate``
and never first by a crawl.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from lxml import etree
from pydantic import AfterValidator, BaseModel, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

from structurer.yamlio import suggest

ValueKind = Literal["text", "money", "url", "image", "integer", "rating", "availability",
                    "breadcrumb", "datetime", "html"]
FieldLevel = Literal["list", "detail", "both"]
RenderMode = Literal["static", "browser"]

XPATH_NAMESPACES = {"re": "http://exslt.org/regular-expressions"}


class Strict(BaseModel):
    """Frozen model whose unknown keys are reported with a 'did you mean' hint."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

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


def _check_xpath(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("XPath is empty")
    try:
        etree.XPath(value, namespaces=XPATH_NAMESPACES)
    except etree.XPathSyntaxError as error:
        raise ValueError(f"invalid XPath {value!r}: {error}") from None
    return value


XPathExpr = Annotated[str, AfterValidator(_check_xpath)]
"""An XPath 1.0 expression (EXSLT ``re:`` allowed) that lxml compiles."""
