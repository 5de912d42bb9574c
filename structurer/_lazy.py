"""Public names of a package that load when first used (a module ``__getattr__``).

Input: the package's name, each public name's home module and the package's namespace.
Output: the package's ``__getattr__`` and ``__dir__``, so that importing the package
(``structurer``, ``structurer.fetch``) loads none of the modules behind its names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str], namespace: dict[str, Any]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """(``__getattr__``, ``__dir__``) of ``package``: a name of ``homes`` is imported from
    its module on first use and kept in ``namespace``; any other is an AttributeError."""

    def getattr_(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return getattr_, dir_
