"""The crawl report: how healthy a crawl was, drawn from its statistics file.

Input: the ``<out>.stats.json`` a crawl writes (:meth:`CrawlStats.write_json
<structurer.crawler.stats.CrawlStats.write_json>`). Output: one self-contained HTML
file (inline CSS and SVG, no scripts, nothing fetched when viewed), rendered from
``templates/crawl.html.j2``: pages per level, per-field fill rates per level, the price
error rate and its breakdown, failures by kind, skipped links, retries, drift warnings
and charts of pages/s and items/records over time from the statistics' timeline.

The report prints the file's own figures and computes none of them: every figure
carries ``data-stat`` (its dotted key in the JSON) and ``data-value`` (the JSON
value), so a reader or a test can check the page against the file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from structurer import __version__
from structurer.errors import StructurerError
from structurer.review.templating import environment

__all__ = ["Chart", "StatsFile", "load_stats", "render_crawl_report", "write_crawl_report"]

#: The charts' size in SVG units and the plot area's margins (left, right, top, bottom).
WIDTH, HEIGHT = 760, 240
MARGIN = (64, 20, 14, 40)
TICKS = 5               # axis ticks of a chart: layout, like WIDTH and HEIGHT
#: Series colours (at least 4.5:1 on white) and dash patterns, so no line is told by colour alone.
STYLE = {"pages/s": ("#1565c0", ""), "average": ("#4a4a4a", "6 4"),
         "items": ("#2e7d32", ""), "records": ("#c62828", "8 3 2 3")}


class Point(BaseModel):
    """One timeline sample: the counters after ``elapsed`` seconds of crawling."""

    model_config = ConfigDict(frozen=True)
    elapsed: float = Field(ge=0)
    pages: int = Field(ge=0)
    items: int = Field(ge=0)
    records: int = Field(ge=0)


class StatsFile(BaseModel):
    """The statistics JSON of a crawl (keys it does not know are kept, not refused)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    site: str | None = None
    pages: dict[str, int]
    pages_total: int
    list_pages: int = 0
    empty_lists: int = 0
    items: int = 0
    items_per_list_page: float | None = None
    records: int
    price_error_rate: float | None = None
    price_errors: dict[str, int] = Field(default_factory=dict)
    fill_rates: dict[str, dict[str, float]] = Field(default_factory=dict)
    failures: dict[str, int] = Field(default_factory=dict)
    skipped: dict[str, int] = Field(default_factory=dict)
    retries: int = 0            # HTTP requests retried
    requeued: int = 0           # pages asked again (a transient failure, a blank render)
    blank_renders: int = 0      # ... of them rendered pages that came back blank
    bytes: int = 0
    elapsed: float
    pages_per_second: float = 0.0
    timeline: list[Point] = Field(default_factory=list)
    drift: list[str] = Field(default_factory=list)
    output: str | None = None
    state: str | None = None
    complete: bool | None = None


#: Bytes of a statistics file read at most (a crawl's is a few dozen KB).
MAX_STATS_BYTES = 20_000_000


def load_stats(path: str | Path) -> StatsFile:
    """Read a crawl's statistics JSON; a missing, malformed, too large or too deeply
    nested file raises one line."""
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(MAX_STATS_BYTES + 1)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise StructurerError(f"cannot read the crawl statistics: {why}", url=str(path)) from None
    if len(raw) > MAX_STATS_BYTES:
        raise StructurerError(f"larger than {MAX_STATS_BYTES:,} bytes: not the statistics of "
                              "a crawl", url=str(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise StructurerError(f"not JSON (line {error.lineno}): {error.msg}",
                              url=str(path)) from None
    except RecursionError:
        raise StructurerError("not crawl statistics: JSON nested too deeply",
                              url=str(path)) from None
    if not isinstance(data, dict):
        raise StructurerError(f"not crawl statistics: a JSON object was expected, not "
                              f"{type(data).__name__}", url=str(path))
    try:
        return StatsFile.model_validate(data)
    except RecursionError:
        raise StructurerError("not crawl statistics: JSON nested too deeply",
                              url=str(path)) from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(map(str, first["loc"])) or "the top level"
        raise StructurerError(f"not crawl statistics: {where}: {first['msg']}",
                              url=str(path)) from None


# ----- charts -------------------------------------------------------------------------------
@dataclass
class Line:
    name: str
    colour: str
    dash: str
    points: str        # SVG polyline points, "x,y x,y ..."
    count: int


@dataclass
class Chart:
    """An SVG line chart laid out in Python; the template only draws it."""

    key: str
    title: str
    unit: str
    description: str
    lines: list[Line]
    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    x_max: float
    y_max: float
    width: int = WIDTH
    height: int = HEIGHT
    margin: tuple[int, int, int, int] = MARGIN


def nice_ceiling(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten not below ``value``."""
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if value <= m * power * (1 + 1e-9))


def _label(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def _chart(key: str, title: str, unit: str, description: str, x_max: float,
           series: dict[str, list[tuple[float, float]]]) -> Chart:
    left, right, top, bottom = MARGIN
    x_max = nice_ceiling(x_max)
    y_max = nice_ceiling(max((v for pts in series.values() for _, v in pts), default=0.0))
    plot_w, plot_h = WIDTH - left - right, HEIGHT - top - bottom

    def x(t: float) -> float:
        return round(left + t / x_max * plot_w, 1)

    def y(v: float) -> float:
        return round(top + (1 - v / y_max) * plot_h, 1)

    lines = [Line(name, *STYLE[name], " ".join(f"{x(t)},{y(v)}" for t, v in pts), len(pts))
             for name, pts in series.items()]
    x_ticks = [(x(x_max * i / TICKS), _label(x_max * i / TICKS)) for i in range(TICKS + 1)]
    y_ticks = [(y(y_max * i / TICKS), _label(y_max * i / TICKS)) for i in range(TICKS + 1)]
    return Chart(key, title, unit, description, lines, x_ticks, y_ticks, x_max, y_max)


def rates(timeline: list[Point]) -> list[tuple[float, float]]:
    """Pages per second between consecutive samples, at the later sample's time."""
    return [(b.elapsed, (b.pages - a.pages) / (b.elapsed - a.elapsed))
            for a, b in pairwise(timeline) if b.elapsed > a.elapsed]


def charts(stats: StatsFile) -> list[Chart]:
    """Pages/s (with the crawl's average) and items and records over time; none for a
    timeline of fewer than two samples."""
    line = stats.timeline
    if len(line) < 2 or line[-1].elapsed <= line[0].elapsed:
        return []
    end, speeds = line[-1].elapsed, [v for _, v in rates(line)]
    last = line[-1]
    return [
        _chart("rate", "Pages fetched per second", "pages/s",
               f"Over {end:,.1f} s of crawling the rate ranged from {min(speeds):,.1f} to "
               f"{max(speeds):,.1f} pages/s, {stats.pages_per_second:,.1f} on average.", end, {
            "pages/s": rates(line),
            "average": [(line[0].elapsed, stats.pages_per_second), (end, stats.pages_per_second)],
        }),
        _chart("progress", "List items read and records written", "count",
               f"After {end:,.1f} s: {last.items:,} list items read and {last.records:,} "
               f"records written, in {len(line)} samples.", end, {
            "items": [(p.elapsed, p.items) for p in line],
            "records": [(p.elapsed, p.records) for p in line],
        }),
    ]


# ----- rendering ----------------------------------------------------------------------------
def render_crawl_report(stats: StatsFile, source: str = "") -> str:
    """The report's HTML for a statistics file already read."""
    return environment().get_template("crawl.html.j2").render(
        stats=stats, charts=charts(stats), source=source, version=__version__,
        made=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))


def write_crawl_report(stats_path: str | Path, out: str | Path | None = None) -> Path:
    """Read ``stats_path`` and write its report to ``out`` (default: beside it, ``.html``);
    returns the path written."""
    stats = load_stats(stats_path)
    path = Path(out) if out else Path(stats_path).with_suffix(".html")
    if path.resolve() == Path(stats_path).resolve():   # never overwrite the statistics
        path = path.with_name(path.name + ".html")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_crawl_report(stats, str(stats_path)), encoding="utf-8")
    except OSError as error:
        raise StructurerError(f"cannot write the report: {error.strerror or error}",
                              url=str(path)) from None
    return path
