"""Command line: ``shipsheet [FILE]``, ``shipsheet check FILE``, ``shipsheet print``,
``shipsheet serve`` (Table Link with no window), ``shipsheet verify-dice FILE`` (recompute
every recorded die roll), ``shipsheet pbem ...`` (the play-by-e-mail desk:
players, orders, the turn desk; ``pbem/cli.py``), ``shipsheet --version``;
``shipsheet-gui [FILE]`` (:func:`gui_main`) is the window alone, with no console.

Subcommands (``COMMANDS``) are headless: they never need a display, whatever
``QT_QPA_PLATFORM`` the environment names, so they run on a server, over ssh or in
a mail filter. ``check`` never imports Qt; the others choose Qt's offscreen
platform themselves before Qt loads (``_headless``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .version import __version__
from .model.text import plain_where_needed, terminal_safe

if TYPE_CHECKING:  # pragma: no cover
    import argparse

COMMANDS = ("check", "print", "serve", "pbem", "verify-dice")


def _check(argv: list[str]) -> int:
    import argparse
    parser = argparse.ArgumentParser(
        prog="shipsheet check",
        description="Validate session files (.shipsheet) and ship definitions (.toml).")
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args(argv)
    from .model import SessionFileError, ShipDefinitionError, load_session

    status = 0
    for name in args.files:
        path = Path(name)
        shown = terminal_safe(str(path))
        try:
            if path.suffix.lower() == ".toml":
                from .model.library import parse_ship_class, read_toml_file
                data = read_toml_file(path, "a ship definition or chart")  # read once
                if "rows" in data and "game" not in data:  # a chart has rows and no game
                    from .rules.fedcom import parse_chart
                    chart = parse_chart(data, path.name, path.stem)
                    print(f"{shown}: OK, damage allocation chart \"{terminal_safe(chart.name)}\"")
                else:
                    game = data.get("game")
                    cls = parse_ship_class(data, path.name,
                                           f"{game}/{path.stem}" if isinstance(game, str) else None)
                    print(f"{shown}: OK, {cls.game} ship class \"{terminal_safe(cls.name)}\"")
                    from .model.games import get_game
                    for warning in get_game(cls.game).definition_warnings(data):
                        print(f"{shown}: warning: {terminal_safe(warning)}")
            else:
                session = load_session(path)
                print(f"{shown}: OK, {terminal_safe(session.title)}: {len(session.ships)} ships, "
                      f"turn {session.turn}, {session.phase}")
        except (SessionFileError, ShipDefinitionError) as exc:
            print(f"{shown}: ERROR: {terminal_safe(str(exc))}", file=sys.stderr)
            status = 1
    return status


def _headless() -> None:
    """Qt's offscreen platform for every subcommand: an inherited ``QT_QPA_PLATFORM=xcb``
    with no ``DISPLAY`` would otherwise abort the process (exit 134) when Qt loads."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    # What the console cannot encode (a redirected Windows console is cp1252) is printed as
    # ASCII escapes, never a traceback in the middle of a line.
    for stream in (sys.stdout, sys.stderr):
        plain_where_needed(stream)


def _app_parser() -> argparse.ArgumentParser:
    import argparse  # here: the window's common starts need no parser (_window_args)
    parser = argparse.ArgumentParser(
        prog="shipsheet",
        description="Ship sheets for War In Space, Triplanetary and Federation Commander.",
        epilog="Other commands: 'shipsheet check FILE...' validates files; "
               "'shipsheet print FILE -o OUT.pdf' prints sheets to PDF; "
               "'shipsheet serve FILE --seat NAME=SHIP,...' shares a session with phones.")
    parser.add_argument("--version", action="version", version=f"ShipSheet {__version__}")
    parser.add_argument("file", nargs="?", help="a session file (.shipsheet) to open")
    parser.add_argument("--quit-after-startup", action="store_true",
                        help="exit as soon as the first window is painted (for timing start-up); "
                             "a FILE that cannot be opened: why, on stderr, and exit status 1")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        _headless()
        if argv[0] == "check":
            return _check(argv[1:])
        if argv[0] == "serve":
            from .ui.headless import serve_command
            return serve_command(argv[1:])
        if argv[0] == "pbem":
            from .pbem.cli import pbem_command
            return pbem_command(argv[1:], pdf_maker=_ships_pdf)
        if argv[0] == "verify-dice":
            from .pbem.verify_cli import verify_dice_command
            return verify_dice_command(argv[1:])
        from .printing.cli import print_command
        return print_command(argv[1:])
    return _window(argv)


def _ships_pdf():
    """The printing layer's PDF of a player's ships, for ``shipsheet pbem report --pdf``
    (``pbem`` never imports ``printing``: the command line hands it down)."""
    from .printing.pbem_pdf import ships_pdf
    return ships_pdf


def gui_main(argv: list[str] | None = None) -> int:
    """``shipsheet-gui``: the window only (a ``gui-scripts`` entry point, started with no
    console on Windows; the Windows and macOS builds' app). Subcommands need a console and
    stay with ``shipsheet``; macOS's old ``-psn_…`` process argument is dropped."""
    argv = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-psn_")]
    return _window(argv)


#: Qt platforms that draw with no X or Wayland display (``QT_QPA_PLATFORM``).
DISPLAYLESS = ("offscreen", "minimal", "minimalegl", "eglfs", "linuxfb", "vnc", "vkkhrdisplay",
               "directfb")

NO_DISPLAY = ("ShipSheet needs a display: neither DISPLAY nor WAYLAND_DISPLAY is set here "
              "(no desktop session: an ssh login, a container, a console). Run it in a desktop "
              "session (or over ssh -X), or use 'shipsheet print', 'shipsheet check' or "
              "'shipsheet serve', which need none.")


def no_display(environ=os.environ, platform: str | None = None) -> str | None:
    """Why the window cannot open here, said before Qt is loaded (Qt itself would abort with
    its own words: "could not connect to display", or "xcb-cursor0 is needed"), or None.

    Linux (and the BSDs) only: Windows and macOS always have their own display. A
    ``QT_QPA_PLATFORM`` naming a platform that needs no display (offscreen, eglfs...) is
    left to Qt."""
    if (platform or sys.platform) in ("win32", "darwin"):
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    chosen = [p.split(":")[0].strip() for p in environ.get("QT_QPA_PLATFORM", "").split(";")]
    if any(p in DISPLAYLESS for p in chosen):
        return None
    return NO_DISPLAY


def _window_args(argv: list[str]) -> tuple[str | None, bool]:
    """The window's arguments: the file to open (or None) and ``--quit-after-startup``.

    The common starts, with no argument or with the one file the system hands over (a
    double-click, a file dropped on the icon), are read without building the parser:
    argparse looks up its messages' translations on disk and imports the locale and
    terminal modules as it is built. Anything else (an option, ``--help``, two files, a
    name starting with "-") goes to the parser, which answers as it always has
    (``tests/test_cli.py`` checks both agree)."""
    files = [a for a in argv if a != "--quit-after-startup"]
    if len(files) <= 1 and not any(a.startswith("-") for a in files):
        return (files[0] if files else None), "--quit-after-startup" in argv
    args = _app_parser().parse_args(argv)
    return args.file, args.quit_after_startup


def _window(argv: list[str]) -> int:
    file, quit_after_startup = _window_args(argv)
    problem = no_display()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    from .ui import collector
    from .model.code_cache import compiling_kept
    collector.pause()  # until the window is up (see ui/collector.py)
    with compiling_kept():  # the patterns the game's rules compile, kept (model/code_cache.py)
        loaded = _read_before_qt(file) if file else None
    if quit_after_startup and isinstance(loaded, Exception):
        # Timing start-up, or a build's smoke test: nobody is there to close the window's
        # message, which would wait for ever. Said as ``check`` says it; exit status 1.
        print(f"{terminal_safe(file)}: ERROR: {terminal_safe(str(loaded))}", file=sys.stderr)
        return 1
    from .ui.pyside_import import import_pyside
    import_pyside()  # first: PySide6 need not read the source of each module the window imports
    with compiling_kept():  # and the window's
        from .ui.app import run_app
    return run_app(file, quit_after_startup=quit_after_startup, loaded=loaded)


def _read_before_qt(path: str):
    """Read the session to open, or the error reading it (the window reports it).

    Done before Qt is imported: PySide6 inspects every module imported after it (for its
    ``__feature__`` switches it reads each one's source), so the model, the game's rules and
    what the window reads as it starts (settings, autosaves) load faster first; the modules
    the window imports after Qt are spared the same reads by ``ui/pyside_import.py``."""
    from .model import SessionFileError, load_session
    from .model import autosave  # noqa: F401  (the window's autosave store)
    from .model.paths import user_config_dir
    user_config_dir()  # platformdirs: the settings' folder, read as the window starts
    try:
        return load_session(path)
    except SessionFileError as exc:
        return exc


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
