"""structurer: learn how an online shop is built, then crawl it fast from what was learned.

The public surface is small; everything else is importable but may change.
"""

from __future__ import annotations

import logging

from structurer._version import __version__
from structurer.config import Settings
from structurer.errors import StructurerError
from structurer.lexicon import Lexicon, load_lexicon
from structurer.rules import SiteRules, dump_rules, load_rules, save_rules
from structurer.validate import validate_file

logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "Lexicon",
    "Settings",
    "SiteRules",
    "StructurerError",
    "__version__",
    "dump_rules",
    "load_lexicon",
    "load_rules",
    "save_rules",
    "validate_file",
]
