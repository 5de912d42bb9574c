"""The Scrapy runtime: the same rule files, traversal and records on Scrapy + scrapy-redis.

The only place that imports Scrapy and scrapy-redis (the ``scale`` extra). ``structurer
crawl RULES... --engine scrapy`` runs :func:`run_worker`: alone, a single-process Scrapy
crawl; with ``--redis redis://HOST:PORT``, one worker of a crawl that any number of
workers, on one machine or many, share through Redis (see :mod:`.runner`,
:mod:`.spider`, :mod:`.queue`). Importing this package without Scrapy raises a
one-line :class:`~structurer.errors.StructurerError` saying what to install.
"""

from structurer.errors import StructurerError

try:
    import scrapy  # noqa: F401
except ImportError:
    raise StructurerError("the Scrapy engine needs Scrapy: pip install 'structurer[scale]'"
                          ) from None

from structurer.crawler.scrapy.runner import WorkerResult, run_worker, scrapy_settings
from structurer.crawler.scrapy.spider import RuleSpider

__all__ = ["RuleSpider", "WorkerResult", "run_worker", "scrapy_settings"]
