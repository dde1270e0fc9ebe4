"""The Federation Commander volley dialog: target, shield, damage, DAC rolls, preview, Apply.

The preview is the rules' own (``preview_volley``): every allocation attempt
with its roll, row, column, cell, the box hit (or frame, skipped, lost) and
why, then the notes on standing orders that are not applied. Apply makes the
same volley through ``volley_action``: one undo step, and the session log
(the moderator's log) gets one line per point. Rolls can be typed from
physical dice — all of them: too few are refused by the rules (in words that say
how many the volley needs), never topped up from the session dice (issue 31).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QFont, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QButtonGroup, QCheckBox, QComboBox, QDialog,
                               QFormLayout, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QPushButton, QRadioButton, QSpinBox, QTableView, QToolButton,
                               QVBoxLayout, QWidget)

from ....model import RuleViolation, check_die
from ....rules.fedcom import (Overrides, VolleyResult, orders_of, preview_volley, session_chart,
                            shield_left, status, volley_action)
from ....rules.fedcom.volley import FRAME_HIT, HIT, MAX_VOLLEY, volley_number
from ....rules.fedcom.words import SHIELD_NAMES
from ...document import HistoryAction, SessionDocument
from ...layouts import fit_to_screen
from ...plaintext import esc, rich

COLUMNS = ("Point", "Roll", "Row", "Col", "Cell", "Result", "Why")
DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
FONT = int(Qt.ItemDataRole.FontRole.value)
ALIGN = int(Qt.ItemDataRole.TextAlignmentRole.value)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
CENTRE = int(Qt.AlignmentFlag.AlignCenter.value)
_SPLIT = re.compile(r"[\s,;]+")


def parse_rolls(text: str) -> list[int]:
    """Typed die rolls ("3 5, 2") as numbers; the rules check each is a d6 roll."""
    rolls = []
    for token in _SPLIT.split(text.strip()):
        if not token:
            continue
        if not token.isdigit():
            raise RuleViolation(f'"{token}" is not a die roll: type the numbers the dice show, '
                                f'e.g. 3 5 2.')
        rolls.append(int(token))
    return rolls


class VolleyModel(QAbstractTableModel):
    """The preview's points, one row per allocation attempt."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.result: VolleyResult | None = None
        self._rows: list[tuple] = []
        self._bold = QFont()
        self._bold.setBold(True)
        self._italic = QFont()
        self._italic.setItalic(True)

    def set_result(self, result: VolleyResult | None) -> None:
        self.beginResetModel()
        self.result = result
        rows = []
        for p in (result.points if result else ()):
            point = f"{p.point}" if p.attempt == 1 else f"{p.point} again"
            if p.outcome == HIT:
                what = p.box or ""
            elif p.outcome == FRAME_HIT:
                what = "frame"
            else:
                what = p.outcome
            rows.append((point, "" if p.roll is None else str(p.roll),
                         "" if p.row is None else str(p.row),
                         "" if p.column is None else str(p.column), p.cell, what, p.reason,
                         p.outcome, p))
        self._rows = rows
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index, role=DISPLAY):
        # Called for every visible cell and role on every paint: plain ints, no enum lookups.
        if role == DISPLAY:
            return self._rows[index.row()][index.column()]
        if role == FONT:
            if index.column() != 5:
                return None
            return self._bold if self._rows[index.row()][7] in (FRAME_HIT, HIT) else self._italic
        if role == ALIGN:
            return CENTRE if 1 <= index.column() <= 3 else None
        if role == TOOLTIP:
            return self._rows[index.row()][8].line()
        return None

    def text_rows(self) -> list[list[str]]:
        """The table as text, row by row (what a user reads)."""
        return [list(r[:7]) for r in self._rows]


class VolleyDialog(QDialog):
    """Allocate one volley against a ship, previewed point by point, applied as one undo step."""

    def __init__(self, doc: SessionDocument, ship_id: str | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle("Volley — Federation Commander")
        self.setAccessibleName("Volley")
        fit_to_screen(self, 860, 640)
        self.result: VolleyResult | None = None
        self.error: str = ""

        self.target = QComboBox()
        self.target.setToolTip("The ship the volley hits")
        self.shield = QComboBox()
        self.shield.setToolTip("The shield facing the volley: its boxes take damage first; a volley "
                               "of 10 or more that does not get through still scores one internal "
                               "point (burn-through). Choose none for internal damage only.")
        self.damage = QSpinBox()
        self.damage.setRange(0, MAX_VOLLEY)
        self.damage.setAccelerated(True)
        self.damage.setToolTip("The volley's total damage points")
        self.roll_mode = QRadioButton("&Roll with the session dice")
        self.roll_mode.setToolTip("The session's seeded dice roll every DAC row (logged)")
        self.type_mode = QRadioButton("T&ype the rolls from physical dice")
        self.type_mode.setToolTip("Type the d6 rolls for the DAC rows, in order: every roll the "
                                  "volley needs (too few are refused, never topped up)")
        self.modes = QButtonGroup(self)
        self.modes.addButton(self.roll_mode)
        self.modes.addButton(self.type_mode)
        self.roll_mode.setChecked(True)
        self.rolls = QLineEdit()
        self.rolls.setPlaceholderText("e.g. 3 5 2 — one d6 per group of up to 10 points")
        self.rolls.setToolTip("One d6 per group of up to 10 internal points, in order, including "
                              "the groups of skipped points allocated again; too few are refused; "
                              "extra rolls are ignored")
        self.rolls.setEnabled(False)
        self.use_orders = QCheckBox("Apply the ship's standing &orders")
        self.use_orders.setChecked(True)
        self.use_orders.setToolTip("Untick to allocate by the DDAP alone, ignoring this turn's "
                                   "standing orders (SOP)")
        self.orders_text = QLabel()
        self.orders_text.setWordWrap(True)
        self.chart_text = QLabel()
        self.chart_text.setWordWrap(True)
        self.chart_text.setToolTip("The session's Damage Allocation Chart (choose it in the Actions panel)")

        form = QFormLayout()
        for label, widget in (("&Target ship:", self.target), ("&Shield:", self.shield),
                              ("&Damage:", self.damage)):
            lab = QLabel(label)
            lab.setBuddy(widget)
            form.addRow(lab, widget)
        dice = QHBoxLayout()
        dice.addWidget(self.roll_mode)
        dice.addWidget(self.type_mode)
        dice.addWidget(self.rolls, 1)
        dice_label = QLabel("DAC rolls:")
        form.addRow(dice_label, dice)
        self.rolls_info = QLabel()
        self.rolls_info.setWordWrap(True)
        form.addRow("", self.rolls_info)
        form.addRow("Chart:", self.chart_text)
        form.addRow(self.use_orders, self.orders_text)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        bold = self.summary.font()
        bold.setBold(True)
        self.summary.setFont(bold)
        self.summary.setAccessibleName("Volley summary")
        self.model = VolleyModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Preview: every point")
        self.table.setToolTip("Every point of the volley: the DAC roll, row and column, the chart "
                              "cell, the box hit (or frame, skipped, lost) and why")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        for col, width in enumerate((62, 40, 40, 40, 130, 110)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(col, width)
        preview_label = QLabel("&Preview:")
        preview_label.setBuddy(self.table)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setAccessibleName("The selected point in full")
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setAccessibleName("Standing orders not applied")
        self.message = rich(QLabel())  # our markup; what comes from elsewhere goes through esc()
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Message")
        self.applied_label = QLabel()  # plain text: the action's name holds the ship's name
        self.applied_label.setWordWrap(True)
        self.applied_label.setAccessibleName("Applied")
        self._applied_at: int | None = None  # the undo stack's index right after our Apply
        self._applied_form: tuple = ()        # the (empty) form right after it

        self.apply_button = QPushButton("&Apply")
        self.apply_button.setToolTip("Apply this volley to the ship (one undo step; the log gets "
                                     "one line per point)")
        self.copy_button = QPushButton("Cop&y preview")
        self.copy_button.setToolTip("Copy the preview as plain text")
        self.undo_action = HistoryAction(doc, self, "Undo")
        self.undo_button = QToolButton()
        self.undo_button.setDefaultAction(self.undo_action)
        self.undo_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Close the dialog (Esc)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.close_button)
        for button in (self.apply_button, self.copy_button, self.close_button):
            # Enter after typing a die or the damage never applies (or repeats) a volley.
            button.setAutoDefault(False)
            button.setDefault(False)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(preview_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.notes)
        layout.addWidget(self.message)
        layout.addWidget(self.applied_label)
        layout.addLayout(buttons)

        self._fill_targets(ship_id)
        self.target.currentIndexChanged.connect(self._target_changed)
        self.shield.currentIndexChanged.connect(self._form_changed)
        self.damage.valueChanged.connect(self._form_changed)
        self.roll_mode.toggled.connect(self._mode_changed)
        self.rolls.textChanged.connect(self._form_changed)
        self.use_orders.toggled.connect(self._form_changed)
        self.table.selectionModel().currentRowChanged.connect(self._show_details)
        self.apply_button.clicked.connect(self.apply)
        self.copy_button.clicked.connect(self.copy_preview)
        self.close_button.clicked.connect(self.close)
        self._refusal = ""
        doc.changed.connect(self._doc_changed)
        doc.refused.connect(self._refused)
        self._target_changed()

    # -- inputs ---------------------------------------------------------------------------
    @property
    def ship(self):
        ship_id = self.target.currentData()
        for ship in self.doc.session.ships:
            if ship.id == ship_id:
                return ship
        return None

    def _fill_targets(self, ship_id: str | None = None) -> None:
        current = ship_id or self.target.currentData()
        self.target.blockSignals(True)
        self.target.clear()
        for ship in self.doc.session.ships:
            words = status(ship)
            tag = " — destroyed" if words.destroyed else (" — crippled" if words.crippled else "")
            side = f" ({ship.side})" if ship.side else ""
            self.target.addItem(f"{ship.name}{side}{tag}", ship.id)
        self.target.setCurrentIndex(max(0, self.target.findData(current)))
        self.target.blockSignals(False)

    def _fill_shields(self) -> None:
        ship = self.ship
        current = self.shield.currentData() if self.shield.count() else 1
        self.shield.blockSignals(True)
        self.shield.clear()
        self.shield.addItem("None: internal damage only", None)
        if ship is not None:
            sizes = ship.ship_class.spec.shields
            for n in range(1, 7):
                self.shield.addItem(f"#{n} {SHIELD_NAMES[n]}: {shield_left(ship, n)} of "
                                    f"{sizes[n - 1]} boxes up", n)
        self.shield.setCurrentIndex(max(0, self.shield.findData(current)))
        self.shield.blockSignals(False)

    def _target_changed(self, *_args) -> None:
        self._fill_shields()
        self._form_changed()

    def _mode_changed(self, *_args) -> None:
        self.rolls.setEnabled(self.type_mode.isChecked())
        if self.type_mode.isChecked():
            self.rolls.setFocus()
        self._form_changed()

    def _form(self) -> tuple:
        """What the form holds now (to tell a real change from a signal that changed nothing:
        Enter in the damage box emits valueChanged with the same value)."""
        return (self.target.currentData(), self.shield.currentData(), self.damage.value(),
                self.type_mode.isChecked(), self.rolls.text(), self.use_orders.isChecked())

    def _form_changed(self, *_args) -> None:
        """The user changed the form: a new volley is being set up, the last Apply is history."""
        if self._applied_at is not None and self._form() != self._applied_form:
            self._clear_applied()
        self.refresh_preview()

    def _clear_applied(self) -> None:
        self.applied_label.setText("")
        self._applied_at = None

    def _history_moved(self) -> None:
        """Undo, redo or another change since our Apply: "Applied: …" is no longer news."""
        if self._applied_at is not None and self.doc.session.undo_status().step != self._applied_at:
            self._clear_applied()

    def _doc_changed(self) -> None:
        """The session changed (an apply, an undo, another window's click): start again from it."""
        self._history_moved()
        self._fill_targets()
        self._fill_shields()
        self.refresh_preview()

    def _refused(self, message: str) -> None:
        self._refusal = message

    def typed_rolls(self) -> list[int] | None:
        """The typed rolls, or None when the session dice roll."""
        if not self.type_mode.isChecked():
            return None
        return [check_die(r, 6, "a DAC row") for r in parse_rolls(self.rolls.text())]

    def set_inputs(self, *, ship_id: str | None = None, damage: int | None = None,
                   shield: int | None | str = "keep", rolls: list[int] | str | None = None) -> None:
        """Fill the form as a user would (for scripts and tests); refreshes the preview once.
        Aimed at another ship (``ship_id`` not the target now: the panel's Volley for the
        ship selected), the form starts fresh: no damage, no typed rolls, as after an Apply —
        a volley set up (and not applied) for one ship is never left filled in for the next."""
        widgets = (self.target, self.shield, self.damage, self.rolls, self.roll_mode, self.type_mode)
        for w in widgets:
            w.blockSignals(True)
        try:
            if ship_id is not None and ship_id != self.target.currentData():
                self.damage.setValue(0)
                self.rolls.clear()
                self.table.clearSelection()
            if ship_id is not None:
                self.target.setCurrentIndex(self.target.findData(ship_id))
                self._fill_shields()
            if shield != "keep":
                self.shield.setCurrentIndex(self.shield.findData(shield))
            if damage is not None:
                self.damage.setValue(damage)
            if rolls is not None:
                self.type_mode.setChecked(True)
                self.rolls.setEnabled(True)
                self.rolls.setText(rolls if isinstance(rolls, str) else " ".join(map(str, rolls)))
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._form_changed()

    # -- the preview ------------------------------------------------------------------------------
    def refresh_preview(self, *_args) -> None:
        """Work the volley out again from the inputs (the rules' preview; nothing changes)."""
        session = self.doc.session
        ship = self.ship
        self.result = None
        self.error = ""
        orders = orders_of(ship) if ship is not None else Overrides()
        self.orders_text.setText("; ".join(orders.describe()) if orders else
                                 "none this turn: the DDAP decides every hit")
        self.use_orders.setEnabled(bool(orders))
        try:
            chart = session_chart(session.options)
            self.chart_text.setText(chart.name)
            if ship is None:
                raise RuleViolation("Choose the ship the volley hits.")
            typed = self.typed_rolls()
            overrides = None if self.use_orders.isChecked() else Overrides()
            self.result = preview_volley(session, ship, self.damage.value(), rolls=typed,
                                         shield=self.shield.currentData(), overrides=overrides,
                                         chart=chart)
        except RuleViolation as exc:
            self.error = str(exc)
        self._show()

    def _show(self) -> None:
        result = self.result
        if result is not None and self.damage.value() <= 0:
            result = None  # no damage yet: nothing to preview (and nothing to apply)
        self.model.set_result(result)
        self.details.setText("Select a point to read it in full." if result and result.points else "")
        if result is None:
            self.summary.setText("")
            self.rolls_info.setText("")
            self.notes.setText("")
            self.message.setText(f"<b>Cannot allocate:</b> {esc(self.error)}" if self.error else "")
            self.apply_button.setEnabled(False)
            return
        self.summary.setText(result.summary())
        typed = self.typed_rolls() or []
        used = result.rolls
        n_typed = min(len(typed), len(used))
        if not used:
            info = "No DAC roll needed: no internal damage."
        else:
            info = f"This volley uses {len(used)} DAC roll{'s' if len(used) != 1 else ''} "
            info += "(one per group of up to 10 points): "
            parts = []
            if n_typed:
                parts.append(f"typed {' '.join(map(str, used[:n_typed]))}")
            if len(used) > n_typed:
                parts.append(f"rolled by the session dice {' '.join(map(str, used[n_typed:]))}")
            info += "; ".join(parts) + "."
        if len(typed) > len(used):
            info += f" Typed rolls not needed (ignored): {' '.join(map(str, typed[len(used):]))}."
        self.rolls_info.setText(info)
        self.notes.setText("\n".join(f"Note: {n}" for n in result.notes))
        self.message.setText("")
        self.apply_button.setEnabled(self.damage.value() > 0)

    def _show_details(self, current, _previous=None) -> None:
        """The selected point as its full log line (the Why column is often cut short)."""
        result = self.result
        if result is None or not current.isValid() or current.row() >= len(result.points):
            self.details.setText("")
            return
        ship = self.ship
        volley = volley_number(self.doc.session, ship) if ship is not None else None
        self.details.setText(result.points[current.row()].line(volley))

    def preview_lines(self) -> list[str]:
        """The preview as the moderator's log will read it (numbered as the ship's next volley)."""
        ship = self.ship
        if self.result is None or ship is None:
            return []
        return self.result.lines(volley_number(self.doc.session, ship))

    def copy_preview(self) -> None:
        QGuiApplication.clipboard().setText("\n".join(self.preview_lines()))
        self.message.setText("Preview copied as plain text.")

    # -- apply -----------------------------------------------------------------------------------
    def apply(self) -> bool:
        """Apply the previewed volley (one undo step). True when applied."""
        ship = self.ship
        if ship is None or self.result is None or self.damage.value() <= 0:
            return False
        try:
            typed = self.typed_rolls()
        except RuleViolation as exc:
            self.message.setText(f"<b>Not applied:</b> {esc(exc)}")
            return False
        overrides = None if self.use_orders.isChecked() else Overrides()
        action = volley_action(ship, self.damage.value(), rolls=typed,
                               shield=self.shield.currentData(), overrides=overrides)
        self._refusal = ""
        if not self.doc.do(action):
            self.message.setText(f"<b>Not applied:</b> {esc(self._refusal)}")
            return False
        self.reset()
        self._applied_at = self.doc.session.undo_status().step
        self._applied_form = self._form()
        keys = self.undo_action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        self.applied_label.setText(f"Applied: {action.name}. The log has one line per point; "
                                   f"Undo ({keys}) takes it back.")
        return True

    def reset(self) -> None:
        """Start the next volley afresh: no damage, no typed rolls (those dice are spent), no
        preview. The target, shield, dice mode and orders choice stay, as a moderator expects
        when the same ship takes another volley."""
        for w in (self.damage, self.rolls):
            w.blockSignals(True)
        try:
            self.damage.setValue(0)
            self.rolls.clear()
        finally:
            for w in (self.damage, self.rolls):
                w.blockSignals(False)
        self.refresh_preview()
        self.table.clearSelection()
        self.damage.setFocus()
        self.damage.selectAll()  # the next volley's damage types over the 0


__all__ = ["COLUMNS", "VolleyDialog", "VolleyModel", "parse_rolls"]
