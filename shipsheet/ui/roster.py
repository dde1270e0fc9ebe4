"""The roster: every ship of the session with its status chips, grouped by side."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QTreeWidget, QTreeWidgetItem, QWidget

from ..model.games import GAME_TITLES
from .document import SessionDocument

CHIPS_ROLE = Qt.ItemDataRole.UserRole + 1
SHIP_ROLE = Qt.ItemDataRole.UserRole


#: A chip's padding (both sides together), the gap between chips, the cell's margins.
CHIP_PAD, CHIP_GAP, LEFT, RIGHT = 12, 4, 4, 2


def fit_chips(chips: list[str], fm: QFontMetrics, width: int) -> list[tuple[str, int]]:
    """The chips that fit in ``width`` pixels, in the game's order of importance: (text,
    chip width) each. Every chip shown is shown whole, never cut mid-word ("Weap…",
    "Can't…" at 1366 × 768): those that do not fit are counted in a last chip, "+2", and
    the cell's tooltip lists them all. Only when not even the first chip fits whole (a
    column dragged narrow) is it shortened with "…", and nothing follows it."""
    out: list[tuple[str, int]] = []
    x = 0
    for i, chip in enumerate(chips):
        w = fm.horizontalAdvance(chip) + CHIP_PAD
        rest = len(chips) - i - 1
        more = fm.horizontalAdvance(f"+{rest}") + CHIP_PAD + CHIP_GAP if rest else 0
        if x + w + more <= width:
            out.append((chip, w))
            x += w + CHIP_GAP
            continue
        break
    else:
        return out
    left = len(chips) - len(out)
    if out:
        plus = f"+{left}"
        out.append((plus, fm.horizontalAdvance(plus) + CHIP_PAD))
        return out
    first = chips[0]
    if fm.horizontalAdvance(first) + CHIP_PAD <= width:  # the first alone, no room for "+N"
        return [(first, fm.horizontalAdvance(first) + CHIP_PAD)]
    short = fm.elidedText(first, Qt.TextElideMode.ElideRight, width - CHIP_PAD) if width > CHIP_PAD else ""
    return [(short, fm.horizontalAdvance(short) + CHIP_PAD)] if short else []


class ChipDelegate(QStyledItemDelegate):
    """Draws status words as outlined chips (words, not only colours).

    As many words as the Status column holds, whole, most important first (the game's
    order), then "+N" for the rest; the cell's tooltip has them all. The cell's own text is empty, so the base class draws just its background,
    selection and focus; the chips go on top. (No QStyle from Python here: its enums alone
    cost about 4 ms of start-up the first time they are touched.)"""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.shown: dict[str, list[str]] = {}  # ship id -> the chip texts last drawn

    def paint(self, painter: QPainter, option, index) -> None:
        super().paint(painter, option, index)
        chips = index.data(CHIPS_ROLE) or []
        ship_id = index.siblingAtColumn(0).data(SHIP_ROLE)
        if not chips:
            self.shown.pop(ship_id, None)
            return
        view = option.widget
        selected = view is not None and view.selectionModel().isSelected(index)
        fm = QFontMetrics(option.font)
        fitted = fit_chips(list(chips), fm, option.rect.width() - LEFT - RIGHT)
        self.shown[ship_id] = [text for text, _w in fitted]
        if not fitted:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        x = option.rect.x() + LEFT
        h = fm.height() + 2
        y = option.rect.y() + (option.rect.height() - h) // 2
        text_color = option.palette.color(QPalette.ColorRole.HighlightedText if selected
                                          else QPalette.ColorRole.Text)
        for (text, w), chip in zip(fitted, chips):
            rect = QRectF(x, y, w, h).adjusted(0.5, 0.5, -0.5, -0.5)
            bad = chip.startswith(("Destroyed", "Lost", "Dead"))
            # Red edges for the lost, one that shows on a light and on a dark list (3:1).
            dark = option.palette.color(QPalette.ColorRole.Base).lightness() < 128
            red = "#ff8a80" if dark else "#c62828"
            edge = QColor(red) if bad and not selected else text_color
            painter.setPen(edge)
            painter.drawRoundedRect(rect, h / 2, h / 2)
            painter.setPen(text_color)
            painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)
            x += w + CHIP_GAP
        painter.restore()

    def sizeHint(self, option, index) -> QSize:
        chips = index.data(CHIPS_ROLE) or []
        fm = QFontMetrics(option.font)
        width = sum(fm.horizontalAdvance(c) + CHIP_PAD + CHIP_GAP for c in chips) + LEFT + RIGHT
        base = super().sizeHint(option, index)
        return QSize(max(base.width(), width), max(base.height(), fm.height() + 6))


class RosterView(QTreeWidget):
    """Ships in a tree: sides as groups (when set), each ship with class and status."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.setColumnCount(3)
        self.setHeaderLabels(["Ship", "Class", "Status"])
        self.chip_delegate = ChipDelegate(self)
        self.setItemDelegateForColumn(2, self.chip_delegate)
        self.setRootIsDecorated(True)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAlternatingRowColors(True)
        # The Status column stretches to the edge: QTreeView's default (asking the header for
        # it would make PySide build QHeaderView's class at start-up, about 1.5 ms).
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAccessibleName("Roster")
        self.itemSelectionChanged.connect(self._on_selection)
        doc.changed.connect(self._on_doc_changed)
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
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                groups[side] = item
        for ship in session.ships:
            parent = groups.get(ship.side) if sides else None
            item = QTreeWidgetItem()
            self._fill(item, ship, rules)
            if parent is not None:
                parent.addChild(item)
            else:
                self.addTopLevelItem(item)
        for item in groups.values():  # spanned once all are in: one layout of the tree, not one each
            item.setFirstColumnSpanned(True)
        self.expandAll()
        for col in range(2):
            self.resizeColumnToContents(col)
        self._updating = False
        self._select_current(self.doc.current_ship_id)

    @staticmethod
    def _fill(item: QTreeWidgetItem, ship, rules) -> None:
        """One ship's row: name, class, status words, tooltips."""
        chips = rules.status_chips(ship)
        item.setText(0, ship.name)
        item.setText(1, ship.ship_class.name)
        item.setData(0, SHIP_ROLE, ship.id)
        item.setData(2, CHIPS_ROLE, chips)
        item.setToolTip(0, f"{ship.name}\n{ship.ship_class.name} ({GAME_TITLES.get(ship.game)})"
                        + (f"\nSide: {ship.side}" if ship.side else ""))
        item.setToolTip(2, ", ".join(chips) if chips else "No status to report")
        item.setData(2, Qt.ItemDataRole.AccessibleTextRole, ", ".join(chips))

    def _on_doc_changed(self) -> None:
        """After a change to some ships, update their rows; rebuild the roster only when a
        row comes or goes or moves to another side (or the change is the session's)."""
        touched = self.doc.last_touched
        if not (touched and self._update_rows(touched)):
            self.refresh()

    def _update_rows(self, ship_ids) -> bool:
        """Update the rows of ``ship_ids`` in place; False when that cannot do (a ship added,
        removed, or on another side than its row's group): then the roster is rebuilt."""
        session = self.doc.session
        ships = {s.id: s for s in session.ships}
        items = {i.data(0, SHIP_ROLE): i for i in self.ship_items()}
        if items.keys() != ships.keys():
            return False
        grouped = bool(session.sides)
        for ship_id in ship_ids:
            ship, item = ships.get(ship_id), items.get(ship_id)
            if ship is None or item is None:
                return False
            group = item.parent()
            if grouped != (group is not None) or (
                    group is not None and group.text(0) != (ship.side or "No side")):
                return False
        widths = False
        for ship_id in ship_ids:
            item, ship = items[ship_id], ships[ship_id]
            widths |= item.text(0) != ship.name or item.text(1) != ship.ship_class.name
            self._fill(item, ship, session.rules)
        if widths:
            for col in range(2):
                self.resizeColumnToContents(col)
        return True

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
        """The document's current ship became ``ship_id`` (Ctrl+Up/Down, the sheet, a panel):
        the roster moves its selection to that one ship. Always a single selection, whatever
        keys are held: with Ctrl down (Ctrl+Down) Qt would otherwise toggle the row into the
        selection and select several ships."""
        item = self.item_for(ship_id) if ship_id else None
        if item is None or (item is self.currentItem() and item.isSelected()):
            return  # already there (e.g. the user's own click, or one of several picked)
        self._updating = True
        flags = QItemSelectionModel.SelectionFlag
        self.setCurrentItem(item, 0, flags.ClearAndSelect | flags.Rows)
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
