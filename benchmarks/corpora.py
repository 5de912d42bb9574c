"""The ``--corpora DIR`` option of every benchmark that reads the shared corpora of real pages.

The corpora (saved pages of other projects, some without a license) are not part of the
repository: by default they sit beside the checkout, in ``../shared/corpora``. A benchmark
never runs on a missing folder without saying so: when it needs the corpora, or was given
``--corpora DIR`` explicitly, a missing folder is one line on stderr and exit 2; when the
corpora are only one part of its tables, the default folder's absence is one line on stderr
and that part is skipped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "corpora"


def add_corpora_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpora", type=Path, metavar="DIR",
                        help=f"the shared corpora of real pages (default: {DEFAULT})")


def corpora_folder(args: argparse.Namespace) -> Path:
    """The corpora folder of ``args``, for a benchmark that needs it: when it is missing,
    one line on stderr and exit 2."""
    folder: Path = args.corpora or DEFAULT
    if not folder.is_dir():
        fail(folder, "no such folder (the shared corpora of real pages; give --corpora DIR)")
    return folder


def optional_corpora(args: argparse.Namespace, part: str) -> Path | None:
    """The corpora folder of ``args`` for a benchmark whose ``part`` reads it: None, after
    one line on stderr, when the default folder is missing; a missing folder given with
    ``--corpora`` is a mistake (one line, exit 2)."""
    if args.corpora is not None or DEFAULT.is_dir():
        return corpora_folder(args)
    print(f"{Path(sys.argv[0]).name}: {DEFAULT}: no such folder: {part} skipped "
          "(give --corpora DIR)", file=sys.stderr)
    return None


def fail(path: Path, what: str) -> NoReturn:
    """One line on stderr naming ``path`` and what is wrong with it, then exit 2."""
    print(f"{Path(sys.argv[0]).name}: error: {path}: {what}", file=sys.stderr)
    raise SystemExit(2)


def require(path: Path, what: str) -> Path:
    """``path`` when it exists, else one line naming it (``what`` it should hold) and exit 2."""
    if not path.exists():
        fail(path, f"no such file or folder ({what}; give --corpora DIR)")
    return path
