"""Replaying a site rule file on pages: rules + parsed tree -> product records.

Input: :class:`~structurer.rules.model.SiteRules` and parsed pages. Output: product
records, next-page URLs and category links. ``compile_rules`` once per rule file,
then ``extract_page`` (or ``extract_list`` / ``extract_detail`` /
``extract_categories`` when the caller knows the page's level) per page. One
implementation serves ``analyze`` (to verify rules), ``extract``, ``crawl`` and the
Scrapy engine. Rule evaluation on one page is bounded by a time budget (``PAGE_BUDGET``
seconds): past it the page is given up with a one-line :class:`RuleTimeout` naming the
rule that took the time.
"""

from structurer.replay.extract import (
    PAGE_BUDGET,
    CompiledRules,
    ListResult,
    PageResult,
    RuleTimeout,
    compile_rules,
    extract_categories,
    extract_detail,
    extract_list,
    extract_page,
)

__all__ = ["PAGE_BUDGET", "CompiledRules", "ListResult", "PageResult", "RuleTimeout",
           "compile_rules", "extract_categories", "extract_detail", "extract_list", "extract_page"]
