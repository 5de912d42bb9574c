"""structurer: learn how an online shop is built, then crawl it fast from what was learned.

The public surface is small; everything else is importable but may change. Names load
when first used (module ``__getattr__``), so ``import structurer`` (and the command
line's ``--version``) costs next to nothing:

- ``analyze_site(url)`` -> (SiteRules, report); ``extract_page(html, url)`` rule-free;
  ``extract(rules, html, url)`` -> records; ``crawl(rules, ...)`` -> iterator of records
- ``load_rules``/``save_rules``/``dump_rules``, ``load_lexicon``, ``validate_file``
- ``SiteRules``, ``Lexicon``, ``Settings``, ``StructurerError``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from structurer._lazy import lazy_names
from structurer._version import __version__

if TYPE_CHECKING:
    from structurer.api import analyze_site as analyze_site
    from structurer.api import crawl as crawl
    from structurer.api import extract as extract
    from structurer.api import extract_page as extract_page
    from structurer.config import Settings as Settings
    from structurer.errors import StructurerError as StructurerError
    from structurer.lexicon import Lexicon as Lexicon
    from structurer.lexicon import load_lexicon as load_lexicon
    from structurer.rules import SiteRules as SiteRules
    from structurer.rules import dump_rules as dump_rules
    from structurer.rules import load_rules as load_rules
    from structurer.rules import save_rules as save_rules
    from structurer.validate import validate_file as validate_file

__all__ = [
    "Lexicon",
    "Settings",
    "SiteRules",
    "StructurerError",
    "__version__",
    "analyze_site",
    "crawl",
    "dump_rules",
    "extract",
    "extract_page",
    "load_lexicon",
    "load_rules",
    "save_rules",
    "validate_file",
]

# public name -> the module that defines it
_HOMES = {
    "Lexicon": "structurer.lexicon",
    "Settings": "structurer.config",
    "SiteRules": "structurer.rules",
    "StructurerError": "structurer.errors",
    "analyze_site": "structurer.api",
    "crawl": "structurer.api",
    "dump_rules": "structurer.rules",
    "extract": "structurer.api",
    "extract_page": "structurer.api",
    "load_lexicon": "structurer.lexicon",
    "load_rules": "structurer.rules",
    "save_rules": "structurer.rules",
    "validate_file": "structurer.validate",
}


__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())
