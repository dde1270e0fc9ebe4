"""File ▸ PBEM: the play-by-e-mail desk in the window (``shipsheet/pbem/DESK.md``).

The moderator's side: Players… (one undo step), Export Player Files…, Import Orders… (orders
and join files, also dropped on the window; a report lists each file taken or refused and
why; each file taken is one undo step), the Turn Desk (a dock: the turn's stage with Close
Orders and Close Turn, and per player this turn's orders missing, queued, arrived, applied
or refused), Export Turn Reports… (with Open in Mail), and Verify Dice…. The player's side,
in a player file: Export Orders for Turn N… (the warnings first; the first time, the
player's own signing key and the join file to send with them), the Decisions dock (the
player's decision forms: the only changes a player file takes, :func:`guard_for`), and a
warning when the file disagrees with what the player was shown before (``pbem.pins``).

Every change the desk makes goes through ``SessionDocument.apply``, the window's one path
(its guard asked, one step of the session's one history): where the pbem layer hands over
an action (the players, the dice seeds) the desk applies it, and where the pbem layer
applies its own (``import_orders``, ``export_orders``, the seeds marked revealed by the
exports) it is given ``doc.apply`` to do it with. The ``pbem`` and ``printing`` modules are
imported when first used, so start-up does not pay for them.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from PySide6.QtCore import QObject, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDockWidget, QFileDialog, QFormLayout,
                               QGroupBox, QHBoxLayout, QLineEdit, QMenu, QMessageBox,
                               QPushButton, QScrollArea, QSpinBox, QVBoxLayout, QWidget)

from ..model import Action, RuleViolation
from ..model.actions import Together
from ..model.dice import OPEN
from ..model.update import count_words
from . import pbem_dialogs
from .pbem_dialogs import (cell, fit_columns, fit_rows, heading, note, run_dialog, status_cell,
                           table, table_rows)
from .plaintext import plain_label
from .settings import get_setting, set_setting

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session
    from .document import SessionDocument

ORDERS_SUFFIX = ".orders.json"
JOIN_SUFFIX = ".join.json"
ORDERS_FILTER = ("ShipSheet orders and join files (*.orders.json *.join.json);;"
                 "All files (*)")
MODERATOR, PLAYER = "moderator", "player"


# -- the file pickers and the mail program (tests replace these, and ``run_dialog`` as
# imported above: the desk calls each by its name in this module) ------------------------------

def pick_folder(parent: QWidget | None, title: str, start: str = "") -> str:
    return QFileDialog.getExistingDirectory(parent, title, start)


def pick_files(parent: QWidget | None, title: str, start: str = "",
               filter: str = ORDERS_FILTER) -> list[str]:
    paths, _ = QFileDialog.getOpenFileNames(parent, title, start, filter)
    return list(paths)


def pick_save(parent: QWidget | None, title: str, suggested: str,
              filter: str = ORDERS_FILTER) -> str:
    path, _ = QFileDialog.getSaveFileName(parent, title, suggested, filter)
    return path


def open_url(url: str) -> bool:
    """Hand a ``mailto:`` link to the user's mail program."""
    return QDesktopServices.openUrl(QUrl(url))


def role_of(session: "Session | None") -> str | None:
    """"moderator", "player", None or "damaged" (``pbem.players.role_of``)."""
    from ..pbem.players import role_of as role
    return role(session)


def guard_for(session: "Session") -> Callable[[Action], str | None] | None:
    """In a player file, what refuses every change but the player's own decisions, saying
    where they are made here (``pbem.players.guard_for``); None elsewhere."""
    from ..pbem.players import guard_for as guard
    return guard(session, "Make your decisions in the Decisions panel (View ▸ Decisions).")


# -- the turn desk ------------------------------------------------------------------------------

class TurnDeskView(QWidget):
    """The turn's stage (orders open, closed and resolving, …) with Close Orders and Close
    Turn, and per player this turn's orders missing, queued, arrived, applied or refused
    (with why)."""

    HEADERS = ("Player", "Orders", "No.", "Why")

    def __init__(self, doc: "SessionDocument", parent: QWidget | None = None,
                 close_orders: Callable[[], object] | None = None,
                 close_turn: Callable[[], object] | None = None):
        super().__init__(parent)
        self.doc = doc
        self.title = heading()
        self.stage = note()
        self.stage.setAccessibleName("The turn's stage")
        self.close_orders_button = QPushButton("Close &Orders")
        self.close_orders_button.setToolTip(
            "Fix the set of contributions to this turn's dice and apply the queued orders, "
            "in the players' order; the turn's dice roll from then on")
        self.close_turn_button = QPushButton("Close &Turn")
        self.close_turn_button.setToolTip(
            "End this turn: fix its rolls (count and hash) so its seed can be revealed in "
            "the turn's reports, and open the next turn's orders")
        if close_orders is not None:
            self.close_orders_button.clicked.connect(lambda _=False: close_orders())
        if close_turn is not None:
            self.close_turn_button.clicked.connect(lambda _=False: close_turn())
        buttons = QHBoxLayout()
        buttons.addWidget(self.stage, 1)
        buttons.addWidget(self.close_orders_button)
        buttons.addWidget(self.close_turn_button)
        self.view = table(self.HEADERS)
        self.view.setAccessibleName("Turn desk")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        doc.changed.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        from ..pbem import stages
        from ..pbem.desk import MISSING, stage_line, turn_desk
        session = self.doc.session
        try:
            rows = turn_desk(session)
            stage = stages.stage(session)
            words = stage_line(session, rows=rows)
        except RuleViolation as exc:
            self.title.setText(str(exc) if role_of(session) == "damaged" else
                               "No players yet: set them up with File ▸ PBEM ▸ Players…")
            self.view.setRowCount(0)
            self.stage.setText("")
            self.close_orders_button.setEnabled(False)
            self.close_turn_button.setEnabled(False)
            return
        done = sum(1 for r in rows if r.status == "applied")
        queued = sum(1 for r in rows if r.status == "queued")
        from ..pbem.deadline import deadline
        due = deadline(session)
        self.title.setText(f"Turn {session.turn}: orders applied for {done} of "
                           f"{count_words(len(rows), 'player')}"
                           + (f", {queued} queued" if queued else "")
                           + (f" · due by {due}" if due else ""))
        self.stage.setText(words[0].upper() + words[1:] if words else
                           "No stages: the dice are not verifiable, so each orders file is "
                           "applied as it is imported and the turn ends with Next Turn.")
        self.close_orders_button.setVisible(stage is not None)
        self.close_turn_button.setVisible(stage is not None)
        self.close_orders_button.setEnabled(stage == stages.OPEN)
        self.close_turn_button.setEnabled(stages.can_close_turn(session))
        self.view.setRowCount(len(rows))
        for i, row in enumerate(rows):
            why = row.reason
            if row.status == "arrived" and row.applied:
                why = why or f"a correction; number {row.applied[-1]} was applied"
            self.view.setItem(i, 0, cell(row.player))
            self.view.setItem(i, 1, status_cell(self.view, row.status))
            self.view.setItem(i, 2, cell("" if row.status == MISSING else row.seq))
            self.view.setItem(i, 3, cell(why, why))
        fit_columns(self.view, (120, 90, 40))

    def rows(self) -> list[tuple[str, ...]]:
        return table_rows(self.view)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        fit_rows(self.view)


# -- a player's decisions --------------------------------------------------------------------------

class DecisionsView(QWidget):
    """In a player file: the current ship's decision forms (the game's, as Table Link's
    phones show them), each applied as the player's decision (``pbem.players.Decision``):
    the only changes a player file takes, and what the orders are made of."""

    def __init__(self, doc: "SessionDocument", parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.title = heading()
        self.summary = note()
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addWidget(self.scroll, 1)
        #: form kind -> {field name: widget} of the forms on show
        self.fields: dict[str, dict[str, QWidget]] = {}
        self.buttons: dict[str, QPushButton] = {}
        doc.changed.connect(self.refresh)
        doc.selection_changed.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        from ..model.games import piece
        from ..pbem import players as P
        from ..pbem import record
        from ..pbem.orders import current_orders
        box = QWidget()  # the forms, made anew (the scroll area deletes the old ones)
        forms_layout = QVBoxLayout(box)
        forms_layout.setContentsMargins(0, 0, 0, 0)
        self.scroll.setWidget(box)
        self.fields, self.buttons = {}, {}
        session, ship = self.doc.session, self.doc.current_ship
        try:
            me = record.own_player(session)
            orders = current_orders(session)
        except RuleViolation as exc:
            self.title.setText(str(exc))
            self.summary.setText("")
            return
        self.summary.setText(f"{count_words(len(orders), 'order')} for turn {session.turn} so far. "
                             f"Send them with File ▸ PBEM ▸ Export Orders for Turn "
                             f"{session.turn}…")
        if ship is None:
            self.title.setText(f"{me.name}'s decisions: pick one of your ships.")
            return
        if not me.owns(ship):
            self.title.setText(f"{ship.name} is not {me.name}'s ship: its own player decides "
                               f"for it.")
            return
        forms = piece(session.game, "decisions").forms(session, ship)
        # What the player already decided this turn (recorded in the file, not yet applied:
        # an Energy Allocation is committed by the moderator's dice) fills its form again.
        made = {(o["ship"], o["form"]): o["values"] for o in record.decided(session, session.turn)}
        forms = [with_values(spec, made.get((ship.id, spec["kind"]))) for spec in forms]
        self.title.setText(f"{ship.name}: {me.name}'s decisions for turn {session.turn}")
        if not forms:
            forms_layout.addWidget(note(f"No decision to make for {ship.name} now."))
        for spec in forms:
            forms_layout.addWidget(self._form(spec, set(P.dice_fields(spec))))
        forms_layout.addStretch(1)

    def _form(self, spec: dict, dice: set[str]) -> QWidget:
        box = QGroupBox(spec["title"])
        form = QFormLayout(box)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)  # a narrow dock
        if spec.get("text"):
            text = note(spec["text"])
            form.addRow(text)
        widgets: dict[str, QWidget] = {}
        for field in spec["fields"]:
            if field["name"] in dice:
                continue  # the moderator rolls
            widget = field_widget(field)
            widgets[field["name"]] = widget
            if field["type"] == "bool":
                form.addRow(widget)
            else:
                label = plain_label(field.get("label", field["name"]) + ":")
                label.setWordWrap(True)
                form.addRow(label, widget)
        if dice:
            form.addRow(note("The dice are the moderator's to roll: they are left empty in "
                             "your orders."))
        button = QPushButton(spec.get("submit") or "Set")
        button.clicked.connect(lambda _=False, k=spec["kind"]: self.submit(k))
        form.addRow(button)
        self.fields[spec["kind"]] = widgets
        self.buttons[spec["kind"]] = button
        return box

    def values(self, kind: str) -> dict:
        return {name: field_value(widget) for name, widget in self.fields[kind].items()}

    def submit(self, kind: str, values: dict | None = None) -> bool:
        """Apply the form ``kind`` of the current ship as the player's decision."""
        from ..pbem.players import Decision
        ship = self.doc.current_ship
        if ship is None:
            return False
        values = self.values(kind) if values is None else values
        try:
            action = Decision(self.doc.session, ship, kind, values)
        except RuleViolation as exc:
            self.doc.refused.emit(str(exc))
            return False
        return self.doc.do(action)


def with_values(spec: dict, values: dict | None) -> dict:
    """``spec`` with its fields showing ``values`` (a decision recorded for it), where given."""
    if not values:
        return spec
    fields = [{**f, "value": values[f["name"]]} if values.get(f["name"]) is not None else f
              for f in spec["fields"]]
    return {**spec, "fields": fields}


def field_widget(field: dict) -> QWidget:
    """An editor for one field of a decision form, holding its current value."""
    kind, value = field["type"], field.get("value")
    if kind == "choice":
        combo = QComboBox()
        if value is None:
            combo.addItem("—", None)
        for option in field["options"]:
            combo.addItem(str(option["label"]), option["value"])
        combo.setCurrentIndex(max(0, combo.findData(value)))
        return combo
    if kind == "int":
        spin = QSpinBox()
        low = field["min"] - (1 if field.get("optional") else 0)
        spin.setRange(low, field["max"])
        if field.get("optional"):
            spin.setSpecialValueText("—")
        spin.setValue(low if value is None else value)
        spin.setProperty("optional_low", low if field.get("optional") else None)
        return spin
    if kind == "bool":
        box = QCheckBox(field.get("label", field["name"]))
        box.setChecked(bool(value))
        return box
    edit = QLineEdit("" if value is None else str(value))
    edit.setMaxLength(int(field.get("max", 80)))
    return edit


def field_value(widget: QWidget):
    if isinstance(widget, QComboBox):
        return widget.currentData()
    if isinstance(widget, QSpinBox):
        low = widget.property("optional_low")
        return None if low is not None and widget.value() == low else widget.value()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    return widget.text()


# -- the menu and what it does ---------------------------------------------------------------------

class PbemDesk(QObject):
    """File ▸ PBEM of one main window, its docks, and orders dropped on the window."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.menu: QMenu | None = None
        self.desk_dock: QDockWidget | None = None
        self.desk_view: TurnDeskView | None = None
        self.decisions_dock: QDockWidget | None = None
        self.decisions_view: DecisionsView | None = None
        self.report_dialog = None  # the last import report (kept alive while shown)
        self.reports_dialog = None
        self.verify_dialog = None
        act = window._act
        self.act_players = act("&Players…", self.players, tip="Name the players of this session "
                               "played by e-mail, and the sides or ships each commands")
        self.act_export_players = act("Export Player &Files…", self.export_player_files,
                                      tip="Write each player's file (their ships, their secret) "
                                          "into a folder")
        self.act_import = act("&Import Orders…", self.import_orders, tip="Check orders files "
                              "and apply the good ones, one undo step each")
        self.act_desk = act("Turn &Desk", self.show_desk, tip="The turn's stage, and per "
                            "player this turn's orders missing, queued, applied or refused")
        self.act_close_orders = act("&Close Orders", self.close_orders, tip="Fix the set of "
                                    "contributions to this turn's dice and apply the queued "
                                    "orders; the turn's dice roll from then on")
        self.act_close_turn = act("Close &Turn…", self.close_turn, tip="End this turn: fix its "
                                  "rolls so its seed can be revealed in its reports")
        self.act_deadline = act("Set &Deadline…", lambda: self.set_deadline(),
                                tip="By when you want this turn's orders, in your own words: "
                                    "each player's turn report says it")
        self.act_reports = act("Export Turn &Reports…", self.export_turn_reports,
                               tip="Per player: the turn's e-mail text, their updated player "
                                   "file and optionally a PDF of their ships")
        self.act_export_orders = act("Export &Orders for Turn…", self.export_orders,
                                     tip="Write this turn's orders file, to send to the "
                                         "moderator")
        self.act_verify = act("&Verify Dice…", self.verify_dice, tip="Recompute every recorded "
                              "die roll from the seeds the turn reports revealed")

    def build_menu(self, parent: QMenu, into: QMenu | None = None) -> QMenu:
        """The PBEM submenu of ``parent`` (or fill ``into``, the window's, made at start-up)."""
        m = into if into is not None else parent.addMenu("P&BEM")
        m.setToolTipsVisible(True)
        for a in (self.act_players, self.act_export_players, self.act_import, self.act_desk,
                  self.act_close_orders, self.act_close_turn, self.act_deadline,
                  self.act_reports):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_export_orders)
        m.addSeparator()
        m.addAction(self.act_verify)
        self.menu = m
        return m

    # -- state
    @property
    def doc(self) -> "SessionDocument | None":
        return self.window.doc

    def role(self) -> str | None:
        return role_of(self.doc.session if self.doc is not None else None)

    def stage(self) -> str | None:
        """The stage of the session's turn (None: no stages: no verifiable dice here)."""
        if self.doc is None or not self.doc.session.pbem:
            return None
        from ..pbem import stages
        try:
            return stages.stage(self.doc.session)
        except RuleViolation:
            return None

    def can_close_turn(self) -> bool:
        """Whether Close Turn may be asked now (the Turn Desk's button says the same)."""
        from ..pbem import stages
        try:
            return stages.can_close_turn(self.doc.session)
        except RuleViolation:
            return False

    def update(self) -> None:
        """Enable the entries of the session's role (the window calls this on every change)."""
        has = self.doc is not None
        role = self.role()
        moderator = role == MODERATOR
        self.act_players.setEnabled(has and role in (None, MODERATOR, "damaged"))
        for a in (self.act_export_players, self.act_import, self.act_desk, self.act_reports,
                  self.act_deadline):
            a.setEnabled(moderator)
        stage = self.stage()
        self.act_close_orders.setEnabled(moderator and stage == OPEN)
        self.act_close_turn.setEnabled(moderator and stage is not None and self.can_close_turn())
        self.act_export_orders.setEnabled(role == PLAYER)
        self.act_export_orders.setText(
            f"Export &Orders for Turn {self.doc.session.turn}…" if role == PLAYER
            else "Export &Orders for Turn…")
        self.act_verify.setEnabled(has)

    def document_changed(self, doc: "SessionDocument | None") -> None:
        """A document is shown (the window removed the previous one's docks): its guard, and
        the desk's or the decisions' dock."""
        self.desk_dock = self.desk_view = None
        self.decisions_dock = self.decisions_view = None
        if doc is None:
            return
        doc.guard = guard_for(doc.session)
        role = role_of(doc.session)
        if role == MODERATOR:
            self.show_desk(raise_it=False)
        elif role == PLAYER:
            self._decisions_dock()
            self.check_pins()

    def check_pins(self) -> list[str]:
        """A player file, as it opens: compared with what this ShipSheet was shown of the
        game before (``pbem.pins``), which it then remembers. A disagreement is said at
        once (the moderator may have changed what he showed); the problems."""
        from ..pbem.pins import check
        found = check(self.doc.session)
        if found.problems:
            QMessageBox.warning(
                self.window, "This Player File Disagrees With Earlier Ones",
                "What this file shows is not what you were shown before:\n\n"
                + "\n\n".join(f"• {p}" for p in found.problems)
                + "\n\nCheck with the other players before you send orders.")
        elif found.notes:
            self.window.show_status(found.notes[0])
        return found.problems

    def _dock(self, title: str, widget: QWidget, area) -> QDockWidget:
        w = self.window
        dock = QDockWidget(title, w)
        dock.setObjectName(f"dock-{title.lower().replace(' ', '-')}")
        dock.setWidget(widget)
        w.addDockWidget(area, dock)
        w.view_menu.addAction(dock.toggleViewAction())
        w._docks.append(dock)  # removed with the document's other docks
        return dock

    def show_desk(self, raise_it: bool = True) -> QDockWidget | None:
        """File ▸ PBEM ▸ Turn Desk: the dock (made when first asked for)."""
        if self.doc is None:
            return None
        if self.desk_dock is None:
            self.desk_view = TurnDeskView(self.doc, close_orders=self.close_orders,
                                          close_turn=self.close_turn)
            self.desk_dock = self._dock("Turn Desk", self.desk_view,
                                        Qt.DockWidgetArea.BottomDockWidgetArea)
            log = self._window_dock("dock-log")
            if log is not None:
                self.window.splitDockWidget(log, self.desk_dock, Qt.Orientation.Horizontal)
                self.window.resizeDocks([log, self.desk_dock], [560, 520],
                                        Qt.Orientation.Horizontal)
        self.desk_dock.show()
        if raise_it:
            self.desk_dock.raise_()
        return self.desk_dock

    def _decisions_dock(self) -> QDockWidget:
        self.decisions_view = DecisionsView(self.doc)
        self.decisions_dock = self._dock("Decisions", self.decisions_view,
                                         Qt.DockWidgetArea.RightDockWidgetArea)
        actions = self._window_dock("dock-actions")
        if actions is not None:
            self.window.tabifyDockWidget(actions, self.decisions_dock)
        self.decisions_dock.show()
        self.decisions_dock.raise_()
        return self.decisions_dock

    def _window_dock(self, name: str) -> QDockWidget | None:
        return next((d for d in self.window._docks if d.objectName() == name), None)

    def _show(self, old: QDialog | None, dialog: QDialog) -> QDialog:
        """Show a non-modal dialog in place of ``old`` (closed, and deleted: not kept hidden
        under the window for as long as it lives)."""
        if old is not None:
            old.close()
            old.deleteLater()
        dialog.show()
        return dialog

    def _warn(self, title: str, text: str) -> None:
        QMessageBox.warning(self.window, title, text)

    def _folder_start(self) -> str:
        doc = self.doc
        remembered = get_setting("pbem_folder", "")
        if isinstance(remembered, str) and remembered and Path(remembered).is_dir():
            return remembered
        return str(doc.path.parent) if doc is not None and doc.path else str(Path.home())

    # -- the moderator's side
    def players(self):
        """File ▸ PBEM ▸ Players…: returns the dialog (after it closed)."""
        if self.doc is None:
            return None
        dialog = pbem_dialogs.PlayersDialog(self.doc.session, self.set_players, self.window)
        run_dialog(dialog)
        return dialog

    def set_players(self, players: list, show_others: bool, verifiable: bool,
                    moderator_plays: str | None = None) -> str | None:
        """Set up the players (and verifiable dice) as one undo step; the refusal or None."""
        from ..pbem import dice
        from ..pbem.players import set_players_action
        doc = self.doc
        try:
            action = set_players_action(doc.session, players, show_others, moderator_plays)
            if verifiable and not isinstance(doc.session.pbem.get("dice"), dict):
                action = Together(action, dice.start_verifiable_action(doc.session))
            doc.apply(action)
        except RuleViolation as exc:
            return str(exc)
        if self.desk_dock is None and role_of(doc.session) == MODERATOR:
            self.show_desk()
        self.window.show_status("Players set up: export their files with File ▸ PBEM ▸ "
                                "Export Player Files… (and save the session: it holds the "
                                "players' secrets)")
        return None

    def export_player_files(self, folder: str | None = None) -> list[Path]:
        """File ▸ PBEM ▸ Export Player Files…: the files written."""
        from ..pbem.players import export_player_files
        if self.doc is None:
            return []
        if folder is None:
            folder = pick_folder(self.window, "Folder for the Player Files", self._folder_start())
            if not folder:
                return []
        doc = self.doc
        try:  # the closed turns' seeds go out in them: a mark in the ledger, one undo step
            written = export_player_files(doc.session, folder, apply=doc.apply)
        except RuleViolation as exc:
            self._warn("Cannot export player files", str(exc))
            return []
        except OSError as exc:
            self._warn("Cannot export player files", f"{folder}: {exc.strerror or exc}")
            return []
        set_setting("pbem_folder", str(folder))
        names = "\n".join(f"  {p.name}" for p in written)
        unsaved = ("\n\nSave this session too: it holds the players' secrets, which their "
                   "orders files are checked against." if self.doc.dirty else "")
        QMessageBox.information(
            self.window, "Player Files Written",
            f"{count_words(len(written), 'player file')} written in {folder}:\n{names}\n\n"
            f"Send each file to its player only: it holds the secret that signs their "
            f"orders.{unsaved}")
        self.window.show_status(f"{len(written)} player files written in {folder}")
        return written

    def import_orders(self, paths: Iterable[str | Path] | None = None):
        """File ▸ PBEM ▸ Import Orders… (orders and join files, or files dropped on the
        window): the report dialog, shown; None when nothing was imported."""
        from ..pbem.inbox import NEEDS_CONFIRMATION, import_orders
        doc = self.doc
        if doc is None:
            return None
        if paths is None:
            paths = pick_files(self.window, "Import Orders", self._folder_start())
        paths = [Path(p) for p in paths]
        if not paths:
            return None
        try:
            results = import_orders(doc.session, paths, apply=doc.apply)
        except RuleViolation as exc:
            self._warn("Cannot import orders", str(exc))
            return None
        held = [r for r in results if r.status == NEEDS_CONFIRMATION]
        keys = [r for r in held if r.kind == "join"]
        if keys:
            lines = "\n\n".join(f"  {r.path.name}: {r.reason}" for r in keys)
            results = self._confirmed(results, keys, "Replace a Player's Key?", (
                f"{lines}\n\nReplace {'these keys' if len(keys) > 1 else 'the key'} from this "
                f"turn on? (No: nothing changes.)"))
        held = [r for r in held if r.kind != "join"]
        if held:
            lines = "\n".join(f"  {r.path.name}: {r.player}, turn {r.turn}, number {r.seq}"
                              for r in held)
            results = self._confirmed(results, held, "Apply Corrections?", (
                f"{'These files correct' if len(held) > 1 else 'This file corrects'} orders "
                f"applied already this turn:\n{lines}\n\nApply "
                f"{'them' if len(held) > 1 else 'it'} now, as a new undo step each? (No: "
                f"{'they stay' if len(held) > 1 else 'it stays'} on the turn desk as arrived.)"))
        set_setting("pbem_folder", str(paths[0].parent))
        self.report_dialog = self._show(self.report_dialog,
                                        pbem_dialogs.ImportReportDialog(results, self.window))
        accepted = sum(1 for r in results if r.accepted)
        self.window.show_status(f"Imported: {accepted} of {count_words(len(results), 'file')} "
                                f"taken")
        return self.report_dialog

    def _confirmed(self, results: list, held: list, title: str, question: str) -> list:
        """Ask ``question`` of files held for confirmation; on Yes import them again with it.
        ``results`` with the held ones' answered anew."""
        from ..pbem.inbox import import_orders
        doc = self.doc
        answer = QMessageBox.question(self.window, title, question,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return results
        again = import_orders(doc.session, [r.path for r in held], confirm=True, apply=doc.apply)
        redone = {id(old): new for old, new in zip(held, again)}
        return [redone.get(id(r), r) for r in results]

    def close_orders(self) -> bool:
        """Turn Desk ▸ Close Orders: the turn's set of contributions fixed, the queued orders
        applied (one undo step). True when done."""
        from ..pbem.turns import close_orders_action
        doc = self.doc
        if doc is None:
            return False
        try:
            action = close_orders_action(doc.session)
        except RuleViolation as exc:
            self._warn("Cannot close the orders", str(exc))
            return False
        if not doc.do(action):
            return False
        self.window.show_status(f"Turn {doc.session.turn}'s orders closed: the turn's dice "
                                f"roll from now on (Close Turn when it is resolved)")
        return True

    def close_turn(self, confirm: bool = True) -> bool:
        """Turn Desk ▸ Close Turn…: after asking, the turn's end (one undo step): its rolls
        fixed, its seed revealable, the next turn's orders open. True when done."""
        from ..pbem.turns import close_turn_action
        doc = self.doc
        if doc is None:
            return False
        session = doc.session
        turn = session.turn
        try:
            action = close_turn_action(session)
        except RuleViolation as exc:
            self._warn("Cannot close the turn", str(exc))
            return False
        if confirm and not self.window.confirm_turn_end():
            return False
        if confirm:
            answer = QMessageBox.question(
                self.window, f"Close Turn {turn}?",
                f"Close turn {turn}? Its end-of-turn steps run and its rolls are fixed; its "
                f"seed is then revealed in the turn's reports, and no more orders for it are "
                f"taken. Turn {turn + 1}'s orders open.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.Yes)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        if not doc.do(action):
            return False
        self.window.show_status(f"Turn {turn} closed: write its reports with File ▸ PBEM ▸ "
                                f"Export Turn Reports…")
        return True

    def set_deadline(self, when: "str | None | bool" = False) -> bool:
        """File ▸ PBEM ▸ Set Deadline…: by when this turn's orders are due, in the
        moderator's words (asked for when ``when`` is False; "" or None clears it). One undo
        step. True when done."""
        from ..pbem.deadline import LIMIT, deadline, set_deadline_action
        doc = self.doc
        if doc is None:
            return False
        session = doc.session
        if when is False:
            from PySide6.QtWidgets import QInputDialog, QLineEdit
            text, ok = QInputDialog.getText(
                self.window, "Set Deadline",
                f"Turn {session.turn}'s orders are due by (your words, as the players will "
                f"read them; empty: no deadline):", QLineEdit.EchoMode.Normal,
                deadline(session) or "")
            if not ok:
                return False
            when = text[:LIMIT * 2]
        when = (when or "").strip() or None
        try:
            if when is None and deadline(session) is None:
                return False
            action = set_deadline_action(session, when)
        except RuleViolation as exc:
            self._warn("Cannot set the deadline", str(exc))
            return False
        if not doc.do(action):
            return False
        self.window.show_status(f"Turn {session.turn}'s orders are due by {when}" if when else
                                f"Turn {session.turn}'s orders: no deadline")
        return True

    def export_turn_reports(self, folder: str | None = None, turn: int | None = None,
                            with_pdf: bool | None = None):
        """File ▸ PBEM ▸ Export Turn Reports…: the reports dialog (shown), or None.

        Each report is made twice, once to write its file and once to show it:
        ``pbem.reports.export_turn_reports`` returns the paths only."""
        from ..pbem import dice, record
        from ..pbem.reports import export_turn_reports, mailto_url, turn_report
        doc = self.doc
        if doc is None:
            return None
        session = doc.session
        if folder is None:
            options = pbem_dialogs.ReportOptionsDialog(session, self._folder_start(), pick_folder,
                                                       self.window)
            if not run_dialog(options):
                return None
            folder, turn, with_pdf = options.values()
        turn = session.turn if turn is None else turn
        pdf = None
        if with_pdf:
            from ..printing.pbem_pdf import ships_pdf
            pdf = ships_pdf
        today = date.today()
        try:
            seeds = dice.ensure_seeds_action(session) if dice.is_verifiable(session) else None
            if seeds is not None:
                doc.apply(seeds)  # the next turn's commitment, one undo step
            # The closed turns' seeds go out: a mark in the ledger, one undo step.
            written = export_turn_reports(session, turn, folder, pdf=pdf, date=today,
                                          apply=doc.apply)
            everyone = record.players(session)
            reports = [(p.name, turn_report(session, p, turn, date=today)) for p in everyone]
        except RuleViolation as exc:
            self._warn("Cannot write the turn reports", str(exc))
            return None
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            self._warn("Cannot write the turn reports", f"{folder}: {why}")
            return None
        set_setting("pbem_folder", str(folder))
        # export_turn_reports writes each player's files in turn: .txt, .shipsheet[, .pdf]
        groups: list[list[Path]] = []
        for path in written:
            if path.suffix == ".txt":
                groups.append([])
            groups[-1].append(path)
        rows = [(name, report, files) for (name, report), files in zip(reports, groups)]
        out = Path(folder) / f"turn-{turn}"
        dialog = pbem_dialogs.TurnReportsDialog(turn, out, rows, mailto_url, self.window)
        dialog.mail_requested.connect(self._open_mail)
        self.reports_dialog = self._show(self.reports_dialog, dialog)
        self.window.show_status(f"Turn {turn} reports written in {out}")
        return dialog

    def _open_mail(self, url: str) -> None:
        if not open_url(url):
            self._warn("No mail program", "ShipSheet could not open a mail program. Use Copy "
                       "Text and paste the report into an e-mail.")

    def verify_dice(self):
        """File ▸ PBEM ▸ Verify Dice…: the dialog (shown)."""
        if self.doc is None:
            return None
        dialog = pbem_dialogs.VerifyDiceDialog(self.doc.session, self.window)
        self.verify_dialog = self._show(self.verify_dialog, dialog)
        return dialog

    # -- the player's side
    def export_orders(self, path: str | Path | None = None) -> Path | None:
        """File ▸ PBEM ▸ Export Orders for Turn N…: the warnings first (Write Anyway or
        Cancel), then the file; the player file is saved after (it records the number).
        The first time, the player's own signing key is made (kept in their state folder,
        never sent) and a join file written beside the orders, to send with them once."""
        from ..pbem import record
        from ..pbem.joins import make_join, write_join
        from ..pbem.keys import load_key, show_fingerprint
        from ..pbem.orders import current_orders, export_orders, order_warnings
        from ..pbem.public import known_keys
        from ..model.files import safe_file_name
        doc = self.doc
        if doc is None:
            return None
        session = doc.session
        try:
            me = record.own_player(session)
            uid = record.moderator_uid(session)
            orders = current_orders(session)
            warnings = order_warnings(session, orders)
            key = load_key(uid, me.name)
        except RuleViolation as exc:
            self._warn("Cannot export orders", str(exc))
            return None
        turn = session.turn
        if warnings:
            labels = [order_label(session, o) for o in orders]
            dialog = pbem_dialogs.OrdersWarningsDialog(turn, labels, warnings, self.window)
            if not run_dialog(dialog):
                return None
        if path is None:
            start = doc.path.parent if doc.path else Path(self._folder_start())
            name = f"{safe_file_name(me.name)}-turn-{turn}{ORDERS_SUFFIX}"
            path = pick_save(self.window, f"Export Orders for Turn {turn}", str(start / name))
            if not path:
                return None
        path = str(path)
        if not path.endswith(ORDERS_SUFFIX):
            path += ORDERS_SUFFIX
        join_path = None
        try:
            listed = known_keys(session).get(me.name) or list(me.keys)
            if key is None or not listed:  # not joined yet: the key, and the file to send
                data, key = make_join(session)
                join_path = write_join(data, Path(path).with_name(
                    f"{safe_file_name(me.name)}{JOIN_SUFFIX}"))
            out = export_orders(session, turn, path, orders, key=key, apply=doc.apply)
        except RuleViolation as exc:
            self._warn("Cannot export orders", str(exc))
            return None
        except OSError as exc:
            self._warn("Cannot export orders", f"{path}: {exc.strerror or exc}")
            return None
        seq = record.sent(session).get(turn)
        saved = self.window.save()
        if join_path is not None:
            QMessageBox.information(
                self.window, "Your Signing Key",
                f"Your orders are signed with a key of your own, made on this machine and "
                f"kept here (it never leaves it). Its fingerprint:\n\n"
                f"    {show_fingerprint(key.fingerprint)}\n\n"
                f"Send the moderator {join_path.name} with these orders, once. Every report "
                f"lists each player's fingerprint: check that yours is this one.")
        self.window.show_status(
            f"Wrote {out.name}: {count_words(len(orders), 'order')} for turn {turn} (number {seq})"
            + (f", and {join_path.name} to send with it" if join_path else "")
            + ("" if saved else " — save this player file: it records the number"))
        return out

    # -- dropped files
    def drop(self, paths: Iterable[str]) -> bool:
        """Orders files dropped on the window: imported into a moderator's session."""
        orders = [p for p in paths if p.endswith((ORDERS_SUFFIX, JOIN_SUFFIX))]
        if not orders:
            return False
        if self.role() != MODERATOR:
            self._warn("Cannot import orders", "Orders files are imported into the moderator's "
                       "session: open it, set up its players (File ▸ PBEM ▸ Players…), and "
                       "drop the files again.")
            return True
        self.import_orders(orders)
        return True


def order_label(session: "Session", order: dict) -> str:
    """"Resolute, Standing orders": an order's ship and form, in words."""
    from ..pbem.players import find_form
    ship = next((s for s in session.ships if s.id == order.get("ship")), None)
    if ship is None:
        return str(order.get("ship"))
    spec = find_form(session, ship, order.get("form"))
    return f"{ship.name}, {spec['title'] if spec else order.get('form')}"


__all__ = ["DecisionsView", "PbemDesk", "TurnDeskView", "guard_for", "open_url",
           "pick_files", "pick_folder", "pick_save", "role_of", "run_dialog"]
