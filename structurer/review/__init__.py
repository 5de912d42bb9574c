"""Visual review of a rule file: screenshots of sample pages with the learned XPaths drawn on.

Input: a :class:`~structurer.rules.model.SiteRules`. Output: one self-contained HTML
report (see :mod:`structurer.review.report`).
"""

from structurer.review.report import VIEWPORT, build_review, render_review, write_review

__all__ = ["VIEWPORT", "build_review", "render_review", "write_review"]
