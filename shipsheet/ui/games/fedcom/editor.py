"""Federation Commander: the card (race, size class, damage control, frame, shields), its boxes,
the heavy-weapon order and the ship's own kinds.

Fast entry for long cards: the "Add boxes" row adds N boxes of a kind at once,
numbered for you (``left-warp-7`` … after the last one), with only the fields
their kind uses (the others are greyed, in the row and in the table, and never
written to the file); picking a kind brings back what was last added of that
kind, or the kind's defaults (a tractor starts unused); rows can be
duplicated (Ctrl+D), deleted (Delete), moved with Alt+Up/Alt+Down or by
dragging. Everything can be done from the keyboard: Tab moves between fields
and cells, typing in a cell edits it, Enter in the "Add boxes" row adds.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QGridLayout, QGroupBox, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QListWidget, QPushButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from ....rules.fedcom.card import ARC_DEGREES, REPAIR_COSTS, STANDARD_KINDS, unused_fields
from ....rules.fedcom import card_entries as ops
from ....rules.fedcom.house import house_rule
from ...designer.box_table import (FIELD_COLUMN, FIELDS, HEAVY_SUGGESTIONS, PHASER_ORDER, BoxDelegate,
                        BoxTableModel, BoxTableView)
from ....model.classfiles import Problem, top_key
from ...designer.editor_base import GameEditor, int_of, text_of
from ...designer.widgets import ErrorLabel, combo, spin

SHIELD_NAMES = ("front", "right front", "right rear", "rear", "left rear", "left front")
#: The "Add boxes" row's size and drones for a kind nothing was added of yet (a drone rack
#: of four spaces); type and starting state: the first offered; arc: none.
BAR_SIZE, BAR_DRONES = 1, 4
_BOX = re.compile(r"^boxes\[(\d+)\](?:\.([a-z_]+))?")
_SHIELD = re.compile(r"^shields\[(\d+)\]")


class _EnterAdds(QObject):
    """Enter in any field of the "Add boxes" row adds the boxes."""

    def __init__(self, action, parent=None):
        super().__init__(parent)
        self.action = action

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.action()
            return True
        return False


def _list_group(title: str, widget: QWidget, buttons, *below: QWidget) -> QGroupBox:
    """A group: ``widget`` with ``buttons`` stacked beside it, then ``below`` under both."""
    group = QGroupBox(title)
    grid = QGridLayout(group)
    grid.addWidget(widget, 0, 0, 3, 1)
    for r, button in enumerate(buttons):
        grid.addWidget(button, r, 1)
    for r, w in enumerate(below, start=3):
        grid.addWidget(w, r, 0, 1, 2)
    return group


class FedComEditor(GameEditor):
    """One Federation Commander ship card."""

    game = "fedcom"
    head_keys = ("race", "size_class")
    #: Says what happened, for the window's status bar ("Added 6 left-warp boxes …").
    status = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.extra = QTableWidget(0, 2)  # the ship's own kinds: the kind pickers read it
        self._loading_extra = False
        self._cell: tuple[int, int] | None = None  # the box cell a problem names
        # -- the card --------------------------------------------------------------------
        self.race = QLineEdit()
        self.race.setAccessibleName("Race")
        self.race.setPlaceholderText("optional")
        self.size_class = spin(0, 9, 0, special="—", tip="Size class 1–7 (optional).")
        self.size_class.setAccessibleName("Size class")
        self.damage_control = spin(0, 999, 2, tip="Damage control rating: repair points per turn [FC].")
        self.damage_control.setAccessibleName("Damage control")
        self.frame = spin(0, 999, 4, tip="Frame boxes [FC].")
        self.frame.setAccessibleName("Frame")
        self.shields = []
        card = QGroupBox("Card")
        grid = QGridLayout(card)
        col = 0
        for text, w in (("&Race:", self.race), ("Si&ze class:", self.size_class),
                        ("&Damage control:", self.damage_control), ("Fr&ame:", self.frame)):
            label = QLabel(text)
            label.setBuddy(w)
            grid.addWidget(label, 0, col)
            grid.addWidget(w, 0, col + 1)
            col += 2
        grid.setColumnStretch(1, 3)
        for c in (3, 5, 7):
            grid.setColumnStretch(c, 1)
        shields_row = QHBoxLayout()
        shields_label = QLabel("S&hields:")
        shields_row.addWidget(shields_label)
        for i, name in enumerate(SHIELD_NAMES):
            box = spin(0, 9999, 10, tip=f"Shield #{i + 1} ({name}): its boxes.")
            box.setAccessibleName(f"Shield {i + 1}")
            box.setPrefix(f"#{i + 1}  ")
            self.shields.append(box)
            shields_row.addWidget(box, 1)
        shields_label.setBuddy(self.shields[0])
        grid.addLayout(shields_row, 1, 0, 1, 8)
        self.card_error = ErrorLabel()
        grid.addWidget(self.card_error, 2, 0, 1, 8)

        # -- boxes -----------------------------------------------------------------------
        self.model = BoxTableModel(self)
        self.table = BoxTableView(self.model)
        self.table.setItemDelegate(BoxDelegate(self.model, self.known_kinds, self.table))
        self.add_count = spin(1, 50, 1, tip="How many boxes to add (ids are numbered for you).")
        self.add_count.setAccessibleName("Number of boxes to add")
        self.add_kind = combo(self.known_kinds(), "phaser", tip="The kind of the new boxes.")
        self.add_kind.setAccessibleName("Kind of the new boxes")
        self.add_type = combo(PHASER_ORDER, editable=True,
                              tip="Phaser type, heavy-weapon type or drone rack type.")
        self.add_type.setAccessibleName("Type of the new boxes")
        self.add_size = spin(1, 99, 1, tip="Heavy weapons: size (smaller is hit first).")
        self.add_size.setAccessibleName("Size of the new boxes")
        self.add_arc = combo(["", *ARC_DEGREES], editable=True,
                             tip="Firing arc: FA, LS, LF+L … or degrees (120).")
        self.add_arc.setAccessibleName("Arc of the new boxes")
        self.add_drones = spin(0, 99, BAR_DRONES, tip="Drone racks: drone spaces.")
        self.add_drones.setAccessibleName("Drones of the new boxes")
        self.add_start = combo([], tip="Shuttle bays: occupant. Tractors: starting state.")
        self.add_start.setAccessibleName("Starting state of the new boxes")
        self._bar_last: dict[str, dict] = {}  # kind -> what was last added of it
        self.add_button = QPushButton("Add &Boxes")
        self.add_button.setToolTip("Add the boxes after the last box of the same kind (Enter).")
        self.add_button.clicked.connect(self.add_from_bar)
        bar = QGridLayout()
        bar.setHorizontalSpacing(6)
        add_label = QLabel("Add:")
        add_label.setBuddy(self.add_count)
        items = ((add_label, self.add_count, QLabel("×"), self.add_kind),
                 (QLabel("type"), self.add_type, QLabel("size"), self.add_size),
                 (QLabel("arc"), self.add_arc, QLabel("drones"), self.add_drones),
                 (QLabel("starts"), self.add_start, None, self.add_button))
        col = 0
        for group in items:
            for w in group:
                if w is not None:
                    bar.addWidget(w, 0, col)
                col += 1
        bar.setColumnStretch(3, 2)
        bar.setColumnStretch(5, 2)
        bar.setColumnStretch(9, 1)
        bar.setColumnStretch(13, 2)
        self._enter = _EnterAdds(self.add_from_bar, self)
        for w in (self.add_count, self.add_kind, self.add_type, self.add_size, self.add_arc,
                  self.add_drones, self.add_start):
            w.installEventFilter(self._enter)
            if isinstance(w, QComboBox) and w.isEditable():
                w.lineEdit().installEventFilter(self._enter)
        self.add_kind.currentTextChanged.connect(self._bar_kind_changed)

        self.dup_button = QPushButton("Dup&licate")
        self.dup_button.setToolTip("Copy the selected rows, with new ids (Ctrl+D).")
        self.del_button = QPushButton("D&elete")
        self.del_button.setToolTip("Remove the selected rows (Delete).")
        self.up_button = QPushButton("Mo&ve Up")
        self.up_button.setToolTip("Move the selected rows up (Alt+Up). Dragging rows works too.")
        self.down_button = QPushButton("Move Do&wn")
        self.down_button.setToolTip("Move the selected rows down (Alt+Down).")
        self.dup_button.clicked.connect(self.duplicate_selected)
        self.del_button.clicked.connect(self.delete_selected)
        self.up_button.clicked.connect(lambda: self.table.move_selected(-1))
        self.down_button.clicked.connect(lambda: self.table.move_selected(1))
        self.table.duplicate_requested.connect(self.duplicate_selected)
        self.table.delete_requested.connect(self.delete_selected)
        row_buttons = QHBoxLayout()
        for b in (self.dup_button, self.del_button, self.up_button, self.down_button):
            row_buttons.addWidget(b)
        row_buttons.addStretch(1)
        tip = QLabel("Tab moves between cells · type to edit · drag rows to reorder")
        tip.setStyleSheet("color: palette(placeholder-text);")
        row_buttons.addWidget(tip)
        self.boxes_group = QGroupBox("Boxes")
        blayout = QVBoxLayout(self.boxes_group)
        blayout.addLayout(bar)
        blayout.addWidget(self.table, 1)
        blayout.addLayout(row_buttons)
        self.boxes_error = ErrorLabel()
        blayout.addWidget(self.boxes_error)
        # What a loaded file gave that the card does not use: not kept (said until the next load).
        self.boxes_note = QLabel()
        self.boxes_note.setWordWrap(True)
        self.boxes_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.boxes_note.setAccessibleName("Not kept from the file")
        self.boxes_note.setStyleSheet("color: palette(placeholder-text);")
        self.boxes_note.hide()
        blayout.addWidget(self.boxes_note)
        self.not_kept: list[str] = []

        # -- heavy-weapon order and the ship's own kinds -----------------------------------
        self.order = QListWidget()
        self.order.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.order.setAccessibleName("Heavy-weapon order")
        self.order.setToolTip("With several heavy-weapon types, the owner says which is hit "
                              "first (8FC4); the type listed first is hit first. Drag, or use "
                              "the buttons.\n\n" + house_rule("Heavy-weapon type order"))
        self.order.setMaximumHeight(66)
        self.order.model().rowsMoved.connect(self.emit_changed)
        order_up = QPushButton("Up")
        order_up.setToolTip("Hit this type earlier")
        order_down = QPushButton("Down")
        order_down.setToolTip("Hit this type later")
        order_up.clicked.connect(lambda: self._move_order(-1))
        order_down.clicked.connect(lambda: self._move_order(1))
        self.order_error = ErrorLabel()
        self.order_hint = QLabel("Needed only with several heavy-weapon types: the first "
                                 "listed is hit first.")
        self.order_hint.setWordWrap(True)
        self.order_hint.setStyleSheet("color: palette(placeholder-text);")
        order_group = _list_group("Heavy-weapon order", self.order, (order_up, order_down),
                                  self.order_hint, self.order_error)

        self.extra.setHorizontalHeaderLabels(["Kind", "Repaired as"])
        self.extra.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.extra.verticalHeader().hide()
        self.extra.setMaximumHeight(66)
        self.extra.setAccessibleName("The ship's own kinds")
        self.extra.setToolTip("Kinds this ship has beyond the standard ones (e.g. fighter-bay), "
                              "each with how it is repaired.")
        self.extra.itemChanged.connect(self._extra_changed)
        extra_add = QPushButton("Add")
        extra_add.setToolTip("Declare a kind of this ship's own")
        extra_remove = QPushButton("Remove")
        extra_add.clicked.connect(lambda: self.add_extra_kind("", "systems"))
        extra_remove.clicked.connect(self._remove_extra)
        self.extra_error = ErrorLabel()
        extra_group = _list_group("The ship's own kinds", self.extra, (extra_add, extra_remove),
                                  self.extra_error)
        bottom = QHBoxLayout()
        bottom.addWidget(order_group, 1)
        bottom.addWidget(extra_group, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(card)
        layout.addWidget(self.boxes_group, 1)
        layout.addLayout(bottom)

        for w in (self.size_class, self.damage_control, self.frame, *self.shields):
            w.valueChanged.connect(self.emit_changed)
        self.race.textEdited.connect(self.emit_changed)
        self.model.edited.connect(self._rows_changed)
        self._bar_kind_changed(self.add_kind.currentText())

    # -- kinds ------------------------------------------------------------------------------
    def extra_kinds(self) -> dict[str, str]:
        """The ship's own kinds and how each is repaired."""
        out: dict[str, str] = {}
        for r in range(self.extra.rowCount()):
            item = self.extra.item(r, 0)
            box = self.extra.cellWidget(r, 1)
            name = item.text().strip() if item else ""
            if name:
                out[name] = box.currentText() if isinstance(box, QComboBox) else "systems"
        return out

    def known_kinds(self) -> list[str]:
        """The standard kinds, then the ship's own."""
        return list(STANDARD_KINDS) + [k for k in self.extra_kinds() if k not in STANDARD_KINDS]

    def add_extra_kind(self, name: str, category: str) -> None:
        """Declare a kind of the ship's own (an empty name opens it for typing)."""
        self._loading_extra = True
        r = self.extra.rowCount()
        self.extra.insertRow(r)
        self.extra.setItem(r, 0, QTableWidgetItem(name))
        box = combo(list(REPAIR_COSTS), category,
                    tip="How the kind is repaired: " + ", ".join(
                        f"{k} {v} points" for k, v in REPAIR_COSTS.items()))
        box.currentIndexChanged.connect(self._extra_changed)
        self.extra.setCellWidget(r, 1, box)
        self._loading_extra = False
        if not name:
            self.extra.setCurrentCell(r, 0)
            self.extra.editItem(self.extra.item(r, 0))
        self._extra_changed()

    def _remove_extra(self) -> None:
        r = self.extra.currentRow()
        if r >= 0:
            self.extra.removeRow(r)
            self._extra_changed()

    def _extra_changed(self, *_args) -> None:
        if self._loading_extra:
            return
        current = self.add_kind.currentText()
        self.add_kind.blockSignals(True)
        self.add_kind.clear()
        self.add_kind.addItems(self.known_kinds())
        i = self.add_kind.findText(current)
        self.add_kind.setCurrentIndex(max(0, i))
        self.add_kind.blockSignals(False)
        if self.add_kind.currentText() != current:  # the ship's own kind it showed is gone
            self._bar_kind_changed(self.add_kind.currentText())
        self.emit_changed()

    # -- the "Add boxes" row -------------------------------------------------------------------
    def _bar_kind_changed(self, kind: str) -> None:
        """A new kind in the Add row: only its fields are open, each with what was last
        added of that kind, or the kind's default (nothing carried over from another kind)."""
        kind = kind.strip()
        self.add_type.setEnabled(ops.applies("type", kind))
        self.add_size.setEnabled(ops.applies("size", kind))
        self.add_arc.setEnabled(ops.applies("arc", kind))
        self.add_drones.setEnabled(ops.applies("drones", kind))
        self.add_start.setEnabled(ops.applies("occupant", kind))
        self.add_type.clear()
        if kind == "phaser":
            self.add_type.addItems(PHASER_ORDER)
        elif kind == "torpedo":
            types = ops.heavy_types(self.model.rows)
            self.add_type.addItems(types + [t for t in HEAVY_SUGGESTIONS if t not in types])
        self.add_start.clear()
        self.add_start.addItems(list(ops.occupant_choices(kind)))
        last = self._bar_last.get(kind, {})
        self.add_type.setCurrentText(last.get("type_", self.add_type.itemText(0)))
        self.add_size.setValue(last.get("size", BAR_SIZE))
        self.add_arc.setCurrentText(last.get("arc", ""))
        self.add_drones.setValue(last.get("drones", BAR_DRONES))
        self.add_start.setCurrentText(last.get("occupant", ops.default_occupant(kind)))

    def add_boxes(self, kind: str, count: int, **fields) -> list[int]:
        """Add ``count`` boxes of ``kind`` (ids numbered for you); returns their rows."""
        rows = self.model.change(lambda r: ops.add_boxes(r, kind, count, **fields))
        self.table.select_rows(rows)
        if rows:
            first, last = self.model.rows[rows[0]]["id"], self.model.rows[rows[-1]]["id"]
            ids = first if first == last else f"{first} … {last}"
            self.status.emit(f"Added {count} {kind} box{'es' if count != 1 else ''} ({ids})")
        return rows

    def add_from_bar(self) -> list[int]:
        """Add the boxes the Add row describes."""
        kind = self.add_kind.currentText().strip()
        if not kind:
            return []
        fields = {"type_": self.add_type.currentText().strip(), "size": self.add_size.value(),
                  "arc": self.add_arc.currentText().strip(), "drones": self.add_drones.value(),
                  "occupant": self.add_start.currentText()}
        used = {"type_": "type"}
        fields = {key: value for key, value in fields.items()
                  if ops.applies(used.get(key, key), kind)}  # the kind's own fields only
        self._bar_last[kind] = fields
        return self.add_boxes(kind, self.add_count.value(), **fields)

    def duplicate_selected(self) -> list[int]:
        """Copy the selected rows, with fresh ids."""
        rows = self.table.selected_rows()
        new = self.model.change(lambda r: ops.duplicate_rows(r, rows))
        self.table.select_rows(new)
        if new:
            self.status.emit(f"Duplicated {len(new)} row{'s' if len(new) != 1 else ''}")
        return new

    def delete_selected(self) -> None:
        """Remove the selected rows."""
        rows = self.table.selected_rows()
        if not rows:
            return
        self.model.remove(rows)
        left = min(rows[0], len(self.model.rows) - 1)
        if left >= 0:
            self.table.select_rows([left])
        self.status.emit(f"Deleted {len(rows)} row{'s' if len(rows) != 1 else ''}")

    # -- heavy-weapon order -----------------------------------------------------------------------
    def order_types(self) -> list[str]:
        """The heavy-weapon types in the order they are hit."""
        return [self.order.item(i).text() for i in range(self.order.count())]

    def _sync_order(self) -> None:
        order = ops.sync_order(self.order_types(), ops.heavy_types(self.model.rows))
        if order != self.order_types():
            self.order.clear()
            self.order.addItems(order)
        self.order_hint.setVisible(len(order) < 2)

    def _move_order(self, step: int) -> None:
        r = self.order.currentRow()
        to = r + step
        if r < 0 or not 0 <= to < self.order.count():
            return
        item = self.order.takeItem(r)
        self.order.insertItem(to, item)
        self.order.setCurrentRow(to)
        self.emit_changed()

    def _rows_changed(self) -> None:
        self._sync_order()
        self.boxes_group.setTitle(f"Boxes — {len(self.model.rows)}")
        self.emit_changed()

    # -- loading and reading ----------------------------------------------------------------------
    def load(self, data: dict) -> None:
        self._loading = True
        try:
            self.race.setText(text_of(data.get("race")))
            self.size_class.setValue(int_of(data.get("size_class"), 0))
            self.damage_control.setValue(int_of(data.get("damage_control"), 0))
            self.frame.setValue(int_of(data.get("frame"), 0))
            shields = data.get("shields") if isinstance(data.get("shields"), list) else []
            for i, box in enumerate(self.shields):
                box.setValue(int_of(shields[i] if i < len(shields) else None, 0))
            self.extra.setRowCount(0)
            extra = data.get("extra_kinds") if isinstance(data.get("extra_kinds"), dict) else {}
            for name, category in extra.items():
                self.add_extra_kind(str(name), text_of(category, "systems"))
            entries = data.get("boxes") if isinstance(data.get("boxes"), list) else []
            self.model.set_rows(ops.expand_entries(entries))
            self.show_not_kept(unused_fields(data))
            order = data.get("heavy_weapon_order")
            self.order.clear()
            self.order.addItems(ops.sync_order([t for t in order if isinstance(t, str)]
                                               if isinstance(order, list) else [],
                                               ops.heavy_types(self.model.rows)))
            self.order_hint.setVisible(self.order.count() < 2)
            self.boxes_group.setTitle(f"Boxes — {len(self.model.rows)}")
            self._extra_changed()
        finally:
            self._loading = False

    def values(self) -> dict:
        out: dict = {}
        if self.race.text().strip():
            out["race"] = self.race.text().strip()
        if self.size_class.value():
            out["size_class"] = self.size_class.value()
        out["damage_control"] = self.damage_control.value()
        out["frame"] = self.frame.value()
        out["shields"] = [b.value() for b in self.shields]
        order = self.order_types()
        if len(order) > 1:
            out["heavy_weapon_order"] = order
        extra = self.extra_kinds()
        if extra:
            out["extra_kinds"] = extra
        out["boxes"] = [ops.row_to_entry(r) for r in self.model.rows]
        return out

    def file_values(self, values: dict) -> dict:
        """The values as written to the file: runs of alike system boxes folded into ``count``."""
        out = dict(values)
        out["boxes"] = ops.compact_entries(values["boxes"])
        return out

    def show_not_kept(self, notes: list[str]) -> None:
        """Say what the loaded file gave that the card does not use, so it is not kept (the
        loader ignores it too; Save writes the file without it)."""
        self.not_kept = list(notes)
        self.boxes_note.setText("Not kept from the file (the card does not use it; Save "
                                "writes the file without it):\n" + "\n".join(notes)
                                if notes else "")
        self.boxes_note.setVisible(bool(notes))

    # -- errors -------------------------------------------------------------------------------------
    def locate(self, path: str):
        key = top_key(path)
        if key in ("race", "size_class", "damage_control", "frame"):
            return getattr(self, key), self.card_error
        if key == "shields":
            match = _SHIELD.match(path)
            i = int(match.group(1)) if match else 0
            return self.shields[min(i, 5)], self.card_error
        if key == "heavy_weapon_order":
            return self.order, self.order_error
        if key == "extra_kinds":
            return self.extra, self.extra_error
        if key == "boxes":
            return self.table, self.boxes_error
        return None

    def show_problem(self, problem: Problem) -> bool:
        """Mark the field or box cell a key path names."""
        match = _BOX.match(problem.path)
        if match is None:
            return super().show_problem(problem)
        row = int(match.group(1))
        field = FIELD_COLUMN.get(match.group(2) or "id", match.group(2) or "id")
        if field not in FIELDS:
            field = "id"
        if row >= len(self.model.rows):
            return super().show_problem(problem)
        box_id = self.model.rows[row]["id"]
        self.model.set_error(row, field, problem.message)
        self.boxes_error.show_message(f"{problem.path}: {problem.text}  (row {row + 1}"
                                      + (f", {box_id}" if box_id else "") + ")")
        self._labels.append(self.boxes_error)
        self._focus = self.table
        self._cell = (row, FIELDS.index(field))
        self.table.scrollTo(self.model.index(*self._cell))
        return True

    def clear_problem(self) -> None:
        """Take every error mark off, the cell's included."""
        self.model.set_error(None)
        self._cell = None
        super().clear_problem()

    def focus_problem(self) -> None:
        """Put the keyboard focus on the marked cell or field."""
        cell = self._cell
        if cell is not None:
            self.table.setFocus()
            self.table.setCurrentIndex(self.model.index(*cell))
            self.table.scrollTo(self.model.index(*cell))
            return
        super().focus_problem()

