"""``shipsheet pbem report SESSION --turn N -o DIR [--pdf] [--player NAME ...]``: a turn's
reports, one set of files per player, in ``DIR/turn-<N>/`` (:mod:`.reports`)."""

from __future__ import annotations

import argparse
import sys
from typing import Callable


def report_command(argv: list[str], pdf_maker: Callable[[], object] | None = None) -> int:
    """``shipsheet pbem report``. ``pdf_maker`` gives the PDF maker ``--pdf`` uses: the
    printing layer's, handed down by the command line above (``shipsheet/cli.py``), since
    ``pbem`` never imports ``printing``, not even by name."""
    parser = argparse.ArgumentParser(
        prog="shipsheet pbem report",
        description="Write a turn's play-by-e-mail reports: per player a plain-text e-mail "
                    "body with its subject line, the player's updated player file and, with "
                    "--pdf, the PDF of their ships, in DIR/turn-N/.")
    parser.add_argument("session", metavar="SESSION", help="the moderator's session file")
    parser.add_argument("--turn", type=int, required=True, metavar="N", help="the turn to report")
    parser.add_argument("-o", "--output", required=True, metavar="DIR",
                        help="the folder to write turn-N/ in")
    parser.add_argument("--pdf", action="store_true", help="also the PDF of each player's ships")
    parser.add_argument("--player", action="append", metavar="NAME",
                        help="only this player (repeat for several; default every player)")
    args = parser.parse_args(argv)

    from shipsheet.model import RuleViolation, SessionFileError, load_session
    from shipsheet.model.filelock import SessionLock
    from shipsheet.model.storage import save_session
    from shipsheet.model.text import terminal_safe as safe
    from .reports import export_turn_reports

    def fail(message: str) -> int:
        print(f"shipsheet pbem report: {safe(message)}", file=sys.stderr)
        return 1

    # The reports of a closed turn reveal its seed: the session records that it went out
    # (no orders for that turn are taken after), so it is locked, and saved after.
    held = SessionLock.acquire(args.session)
    if not isinstance(held, SessionLock):
        return fail(f"{args.session}: the file is open in another ShipSheet "
                    f"({held.describe()}).")
    try:
        try:
            session = load_session(args.session)
        except SessionFileError as exc:
            return fail(str(exc))
        before = len(session.archive)
        try:
            if args.pdf and pdf_maker is None:
                return fail("--pdf: no PDF maker here (run it as 'shipsheet pbem report').")
            pdf = pdf_maker() if args.pdf else None
            written = export_turn_reports(session, args.turn, args.output, pdf=pdf,
                                          players=args.player)
            if len(session.archive) != before:
                save_session(session, args.session)
        except RuleViolation as exc:
            return fail(str(exc))
        except (OSError, ValueError) as exc:
            return fail(f"cannot write the reports: {getattr(exc, 'strerror', None) or exc}")
    finally:
        held.release()
    for path in written:
        print(safe(str(path)))
    return 0


__all__ = ["report_command"]
