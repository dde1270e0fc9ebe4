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
import sys
from pathlib import Path
from typing import Callable

from shipsheet.model.errors import RuleViolation, SessionFileError
from shipsheet.model.text import terminal_safe as safe

OK, REFUSED, USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """A usage error: exit status 2 (as argparse's), returned, not raised as SystemExit."""
        self.print_usage(sys.stderr)
        raise _Usage(message)


class _Usage(Exception):
    pass


def _parser(name: str, description: str) -> _Parser:
    return _Parser(prog=f"shipsheet pbem {name}", description=description)


def _load(path: Path):
    from shipsheet.model.storage import load_session
    return load_session(path)


def _err(message: str) -> None:
    print(f"ERROR: {safe(message)}", file=sys.stderr)


def _locked(path: Path):
    """The session file's lock, or None (and a message) when another ShipSheet has it open."""
    from shipsheet.model.filelock import SessionLock
    lock = SessionLock.acquire(path)
    if not isinstance(lock, SessionLock):
        _err(f"{path}: the file is open in another ShipSheet ({lock.describe()}).")
        return None
    return lock


def _player_spec(text: str) -> tuple[str, list[str]]:
    name, sep, items = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f'a player is NAME=SIDE or NAME=SHIP,SHIP, not "{text}"')
    return name.strip(), [i.strip() for i in items.split(",") if i.strip()]


# -- the subcommands ------------------------------------------------------------------------------

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

    from .players import player_from_items, set_players_action
    path = Path(args.session)
    lock = _locked(path)
    if lock is None:
        return USAGE
    try:
        session = _load(path)
        players = [player_from_items(session, name, items) for name, items in args.player]
        session.apply(set_players_action(session, players, args.show_others))
        commitment = None
        from .dice import start_verifiable
        if not args.no_verifiable_dice and not isinstance(session.pbem.get("dice"), dict):
            commitment = start_verifiable(session)
        save_session(session, path)
    except SessionFileError as exc:
        _err(str(exc))
        return USAGE
    except RuleViolation as exc:
        _err(str(exc))
        return REFUSED
    except OSError as exc:
        _err(f"{path}: cannot save: {exc}")
        return REFUSED
    finally:
        lock.release()
    from . import record
    for player in record.players(session):
        ships = ", ".join(s.name for s in player.own_ships(session))
        print(f"{safe(player.name)}: {safe(ships)}")
    if commitment:
        print(f"Dice: verifiable from turn {session.turn}; tell the players the commitment to "
              f"this turn's seed: {commitment}")
    print(f"Saved {safe(str(path))}")
    return OK


def export_players_command(argv: list[str]) -> int:
    parser = _parser("export-players", "Write each player's file (NAME.shipsheet) into a folder.")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("-o", "--output", required=True, metavar="DIR")
    args = parser.parse_args(argv)
    from .players import export_player_files
    try:
        paths = export_player_files(_load(Path(args.session)), Path(args.output))
    except SessionFileError as exc:
        _err(str(exc))
        return USAGE
    except RuleViolation as exc:
        _err(str(exc))
        return REFUSED
    except OSError as exc:
        _err(f"{args.output}: cannot write: {exc}")
        return REFUSED
    for path in paths:
        print(f"Wrote {safe(str(path))}")
    return OK


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
    lock = _locked(path)
    if lock is None:
        return USAGE
    try:
        session = _load(path)
        turn = session.turn if args.turn is None else args.turn
        orders = current_orders(session)
        for warning in order_warnings(session, orders):
            print(f"warning: {safe(warning)}")
        out = export_orders(session, turn, Path(args.output), orders)
        save_session(session, path)
    except SessionFileError as exc:
        _err(str(exc))
        return USAGE
    except RuleViolation as exc:
        _err(str(exc))
        return REFUSED
    except OSError as exc:
        _err(f"cannot write: {exc}")
        return REFUSED
    finally:
        lock.release()
    print(f"Wrote {safe(str(out))}: {len(orders)} order{'s' if len(orders) != 1 else ''} "
          f"for turn {turn}")
    return OK


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
    lock = _locked(path)
    if lock is None:
        return USAGE
    try:
        session = _load(path)
        results = import_orders(session, args.orders, confirm=args.confirm)
        if any(r.changed for r in results):
            save_session(session, path)
    except SessionFileError as exc:
        _err(str(exc))
        return USAGE
    except RuleViolation as exc:
        _err(str(exc))
        return USAGE
    except OSError as exc:
        _err(f"{path}: cannot save: {exc}")
        return REFUSED
    finally:
        lock.release()
    for result in results:
        print(safe(result.line()))
    if any(r.changed for r in results):
        print(f"Saved {safe(str(path))}")
    return OK if all(r.accepted for r in results) else REFUSED


def desk_command(argv: list[str]) -> int:
    parser = _parser("desk", "Show, per player, whether this turn's orders are missing, "
                             "arrived, applied or refused.")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("--turn", type=int, default=None)
    args = parser.parse_args(argv)
    from .desk import turn_desk
    try:
        session = _load(Path(args.session))
        rows = turn_desk(session, args.turn)
    except SessionFileError as exc:
        _err(str(exc))
        return USAGE
    except RuleViolation as exc:
        _err(str(exc))
        return REFUSED
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
