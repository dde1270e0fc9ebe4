"""Session ▸ Share with the Table…: the referee gives each seat its link (and QR code).

:class:`ShareDialog` (non-modal, one per window) chooses the address the server listens
on, starts and stops sharing, and edits the seats: name, role, the sides and ships each
controls, whether a player may mark damage, and a new link when a phone was lost. Each
seat shows how its phones are connected, read twice a second from the server, so a Wi-Fi
that keeps devices apart shows as "never connected".

While the window shares, :class:`ShareIndicator` sits in its status bar ("Sharing · 2
phones connected"; a click opens the dialog). The window keeps the :class:`TableLink`
(``window.table_link``) and stops it when its session closes (``end_sharing``).

The seats are the window's session file's (``SeatBook(uid, path=doc.path)``): a copy of
the file, or Save As, starts with none; an unsaved session's are kept in memory until it
is first saved, then go with that file (:meth:`ShareDialog._path_changed`). A seat whose
link was made by an earlier run of ShipSheet shows "from an earlier evening (3 Dec)"
beside its name.

Everything shown here that came from a user or a file (seat, side and ship names) is
plain text.
"""

from __future__ import annotations

import functools
import importlib
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QGuiApplication, QPixmap
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog,
                               QDialogButtonBox, QGridLayout, QGroupBox, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QMessageBox, QPushButton, QTableWidget, QTableWidgetItem,
                               QToolButton, QVBoxLayout, QWidget)

from ..model.errors import RuleViolation
from ..model.update import count_words
from ..share import Candidate, SeatBook, TableLink, candidate_addresses
from ..share.authority import QtAuthority
from ..share.exposure import Exposure
from ..share.link import recovered_notice
from ..share.seats import DEFAULT_RIGHTS, MAX_NAME, PLAYER, REFEREE, ROLES, SPECTATOR, Seat
from .first_paint import after_first_paint
from .layouts import fit_to_screen
from .plaintext import plain_label

if TYPE_CHECKING:  # pragma: no cover
    from ..share.server import Presence
    from .document import SessionDocument

ROLE_TITLES = {PLAYER: "Player", SPECTATOR: "Spectator", REFEREE: "Referee"}
ID_ROLE = Qt.ItemDataRole.UserRole
#: How often the seats' connections are read (ms).
PRESENCE_MS = 500
#: The QR code's module size in pixels (a version 6 code, 41 modules + border: 270 px).
QR_SCALE = 6
QR_BOX = 282
#: The Seat column's width at first; it widens for "from an earlier evening" as far as the
#: other columns stay in view (the tooltip and the selected seat's line have the whole text).
SEAT_COLUMN = 100


# -- words --------------------------------------------------------------------------------
def _ago(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s ago"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    return f"{seconds // 3600} h ago"


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def earlier_text(seat: Seat, now: float | None = None) -> str:
    """"from an earlier evening (3 Dec)" for a seat whose link was made by an earlier run
    of ShipSheet (``Seat.earlier``), else "". The same day (ShipSheet was started again):
    "from an earlier run (today, 19:40)"; a time not known: no date."""
    if not seat.earlier:
        return ""
    if seat.made <= 0:
        return "from an earlier evening"
    made = time.localtime(seat.made)
    today = time.localtime(time.time() if now is None else now)
    if (made.tm_year, made.tm_yday) == (today.tm_year, today.tm_yday):
        return f"from an earlier run (today, {made.tm_hour:02d}:{made.tm_min:02d})"
    day = f"{made.tm_mday} {_MONTHS[made.tm_mon - 1]}"
    if made.tm_year != today.tm_year:
        day += f" {made.tm_year}"
    return f"from an earlier evening ({day})"


def presence_text(presence: "Presence | None", now: float | None = None) -> str:
    """How a seat's phones are connected, in plain words."""
    if presence is not None and presence.connected:
        return f"connected ({count_words(presence.connected, 'device')})"
    if presence is None or (not presence.paired and presence.last_seen is None):
        return "never connected"
    seen = ""
    if presence.last_seen is not None:
        now = time.time() if now is None else now
        seen = f" — last seen {_ago(now - presence.last_seen)}"
    if presence.paired:
        return f"paired, not connected now{seen}"
    return f"not paired with its current link{seen}"  # a new link was made since


def phones_connected(link: TableLink | None) -> int:
    if link is None or not link.running:
        return 0
    return _connected(link.presence())


def _connected(presence: "dict[str, Presence]") -> int:
    return sum(p.connected for p in presence.values())


def _phones(n: int) -> str:
    return "no phone connected" if n == 0 else f"{count_words(n, 'phone')} connected"


def _address(link: TableLink) -> str:
    """The address the link listens on ("" when it does not)."""
    return link.addresses[0] if link.addresses else ""


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _button(text: str, slot, tip: str = "") -> QPushButton:
    """A button of the dialog that Enter does not press (Enter adds a seat from the form)."""
    button = QPushButton(text)
    button.setAutoDefault(False)
    if tip:
        button.setToolTip(tip)
    button.clicked.connect(slot)
    return button


def qr_pixmap(text: str, scale: int = QR_SCALE, device_pixel_ratio: float = 1.0) -> QPixmap:
    """``text`` as a QR code (error correction M), crisp at the screen's pixel ratio."""
    import io

    import segno
    ratio = max(1.0, device_pixel_ratio)
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=max(1, round(scale * ratio)), border=2)
    pixmap = QPixmap()
    pixmap.loadFromData(buffer.getvalue(), "PNG")
    pixmap.setDevicePixelRatio(round(scale * ratio) / scale)
    return pixmap


def make_link(doc: "SessionDocument") -> TableLink:
    """The Table Link of a window's document (not started): the seats of its session file
    from the user's state folder (an unsaved document's: in memory), a phone's step
    applied as one undo step of the document. Call on the UI thread. ValueError when the
    session's uid cannot name the seats' file."""
    book = SeatBook(doc.session.uid, path=doc.path)
    # The referee's phone names the step it undoes; the window's question is not asked of
    # it (the referee is the one asking), but its request waits while the window asks.
    # A phone is answered once its change is in the journal on disk (doc.durable).
    link = TableLink(doc.session, book, QtAuthority(gate=doc), doc.apply,
                     functools.partial(doc.undo, ask=False), durable=doc.durable,
                     behind_window=True)
    if doc.recovered_at:
        link.notice = recovered_notice(doc.recovered_at)
    return link


# -- the window's side ----------------------------------------------------------------------
class ShareIndicator(QToolButton):
    """"Sharing · 2 phones connected" in the status bar while the window shares; a click
    opens Share with the Table."""

    def __init__(self, window):
        super().__init__()
        self._window = window
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAccessibleName("Table Link sharing")
        self.clicked.connect(lambda: self._window.share_with_table())
        self._timer = QTimer(self)
        self._timer.setInterval(PRESENCE_MS)
        self._timer.timeout.connect(self.refresh)
        self.hide()

    def refresh(self) -> None:
        link = self._window.table_link
        if link is None or not link.running:
            self._timer.stop()
            self.hide()
            return
        self.setText(f"Sharing · {_phones(phones_connected(link))}")
        tip = (f"This session is shared with the table on {_address(link)}, port {link.port}.\n"
               "Click to see the seats and their links (Session ▸ Share with the Table…).")
        if tip != self.toolTip():  # read twice a second: set only when it changes
            self.setToolTip(tip)
        if not self._timer.isActive():
            self._timer.start()
        self.show()


def show_sharing(window) -> None:
    """The window's sharing chrome after a start or stop: the status-bar indicator and
    Session ▸ Stop Sharing."""
    link = window.table_link
    running = link is not None and link.running
    window.act_stop_sharing.setEnabled(running)
    indicator = window.share_indicator
    if indicator is None and running:
        indicator = window.share_indicator = ShareIndicator(window)
        window.statusBar().insertPermanentWidget(0, indicator)
    if indicator is not None:
        indicator.refresh()
    dialog = window.share_dialog
    if dialog is not None:
        dialog.refresh_state()


def open_share_dialog(window) -> "ShareDialog":
    """Session ▸ Share with the Table…: the window's dialog (made on first use), shown."""
    if window.table_link is None:
        window.table_link = make_link(window.doc)
        window.table_link.on_event = functools.partial(told, window)
    dialog = window.share_dialog
    if dialog is None:
        dialog = window.share_dialog = ShareDialog(window.doc, window.table_link, window)
        dialog.sharing_changed.connect(lambda: show_sharing(window))
        after_first_paint(dialog, load_server_meanwhile)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog


def load_server_meanwhile() -> None:
    """Load the web server's module (``share/server.py`` and aiohttp: about a fifth of a
    second) on a thread of its own, once the sharing dialog has painted: the dialog opened
    without waiting for it, and Start, which needs it, finds it loaded by the time the
    referee has read the dialog. A failure is left to Start, which loads it again and says
    why (``TableLink.start``)."""
    if "shipsheet.share.server" in sys.modules:
        return

    def load() -> None:
        try:
            importlib.import_module("shipsheet.share.server")
        except Exception:  # noqa: BLE001 - said by Start, which loads it again
            pass
    threading.Thread(target=load, name="load-table-server", daemon=True).start()


def end_sharing(window) -> None:
    """The window's session closes (or the window does): sharing stops, the dialog goes."""
    link, window.table_link = window.table_link, None
    dialog, window.share_dialog = window.share_dialog, None
    if link is not None:
        link.stop()
    if dialog is not None:
        dialog.close()
        dialog.deleteLater()
    show_sharing(window)


# -- what the referee is told while a table is reached from outside ----------------------------
def told(window, event: dict) -> None:
    """An event of the table (the UI thread): a device waiting for a seat is asked about,
    not modally ("A new device wants Blue's seat — allow?"); a seat whose joining locked
    is said, with Open Joining; a device that joined is said in the status bar."""
    link = window.table_link
    if link is None:
        return
    kind, seat = event.get("kind"), str(event.get("seat", ""))
    where = f"{event.get('device', 'a device')}, from {event.get('from', 'somewhere')}"
    if kind == "joined":
        window.statusBar().showMessage(f"A new device joined {seat}'s seat ({where}).", 10_000)
    elif kind == "join":
        ask_about_device(window, link, str(event.get("join", "")), seat, where)
    elif kind == "locked":
        say_locked(window, link, str(event.get("seat_id", "")), seat, str(event.get("from", "")))


def _answer_box(window, title: str, text: str, detail: str, yes: str, no: str) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton,
                      window)
    box.setTextFormat(Qt.TextFormat.PlainText)  # a seat's name is the referee's, but plain
    box.setInformativeText(detail)
    box.setWindowModality(Qt.WindowModality.NonModal)  # the table goes on meanwhile
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.yes = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    box.no = box.addButton(no, QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(box.no)  # Enter by accident lets no one in
    return box


def _said_in_status_bar(window, link: TableLink, ask) -> None:
    """Ask the server (``ask()``: a future of words) and say its answer, or why not, in the
    window's status bar."""
    try:
        future = ask()
    except ValueError as exc:
        window.statusBar().showMessage(str(exc), 10_000)
        return
    future.add_done_callback(lambda f: link.authority.call(
        lambda: window.statusBar().showMessage(
            str(f.exception()) if f.exception() else f.result(), 10_000)))


def ask_about_device(window, link: TableLink, join_id: str, seat: str, where: str) -> QMessageBox:
    """"A new device wants Blue's seat — allow?" (non-modal): Allow or Refuse answers it."""
    box = _answer_box(window, "A New Device", f"A new device wants {seat}'s seat — allow?",
                      f"{where}.\nAllow it only if it is your player's: a link that was "
                      "forwarded or seen by others gets a stranger this far and no further.",
                      "Allow", "Refuse")
    box.setObjectName("join-question")
    box.buttonClicked.connect(lambda button: _said_in_status_bar(
        window, link, lambda: link.decide_join(join_id, button is box.yes)))
    box.show()
    return box


def say_locked(window, link: TableLink, seat_id: str, seat: str, source: str) -> QMessageBox:
    """A seat's joining locked after a burst of wrong links: said, with Open Joining."""
    box = _answer_box(window, "Joining Locked", f"Joining {seat}'s seat is locked.",
                      f"Too many wrong links were tried for it (the last from {source}). Its "
                      "phones go on working. Open joining again when your player's new device "
                      "is ready, or give the seat a New Link.", "Open Joining", "Keep Locked")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setObjectName("joining-locked")
    box.buttonClicked.connect(lambda button: button is box.yes and _said_in_status_bar(
        window, link, lambda: link.open_joining(seat_id)))
    box.show()
    return box


# -- the dialog -------------------------------------------------------------------------------
class ShareDialog(QDialog):
    """Share the window's session with the players' phones: address, seats, links."""

    #: Sharing started or stopped (the window updates its status bar and menu).
    sharing_changed = Signal()

    def __init__(self, doc: "SessionDocument", link: TableLink, parent: QWidget | None = None,
                 candidates: list[Candidate] | None = None):
        super().__init__(parent)
        self.doc = doc
        self.link = link
        self.book = link.book
        self.setWindowTitle("Share with the Table")
        self.setAccessibleName("Share with the Table")
        self.setModal(False)
        self._suggested = ""  # the new seat's name as suggested (replaced while untouched)
        self._error = ""  # why sharing could not start (kept until the next start or stop)
        self._qr_shown = None  # (link, pixel ratio) of the QR code on show: made once each

        # -- where: address, port, start/stop -------------------------------------------
        self.address = QComboBox()
        self.address.setToolTip("The address of this computer that phones will reach. The likely "
                                "one comes first; choose another when phones cannot connect "
                                "(a VPN or a virtual network may come first by mistake).")
        for c in candidates if candidates is not None else candidate_addresses():
            self.address.addItem(c.label, c.address)
        self.address.currentIndexChanged.connect(self._address_changed)
        self.port_label = QLabel()
        self.port_label.setAccessibleName("Port")
        self.start_button = _button("Start Sharing", self.toggle)
        self.state_label = plain_label()
        self.state_label.setWordWrap(True)
        self.state_label.setAccessibleName("Sharing state")
        self.problem_label = plain_label(self.book.problem)
        self.problem_label.setWordWrap(True)
        self.problem_label.setVisible(bool(self.book.problem))

        where = QGridLayout()
        address_label = QLabel("&Address:")
        address_label.setBuddy(self.address)
        where.addWidget(address_label, 0, 0)
        where.addWidget(self.address, 0, 1)
        where.addWidget(QLabel("Port:"), 0, 2)
        where.addWidget(self.port_label, 0, 3)
        where.addWidget(self.start_button, 0, 4)
        where.setColumnStretch(1, 1)
        where.addWidget(self.state_label, 1, 0, 1, 5)
        where.addWidget(self.problem_label, 2, 0, 1, 5)

        # -- players at home: a tunnel or proxy the referee has ---------------------------
        # One row (the dialog fits a laptop's screen): ticked, the fields apply.
        reach = self.book.reach
        self.reach_box = QCheckBox("Players at &home, at:")
        self.reach_box.setChecked(bool(reach.get("public_url")))
        self.reach_box.setToolTip("Friends at home reach this table through a tunnel or proxy "
                                  "you have (Tailscale Funnel, a Cloudflare tunnel, Caddy): "
                                  "see the README, \"Players at home\".")
        self.public_edit = QLineEdit(str(reach.get("public_url", "")))
        self.public_edit.setPlaceholderText("https://table.example.net")
        self.public_edit.setAccessibleName("Public address")
        self.public_edit.setToolTip("The address your tunnel or proxy gives you: the links and "
                                    "codes carry it, and it alone is answered besides this "
                                    "network's.")
        self.proxy_edit = QLineEdit(", ".join(reach.get("proxies", [])))
        self.proxy_edit.setPlaceholderText("127.0.0.1")
        self.proxy_edit.setAccessibleName("Trusted proxy")
        self.proxy_edit.setToolTip("The address the tunnel or proxy connects from (127.0.0.1 "
                                   "when it runs on this computer): what it says of each player "
                                   "is believed, nobody else's. Empty: 127.0.0.1.")
        self.approve_check = QCheckBox("New devices wait for my yes")
        self.approve_check.setChecked(reach.get("approve_joins", True) is not False)
        self.approve_check.setToolTip("A phone opening a seat's link is let in only when you "
                                      "allow it: a link forwarded to a stranger gets no further.")
        proxy_label = QLabel("&Trusted proxy:")
        proxy_label.setBuddy(self.proxy_edit)
        reach_row = QHBoxLayout()
        reach_row.addWidget(self.reach_box)
        reach_row.addWidget(self.public_edit, 3)
        reach_row.addWidget(proxy_label)
        reach_row.addWidget(self.proxy_edit, 1)
        reach_row.addWidget(self.approve_check)
        self.reach_box.toggled.connect(self._reach_changed)
        self.public_edit.editingFinished.connect(self._reach_changed)
        self.proxy_edit.editingFinished.connect(self._reach_changed)
        self.approve_check.toggled.connect(self._reach_changed)
        where.addLayout(reach_row, 3, 0, 1, 5)
        for widget in (self.public_edit, self.proxy_edit, self.approve_check):
            widget.setEnabled(self.reach_box.isChecked())

        # -- the seats ---------------------------------------------------------------------
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Seat", "Role", "Controls", "Phones"])
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.table.setColumnWidth(0, SEAT_COLUMN)
        self.table.setColumnWidth(2, 120)
        self.table.setMinimumHeight(150)
        self.table.itemSelectionChanged.connect(self._show_selected)

        self.new_name = QLineEdit()
        self.new_name.setMaxLength(MAX_NAME)
        self.new_name.setPlaceholderText("Name of the new seat")
        self.new_name.returnPressed.connect(self.add_from_form)
        self.new_role = QComboBox()
        for role in ROLES:
            self.new_role.addItem(ROLE_TITLES[role], role)
        self.add_button = _button("Add Seat", self.add_from_form,
                                  "A seat with this name and role. A player seat named after a "
                                  "side controls that side's ships.")
        self.per_side_button = _button("Add a Seat per Side", self.add_seat_per_side,
                                       "A player seat for each side that has none yet")
        self.remove_button = _button("Remove Seat…", self.remove_selected)
        self.renew_button = _button("New Link…", self.renew_selected,
                                    "A new link and code for the seat (a phone was lost or the "
                                    "link was shared too widely): its phones are closed out.")

        adding = QHBoxLayout()
        adding.addWidget(self.new_name, 1)
        adding.addWidget(self.new_role)
        adding.addWidget(self.add_button)
        adding.addWidget(self.per_side_button)

        # the selected seat
        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(MAX_NAME)
        self.name_edit.editingFinished.connect(self._rename)
        self.role_combo = QComboBox()
        for role in ROLES:
            self.role_combo.addItem(ROLE_TITLES[role], role)
        self.role_combo.activated.connect(self._set_role)
        self.may_mark = QCheckBox("May mark damage")
        self.may_mark.setToolTip("Players may not mark damage unless this is ticked: the referee "
                                 "does. A referee seat may.")
        self.may_mark.toggled.connect(self._set_mark)
        self.sides_list = QListWidget()
        self.sides_list.setAccessibleName("Sides the seat controls")
        self.sides_list.itemChanged.connect(self._sides_ticked)
        self.ships_list = QListWidget()
        self.ships_list.setAccessibleName("Ships the seat controls")
        self.ships_list.itemChanged.connect(self._ships_ticked)
        for lst in (self.sides_list, self.ships_list):
            lst.setMinimumHeight(70)
            lst.setMaximumHeight(130)
        self.seat_message = plain_label()
        self.seat_message.setWordWrap(True)
        self.seat_message.setAccessibleName("Seat message")
        self.earlier_label = plain_label()
        self.earlier_label.setWordWrap(True)
        self.earlier_label.setAccessibleName("When the seat's link was made")
        self.earlier_label.hide()

        editor = QGridLayout()
        editor.addWidget(QLabel("Name:"), 0, 0)
        editor.addWidget(self.name_edit, 0, 1)
        editor.addWidget(QLabel("Role:"), 0, 2)
        editor.addWidget(self.role_combo, 0, 3)
        editor.addWidget(self.may_mark, 0, 4)
        lists = QHBoxLayout()
        for title, lst in (("Sides it controls:", self.sides_list), ("Ships it controls:", self.ships_list)):
            column = QVBoxLayout()
            column.addWidget(QLabel(title))
            column.addWidget(lst)
            lists.addLayout(column)
        editor.addWidget(self.earlier_label, 1, 0, 1, 5)
        editor.addLayout(lists, 2, 0, 1, 5)
        editor.setColumnStretch(1, 1)
        self.editor_box = QGroupBox("Selected seat")
        self.editor_box.setLayout(editor)

        seat_buttons = QHBoxLayout()
        seat_buttons.addWidget(self.remove_button)
        seat_buttons.addWidget(self.renew_button)
        seat_buttons.addStretch(1)

        seats = QVBoxLayout()
        seats.addWidget(self.table, 1)
        seats.addLayout(adding)
        seats.addLayout(seat_buttons)
        seats.addWidget(self.editor_box)
        seats.addWidget(self.seat_message)
        self.seats_box = seats_box = QGroupBox(self._seats_title())
        seats_box.setLayout(seats)

        # -- the selected seat's link and code ------------------------------------------
        self.qr_label = QLabel()
        self.qr_label.setAccessibleName("QR code of the seat's link")
        self.qr_label.setFixedSize(QR_BOX, QR_BOX)
        self.qr_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.qr_label.setWordWrap(True)
        self.qr_name = plain_label()
        self.qr_name.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.qr_name.setAccessibleName("Seat of the code")
        font = QFont(self.qr_name.font())
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.qr_name.setFont(font)
        self.url_edit = QLineEdit()
        self.url_edit.setReadOnly(True)
        self.url_edit.setAccessibleName("The seat's link")
        self.url_edit.setPlaceholderText("Start sharing to get the seat's link")
        self.copy_button = _button("Copy", self.copy_link,
                                   "Copy the link (send it only to this seat's player: it opens "
                                   "the seat)")
        self.note = plain_label()
        self.note.setWordWrap(True)

        url_row = QHBoxLayout()
        url_row.addWidget(self.url_edit, 1)
        url_row.addWidget(self.copy_button)
        code = QVBoxLayout()
        code.addWidget(self.qr_label, 0, Qt.AlignmentFlag.AlignHCenter)
        code.addWidget(self.qr_name)
        code.addLayout(url_row)
        code.addWidget(self.note)
        code.addStretch(1)
        code_box = QGroupBox("The seat's link")
        code_box.setLayout(code)
        code_box.setFixedWidth(QR_BOX + 40)

        middle = QHBoxLayout()
        middle.addWidget(seats_box, 1)
        middle.addWidget(code_box)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)

        layout = QVBoxLayout(self)
        layout.addLayout(where)
        layout.addLayout(middle, 1)
        layout.addWidget(buttons)

        self._timer = QTimer(self)
        self._timer.setInterval(PRESENCE_MS)
        self._timer.timeout.connect(self.refresh_presence)
        self._ships_seen = self._ships_signature()
        doc.changed.connect(self._session_changed)
        doc.path_changed.connect(self._path_changed)

        self._select_running_address()
        self._fill_seats()
        self._suggest_name()
        self.refresh_state()
        fit_to_screen(self, 960, 640)

    # -- lifetime ------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        self.refresh_state()
        self.refresh_presence()
        self._timer.start()
        super().showEvent(event)
        QTimer.singleShot(0, self._fit_seat_column)  # once the table has its width

    def hideEvent(self, event) -> None:
        self._timer.stop()
        super().hideEvent(event)

    # -- sharing ---------------------------------------------------------------------------------
    def _select_running_address(self) -> None:
        """When the link already runs, its address is the one shown."""
        if not self.link.running or not self.link.addresses:
            return
        address = self.link.addresses[0]
        index = self.address.findData(address)
        if index < 0:
            self.address.addItem(address, address)
            index = self.address.count() - 1
        self.address.blockSignals(True)
        self.address.setCurrentIndex(index)
        self.address.blockSignals(False)

    def select_address(self, address: str) -> bool:
        """Choose ``address`` in the list (restarts sharing there when sharing)."""
        index = self.address.findData(address)
        if index >= 0:
            self.address.setCurrentIndex(index)
        return index >= 0

    def toggle(self) -> None:
        if self.link.running:
            self.stop()
        else:
            self.start()

    def exposure(self) -> Exposure:
        """How the table is reached, from the Players at home fields (ValueError says what is
        wrong in them)."""
        if not self.reach_box.isChecked():
            return Exposure()
        public = self.public_edit.text().strip()
        if not public:
            raise ValueError("Players at home need the public address your tunnel or proxy "
                             "gives you (https://…)")
        return Exposure.from_options(public, self._proxies() or ["127.0.0.1"],
                                     approve_joins=self.approve_check.isChecked())

    def _proxies(self) -> list[str]:
        """The trusted proxies as typed (a comma between two)."""
        return [p.strip() for p in self.proxy_edit.text().split(",") if p.strip()]

    def _keep_reach(self) -> None:
        """The Players at home fields, kept with the seats for the next evening."""
        reach = ({"public_url": self.public_edit.text().strip(),
                  "proxies": self._proxies(),
                  "approve_joins": self.approve_check.isChecked()}
                 if self.reach_box.isChecked() else {})
        if reach != self.book.reach:
            self.book.reach = reach
            try:
                self.book.save()
            except OSError:
                pass  # kept for this run; the seats' own save says when the folder fails

    def _reach_changed(self, *_args) -> None:
        on = self.reach_box.isChecked()
        for widget in (self.public_edit, self.proxy_edit, self.approve_check):
            widget.setEnabled(on)
        self._keep_reach()
        if self.link.running:
            self.start(self.link.port)  # the same port when it is still free
        else:
            self.refresh_state()

    def start(self, port: int | None = None) -> bool:
        """Listen on the chosen address (at ``port``, else the port this table had, when it
        is free), and on 127.0.0.1 too when players at home come through a tunnel on this
        computer. False, with the reason in the dialog, when it cannot."""
        address = self.address.currentData()
        if port is None:
            port = self.link.port or self.book.port
        try:
            exposure = self.exposure()
        except ValueError as exc:
            self._error = (f"Players at home are not let in: {exc}. Sharing goes on as before."
                           if self.link.running else f"Sharing did not start: {exc}.")
            self.sharing_changed.emit()
            self.refresh_state()
            return False
        addresses = [address]
        if exposure.public is not None and address != "127.0.0.1" and exposure.trusts("127.0.0.1"):
            addresses.append("127.0.0.1")  # where a tunnel on this computer reaches the table
        self.link.exposure = exposure
        try:
            self.link.start(addresses, port)
        except (OSError, ValueError) as exc:
            why = _why(exc) if isinstance(exc, OSError) else str(exc)
            self._error = (f"Sharing could not start on {address}: {why}. Choose another "
                           "address, or try again after closing the program that uses the port.")
            ok = False
        else:
            self._error = ""
            ok = True
        self.sharing_changed.emit()
        self.refresh_state()
        return ok

    def stop(self) -> None:
        self.link.stop()
        self._error = ""
        self.sharing_changed.emit()
        self.refresh_state()

    def _address_changed(self, *_args) -> None:
        if self.link.running:
            self.start(self.link.port)  # the same port when it is still free
        else:
            self.refresh_state()

    def refresh_state(self) -> None:
        """The start button, the port, the state line, the note and the selected seat's link."""
        running = self.link.running
        self.start_button.setText("Stop Sharing" if running else "Start Sharing")
        port = self.link.port if running else self.book.port
        self.port_label.setText(str(port) if port else "chosen when sharing starts")
        if self._error:
            self.state_label.setText(self._error)
        elif running:
            self.state_label.setText(self._sharing_line(self.link.presence()))
        else:
            self.state_label.setText("Not sharing. Start Sharing, then let each player scan "
                                     "their seat's code with the phone's camera.")
        shown_port = str(port) if port else "shown above"
        if self.reach_box.isChecked():
            self.note.setText("Players at home open the link at the public address; your tunnel "
                              f"or proxy must forward it to this computer's port {shown_port}. "
                              "Send each link only to its player.")
        else:
            self.note.setText("Phones must be on the same network as this computer. A phone that "
                              "never connects: check the Wi-Fi does not isolate devices and the "
                              f"firewall allows port {shown_port}.")
        self._show_code()

    # -- whose seats ------------------------------------------------------------------------------
    def _seats_title(self) -> str:
        """The seats' group title: the session file they belong to."""
        mine = self.book.session_path
        if mine is None:
            return "Seats (kept with the session's file once it is saved)"
        now = self.doc.path
        if now is not None and Path(now).resolve() != mine:
            return f"Seats of {mine.name}, as shared ({Path(now).name} has seats of its own)"
        return f"Seats of {mine.name}"

    def _path_changed(self) -> None:
        """The document was saved under a name: an unsaved session's seats go with its file
        (saved there now); a table of a saved file keeps that file's seats (a Save As starts
        the new file with none of its own, used when it is next shared)."""
        path = self.doc.path
        if path is not None and self.book.path is None:
            try:
                self.book.keep_with(path)
            except OSError as exc:
                problem = f"The table's seats could not be saved: {_why(exc)}"
                self.problem_label.setText(problem)
                self.problem_label.setVisible(True)
        self.seats_box.setTitle(self._seats_title())

    # -- seats ----------------------------------------------------------------------------------
    def selected_seat(self) -> Seat | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return self.book.seat(item.data(ID_ROLE)) if item is not None else None

    def select_seat(self, seat_id: str) -> None:
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(ID_ROLE) == seat_id:
                self.table.selectRow(row)
                return

    def _controls(self, seat: Seat) -> str:
        if seat.role == REFEREE:
            return "all ships"
        names = {s.id: s.name for s in self.doc.session.ships}
        parts = list(seat.sides) + [names.get(i, "(a ship no longer here)") for i in seat.ships]
        if not parts:
            return "sees all ships" if seat.role == SPECTATOR else "nothing yet"
        return ", ".join(parts)

    def _fill_seats(self) -> None:
        """The table from the seat book (keeping the selected seat)."""
        keep = self.selected_seat()
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        seats = list(self.book.seats)
        self.table.setRowCount(len(seats))
        for row, seat in enumerate(seats):
            for column in range(self.table.columnCount()):
                self.table.setItem(row, column, QTableWidgetItem(""))
            self.table.item(row, 0).setData(ID_ROLE, seat.id)
            self._show_row(row, seat)
        self.table.blockSignals(False)
        self._fit_seat_column()
        if keep is not None and self.book.seat(keep.id) is not None:
            self.select_seat(keep.id)
        elif self.table.rowCount():
            self.table.selectRow(0)
        self._show_selected()
        self.refresh_presence()

    def _sharing_line(self, presence: "dict[str, Presence]") -> str:
        public = self.link.exposure.public
        reached = f", reached at {public.origin}" if public is not None else ""
        return (f"Sharing on {_address(self.link)}, port {self.link.port}{reached} · "
                f"{_phones(_connected(presence))}.")

    def refresh_presence(self) -> None:
        """Each seat's phones, and the state line's count (every half second while shown:
        the server is read once, and a row is set only when its words change)."""
        running = self.link.running
        presence = self.link.presence() if running else {}
        now = time.time()
        for row in range(self.table.rowCount()):
            seat_id = self.table.item(row, 0).data(ID_ROLE)
            text = presence_text(presence.get(seat_id), now) if running else "not sharing"
            item = self.table.item(row, 3)
            if item.text() != text:
                item.setText(text)
                item.setToolTip(text)
        if running and not self._error:
            self.state_label.setText(self._sharing_line(presence))

    def presence_of(self, seat_id: str) -> str:
        """The Phones column of a seat, as shown."""
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(ID_ROLE) == seat_id:
                return self.table.item(row, 3).text()
        return ""

    def _ships_signature(self) -> tuple:
        return tuple((s.id, s.name, s.side) for s in self.doc.session.ships)

    def _session_changed(self) -> None:
        """Ships added, removed, renamed or moved to another side: the lists and names
        follow (a mark on a sheet changes nothing here, and leaves the editor alone)."""
        signature = self._ships_signature()
        if signature == self._ships_seen:
            return
        self._ships_seen = signature
        self._fill_seats()
        self._suggest_name()

    def _unseated_sides(self) -> list[str]:
        seated = {side for s in self.book.seats if s.role == PLAYER for side in s.sides}
        return [side for side in self.doc.session.sides if side not in seated]

    def _suggest_name(self) -> None:
        """The next side without a player seat, as the new seat's name (a name the user
        typed stays)."""
        free = self._unseated_sides()
        self.per_side_button.setEnabled(bool(free))
        if self.new_name.text() not in ("", self._suggested):
            return
        self._suggested = free[0][:MAX_NAME] if free else ""
        self.new_name.setText(self._suggested)
        self.new_role.setCurrentIndex(self.new_role.findData(PLAYER))

    def _saved(self) -> None:
        """After a seat changed: saved, phones told; a save that failed is said."""
        problem = self.link.seats_changed()
        self.problem_label.setText(problem)
        self.problem_label.setVisible(bool(problem))

    def add_seat(self, name: str, role: str = PLAYER, *, sides=(), ships=()) -> Seat | None:
        """Add a seat (a player named after a side it does not list gets that side)."""
        if role == PLAYER and not sides and not ships and name.strip() in self.doc.session.sides:
            sides = (name.strip(),)
        try:
            seat = self.book.add(name, role, sides=sides, ships=ships)
        except RuleViolation as exc:
            self.seat_message.setText(str(exc))
            return None
        self._saved()
        self.seat_message.setText("")
        if self.new_name.text().strip() == seat.name:
            self.new_name.setText("")  # the form is ready for the next seat
        self._fill_seats()
        self.select_seat(seat.id)
        self._suggest_name()
        return seat

    def add_from_form(self) -> Seat | None:
        return self.add_seat(self.new_name.text(), self.new_role.currentData())

    def add_seat_per_side(self) -> list[Seat]:
        """A player seat for every side no player seat controls yet."""
        made, problems = [], []
        for side in self._unseated_sides():
            name = side[:MAX_NAME]
            if any(s.name.casefold() == name.casefold() for s in self.book.seats):
                name = f"{side[:MAX_NAME - 9]} (player)"
            try:
                made.append(self.book.add(name, PLAYER, sides=(side,)))
            except RuleViolation as exc:
                problems.append(str(exc))
        if made:
            self._saved()
        self.seat_message.setText(" ".join(problems))
        self._fill_seats()
        if made:
            self.select_seat(made[0].id)
        self._suggest_name()
        return made

    def confirm(self, title: str, text: str) -> bool:
        """Ask before closing out a seat's phones (tests answer through QMessageBox)."""
        answer = QMessageBox.question(self, title, text,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def _confirmed_seat(self, title: str, question: str) -> Seat | None:
        """The selected seat, once the user said Yes to ``question`` (``{name}``: its name)."""
        seat = self.selected_seat()
        if seat is None or not self.confirm(title, question.format(name=seat.name)):
            return None
        return seat

    def remove_selected(self) -> bool:
        seat = self._confirmed_seat("Remove Seat", "Remove the seat “{name}”?\n\nIts link "
                                    "stops working and its phones are closed out at once.")
        if seat is None:
            return False
        self.link.remove(seat.id)
        self._fill_seats()
        self._suggest_name()
        return True

    def renew_selected(self) -> bool:
        """New Link…: a new secret for the seat; the phones holding the old one are closed out."""
        seat = self._confirmed_seat("New Link", "Give “{name}” a new link?\n\nThe phones using "
                                    "its current link are closed out at once and must scan the "
                                    "new code.")
        if seat is None:
            return False
        self.link.revoke(seat.id)
        self.seat_message.setText(f"“{seat.name}” has a new link; the old one no longer opens it.")
        self._refresh_rows()  # a seat from an earlier evening is tonight's now
        self._show_selected()
        return True

    # -- the selected seat -----------------------------------------------------------------------
    def _show_selected(self) -> None:
        seat = self.selected_seat()
        for w in (self.editor_box, self.remove_button, self.renew_button):
            w.setEnabled(seat is not None)
        widgets = (self.name_edit, self.role_combo, self.may_mark, self.sides_list, self.ships_list)
        for w in widgets:
            w.blockSignals(True)
        try:
            self.sides_list.clear()
            self.ships_list.clear()
            earlier = earlier_text(seat) if seat is not None else ""
            self.earlier_label.setText(f"Its link is {earlier}: that evening's link and phones "
                                       "still open it. New Link if they should not."
                                       if earlier else "")
            self.earlier_label.setVisible(bool(earlier))
            if seat is None:
                self.name_edit.setText("")
                self.may_mark.setChecked(False)
            else:
                self.name_edit.setText(seat.name)
                self.role_combo.setCurrentIndex(self.role_combo.findData(seat.role))
                self.may_mark.setChecked(seat.may("mark"))
                self._fill_lists(seat)
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._show_code()

    def _fill_lists(self, seat: Seat) -> None:
        """The sides and ships ``seat`` may control, ticked as it does (also those no longer
        in the session); a referee's lists are off: it controls every ship."""
        session = self.doc.session
        for side in [*session.sides, *(s for s in seat.sides if s not in session.sides)]:
            text = side if side in session.sides else f"{side} (no ships now)"
            self._add_checkable(self.sides_list, text, side, side in seat.sides)
        for ship in session.ships:
            text = ship.name + (f" · {ship.side}" if ship.side else "")
            self._add_checkable(self.ships_list, text, ship.id, ship.id in seat.ships)
        known = {s.id for s in session.ships}
        for ship_id in seat.ships:
            if ship_id not in known:
                self._add_checkable(self.ships_list, "(a ship no longer in the session)",
                                    ship_id, True)
        referee = seat.role == REFEREE
        tip = "The referee's seat controls every ship." if referee else ""
        for lst in (self.sides_list, self.ships_list):
            lst.setEnabled(not referee)
            lst.setToolTip(tip)

    @staticmethod
    def _add_checkable(lst: QListWidget, text: str, value: str, checked: bool) -> None:
        item = QListWidgetItem(text)
        item.setData(ID_ROLE, value)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        lst.addItem(item)

    def _show_code(self) -> None:
        """The selected seat's link and QR code (when sharing)."""
        seat = self.selected_seat()
        self.qr_name.setText(seat.name if seat is not None else "")
        if seat is None or not self.link.running:
            self.url_edit.setText("")
            self.copy_button.setEnabled(False)
            self.qr_label.setPixmap(QPixmap())
            self.qr_label.setText("Add a seat to show its code." if seat is None
                                  else "Start Sharing to show the seat's code.")
            self._qr_shown = None
            return
        url = self.link.url(seat)
        self.url_edit.setText(url)
        self.url_edit.setCursorPosition(0)
        self.copy_button.setEnabled(True)
        shown = (url, self.devicePixelRatioF())
        if shown != self._qr_shown:  # the code is made again only for another link
            self.qr_label.setPixmap(qr_pixmap(url, QR_SCALE, shown[1]))
            self._qr_shown = shown

    def copy_link(self) -> None:
        if self.url_edit.text():
            QGuiApplication.clipboard().setText(self.url_edit.text())
            self.seat_message.setText("Link copied: send it only to this seat's player.")

    def _update(self, *, editor: bool = False, **changes) -> bool:
        """Change the selected seat through the seat book; a refusal is said (and the editor
        shows the seat as it is). ``editor``: show the seat again in the editor after."""
        seat = self.selected_seat()
        if seat is None:
            return False
        try:
            self.book.update(seat.id, **changes)
        except RuleViolation as exc:
            self.seat_message.setText(str(exc))
            self._show_selected()
            return False
        self.seat_message.setText("")
        self._saved()
        self._refresh_rows()
        if editor:
            self._show_selected()
        self._suggest_name()
        return True

    def _refresh_rows(self) -> None:
        """Each row's name, role and what it controls, from the seat book (same seats)."""
        for row in range(self.table.rowCount()):
            seat = self.book.seat(self.table.item(row, 0).data(ID_ROLE))
            if seat is not None:
                self._show_row(row, seat)

    def _fit_seat_column(self) -> None:
        """Wide enough for "Blue — from an earlier evening (3 Dec)" when a seat says it."""
        if any(seat.earlier for seat in self.book.seats):
            table = self.table
            table.resizeColumnToContents(0)
            phones = table.fontMetrics().horizontalAdvance("never connected") + 16
            room = table.viewport().width() - table.columnWidth(1) - table.columnWidth(2) - phones
            table.setColumnWidth(0, max(SEAT_COLUMN, min(table.columnWidth(0), room)))

    def _show_row(self, row: int, seat: Seat) -> None:
        controls = self._controls(seat)
        earlier = earlier_text(seat)
        name = self.table.item(row, 0)
        name.setText(f"{seat.name} — {earlier}" if earlier else seat.name)
        name.setToolTip(f"{seat.name} — {earlier}: its link, and the phones it paired then, "
                        "still open it. Give it a New Link if they should not."
                        if earlier else seat.name)
        self.table.item(row, 1).setText(ROLE_TITLES[seat.role])
        self.table.item(row, 2).setText(controls)
        self.table.item(row, 2).setToolTip(controls)

    def _rename(self) -> None:
        seat = self.selected_seat()
        if seat is not None and self.name_edit.text() != seat.name:
            self._update(name=self.name_edit.text(), editor=True)

    def _set_role(self, *_args) -> None:
        seat = self.selected_seat()
        role = self.role_combo.currentData()
        if seat is not None and role != seat.role:
            self._update(role=role, rights=None, editor=True)  # the new role's own rights

    def _set_mark(self, on: bool) -> None:
        seat = self.selected_seat()
        if seat is None:
            return
        base = DEFAULT_RIGHTS[seat.role]
        rights = base | {"mark"} if on else base - {"mark"}
        self._update(rights=None if rights == base else rights)

    @staticmethod
    def _ticked(lst: QListWidget) -> list[str]:
        return [lst.item(i).data(ID_ROLE) for i in range(lst.count())
                if lst.item(i).checkState() == Qt.CheckState.Checked]

    def _sides_ticked(self, *_args) -> None:
        self._update(sides=self._ticked(self.sides_list))

    def _ships_ticked(self, *_args) -> None:
        self._update(ships=self._ticked(self.ships_list))

    def set_ticked(self, lst: QListWidget, values) -> None:
        """Tick exactly ``values`` (side names or ship ids) in a list, as a user would."""
        for i in range(lst.count()):
            item = lst.item(i)
            state = Qt.CheckState.Checked if item.data(ID_ROLE) in values else Qt.CheckState.Unchecked
            if item.checkState() != state:
                item.setCheckState(state)
