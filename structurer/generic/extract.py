"""Rule-free extraction of one page: its kind, and its fields or its main list.

Input: decoded HTML, the page's URL and a lexicon (``ecommerce``, ``news``, ...).
Output: one JSON-ready dict ``{"url", "kind", "template", "fields", "sources",
"items"}``. A detail page fills ``fields`` with every field of the template (None
where nothing was found; ``sources`` says where each value came from: ``jsonld``,
``microdata``, ``opengraph``, ``label``, ``lexicon``, ``title``, ``density``, ...),
valued as the crawl values them (plain text, numbers for ratings and counts); a list
page fills ``items`` with the main list's titles and absolute URLs. A shop template
reads product pages, a template with ``content`` articles, any other template (books)
its own fields by their labels: a page showing none of them besides a title is of
kind ``other``, not a page of that template's kind. Product pages and other templates
are read by :mod:`structurer.generic.products`, loaded only for them. An article page
that shows next to none of its text (an app's empty body) is read from its JSON data's
prose (:mod:`structurer.page.propstext`), else from its description. Pure: no network,
no files.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from structurer.clean import parse_html
from structurer.lexicon import Lexicon
from structurer.page import byline
from structurer.page.articlelines import SENTENCE_ENDS
from structurer.page.boilerplate import descriptions
from structurer.page.dates import parse_datetime
from structurer.page.view import PageView, empty_noise, priced
from structurer.structured import jsonld_objects, jsonld_value, opengraph_types
from structurer.values import plain_text

_WORDS = re.compile(r"\w+")
_SENTENCE = re.compile(r"\w[.!?。！？]+(?:\s|$)")
_SHOWN = 200     # characters of text a page shows: fewer, and its hidden text is read


def extract_page_generic(html: str, url: str, lexicon: Lexicon) -> dict[str, Any]:
    """Kind and fields (detail) or main list (list) of one page, without rules."""
    return extract_tree_generic(parse_html(html, base_url=url), url, lexicon)


def extract_tree_generic(tree: HtmlElement, url: str, lexicon: Lexicon) -> dict[str, Any]:
    """:func:`extract_page_generic` of a parsed page (the tree's scripts are emptied)."""
    objects = jsonld_objects(tree)
    news = "content" in lexicon.fields
    scripts: list[str] = []
    empty_noise(tree, scripts if news else None)
    view = PageView(url, tree, lexicon, objects)
    kind = view.kind
    shop = priced(lexicon)
    article = view.article
    hidden = _hidden_text(view, scripts) if news and kind != "list" else None
    if news and kind == "other":   # a list is the classifier's answer, weighed with the body
        kind = "detail" if article is not None or hidden or _article_like(view) else kind
    elif shop and kind == "other":
        from structurer.generic import products

        kind = "detail" if products.has_product_data(view) or products.priced_here(view) \
            else kind
    out: dict[str, Any] = {"url": url, "kind": kind, "template": lexicon.name,
                           "fields": {}, "sources": {}, "items": []}
    if kind == "list":
        out["items"] = list_items(view)
        return out
    if news:
        if kind != "detail":
            return out
        values, sources = news_fields(view, article, hidden)
    else:
        from structurer.generic import products

        if shop and kind != "detail":
            return out
        values, sources = products.product_fields(view) if shop else \
            products.template_fields(view)
        # a page of the template's kind shows one of its fields besides a title
        titles = {name for name, spec in lexicon.fields.items() if spec.title}
        out["kind"] = "detail" if any(values.get(k) is not None for k in set(values) - titles) \
            else "other"
        if out["kind"] == "other":
            return out
    out["fields"] = {name: values.get(name) for name in lexicon.fields_for("detail")}
    out["sources"] = {k: v for k, v in sources.items() if out["fields"].get(k) is not None}
    return out


def without_site_text(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Results of :func:`extract_tree_generic` for several pages, each article's content
    without the lines that other pages of its site (same host) also carry
    (:func:`~structurer.page.articlelines.site_lines`): deduplicated site-wide text."""
    from structurer.page.articlelines import site_lines

    hosts: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        if isinstance(result["fields"].get("content"), str):
            hosts.setdefault(urlsplit(result["url"]).netloc, []).append(result)
    for group in hosts.values():
        shared = site_lines([r["fields"]["content"] for r in group]) if len(group) > 1 else set()
        for result in group if shared else ():
            kept = [line for line in result["fields"]["content"].splitlines()
                    if line not in shared]
            result["fields"]["content"] = "\n".join(kept) or None
            if not kept:
                result["sources"].pop("content", None)
    return results


def _article_like(view: PageView) -> bool:
    if any("article" in kind for kind in opengraph_types(view.tree)):
        return True
    found = view.content
    text = found.evidence if found is not None else ""   # its lines before they are tidied
    if not text or (text.count("\n") < 2 and len(_SENTENCE.findall(text)) < 3):
        return False      # one line is text only when it is sentences (a review, a post)
    wide = sum(1 for c in text if "\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af")
    if len(text) + 2 * wide < 400:  # a CJK character carries about a word
        return False
    # a long product list is no article (asked last: finding repeated blocks is costly)
    return not (view.product_regions and len(view.product_regions[0]) >= 5)


def _teaser(structured: Any, text: str) -> bool:
    """Structured data's ``articleBody`` is a teaser when the page's own text of the
    article is far longer (a lead paragraph, the first lines of a paywalled story)."""
    return not isinstance(structured, str) or len(text) > 1.25 * len(structured)


def _same_story(structured: Any, text: str, share: float) -> bool:
    """The page's own text of the article tells the story structured data's
    ``articleBody`` tells (``share`` of its words): the page's text is then preferred, cut
    in paragraphs and without the captions and teasers a CMS leaves in ``articleBody``."""
    words = set(_WORDS.findall(structured.lower())) if isinstance(structured, str) else set()
    return bool(words) and len(words & set(_WORDS.findall(text.lower()))) >= share * len(words)


def _shown_lead(structured: str, text: str, leads: frozenset[str]) -> str:
    """``articleBody`` led by the standfirst the page shows above it when the body lacks
    it: a line of the page's own text that is the page's description (meta, og:) and
    that ``articleBody`` does not hold (a paywalled story's body without its lead)."""
    body = " ".join(structured.split())
    lead = next((line for line in text.splitlines() if line in leads and line not in body),
                None)
    return f"{lead}\n{structured}" if lead else structured


# ----- list pages -----------------------------------------------------------------------------
def list_items(view: PageView) -> list[dict[str, Any]]:
    """Title and absolute URL of every item of the page's main list (the repeated-block
    regions cross-checked with the link clusters: :mod:`structurer.page.mainlist`)."""
    from structurer.page import mainlist  # list pages only

    return mainlist.list_items(view)


# ----- news pages -----------------------------------------------------------------------------
def _metas(lexicon: Lexicon, field: str) -> list[str] | None:
    """The meta tag names the lexicon gives a field (``opengraph``); None (the shipped news
    lexicon's) when it names none."""
    spec = lexicon.fields.get(field)
    return list(spec.opengraph) if spec is not None and spec.opengraph else None


def _hidden_text(view: PageView, scripts: list[str]) -> str | None:
    """The article's text when the page shows next to none of it (``_SHOWN`` characters:
    a title, a button): its JSON data's prose (an app's props,
    :mod:`structurer.page.propstext`), else the page's own description (meta, og:) when
    it is longer than what the page shows and tells another story (not the shown text
    again, typeset otherwise), a sentence of ``lead_line`` characters or more."""
    found = view.content
    shown = found.text if found is not None else ""
    if len(shown) >= _SHOWN:
        return None
    from structurer.page.propstext import props_paragraphs

    least = view.lexicon.thresholds.lead_line
    props = "\n".join(props_paragraphs(scripts, view.tree, least))
    if len(props) > max(_SHOWN, 2 * len(shown)):
        return props
    told = max(descriptions(view.tree), key=len, default="")
    if len(told) >= least and len(told) > len(shown) and told.endswith(SENTENCE_ENDS) \
            and not _same_story(told, shown, view.lexicon.thresholds.same_story):
        return f"{told}\n{shown}" if shown else told
    return None     # no description, or one that says the shown text again


def news_fields(view: PageView, article: dict[str, Any] | None, hidden: str | None = None
                ) -> tuple[dict[str, Any], dict[str, str]]:
    """Title, content, published date and author of an article page: JSON-LD first (at
    the lexicon's ``structured`` paths), then meta tags, the title heading and text
    density (:mod:`density`, :mod:`byline`); ``hidden``: the text the page keeps out of
    its body (:func:`_hidden_text`), when it shows next to none."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    lexicon = view.lexicon
    words = view.words
    for name, paths in lexicon.structured_paths().items() if article is not None else ():
        value = next((v for v in (jsonld_value(article, p) for p in paths)
                      if isinstance(v, str) and v.strip()), None)
        if value is not None:
            values[name] = (parse_datetime(value, words) or value) \
                if lexicon.fields[name].kind == "datetime" else plain_text(value)
            sources[name] = "jsonld"
    title = view.title
    if "title" not in values and title is not None:
        values["title"], sources["title"] = title.text, title.source
    found = view.content
    structured = values.get("content")
    if found is not None and ("content" not in values or _teaser(structured, found.text)
                              or _same_story(structured, found.text,
                                             lexicon.thresholds.same_story)):
        # the teaser leads the article (a standfirst) when the text does not repeat it
        lead = structured if isinstance(structured, str) and _teaser(structured, found.text) \
            and " ".join(structured.split()) not in " ".join(found.text.split()) else None
        values["content"] = f"{lead}\n{found.text}" if lead else found.text
        sources["content"] = "density"
    elif found is not None and isinstance(structured, str):
        values["content"] = _shown_lead(structured, found.text, descriptions(view.tree))
    if hidden and (sources.get("content") != "jsonld"
                   or len(hidden) > len(values.get("content") or "")):
        values["content"], sources["content"] = hidden, "hidden"
    heading = title.text if title is not None else ""   # title_of's text, found once
    near = byline.Near(view.tree, heading)   # the title heading's surroundings, read once
    if "published" not in values:
        values["published"] = byline.published_of(
            view.tree, found.element if found else None, heading, th=lexicon.thresholds,
            words=words, metas=_metas(lexicon, "published"), near=near)
        sources["published"] = "meta/near-title"
    if "author" not in values:
        values["author"] = byline.author_of(view.tree, heading, th=lexicon.thresholds,
                                            words=words, metas=_metas(lexicon, "author"),
                                            near=near)
        sources["author"] = "meta/byline"
    if "url" in view.lexicon.fields:
        values.setdefault("url", view.url)
        sources.setdefault("url", "page")
    return values, sources

