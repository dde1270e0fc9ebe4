"""The roster: every ship of the session with its status chips, grouped by side."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QTreeWidget, QTreeWidgetItem, QWidget

from ..model.games import GAME_TITLES
from .document import SessionDocument

CHIPS_ROLE = Qt.ItemDataRole.UserRole + 1
SHIP_ROLE = Qt.ItemDataRole.UserRole


class ChipDelegate(QStyledItemDelegate):
    """Draws status words as outlined chips (words, not only colours).

    The cell's own text is empty, so the base class draws just its background, selection
    and focus; the chips go on top. (No QStyle from Python here: its enums alone cost
    about 4 ms of start-up the first time they are touched.)"""

    def paint(self, painter: QPainter, option, index) -> None:
        super().paint(painter, option, index)
        chips = index.data(CHIPS_ROLE) or []
        if not chips:
            return
        view = option.widget
        selected = view is not None and view.selectionModel().isSelected(index)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetrics(option.font)
        x = option.rect.x() + 4
        h = fm.height() + 2
        y = option.rect.y() + (option.rect.height() - h) // 2
        text_color = option.palette.color(QPalette.ColorRole.HighlightedText if selected
                                          else QPalette.ColorRole.Text)
        right = option.rect.right() - 2
        for i, chip in enumerate(chips):
            w = fm.horizontalAdvance(chip) + 12
            rest = len(chips) - i - 1
            more = f"+{rest}" if rest else ""
            room = right - x - (fm.horizontalAdvance(more) + 16 if more else 0)
            if w > room and i > 0:  # no room: say how many more there are (the tooltip lists them)
                chip, w = f"+{len(chips) - i}", fm.horizontalAdvance(f"+{len(chips) - i}") + 12
                rest = 0
            elif w > room:  # the first chip alone is too long: shorten it (the tooltip has it all)
                chip = fm.elidedText(chip, Qt.TextElideMode.ElideRight, max(20, int(room) - 12))
                w = fm.horizontalAdvance(chip) + 12
            rect = QRectF(x, y, w, h)
            bad = chip.startswith(("Destroyed", "Lost", "Dead"))
            edge = QColor("#c62828") if bad and not selected else text_color
            painter.setPen(edge)
            painter.drawRoundedRect(rect, h / 2, h / 2)
            painter.setPen(text_color)
            painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), chip)
            x += w + 4
            if chip.startswith("+") or x > right:
                break
        painter.restore()

    def sizeHint(self, option, index) -> QSize:
        chips = index.data(CHIPS_ROLE) or []
        fm = QFontMetrics(option.font)
        width = sum(fm.horizontalAdvance(c) + 16 for c in chips) + 8
        base = super().sizeHint(option, index)
        return QSize(max(base.width(), width), max(base.height(), fm.height() + 6))


class RosterView(QTreeWidget):
    """Ships in a tree: sides as groups (when set), each ship with class and status."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.setColumnCount(3)
        self.setHeaderLabels(["Ship", "Class", "Status"])
        self.setItemDelegateForColumn(2, ChipDelegate(self))
        self.setRootIsDecorated(True)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAlternatingRowColors(True)
        self.header().setStretchLastSection(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAccessibleName("Roster")
        self.itemSelectionChanged.connect(self._on_selection)
        doc.changed.connect(self.refresh)
        doc.selection_changed.connect(self._select_current)
        self._updating = False
        self.refresh()

    def refresh(self) -> None:
        session = self.doc.session
        rules = session.rules
        self._updating = True
        self.clear()
        sides = session.sides
        groups: dict[str | None, QTreeWidgetItem] = {}
        if sides:
            for side in sides + ([None] if any(not s.side for s in session.ships) else []):
                item = QTreeWidgetItem(self, [side or "No side"])
                font = item.font(0)
                font.setBold(True)
                item.setFont(0, font)
                item.setFirstColumnSpanned(True)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                groups[side] = item
        for ship in session.ships:
            parent = groups.get(ship.side) if sides else None
            item = QTreeWidgetItem([ship.name, ship.ship_class.name, ""])
            chips = rules.status_chips(ship)
            item.setData(0, SHIP_ROLE, ship.id)
            item.setData(2, CHIPS_ROLE, chips)
            item.setToolTip(0, f"{ship.name}\n{ship.ship_class.name} ({GAME_TITLES.get(ship.game)})"
                            + (f"\nSide: {ship.side}" if ship.side else ""))
            item.setToolTip(2, ", ".join(chips) if chips else "No status to report")
            item.setData(2, Qt.ItemDataRole.AccessibleTextRole, ", ".join(chips))
            if parent is not None:
                parent.addChild(item)
            else:
                self.addTopLevelItem(item)
        self.expandAll()
        for col in range(2):
            self.resizeColumnToContents(col)
        self._updating = False
        self._select_current(self.doc.current_ship_id)

    def ship_items(self) -> list[QTreeWidgetItem]:
        found = []
        stack = [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        while stack:
            item = stack.pop(0)
            if item.data(0, SHIP_ROLE):
                found.append(item)
            stack[0:0] = [item.child(i) for i in range(item.childCount())]
        return found

    def item_for(self, ship_id: str) -> QTreeWidgetItem | None:
        return next((i for i in self.ship_items() if i.data(0, SHIP_ROLE) == ship_id), None)

    def _select_current(self, ship_id) -> None:
        item = self.item_for(ship_id) if ship_id else None
        if item is not None and not item.isSelected():
            self._updating = True
            self.setCurrentItem(item)
            self._updating = False

    def selected_ship_ids(self) -> list[str]:
        return [i.data(0, SHIP_ROLE) for i in self.selectedItems() if i.data(0, SHIP_ROLE)]

    def _on_selection(self) -> None:
        if self._updating:
            return
        item = self.currentItem()
        ship_id = item.data(0, SHIP_ROLE) if item is not None else None
        if ship_id:
            self.doc.select(ship_id)
