"""``shipsheet verify-dice FILE [--seed TURN=HEX ...] [--commitment TURN=HEX ...]``: check every
recorded die roll of a session — the moderator's session file, or a player file alone,
which carries what its player needs (:func:`shipsheet.pbem.verify.verify_session`).

Exit status: 0 every roll of every turn recomputed and equal, every turn closed; 1 a roll,
a seed, a contribution or a transcript does not hold (each is listed), or a player file
disagrees with what its player's ShipSheet pinned; 2 a usage error or a file that cannot
be read; 3 nothing wrong found but not everything proven: an old-scheme session
(``seeded-v1``: "cannot be verified"), turns not closed yet, seeds no report committed to
first. Never a traceback: a closed output (``| head``) or a damaged file ends with a
message and a status.
"""

from __future__ import annotations

import argparse
import os
import sys

from shipsheet.model.dice import is_hex64
from shipsheet.model.text import terminal_safe

EXIT = {"verified": 0, "failed": 1, "incomplete": 3}


def _turn_hex(kind: str):
    def parse(text: str) -> tuple[int, str]:
        turn, sep, value = text.partition("=")
        value = value.strip().lower()
        if not sep or not turn.strip().isdigit() or int(turn) < 1 or not is_hex64(value):
            raise argparse.ArgumentTypeError(
                f"expected TURN=HEX (a turn number, '=', the {kind}'s 64 hex digits), "
                f"not {text!r}")
        return int(turn), value
    return parse


def print_lines(lines: list[str], status: int, prog: str) -> int:
    """Print the verdict's lines; ``status`` whatever becomes of the output: a reader that
    stops early (``| head``) gets what it read, and the status still says the verdict."""
    try:
        for line in lines:
            print(terminal_safe(line))
        sys.stdout.flush()
    except BrokenPipeError:
        # Python's advice: point stdout at devnull so the flush at exit does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        try:
            print(f"{prog}: the output was closed before the verdict was all written "
                  f"(exit status {status})", file=sys.stderr)
        except OSError:
            pass
    return status


def verify_dice_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="shipsheet verify-dice",
        description="Check every die roll of a play-by-e-mail session, turn by turn: from the "
                    "moderator's session file, or from a player file alone. Exit 0: all "
                    "verified; 1: a roll, seed, contribution or transcript does not hold; 2: "
                    "usage or unreadable file; 3: nothing wrong found but not everything "
                    "proven (old dice scheme, or turns not closed yet).")
    parser.add_argument("session", metavar="FILE",
                        help="a session file or a player file (.shipsheet)")
    parser.add_argument("--seed", action="append", default=[], type=_turn_hex("seed"),
                        metavar="TURN=HEX", help="a turn's seed, as a turn report revealed it")
    parser.add_argument("--commitment", action="append", default=[],
                        type=_turn_hex("commitment"), metavar="TURN=HEX",
                        help="a turn's seed commitment, as an earlier report gave it")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2

    from shipsheet.model import SessionFileError, load_session

    from .verify import verify_session
    try:
        session = load_session(args.session)
    except SessionFileError as exc:
        print(f"{terminal_safe(args.session)}: ERROR: {terminal_safe(str(exc))}",
              file=sys.stderr)
        return 2
    seeds: dict[int, str] = {}
    for turn, seed in args.seed:
        if seeds.get(turn, seed) != seed:
            print(f"shipsheet verify-dice: two different seeds given for turn {turn}",
                  file=sys.stderr)
            return 2
        seeds[turn] = seed
    try:
        result = verify_session(session, seeds=seeds, commitments=dict(args.commitment))
    except Exception as exc:  # noqa: BLE001 - a hostile file never ends in a traceback
        print(f"{terminal_safe(args.session)}: cannot be checked ({type(exc).__name__}: "
              f"{terminal_safe(str(exc))})", file=sys.stderr)
        return 2
    lines = [f"{args.session}: {session.title}", *result.lines()]
    return print_lines(lines, EXIT[result.status], "shipsheet verify-dice")
