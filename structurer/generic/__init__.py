"""Rule-free extraction of one page (``structurer extract-page``): its kind, a product's
fields, an article's title, text, time and author, or a list page's main list.

Input: a parsed tree, its URL and a lexicon. Output: one JSON-ready dict. Built on the
page views of ``structurer.page``; no I/O.
"""
