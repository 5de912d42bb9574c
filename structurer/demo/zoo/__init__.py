"""The shop zoo: hundreds of generated shops with exact ground truth, for development.

The eight hand-written demo shops are what structurer was developed against; the zoo
is variety it cannot be tuned to. A seed draws one value for each of 32 independent
*axes* (:mod:`.axes`), each a way real storefronts differ: class vocabulary
(Bootstrap, Tailwind utilities, BEM, hashed CSS modules, none), list markup, seven
kinds of pagination and three page-URL forms, six ways sub-categories are (not)
linked, static / JSON-grid / client-shell list pages and static / client detail
pages, sessions ("recently viewed" from a cookie, a 500 on a page's first hit), and
the detail axes: related blocks sharing the main price's class, identifiers under
13 labels in four markups, buy-button-only or class-only stock, empty prices of
unavailable products, star ratings as class words / widths / aria-labels, zoom and
srcset images and placeholders, sale prices, instalment / shipping / VAT / unit-price
/ free-shipping texts and price ranges near the price, 16 locales (money formats,
every label) in UTF-8 or their legacy charsets, and structured data or none.

Design:

* :mod:`.model` builds a :class:`~.model.Zoo` from a seed: axis values, a per-shop
  look (page size 6-24, element ids, script path, phrasing variants), the catalog
  (2-3 top categories of 2-4 leaves, 40-200 products, via
  :func:`structurer.demo.catalog.build_catalog`) and every product *as the shop
  shows it* (:class:`~.model.Item`: identifier, images, shown price and rating).
* Renderers compose the axes independently: :mod:`.style` (class vocabularies),
  :mod:`.parts` (price, stock, rating fragments), :mod:`.listing` (cards and their
  containers), :mod:`.pager`, :mod:`.nav` (menus, breadcrumbs, sitemaps, robots.txt),
  :mod:`.detail`, and :mod:`.pages` (whole pages as static HTML, JSON-grid skeletons or
  client shells). Script-built levels run ``structurer/demo/static/zoo.js``, driven
  by a JSON config in the page; their JSON endpoints send items both as data and as
  the card HTML the static page would hold, so a rendered page equals the static one.
* :mod:`.truth` derives the ground truth from the same items; :mod:`.shop` serves
  it all (:class:`ZooShop`, the demo server's protocol plus ``handle_request`` for
  cookies).

Development seeds are 0-199; unseen seeds (10000 and up) come from the same
generator. Nothing in ``structurer`` outside ``structurer.demo`` may import the zoo,
and the analyzer keys nothing to its markup: new seeds must score like old ones
(``benchmarks/bench_zoo.py`` measures it).
"""

from __future__ import annotations

from structurer.demo.zoo.axes import AXES, MEANING, axes_of_seed, parse_seeds
from structurer.demo.zoo.model import Zoo, build_zoo
from structurer.demo.zoo.shop import ZooShop

DEV_SEEDS = range(200)
UNSEEN_SEEDS = range(10000, 10200)

__all__ = ["AXES", "DEV_SEEDS", "MEANING", "UNSEEN_SEEDS", "Zoo", "ZooShop", "axes_of_seed",
           "build_zoo", "parse_seeds"]
