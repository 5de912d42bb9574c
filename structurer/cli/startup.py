"""Start-up of the short commands (``validate``, ``templates``, ``extract-page``) without
garbage collection.

Loading the modules and file models a command needs allocates a great many objects
and frees almost none, so the collections run meanwhile find nothing; they cost a
twentieth of ``extract-page``. :func:`loading` keeps the collector off while a command
loads, then sets what it loaded aside (``gc.freeze``: it lives as long as the process)
and turns the collector back on for the command's work. :func:`finished` puts the
set-aside objects back under the collector once the command is done (a caller of
``main`` in the same process, such as a test, keeps collecting them).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: whether :func:`loading` set objects aside (a process that froze its own is left alone)
_FROZE: list[bool] = []


@contextmanager
def loading() -> Iterator[None]:
    """No collection while the block loads; what it loaded is never scanned again."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():
            gc.freeze()
            _FROZE.append(True)
        if was_on:
            gc.enable()


def finished() -> None:
    """What :func:`loading` set aside is collected as any object again."""
    if _FROZE:
        _FROZE.clear()
        gc.unfreeze()
