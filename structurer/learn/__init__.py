"""Learning a site's rule file: exploration through a fetcher (``explore``, ``sampling``,
``batch`` for many shops at once), what to read next (``plan``), pure rule induction
over page views (``slots``, ``fields``, ``xpaths``, ``layouts``, ``listing``,
``detail``, ``pagination``, ``categories``, ``render``) and the one assembly of a rule
file with its baselines (``assemble``).

Input: a start URL and a fetcher, or parsed pages, and a lexicon. Output:
:class:`~structurer.rules.model.SiteRules`. Only ``explore``, ``sampling`` and ``batch``
do I/O; everything else takes trees and returns typed results.
"""
