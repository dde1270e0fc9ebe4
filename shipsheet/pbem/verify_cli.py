"""``shipsheet verify-dice SESSION [--seed TURN=HEX ...] [--commitment TURN=HEX ...]``:
recompute every recorded die roll of a session (:func:`shipsheet.pbem.dice.verify`).

Exit status: 0 every recorded roll of the verifiable turns recomputed and equal, every
seed matching its commitment; 1 a roll or a seed does not match (each is listed); 2 a
usage error or a file that cannot be read; 3 nothing wrong found but not everything
proven: an old-scheme session (``seeded-v1``: "cannot be verified"), turns whose seed is
not revealed yet, or seeds no report committed to first.
"""

from __future__ import annotations

import argparse
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


def verify_dice_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="shipsheet verify-dice",
        description="Recompute every die roll of a play-by-e-mail session from the revealed "
                    "turn seeds, and list the rolls that do not match, the undone and the "
                    "typed-in ones. Exit 0: all verified; 1: a roll or seed does not match; "
                    "2: usage or unreadable file; 3: nothing wrong found but not everything "
                    "proven (old dice scheme, or seeds not revealed yet).")
    parser.add_argument("session", metavar="SESSION", help="a session file (.shipsheet)")
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
    from .dice import verify
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
    result = verify(session, seeds, dict(args.commitment))
    print(f"{terminal_safe(args.session)}: {terminal_safe(session.title)}")
    for line in result.lines():
        print(terminal_safe(line))
    return EXIT[result.status]
