"""Table Link as the window (or the headless host) uses it: one object per shared session.

:class:`TableLink` puts the pieces together — the seats (``seats.py``), the referee's
side (``host.py``, on the authority's thread), and the web server (``server.py``, on its
own thread) — and gives the links to show. Start and stop it on the authority's thread;
closing the session stops it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import heap, switching
from .addresses import likely_address, netloc
from .exposure import AT_THE_TABLE, Exposure
from .host import Authority, TableHost
from .seats import Seat, SeatBook

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Action, Session
    from ..model.session import Change
    from .server import Presence, TableServer


def recovered_notice(time_text: str) -> str:
    """What every phone is told after the referee's ShipSheet restored its work after a
    crash (``time_text``: ``AutosaveInfo.time_text``, the last change's time)."""
    return ("The referee's ShipSheet stopped without saving and has started again: every "
            "change your phone was told was applied is here (the last made at "
            f"{time_text[-8:]}). Look at your sheet before you go on.")


class TableLink:
    """The shared table of one session.

    ``apply(action) -> Change`` applies an action as the window does (one undo step;
    RuleViolation on a refusal); ``undo(step)`` undoes the step the referee's phone named (``Change.seq``).
    """

    def __init__(self, session: "Session", book: SeatBook, authority: Authority,
                 apply: Callable[["Action"], "Change"], undo: Callable[[int], Any] | None = None,
                 durable: Callable[[], Any] | None = None, exposure: Exposure = AT_THE_TABLE,
                 behind_window: bool = False):
        """``durable()``: a ``concurrent.futures.Future`` done once every change made so far
        is on disk (``SessionDocument.durable``, its journal): a phone is answered, and the
        phones are sent a change, only then. None: answered at once (tests, benchmarks).
        ``behind_window``: the authority's thread is a window's, whose frames come first:
        the server's threads let it have the processor first (``TableServer``)."""
        self.session = session
        self.behind_window = behind_window
        self._durable = durable
        #: How the table is reached beyond the room (``exposure.py``): set before ``start``.
        self.exposure = exposure
        #: Called on the authority's thread with what the referee is to be told (a device
        #: waiting for a seat, one that joined, a seat's joining locked: ``server.on_event``).
        self.on_event: Callable[[dict], Any] | None = None
        #: Words every phone is shown once it looks (a recovery after a crash), or "".
        self.notice = ""
        #: Called with a seat given a new link from the referee's phone (``serve`` prints it).
        self.on_revoke: Callable[[Seat], Any] | None = None
        self.book = book
        self.authority = authority
        self._apply = apply
        self._undo = undo
        self.host: TableHost | None = None
        self.server: TableServer | None = None
        self._quiet = None  # a QTimer: the heap is settled when it fires (share/heap.py)

    # -- lifetime -------------------------------------------------------------------
    def start(self, addresses: list[str] | None = None, port: int | None = None) -> int:
        """Listen on ``addresses`` (default: the likely one) at ``port`` (default: the port
        this table had last time, when it is free). Returns the port; OSError when it
        cannot listen (nothing is left running)."""
        self.stop()
        if not addresses:
            addresses = [likely_address()]
        host = TableHost(self.session, self._apply, self._undo, durable=self._durable)
        host.revoke = self._revoke_from_phone
        host.link_of = self.url
        host.notice = self.notice
        # The web server's module (aiohttp: a fifth of a second to load) is loaded when a
        # table first starts, not when the sharing dialog is first opened to set seats up.
        from .server import TableServer
        server = TableServer(self.book, self.authority, host, self.exposure,
                             behind_window=self.behind_window)
        server.on_event = self._told
        host.publish = lambda snapshot: self._published(server, snapshot)
        try:
            chosen = server.start(addresses, port if port is not None else self.book.port)
        except BaseException:
            host.close()
            raise
        self.host, self.server = host, server
        heap.table_started()
        switching.table_started()
        if self.book.port != chosen:
            self.book.port = chosen
            self.save_seats()
        return chosen

    def stop(self) -> None:
        drew = self.server is not None and self.server.render_count > 0
        if self.server is not None:
            self.server.stop()
            switching.table_stopped()
        if self.host is not None:
            self.host.close()
        if self._quiet is not None:
            self._quiet.stop()
            self._quiet = None
        if drew:
            heap.settle()  # what the table's drawings set aside goes back to the collector
        self.server = self.host = None

    def _published(self, server: TableServer, snapshot) -> None:
        """A change's snapshot (on the authority's thread): to the server once the change is
        on disk (no phone is shown what a crash could take back), and the heap settled once
        the table is quiet (``share/heap.py``)."""
        durable = self._durable() if self._durable is not None else None
        if durable is None or durable.done():
            server.publish(snapshot)
        else:  # on the journal's thread, when it has synced (publish is thread-safe)
            durable.add_done_callback(lambda _done: server.publish(snapshot))
        if self._quiet is None:
            from PySide6.QtCore import QTimer  # the authority's thread runs Qt's loop
            self._quiet = QTimer()
            self._quiet.setSingleShot(True)
            self._quiet.setInterval(heap.QUIET_MS)
            self._quiet.timeout.connect(heap.settle)
        if heap.overdue():
            heap.settle()
        self._quiet.start()

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def addresses(self) -> list[str]:
        return list(self.server.addresses) if self.server else []

    @property
    def port(self) -> int | None:
        return self.server.port if self.server else None

    # -- seats ------------------------------------------------------------------------
    def url(self, seat: Seat, address: str | None = None) -> str:
        """The seat's link: its secret in the fragment (never sent to a server, never logged).
        At the public address when the table has one (and no LAN ``address`` is asked for)."""
        public = self.exposure.public
        if public is not None and address is None:
            return f"{public.origin}/s/{seat.id}/#k={seat.secret}"
        address = address or (self.addresses[0] if self.addresses else "127.0.0.1")
        return f"{self.exposure.scheme}://{netloc(address, self.port)}/s/{seat.id}/#k={seat.secret}"

    # -- the referee's answers (any thread) ---------------------------------------------------
    def _told(self, event: dict) -> None:
        """An event of the server's loop, passed to ``on_event`` on the authority's thread."""
        if self.on_event is not None:
            handler = self.on_event
            self.authority.call(lambda: handler(event))

    def decide_join(self, join_id: str, allow: bool):
        """Let a waiting device in, or turn it away: a future of the words saying which
        (ValueError when it waits no more, or the seat is full)."""
        if self.server is None:
            raise ValueError("The table is not shared.")
        return self.server.decide_join(join_id, allow)

    def open_joining(self, seat_id: str):
        """Let a seat whose joining locked take new devices again: a future of the words."""
        if self.server is None:
            raise ValueError("The table is not shared.")
        return self.server.open_joining(seat_id)

    def presence(self) -> dict[str, Presence]:
        return self.server.presence() if self.server else {}

    def seats_changed(self) -> str:
        """After adding, editing or removing seats: saved, and phones look again. Returns
        "" or what went wrong saving (see :meth:`save_seats`)."""
        problem = self.save_seats()
        if self.server is not None:
            self.server.seats_changed()
        return problem

    def _revoke_from_phone(self, seat_id: str) -> Seat:
        seat = self.revoke(seat_id)
        if self.on_revoke is not None:
            self.on_revoke(seat)
        return seat

    def revoke(self, seat_id: str) -> Seat:
        """A new link for the seat; its phones are closed out at once."""
        seat = self.book.renew(seat_id)
        self.save_seats()
        if self.server is not None:
            self.server.close_seat(seat_id)
        return seat

    def remove(self, seat_id: str) -> None:
        self.book.remove(seat_id)
        self.save_seats()
        if self.server is not None:
            self.server.close_seat(seat_id)

    def save_seats(self) -> str:
        """Save the seats; returns "" or what went wrong (the seats work for this run)."""
        try:
            self.book.save()
        except OSError as exc:
            return f"The table's seats could not be saved: {exc.strerror or exc}"
        return ""
