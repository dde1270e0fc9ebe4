"""The Federation Commander box table: one row per box, editable from the keyboard, reordered by drag.

Fields a kind does not use are shown greyed and cannot be edited. The cell a
validation message names is shaded and carries the message as its tooltip.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import (QAbstractTableModel, QItemSelection, QItemSelectionModel, QModelIndex,
                            QSize, Qt, Signal)
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHeaderView, QSpinBox, QStyle,
                               QStyledItemDelegate, QStyleOptionComboBox, QTableView, QWidget)

from ...rules.fedcom.card import ARC_DEGREES, PHASER_TYPES, STANDARD_KINDS, a_box
from ...rules.fedcom import card_entries as ops
from ..palette import is_dark

COLUMNS = (("id", "Id"), ("kind", "Kind"), ("type", "Type"), ("size", "Size"), ("arc", "Arc"),
           ("drones", "Drones"), ("occupant", "Starts"), ("label", "Label"))
FIELDS = tuple(c[0] for c in COLUMNS)
#: Key paths' field names that are shown in another column.
FIELD_COLUMN = {"arc_degrees": "arc", "state": "occupant", "count": "id"}
HELP = {
    "id": "The box's id: unique on the card; the log and standing orders name boxes by it.",
    "kind": "What the box is: the Damage Allocation Chart hits boxes by kind.",
    "type": "Phasers: Ph-1 … Ph-G (the DDAP hits Ph-3 first). Heavy weapons: photon, "
            "disruptor, plasma-F … Drone racks: optional rack type.",
    "size": "Heavy weapons: smaller is hit first [seed 8FC4].",
    "arc": "Firing arc: a name (FA, LS, LF+L …) or a width in degrees (120). Narrower is hit "
           "first on a tie. Needed for phasers and heavy weapons.",
    "drones": "Drone racks: drone spaces (and drones loaded at the start).",
    "occupant": "Shuttle bays: empty, admin or suicide shuttle. Tractors: unused, "
                "used-dropped or holding.",
    "label": "Optional: what the sheet writes in the box instead of the number in its id.",
}
#: What a cell of a column is, in words ("A left-warp box has no firing arc.").
NOUNS = {"type": "type", "size": "size", "arc": "firing arc", "drones": "drones",
         "occupant": "starting state"}
PHASER_ORDER = tuple(sorted(PHASER_TYPES))
#: Heavy-weapon types offered when adding boxes and in the type cell (any other can be typed).
HEAVY_SUGGESTIONS = ("photon", "disruptor", "plasma-F", "plasma-G", "plasma-S", "plasma-R",
                     "fusion", "hellbore")
#: The texts each picker column offers: its width fits the longest of them.
COLUMN_TEXTS = {"kind": tuple(STANDARD_KINDS), "type": PHASER_ORDER + HEAVY_SUGGESTIONS,
                "arc": (*ARC_DEGREES, "LF+L", "120°"),
                "occupant": tuple(ops.occupant_choices("shuttle") + ops.occupant_choices("tractor"))}


def combo_width(widget: QWidget, texts) -> int:
    """The width an editable picker needs to show the longest of ``texts`` whole, in
    ``widget``'s font and style (its arrow and frame included)."""
    metrics = widget.fontMetrics()
    text = max((metrics.horizontalAdvance(str(t)) for t in texts), default=0)
    option = QStyleOptionComboBox()
    option.initFrom(widget)
    option.editable = True
    size = widget.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option,
                                           QSize(text, metrics.height()), widget)
    # The line edit inside keeps a margin of its own on each side.
    return size.width() + 8


class BoxTableModel(QAbstractTableModel):
    """The card's boxes (``rows``: dicts of :mod:`boxes`)."""

    edited = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self.error: tuple[int, int, str] | None = None

    # -- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole:
            if orientation == Qt.Orientation.Horizontal:
                return COLUMNS[section][1]
            return str(section + 1)
        if role == Qt.ItemDataRole.ToolTipRole:
            if orientation == Qt.Orientation.Horizontal:
                return HELP[COLUMNS[section][0]]
            return f"Row {section + 1}: boxes[{section}] in validation messages. Drag to reorder."
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        field = FIELDS[index.column()]
        usable = ops.applies(field, row["kind"])
        is_error = self.error is not None and self.error[:2] == (index.row(), index.column())
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if not usable:
                return "" if role == Qt.ItemDataRole.DisplayRole else None
            return row[field]
        if role == Qt.ItemDataRole.ToolTipRole:
            if is_error:
                return f"⚠ {self.error[2]}"
            if not usable:
                return f"{a_box(row['kind']).capitalize()} has no {NOUNS[field]}."
            return HELP[field]
        if role == Qt.ItemDataRole.BackgroundRole:
            if is_error:  # the designer's error tint (widgets.error_tint), for the palette now
                return QBrush(QColor("#5c2b2b" if is_dark(QPalette()) else "#fbdad6"))
            if not usable:
                return QBrush(QPalette().color(QPalette.ColorRole.AlternateBase))
        if role == Qt.ItemDataRole.ForegroundRole and not usable:
            return QBrush(QPalette().color(QPalette.ColorRole.PlaceholderText))
        return None

    def flags(self, index):
        base = Qt.ItemFlag.ItemIsDropEnabled
        if not index.isValid():
            return base
        flags = (Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
                 | Qt.ItemFlag.ItemIsDragEnabled)
        if ops.applies(FIELDS[index.column()], self.rows[index.row()]["kind"]):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        row = self.rows[index.row()]
        field = FIELDS[index.column()]
        if not ops.applies(field, row["kind"]):
            return False  # greyed: the kind does not use it
        if field in ("size", "drones"):
            try:
                value = int(value)
            except (TypeError, ValueError):
                return False
        else:
            value = "" if value is None else str(value).strip()
        if row[field] == value:
            return False
        if field == "kind":  # what the new kind does not use goes
            self.rows[index.row()] = ops.change_kind(row, value)
            self.dataChanged.emit(self.index(index.row(), 0),
                                  self.index(index.row(), len(COLUMNS) - 1))
            self.edited.emit()
            return True
        row[field] = value
        self.dataChanged.emit(index, index)
        self.edited.emit()
        return True

    def supportedDropActions(self):
        return Qt.DropAction.MoveAction

    def supportedDragActions(self):
        return Qt.DropAction.MoveAction

    # -- whole-table changes --------------------------------------------------------------------
    def set_rows(self, rows: list[dict]) -> None:
        """Show a new list of rows (loading a card)."""
        self.beginResetModel()
        self.rows = rows
        self.error = None
        self.endResetModel()

    def change(self, fn: Callable[[list[dict]], list[int]]) -> list[int]:
        """Apply a row operation of :mod:`boxes` (add, duplicate, move …); one ``edited``."""
        self.beginResetModel()
        try:
            result = fn(self.rows)
        finally:
            self.endResetModel()
        self.edited.emit()
        return result

    def remove(self, indices) -> None:
        """Remove the given rows."""
        picked = sorted(set(indices), reverse=True)
        if not picked:
            return
        self.beginResetModel()
        for i in picked:
            if 0 <= i < len(self.rows):
                del self.rows[i]
        self.endResetModel()
        self.edited.emit()

    def set_error(self, row: int | None, field: str = "id", text: str = "") -> None:
        """Mark the cell a validation message names (None: no mark)."""
        old = self.error
        self.error = None if row is None else (row, FIELDS.index(field), text)
        for err in (old, self.error):
            if err is not None and err[0] < len(self.rows):
                idx = self.index(err[0], err[1])
                self.dataChanged.emit(idx, idx)


class BoxDelegate(QStyledItemDelegate):
    """Pickers for the columns with known values; typing is always allowed where it makes sense."""

    def __init__(self, model: BoxTableModel, kinds: Callable[[], list[str]], parent=None):
        super().__init__(parent)
        self.model = model
        self.kinds = kinds

    def createEditor(self, parent: QWidget, option, index):
        field = FIELDS[index.column()]
        row = self.model.rows[index.row()]
        if field == "kind":
            box = QComboBox(parent)
            box.setEditable(True)
            box.addItems(self.kinds())
            return box
        if field == "type":
            box = QComboBox(parent)
            if row["kind"] == "phaser":
                box.addItems(PHASER_ORDER)
                box.setEditable(True)
            else:
                box.setEditable(True)
                if row["kind"] == "torpedo":
                    types = ops.heavy_types(self.model.rows)
                    box.addItems(types + [t for t in HEAVY_SUGGESTIONS if t not in types])
                else:
                    box.addItems(sorted({r["type"] for r in self.model.rows
                                         if r["kind"] == "drone" and r["type"]}))
            return box
        if field == "arc":
            box = QComboBox(parent)
            box.setEditable(True)
            box.addItems(list(ARC_DEGREES))
            return box
        if field == "occupant":
            box = QComboBox(parent)
            box.addItems(list(ops.occupant_choices(row["kind"])))
            return box
        if field in ("size", "drones"):
            box = QSpinBox(parent)
            box.setRange(0, 999)
            return box
        return super().createEditor(parent, option, index)

    def updateEditorGeometry(self, editor, option, index) -> None:
        """The cell's rectangle, widened when a picker's text would not fit it whole."""
        super().updateEditorGeometry(editor, option, index)
        if isinstance(editor, QComboBox):
            texts = [editor.currentText(), *(editor.itemText(i) for i in range(editor.count()))]
            need = combo_width(editor, texts)
            if need > editor.width():
                editor.resize(need, editor.height())

    def setEditorData(self, editor, index) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QComboBox):
            text = "" if value is None else str(value)
            i = editor.findText(text)
            if i >= 0:
                editor.setCurrentIndex(i)
            elif editor.isEditable():
                editor.setEditText(text)
            if editor.isEditable():
                editor.lineEdit().selectAll()  # typing replaces the cell, as in a spreadsheet
            return
        if isinstance(editor, QSpinBox):
            editor.setValue(int(value or 0))
            return
        super().setEditorData(editor, index)

    def setModelData(self, editor, model, index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText())
            return
        if isinstance(editor, QSpinBox):
            editor.interpretText()
            model.setData(index, editor.value())
            return
        super().setModelData(editor, model, index)


class BoxTableView(QTableView):
    """The table: Tab/arrows move, typing edits, Alt+Up/Down move rows, drag moves them too.

    Ctrl+D asks for the selected rows to be duplicated, Delete for them to be removed.
    """

    duplicate_requested = Signal()
    delete_requested = Signal()

    def __init__(self, model: BoxTableModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.setDragDropOverwriteMode(False)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setAlternatingRowColors(True)
        self.setTabKeyNavigation(True)
        self.setAccessibleName("Boxes")
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        widths = {"id": 96, "kind": 118, "type": 82, "size": 44, "arc": 64, "drones": 54,
                  "occupant": 90}
        for col, field in enumerate(FIELDS):
            if field in widths:
                # at least wide enough for the picker of the longest known value
                self.setColumnWidth(col, max(widths[field],
                                             combo_width(self, COLUMN_TEXTS.get(field, ()))))
        self.verticalHeader().setDefaultSectionSize(24)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        model.modelReset.connect(self.fit_columns)
        model.dataChanged.connect(self.fit_columns)

    def fit_columns(self, *_args) -> None:
        """Widen the picker columns to the longest value on the card (a heavy-weapon type
        of the user's own, a kind of the ship's own); never narrows a column."""
        model: BoxTableModel = self.model()
        for field in ("kind", "type"):
            col = FIELDS.index(field)
            need = combo_width(self, [r[field] for r in model.rows if r[field]])
            if need > self.columnWidth(col):
                self.setColumnWidth(col, need)

    def selected_rows(self) -> list[int]:
        """The selected rows, or the current row when none is selected."""
        rows = {i.row() for i in self.selectionModel().selectedRows()}
        if not rows and self.currentIndex().isValid():
            rows = {self.currentIndex().row()}
        return sorted(rows)

    def select_rows(self, rows: list[int], column: int = 0) -> None:
        """Select whole rows and scroll them into view."""
        model = self.model()
        self.clearSelection()
        if not rows:
            return
        selection = QItemSelection()
        for r in rows:
            selection.select(model.index(r, 0), model.index(r, model.columnCount() - 1))
        self.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.setCurrentIndex(model.index(rows[0], column))
        self.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.Select)
        self.scrollTo(model.index(rows[-1], column))
        self.scrollTo(model.index(rows[0], column))

    def move_selected(self, step: int) -> None:
        """Move the selected rows one up (-1) or down (1)."""
        rows = self.selected_rows()
        if not rows:
            return
        model: BoxTableModel = self.model()
        column = max(0, self.currentIndex().column())
        to = rows[0] - 1 if step < 0 else rows[-1] + 2
        if to < 0 or to > len(model.rows):
            return
        new = model.change(lambda r: ops.move_rows(r, rows, to))
        self.select_rows(new, column)

    def drop_rows_at(self, rows: list[int], to: int) -> list[int]:
        """Move ``rows`` to before row ``to`` (what a drag and drop does)."""
        model: BoxTableModel = self.model()
        new = model.change(lambda r: ops.move_rows(r, rows, to))
        self.select_rows(new)
        return new

    def dropEvent(self, event) -> None:
        if event.source() is not self:
            event.ignore()
            return
        index = self.indexAt(event.position().toPoint())
        if not index.isValid():
            to = self.model().rowCount()
        else:
            rect = self.visualRect(index)
            to = index.row() + (1 if event.position().y() > rect.center().y() else 0)
        self.drop_rows_at(self.selected_rows(), to)
        # The rows are moved already: tell the drag nothing is left to remove.
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()

    def keyPressEvent(self, event) -> None:
        mods = event.modifiers()
        if mods & Qt.KeyboardModifier.AltModifier and event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.move_selected(-1 if event.key() == Qt.Key.Key_Up else 1)
            event.accept()
            return
        if event.key() == Qt.Key.Key_D and mods & Qt.KeyboardModifier.ControlModifier:
            self.duplicate_requested.emit()
            event.accept()
            return
        if event.key() == Qt.Key.Key_Delete and self.state() != QAbstractItemView.State.EditingState:
            self.delete_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

