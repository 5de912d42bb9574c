"""The parser and ``main``: every command group registers its subcommands here.

Every bad input ends as one line on stderr and exit 2, a usage mistake argparse finds
too (:class:`Parser`); a library error is printed as its one line (exit 1 for analysis
that fell short, 2 for the rest); a file system error names the file; Ctrl-C prints
``interrupted`` and, where the command says so (``set_defaults(interrupted=...)``),
what became of its work.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import types
from collections.abc import Sequence
from typing import Any, NoReturn

from structurer._version import __version__
from structurer.cli import analyze, crawl, demo, extract, files, review
from structurer.cli.output import EXIT_BAD_INPUT, EXIT_FELL_SHORT, EXIT_OK, fail
from structurer.cli.startup import finished
from structurer.errors import AnalysisError, StructurerError


def terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it ($COLUMNS, else
    standard output's terminal, else 80), without importing shutil (with bz2 and lzma, a
    hundredth of ``extract-page``'s start)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as the terminal (:func:`terminal_columns`)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)


class Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line, like every other bad input
    (subcommand parsers are made of the same class), with :class:`Formatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("structurer").strip()
        fail(f"{command + ': ' if command else ''}{message} (see: {self.prog} --help)")
        raise SystemExit(EXIT_BAD_INPUT)


GROUPS = (files, demo, analyze, extract, crawl, review)
#: the group that registers each command, so a run builds only its own command's parser
COMMANDS = {"validate": files, "templates": files, "demo": demo, "analyze": analyze,
            "analyze-many": analyze, "extract": extract, "extract-page": extract,
            "crawl": crawl, "review": review, "report": review}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or (``command``) one with only that command's group: the help
    and the checks of that command are the same, and it starts faster."""
    parser = Parser(
        prog="structurer",
        description="Learn how an online shop is built, then crawl it fast from what was learned.")
    parser.add_argument("--version", action="version", version=f"structurer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    group = COMMANDS.get(command or "")
    for each in (group,) if group is not None else GROUPS:
        each.register(sub)
    return parser


#: pydantic's plugin loader, and the values of PYDANTIC_DISABLE_PLUGINS that disable them all
PLUGIN_LOADER = "pydantic.plugin._loader"
NO_PLUGINS = ("__all__", "1", "true")


def skip_plugin_search() -> None:
    """No pydantic plugins for the command line, and no cost for them.

    pydantic reads every installed package's metadata for plugins before it builds its
    first model (a fortieth of ``validate``) unless PYDANTIC_DISABLE_PLUGINS says none;
    even then its loader module imports ``importlib.metadata`` (a fifteenth of
    ``extract-page``). With every plugin disabled, the loader is a module answering what
    pydantic's answers then (no plugins); any other name asked of it loads the real one.
    Set the variable to an empty string to have plugins."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] not in NO_PLUGINS or PLUGIN_LOADER in sys.modules:
        return
    loader = types.ModuleType(PLUGIN_LOADER, "pydantic's plugin loader with every plugin off")

    def get_plugins() -> tuple[()]:
        return ()

    def real(name: str) -> Any:
        if name.startswith("__"):  # a module attribute the import system looks for
            raise AttributeError(name)
        del sys.modules[PLUGIN_LOADER]
        return getattr(importlib.import_module(PLUGIN_LOADER), name)

    loader.get_plugins = get_plugins  # type: ignore[attr-defined]
    loader.__getattr__ = real  # type: ignore[method-assign]
    sys.modules[PLUGIN_LOADER] = loader


def main(argv: Sequence[str] | None = None) -> int:
    skip_plugin_search()
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(next((a for a in argv if not a.startswith("-")), None))
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error already printed
        return done.code if isinstance(done.code, int) else EXIT_BAD_INPUT
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args))
    except AnalysisError as error:
        fail(str(error))
        return EXIT_FELL_SHORT
    except StructurerError as error:
        fail(str(error))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        hint = getattr(args, "interrupted", None)
        fail(f"interrupted; {hint}" if hint else "interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as error:  # a file or directory the command could not use
        where = error.filename if error.filename is not None else ""
        fail(f"{where}: {error.strerror or error}" if where else str(error.strerror or error))
        return EXIT_BAD_INPUT
    finally:
        finished()


if __name__ == "__main__":
    raise SystemExit(main())
