"""Understanding one page, pure: weighted trees, repeated regions, link clusters, text
density, dates and bylines, the main list, and the :class:`~structurer.page.view.PageView`
that bundles them.

Input: a parsed lxml tree (and a lexicon). Output: typed views of the page. Nothing here
does I/O or learns rules; ``structurer.learn`` and ``structurer.generic`` build on it.
"""
