"""``shipsheet pbem audit DIR [--fingerprint NAME=HEX ...] [--pins FILE ...]``: check an audit
bundle with no secret of anyone's (:func:`shipsheet.pbem.audit.audit`).

Exit status: 0 passed (every file and every roll of every closed turn checked); 1 failed
(each failure listed); 2 a usage error or a bundle that cannot be read; 3 nothing wrong
found but not everything proven (a turn of the older scheme, unsigned orders, keys no
player's pins were given for). Never a traceback: a closed output or a damaged bundle
ends with a message and a status.
"""

from __future__ import annotations

import argparse
import sys

from shipsheet.model.text import terminal_safe as safe

from .verify_cli import EXIT, print_lines


def _fingerprint(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    value = "".join(value.split()).lower()
    if not sep or not name.strip() or len(value) not in (32, 64) or \
            any(c not in "0123456789abcdef" for c in value):
        raise argparse.ArgumentTypeError(f"expected NAME=HEX (a player, '=', the 32 or 64 hex "
                                         f"digits of their key's fingerprint), not {text!r}")
    return name.strip(), value


def audit_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="shipsheet pbem audit",
        description="Check a game's audit bundle (shipsheet pbem audit-export) with no secret: "
                    "every file's signature, every turn's set of contributions, every file "
                    "applied or refused as logged, every roll of every closed turn, and every "
                    "key against the players' own pins. Exit 0 passed, 1 failed, 2 usage or "
                    "unreadable bundle, 3 nothing wrong but not everything proven.")
    parser.add_argument("folder", metavar="DIR")
    parser.add_argument("--fingerprint", action="append", default=[], type=_fingerprint,
                        metavar="NAME=HEX", help="a player's key fingerprint, as they gave it")
    parser.add_argument("--pins", action="append", default=[], metavar="FILE",
                        help="a player's pins file (shipsheet pbem pins PLAYERFILE -o FILE)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    from .audit import AuditError, audit
    given: dict[str, list[str]] = {}
    for name, value in args.fingerprint:
        given.setdefault(name, []).append(value)
    try:
        result = audit(args.folder, fingerprints=given, pins=args.pins)
    except AuditError as exc:
        print(f"shipsheet pbem audit: {safe(str(exc))}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a hostile bundle never ends in a traceback
        print(f"shipsheet pbem audit: {safe(args.folder)}: cannot be checked "
              f"({type(exc).__name__}: {safe(str(exc))})", file=sys.stderr)
        return 2
    return print_lines(result.lines(), EXIT[result.status], "shipsheet pbem audit")


__all__ = ["audit_command"]
