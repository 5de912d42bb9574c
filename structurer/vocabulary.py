"""A lexicon's vocabulary: the words of reading values and pages beyond its fields' own.

Input: the ``vocabulary`` section of a lexicon (``templates/*.yaml``) or of a rule file's
``record``. Output: a validated, frozen :class:`Vocabulary` — currency tables, stock
phrases, breadcrumb and home labels, product-count words, placeholder pictures, button
words, month names, words of other sums than the price. Compiled for use by
:func:`structurer.kinds.compile_words`; the shipped one is
:func:`structurer.lexicon.shipped_vocabulary`.
"""

from __future__ import annotations

import re

from pydantic import field_validator, model_validator

from structurer.schema import Strict, error_at

_META_NAME = re.compile(r"^[a-z][a-z0-9_:.-]*$")
_CODE = re.compile(r"^[A-Z]{3}$")
_STOCK = re.compile(r"^[a-z][a-z_]*$")
_LANGUAGE = re.compile(r"^[a-z]{2,3}$")


def _phrases(value: list[str] | None) -> list[str] | None:
    for i, phrase in enumerate(value or ()):
        if not phrase.strip():
            raise error_at([str(i)], "empty phrase")
    return value


class Vocabulary(Strict):
    """Words of reading values and pages that are not a field's own: currencies, stock
    phrases, breadcrumb and home labels, product counts, placeholder pictures, add-to-cart
    buttons. A key a lexicon leaves out (None) takes the shipped ``ecommerce`` lexicon's
    (:meth:`Lexicon.words`); analysis writes the keys that differ from it into the rule
    file, so a crawl reads them with the rules alone."""

    # symbols and codes that make a number on a page a money amount, as written (case counts)
    money_marks: list[str] | None = None
    # ISO 4217 codes recognised in a price text ("12 CAD")
    currency_codes: list[str] | None = None
    # symbol or word -> ISO code ("$": USD, "zł": PLN); matched upper-cased
    currency_symbols: dict[str, str] | None = None
    # signs that name their currency anywhere in a price text, checked in this order
    currency_signs: list[str] | None = None
    # signs several currencies share -> the pages' language -> ISO code ("kr" on pages in
    # Swedish is SEK): analysis writes the code into the money rules of such a site
    local_currencies: dict[str, dict[str, str]] | None = None
    # value -> phrases every availability field knows after its own (a field's `values`)
    stock_phrases: dict[str, list[str]] | None = None
    # words that deny the in-stock phrase right after them, a word or two on ("no está
    # disponible", "n'est pas disponible"): the text says out of stock (whole words)
    stock_negations: list[str] | None = None
    # a breadcrumb's first entry dropped ("Home", "首页"), and labels before it ("You are here:")
    home_labels: list[str] | None = None
    breadcrumb_labels: list[str] | None = None
    # words after a number that counts a category's products ("Candles (34 products)")
    product_count: list[str] | None = None
    # parts of an image file name (`-`: a '-', a '_' or nothing; a part of two letters
    # before it begins a word: `no-image`) and folder names of lazy-loading stand-ins and
    # "no image" pictures
    placeholder_images: list[str] | None = None
    placeholder_folders: list[str] | None = None
    # attributes of an <img> holding a larger rendition than src (zoom, full size), best first
    large_image_attributes: list[str] | None = None
    # words of a button acting on several items ("Add selected to basket"); add-to-cart
    # words are the lexicon's ``signals.add_to_cart``
    several_items: list[str] | None = None
    # extract-page's price: text beside a money amount that makes it another sum of the
    # product or cart than the price to pay (an old price, a saving, a total; money that is
    # no price at all, shipping or instalments, is the lexicon's ``signals.not_price``,
    # which the old price's reader sets aside too), matched anywhere (`total` in
    # "subtotal") or, for `other_money_words`, as whole words ("was"); class and id words
    # of any sum beside the price, of either kind, matched as the fields' words are (a
    # whole word, or one of four letters or more inside a word: "old" is no part of
    # "bold"; `-`: a '-', a '_' or nothing); words of
    # pictures that are no product's (logos, badges)
    # class words of a star rating given by markup ("rating-4-5", "stars three"), and the
    # number words such classes use, zero first
    rating_classes: list[str] | None = None
    rating_numbers: list[str] | None = None
    # a rating written as text ("Rating: 4/5", "4,2 von 5 Sternen"): the labels before it,
    # the words between it and its scale of 5, and the words after the scale naming its unit
    # ("5 out of 5 stars": a whole number without a label is a rating only with one)
    rating_labels: list[str] | None = None
    rating_scales: list[str] | None = None
    rating_units: list[str] | None = None
    # month names and abbreviations, twelve lists, January first ("5. März 2024")
    months: list[list[str]] | None = None
    # words between a date and its time of day ("5. März 2024 um 14:30")
    time_words: list[str] | None = None
    other_money: list[str] | None = None
    other_money_words: list[str] | None = None
    # signs between a count and an amount that make the amount one of several payments
    # ("or 4 × $308.38", "4x de R$ 20"): no price (matched case-folded)
    times_signs: list[str] | None = None
    other_money_classes: list[str] | None = None
    # a product's identifier shown only in its page's URL: query parameters naming it
    # (``?sku=TB-150``) and path segments before it (``/dp/B07XJ8C8F5``, ``/itm/25601…``),
    # matched case-folded; the value must be shaped like a code (kinds.parse_identifier),
    # never a slug of words
    identifier_params: list[str] | None = None
    identifier_paths: list[str] | None = None
    not_product_images: list[str] | None = None
    # class words striking a price through (the price before a discount), matched as whole
    # class names, case-folded; beside the tags <del>, <s>, <strike> and a line-through style
    struck_classes: list[str] | None = None
    # pages' own text (density, article bylines): class/id words of blocks that are never
    # the main text (whole words between '-', '_' and spaces) and words that clear them
    # (a wrapper "content-sidebar-wrap"; a word start); headings of a comment thread or a
    # side list ("32 comments", "Related stories"; "…" at the end: any words after), the
    # counter characters before a count there ("12条评论")
    noise_classes: list[str] | None = None
    content_classes: list[str] | None = None
    noise_headings: list[str] | None = None
    heading_counters: list[str] | None = None
    # an "updated" label before a date, and the short words that end a name or label in a
    # byline ("by Ann Lee in Oslo", "Updated on May 3")
    updated_words: list[str] | None = None
    byline_breaks: list[str] | None = None
    # a byline: words before the author's name ("By", "von", "作者"), roles after it
    # ("Ann Lee, senior writer"), particles inside it ("van", "de"), words of a byline
    # before "by" ("Posted by") and texts that are no name ("Share", "Read more")
    author_labels: list[str] | None = None
    author_roles: list[str] | None = None
    name_particles: list[str] | None = None
    posted_words: list[str] | None = None
    not_author: list[str] | None = None
    # labels of a host name that make its public suffix with the country code after them
    # (``co`` of retrosixty.co.uk): the site's name is the label before them, never a
    # subdomain's word (www, shop, en)
    host_suffixes: list[str] | None = None
    # the class-word lists above (`rating_classes`, `noise_classes`...) and the lexicon's
    # signals (`add_to_cart`, `boilerplate`) whose words also name a longer class or id
    # token partly: a stem of four letters or more going on (rating: ratings, cookie:
    # cookiebanner) or a part of a token run together (addtocartbutton); the others name
    # whole tokens only (nav: never navy)
    partial_words: list[str] | None = None
    # the site's own pages no category is: the account, sign-in, cart, checkout and wish
    # list, as link texts say them ("Cart (0)": a count dropped; case-folded, '-' and '_'
    # as spaces) and URL path segments name them (/customer/account/login, /cart.php)
    site_chrome: list[str] | None = None

    @model_validator(mode="before")
    @classmethod
    def _moved(cls, data: object) -> object:
        """``add_to_cart`` moved to the lexicon's ``signals.add_to_cart``
        (:meth:`Lexicon._moved_words` carries a lexicon's entries there); a rule file's
        copy is dropped: a crawl never reads it."""
        if isinstance(data, dict) and "add_to_cart" in data:
            data = {k: v for k, v in data.items() if k != "add_to_cart"}
        return data

    @field_validator("currency_codes")
    @classmethod
    def _codes(cls, value: list[str] | None) -> list[str] | None:
        for i, code in enumerate(value or ()):
            if not _CODE.match(code):
                raise error_at([str(i)], f"{code!r} is not an ISO 4217 code (3 capitals, "
                                         "like 'EUR')")
        return value

    @field_validator("currency_symbols")
    @classmethod
    def _symbols(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        for symbol, code in (value or {}).items():
            if not str(symbol).strip():
                raise error_at([str(symbol)], "empty currency symbol")
            if not _CODE.match(str(code)):
                raise error_at([str(symbol)], f"currency symbol {symbol!r} names {code!r}, "
                                              "not an ISO 4217 code (3 capitals, like 'EUR')")
        return value

    @field_validator("local_currencies")
    @classmethod
    def _local(cls, value: dict[str, dict[str, str]] | None) -> dict[str, dict[str, str]] | None:
        for sign, by_language in (value or {}).items():
            if not str(sign).strip():
                raise error_at([str(sign)], "empty currency sign")
            for language, code in by_language.items():
                if not _LANGUAGE.match(str(language)):
                    raise error_at([str(sign), str(language)], f"{language!r} is not a language "
                                                               "code (like 'sv')")
                if not _CODE.match(str(code)):
                    raise error_at([str(sign), str(language)], f"{code!r} is not an ISO 4217 "
                                                               "code (3 capitals, like 'SEK')")
        return value

    @field_validator("stock_phrases")
    @classmethod
    def _stock(cls, value: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
        for state, phrases in (value or {}).items():
            if not _STOCK.match(str(state)):
                raise error_at([str(state)], f"stock value {state!r} must be lower_snake_case "
                                             "(like 'in_stock')")
            for i, phrase in enumerate(phrases):
                if not phrase.strip():
                    raise error_at([str(state), str(i)], "empty phrase")
        return value

    @field_validator("money_marks", "currency_signs", "home_labels", "breadcrumb_labels",
                     "product_count",
                     "placeholder_images", "placeholder_folders",
                     "several_items", "other_money", "other_money_words", "times_signs",
                     "other_money_classes", "not_product_images", "struck_classes", "time_words",
                     "identifier_params", "identifier_paths", "stock_negations",
                     "rating_classes", "rating_numbers", "rating_labels",
                     "rating_scales", "rating_units", "noise_classes", "content_classes",
                     "noise_headings", "heading_counters", "updated_words", "byline_breaks",
                     "author_labels", "author_roles", "name_particles", "posted_words",
                     "not_author", "host_suffixes", "site_chrome")
    @classmethod
    def _lists(cls, value: list[str] | None) -> list[str] | None:
        return _phrases(value)

    @field_validator("partial_words")
    @classmethod
    def _partial(cls, value: list[str] | None) -> list[str] | None:
        for i, key in enumerate(value or ()):
            if not _STOCK.match(key):
                raise error_at([str(i)], f"{key!r} is not the key of a word list or signal "
                                         "(lower_snake_case, like 'rating_classes')")
        return value

    @field_validator("large_image_attributes")
    @classmethod
    def _attributes(cls, value: list[str] | None) -> list[str] | None:
        for i, name in enumerate(value or ()):
            if not _META_NAME.match(name):
                raise error_at([str(i)], f"{name!r} is not an attribute name (like "
                                         "'data-zoom-image')")
        return value

    @field_validator("rating_numbers")
    @classmethod
    def _numbers(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and len(value) > 6:
            raise ValueError(f"rating_numbers names the stars 0 to 5: at most six words (got "
                             f"{len(value)})")
        return value

    @field_validator("months")
    @classmethod
    def _months(cls, value: list[list[str]] | None) -> list[list[str]] | None:
        if value is None:
            return value
        if len(value) != 12:
            raise ValueError(f"months must be twelve lists of names, January first (got "
                             f"{len(value)})")
        seen: dict[str, int] = {}
        for month, names in enumerate(value):
            for i, name in enumerate(names):
                key = name.strip().lower()
                if not key:
                    raise error_at([str(month), str(i)], "empty month name")
                if seen.get(key, month) != month:
                    raise error_at([str(month), str(i)], f"{name!r} names month {seen[key] + 1} "
                                                         f"and month {month + 1}")
                seen[key] = month
        return value

    @model_validator(mode="after")
    def _signs_known(self) -> Vocabulary:
        known = {s.upper() for s in self.currency_symbols or ()}
        for i, sign in enumerate(self.currency_signs or ()):
            if self.currency_symbols is not None and sign.upper() not in known:
                raise error_at(["currency_signs", str(i)], f"currency sign {sign!r} is not a "
                                                           "key of currency_symbols")
        return self

    def over(self, base: Vocabulary) -> Vocabulary:
        """This vocabulary, with ``base``'s entry for every key it leaves out."""
        mine = self.model_dump(exclude_none=True)
        return base.model_copy(update=mine) if mine else base

    def differing(self, base: Vocabulary) -> Vocabulary | None:
        """Only the keys whose entries differ from ``base``'s (None: none differs)."""
        theirs = base.model_dump()
        changed = {k: v for k, v in self.model_dump(exclude_none=True).items()
                   if v != theirs.get(k)}
        return Vocabulary(**changed) if changed else None
