"""Site rule files: the model (``model.py``) and YAML reading/writing (``io.py``)."""

from structurer.rules.io import dump_rules, load_rules, rules_filename, rules_from_text, save_rules
from structurer.rules.model import (
    Baseline,
    CategoryLevel,
    DetailLevel,
    FieldRule,
    ListLevel,
    Pagination,
    RenderDecision,
    SiteRules,
)

__all__ = [
    "Baseline",
    "CategoryLevel",
    "DetailLevel",
    "FieldRule",
    "ListLevel",
    "Pagination",
    "RenderDecision",
    "SiteRules",
    "dump_rules",
    "load_rules",
    "rules_filename",
    "rules_from_text",
    "save_rules",
]
