"""boilerplate: a class and id's verdicts are read once per lexicon and stay what the
words found in their tokens say (page.namewords)."""

from __future__ import annotations

from lxml.html import fragment_fromstring

from structurer.lexicon import load_lexicon
from structurer.page.boilerplate import (
    BoilerplateWords,
    _class_verdicts,
    attribute_tokens,
    likely_boilerplate,
    surely_boilerplate,
)

CLASSES = ["cookie-banner", "commentList", "share-bar", "share-bar entry-content",
           "sidebar", "post-body", "", "related-posts", "newsletterSignup"]


def test_class_verdicts_are_the_patterns_and_read_once() -> None:
    lexicon = load_lexicon("news")
    vocab = BoilerplateWords.of(lexicon)
    assert BoilerplateWords.of(lexicon) is vocab   # compiled once per lexicon
    _class_verdicts.cache_clear()
    for _ in range(2):    # the second pass answers from the cache, alike
        for name in CLASSES:
            el = fragment_fromstring(f'<div class="{name}"><p>text</p></div>')
            tokens = attribute_tokens(el)
            strong = bool(vocab.strong.find(tokens))
            weak = vocab.weak.find(tokens)
            covered = {i for f in weak for i in range(f.start, f.end)}
            weak = bool(weak) and not vocab.body.intersection(
                t for i, t in enumerate(tokens) if i not in covered)
            assert surely_boilerplate(el, vocab) == strong, name
            assert likely_boilerplate(el, vocab) == weak, name
    info = _class_verdicts.cache_info()   # each class read once, then answered twice
    assert info.misses == len(CLASSES) and info.hits == 3 * len(CLASSES)
    assert surely_boilerplate(fragment_fromstring('<div class="cookie-banner"/>'), vocab)
    assert likely_boilerplate(fragment_fromstring('<div class="share-bar"/>'), vocab)
    assert not likely_boilerplate(fragment_fromstring('<div class="post-body"/>'), vocab)
