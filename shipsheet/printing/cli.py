"""``shipsheet print FILE [--ship NAME ...] [--all] [--log] [--turn-marks] -o OUT.pdf``, and
``shipsheet print --blank CLASS_ID ... -o OUT.pdf``: headless PDF export."""

from __future__ import annotations

import argparse
import sys

from ..model.update import count_words


def print_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="shipsheet print",
        description="Print a session's filled ship sheets to PDF, one ship per page, or blank "
                    "sheets of classes of the library for play on paper. Needs no display.")
    parser.add_argument("file", metavar="FILE", nargs="?", help="a session file (.shipsheet)")
    parser.add_argument("--blank", action="append", default=[], metavar="CLASS_ID",
                        help="a blank sheet of this class (e.g. war-in-space/cruiser; repeat "
                             "for several); with FILE, after its sheets")
    parser.add_argument("--turn-marks", action="store_true",
                        help="show the marks made this turn apart (a slash; earlier ones X)")
    parser.add_argument("--ship", action="append", default=[], metavar="NAME",
                        help="a ship to print (by name; repeat for several)")
    parser.add_argument("--all", action="store_true", help="print every ship of the session")
    parser.add_argument("--log", action="store_true", help="add the session log after the sheets")
    parser.add_argument("--page", choices=("A4", "Letter"), default="A4", help="page size (default A4)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="the PDF to write")
    args = parser.parse_args(argv)

    from ..model.text import terminal_safe as safe
    from ..model import RuleViolation, SessionFileError, load_session
    if args.file is None and not args.blank:
        parser.error("give a session FILE, or --blank CLASS_ID")
    blank = []
    if args.blank:
        from ..model.library import get_class, list_classes
        for class_id in args.blank:
            try:
                blank.append(get_class(class_id))
            except KeyError:
                known = ", ".join(c.id for c in list_classes())
                print(safe(f'shipsheet print: no class "{class_id}" in the library '
                           f"(classes: {known})"), file=sys.stderr)
                return 1
    if args.file is None:
        return _write(args, safe, None, [], blank)
    try:
        session = load_session(args.file)
    except SessionFileError as exc:
        print(f"shipsheet print: {safe(str(exc))}", file=sys.stderr)
        return 1
    if args.all or not args.ship:
        ships = list(session.ships)
    else:
        ships = []
        for name in args.ship:
            try:
                ships.append(session.ship(name))
            except RuleViolation:
                known = ", ".join(s.name for s in session.ships) or "none"
                print(safe(f'shipsheet print: no ship "{name}" in {args.file} (ships: {known})'),
                      file=sys.stderr)
                return 1
    if not ships and not args.log and not blank:
        print(safe(f"shipsheet print: {args.file} has no ships to print"), file=sys.stderr)
        return 1
    return _write(args, safe, session, ships, blank)


def _write(args, safe, session, ships, blank) -> int:
    from PySide6.QtGui import QGuiApplication
    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    from .render import PrintJob, export_pdf
    job = PrintJob(session, ships, args.log and session is not None, args.page,
                   turn_marks=args.turn_marks, blank=blank)
    try:
        pages = export_pdf(job, args.output)
    except OSError as exc:
        print(safe(f"shipsheet print: cannot write {args.output}: {exc.strerror or exc}"),
              file=sys.stderr)
        return 1
    del app
    what = [count_words(len(ships), "ship")] if session is not None else []
    if job.log:
        what.append("log")
    if blank:
        what.append(f"{len(blank)} blank")
    print(safe(f"{args.output}: {count_words(pages, 'page')} ({', '.join(what)})"))
    return 0
