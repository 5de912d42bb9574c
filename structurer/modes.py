"""How pages are fetched, spelled once: a module of its own so the command line can list
the modes without loading pydantic (:mod:`structurer.schema` builds the rule-file type
:data:`~structurer.schema.LevelMode` on it), and read one saved page bounded by the
default page size without building :class:`~structurer.config.Settings`."""

from __future__ import annotations

from enum import StrEnum

#: The bytes of one page read at most, unless the settings say otherwise
#: (``Settings.max_page_bytes``' default).
MAX_PAGE_BYTES = 8_000_000


class RenderMode(StrEnum):
    """How a level's pages are fetched: ``static`` HTML over HTTP, or the DOM a
    ``browser`` rendered. ``auto`` is for settings and options only: analysis decides
    static or browser per level. Members are strings, so YAML and JSON hold the plain
    words."""

    AUTO = "auto"
    STATIC = "static"
    BROWSER = "browser"
