"""``shipsheet serve SESSION --seat "Blue=Resolute,Swift" ...``: the table with no window.

A spare laptop or a small board at the table runs the same Table Link server as the
window, with the session in memory, held by the window's own ``ui.document.SessionDocument``
(no widget is made): every phone's request goes through the same host (one undo step each,
logged with the seat), every change is in the journal on disk before the phone is answered,
the session is autosaved as the window does it (a moment after a change, never more than
1.5 s after the first unsaved one) and saved to its file when the host stops.

After a crash, ``serve`` finds the autosave and journal the last run left (newer than the
file), says so, and serves that — every change a phone was told was applied — unless given
``--as-saved``; the phones are told what happened. The seats are exactly those given:
seats of an earlier run that are not named again are retired, and said so. Ctrl+C (or
SIGTERM, or Ctrl+Break on Windows) stops it cleanly: Python's signal wake-up file
descriptor is watched by Qt's event loop, so the signal is noticed at once even while Qt
waits, then the file is saved and only then does the process exit. A save that fails says so, keeps the autosave, and exits 1.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from pathlib import Path

from ..model.text import encodable, name_and_items, plain_where_needed, terminal_safe as safe

#: What a QR code printed compactly is made of (segno's ``terminal(compact=True)``).
QR_BLOCKS = "\u2580\u2584\u2588 "



def _seat_spec(text: str) -> tuple[str, list[str]]:
    spec = name_and_items(text)
    if spec is None:
        raise argparse.ArgumentTypeError(f'a seat is NAME=SHIP,SHIP or NAME=SIDE, not "{text}"')
    return spec


def serve_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="shipsheet serve",
        description="Share a session with the players' phones, with no window (Table Link). "
                    "Each --seat gets a link and a QR code; Ctrl+C saves and stops.")
    parser.add_argument("file", metavar="SESSION", help="the session file (.shipsheet)")
    parser.add_argument("--seat", action="append", default=[], type=_seat_spec,
                        metavar='"NAME=SHIP,SHIP"',
                        help="a player seat controlling these ships (names or ids) or sides; repeat")
    parser.add_argument("--spectator", action="append", default=[], metavar="NAME",
                        help="a spectator seat that sees every sheet and decides nothing")
    parser.add_argument("--referee-seat", action="store_true",
                        help="also a referee seat, which may do everything, undo included")
    parser.add_argument("--bind", action="append", default=[], metavar="ADDR",
                        help="listen on this address (repeat; default: the likely LAN address)")
    parser.add_argument("--port", type=int, default=None, help="the port (default: as last time, or any free)")
    parser.add_argument("--no-qr", action="store_true", help="print the links without QR codes")
    parser.add_argument("--as-saved", action="store_true",
                        help="serve the file as saved, even when a crash of the last run left "
                             "newer work in the autosave (it is kept, for the window to offer)")
    beyond = parser.add_argument_group(
        "beyond the room", "players at home, through a tunnel or proxy you have (README: "
        "\"Players at home\"), or over HTTPS with your own certificate")
    beyond.add_argument("--public-url", metavar="URL",
                        help="the address players outside reach the table at "
                             "(https://table.example.net): the links and QR codes carry it")
    beyond.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                        help="the proxy's or tunnel's address (or network): its forwarded "
                             "client address and scheme are believed, nobody else's; repeat")
    beyond.add_argument("--tls-cert", metavar="FILE", help="speak HTTPS with this certificate (PEM)")
    beyond.add_argument("--tls-key", metavar="FILE", help="the certificate's private key (PEM)")
    beyond.add_argument("--approve-joins", action=argparse.BooleanOptionalAction, default=None,
                        help="a new device waits for your yes (typed here, or from the referee's "
                             "phone); on by default with --public-url")
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # a name the console cannot show: escaped, not a traceback
        plain_where_needed(stream)

    from ..share.exposure import Exposure
    try:
        args.exposure = Exposure.from_options(args.public_url, args.trusted_proxy, args.tls_cert,
                                              args.tls_key, args.approve_joins)
    except ValueError as exc:
        print(f"ERROR: {safe(str(exc))}", file=sys.stderr)
        return 2

    from ..model import SessionFileError, load_session
    from ..model.errors import RuleViolation
    path = Path(args.file)
    try:
        session = load_session(path)
    except SessionFileError as exc:
        print(f"{safe(str(path))}: ERROR: {safe(str(exc))}", file=sys.stderr)
        return 1
    from ..model.filelock import SessionLock
    lock = SessionLock.acquire(path)
    if not isinstance(lock, SessionLock):
        print(f"{safe(str(path))}: ERROR: the file is open {safe(lock.describe())}; "
              "close it there first.", file=sys.stderr)
        return 1

    from ..model.autosave import AutosaveStore
    store = AutosaveStore()
    recovered = store.newer_than_file(path)
    for problem in store.problems:
        print(f"warning: {safe(problem)}", file=sys.stderr)
    if recovered is not None and args.as_saved:
        print(f"Serving {safe(path.name)} as saved: the autosave of {recovered.time_text} a crash "
              "left is kept until the file is saved again (stop now and open the file in "
              "ShipSheet to recover it).", flush=True)
        recovered = None
    elif recovered is not None and recovered.changed_elsewhere:
        print(f"Serving {safe(path.name)} as saved: it was changed elsewhere after the work of "
              f"{recovered.time_text} a crash left in the autosave began, and each has changes "
              "the other does not. The autosave is kept: open the file in ShipSheet to "
              "recover it.", flush=True)
        recovered = None
    elif recovered is not None:
        session = recovered.session
        print(f"Recovered: the last run stopped without saving {safe(path.name)}. Serving the work "
              f"of {recovered.time_text} from the autosave"
              + (f" and its journal ({recovered.journalled} change(s) after the last autosave)"
                 if recovered.journalled else "")
              + ". Ctrl+C saves it to the file; --as-saved would serve the file as saved.", flush=True)

    from ..share.seats import PLAYER, REFEREE, SPECTATOR, SeatBook
    book = SeatBook(session.uid, path=path)
    if book.problem:
        print(f"warning: {safe(book.problem)}", file=sys.stderr)
    try:
        wanted = [(name, PLAYER, items) for name, items in args.seat]
        wanted += [(name, SPECTATOR, []) for name in args.spectator]
        if args.referee_seat:
            wanted.append(("Referee", REFEREE, []))
        for name, role, items in wanted:
            ships, sides = _ships_and_sides(session, items)
            seat = next((s for s in book.seats if s.name.casefold() == name.casefold()), None)
            if seat is None:
                book.add(name, role, sides=sides, ships=ships)
            else:  # the same seat as last time: the same link
                book.update(seat.id, role=role, sides=sides, ships=ships)
        retired = book.retire_except(name for name, _role, _items in wanted)
    except RuleViolation as exc:
        print(f"ERROR: {safe(str(exc))}", file=sys.stderr)
        lock.release()
        return 2
    if not book.seats:
        print("ERROR: no seats: give at least one --seat NAME=SHIP,... (or --referee-seat).",
              file=sys.stderr)
        lock.release()
        return 2
    if retired:
        print("Retired the seats of an earlier run not given now (their links no longer work): "
              + ", ".join(safe(s.name) for s in retired) + ".", flush=True)
    handle = store.adopt(recovered) if recovered is not None else None
    return _run(session, path, book, lock, args, store, handle, recovered)


def _ships_and_sides(session, items: list[str]) -> tuple[list[str], list[str]]:
    """The seat's items as ship ids and sides: a side's name, else a ship's id or name
    (RuleViolation names one that is neither)."""
    ships, sides = [], []
    for item in items:
        if item in session.sides:
            sides.append(item)
        else:
            ships.append(session.ship(item).id)
    return ships, sides


def _print_link(link, seat, qr: bool) -> None:
    url = link.url(seat)
    print(f"\n{safe(seat.name)} ({seat.role}): {url}", flush=True)
    if qr:
        import segno
        code = segno.make(url, error="m")
        if encodable(QR_BLOCKS, sys.stdout):
            code.terminal(out=sys.stdout, compact=True, border=2)
        else:
            print_ascii_qr(code, sys.stdout)
    sys.stdout.flush()


def print_ascii_qr(code, out) -> None:
    """``code`` (a segno QR code) in plain ASCII, two characters a module (``##`` dark,
    spaces light): for a console or file whose encoding has no block characters (a
    redirected Windows console, cp1252). segno's own non-compact output is ANSI colour
    escapes, which a file shows as text."""
    for row in code.matrix_iter(border=2):
        out.write("".join("##" if dark else "  " for dark in row).rstrip() + "\n")


class _Referee:
    """``serve``'s terminal as the referee's: devices waiting for a seat and seats whose
    joining locked are said there, numbered; ``allow N``, ``refuse N`` and ``open SEAT``
    typed there answer them (read on a thread of its own, acted on in the event loop)."""

    def __init__(self, link):
        self.link = link
        self.numbers: dict[int, str] = {}  # the number said -> the waiting device's join id
        self.seats: dict[str, str] = {}  # a seat's name, folded -> its id (locked ones)

    def told(self, event: dict) -> None:
        """An event of the table (on the event loop's thread)."""
        kind, seat = event.get("kind"), safe(str(event.get("seat", "")))
        where = safe(str(event.get("from", "")))
        if kind == "join":
            number = len(self.numbers) + 1
            self.numbers[number] = event["join"]
            print(f"A new device wants {seat}'s seat ({safe(str(event.get('device', '')))}, from "
                  f"{where}): type 'allow {number}' or 'refuse {number}'.", flush=True)
        elif kind == "joined":
            print(f"A new device joined {seat}'s seat ({safe(str(event.get('device', '')))}, "
                  f"from {where}).", flush=True)
        elif kind == "locked":
            self.seats[str(event.get("seat", "")).casefold()] = event["seat_id"]
            print(f"Joining {seat}'s seat is locked after too many wrong links (the last from "
                  f"{where}); its phones go on. Type 'open {seat}' to let new devices join "
                  "again, or give it a new link.", file=sys.stderr, flush=True)

    def listen(self) -> None:
        """Read the commands typed (a daemon thread: it ends with the process)."""
        import threading
        if sys.stdin is None or sys.stdin.closed:
            return
        threading.Thread(target=self._read, name="serve-commands", daemon=True).start()

    def _read(self) -> None:
        for line in sys.stdin:
            words = line.strip().split(None, 1)
            if len(words) == 2:
                self.link.authority.call(lambda w=words: self._command(*w))

    def _command(self, verb: str, what: str) -> None:
        verb = verb.lower()
        try:
            if verb in ("allow", "refuse") and what.isdigit() and int(what) in self.numbers:
                future = self.link.decide_join(self.numbers[int(what)], verb == "allow")
            elif verb == "open" and what.strip().casefold() in self.seats:
                future = self.link.open_joining(self.seats[what.strip().casefold()])
            else:
                print(f"Not understood: {safe(verb)} {safe(what)} (allow N, refuse N, open SEAT).",
                      file=sys.stderr, flush=True)
                return
        except ValueError as exc:
            print(f"ERROR: {safe(str(exc))}", file=sys.stderr, flush=True)
            return
        future.add_done_callback(self._done)

    @staticmethod
    def _done(future) -> None:
        exc = future.exception()
        print(f"ERROR: {safe(str(exc))}" if exc else safe(future.result()),
              file=sys.stderr if exc else sys.stdout, flush=True)


def _run(session, path: Path, book, lock, args, store, handle, recovered) -> int:
    from PySide6.QtCore import QSocketNotifier
    from PySide6.QtGui import QGuiApplication

    from .document import SessionDocument
    from ..share.addresses import likely_address
    from ..share.authority import QtAuthority
    from ..share.link import TableLink, recovered_notice

    app = QGuiApplication.instance() or QGuiApplication(["shipsheet serve"])
    # The window's document, without a window: the same autosave (its bounds), journal
    # and undo. The file's lock is this function's own (released on every way out).
    doc = SessionDocument(session, path, store, autosave_handle=handle)
    if recovered is not None:
        doc.mark_dirty()  # not as the file holds it: Ctrl+C saves it
    doc.autosave_status.connect(lambda message: print(
        f"warning: autosave failed: {safe(message)}" if message else "Autosave works again.",
        file=sys.stderr, flush=True))

    # Ctrl+C and SIGTERM: wake Qt's loop through the signal wake-up descriptor.
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    old_fd = signal.set_wakeup_fd(writer.fileno())
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)

    def drain() -> None:
        try:
            while reader.recv(64):
                pass
        except OSError:
            pass
        if stopping:  # a signal that came before the loop ran: quit now it runs
            app.quit()
    notifier.activated.connect(drain)
    stopping: list[int] = []

    def on_signal(signum, _frame) -> None:
        stopping.append(signum)
        app.quit()
    # Windows' consoles send Ctrl+Break too (and a process started in a group of its own
    # can be stopped only so): it stops and saves as Ctrl+C does.
    stops = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGBREAK] if hasattr(signal, "SIGBREAK") else [])
    old_handlers = {signum: signal.signal(signum, on_signal) for signum in stops}

    def restore_signals() -> None:
        for signum, handler in old_handlers.items():
            signal.signal(signum, handler)
        signal.set_wakeup_fd(old_fd)

    authority = QtAuthority(gate=doc)
    link = TableLink(session, book, authority, doc.apply, doc.undo, durable=doc.durable,
                     exposure=args.exposure)
    referee = _Referee(link)
    link.on_event = referee.told
    if recovered is not None:
        link.notice = recovered_notice(recovered.time_text)
    link.on_revoke = lambda seat: _print_link(link, seat, not args.no_qr)
    addresses = args.bind or [likely_address()]
    try:
        port = link.start(addresses, args.port)
    except (OSError, ValueError) as exc:
        print(f"ERROR: cannot listen on {', '.join(map(safe, addresses))}: {safe(str(exc))}",
              file=sys.stderr)
        restore_signals()
        if doc.dirty:  # recovered work stays in the autosave, for the next start
            doc.abandon()
        else:
            doc.close()
        lock.release()
        return 1
    problem = link.save_seats()
    if problem:
        print(f"warning: {safe(problem)}", file=sys.stderr)

    exposure = args.exposure
    print(f"Sharing {safe(session.title)} on {', '.join(addresses)} port {port}"
          + (" (HTTPS)" if exposure.tls is not None else "")
          + (f", reached at {exposure.public.origin}" if exposure.public is not None else "")
          + ". Ctrl+C saves and stops.", flush=True)
    if exposure.approve_joins:
        print("A new device waits for your yes: type 'allow N' or 'refuse N' here when asked "
              "(or answer from the referee's phone).", flush=True)
    referee.listen()
    for seat in book.seats:
        _print_link(link, seat, not args.no_qr)

    try:
        if not stopping:
            app.exec()
    finally:
        restore_signals()
        notifier.setEnabled(False)
        reader.close()
        writer.close()
        link.stop()
    if not doc.dirty:
        print(f"\nStopped: nothing changed, {safe(str(path))} is as it was.", flush=True)
        doc.close()
        lock.release()
        return 0
    print("\nStopping: saving the session…", flush=True)
    try:
        doc.save(path)
    except (OSError, ValueError) as exc:
        doc.autosave_now()
        print(f"ERROR: the session could not be saved to {safe(str(path))}: {safe(str(exc))}. "
              f"Nothing is lost: it is in ShipSheet's autosaves; open ShipSheet to recover it.",
              file=sys.stderr, flush=True)
        doc.abandon()
        lock.release()
        return 1
    doc.close()
    lock.release()
    print(f"Saved {safe(str(path))}.", flush=True)
    return 0
