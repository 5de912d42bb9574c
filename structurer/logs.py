"""The package's loggers: each module that logs takes its own with ``logger(__name__)``.

The package's logger gets a NullHandler here (a library leaves where records go to the
application; without a handler, Python's last resort prints warnings on stderr), when
the first module that logs is loaded, not by ``import structurer``: a command that logs
nothing (``--version``, ``validate``) then never loads :mod:`logging`, which with what
it imports (traceback, threading, string) is a twentieth of ``validate``'s start.
"""

from __future__ import annotations

import logging

logging.getLogger(__name__.rpartition(".")[0]).addHandler(logging.NullHandler())


def logger(name: str) -> logging.Logger:
    """The logger of module ``name`` (under the package's, which has the NullHandler)."""
    return logging.getLogger(name)
