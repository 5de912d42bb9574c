"""Crawling a whole site by replaying its rule file, politely and resumably.

``crawl_site(rules, sink, settings)`` (:mod:`structurer.crawl.crawler`) is the
lightweight engine: an asyncio loop over a SQLite frontier (``frontier``), reading each
page through ``traverse`` (shared with the Scrapy engine in ``scrapy/``), emitting
records (``products``) into sinks (``sinks``) with statistics (``stats``) and drift
warnings (``drift``).
"""
