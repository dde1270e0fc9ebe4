"""The dialogs of File ▸ PBEM (the play-by-e-mail desk, ``shipsheet/pbem/DESK.md``).

Players… (:class:`PlayersDialog`), the import report (:class:`ImportReportDialog`), the
warnings before a player's orders are written (:class:`OrdersWarningsDialog`), the turn
reports' options and results (:class:`ReportOptionsDialog`, :class:`TurnReportsDialog`)
and Verify Dice… (:class:`VerifyDiceDialog`). Everything they show that comes from a file
(names, reasons, reports) is plain text: table and list items, plain labels. They change
nothing themselves: the window's desk (``pbem_desk.py``) applies what they ask for.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QCheckBox, QComboBox, QDialog,
                               QDialogButtonBox, QFormLayout, QHBoxLayout, QHeaderView, QLineEdit,
                               QListWidget, QListWidgetItem, QPlainTextEdit, QPushButton, QSpinBox,
                               QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from ..model.update import count_words
from .layouts import fit_to_screen
from .plaintext import plain_label

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session
    from ..pbem.inbox import ImportResult
    from ..pbem.reports import Report

# -- shared pieces --------------------------------------------------------------------------

#: A result's or a desk row's word -> its colour (light theme, dark theme).
_TONES = {
    "accepted": ("#18733a", "#80d394"), "applied": ("#18733a", "#80d394"),
    "queued": ("#1f5fa8", "#8ab4f8"),
    "refused": ("#b3261e", "#ff8a80"),
    "needs-confirmation": ("#8a5a00", "#f2c462"), "arrived": ("#8a5a00", "#f2c462"),
}
_WORDS = {"accepted": "Accepted", "refused": "Refused", "duplicate": "Duplicate",
          "needs-confirmation": "Needs confirmation", "missing": "Missing",
          "arrived": "Arrived", "applied": "Applied", "queued": "Queued"}


def status_word(status: str) -> str:
    return _WORDS.get(status, status.capitalize())


def tone(widget: QWidget, status: str) -> QColor | None:
    """The colour of a status word on ``widget``'s palette (None: the normal text colour)."""
    pair = _TONES.get(status)
    if pair is None:
        return None
    dark = widget.palette().color(QPalette.ColorRole.Base).lightness() < 128
    return QColor(pair[1] if dark else pair[0])


#: A shade of text (:func:`shade`): a status of ``_TONES``, or this for quieter text.
QUIET = "quiet"
_SHADE = "shipsheet_shade"  # the widget property holding a label's shade
_STATUS_ROLE = Qt.ItemDataRole.UserRole + 7  # a status cell's status (:func:`status_cell`)


def shade_colour(widget: QWidget, shade: str | None) -> QColor | None:
    """The text colour of ``shade`` on the palette ``widget`` inherits (its parent's: its
    own holds the colour it was given). None: the palette's own text colour."""
    under = widget.parentWidget()
    if shade == QUIET:
        from .palette import quiet_text
        return quiet_text(under.palette() if under is not None else QApplication.palette(widget))
    return tone(under or widget, shade) if shade else None


class _Shaded(QObject):
    """Colours its widget's text (a label) or status cells (a table) again from the new
    palette when the appearance changes: a colour given once, or in a style sheet, would
    stay the old appearance's (a light theme's green on a dark window)."""

    def __init__(self, widget: QWidget):
        super().__init__(widget)
        self.setObjectName("shipsheet-shaded")
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.PaletteChange:
            if isinstance(obj, QTableWidget):
                _recolour_cells(obj)
            else:
                _apply_shade(obj)
        return False


def _keep_shaded(widget: QWidget) -> None:
    if widget.findChild(_Shaded, "shipsheet-shaded", Qt.FindChildOption.FindDirectChildrenOnly) is None:
        _Shaded(widget)


def shade(label: QWidget, which: str | None) -> None:
    """Give ``label``'s text the colour of ``which`` (a status of ``_TONES``, or
    :data:`QUIET`; None: the palette's own), on this palette and on any to come."""
    label.setProperty(_SHADE, which or "")
    _keep_shaded(label)
    _apply_shade(label)


def _apply_shade(label: QWidget) -> None:
    colour = shade_colour(label, label.property(_SHADE) or None)
    if colour is None:
        if label.testAttribute(Qt.WidgetAttribute.WA_SetPalette):
            label.setPalette(QPalette())  # back to the palette it inherits
        return
    if label.palette().color(QPalette.ColorRole.WindowText) == colour:
        return  # (setting it again would announce a change of palette, and so on)
    palette = QPalette()  # nothing of its own but the text colour: the rest is inherited
    palette.setColor(QPalette.ColorRole.WindowText, colour)
    label.setPalette(palette)


def _recolour_cells(view: QTableWidget) -> None:
    for row in range(view.rowCount()):
        for column in range(view.columnCount()):
            item = view.item(row, column)
            status = item.data(_STATUS_ROLE) if item is not None else None
            if status is not None:
                item.setForeground(shade_colour(view, status if status in _TONES else QUIET))


def heading(text: str = "") -> QWidget:
    """A bold plain-text line (it may hold names from files)."""
    label = plain_label(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    label.setWordWrap(True)
    return label


def note(text: str = "") -> QWidget:
    """A quieter plain-text line of explanation."""
    label = plain_label(text)
    label.setWordWrap(True)
    shade(label, QUIET)
    return label


def error_label() -> QWidget:
    label = plain_label()
    label.setWordWrap(True)
    label.setAccessibleName("Problem")
    shade(label, "refused")
    label.hide()
    return label


def fixed_font() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def table(headers: Sequence[str]) -> QTableWidget:
    """A read-only table of whole rows, with word-wrapped cells."""
    view = QTableWidget(0, len(headers))
    view.setHorizontalHeaderLabels(list(headers))
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setWordWrap(True)
    view.verticalHeader().hide()
    view.horizontalHeader().setStretchLastSection(True)
    view.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    return view


def cell(text: object, tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem("" if text is None else str(text))
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    if tip:
        item.setToolTip(tip)
    return item


def status_cell(view: QWidget, status: str) -> QTableWidgetItem:
    """A status word: coloured and bold when something happened, quiet when not."""
    item = cell(status_word(status))
    item.setData(_STATUS_ROLE, status)
    if isinstance(view, QTableWidget):
        _keep_shaded(view)  # coloured again in a new appearance
    colour = tone(view, status)
    if colour is not None:
        item.setForeground(colour)
        font = item.font()
        font.setBold(True)
        item.setFont(font)
    else:
        item.setForeground(shade_colour(view, QUIET))
    return item


#: Room above and below a row's text, in pixels.
ROW_PADDING = 8


def fit_rows(view: QTableWidget) -> None:
    """Each row as tall as its (wrapped) text, with some room around it."""
    view.resizeRowsToContents()
    for row in range(view.rowCount()):
        view.setRowHeight(row, view.rowHeight(row) + ROW_PADDING)


def fit_columns(view: QTableWidget, widths: Sequence[int]) -> None:
    """Fixed widths for all but the last column (which stretches), rows as tall as their text."""
    for column, width in enumerate(widths):
        view.setColumnWidth(column, width)
    fit_rows(view)


def table_rows(view: QTableWidget) -> list[tuple[str, ...]]:
    """A table's text as shown, row by row (the turn desk's, the import report's)."""
    return [tuple(view.item(r, c).text() for c in range(view.columnCount()))
            for r in range(view.rowCount())]


# -- Players… ---------------------------------------------------------------------------------

SIDE, SHIP = "side", "ship"


class PlayersDialog(QDialog):
    """Name the players, and what each commands (sides of the session, or single ships);
    whether player files show the other players' ships; verifiable dice; which player, if
    any, the moderator plays himself. ``apply(players, show_others, verifiable,
    moderator_plays)`` sets them up (one undo step) and returns None, or the refusal's
    message, shown here while the dialog stays open."""

    def __init__(self, session: "Session",
                 apply: Callable[[list, bool, bool, str | None], str | None],
                 parent: QWidget | None = None):
        super().__init__(parent)
        from ..pbem import dice, record
        self.setWindowTitle("Play by E-mail: Players")
        self.session = session
        self._apply = apply
        try:
            known = record.players(session) if record.is_moderator(session) else []
            show = record.show_others(session)
            plays = record.moderator_plays(session)
        except record.RecordError:
            known, show, plays = [], False, None
        if not known:  # a start: one player per side
            known = [record.Player(side, (side,)) for side in session.sides] or \
                [record.Player("Player 1")]
        self.entries: list[dict] = [{"name": p.name, "sides": list(p.sides),
                                     "ships": list(p.ships)} for p in known]

        intro = note("Each player receives a player file of their own ships and sends back "
                     "orders files. A player commands sides (every ship of the side, "
                     "including ships that join it later) or single ships.")
        self.list = QListWidget()
        self.list.setAccessibleName("Players")
        self.add_button = QPushButton("&Add Player")
        self.remove_button = QPushButton("&Remove")
        self.add_button.clicked.connect(self.add_player)
        self.remove_button.clicked.connect(self.remove_player)
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        left.addLayout(row)

        self.name = QLineEdit()
        self.name.setMaxLength(record.MAX_NAME)
        self.name.setAccessibleName("Player's name")
        self.name.textEdited.connect(self._renamed)
        self.items = QListWidget()
        self.items.setAccessibleName("Sides and ships the player commands")
        self.items.itemChanged.connect(self._checked)
        for side in session.sides:
            count = sum(1 for s in session.ships if s.side == side)
            self._add_item(f"Side: {side}  ({count_words(count, 'ship')})", SIDE, side)
        for ship in session.ships:
            side = f", {ship.side}" if ship.side else ""
            self._add_item(f"Ship: {ship.name}  ({ship.ship_class.name}{side})", SHIP, ship.id)
        right = QFormLayout()
        right.addRow("&Name:", self.name)
        right.addRow("&Commands:", self.items)

        self.show_others = QCheckBox("&Show other players' ships in player files (without "
                                     "their orders)")
        self.show_others.setChecked(show)
        self.verifiable = QCheckBox("Roll &verifiable dice from this turn (each turn report "
                                    "reveals the turn's seed; players can check every roll)")
        if dice.is_verifiable(session):
            self.verifiable.setChecked(True)
            self.verifiable.setEnabled(False)
            self.verifiable.setText("Verifiable dice: on")
        elif isinstance(session.pbem.get("dice"), dict):
            self.verifiable.setEnabled(False)
        self.plays = QComboBox()
        self.plays.setAccessibleName("The moderator plays")
        self.plays.setToolTip("A moderator who also plays: his own contribution to the dice is "
                              "not mixed in (he knows each turn's seed), as the other players "
                              "are told.")
        self._plays_wanted = plays
        plays_row = QHBoxLayout()
        plays_label = plain_label("The &moderator plays:")
        plays_label.setBuddy(self.plays)
        plays_row.addWidget(plays_label)
        plays_row.addWidget(self.plays, 1)
        self.error = error_label()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Set Up Players")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        body = QHBoxLayout()
        body.addLayout(left, 2)
        body.addLayout(right, 5)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(body, 1)
        layout.addWidget(self.show_others)
        layout.addWidget(self.verifiable)
        layout.addLayout(plays_row)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        fit_to_screen(self, 720, 470)

        for entry in self.entries:
            self.list.addItem(entry["name"])
        self.list.currentRowChanged.connect(self._show_entry)
        self.list.setCurrentRow(0)
        self._fill_plays()

    def _fill_plays(self) -> None:
        """The moderator's own player: nobody, or one of the players as named now."""
        wanted = self.plays.currentData() if self.plays.count() else self._plays_wanted
        self.plays.blockSignals(True)
        self.plays.clear()
        self.plays.addItem("Nobody: the moderator does not play", None)
        for entry in self.entries:
            self.plays.addItem(entry["name"], entry["name"])
        index = self.plays.findData(wanted) if wanted else 0
        self.plays.setCurrentIndex(max(0, index))
        self.plays.blockSignals(False)

    def set_moderator_plays(self, name: str | None) -> None:
        self.plays.setCurrentIndex(max(0, self.plays.findData(name)) if name else 0)

    def _add_item(self, text: str, kind: str, key: str) -> None:
        """One side or ship the player may command (a check box)."""
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, (kind, key))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        self.items.addItem(item)

    # the entries
    def _current(self) -> dict | None:
        row = self.list.currentRow()
        return self.entries[row] if 0 <= row < len(self.entries) else None

    def _show_entry(self, _row: int = 0) -> None:
        entry = self._current()
        self.name.setEnabled(entry is not None)
        self.items.setEnabled(entry is not None)
        self.remove_button.setEnabled(entry is not None)
        self.name.setText(entry["name"] if entry else "")
        self.items.blockSignals(True)
        for i in range(self.items.count()):
            item = self.items.item(i)
            kind, key = item.data(Qt.ItemDataRole.UserRole)
            on = entry is not None and key in entry["sides" if kind == SIDE else "ships"]
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        self.items.blockSignals(False)

    def _renamed(self, text: str) -> None:
        entry = self._current()
        if entry is not None:
            old = entry["name"]
            entry["name"] = text
            self.list.currentItem().setText(text)
            index = self.plays.findData(old)
            if index > 0:  # the same player, named anew
                self.plays.setItemText(index, text)
                self.plays.setItemData(index, text)

    def _checked(self, item: QListWidgetItem) -> None:
        entry = self._current()
        if entry is None:
            return
        kind, key = item.data(Qt.ItemDataRole.UserRole)
        listed = entry["sides" if kind == SIDE else "ships"]
        on = item.checkState() == Qt.CheckState.Checked
        if on and key not in listed:
            listed.append(key)
        elif not on and key in listed:
            listed.remove(key)

    def add_player(self) -> None:
        taken = {e["name"].casefold() for e in self.entries}
        n = len(self.entries) + 1
        while f"player {n}" in taken:
            n += 1
        self.entries.append({"name": f"Player {n}", "sides": [], "ships": []})
        self.list.addItem(f"Player {n}")
        self._fill_plays()
        self.list.setCurrentRow(len(self.entries) - 1)
        self.name.setFocus()
        self.name.selectAll()

    def remove_player(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.entries):
            del self.entries[row]
            self.list.takeItem(row)
            self._show_entry()
            self._fill_plays()

    def set_commands(self, row: int, *, name: str | None = None, sides: Iterable[str] = (),
                     ships: Iterable[str] = ()) -> None:
        """Set one player's entry (as the user would, through the list)."""
        self.list.setCurrentRow(row)
        if name is not None:
            self.name.setText(name)
            self._renamed(name)
        for i in range(self.items.count()):
            item = self.items.item(i)
            kind, key = item.data(Qt.ItemDataRole.UserRole)
            on = key in (sides if kind == SIDE else ships)
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def players(self) -> list[dict]:
        return [{"name": e["name"], "sides": list(e["sides"]), "ships": list(e["ships"])}
                for e in self.entries]

    def accept(self) -> None:
        problem = self._apply(self.players(), self.show_others.isChecked(),
                              self.verifiable.isChecked() and self.verifiable.isEnabled(),
                              self.plays.currentData())
        if problem:
            self.error.setText(problem)
            self.error.show()
            return
        super().accept()


# -- the import report -------------------------------------------------------------------------

def _with_warnings(result: "ImportResult") -> "ImportResult":
    """The result with its warnings after its reason (the table's Why column)."""
    from dataclasses import replace
    return replace(result, reason=result.reason + "".join(f" WARNING: {w}" for w in
                                                          result.warnings))


class ImportReportDialog(QDialog):
    """What became of each orders or join file: its player, turn and number, accepted,
    queued (applied when the turn's orders close), refused, duplicate or needing
    confirmation, and why."""

    HEADERS = ("File", "Player", "Turn", "No.", "Result", "Why")

    def __init__(self, results: Sequence["ImportResult"], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Files Imported")
        self.results = list(results)
        counts = Counter(r.status for r in self.results)
        parts = [f"{counts[s]} {status_word(s).lower()}" for s in
                 ("accepted", "queued", "refused", "needs-confirmation", "duplicate")
                 if counts[s]]
        self.summary = heading(f"{count_words(len(self.results), 'file')}: "
                               f"{', '.join(parts)}.")
        explain = note("Each file taken is one undo step (Edit ▸ Undo takes it back). Queued "
                       "orders are applied when the turn's orders close (Turn Desk ▸ Close "
                       "Orders), in the players' order. A refused file changed nothing of the "
                       "game; an authentic one is kept on record with why.")
        self.view = table(self.HEADERS)
        self.view.setAccessibleName("Orders files")
        self.view.setRowCount(len(self.results))
        for row, r in enumerate(self.results):
            self.view.setItem(row, 0, cell(r.path.name, str(r.path)))
            if r.warnings:
                r = _with_warnings(r)
            self.view.setItem(row, 1, cell(r.player or "—"))
            self.view.setItem(row, 2, cell(r.turn if r.turn is not None else "—"))
            self.view.setItem(row, 3, cell(r.seq if r.seq is not None else "—"))
            self.view.setItem(row, 4, status_cell(self.view, r.status))
            self.view.setItem(row, 5, cell(r.reason, r.reason))
        copy = QPushButton("&Copy Report")
        copy.clicked.connect(self.copy)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(explain)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)
        fit_columns(self.view, (210, 90, 50, 40, 150))
        self.view.setCurrentCell(-1, -1)
        fit_to_screen(self, 960, 170 + 52 * min(max(2, len(self.results)), 10))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        fit_rows(self.view)

    def rows(self) -> list[tuple[str, ...]]:
        """The table as shown."""
        return table_rows(self.view)

    def text(self) -> str:
        return "\n".join(r.line() for r in self.results)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())


# -- before a player's orders are written ----------------------------------------------------

class OrdersWarningsDialog(QDialog):
    """The orders the rules would refuse or the DDAP would ignore, and why, before they are
    written: Write Anyway or Cancel."""

    def __init__(self, turn: int, orders: Sequence[str], warnings: Sequence[str],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Orders for Turn {turn}")
        n = len(warnings)
        title = heading(f"{n} of these orders would not do what they say:" if n != 1 else
                        "One of these orders would not do what it says:")
        self.warnings = QListWidget()
        self.warnings.setAccessibleName("Warnings")
        self.warnings.setWordWrap(True)
        self.warnings.addItems(list(warnings))
        summary = note(f"Your orders for turn {turn}: " + ("; ".join(orders) if orders else
                                                           "none") + ".")
        explain = note("The moderator's ShipSheet checks them the same way: an order it refuses "
                       "refuses the whole file, and an order the rules ignore is not applied. "
                       "Cancel to change them first.")
        self.buttons = QDialogButtonBox()
        self.write_button = self.buttons.addButton("&Write Anyway",
                                                   QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.warnings, 1)
        layout.addWidget(summary)
        layout.addWidget(explain)
        layout.addWidget(self.buttons)
        fit_to_screen(self, 640, 380)

    def lines(self) -> list[str]:
        return [self.warnings.item(i).text() for i in range(self.warnings.count())]


# -- turn reports ------------------------------------------------------------------------------

class ReportOptionsDialog(QDialog):
    """Export Turn Reports…: the turn, the folder (``turn-N`` is made in it), with PDFs."""

    def __init__(self, session: "Session", folder: str, pick_folder: Callable[[QWidget, str, str], str],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Export Turn Reports")
        self._pick = pick_folder
        self.turn = QSpinBox()
        self.turn.setRange(1, max(1, session.turn))
        self.turn.setValue(session.turn)
        self.folder = QLineEdit(folder)
        self.folder.setAccessibleName("Folder")
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self.browse)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.with_pdf = QCheckBox("Also a &PDF of each player's ships")
        form = QFormLayout()
        form.addRow("&Turn:", self.turn)
        form.addRow("&Folder:", row)
        form.addRow("", self.with_pdf)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Write Reports")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note("Per player: the e-mail text (turn-N/NAME.txt), their updated "
                              "player file and, if chosen, the PDF of their ships, in a "
                              "folder turn-N."))
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.folder.textChanged.connect(self._ok)
        self._ok()
        self.resize(560, 0)

    def _ok(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            bool(self.folder.text().strip()))

    def browse(self) -> None:
        chosen = self._pick(self, "Folder for the Turn Reports", self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def values(self) -> tuple[str, int, bool]:
        return self.folder.text().strip(), self.turn.value(), self.with_pdf.isChecked()


class TurnReportsDialog(QDialog):
    """The reports written: per player their files, Open in Mail and Copy Text, and the
    selected player's text."""

    mail_requested = Signal(str)  # a mailto: URL

    HEADERS = ("Player", "Files", "Mail", "Text")

    def __init__(self, turn: int, folder: Path, reports: Sequence[tuple[str, "Report", list[Path]]],
                 mailto: Callable[["Report"], str], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Turn {turn} Reports")
        self.reports = list(reports)
        self._mailto = mailto
        self.folder = folder
        self.summary = heading(f"Turn {turn}: {count_words(len(self.reports), 'report')} written")
        where = note(f"In {folder}. Attach each player's files to their e-mail (the player "
                     f"file holds their secret: send it to them only).")
        self.view = table(self.HEADERS)
        self.view.setAccessibleName("Reports")
        self.view.setRowCount(len(self.reports))
        self.mail_buttons: list[QPushButton] = []
        self.copy_buttons: list[QPushButton] = []
        for row, (name, report, files) in enumerate(self.reports):
            self.view.setItem(row, 0, cell(name))
            self.view.setItem(row, 1, cell(", ".join(p.name for p in files),
                                           "\n".join(str(p) for p in files)))
            mail = QPushButton("Open in Mail")
            mail.setToolTip(f"A new e-mail in your mail program: {report.subject}")
            mail.clicked.connect(lambda _=False, r=row: self.open_in_mail(r))
            copy = QPushButton("Copy Text")
            copy.setToolTip("The subject and the text, to paste into an e-mail")
            copy.clicked.connect(lambda _=False, r=row: self.copy_text(r))
            self.view.setCellWidget(row, 2, mail)
            self.view.setCellWidget(row, 3, copy)
            self.mail_buttons.append(mail)
            self.copy_buttons.append(copy)
        self.view.horizontalHeader().setStretchLastSection(False)
        self.view.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.view.setColumnWidth(0, 120)
        self.view.setColumnWidth(2, 130)
        self.view.setColumnWidth(3, 110)
        self.view.verticalHeader().setDefaultSectionSize(34)
        self.view.currentCellChanged.connect(lambda row, *_: self.show_report(row))
        self.subject = plain_label()
        self.subject.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body = QPlainTextEdit()
        self.body.setReadOnly(True)
        self.body.setFont(fixed_font())
        self.body.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.body.setAccessibleName("Report text")
        preview = QWidget()
        box = QVBoxLayout(preview)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.subject)
        box.addWidget(self.body, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.view)
        split.addWidget(preview)
        split.setSizes([150, 380])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(where)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        fit_to_screen(self, 820, 640)
        if self.reports:
            self.view.setCurrentCell(0, 0)
            self.show_report(0)

    def show_report(self, row: int) -> None:
        if 0 <= row < len(self.reports):
            report = self.reports[row][1]
            self.subject.setText(f"Subject: {report.subject}")
            self.body.setPlainText(report.body)

    def mailto_url(self, row: int) -> str:
        return self._mailto(self.reports[row][1])

    def open_in_mail(self, row: int) -> None:
        self.mail_requested.emit(self.mailto_url(row))

    def copy_text(self, row: int) -> None:
        QGuiApplication.clipboard().setText(self.reports[row][1].text)


# -- Verify Dice… ---------------------------------------------------------------------------

def parse_turn_hex(text: str, what: str) -> tuple[dict[int, str], list[str]]:
    """``TURN=HEX`` lines (blank lines and ``#`` comments skipped; ``TURN: HEX`` and
    ``TURN HEX`` also read) -> ({turn: hex}, [problems, each naming its line])."""
    found: dict[int, str] = {}
    problems: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        for sep in ("=", ":", " "):
            if sep in line:
                turn, value = (p.strip() for p in line.split(sep, 1))
                break
        else:
            turn, value = line, ""
        value = value.lower()
        if not (turn.isdigit() and 1 <= int(turn) <= 1_000_000 and len(value) == 64
                and all(c in "0123456789abcdef" for c in value)):
            problems.append(f"{what} line {number}: expected TURN=HEX (a turn, '=', 64 hex "
                            f"digits), not \"{raw.strip()[:90]}\"")
            continue
        if found.get(int(turn), value) != value:
            problems.append(f"{what} line {number}: two different {what}s for turn {turn}")
            continue
        found[int(turn)] = value
    return found, problems


class VerifyDiceDialog(QDialog):
    """Check every roll of the session, turn by turn (``pbem.verify.verify_session``): the
    moderator's session, or a player file alone (which carries what its player needs, and
    is compared with what this ShipSheet pinned). Seeds and commitments from reports may
    be pasted as ``TURN=HEX`` lines, so the file's own are not taken on trust."""

    def __init__(self, session: "Session", parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Verify Dice")
        self.session = session
        self.seeds = QPlainTextEdit()
        self.seeds.setAccessibleName("Seeds")
        self.seeds.setPlaceholderText("3=<the 64 hex digits of turn 3's seed, from its report>")
        self.commitments = QPlainTextEdit()
        self.commitments.setAccessibleName("Commitments")
        self.commitments.setPlaceholderText("4=<turn 4's commitment, from turn 3's report>")
        for edit in (self.seeds, self.commitments):
            edit.setFont(fixed_font())
            edit.setFixedHeight(72)
        form = QFormLayout()
        form.addRow("&Seeds revealed:", self.seeds)
        form.addRow("&Commitments:", self.commitments)
        self.verify_button = QPushButton("&Verify")
        self.verify_button.setDefault(True)
        self.verify_button.clicked.connect(self.run)
        self.problems = error_label()
        self.headline = heading()
        self.headline.setAccessibleName("Verdict")
        self.result = QPlainTextEdit()
        self.result.setReadOnly(True)
        self.result.setFont(fixed_font())
        self.result.setAccessibleName("Rolls")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.addButton(self.verify_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(note("Every roll of every closed turn is recomputed from the turn's "
                              "seed, the players' contributions, its number and its purpose, "
                              "and checked against the transcript fixed when the turn closed. "
                              "A player file holds what it needs; seeds and commitments from "
                              "the reports may be added below (one TURN=HEX a line)."))
        layout.addLayout(form)
        layout.addWidget(self.problems)
        layout.addWidget(self.headline)
        layout.addWidget(self.result, 1)
        layout.addWidget(buttons)
        fit_to_screen(self, 820, 600)
        self.last = None
        self.run()

    def run(self):
        """Verify with what is typed; the Verdict (None when a line cannot be read)."""
        from ..pbem.verify import verify_session
        seeds, bad = parse_turn_hex(self.seeds.toPlainText(), "seed")
        commitments, bad2 = parse_turn_hex(self.commitments.toPlainText(), "commitment")
        problems = bad + bad2
        self.problems.setText("\n".join(problems))
        self.problems.setVisible(bool(problems))
        if problems:
            return None
        from ..model.errors import RuleViolation
        try:
            result = verify_session(self.session, seeds=seeds, commitments=commitments)
        except RuleViolation as exc:  # a damaged play-by-e-mail record, said in words
            self.problems.setText(f"This session cannot be checked: {exc}")
            self.problems.show()
            return None
        lines = result.lines()
        self.headline.setText(lines[0] if lines else "")
        colour = {"verified": "applied", "failed": "refused"}.get(result.status, "arrived")
        shade(self.headline, colour)
        self.result.setPlainText("\n".join(lines[1:]))
        self.last = result
        return result


def run_dialog(dialog: QDialog) -> bool:
    """Show a modal dialog; True when accepted (tests replace this to answer it)."""
    return dialog.exec() == QDialog.DialogCode.Accepted


__all__ = ["ImportReportDialog", "OrdersWarningsDialog", "PlayersDialog", "ReportOptionsDialog",
           "TurnReportsDialog", "VerifyDiceDialog", "parse_turn_hex", "run_dialog"]
