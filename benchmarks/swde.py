"""The SWDE benchmark format: ground truth files and scoring of detail records against them.

Input: a SWDE vertical/site folder (``pages/<vertical>-<site>-N/NNNN.htm.gz`` and
``groundtruth/<vertical>-<site>-<attribute>.txt``). Output: truth per page id and
per attribute, and the share of pages whose extracted value is one of the truth's.
The format is the research dataset's: line 1 names vertical, site and attribute,
line 2 holds counts, then ``page_id<TAB>n<TAB>value...``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any


def read_truth(folder: Path, attribute: str) -> dict[str, list[str]]:
    """page id -> accepted values of one attribute."""
    path = next(folder.glob(f"groundtruth/*-{attribute}.txt"))
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines()[2:]:
        parts = line.split("\t")
        if len(parts) >= 2:
            out[parts[0]] = parts[2:]
    return out


def pages(folder: Path) -> list[Path]:
    return sorted(folder.glob("pages/*/*.htm*"))


def normalize(value: Any) -> str:
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    text = html.unescape(str(value or "")).replace("\xa0", " ")
    return re.sub(r"\s+", " ", text).strip().lower()


def matches(got: Any, accepted: Iterable[str]) -> bool:
    """SWDE counts a page right when the value equals any accepted value (or all of them
    joined, for several authors); a page without a value is right when nothing is found."""
    want = [normalize(v) for v in accepted if normalize(v)]
    value = normalize(got)
    if not want:
        return not value
    return value in want or value == ", ".join(want)


def score(records: Mapping[str, Mapping[str, Any]], truth: Mapping[str, Mapping[str, list[str]]]
          ) -> dict[str, float]:
    """field -> share of pages right; ``truth`` maps field -> page id -> accepted values."""
    out: dict[str, float] = {}
    for field_name, by_page in truth.items():
        ids = [i for i in records if i in by_page]
        right = sum(matches(records[i].get(field_name), by_page[i]) for i in ids)
        out[field_name] = right / max(len(ids), 1)
    return out
