"""The registry of demo shops, by name.

Every module in this package that defines a :class:`Shop` subclass is a demo
shop; ``ORDER`` fixes the order in which they are listed and served.
"""

from __future__ import annotations

import importlib
import pkgutil

from structurer.demo.base import Shop

ORDER = ["outfitters", "nordlicht", "brightline", "kumo", "pixel", "huaxia", "maple", "ledger"]


def _discover() -> dict[str, type[Shop]]:
    found: dict[str, type[Shop]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, Shop) and value is not Shop
                    and value.__module__ == module.__name__):
                found[value.name] = value
    rank = {name: i for i, name in enumerate(ORDER)}
    return dict(sorted(found.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))


SHOP_CLASSES: dict[str, type[Shop]] = _discover()


def get_shop(name: str) -> Shop:
    """An instance of the named demo shop (raises KeyError naming the known shops)."""
    try:
        return SHOP_CLASSES[name]()
    except KeyError:
        known = ", ".join(SHOP_CLASSES)
        raise KeyError(f"unknown demo shop {name!r} (known: {known})") from None


def all_shops() -> list[Shop]:
    return [cls() for cls in SHOP_CLASSES.values()]
