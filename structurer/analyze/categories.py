"""Category links: the navigation link groups of an entry page, and their XPath.

Input: the entry :class:`PageView`. Output: :class:`LinkGroup` objects (a
container and the same-site links inside it, ranked like menus) and, once the
explorer knows which group leads to product lists, one XPath selecting that
group's links on every page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml.html import HtmlElement

from structurer.analyze import xpaths
from structurer.analyze.dom import link_href, text_of
from structurer.analyze.lists import is_product_region, link_region_score
from structurer.analyze.pages import PageView


@dataclass
class LinkGroup:
    container: HtmlElement
    links: list[tuple[str, str, HtmlElement]] = field(default_factory=list)  # (url, text, a)
    score: float = 0.0

    @property
    def urls(self) -> list[str]:
        return [u for u, _, _ in self.links]


def same_site(url: str, base: str) -> bool:
    return urlsplit(url).netloc.lower() == urlsplit(base).netloc.lower()


def _links(container: HtmlElement, page: PageView) -> list[tuple[str, str, HtmlElement]]:
    out: list[tuple[str, str, HtmlElement]] = []
    seen: set[str] = set()
    for a in container.iter("a"):
        href = link_href(a)
        if not href:
            continue
        url = urldefrag(urljoin(page.url, href))[0]
        if url in seen or url.rstrip("/") == page.url.rstrip("/") or not same_site(url, page.url):
            continue
        seen.add(url)
        out.append((url, text_of(a)[:80], a))
    return out


def link_groups(page: PageView, limit: int = 8) -> list[LinkGroup]:
    """Menus and link lists of a page, the most category-like first."""
    groups: list[LinkGroup] = []
    taken: set[HtmlElement] = set()
    for region in page.regions:
        f = region.features
        if is_product_region(f) or link_region_score(f) <= 0:
            continue
        container = region.parent
        # a mega-menu is a list of lists: group at the outermost repeated level
        if any(anc in taken for anc in container.iterancestors()):
            continue
        links = _links(container, page)
        if len(links) < 3:
            continue
        taken.add(container)
        in_nav = any(a.tag in ("nav", "header") for a in container.iterancestors()) or \
            container.tag == "nav"
        in_footer = any(a.tag == "footer" for a in container.iterancestors())
        score = link_region_score(f) + math.log(len(links)) + (1.0 if in_nav else 0.0) - (
            2.0 if in_footer else 0.0)
        groups.append(LinkGroup(container, links, score))
    for nav in page.body.iter("nav"):
        if nav in taken or any(anc in taken for anc in nav.iterancestors()):
            continue
        links = _links(nav, page)
        if len(links) >= 3:
            groups.append(LinkGroup(nav, links, 1.0 + math.log(len(links))))
    groups.sort(key=lambda g: g.score, reverse=True)
    return groups[:limit]


def category_xpath(page: PageView, group: LinkGroup, good: set[str]) -> str:
    """The XPath selecting the group's links (judged on the links known to lead to lists)."""
    wanted = [a for url, _, a in group.links if url in good] or [a for _, _, a in group.links]
    candidates = [f"{c}//a" for c in xpaths.absolute_candidates(group.container)]
    best = xpaths.best_xpath(candidates, [(page.tree, wanted)],
                             score=lambda tp, fp, fn: tp / (tp + 0.3 * fp + fn))
    return best[0] if best else candidates[-1]
