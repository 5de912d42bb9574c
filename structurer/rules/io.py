"""Read and write site rule files (``site_rules/*.yaml``).

Input: a path or YAML text. Output: validated :class:`SiteRules`, or a one-line
:class:`RuleValidationError`. Writing keeps the models' key order, leaves out
empty values and starts with a comment saying how to check an edited file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from structurer import yamlio
from structurer.rules.model import SiteRules


def load_rules(path: str | Path) -> SiteRules:
    return yamlio.load_model(SiteRules, Path(path))


def rules_from_text(text: str, file: str = "<string>") -> SiteRules:
    return yamlio.model_from_text(SiteRules, text, file)


def _prune(value: Any) -> Any:
    """Drop None, False and empty containers: they are the defaults and clutter the file."""
    if isinstance(value, dict):
        out = {k: _prune(v) for k, v in value.items()}
        return {k: v for k, v in out.items()
                if v is not None and v is not False and v != [] and v != {}}
    if isinstance(value, list):
        return [_prune(v) for v in value]
    return value


def dump_rules(rules: SiteRules) -> str:
    header = (
        f"# structurer site rules for {rules.site}\n"
        "# XPaths of list fields are relative to one item; detail fields to the page.\n"
        "# Edit freely, then check with: structurer validate <this file>\n"
    )
    data = _prune(rules.model_dump(mode="json"))
    if rules.record is not None and rules.record.vocabulary is not None:
        # an empty list is a lexicon's word ("no home labels"), not a default to drop
        data["record"]["vocabulary"] = rules.record.vocabulary.model_dump(mode="json",
                                                                          exclude_none=True)
    return yamlio.dump(data, header)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_rules(rules: SiteRules, path: str | Path) -> Path:
    """Write atomically, so an interrupted write never leaves half a rule file; the file
    gets the permissions any new file gets (0644 with the usual umask 022), not the
    private 0600 of a temporary file."""
    import tempfile  # with shutil, bz2 and lzma: only a write pays for it, not every read

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(dump_rules(rules))
            os.fchmod(handle.fileno(), 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def rules_filename(url: str) -> str:
    """``<host>.yaml``, or ``<host>_<port>.yaml`` for a non-default port."""
    parts = urlsplit(url)
    host = (parts.hostname or "site").lower()
    default = {"http": 80, "https": 443}.get(parts.scheme)
    if parts.port and parts.port != default:
        return f"{host}_{parts.port}.yaml"
    return f"{host}.yaml"
