"""boilerplate: a class and id's verdicts are read once per lexicon and stay what the
words found in their tokens say (structurer.namewords)."""

from __future__ import annotations

import pytest
from lxml.html import fragment_fromstring

from structurer.lexicon import load_lexicon
from structurer.page import boilerplate
from structurer.page.boilerplate import (
    BoilerplateWords,
    attribute_tokens,
    consent,
    likely_boilerplate,
    surely_boilerplate,
)

CLASSES = ["cookie-banner", "commentList", "share-bar", "share-bar entry-content",
           "sidebar", "post-body", "", "related-posts", "newsletterSignup"]


def test_class_verdicts_are_the_patterns_and_read_once(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    lexicon = load_lexicon("news")
    vocab = BoilerplateWords.of(lexicon)
    assert BoilerplateWords.of(lexicon) is vocab   # compiled once per lexicon
    vocab.verdicts.clear()
    reads: list[str] = []
    read = boilerplate._read_class
    monkeypatch.setattr(boilerplate, "_read_class",
                        lambda v, raw: reads.append(raw) or read(v, raw))
    for _ in range(2):    # the second pass answers from what the first read, alike
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
    assert sorted(reads) == sorted(f"{name} " for name in CLASSES)   # each class read once
    assert surely_boilerplate(fragment_fromstring('<div class="cookie-banner"/>'), vocab)
    assert likely_boilerplate(fragment_fromstring('<div class="share-bar"/>'), vocab)
    assert not likely_boilerplate(fragment_fromstring('<div class="post-body"/>'), vocab)
    assert not likely_boilerplate(fragment_fromstring('<div>text</div>'), vocab)


def test_hidden_dialogs_and_strong_words_are_sure_boilerplate_from_any_attribute_order(
        ) -> None:
    """Every attribute is read in one pass: hidden, a hiding style, a dialog role or a
    modal, whatever stands before or after the class."""
    vocab = BoilerplateWords.of(load_lexicon("news"))
    for markup in ('<div hidden class="post">x</div>',
                   '<div class="post" style="color: red; DISPLAY : none">x</div>',
                   '<div id="a" role="alertdialog">x</div>', '<div aria-modal="true">x</div>',
                   '<div data-x="1" id="cookieNotice">x</div>'):
        assert surely_boilerplate(fragment_fromstring(markup), vocab), markup
    for markup in ('<div class="post" style="display: block">x</div>',
                   '<div role="main" aria-modal="false">x</div>', '<div>x</div>'):
        assert not surely_boilerplate(fragment_fromstring(markup), vocab), markup


def test_a_consent_paragraph_is_read_by_its_opening_however_it_is_spaced() -> None:
    vocab = BoilerplateWords.of(load_lexicon("news"))
    phrase = vocab.consent[0]
    for text in (phrase, f"  {phrase.upper()} and more. " + "x" * 5000,
                 " " * 3000 + phrase, phrase.replace(" ", " \n\t  " * 40)):
        assert consent(fragment_fromstring(f"<p>{text}</p>"), vocab), text[:80]
    assert not consent(fragment_fromstring(f"<p>Today {phrase}</p>"), vocab)
    assert not consent(fragment_fromstring(f"<h2>{phrase}</h2>"), vocab)
