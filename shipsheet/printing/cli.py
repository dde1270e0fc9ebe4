"""``shipsheet print FILE [--ship NAME ...] [--all] [--log] -o OUT.pdf``: headless PDF export."""

from __future__ import annotations

import argparse
import sys


def print_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="shipsheet print",
        description="Print a session's filled ship sheets to PDF, one ship per page. "
                    "Needs no display.")
    parser.add_argument("file", metavar="FILE", help="a session file (.shipsheet)")
    parser.add_argument("--ship", action="append", default=[], metavar="NAME",
                        help="a ship to print (by name; repeat for several)")
    parser.add_argument("--all", action="store_true", help="print every ship of the session")
    parser.add_argument("--log", action="store_true", help="add the session log after the sheets")
    parser.add_argument("--page", choices=("A4", "Letter"), default="A4", help="page size (default A4)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="the PDF to write")
    args = parser.parse_args(argv)

    from ..model.text import terminal_safe as safe
    from ..model import RuleViolation, SessionFileError, load_session
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
    if not ships and not args.log:
        print(safe(f"shipsheet print: {args.file} has no ships to print"), file=sys.stderr)
        return 1

    from PySide6.QtGui import QGuiApplication
    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    from .render import PrintJob, export_pdf
    try:
        pages = export_pdf(PrintJob(session, ships, args.log, args.page), args.output)
    except OSError as exc:
        print(safe(f"shipsheet print: cannot write {args.output}: {exc.strerror or exc}"),
              file=sys.stderr)
        return 1
    del app
    print(safe(f"{args.output}: {pages} pages ({len(ships)} ships{', log' if args.log else ''})"))
    return 0
