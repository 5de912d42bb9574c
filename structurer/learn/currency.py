"""The currency of a site's prices where their sign is one several currencies share.

Input: the rules learned for one level, the sample pages they were learned from and the
lexicon. Output: the money and currency rules with ``currency`` set (:class:`FieldRule`)
where every sample amount names no currency of its own but a shared sign (``4 257,50 kr``) and the
pages' language (``<html lang="sv">``) tells which currency that is, by the
vocabulary's ``local_currencies`` (``kr``: ``sv`` SEK, ``da`` DKK, ``nb`` NOK). The crawl
reads the code from the rule file, so it needs neither the lexicon nor the page's
language. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from structurer.kinds import Words, compile_words, parse_money
from structurer.lexicon import Lexicon
from structurer.page.view import PageView
from structurer.rules.model import FieldRule

__all__ = ["local_currency", "page_language", "with_local_currency"]


def page_language(page: PageView) -> str | None:
    """The primary language subtag of a page's ``<html lang>`` (``sv-SE`` -> ``sv``)."""
    lang = (page.tree.getroottree().getroot().get("lang") or "").strip().lower()
    return lang.replace("_", "-").split("-")[0] or None


def _shared_sign(text: str, words: Words) -> str | None:
    """The shared currency sign a money text holds as a word of its own (``kr``)."""
    for sign in sorted(words.local, key=len, reverse=True):
        if re.search(rf"(?<![^\W\d_]){re.escape(sign)}(?![^\W\d_])", text, re.IGNORECASE):
            return sign
    return None


def local_currency(texts: Sequence[str], languages: Sequence[str | None],
                   words: Words) -> tuple[str, str, str] | None:
    """``(code, sign, language)`` when every money text of ``texts`` names no currency
    but holds one shared sign, and the pages, all of one language, say which; else None."""
    known = {lang for lang in languages if lang}
    if len(known) != 1 or not texts:
        return None
    lang = known.pop()
    found: set[tuple[str, str]] = set()
    for text in texts:
        sign = _shared_sign(text, words)
        code = words.local[sign].get(lang) if sign is not None else None
        if sign is None or code is None:
            return None
        named = parse_money(text, None, words).currency
        if named is not None and named != words.symbols.get(sign):
            return None   # the text names its own currency ("¥1,299 JPY", "199 SEK")
        found.add((code, sign))
    if len(found) != 1:
        return None
    code, sign = found.pop()
    return code, sign, lang


def with_local_currency(rules: dict[str, FieldRule], pages: Sequence[PageView],
                        lexicon: Lexicon) -> dict[str, FieldRule]:
    """``rules`` with each money or currency rule's ``currency`` where
    :func:`local_currency` tells it from the rule's samples and the pages' language (a
    currency rule reading the bare sign ``￥`` needs it as much as the price does)."""
    words = compile_words(lexicon.vocabulary)
    if not words.local:
        return rules
    languages = [page_language(page) for page in pages]
    out = dict(rules)
    for name, rule in rules.items():
        if rule.kind not in ("money", "currency") or rule.currency is not None \
                or not rule.samples:
            continue
        found = local_currency(rule.samples, languages, words)
        if found is not None:
            code, sign, lang = found
            out[name] = rule.model_copy(update={
                "currency": code,
                "evidence": [*rule.evidence, f"'{sign}' on pages in language '{lang}' is {code}"]})
    return out
