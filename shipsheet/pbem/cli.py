"""``shipsheet pbem ...``: the play-by-e-mail desk with no window (a server, a mail filter).

    shipsheet pbem setup SESSION --player "Blue=Blue" --player "Green=Swift,Lance" [--show-others]
    shipsheet pbem export-players SESSION -o DIR
    shipsheet pbem export-orders PLAYERFILE [--turn N] -o FILE
    shipsheet pbem import SESSION ORDERS... [--confirm]
    shipsheet pbem desk SESSION [--turn N]
    shipsheet pbem report SESSION --turn N -o DIR [--pdf] [--player NAME ...]   (report_cli.py)

Exit status: 0 done (``import``: every file accepted), 1 refused (``import``: any file not
accepted), 2 a usage error or a file that cannot be read. Every message names its file;
text from files is made safe for the terminal. No display is needed (no Qt here).
"""

from __future__ import annotations

import argparse
import functools
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from shipsheet.model.errors import RuleViolation, SessionFileError
from shipsheet.model.text import name_and_items, terminal_safe as safe

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session

OK, REFUSED, USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """A usage error: exit status 2 (as argparse's), returned, not raised as SystemExit."""
        self.print_usage(sys.stderr)
        raise _Usage(message)


class _Usage(Exception):
    pass


class _Exit(Exception):
    """A subcommand stopped with this exit status, its message printed (:func:`_session`)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def _parser(name: str, description: str) -> _Parser:
    return _Parser(prog=f"shipsheet pbem {name}", description=description)


def _err(message: str) -> None:
    print(f"ERROR: {safe(message)}", file=sys.stderr)


def _subcommand(command: Callable[[list[str]], int]) -> Callable[[list[str]], int]:
    """``command``, returning the status of an :class:`_Exit` raised inside it."""
    @functools.wraps(command)
    def run(argv: list[str]) -> int:
        try:
            return command(argv)
        except _Exit as stop:
            return stop.status
    return run


@contextmanager
def _session(path: Path, cannot: str, *, lock: bool = True,
             refused: int = REFUSED) -> Iterator["Session"]:
    """The session file at ``path``, loaded, under its lock (when ``lock``) until the block
    ends. What stops the block is said on stderr and ends the subcommand (:class:`_Exit`):
    the file open in another ShipSheet, or unreadable (SessionFileError): 2; a refusal
    (RuleViolation): ``refused``; a file that cannot be written (OSError): 1, said as
    "``cannot``: why"."""
    held = None
    if lock:
        from shipsheet.model.filelock import SessionLock
        held = SessionLock.acquire(path)
        if not isinstance(held, SessionLock):
            _err(f"{path}: the file is open in another ShipSheet ({held.describe()}).")
            raise _Exit(USAGE)
    try:
        from shipsheet.model.storage import load_session
        yield load_session(path)
    except SessionFileError as exc:
        _err(str(exc))
        raise _Exit(USAGE) from None
    except RuleViolation as exc:
        _err(str(exc))
        raise _Exit(refused) from None
    except OSError as exc:
        _err(f"{cannot}: {exc}")
        raise _Exit(REFUSED) from None
    finally:
        if held is not None:
            held.release()


def _player_spec(text: str) -> tuple[str, list[str]]:
    spec = name_and_items(text)
    if spec is None:
        raise argparse.ArgumentTypeError(f'a player is NAME=SIDE or NAME=SHIP,SHIP, not "{text}"')
    return spec


# -- the subcommands ------------------------------------------------------------------------------

@_subcommand
def setup_command(argv: list[str]) -> int:
    parser = _parser("setup", "Name the players of a session played by e-mail (saved in it).")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("--player", action="append", default=[], type=_player_spec,
                        metavar='"NAME=SIDE_OR_SHIPS"', required=True,
                        help="a player and the sides or ships (names or ids) they command; repeat")
    parser.add_argument("--show-others", action="store_true",
                        help="player files show the other players' ships (without their orders)")
    parser.add_argument("--no-verifiable-dice", action="store_true",
                        help="keep the session's dice as they are (by default a session played "
                             "by e-mail switches to dice anyone can verify: verify-dice)")
    args = parser.parse_args(argv)
    from shipsheet.model.storage import save_session

    from . import record
    from .dice import start_verifiable
    from .players import player_from_items, set_players_action
    path = Path(args.session)
    commitment = None
    with _session(path, f"{path}: cannot save") as session:
        players = [player_from_items(session, name, items) for name, items in args.player]
        session.apply(set_players_action(session, players, args.show_others))
        if not args.no_verifiable_dice and not isinstance(session.pbem.get("dice"), dict):
            commitment = start_verifiable(session)
        save_session(session, path)
    for player in record.players(session):
        ships = ", ".join(s.name for s in player.own_ships(session))
        print(f"{safe(player.name)}: {safe(ships)}")
    if commitment:
        print(f"Dice: verifiable from turn {session.turn}; tell the players the commitment to "
              f"this turn's seed: {commitment}")
    print(f"Saved {safe(str(path))}")
    return OK


@_subcommand
def export_players_command(argv: list[str]) -> int:
    parser = _parser("export-players", "Write each player's file (NAME.shipsheet) into a folder.")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("-o", "--output", required=True, metavar="DIR")
    args = parser.parse_args(argv)
    from .players import export_player_files
    with _session(Path(args.session), f"{args.output}: cannot write", lock=False) as session:
        paths = export_player_files(session, Path(args.output))
    for path in paths:
        print(f"Wrote {safe(str(path))}")
    return OK


@_subcommand
def export_orders_command(argv: list[str]) -> int:
    parser = _parser("export-orders", "Write a player's orders file from their player file "
                                      "(and note it in the player file).")
    parser.add_argument("player_file", metavar="PLAYERFILE")
    parser.add_argument("--turn", type=int, default=None, help="the turn (default: the file's)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE")
    args = parser.parse_args(argv)
    from shipsheet.model.storage import save_session

    from .orders import current_orders, export_orders, order_warnings
    path = Path(args.player_file)
    with _session(path, "cannot write") as session:
        turn = session.turn if args.turn is None else args.turn
        orders = current_orders(session)
        for warning in order_warnings(session, orders):
            print(f"warning: {safe(warning)}")
        out = export_orders(session, turn, Path(args.output), orders)
        save_session(session, path)
    print(f"Wrote {safe(str(out))}: {len(orders)} order{'s' if len(orders) != 1 else ''} "
          f"for turn {turn}")
    return OK


@_subcommand
def import_command(argv: list[str]) -> int:
    parser = _parser("import", "Check orders files and apply the good ones (one undo step each).")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("orders", nargs="+", metavar="ORDERS")
    parser.add_argument("--confirm", action="store_true",
                        help="apply corrections of orders already applied this turn")
    args = parser.parse_args(argv)
    from shipsheet.model.storage import save_session

    from .orders import import_orders
    path = Path(args.session)
    # A session that takes no orders (not a moderator's) is a usage error, not a refused file.
    with _session(path, f"{path}: cannot save", refused=USAGE) as session:
        results = import_orders(session, args.orders, confirm=args.confirm)
        changed = any(r.changed for r in results)
        if changed:
            save_session(session, path)
    for result in results:
        print(safe(result.line()))
    if changed:
        print(f"Saved {safe(str(path))}")
    return OK if all(r.accepted for r in results) else REFUSED


@_subcommand
def desk_command(argv: list[str]) -> int:
    parser = _parser("desk", "Show, per player, whether this turn's orders are missing, "
                             "arrived, applied or refused.")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("--turn", type=int, default=None)
    args = parser.parse_args(argv)
    from .desk import turn_desk
    with _session(Path(args.session), f"{args.session}: cannot read", lock=False) as session:
        rows = turn_desk(session, args.turn)
    print(f"{safe(session.title)}: turn {args.turn or session.turn}")
    for row in rows:
        print(safe(row.line()))
    return OK


def report_command(argv: list[str]) -> int:
    """``report``: the turn reports (``report_cli.report_command``), loaded when used."""
    from .report_cli import report_command as command
    return command(argv)


#: subcommand -> function(argv) -> exit status.
SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {
    "setup": setup_command,
    "export-players": export_players_command,
    "export-orders": export_orders_command,
    "import": import_command,
    "desk": desk_command,
    "report": report_command,
}


def _usage() -> str:
    return ("usage: shipsheet pbem {" + ",".join(SUBCOMMANDS) + "} ...\n"
            "The play-by-e-mail desk. 'shipsheet pbem COMMAND --help' for a command's options.")


def pbem_command(argv: list[str]) -> int:
    """``shipsheet pbem SUBCOMMAND ...``; the exit status."""
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage(), file=sys.stdout if argv else sys.stderr)
        return OK if argv else USAGE
    command = SUBCOMMANDS.get(argv[0])
    if command is None:
        print(_usage(), file=sys.stderr)
        _err(f'unknown command "{argv[0]}".')
        return USAGE
    try:
        return command(argv[1:])
    except _Usage as exc:
        print(f"shipsheet pbem {argv[0]}: error: {exc}", file=sys.stderr)
        return USAGE
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else OK


__all__ = ["SUBCOMMANDS", "pbem_command"]
