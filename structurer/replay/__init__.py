"""Replaying a site rule file on pages: rules + parsed tree -> product records.

Input: :class:`~structurer.rules.model.SiteRules` and parsed pages. Output: product
records, next-page URLs and category links. ``compile_rules`` once per rule file,
then ``extract_page`` (or ``extract_list`` / ``extract_detail`` /
``extract_categories`` when the caller knows the page's level) per page. One
implementation serves ``analyze`` (to verify rules), ``extract``, ``crawl`` and the
Scrapy engine.
"""

from structurer.replay.extract import (
    CompiledRules,
    ListResult,
    PageResult,
    compile_rules,
    extract_categories,
    extract_detail,
    extract_list,
    extract_page,
)

__all__ = ["CompiledRules", "ListResult", "PageResult", "compile_rules", "extract_categories",
           "extract_detail", "extract_list", "extract_page"]
