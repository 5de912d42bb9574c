"""The analysis thresholds: a lexicon's cut-offs, budgets and calibration, each with the
default the shipped templates use unless they say otherwise (see :mod:`structurer.lexicon`,
which holds them as its ``thresholds``)."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, model_validator

from structurer.schema import Strict


class Thresholds(Strict):
    """Cut-offs and budgets of the analysis — how a page is read and a rule learned; each
    can be tuned per lexicon, and each default is the value the shipped templates use
    unless they say otherwise. (Run-time knobs of fetching and crawling are
    :class:`structurer.config.Settings`.)"""

    # repeated blocks: page/treesim, page/lists
    alpha: float = Field(0.75, gt=0, le=1, description=(
        "weighted similarity above which sibling subtrees may repeat"))
    beta: float = Field(0.35, gt=0, le=1, description=(
        "normalized tree edit distance below which they do repeat"))
    min_items: int = Field(3, ge=2, description="fewest repeated blocks that make a list")
    tree_nodes: int = Field(120, ge=1, description=(
        "nodes of a block its weighted tree keeps (document order)"))
    tree_depth: int = Field(12, ge=1, description="levels of a block its weighted tree keeps")
    ted_nodes: int = Field(32, ge=1, le=1000, description=(
        "node budget of the tree edit distance: nodes of a block (breadth-first) it compares "
        "(its cost grows with about the cube)"))
    root_share: float = Field(0.25, ge=0, le=1, description=(
        "share of a node's own attributes in the weighted similarity (children get the rest)"))
    max_group: int = Field(3, ge=1, le=10, description=(
        "adjacent siblings one record may span"))
    max_gap: int = Field(2, ge=0, le=10, description=(
        "unlike blocks a run of records steps over (an ad tile in a grid)"))
    # lists of links: page/optics, page/linkclusters, page/mainlist
    link_eps: float = Field(0.13, gt=0, le=1, description=(
        "OPTICS cut of link clustering: largest ancestor-chain distance within a list"))
    link_min_samples: int = Field(3, ge=2, description=(
        "fewest links that make a link list (OPTICS min samples, the link included)"))
    link_min_text: int = Field(5, ge=0, description=(
        "shortest anchor text of a link clustered (CJK characters count 2)"))
    max_links: int = Field(2000, ge=10, description=(
        "links of a page clustered (the first ones; the cost is quadratic)"))
    main_list_top: int = Field(4, ge=1, description=(
        "block regions and link lists weighed against each other for a page's main list"))
    main_list_confirmed: float = Field(1.25, ge=1, description=(
        "weight of a block region its page's main link list agrees with"))
    # text: page/density, page/byline
    min_block_text: int = Field(40, ge=0, description=(
        "characters of text a block needs to count as main content"))
    article_slack: int = Field(200, ge=0, description=(
        "characters besides paragraphs (headline, byline, captions: words outside links above "
        "its densest part) an article's container may add around that part"))
    same_story: float = Field(0.8, ge=0, le=1, description=(
        "share of the words of structured data's articleBody the page's own article text "
        "must hold to be taken instead (cut in paragraphs, without a CMS's captions)"))
    told_least: int = Field(200, ge=0, description=(
        "characters of the text a page's structured data tells (articleBody, a recipe's "
        "steps) from which the article's container must hold where the page shows it"))
    tail_block: int = Field(100, ge=0, description=(
        "characters of a block after an article's paragraphs (inside its container) from "
        "which the block must be mostly paragraphs to stay (see tail_paragraphs)"))
    tail_paragraphs: float = Field(0.4, ge=0, le=1, description=(
        "share of paragraph text outside links a block after an article's paragraphs needs "
        "to stay in its text (a share bar, a tag box, a contact card, a teaser list do not)"))
    above_headline: int = Field(150, ge=0, description=(
        "characters of a line above an article's headline that make it text (the heading "
        "is then no headline); shorter lines above it (a kicker, a date, a site's notice) "
        "are left out"))
    headline_block: int = Field(1000, ge=0, description=(
        "characters of paragraphs from which a block holding most of the paragraphs of the "
        "container it shares with an article's headline is kept whatever its class words "
        "(a theme's 'sidebar-layout' or 'tab-menu' around the article)"))
    headline_levels: int = Field(4, ge=0, description=(
        "levels above an article's headline whose elements are its containers: text "
        "inside one of them weighs double when the article's core is chosen"))
    loose_end: int = Field(40, ge=0, description=(
        "characters up to which an article's last line that ends no sentence (a box's "
        "label, a name, a tag after the text) is left out, and the line before it then "
        "weighed the same"))
    promo_lines: int = Field(6, ge=0, description=(
        "last lines of an article searched for a promotion (the lexicon's promo_text: "
        "subscribe, newsletter, Telegram) that ends its text with what follows it"))
    promo_resume: int = Field(200, ge=0, description=(
        "characters of each of two sentences after such a promotion from which the "
        "article goes on after it: the promotion is a notice inside the text, and only "
        "its line is left out"))
    caption_line: int = Field(150, ge=0, description=(
        "characters of an article's line that names a picture's credit (the lexicon's "
        "credit_text: ©, Foto:, Credit:) up to which it is a caption, not text"))
    lead_line: int = Field(50, ge=0, description=(
        "characters of a line between an article's headline and its text (outside the "
        "text's container) from which it is the article's standfirst"))
    lead_most: int = Field(800, ge=0, description=(
        "characters of standfirst lines above which they are no standfirst (another "
        "text between headline and article) and are left out"))
    byline_after: int = Field(600, ge=0, description=(
        "characters after an article's title searched for its date and author"))
    byline_before: int = Field(250, ge=0, description=(
        "characters before an article's title searched for its date (a dateline)"))
    # fields: learn/slots, learn/fields
    slot_depth: int = Field(14, ge=1, description="levels below a list item read for fields")
    detail_slot_depth: int = Field(40, ge=1, description=(
        "levels below a detail page's body read for fields"))
    partial_ratio: float = Field(0.5, ge=0, le=1, description=(
        "share of a word's weight a partial (substring) match counts"))
    min_confidence: float = Field(0.35, ge=0, le=1, description=(
        "fields found with less confidence are left out of the rules"))
    path_word: float = Field(8.0, gt=0, description=(
        "weight from which a field's word in a link's path names the field (/brands/penrose "
        "for the brand): weaker words are common in any path"))
    text_floor: float = Field(0.2, ge=0, le=1, description=(
        "an optional detail text (a description, a brand; not a code) whose XPath rule ends "
        "below this confidence (its structured data says otherwise) is not written: the "
        "structured data's own value is read where every page has one, else the markup "
        "learners try, else it stays null"))
    # confidence: learn/confidence
    unconfirmed_cap: float = Field(0.8, ge=0, le=1, description=(
        "highest confidence of a field no independent source (structured data, list page, "
        "title) confirms: what words, labels and value shapes alone are worth"))
    ambiguous_margin: float = Field(0.05, ge=0, le=1, description=(
        "a runner-up scoring within this of the winner, with other values, makes a field "
        "ambiguous"))
    # render mode: learn/render
    render_similarity: float = Field(0.8, gt=0, le=1, description=(
        "raw vs rendered simhash similarity at or above which a level is static"))
    # pagination: learn/pagination, learn/pagewalk
    paging_guesses: int = Field(3, ge=0, le=20, description=(
        "page and offset parameter names of the lexicon tried each (with /page/N/) when a "
        "pager has no usable links; each guess costs one fetch"))
    render_content_ratio: float = Field(0.5, gt=0, le=1, description=(
        "a level whose rules find fewer than this share of what they find in the rendered "
        "pages (list items, detail fields) in the pages as fetched needs a browser"))
    render_new_links: int = Field(6, ge=1, description=(
        "a list page whose rendered DOM has at least this many links the page as fetched "
        "lacks (a grid a script built) is analyzed as rendered, however alike the two"))
    render_min_pages: int = Field(2, ge=1, le=20, description=(
        "fewest sample pages whose mean similarity decides a level's render mode"))
    # categories: learn/discovery, learn/trails
    checks_per_source: int = Field(3, ge=0, le=20, description=(
        "unproven category candidates of one source fetched to check them"))
    verify_rounds: int = Field(2, ge=0, le=10, description=(
        "rounds of fetching pattern-matching category candidates and tightening the patterns"))
    sitemap_files: int = Field(6, ge=0, le=100, description=(
        "sitemap files read while analyzing (an index and its parts)"))
    trail_links: int = Field(12, ge=2, le=100, description="most links of a breadcrumb trail")
    # confidence calibration: learn/confidence
    score_scale: float = Field(0.6, gt=0, le=10, description=(
        "ranking score at which an unconfirmed field's confidence reaches 63% of its cap"))
    full_margin: float = Field(0.4, gt=0, le=10, description=(
        "a lead this large over a runner-up with other values costs no confidence"))
    tie_factor: float = Field(0.55, ge=0, le=1, description=(
        "share of the confidence a tie with a runner-up with other values leaves"))
    min_checks: int = Field(3, ge=2, le=100, description=(
        "samples an independent source needs to confirm a field (confidence 0.9)"))
    full_checks: int = Field(8, ge=2, le=1000, description=(
        "samples an independent source needs for confidence 0.99 (at least min_checks)"))
    agrees: float = Field(0.95, gt=0, le=1, description=(
        "share of samples that must agree with an independent source to confirm"))
    # signal words: page/productkind, page/boilerplate, learn/listing, learn/pagination
    strong_signal: float = Field(10.0, gt=0, description=(
        "weight from which one word of a signal decides by itself: an add-to-cart phrase "
        "makes a button the product's own; a cart or wishlist word, a list item's link no "
        "detail link; a noise word, a detail page's block one no field is read from; a "
        "boilerplate heading set as a bold paragraph, the end of an article"))
    noise_card: float = Field(8.0, gt=0, description=(
        "weight from which a noise word in a priced card's class/id or in the heading above "
        "it (recommended, bestsellers) makes it another product's card, not a short list's"))
    crumb_block: float = Field(12.0, gt=0, description=(
        "weight from which a breadcrumb field's word in a block's class/id (breadcrumb, "
        "crumbs; not trail or path) makes the block the trail, no other field's place"))
    paging_word: float = Field(6.0, gt=0, description=(
        "score of a link's next words (a control's load-more words) from which it is a "
        "candidate for the next link (the load-more control)"))
    next_word: float = Field(8.0, gt=0, description=(
        "score of a link's next words from which it is by itself the page's next, the "
        "truth a next-link XPath is checked against; weaker words only propose candidates"))
    # articles: page/article
    strong_boilerplate: float = Field(15.0, gt=0, description=(
        "weight from which a boilerplate word alone marks a block as boilerplate"))

    #: added after rule files recorded their lexicon's hash: left out of it at their
    #: defaults, so that a rule file learned before still matches its template
    UNHASHED_DEFAULTS: ClassVar[tuple[str, ...]] = (
        "render_min_pages", "checks_per_source", "verify_rounds", "sitemap_files", "trail_links",
        "score_scale", "full_margin", "tie_factor", "min_checks", "full_checks", "agrees",
        "strong_boilerplate", "same_story", "tail_block", "tail_paragraphs", "above_headline",
        "caption_line", "headline_block", "headline_levels", "loose_end", "text_floor",
        "lead_line", "lead_most", "promo_lines", "promo_resume", "path_word", "strong_signal",
        "noise_card", "crumb_block", "paging_word", "next_word", "told_least")

    @model_validator(mode="after")
    def _checks_order(self) -> Thresholds:
        if self.full_checks < self.min_checks:
            raise ValueError(f"full_checks ({self.full_checks}) is below min_checks "
                             f"({self.min_checks})")
        return self

    def hashed(self) -> dict[str, Any]:
        """The thresholds as the lexicon's hash reads them (see ``UNHASHED_DEFAULTS``)."""
        data = self.model_dump(mode="json")
        for key in self.UNHASHED_DEFAULTS:
            if data[key] == _DEFAULTS[key]:
                data.pop(key)
        return data

    def confirmed_depth(self, count: int) -> float:
        """How far ``count`` agreeing samples go from ``min_checks`` (0.9) to
        ``full_checks`` (0.99), 0..1."""
        return min(1.0, (count - self.min_checks + 1) / (self.full_checks - self.min_checks + 1))


#: The confidence of a rule an independent source confirmed on ``min_checks`` samples or
#: more (structured data, the list page, the category a product was reached through):
#: what a reader of the rule file alone (a crawl) may trust over its own evidence.
CONFIRMED = 0.9

#: Every threshold at its default: what pure functions use when given no lexicon.
DEFAULT_THRESHOLDS = Thresholds()
_DEFAULTS = DEFAULT_THRESHOLDS.model_dump(mode="json")
