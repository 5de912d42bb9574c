"""Category links: the navigation link groups of an entry page, and their XPath.

Input: the entry :class:`PageView`. Output: :class:`LinkGroup` objects (a
container and the same-site links inside it, ranked like menus) and, once the
explorer knows which group leads to product lists, one XPath selecting that
group's links on every page.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from lxml import etree
from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.page.dom import link_href, text_of
from structurer.page.lists import is_product_region, link_region_score
from structurer.page.view import PageView
from structurer.replay.xpaths import positional_predicate
from structurer.words import Words, fold

# an item XPath of more branches is not guarded: its candidates grow as 2 ** branches
MAX_UNION = 4


@dataclass
class LinkGroup:
    container: HtmlElement
    links: list[tuple[str, str, HtmlElement]] = field(default_factory=list)  # (url, text, a)
    score: float = 0.0

    @property
    def urls(self) -> list[str]:
        return [u for u, _, _ in self.links]


def url_shape(url: str) -> str:
    """A URL with its numbers blanked and query values dropped: /list-3-1.html -> /list-0-0.html."""
    parts = urlsplit(url)
    query = "&".join(sorted(k.split("=")[0] for k in parts.query.split("&") if k))
    return re.sub(r"\d+", "0", parts.path) + ("?" + query if query else "")


def url_family(url: str) -> tuple[str, str, str]:
    """Coarser than :func:`url_shape`: first path segment (of deeper paths), file
    extension and query keys. Category URLs of one shop share it; search, account and
    offer links usually do not."""
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    first = re.sub(r"\d+", "0", segments[0]) if len(segments) > 1 else ""
    last = segments[-1] if segments else ""
    ext = last.rsplit(".", 1)[1].lower() if "." in last else ""
    query = "&".join(sorted(k.split("=")[0] for k in parts.query.split("&") if k))
    return first, ext, query


#: what a link's text may carry beside its words: a count ("Cart (0)"), signs
_COUNTED = re.compile(r"[\d()\[\]{}:|·•+]+")


def chrome_link(url: str, text: str, a: HtmlElement, words: Words) -> bool:
    """A link to the shop's account, cart, sign-in or checkout page (the vocabulary's
    ``site_chrome``: the link's whole text, a count dropped, "Cart (0)", "Mein Konto";
    or one segment of its path, ``/customer/account/login``, ``/cart.php``): site
    chrome, never a category."""
    chrome = words.site_chrome
    label = text or a.get("aria-label") or a.get("title") or ""
    if fold(_COUNTED.sub(" ", label)) in chrome:
        return True
    return any(fold(unquote(s).rsplit(".", 1)[0]) in chrome
               for s in urlsplit(url).path.split("/") if s)


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
        container = _outer_menu(region.parent)
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
        if len(links) >= 2:      # a shop of two departments has a two-link menu
            groups.append(LinkGroup(nav, links, 1.0 + math.log(len(links))))
    groups.sort(key=lambda g: g.score, reverse=True)
    return groups[:limit]


def _outer_menu(container: HtmlElement) -> HtmlElement:
    """The menu a submenu belongs to: a list inside an ``li`` whose sibling items hold
    lists too is one department's submenu (the outer list of two departments is too
    short to be found as a list itself), so the group is the outer list."""
    node = container
    while (li := node.getparent()) is not None and li.tag == "li" \
            and (outer := li.getparent()) is not None \
            and any(c is not li and c.tag == "li" and any(g.tag == node.tag for g in c)
                    for c in outer):
        node = outer
    return node


def category_xpath(page: PageView, group: LinkGroup, good: set[str],
                   lists: Sequence[tuple[HtmlElement, str]] = ()) -> str:
    """The XPath selecting the group's category links.

    Menus mix category links with search shortcuts, offers and account links. The links
    known to lead to lists (``good``) tell the category URL families; links of
    other families, and links to the account, cart or checkout (:func:`chrome_link`) that
    lead to no list, are unwanted, and narrower XPaths (by the anchors' own
    parent step, or a union of two) compete with "every link in the container".
    ``lists``: list pages (tree, item XPath); an XPath that selects links inside their
    items there (``main/ul//a`` learned where the only list in ``main`` was the tiles) is
    kept clear of the items (:func:`clear_of_items`).
    """
    known = [a for url, _, a in group.links if url in good]
    families = {url_family(url) for url, _, _ in group.links if url in good}
    chrome = {a for url, text, a in group.links
              if url not in good and chrome_link(url, text, a, page.words)}
    if len(known) >= 2:
        wanted = [a for url, _, a in group.links if url in good or (
            url_family(url) in families and a not in chrome)]
    else:
        wanted = [a for _, _, a in group.links if a not in chrome]
    bases = xpaths.absolute_candidates(group.container)
    candidates = [f"{c}//a" for c in bases]
    if len(wanted) < len(group.links):
        unwanted = [a for _, _, a in group.links if a not in set(wanted)]
        candidates += _narrow(bases[:3], wanted)
        candidates += [f"{c}//a[contains(@href, {xpaths.quote(t)})]" for c in bases[:3]
                       for t in _href_tokens(wanted, unwanted)]
        apart = _apart_tokens(wanted, unwanted)
        if apart:
            candidates += [f"{c}//a" + "".join(f"[not(contains(@href, {xpaths.quote(t)}))]"
                                               for t in apart) for c in bases[:3]]
    def score(tp: int, fp: int, fn: int) -> float:
        return tp / (tp + fp + fn)

    best = xpaths.best_xpath(candidates, [(page.tree, wanted)], score=score)
    chosen = best[0] if best else candidates[-1]
    if not _into_items(chosen, lists):
        return chosen
    guarded = [g for c in candidates for g in clear_of_items(c, lists)]
    clear = xpaths.best_xpath(guarded, [(page.tree, wanted)], score=score)
    if clear is None or (best is not None and clear[1] < best[1] - 1e-9) \
            or _into_items(clear[0], lists):
        return chosen
    return clear[0]


def clear_of_items(xpath: str, lists: Sequence[tuple[HtmlElement, str]]) -> list[str]:
    """``xpath`` kept from the anchors inside list items: ``[not(ancestor::STEP)]`` with
    STEP the item step or its container's of an item XPath (one per branch of a union,
    every combination), appended to each branch of ``xpath``. A step must name something
    (a predicate); its positional predicates are dropped (on the ancestor axis they
    would count ancestors, not siblings). Callers check what a candidate selects."""
    out: list[str] = []
    branches = [b.strip() for b in _split(xpath, "|")]
    for item_xpath in dict.fromkeys(x for _, x in lists):
        steps = [_named_steps(b) for b in _split(item_xpath, "|")]
        if not steps or not all(steps) or len(steps) > MAX_UNION:
            continue
        for choice in itertools.product(*steps):
            guard = "".join(f"[not(ancestor::{s})]" for s in dict.fromkeys(choice))
            out.append(" | ".join(f"{b}{guard}" for b in branches))
    return list(dict.fromkeys(out))


def _named_steps(path: str) -> list[str]:
    """The last two steps of a location path (``//main//ul[@id='p']/li[2]``) that name
    something once their positional predicates are dropped (``ul[@id='p']``)."""
    out = []
    for step in [s.strip() for s in _split(path.strip(), "/") if s.strip()][-2:]:
        name, *predicates = _split(step, "[", keep=True)
        kept = [p for p in predicates if not positional_predicate(p[1:-1])]
        if re.fullmatch(r"[\w*-]+(?::[\w*-]+)?", name) and kept:
            out.append(name + "".join(kept))
    return out


def _split(text: str, sep: str, *, keep: bool = False) -> list[str]:
    """``text`` split at ``sep`` outside brackets, parentheses and quotes; ``keep``:
    split before each top-level ``[`` (a step's name, then its ``[predicates]``)."""
    parts, current, depth, quote = [], "", 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == sep and depth == 0:
            parts.append(current)
            current = ch if keep else ""
            depth += ch in "[("
            continue
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        current += ch
    return [*parts, current]


def _into_items(xpath: str, lists: Sequence[tuple[HtmlElement, str]]) -> bool:
    """Whether ``xpath`` selects a link inside a list item on one of the list pages."""
    for tree, item_xpath in lists:
        try:
            items = set(xpaths.evaluate(item_xpath, tree))
            found = xpaths.evaluate(xpath, tree)
        except etree.XPathError:
            continue
        if any(isinstance(a, HtmlElement) and any(p in items for p in a.iterancestors())
               for a in found):
            return True
    return False


def _href_tokens(wanted: list[HtmlElement], unwanted: list[HtmlElement]) -> list[str]:
    """Words every wanted link's href holds and no unwanted one does (``category``)."""
    common = set.intersection(*(_href_words(a) for a in wanted)) if wanted else set()
    for a in unwanted:
        common -= _href_words(a)
    return sorted(common, key=lambda t: (-len(t), t))[:2]


def _href_words(a: HtmlElement) -> set[str]:
    """The words of a link's href: three letters or more, no digit."""
    return {t for t in re.split(r"[/?=&.#_-]+", a.get("href", ""))
            if len(t) >= 3 and not any(ch.isdigit() for ch in t)}


def _apart_tokens(wanted: list[HtmlElement], unwanted: list[HtmlElement]) -> list[str]:
    """One word of each unwanted link's href that no wanted one holds (``account``,
    ``cart``): the unwanted links told apart one by one; none where one has no such word
    or they are more than three."""
    held = set().union(*(_href_words(a) for a in wanted)) if wanted else set()
    out: list[str] = []
    for a in unwanted:
        own = sorted(_href_words(a) - held, key=lambda t: (-len(t), t))
        if not own or len(out) >= 3:
            return []
        if own[0] not in out:
            out.append(own[0])
    return out


def _narrow(bases: list[str], wanted: list[HtmlElement]) -> list[str]:
    """XPaths naming the wanted anchors by their parent's step (and unions of two)."""
    steps: dict[str, int] = {}
    for a in wanted:
        parent = a.getparent()
        if parent is None:
            continue
        preds = xpaths.predicates(parent)
        key = xpaths.step(parent, preds[0] if preds else None)
        steps[key] = steps.get(key, 0) + 1
    ranked = sorted(steps, key=lambda k: -steps[k])[:3]
    out: list[str] = []
    for base in bases:
        singles = [f"{base}//{s}/a" for s in ranked]
        out += singles
        out += [f"{a} | {b}" for i, a in enumerate(singles) for b in singles[i + 1:]]
    return out
