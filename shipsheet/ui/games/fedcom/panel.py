"""The Federation Commander actions panel: volley, standing orders, repair, chart.

It follows the document (``changed``, ``selection_changed``) and makes every
change through ``doc.do`` with the rules' action builders. The volley dialog
and the standing-orders editor open from here (one volley dialog, one orders
editor per ship); they stay open beside the sheet and close with the panel's session.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainter, QPalette, QPen
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QGroupBox, QHBoxLayout, QLabel,
                               QListWidget, QListWidgetItem, QPushButton, QStyledItemDelegate,
                               QVBoxLayout, QWidget)

from ....model import RuleViolation
from ....rules.fedcom import (DEFAULT_CHART, cancel_copy_orders_action, copy_orders_action,
                             list_charts, orders_of, plan_repair, repair_action, repair_cost,
                             session_chart, set_chart_action, status, status_chips)
from ....rules.fedcom.chart import OPTION_CHART
from ....rules.fedcom.words import state_word
from ...document import SessionDocument
from ...layouts import fill_with_scroll

ID_ROLE = Qt.ItemDataRole.UserRole


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` of the way to ``b``."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


class CheckDelegate(QStyledItemDelegate):
    """A list's check boxes drawn plainly from the palette: the box in the base colour,
    outlined and ticked in the text colour, so they read as well in dark as in light.

    (Fusion outlines an item's check box in a shade of the window colour, which all but
    vanishes on a dark base.) The style still lays the row out and handles clicks and
    Space; only the box is drawn again, where the style put it, on every paint: a change
    of appearance repaints the list in the new palette's colours.
    """

    def paint(self, painter: QPainter, option, index) -> None:
        super().paint(painter, option, index)
        state = index.data(Qt.ItemDataRole.CheckStateRole)
        if state is None:
            return
        # QStyle is touched here, not at start-up (its enums cost ~4 ms the first time).
        from PySide6.QtWidgets import QStyle, QStyleOptionViewItem
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        rect = QRectF(style.subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator,
                                           opt, widget))
        if rect.isEmpty():
            return
        colours = self.colours(option.palette, bool(opt.state & QStyle.StateFlag.State_Enabled))
        side = max(8.0, min(rect.width(), rect.height()) - 1)
        box = QRectF(0, 0, side, side)
        box.moveCenter(rect.center())
        box = QRectF(round(box.x()) + 0.5, round(box.y()) + 0.5, round(side) - 1, round(side) - 1)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colours["edge"], 1))
        painter.setBrush(colours["base"])
        painter.drawRoundedRect(box, 2, 2)
        state = Qt.CheckState(state) if isinstance(state, int) else state
        mark = QPen(colours["mark"], max(1.5, side / 7))
        mark.setCapStyle(Qt.PenCapStyle.RoundCap)
        mark.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(mark)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        x, y, w = box.x(), box.y(), box.width()
        if state == Qt.CheckState.Checked:
            painter.drawPolyline([QPointF(x + w * 0.22, y + w * 0.52), QPointF(x + w * 0.42, y + w * 0.72),
                                  QPointF(x + w * 0.78, y + w * 0.28)])
        elif state == Qt.CheckState.PartiallyChecked:
            painter.drawLine(QPointF(x + w * 0.25, y + w / 2), QPointF(x + w * 0.75, y + w / 2))
        painter.restore()

    @staticmethod
    def colours(palette: QPalette, enabled: bool = True) -> dict[str, QColor]:
        """The box's colours from ``palette``: its fill, its outline and its tick."""
        group = QPalette.ColorGroup.Active if enabled else QPalette.ColorGroup.Disabled
        base = palette.color(group, QPalette.ColorRole.Base)
        text = palette.color(group, QPalette.ColorRole.Text)
        return {"base": base, "edge": _mix(base, text, 0.7), "mark": text}


class ChartCombo(QComboBox):
    """The session's chart choice. The chart files are read when the list opens or the
    combo gets focus, not on every change of the session (nor at start-up)."""

    def __init__(self, fill):
        super().__init__()
        self._fill = fill
        self.listed = False
        # As narrow as a name: a long chart name in the Fusion style (dark appearance) made
        # the dock scroll sideways and cut its buttons.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)

    def showPopup(self) -> None:
        self._fill()
        super().showPopup()

    def focusInEvent(self, event) -> None:
        self._fill()
        super().focusInEvent(event)


#: A state held by more boxes than this is told as a count, not box by box.
STATE_LIST_LIMIT = 6


def _turn_states_text(spec, turn: dict) -> str:
    """This turn's box states, by state: "ph-1 fired, ph-2 fired" — or, for a state many
    boxes hold (a whole cargo hold used), "40 boxes used (cargo-1 to cargo-40)"."""
    by_word: dict[str, list[str]] = {}
    for box_id, value in turn.items():
        if box_id in spec.box_index:
            by_word.setdefault(state_word(spec.box(box_id).kind, value), []).append(box_id)
    parts = []
    for word, ids in by_word.items():
        if len(ids) > STATE_LIST_LIMIT:
            parts.append(f"{len(ids)} boxes {word} ({ids[0]} to {ids[-1]})")
        else:
            parts.extend(f"{box_id} {word}" for box_id in ids)
    return ", ".join(parts)


class Panel(QWidget):
    """Actions for the current Federation Commander ship (and the session's chart)."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.volley_dialog = None
        self.orders_dialogs: dict[str, QWidget] = {}

        self.title = QLabel()
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Ship status")

        # Volley
        self.volley_button = QPushButton("Vo&lley…")
        self.volley_button.setToolTip("Allocate a volley against this ship by the DDAP: shield, "
                                      "damage, DAC rolls (rolled or typed), a preview of every "
                                      "point, then Apply (Ctrl+Shift+V)")
        self.volley_action = QAction("Volley…", self)
        self.volley_action.setShortcut(QKeySequence("Ctrl+Shift+V"))
        self.volley_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.volley_action.triggered.connect(self.open_volley)
        self.addAction(self.volley_action)
        volley_box = QGroupBox("Volley")
        vl = QVBoxLayout(volley_box)
        vl.addWidget(self.volley_button)

        # Standing orders
        self.orders_text = QLabel()
        self.orders_text.setWordWrap(True)
        self.orders_text.setAccessibleName("Standing orders this turn")
        self.orders_button = QPushButton("Standing &Orders…")
        self.orders_button.setToolTip("Edit this ship's overrides of the DDAP for this turn: hit "
                                      "first / last, frame instead of the last box or of "
                                      "skipping, heavy-weapon order (Ctrl+Shift+O)")
        self.orders_action = QAction("Standing Orders…", self)
        self.orders_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.orders_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.orders_action.triggered.connect(self.open_orders)
        self.addAction(self.orders_action)
        self.copy_forward = QCheckBox("&Copy orders to next turn")
        self.copy_forward.setToolTip("Standing orders lapse at the end of the turn (8FC3); tick to "
                                     "give the same orders next turn")
        orders_box = QGroupBox("Standing orders (SOP)")
        ol = QVBoxLayout(orders_box)
        ol.addWidget(self.orders_text)
        ol.addWidget(self.orders_button)
        ol.addWidget(self.copy_forward)

        # Turn states
        self.states_text = QLabel()
        self.states_text.setWordWrap(True)
        self.states_text.setAccessibleName("Turn states")
        states_box = QGroupBox("This turn")
        sl = QVBoxLayout(states_box)
        sl.addWidget(self.states_text)

        # Repair
        self.repair_points = QLabel()
        self.repair_points.setWordWrap(True)
        self.repair_list = QListWidget()
        self.repair_list.setAccessibleName("Destroyed boxes to repair")
        self.repair_list.setToolTip("Tick the boxes to repair; points go to them in list order "
                                    "(drag to reorder)")
        self.repair_list.setDragDropMode(QListWidget.DragDropMode.InternalMove)
        self.repair_list.setItemDelegate(CheckDelegate(self.repair_list))  # plain in dark too
        self.repair_list.setMaximumHeight(140)
        self.repair_list.setUniformItemSizes(True)  # one line each: no row measured apart
        # A row longer than the list is cut with "…" (its tooltip has it whole), never
        # scrolled sideways: in a narrow dock the rows were laid out before the list's
        # scroll bar took its room, and a sideways bar came with them.
        self.repair_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        repair_label = QLabel("Destroyed bo&xes:")
        repair_label.setBuddy(self.repair_list)
        self.repair_plan = QLabel()
        self.repair_plan.setWordWrap(True)
        self.repair_plan.setAccessibleName("Repair plan")
        self.repair_button = QPushButton("&Repair ticked boxes")
        self.repair_button.setToolTip("Spend this turn's repair points on the ticked boxes "
                                      "(one undo step)")
        repair_box = QGroupBox("Repair")
        rl = QVBoxLayout(repair_box)
        rl.addWidget(self.repair_points)
        rl.addWidget(repair_label)
        rl.addWidget(self.repair_list)
        rl.addWidget(self.repair_plan)
        rl.addWidget(self.repair_button)

        # Chart
        self.chart = ChartCombo(self._list_charts)
        self.chart.setToolTip("The Damage Allocation Chart every volley of this session uses; put "
                              "your own chart files in your data folder (charts/fedcom/)")
        chart_label = QLabel("Ch&art:")
        chart_label.setBuddy(self.chart)
        chart_box = QGroupBox("Damage Allocation Chart")
        cl = QHBoxLayout(chart_box)
        cl.addWidget(chart_label)
        cl.addWidget(self.chart, 1)

        self.message = QLabel()
        self.message.setWordWrap(True)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.title)
        layout.addWidget(self.status)
        for box in (volley_box, orders_box, states_box, repair_box, chart_box):
            layout.addWidget(box)
        layout.addWidget(self.message)
        layout.addStretch(1)
        fill_with_scroll(self, body, whole_width=True)
        self.ship_boxes = (volley_box, orders_box, states_box, repair_box)

        self.volley_button.clicked.connect(self.open_volley)
        self.orders_button.clicked.connect(self.open_orders)
        self.copy_forward.toggled.connect(self._copy_toggled)
        self.repair_list.itemChanged.connect(self._plan)
        self.repair_list.model().rowsMoved.connect(self._plan)
        self.repair_button.clicked.connect(self.repair)
        self.chart.activated.connect(self._chart_chosen)
        doc.changed.connect(self.refresh)
        doc.selection_changed.connect(self.refresh)
        doc.refused.connect(self._refused)
        self._refusal = ""
        self.refresh()

    # -- state ------------------------------------------------------------------------------
    @property
    def ship(self):
        return self.doc.current_ship

    def refresh(self, *_args) -> None:
        """Redraw from the session: the current ship's status, orders, states, repairs; the chart."""
        self._show_chart()
        ship = self.ship
        for box in self.ship_boxes:
            box.setEnabled(ship is not None)
        if ship is None:
            self.title.setText("No ship selected")
            self.status.setText("Add a ship or pick one in the roster.")
            return
        spec = ship.ship_class.spec
        self.title.setText(ship.name)
        st = status(ship)
        words = status_chips(ship)
        lines = [" · ".join(words)] if words else ["Intact" if not st.boxes_destroyed else "In action"]
        lines.append(f"Frame {st.frame_left} of {st.frame} left; {st.boxes_destroyed} of "
                     f"{st.boxes_total} boxes destroyed")
        self.status.setText("\n".join(lines))

        orders = orders_of(ship)
        copied = ship.state.get("next_orders") is not None
        if orders:
            text = "\n".join("• " + line for line in orders.describe())
            text += "\nCopied to the next turn." if copied else "\nThey lapse at the end of this turn."
        else:
            text = "None this turn: the DDAP decides every hit."
        self.orders_text.setText(text)
        self.copy_forward.blockSignals(True)
        self.copy_forward.setChecked(copied)
        self.copy_forward.setEnabled(bool(orders) or copied)
        self.copy_forward.blockSignals(False)

        turn = ship.state.get("turn", {})
        if turn:
            self.states_text.setText(_turn_states_text(spec, turn) + ".\nStates reset at the end of the turn "
                                     "(charging and holding carry on). Click a box on the card to "
                                     "change its state.")
        else:
            self.states_text.setText("No box fired, charging, launched or used yet. Click a box on "
                                     "the card to set its state.")
        self._fill_repairs(ship)

    def _fill_repairs(self, ship) -> None:
        """The destroyed boxes, each with its repair cost, as checkable rows. Rows that are
        already there stay (a click adds one row; the list is not rebuilt): the list holds
        up to a card's every box."""
        spec = ship.ship_class.spec
        ticked = set(self.ticked_repairs())
        repair = ship.state.get("repair") or {}
        rows = []
        for box_id in ship.state["destroyed"]:
            cost = repair_cost(spec, box_id)
            carried = f", {repair['points']} paid" if repair.get("box") == box_id else ""
            rows.append((box_id, f"{box_id} ({spec.box(box_id).kind}, {cost} "
                                 f"point{'s' if cost != 1 else ''}{carried})"))
        self.repair_list.blockSignals(True)
        keep = 0
        for box_id, text in rows[:self.repair_list.count()]:
            item = self.repair_list.item(keep)
            if item.data(ID_ROLE) != box_id:
                break
            if item.text() != text:
                item.setText(text)
                item.setToolTip(text)
            keep += 1
        while self.repair_list.count() > keep:
            self.repair_list.takeItem(self.repair_list.count() - 1)
        for box_id, text in rows[keep:]:
            item = QListWidgetItem(text)
            item.setToolTip(text)
            item.setData(ID_ROLE, box_id)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
                          | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
            item.setCheckState(Qt.CheckState.Checked if box_id in ticked else Qt.CheckState.Unchecked)
            self.repair_list.addItem(item)
        self.repair_list.blockSignals(False)
        try:
            available = plan_repair(ship, []).available
            self.repair_points.setText(f"{available} of {spec.damage_control} repair points left "
                                       f"this turn (damage control {spec.damage_control}).")
        except RuleViolation as exc:
            self.repair_points.setText(str(exc))
        self.repair_list.setVisible(bool(ship.state["destroyed"]))
        self._plan()

    def ticked_repairs(self) -> list[str]:
        return [self.repair_list.item(r).data(ID_ROLE) for r in range(self.repair_list.count())
                if self.repair_list.item(r).checkState() == Qt.CheckState.Checked]

    def _plan(self, *_args) -> None:
        ship = self.ship
        ids = self.ticked_repairs()
        self.repair_button.setEnabled(bool(ids))
        if ship is None or not ids:
            self.repair_plan.setText("" if ship is None or ship.state["destroyed"] else
                                     "Nothing to repair.")
            return
        try:
            plan = plan_repair(ship, ids)
        except RuleViolation as exc:
            self.repair_plan.setText(str(exc))
            self.repair_button.setEnabled(False)
            return
        self.repair_plan.setText("\n".join(plan.lines()))

    def _show_chart(self) -> None:
        """Select the session's chart. Until the list is first opened it holds just that one."""
        options = self.doc.session.options
        current = options.get(OPTION_CHART) or DEFAULT_CHART
        self.chart.blockSignals(True)
        if self.chart.findData(current) < 0:
            try:
                name = session_chart(options).name
            except RuleViolation:
                name = current
            if not self.chart.listed:
                self.chart.clear()
            self.chart.addItem(f"{name} (kept in this session)" if self.chart.listed else name, current)
        self.chart.setCurrentIndex(self.chart.findData(current))
        self.chart.blockSignals(False)

    def _list_charts(self) -> None:
        """Read the chart files into the list (each time it opens: files may have changed)."""
        self.chart.blockSignals(True)
        self.chart.clear()
        for info in list_charts():
            where = " (yours)" if info.user else ""
            self.chart.addItem(f"{info.name}{where}", info.id)
        self.chart.listed = True
        self.chart.blockSignals(False)
        self._show_chart()

    # -- actions ----------------------------------------------------------------------------
    def _refused(self, message: str) -> None:
        self._refusal = message

    def _do(self, build) -> bool:
        self._refusal = ""
        try:
            action = build()
        except RuleViolation as exc:
            self.message.setText(str(exc))
            return False
        done = self.doc.do(action)
        self.message.setText("" if done else f"Not done: {self._refusal}")
        return done

    def open_volley(self):
        """Show the volley dialog, aimed at the current ship."""
        from .volley import VolleyDialog
        ship = self.ship
        if self.volley_dialog is None:
            self.volley_dialog = VolleyDialog(self.doc, ship.id if ship else None, self)
        elif ship is not None:
            self.volley_dialog.set_inputs(ship_id=ship.id)
        self.volley_dialog.show()
        self.volley_dialog.raise_()
        self.volley_dialog.activateWindow()
        self.volley_dialog.damage.setFocus()
        return self.volley_dialog

    def open_orders(self):
        """Show the standing-orders editor of the current ship."""
        from .orders import OrdersDialog
        ship = self.ship
        if ship is None:
            return None
        dialog = self.orders_dialogs.get(ship.id)
        if dialog is None:
            dialog = OrdersDialog(self.doc, ship.id, self)
            self.orders_dialogs[ship.id] = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def _copy_toggled(self, on: bool) -> None:
        ship = self.ship
        if ship is None:
            return
        if not self._do(lambda: copy_orders_action(ship) if on else cancel_copy_orders_action(ship)):
            self.refresh()

    def repair(self) -> bool:
        ship = self.ship
        ids = self.ticked_repairs()
        if ship is None or not ids:
            return False
        return self._do(lambda: repair_action(ship, ids))

    def _chart_chosen(self, index: int) -> None:
        chart_id = self.chart.itemData(index)
        current = self.doc.session.options.get(OPTION_CHART) or DEFAULT_CHART
        if chart_id == current and OPTION_CHART in self.doc.session.options:
            return
        if not self._do(lambda: set_chart_action(chart_id)):
            self._show_chart()


__all__ = ["Panel"]
