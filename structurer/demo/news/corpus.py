"""The articles of the news demo site, generated deterministically from a seed.

Input: a seed. Output: :class:`Section` and :class:`Article` values — title, teaser,
body blocks, author, publish time, comments and the presentation choices (layout,
where the publish time is stated, how the title is announced) — from which the
pages and the ground truth are both derived, so they cannot drift apart.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

from structurer.demo.news.vocab import LANGS, TOPICS

LAYOUTS = ("classic", "magazine", "portal")
TIME_MODES = ("meta", "time", "text", "jsonld")
TITLE_MODES = ("og", "og-site", "plain")
_ZONES = {"en": UTC, "de": timezone(timedelta(hours=1)),
          "zh": timezone(timedelta(hours=8))}
#: Sections in menu order: (slug, page size, article count).
_SECTIONS = (("world", 10, 25), ("technology", 10, 25), ("sport", 10, 25),
             ("wirtschaft", 8, 24), ("kultur", 8, 24), ("keji", 12, 24), ("shehui", 12, 24))


@dataclass(frozen=True)
class Section:
    slug: str
    name: str
    lang: str
    page_size: int
    count: int


@dataclass(frozen=True)
class Comment:
    author: str
    when: datetime
    text: str


@dataclass(frozen=True)
class Article:
    id: int
    section: Section
    title: str
    teaser: str
    blocks: tuple[tuple[str, str], ...]   # ("p" | "h2" | "quote", text)
    author: str
    published: datetime                   # timezone-aware, in the section's zone
    updated: datetime | None
    comments: tuple[Comment, ...]
    place: str
    layout: str                           # one of LAYOUTS
    time_mode: str                        # one of TIME_MODES
    title_mode: str                       # one of TITLE_MODES
    show_time: bool                       # the page states the time of day
    date_style: int                       # which visible date format
    byline_style: int                     # which byline wording
    para_tag: str                         # "p", or "div" for paragraphs without <p>
    editor: str | None                    # a desk editor named after the text (trap)

    @property
    def lang(self) -> str:
        return self.section.lang

    @property
    def content(self) -> str:
        """The article text as the ground truth states it: one line per block."""
        return "\n".join(text for _, text in self.blocks)


def sections() -> list[Section]:
    return [Section(slug, TOPICS[slug][1], TOPICS[slug][0], size, count)
            for slug, size, count in _SECTIONS]


def slugify(text: str) -> str:
    """ASCII URL slug of a title (umlauts transliterated, other letters dropped)."""
    text = text.replace("ß", "ss").replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    text = text.replace("Ä", "Ae").replace("Ö", "Oe").replace("Ü", "Ue")
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:70]


class _Filler:
    """Fills ``{slot}`` templates of one language and section from one random stream."""

    def __init__(self, rng: random.Random, lang: str, section: str, place: str,
                 thing: str) -> None:
        self.rng, self.words = rng, LANGS[lang]
        _, _, self.actors, self.things, self.places = TOPICS[section]
        self.place, self.thing = place, thing
        self.last_actor = ""

    def _actor(self, actor: str) -> str:
        self.last_actor = actor      # "{actor} and {actor2}" name two different actors
        return actor

    def slot(self, name: str) -> str:
        rng, w = self.rng, self.words
        low = name[0].lower() + name[1:]
        makers: dict[str, Callable[[], str]] = {
            "actor": lambda: self._actor(rng.choice(self.actors)),
            "actor2": lambda: rng.choice([a for a in self.actors if a != self.last_actor]),
            "thing": lambda: self.thing if rng.random() < 0.6 else rng.choice(self.things),
            "place": lambda: self.place if rng.random() < 0.7 else rng.choice(self.places),
            "person": lambda: rng.choice(w["people"]),
            "role": lambda: rng.choice(w["roles"]),
            "weekday": lambda: rng.choice(w["weekdays"]),
            "month": lambda: rng.choice(w["months"]),
            "year": lambda: str(rng.randint(2025, 2029)),
            "year0": lambda: str(rng.randint(2008, 2019)),
            "pct": lambda: str(rng.randint(3, 48)),
            "num": lambda: str(rng.randint(12, 900)),
            "months": lambda: str(rng.randint(2, 18)),
            "money": lambda: str(rng.randint(4, 950)),
            "outcome": lambda: rng.choice(w["outcomes"]),
            "funding": lambda: rng.choice(w["funding"]),
        }
        value = makers[low]()
        return value[0].upper() + value[1:] if name[0].isupper() else value

    def fill(self, template: str) -> str:
        return re.sub(r"\{(\w+)\}", lambda m: self.slot(m.group(1)), template)


def _paragraph(f: _Filler, lang: str) -> str:
    count = f.rng.randint(2, 3) if lang == "zh" else f.rng.randint(2, 4)
    picks = f.rng.sample(f.words["sentences"], count)
    return ("" if lang == "zh" else " ").join(f.fill(s) for s in picks)


def _comments(rng: random.Random, f: _Filler, lang: str,
              published: datetime) -> tuple[Comment, ...]:
    count = rng.choice((0, 3, 5, 8, 12, 18, 25, 32))
    out = []
    when = published
    for _ in range(count):
        when += timedelta(minutes=rng.randint(4, 600))
        parts = rng.sample(f.words["comments"], rng.randint(1, 3))
        text = ("" if lang == "zh" else " ").join(f.fill(p) for p in parts)
        out.append(Comment(rng.choice(f.words["commenters"]), when, text))
    return tuple(out)


def _article(rng: random.Random, ident: int, section: Section, titles: set[str]) -> Article:
    lang = section.lang
    _, _, _, things, places = TOPICS[section.slug]
    place, thing = rng.choice(places), rng.choice(things)
    f = _Filler(rng, lang, section.slug, place, thing)
    title = f.fill(rng.choice(f.words["titles"]))
    while title in titles:
        f.thing = rng.choice(things)
        title = f.fill(rng.choice(f.words["titles"]))
    titles.add(title)
    teaser = f.fill(rng.choice(f.words["teasers"]))
    blocks: list[tuple[str, str]] = [("p", _paragraph(f, lang))
                                     for _ in range(rng.randint(5, 9))]
    if rng.random() < 0.4:
        for at in sorted(rng.sample(range(2, len(blocks)), rng.randint(1, 2)), reverse=True):
            blocks.insert(at, ("h2", f.fill(rng.choice(f.words["subheads"]))))
    if rng.random() < 0.25:
        quote = f.fill(f.words["sentences"][2])  # the quotation template
        blocks.insert(rng.randint(1, len(blocks) - 1), ("quote", quote))
    day = datetime(2023, 1, 1, tzinfo=_ZONES[lang]) + timedelta(days=rng.randint(0, 729))
    published = day.replace(hour=rng.randint(6, 22), minute=rng.randint(0, 59))
    updated = (published + timedelta(days=rng.randint(1, 4), hours=rng.randint(0, 5))
               if rng.random() < 0.25 else None)
    layout = rng.choices(LAYOUTS, weights=(4, 3, 3))[0]
    return Article(
        id=ident, section=section, title=title, teaser=teaser, blocks=tuple(blocks),
        author=rng.choice(f.words["authors"]), published=published, updated=updated,
        comments=_comments(rng, f, lang, published), place=place, layout=layout,
        time_mode=rng.choices(TIME_MODES, weights=(3, 3, 3, 1))[0],
        title_mode=rng.choices(TITLE_MODES, weights=(4, 1, 5))[0],
        show_time=rng.random() < 0.7, date_style=rng.randint(0, 2),
        byline_style=rng.randint(0, 2),
        para_tag="div" if layout == "portal" and rng.random() < 0.35 else "p",
        editor=rng.choice(LANGS["zh"]["editors"]) if lang == "zh" else None,
    )


def build_articles(seed: int) -> list[Article]:
    """Every article of the site, newest first within each section."""
    rng = random.Random(seed)
    titles: set[str] = set()
    out: list[Article] = []
    ident = 0
    for section in sections():
        batch = []
        for _ in range(section.count):
            ident += 1
            batch.append(_article(rng, ident, section, titles))
        out += sorted(batch, key=lambda a: a.published, reverse=True)
    return out
