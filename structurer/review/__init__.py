"""Visual reports: what a rule file learned, and how a crawl went.

Input: a :class:`~structurer.rules.model.SiteRules` (the review, see
:mod:`structurer.review.report`) or a crawl's statistics JSON (the crawl report, see
:mod:`structurer.review.crawl`). Output: one self-contained HTML file each.
"""

from structurer.review.crawl import load_stats, render_crawl_report, write_crawl_report
from structurer.review.report import VIEWPORT, build_review, render_review, write_review

__all__ = ["VIEWPORT", "build_review", "load_stats", "render_crawl_report", "render_review",
           "write_crawl_report", "write_review"]
