"""File ▸ PBEM: the play-by-e-mail desk in the window (``shipsheet/pbem/DESK.md``).

The moderator's side: Players… (one undo step), Export Player Files…, Import Orders… (also
orders files dropped on the window; a report lists each file accepted or refused and why;
each accepted file is one undo step), the Turn Desk (a dock: per player, this turn's orders
missing, arrived, applied or refused), Export Turn Reports… (with Open in Mail), and
Verify Dice…. The player's side, in a player file: Export Orders for Turn N… (the warnings
first), the Decisions dock (the player's decision forms: the only changes a player file
takes, :func:`guard_for`).

Changes go on the window's undo stack through ``SessionDocument.apply`` wherever the pbem
layer hands over an action (the players, the dice seeds); ``import_orders`` and
``export_orders`` apply theirs to the session themselves, and :func:`record_changes` puts
each one on the undo stack. The ``pbem`` and ``printing`` modules are imported when first
used, so start-up does not pay for them.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from PySide6.QtCore import QObject, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDockWidget, QFileDialog, QFormLayout,
                               QGroupBox, QLineEdit, QMenu, QMessageBox, QPushButton,
                               QScrollArea, QSpinBox, QVBoxLayout, QWidget)

from ..model import Action, RuleViolation
from ..model.update import count_words
from . import pbem_dialogs
from .document import ActionCommand
from .pbem_dialogs import (cell, fit_columns, fit_rows, heading, note, run_dialog, status_cell,
                           table, table_rows)
from .plaintext import plain_label
from .settings import get_setting, set_setting

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session
    from .document import SessionDocument

ORDERS_SUFFIX = ".orders.json"
ORDERS_FILTER = "ShipSheet orders (*.orders.json);;All files (*)"
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


# -- the model's changes on the window's undo stack ---------------------------------------------

def record_changes(doc: "SessionDocument", fn: Callable[[], object]):
    """Run ``fn``, which applies changes to ``doc.session`` itself, and put each change it
    made on the document's undo stack, one undo step each; ``fn``'s result.

    For pbem functions that hand over no action (``pbem.orders.import_orders``,
    ``export_orders``); where one does, use ``doc.apply(action)``. Sound because it ends as
    :meth:`SessionDocument.apply` does: each ``session.apply`` puts one Change on the
    session's own history and notifies it; the ActionCommand pushed for it does nothing on
    its first redo (the change is made), and later calls ``session.undo()`` /
    ``session.redo()``, which step that same history. The commands are pushed in the order
    the changes were made, so the QUndoStack and the session's history stay in step, also
    when ``fn`` raises after some changes. ``fn`` must only apply (an undo or redo inside it
    would be recorded as a step). ``doc.guard`` is not asked: these are the desk's own
    changes (a player file records the number of the orders it sent, which a player's
    guard would refuse)."""
    made = []
    listen = made.append
    doc.session.subscribe(listen)
    try:
        return fn()
    finally:
        doc.session.unsubscribe(listen)
        for change in made:
            doc.undo_stack.push(ActionCommand(doc, change.name))


class Together(Action):
    """Two actions as one undo step (the players, and verifiable dice from this turn)."""

    def __init__(self, first: Action, second: Action):
        self.first, self.second = first, second
        self.name = first.name

    def touches(self, session: "Session"):
        a, b = self.first.touches(session), self.second.touches(session)
        return None if a is None or b is None else (*a, *b)

    def apply(self, session: "Session", ctx) -> None:
        self.first.apply(session, ctx)
        self.second.apply(session, ctx)


def role_of(session: "Session | None") -> str | None:
    """"moderator", "player", None (not played by e-mail, or no session), or "damaged"."""
    if session is None or not session.pbem:
        return None
    from ..pbem import record
    try:
        return record.role(session)
    except RuleViolation:
        return "damaged"


def guard_for(session: "Session") -> Callable[[Action], str | None] | None:
    """In a player file, what refuses every change but the player's own decisions
    (``pbem.players.may_apply``); None elsewhere."""
    if role_of(session) != PLAYER:
        return None
    from ..pbem.players import Decision, may_apply

    def guard(action: Action) -> str | None:
        why = may_apply(session, action)
        if why and not isinstance(action, Decision):
            why += " Make your decisions in the Decisions panel (View ▸ Decisions)."
        return why
    return guard


# -- the turn desk ------------------------------------------------------------------------------

class TurnDeskView(QWidget):
    """Per player: this turn's orders missing, arrived, applied or refused (with why)."""

    HEADERS = ("Player", "Orders", "No.", "Why")

    def __init__(self, doc: "SessionDocument", parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.title = heading()
        self.view = table(self.HEADERS)
        self.view.setAccessibleName("Turn desk")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.view, 1)
        doc.changed.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        from ..pbem.desk import MISSING, turn_desk
        session = self.doc.session
        try:
            rows = turn_desk(session)
        except RuleViolation as exc:
            self.title.setText(str(exc) if role_of(session) == "damaged" else
                               "No players yet: set them up with File ▸ PBEM ▸ Players…")
            self.view.setRowCount(0)
            return
        done = sum(1 for r in rows if r.status == "applied")
        self.title.setText(f"Turn {session.turn}: orders applied for {done} of "
                           f"{count_words(len(rows), 'player')}")
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
        self.act_desk = act("Turn &Desk", self.show_desk, tip="Per player: this turn's orders "
                            "missing, arrived, applied or refused")
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

    def update(self) -> None:
        """Enable the entries of the session's role (the window calls this on every change)."""
        has = self.doc is not None
        role = self.role()
        moderator = role == MODERATOR
        self.act_players.setEnabled(has and role in (None, MODERATOR, "damaged"))
        for a in (self.act_export_players, self.act_import, self.act_desk, self.act_reports):
            a.setEnabled(moderator)
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
            self.desk_view = TurnDeskView(self.doc)
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

    def set_players(self, players: list, show_others: bool, verifiable: bool) -> str | None:
        """Set up the players (and verifiable dice) as one undo step; the refusal or None."""
        from ..pbem import dice
        from ..pbem.players import set_players_action
        doc = self.doc
        try:
            action = set_players_action(doc.session, players, show_others)
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
        try:
            written = export_player_files(self.doc.session, folder)
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
        """File ▸ PBEM ▸ Import Orders… (or files dropped on the window): the report dialog,
        shown; None when nothing was imported."""
        from ..pbem.orders import NEEDS_CONFIRMATION, import_orders
        doc = self.doc
        if doc is None:
            return None
        if paths is None:
            paths = pick_files(self.window, "Import Orders", self._folder_start())
        paths = [Path(p) for p in paths]
        if not paths:
            return None
        try:
            results = record_changes(doc, lambda: import_orders(doc.session, paths))
        except RuleViolation as exc:
            self._warn("Cannot import orders", str(exc))
            return None
        held = [r for r in results if r.status == NEEDS_CONFIRMATION]
        if held:
            lines = "\n".join(f"  {r.path.name}: {r.player}, turn {r.turn}, number {r.seq}"
                              for r in held)
            answer = QMessageBox.question(
                self.window, "Apply Corrections?",
                f"{'These files correct' if len(held) > 1 else 'This file corrects'} orders "
                f"applied already this turn:\n{lines}\n\nApply "
                f"{'them' if len(held) > 1 else 'it'} now, as a new undo step each? (No: "
                f"{'they stay' if len(held) > 1 else 'it stays'} on the turn desk as arrived.)",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No)
            if answer == QMessageBox.StandardButton.Yes:
                again = record_changes(doc, lambda: import_orders(
                    doc.session, [r.path for r in held], confirm=True))
                redone = {id(old): new for old, new in zip(held, again)}
                results = [redone.get(id(r), r) for r in results]
        set_setting("pbem_folder", str(paths[0].parent))
        self.report_dialog = self._show(self.report_dialog,
                                        pbem_dialogs.ImportReportDialog(results, self.window))
        accepted = sum(1 for r in results if r.accepted)
        self.window.show_status(f"Orders: {accepted} of {count_words(len(results), 'file')} "
                                f"accepted")
        return self.report_dialog

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
            written = export_turn_reports(session, turn, folder, pdf=pdf, date=today)
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
        Cancel), then the file; the player file is saved after (it records the number)."""
        from ..pbem import record
        from ..pbem.orders import current_orders, export_orders, order_warnings
        from ..pbem.reports import safe_file_name
        doc = self.doc
        if doc is None:
            return None
        session = doc.session
        try:
            me = record.own_player(session)
            orders = current_orders(session)
            warnings = order_warnings(session, orders)
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
        try:
            out = record_changes(doc, lambda: export_orders(session, turn, path, orders))
        except RuleViolation as exc:
            self._warn("Cannot export orders", str(exc))
            return None
        except OSError as exc:
            self._warn("Cannot export orders", f"{path}: {exc.strerror or exc}")
            return None
        seq = record.sent(session).get(turn)
        saved = self.window.save()
        self.window.show_status(
            f"Wrote {out.name}: {count_words(len(orders), 'order')} for turn {turn} (number {seq})"
            + ("" if saved else " — save this player file: it records the number"))
        return out

    # -- dropped files
    def drop(self, paths: Iterable[str]) -> bool:
        """Orders files dropped on the window: imported into a moderator's session."""
        orders = [p for p in paths if p.endswith(ORDERS_SUFFIX)]
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


__all__ = ["DecisionsView", "PbemDesk", "Together", "TurnDeskView", "guard_for", "open_url",
           "pick_files", "pick_folder", "pick_save", "record_changes", "role_of", "run_dialog"]
