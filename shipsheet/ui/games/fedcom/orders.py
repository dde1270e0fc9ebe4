"""The standing-orders (SOP) editor: one ship's DDAP overrides for this turn [seed 8FC3].

Boxes go into "Hit first" and "Hit last" by drag and drop or with the
buttons (the keyboard way); kinds are ticked for "frame instead of the last
box"; "frame instead of skipping" is one tick; ships with several heavy-weapon
types can reorder them for the turn. Every change is applied at once as one
undo step (``set_orders_action``), and the editor redraws from the ship, so
an undo anywhere shows here too. Orders lapse at the end of the turn unless
"Copy orders to next turn" is ticked; while it is, edits are carried to the
copy too. What the rules will not apply is listed with the reason, and the
resulting hit order of one kind is shown.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QMimeData, QSize, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QGridLayout,
                               QGroupBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QPushButton, QToolButton, QVBoxLayout, QWidget)

from ....rules.fedcom import (Overrides, cancel_copy_orders_action, copy_orders_action,
                            edit_orders_action, explain_order, orders_of, turn_state)
from ....rules.fedcom.house import house_rule
from ....rules.fedcom.overrides import resolve
from ....rules.fedcom.precedence import ordinal
from ....rules.fedcom.words import KIND_NOUNS, kind_title, state_word
from ...document import HistoryAction, SessionDocument
from ...layouts import fit_to_screen
from ...plaintext import esc, rich

MIME = "application/x-shipsheet-fedcom-boxes"
ID_ROLE = Qt.ItemDataRole.UserRole


class BoxList(QListWidget):
    """A list of boxes that gives and takes box ids by drag and drop.

    A drop never moves items by itself: it emits ``dropped(ids, row)`` and the
    editor turns that into an order change; the list is then refilled from the ship.
    """

    dropped = Signal(list, int)

    def __init__(self, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def mimeData(self, items) -> QMimeData:
        data = QMimeData()
        ids = [item.data(ID_ROLE) for item in items]
        data.setData(MIME, QByteArray("\n".join(ids).encode("utf-8")))
        data.setText(", ".join(ids))
        return data

    def supportedDropActions(self):
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME):
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME):
            super().dragMoveEvent(event)
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
        else:
            event.ignore()

    def drop_row(self, pos) -> int:
        """The row a drop at ``pos`` inserts before (the end when below the last item)."""
        item = self.itemAt(pos)
        if item is None:
            return self.count()
        row = self.row(item)
        rect = self.visualItemRect(item)
        return row + 1 if pos.y() > rect.center().y() else row

    def dropEvent(self, event) -> None:
        if not event.mimeData().hasFormat(MIME):
            event.ignore()
            return
        raw = bytes(event.mimeData().data(MIME)).decode("utf-8")
        ids = [i for i in raw.split("\n") if i]
        row = self.drop_row(event.position().toPoint())
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.dropped.emit(ids, row)


class OrdersDialog(QDialog):
    """Edit one ship's standing orders for this turn; each change is one undo step."""

    def __init__(self, doc: SessionDocument, ship_id: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.ship_id = ship_id
        self.setWindowTitle("Standing Orders — Federation Commander")
        fit_to_screen(self, 860, 680)
        self._refusal = ""

        self.intro = rich(QLabel())  # our markup; names go through esc()
        self.intro.setWordWrap(True)
        self.kind = QComboBox()
        self.kind.setToolTip("The kind of box to list (and whose hit order is shown)")
        kind_label = QLabel("&Kind:")
        kind_label.setBuddy(self.kind)

        self.pool = BoxList("pool")
        self.pool.setAccessibleName("Intact boxes of this kind")
        self.pool.setToolTip("Drag boxes to Hit first or Hit last (or select and use the buttons); "
                             "drag a box back here to take its order away")
        self.first = BoxList("first")
        self.first.setAccessibleName("Hit first")
        self.first.setToolTip("Hit before the rest of their kind: the top one first")
        self.last = BoxList("last")
        self.last.setAccessibleName("Hit last")
        self.last.setToolTip("Hit after the rest of their kind: the bottom one last")
        for lst in (self.pool, self.first, self.last):
            lst.setMinimumHeight(120)
            lst.setWordWrap(True)
            lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.ties = QLabel("Boxes the DDAP and their arcs cannot separate are taken by the "
                           "session dice when hit; this list shows them in card order.")
        self.ties.setWordWrap(True)
        small = self.ties.font()
        small.setPointSizeF(small.pointSizeF() * 0.9)
        self.ties.setFont(small)

        self.to_first = QPushButton("Hit &first →")
        self.to_first.setToolTip("Put the selected boxes at the end of Hit first")
        self.to_last = QPushButton("Hit &last →")
        self.to_last.setToolTip("Put the selected boxes at the end of Hit last (hit very last)")
        self.remove = QPushButton("← &Remove")
        self.remove.setToolTip("Take the selected boxes out of Hit first / Hit last")
        self.up = QPushButton("Move &up")
        self.up.setToolTip("Move the selected box up its list")
        self.down = QPushButton("Move do&wn")
        self.down.setToolTip("Move the selected box down its list")

        self.frame_kinds = QListWidget()
        self.frame_kinds.setFlow(QListWidget.Flow.LeftToRight)
        self.frame_kinds.setWrapping(True)
        self.frame_kinds.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.frame_kinds.setGridSize(QSize(132, 24))
        self.frame_kinds.setMinimumHeight(150)
        self.frame_kinds.setAccessibleName("Frame instead of the last box of")
        self.frame_kinds.setToolTip("Tick a kind to take frame damage instead of its last box "
                                    "(8FC2: otherwise the last box is hit, not the frame)")
        self.frame_skip = QCheckBox("Frame instead of s&kipping a point")
        self.frame_skip.setToolTip("A point whose primary and alternate are both gone becomes frame "
                                   "damage at once instead of being skipped")

        self.heavy_box = QGroupBox("&Heavy-weapon type order this turn")
        self.heavy_box.setCheckable(True)
        self.heavy_box.setToolTip("Tick to hit the heavy-weapon types in another order this turn "
                                  "(the card's order otherwise).\n\n"
                                  + house_rule("Heavy-weapon type order"))
        self.heavy = QListWidget()
        self.heavy.setAccessibleName("Heavy-weapon types, hit first at the top")
        self.heavy_up = QPushButton("Type u&p")
        self.heavy_up.setToolTip("Hit the selected type earlier")
        self.heavy_down = QPushButton("Type dow&n")
        self.heavy_down.setToolTip("Hit the selected type later")
        heavy_layout = QHBoxLayout(self.heavy_box)
        heavy_layout.addWidget(self.heavy, 1)
        heavy_buttons = QVBoxLayout()
        heavy_buttons.addWidget(self.heavy_up)
        heavy_buttons.addWidget(self.heavy_down)
        heavy_buttons.addStretch(1)
        heavy_layout.addLayout(heavy_buttons)

        self.preview = QListWidget()
        self.preview.setWordWrap(True)
        self.preview.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.preview.setAccessibleName("Hit order of this kind with these orders")
        self.preview.setToolTip("The order the DDAP will hit this kind's boxes with these orders "
                                "(equal boxes are then decided by the dice)")
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setAccessibleName("Orders not applied")
        self.message = rich(QLabel())
        self.message.setWordWrap(True)

        self.copy_forward = QCheckBox("&Copy orders to next turn")
        self.copy_forward.setToolTip("Orders lapse at the end of the turn (8FC3: they must be in "
                                     "each SOP); tick to give the same orders next turn")
        self.clear = QPushButton("Clear &all")
        self.clear.setToolTip("Give no orders this turn: the DDAP decides every hit")
        # Undo names the step it takes back; the session's last step may be another ship's.
        self.undo_action = HistoryAction(doc, self, "Undo", ship_id=ship_id)
        self.redo_action = HistoryAction(doc, self, "Redo")
        self.undo_button = QToolButton()
        self.undo_button.setDefaultAction(self.undo_action)
        self.redo_button = QToolButton()
        self.redo_button.setDefaultAction(self.redo_action)
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Close (the orders are already given)")

        # -- layout --
        grid = QGridLayout()
        pool_label = QLabel("Intact &boxes:")
        pool_label.setBuddy(self.pool)
        first_label = QLabel("Hit f&irst (top first):")
        first_label.setBuddy(self.first)
        last_label = QLabel("Hit la&st (bottom last):")
        last_label.setBuddy(self.last)
        grid.addWidget(pool_label, 0, 0)
        grid.addWidget(self.pool, 1, 0, 3, 1)
        middle = QVBoxLayout()
        for b in (self.to_first, self.to_last, self.remove, self.up, self.down):
            middle.addWidget(b)
        middle.addStretch(1)
        grid.addLayout(middle, 1, 1, 3, 1)
        grid.addWidget(first_label, 0, 2)
        grid.addWidget(self.first, 1, 2)
        grid.addWidget(last_label, 2, 2)
        grid.addWidget(self.last, 3, 2)
        preview_label = QLabel("Hit &order with these orders:")
        preview_label.setBuddy(self.preview)
        grid.addWidget(preview_label, 0, 3)
        grid.addWidget(self.preview, 1, 3, 3, 1)
        grid.addWidget(self.ties, 4, 3)
        grid.setColumnStretch(0, 2)
        grid.setColumnStretch(2, 2)
        grid.setColumnStretch(3, 3)

        frame_box = QGroupBox("Frame")
        frame_layout = QVBoxLayout(frame_box)
        frame_label = QLabel("Frame instead of the last box &of:")
        frame_label.setBuddy(self.frame_kinds)
        frame_layout.addWidget(frame_label)
        frame_layout.addWidget(self.frame_kinds)
        frame_layout.addWidget(self.frame_skip)
        lower = QHBoxLayout()
        lower.addWidget(frame_box, 1)
        lower.addWidget(self.heavy_box, 1)

        top = QHBoxLayout()
        top.addWidget(kind_label)
        top.addWidget(self.kind)
        top.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.copy_forward)
        bottom.addWidget(self.clear)
        bottom.addStretch(1)
        bottom.addWidget(self.undo_button)
        bottom.addWidget(self.redo_button)
        bottom.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addLayout(grid, 1)
        layout.addLayout(lower, 0)
        layout.addWidget(self.notes)
        layout.addWidget(self.message)
        layout.addLayout(bottom)

        # -- signals --
        self.kind.currentIndexChanged.connect(self.refresh)
        self.pool.dropped.connect(self._dropped_on_pool)
        self.first.dropped.connect(self._dropped_on_first)
        self.last.dropped.connect(self._dropped_on_last)
        self.pool.itemDoubleClicked.connect(self._pool_double_clicked)
        self.to_first.clicked.connect(self.put_first)
        self.to_last.clicked.connect(self.put_last)
        self.remove.clicked.connect(self.remove_selected)
        self.up.clicked.connect(self.move_up)
        self.down.clicked.connect(self.move_down)
        self.frame_kinds.itemChanged.connect(self._frame_kind_ticked)
        self.frame_skip.toggled.connect(self._frame_skip_toggled)
        self.heavy_box.toggled.connect(self._heavy_toggled)
        self.heavy_up.clicked.connect(self.heavy_move_up)
        self.heavy_down.clicked.connect(self.heavy_move_down)
        self.copy_forward.toggled.connect(self._copy_toggled)
        self.clear.clicked.connect(self.clear_all)
        self.close_button.clicked.connect(self.close)
        for lst in (self.pool, self.first, self.last):
            lst.itemSelectionChanged.connect(self._update_buttons)
        doc.changed.connect(self.refresh)
        doc.refused.connect(self._refused)
        self._fill_kinds()
        self.refresh()

    # -- reading the ship ----------------------------------------------------------------------
    @property
    def ship(self):
        for ship in self.doc.session.ships:
            if ship.id == self.ship_id:
                return ship
        return None

    @property
    def orders(self) -> Overrides:
        ship = self.ship
        return orders_of(ship) if ship is not None else Overrides()

    def _fill_kinds(self) -> None:
        ship = self.ship
        if ship is None:
            return
        spec = ship.ship_class.spec
        self.kind.blockSignals(True)
        for kind in spec.kinds:
            self.kind.addItem(f"{kind_title(kind)} ({len(spec.by_kind[kind])})", kind)
        self.kind.setCurrentIndex(max(0, self.kind.findData("phaser")))
        self.kind.blockSignals(False)

    def _describe(self, box_id: str) -> str:
        ship = self.ship
        spec = ship.ship_class.spec
        box = spec.box_index.get(box_id)
        if box is None:
            return f"{box_id} — no such box on this ship"
        bits = [box.id]
        if box.type:
            bits.append(box.type)
        if box.has_arc:
            bits.append(box.arc_text)
        text = " · ".join(bits)
        if box_id in ship.state["destroyed"]:
            return f"{text} — destroyed"
        return f"{text} — {state_word(box.kind, turn_state(ship, box_id))}"

    def refresh(self, *_args) -> None:
        """Redraw everything from the ship's orders (after any change, undo or redo)."""
        ship = self.ship
        widgets = [self.kind, self.pool, self.first, self.last, self.frame_kinds, self.frame_skip,
                   self.heavy_box, self.heavy, self.copy_forward]
        if ship is None:
            for w in widgets:
                w.setEnabled(False)
            self.intro.setText("This ship is no longer in the session.")
            return
        for w in widgets:
            w.setEnabled(True)
        for w in widgets:
            w.blockSignals(True)
        try:
            self._refresh(ship)
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._update_buttons()

    def _refresh(self, ship) -> None:
        spec = ship.ship_class.spec
        orders = self.orders
        turn = self.doc.session.turn
        copied = ship.state.get("next_orders") is not None
        self.intro.setText(
            f"<b>{esc(ship.name)}</b> ({esc(spec.name)}) — standing orders for <b>turn {turn}</b>. They "
            f"override the DDAP for every volley this turn and "
            + ("are <b>copied to the next turn</b>." if copied else "<b>lapse at the end of the turn</b>.")
            + " Each change is applied at once (one undo step).")
        kind = self.kind.currentData()
        placed = set(orders.first) | set(orders.last)
        selected = {i.data(ID_ROLE) for i in self.pool.selectedItems()}
        self.pool.clear()
        for box_id in spec.by_kind.get(kind, ()):
            if box_id in placed or box_id in ship.state["destroyed"]:
                continue
            item = QListWidgetItem(self._describe(box_id))
            item.setData(ID_ROLE, box_id)
            item.setToolTip(f"{box_id}: drag to Hit first or Hit last")
            self.pool.addItem(item)
            item.setSelected(box_id in selected)
        for lst, ids, where in ((self.first, orders.first, "first"), (self.last, orders.last, "last")):
            chosen = {i.data(ID_ROLE) for i in lst.selectedItems()}
            lst.clear()
            for n, box_id in enumerate(ids, start=1):
                box = spec.box_index.get(box_id)
                kind_word = f" ({box.kind})" if box is not None and box.kind != kind else ""
                item = QListWidgetItem(f"{n}. {self._describe(box_id)}{kind_word}")
                item.setData(ID_ROLE, box_id)
                item.setToolTip(f"{box_id}: hit {where} among its kind; drag to reorder, or back "
                                f"to the box list to take the order away")
                lst.addItem(item)
                item.setSelected(box_id in chosen)

        fil = set(orders.frame_instead_of_last)
        self.frame_kinds.clear()
        for k in list(spec.kinds) + [k for k in orders.frame_instead_of_last if k not in spec.by_kind]:
            item = QListWidgetItem(kind_title(k))
            item.setData(ID_ROLE, k)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
                          | Qt.ItemFlag.ItemIsSelectable)
            item.setCheckState(Qt.CheckState.Checked if k in fil else Qt.CheckState.Unchecked)
            item.setToolTip(f"Take frame damage instead of the last {k} box")
            self.frame_kinds.addItem(item)
        self.frame_skip.setChecked(orders.frame_instead_of_skip)

        types = spec.heavy_types
        self.heavy_box.setVisible(len(types) > 1 or orders.heavy_weapon_order is not None)
        given = orders.heavy_weapon_order
        self.heavy_box.setChecked(given is not None)
        shown = list(given) if given is not None else list(spec.heavy_weapon_order)
        current = self.heavy.currentItem().text() if self.heavy.currentItem() else None
        self.heavy.clear()
        for t in shown:
            self.heavy.addItem(t)
            if t == current:
                self.heavy.setCurrentRow(self.heavy.count() - 1)
        self.heavy.setEnabled(given is not None)

        self.copy_forward.setChecked(copied)
        self.copy_forward.setEnabled(bool(orders) or copied)

        self.preview.clear()
        notes: list[str] = []
        if kind is not None:
            order, notes = explain_order(ship, kind)  # the notes on these orders, too
            noun = KIND_NOUNS.get(kind, f"{kind} boxes")
            for n, (box_id, why) in enumerate(order, start=1):
                item = QListWidgetItem(f"{n}. {box_id} — {why}")
                item.setToolTip(f"{ordinal(n)} of {len(order)} {noun} to be hit: {why}")
                self.preview.addItem(item)
            if not order:
                self.preview.addItem(f"No intact {noun} left.")
        elif orders:
            notes = resolve(spec, ship.state["destroyed"], orders).notes
        extra = [f"{kind_title(k)} order: {', '.join(ids)}" for k, ids in (orders.order or {}).items()]
        text = [f"Note: {n}" for n in notes]
        if extra:
            text.append("Also in force (from the file): " + "; ".join(extra))
        self.notes.setText("\n".join(text))

    def _update_buttons(self) -> None:
        pool_sel = bool(self.pool.selectedItems())
        placed_sel = bool(self.first.selectedItems() or self.last.selectedItems())
        self.to_first.setEnabled(pool_sel or bool(self.last.selectedItems()))
        self.to_last.setEnabled(pool_sel or bool(self.first.selectedItems()))
        self.remove.setEnabled(placed_sel)
        self.up.setEnabled(placed_sel)
        self.down.setEnabled(placed_sel)

    def _refused(self, message: str) -> None:
        self._refusal = message

    # -- changing the orders (one undo step each) ------------------------------------------------
    def commit(self, orders: Overrides, name: str) -> bool:
        """Give the ship ``orders`` (one undo step named ``name``); False when refused."""
        ship = self.ship
        if ship is None:
            return False
        if orders == self.orders:
            return False
        self._refusal = ""
        done = self.doc.do(edit_orders_action(ship, orders, name))
        self.message.setText("" if done else f"<b>Not done:</b> {esc(self._refusal)}")
        if not done:
            self.refresh()
        return done

    def place(self, ids: list[str], where: str, row: int | None = None) -> bool:
        """Put ``ids`` into Hit first / Hit last (``where``) at ``row`` (the end when None)."""
        ids = list(dict.fromkeys(ids))
        return self.commit(self.orders.placed(ids, where, row), f"{', '.join(ids)} hit {where}")

    def take_away(self, ids: list[str]) -> bool:
        return self.commit(self.orders.without(ids), f"no order for {', '.join(ids)}")

    def _selected(self, lst: QListWidget) -> list[str]:
        return [lst.item(r).data(ID_ROLE) for r in range(lst.count()) if lst.item(r).isSelected()]

    def put_first(self) -> bool:
        ids = self._selected(self.pool) or self._selected(self.last)
        return bool(ids) and self.place(ids, "first")

    def put_last(self) -> bool:
        ids = self._selected(self.pool) or self._selected(self.first)
        return bool(ids) and self.place(ids, "last")

    def remove_selected(self) -> bool:
        ids = self._selected(self.first) + self._selected(self.last)
        return bool(ids) and self.take_away(ids)

    def _move(self, step: int) -> bool:
        for lst, where in ((self.first, "first"), (self.last, "last")):
            ids = self._selected(lst)
            if ids:
                moved = self.orders.moved(ids, where, step)
                return moved is not None and self.commit(
                    moved, f"{', '.join(ids)} moved {'up' if step < 0 else 'down'} in hit {where}")
        return False

    def move_up(self) -> bool:
        return self._move(-1)

    def move_down(self) -> bool:
        return self._move(1)

    def _dropped_on_first(self, ids: list, row: int) -> None:
        self.place(ids, "first", row)

    def _dropped_on_last(self, ids: list, row: int) -> None:
        self.place(ids, "last", row)

    def _dropped_on_pool(self, ids: list, row: int) -> None:
        placed = [i for i in ids if i in self.orders.first or i in self.orders.last]
        if placed:
            self.take_away(placed)

    def _pool_double_clicked(self, item: QListWidgetItem) -> None:
        self.place([item.data(ID_ROLE)], "last")

    def _frame_kind_ticked(self, item: QListWidgetItem) -> None:
        kind = item.data(ID_ROLE)
        on = item.checkState() == Qt.CheckState.Checked
        if on != (kind in self.orders.frame_instead_of_last):
            self.commit(self.orders.with_frame_instead_of_last(kind, on),
                        f"{'frame' if on else 'no frame'} instead of the last {kind}")

    def _frame_skip_toggled(self, on: bool) -> None:
        self.commit(self.orders.replaced(frame_instead_of_skip=on),
                    "frame instead of skipping" if on else "skip points again (no frame)")

    def _heavy_toggled(self, on: bool) -> None:
        ship = self.ship
        order = tuple(ship.ship_class.spec.heavy_weapon_order) if on else None
        self.commit(self.orders.replaced(heavy_weapon_order=order),
                    "heavy-weapon order given" if on else "the card's heavy-weapon order")

    def _heavy_move(self, step: int) -> bool:
        types = [self.heavy.item(r).text() for r in range(self.heavy.count())]
        moved = self.orders.heavy_type_moved(types, self.heavy.currentRow(), step)
        return moved is not None and self.commit(
            moved, "heavy-weapon order " + " → ".join(moved.heavy_weapon_order))

    def heavy_move_up(self) -> bool:
        return self._heavy_move(-1)

    def heavy_move_down(self) -> bool:
        return self._heavy_move(1)

    def _copy_toggled(self, on: bool) -> None:
        ship = self.ship
        if ship is None:
            return
        self._refusal = ""
        action = copy_orders_action(ship) if on else cancel_copy_orders_action(ship)
        if not self.doc.do(action):
            self.message.setText(f"<b>Not done:</b> {esc(self._refusal)}")
            self.refresh()

    def clear_all(self) -> bool:
        return self.commit(Overrides(), "none (the DDAP decides)")


__all__ = ["BoxList", "MIME", "OrdersDialog"]
