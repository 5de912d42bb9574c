"""Demo shops: deterministic generated shops served on 127.0.0.1, with ground truth.

The README demo, the tests and the benchmarks run against these. Each shop differs
from the others in the kind of its markup, not only in its class names.
"""

from structurer.demo.base import Response, Shop
from structurer.demo.server import DemoServer
from structurer.demo.shops import SHOP_CLASSES, all_shops, get_shop

__all__ = ["SHOP_CLASSES", "DemoServer", "Response", "Shop", "all_shops", "get_shop"]
