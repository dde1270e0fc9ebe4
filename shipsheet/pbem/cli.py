"""``shipsheet pbem ...``: the play-by-e-mail desk with no window (a server, a mail filter).

The moderator's::

    shipsheet pbem setup SESSION --player "Blue=Blue" --player "Green=Swift,Lance"
                         [--show-others] [--moderator-plays NAME]
    shipsheet pbem export-players SESSION -o DIR
    shipsheet pbem import SESSION FILE... [--confirm]     (orders and join files)
    shipsheet pbem desk SESSION [--turn N]
    shipsheet pbem close-orders SESSION
    shipsheet pbem close-turn SESSION
    shipsheet pbem report SESSION --turn N -o DIR [--pdf] [--player NAME ...]   (report_cli.py)
    shipsheet pbem audit-export SESSION -o DIR

The player's::

    shipsheet pbem join PLAYERFILE [-o FILE] [--new-key]
    shipsheet pbem export-orders PLAYERFILE [--turn N] -o FILE
    shipsheet pbem pins PLAYERFILE [-o FILE]

Anyone's::

    shipsheet pbem audit DIR [--fingerprint NAME=HEX ...] [--pins FILE ...]

Exit status: 0 done (``import``: every file taken; ``audit``: passed), 1 refused
(``import``: any file not taken; ``audit``: failed), 2 a usage error or a file that cannot
be read, 3 (``audit``) nothing wrong found but not everything proven. Every message names
its file; text from files is made safe for the terminal. No display is needed (no Qt
here).
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
    from shipsheet.model.actions import Action
    from shipsheet.model.session import Change, Session

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


def _revealing(path: Path, output: str, write: Callable[["Session"], list]) -> list:
    """``write(session)`` of files for others under the session's lock; the session saved
    when its ledger took a mark (the closed turns' seeds went out in them: no orders for
    those turns are taken after)."""
    from shipsheet.model.storage import save_session
    with _session(path, f"{output}: cannot write") as session:
        before = len(session.archive)
        written = write(session)
        if len(session.archive) != before:
            save_session(session, path)
    return written


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
    parser.add_argument("--moderator-plays", metavar="NAME", default=None,
                        help="the player the moderator plays himself (his contribution to the "
                             "dice is not mixed in: he knows the seed)")
    args = parser.parse_args(argv)
    from shipsheet.model.storage import save_session

    from . import record
    from .dice import start_verifiable
    from .players import player_from_items, set_players_action
    path = Path(args.session)
    commitment = None
    with _session(path, f"{path}: cannot save") as session:
        players = [player_from_items(session, name, items) for name, items in args.player]
        session.apply(set_players_action(session, players, args.show_others,
                                         args.moderator_plays))
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
    paths = _revealing(Path(args.session), args.output,
                       lambda session: export_player_files(session, Path(args.output)))
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
    from .pins import check
    path = Path(args.player_file)
    with _session(path, "cannot write") as session:
        turn = session.turn if args.turn is None else args.turn
        pinned = check(session)  # (it reads the player's key: export_orders signs with it)
        for problem in pinned.problems:
            print(f"WARNING: {safe(problem)}")
        orders = current_orders(session)
        for warning in order_warnings(session, orders):
            print(f"warning: {safe(warning)}")
        out = export_orders(session, turn, Path(args.output), orders, key=pinned.key)
        save_session(session, path)
        key = pinned.key
    print(f"Wrote {safe(str(out))}: {len(orders)} order{'s' if len(orders) != 1 else ''} "
          f"for turn {turn}, " + ("signed with your key" if key else
                                  "not signed (you have not joined: shipsheet pbem join "
                                  "PLAYERFILE makes your key and the join file to send)"))
    return OK


@_subcommand
def import_command(argv: list[str]) -> int:
    parser = _parser("import", "Check orders and join files and take the good ones (one undo "
                               "step each): in a turn with stages, orders are queued until the "
                               "turn's orders close.")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("orders", nargs="+", metavar="FILE")
    parser.add_argument("--confirm", action="store_true",
                        help="apply corrections of orders already applied this turn, and take "
                             "a join file that replaces a player's key")
    args = parser.parse_args(argv)
    from shipsheet.model.storage import save_session

    from .inbox import import_orders
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
    from .desk import stage_line, turn_desk
    with _session(Path(args.session), f"{args.session}: cannot read", lock=False) as session:
        rows = turn_desk(session, args.turn)
        stage = stage_line(session, args.turn, rows)
    print(f"{safe(session.title)}: turn {args.turn or session.turn}" + (
        f": {safe(stage)}" if stage else ""))
    for row in rows:
        print(safe(row.line()))
    return OK


def _apply_saved(path: Path, make_action: Callable[["Session"], "Action"]
                 ) -> tuple[int, "Change"]:
    """Load the session file at ``path`` under its lock, apply ``make_action(session)`` (one
    undo step), save it, and print the lines the change logged after its headline; (the
    session's turn before the change, the change)."""
    from shipsheet.model.storage import save_session
    with _session(path, f"{path}: cannot save") as session:
        turn = session.turn
        change = session.apply(make_action(session))
        save_session(session, path)
    for entry in session.log[change.entries][1:]:
        print(safe(entry.text))
    return turn, change


def _stage_command(name: str, description: str, make: Callable[["Session"], "Action"], *,
                   reports_next: bool = False) -> Callable[[list[str]], int]:
    """A subcommand moving the turn's stage on with ``make(session)``'s action;
    ``reports_next``: then say how to write the turn's reports."""
    @_subcommand
    def command(argv: list[str]) -> int:
        parser = _parser(name, description)
        parser.add_argument("session", metavar="SESSION")
        args = parser.parse_args(argv)
        path = Path(args.session)
        turn, change = _apply_saved(path, make)
        print(f"{safe(change.name)}: done. Saved {safe(str(path))}")
        if reports_next:
            print(f"Now write turn {turn}'s reports: shipsheet pbem report {safe(str(path))} "
                  f"--turn {turn} -o DIR")
        return OK
    return command


def _close_orders(session: "Session") -> "Action":
    from .turns import close_orders_action
    return close_orders_action(session)


def _close_turn(session: "Session") -> "Action":
    from .turns import close_turn_action
    return close_turn_action(session)


close_orders_command = _stage_command(
    "close-orders", "Close this turn's orders: the set of contributions to its dice is fixed "
    "and the queued orders are applied, in the players' order. The turn's dice roll from "
    "now on.", _close_orders)
close_turn_command = _stage_command(
    "close-turn", "Close this turn: its end-of-turn steps run, its rolls are fixed (count and "
    "hash) and its seed may be revealed; the next turn's orders open. Write the turn's "
    "reports after.", _close_turn, reports_next=True)


@_subcommand
def deadline_command(argv: list[str]) -> int:
    parser = _parser("deadline", "Set the deadline for this turn's orders, in your own words "
                     "(\"Sunday 8 Dec, 20:00 UTC\"): each player's turn report says it. It "
                     "lapses when the turn closes.")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("when", metavar="WHEN", nargs="?",
                        help="the deadline, as the players should read it")
    parser.add_argument("--clear", action="store_true", help="clear this turn's deadline")
    args = parser.parse_args(argv)
    if args.when is not None and args.clear:
        raise _Usage("give the deadline (WHEN) or --clear, not both")
    if args.when is None and not args.clear:
        raise _Usage("give the deadline (WHEN), or --clear to clear it")
    from .deadline import set_deadline_action
    path = Path(args.session)
    _apply_saved(path, lambda session: set_deadline_action(
        session, None if args.clear else args.when))
    print(f"Saved {safe(str(path))}")
    return OK


@_subcommand
def join_command(argv: list[str]) -> int:
    parser = _parser("join", "Make your signing key (kept in your own state folder, never "
                             "sent) and the join file to send the moderator once.")
    parser.add_argument("player_file", metavar="PLAYERFILE")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="the join file (default: NAME.join.json beside the player file)")
    parser.add_argument("--new-key", action="store_true",
                        help="replace your key (lost or stolen): the moderator confirms it")
    args = parser.parse_args(argv)
    from .joins import SUFFIX, make_join, write_join
    from .keys import show_fingerprint
    from .pins import check
    from ..model.files import safe_file_name
    path = Path(args.player_file)
    with _session(path, "cannot write the join file", lock=False) as session:
        data, key = make_join(session, new_key=args.new_key)
        out = Path(args.output) if args.output else path.with_name(
            safe_file_name(data["player"]) + SUFFIX)
        write_join(data, out)
        check(session)  # pins your key
    print(f"Your key's fingerprint: {show_fingerprint(key.fingerprint)}")
    print(f"  (in full: {key.fingerprint})")
    print(f"Wrote {safe(str(out))}: send it to the moderator once"
          + (" (it replaces your earlier key: the moderator confirms it)"
             if data["replaces"] else "") + ". Check that every report lists this "
          "fingerprint for you.")
    return OK


@_subcommand
def pins_command(argv: list[str]) -> int:
    parser = _parser("pins", "Show what your ShipSheet pinned of this game (your key, the "
                             "others' keys, each commitment, seed and transcript), and write it "
                             "for a tournament director (pbem audit --pins).")
    parser.add_argument("player_file", metavar="PLAYERFILE")
    parser.add_argument("-o", "--output", metavar="FILE", default=None)
    args = parser.parse_args(argv)
    import json

    from shipsheet.model.storage import write_atomic

    from .keys import show_fingerprint
    from .pins import check
    with _session(Path(args.player_file), "cannot read", lock=False) as session:
        found = check(session)
    for problem in found.problems:
        print(f"WARNING: {safe(problem)}")
    for note in found.notes:
        print(safe(note))
    pins = found.pins
    if pins is None:
        return REFUSED
    print(f"{safe(pins.player)}: your key " + (show_fingerprint(pins.own) if pins.own else
                                              "none yet (shipsheet pbem join makes it)"))
    for name, fp in sorted(pins.keys.items()):
        print(f"{safe(name)}: {show_fingerprint(fp)}")
    for label, table in (("commitments", pins.commitments), ("seeds", pins.seeds),
                         ("transcripts", pins.transcripts)):
        if table:
            print(f"{label}: " + ", ".join(f"turn {t}" for t in sorted(table)))
    if args.output:
        write_atomic(args.output, json.dumps(pins.to_json(), indent=1).encode("utf-8"))
        print(f"Wrote {safe(args.output)}")
    return OK if not found.problems else REFUSED


@_subcommand
def audit_export_command(argv: list[str]) -> int:
    parser = _parser("audit-export", "Write the audit bundle of a game: every file received "
                                     "(accepted or refused), the players' public keys, each "
                                     "turn's commitment, and the seed and transcript of each "
                                     "closed turn. No secret goes in it.")
    parser.add_argument("session", metavar="SESSION")
    parser.add_argument("-o", "--output", required=True, metavar="DIR")
    args = parser.parse_args(argv)
    from .audit import export_bundle
    written = _revealing(Path(args.session), args.output,
                         lambda session: export_bundle(session, Path(args.output)))
    print(f"Wrote the audit bundle: {safe(str(written[0]))} and {len(written) - 1} file(s) in "
          f"{safe(str(written[0].parent / 'files'))}")
    return OK


def audit_command(argv: list[str]) -> int:
    """``audit``: check a bundle with no secret (``pbem/audit.py``)."""
    from .audit_cli import audit_command as command
    return command(argv)


def report_command(argv: list[str], pdf_maker=None) -> int:
    """``report``: the turn reports (``report_cli.report_command``), loaded when used;
    ``pdf_maker``: the printing layer's, for ``--pdf`` (given by ``shipsheet/cli.py``)."""
    from .report_cli import report_command as command
    return command(argv, pdf_maker)


#: subcommand -> function(argv) -> exit status.
SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {
    "setup": setup_command,
    "export-players": export_players_command,
    "import": import_command,
    "desk": desk_command,
    "close-orders": close_orders_command,
    "close-turn": close_turn_command,
    "deadline": deadline_command,
    "report": report_command,
    "audit-export": audit_export_command,
    "join": join_command,
    "export-orders": export_orders_command,
    "pins": pins_command,
    "audit": audit_command,
}


def _usage() -> str:
    return ("usage: shipsheet pbem {" + ",".join(SUBCOMMANDS) + "} ...\n"
            "The play-by-e-mail desk. 'shipsheet pbem COMMAND --help' for a command's options.")


def pbem_command(argv: list[str], *, pdf_maker=None) -> int:
    """``shipsheet pbem SUBCOMMAND ...``; the exit status. ``pdf_maker``: gives the PDF
    maker of the layer above (printing), for ``report --pdf``."""
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage(), file=sys.stdout if argv else sys.stderr)
        return OK if argv else USAGE
    command = SUBCOMMANDS.get(argv[0])
    if command is None:
        print(_usage(), file=sys.stderr)
        _err(f'unknown command "{argv[0]}".')
        return USAGE
    try:
        if command is report_command:
            return command(argv[1:], pdf_maker)
        return command(argv[1:])
    except _Usage as exc:
        print(f"shipsheet pbem {argv[0]}: error: {exc}", file=sys.stderr)
        return USAGE
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else OK


__all__ = ["SUBCOMMANDS", "pbem_command"]
