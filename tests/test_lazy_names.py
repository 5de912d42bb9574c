"""The packages' lazy public names (:mod:`structurer._lazy`): importing ``structurer`` or
``structurer.fetch`` loads none of the modules behind their names; a name loads its
module when first used; an unknown name is an AttributeError naming the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys
import structurer, structurer.fetch
before = {m for m in ("structurer.api", "structurer.fetch.http", "structurer.fetch.replay")
          if m in sys.modules}
page = structurer.fetch.SavedPage
after = {m for m in ("structurer.fetch.replay", "structurer.fetch.http") if m in sys.modules}
try:
    structurer.fetch.HttpFetch
except AttributeError as error:
    print(sorted(before), sorted(after), page.__module__, error, sep="|")
"""


def test_names_load_their_module_on_first_use() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=True)
    before, after, home, error = done.stdout.strip().split("|")
    assert before == "[]" and "structurer.fetch.replay" in after
    assert "structurer.fetch.http" not in after      # a saved page loads no network code
    assert home == "structurer.fetch.replay"
    assert error == "module 'structurer.fetch' has no attribute 'HttpFetch'"
