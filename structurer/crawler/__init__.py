"""Crawling a whole site by replaying its rule file, politely and resumably.

``crawl_site(rules, sink, settings)`` (:mod:`structurer.crawler.engine`; ``crawl_records``
yields the records instead) is the lightweight engine: one session's asyncio loop
(``session``) over a SQLite frontier (``frontier``: the queue's ``tasks``, ``urls`` and
their guards, the revisit ``schedule``) opened for the crawl at hand (``state``), reading
each page through ``traverse`` (shared with the Scrapy engine in ``scrapy/``), emitting
records (``products``) into sinks (``sinks``, ``streams``) with statistics (``stats``)
and drift warnings (``drift``).
"""
