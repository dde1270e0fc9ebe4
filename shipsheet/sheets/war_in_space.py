"""The War In Space Ship Data Sheet (SDS), drawn like the paper sheet.

Title block (name, class, size); the three energy systems, each with its die
ladder (d10 → d8 → d6 → d4 → 0, the current die circled) and its row of
damage boxes (a marked box is slashed); the suit table with the four critical
boxes (a locked suit is struck through); this turn's energy and planned
repairs. Every decision (may this box be marked? what does the ship roll?
which suits are locked?) comes from :mod:`shipsheet.rules.war_in_space`. The sheet places
each box with its key (``rules/war_in_space/boxes.py`` names them); what a box says and does
on hover, click, tap or right-click is the rules' answer for the key.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen

from ..rules.war_in_space import (BOX_COST, CRITICAL_COST, SUIT_SYMBOLS, SUITS,
                                  committed_allocation, die_label, is_dead_in_space, locked_suits,
                                  marked_boxes, planned_repairs,
                                  rolled_dice)
from ..rules.war_in_space.boxes import (DEAD_KEY, ENERGY_KEY, LOST_KEY, REPAIRS_KEY, TERTIARY_KEY,
                                        box_key, critical_key, die_this_turn,
                                        ladder_key, planned_boxes, rolled_key, rolled_on)
from ..rules.war_in_space.game import DAMAGE_CONTROL_PHASE
from ..rules.war_in_space.repairs import damage_control_budget
from ..rules.war_in_space.terms import ACTION_TITLES, ENERGY_ACTIONS, parse_card
from .base import PAPER, SheetLayout, SheetPainter, Theme

LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
CENTER = Qt.AlignmentFlag.AlignCenter
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter

# Layout (sheet units, 1 unit = 1 pt).
NAME_W = 128.0  # system name column
DIE_W = 26.0  # one die of the ladder
STEP_W = 24.0  # the arrow between two dice; the box that makes the step sits under it
ROW_H = 50.0  # one energy system
SUIT_ROW_H = 24.0


class WarInSpaceSheet(SheetPainter):
    """The SDS: systems with die ladders and boxes, suit table, criticals, this turn."""

    box = 16.0
    name_w, die_w, step_w, row_h, suit_row_h = NAME_W, DIE_W, STEP_W, ROW_H, SUIT_ROW_H
    arrow_inset = 5.0  # an arrow of the ladder, short of the dice either side

    def __init__(self, ship, session=None, *, layout: SheetLayout = PAPER):
        super().__init__(ship, session, layout=layout)
        if self.phone:  # one column: a system's name, then its ladder, then its boxes
            w = self.width - 2 * self.margin
            longest = max((len(s.ladder) for s in ship.ship_class.spec.systems), default=5)
            self.name_w = 0.0
            self.die_w = 26.0
            self.step_w = (w - max(longest, 5) * self.die_w) / (max(longest, 5) - 1)
            self.arrow_inset = 2.5
            t = self.touch
            self.row_h = t + 4 + t + 6 + self.box + 20  # name and die, ladder, boxes
            self.suit_row_h = t + 2

    # -- the whole sheet ---------------------------------------------------------
    def draw(self, painter: QPainter, theme: Theme) -> float:
        spec = self.ship.ship_class.spec
        size = f" · {spec.size}" if spec.size else ""
        y = self.draw_title(painter, theme, f"{self.ship.ship_class.name}{size} · War In Space")
        y = self.draw_systems(painter, theme, y + 4)
        y = self.draw_suits(painter, theme, y + 14)
        y = self.draw_turn(painter, theme, y + 14)
        return self._draw_legend(painter, theme, y + 12)

    # -- energy systems ------------------------------------------------------------
    def draw_systems(self, painter: QPainter, theme: Theme, y: float) -> float:
        m = self.margin
        right = self.width - m
        y = self.section(painter, theme, y, "Energy systems")
        ladder_x = m + NAME_W
        if self.phone:
            y = self.wrapped(painter, m, y, right - m, "Die ladder (current die circled) · a "
                             "damage box under each step · this turn's die on the right",
                             size=7, color=theme.muted) + 6
        else:
            self.text(painter, QRectF(ladder_x, y, 300, 12),
                      "Die ladder (current die circled) · a damage box under each step",
                      size=7, color=theme.muted)
            self.text(painter, QRectF(right - 80, y, 80, 12), "Die this turn", size=7,
                      color=theme.muted, align=RIGHT)
            y += 16
        spec = self.ship.ship_class.spec
        for i, system in enumerate(spec.systems):
            self.draw_system(painter, theme, i, system, QRectF(m, y, right - m, self.row_h),
                             die_this_turn(self.ship, i), planned_boxes(self.ship, i))
            y += self.row_h
        if is_dead_in_space(self.ship):
            words = "DEAD IN SPACE — all three systems produce 0 energy"
            if self.phone:
                bottom = self.wrapped(painter, m, y, right - m, words, size=10, bold=True,
                                      color=theme.ink)
                rect = QRectF(m, y, right - m, max(self.touch, bottom - y))
                self.add_box(rect, DEAD_KEY)
                return rect.bottom() + 2
            rect = QRectF(m, y, right - m, 18)
            self.text(painter, rect, words, size=10, bold=True, color=theme.ink)
            self.add_box(rect, DEAD_KEY)
            y += 20
        return y

    def draw_system(self, painter: QPainter, theme: Theme, i: int, system, row: QRectF,
                    rolled: int | None, planned: int) -> None:
        ship = self.ship
        marks = marked_boxes(ship, i)
        ladder = system.ladder
        x0 = row.left()
        t = self.touch
        # The name and what it had undamaged: beside the ladder (on a phone, over it, this
        # turn's die on their right).
        name_w = row.width() - t - 48 if self.phone else NAME_W - 8
        self.text(painter, QRectF(x0, row.top(), name_w, 16), system.name, size=11,
                  bold=True, color=theme.ink)
        plural = "es" if system.boxes > 1 else ""
        self.text(painter, QRectF(x0, row.top() + 16, name_w, 12),
                  f"undamaged d{system.die} · {system.boxes} box{plural}", size=7.5,
                  color=theme.muted)
        # The die ladder: d10 → d8 → d6 → d4 → 0, the current die circled.
        lx = x0 + self.name_w
        die_y = row.top() + (t + 4 if self.phone else 0)
        cell_y = die_y + (t - 16) / 2 if self.phone else die_y  # a die's 16 units, in its row
        die_w, step_w = self.die_w, self.step_w
        pitch = die_w + step_w
        for k, sides in enumerate(ladder):
            cell = QRectF(lx + k * pitch, cell_y, die_w, 16)
            current = k == marks
            self.text(painter, cell, die_label(sides), size=10, bold=current,
                      color=theme.ink if current or k > marks else theme.muted, align=CENTER)
            if current:
                self.draw_circle(painter, theme, cell.adjusted(1, -1, -1, 1))
            if k + 1 < len(ladder):
                a = QPointF(cell.right() + self.arrow_inset, cell.center().y())
                b = QPointF(cell.right() + step_w - self.arrow_inset, cell.center().y())
                self._arrow(painter, theme, a, b)
        if self.phone:  # the ladder's row, as tall as a thumb; the boxes' under it
            self.add_box(QRectF(lx, die_y, len(ladder) * pitch - step_w, t), ladder_key(i))
            box_y = die_y + t + (t - self.box) / 2 + 3
        else:
            self.add_box(QRectF(lx - 3, die_y - 3, len(ladder) * pitch - STEP_W + 6, 22),
                         ladder_key(i))
            box_y = die_y + 22
        # The boxes, one under each step of the ladder.
        first_planned = marks - planned  # repairs erase the last marks
        marks_before = self.turn_start["marks"][i]
        for k in range(system.boxes):
            cx = lx + k * pitch + die_w + step_w / 2
            rect = QRectF(cx - self.box / 2, box_y, self.box, self.box)
            marked = k < marks
            is_planned = marked and k >= first_planned
            self.draw_box(painter, theme, rect, mark=self.pen_mark(marked, k < marks_before))
            if is_planned:
                self._planned_ring(painter, theme, rect)
            self.add_box(rect, box_key(i, k))
        # This turn's die.
        if self.phone:
            cell = QRectF(row.right() - t, row.top(), t, t)
        else:
            cell = QRectF(row.right() - 24, die_y + 6, 24, 24)
        pen = QPen(theme.ink, 0.8)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(cell, 4, 4)
        if rolled is not None:  # a system at 0 rolls nothing: its die counts 0 every turn
            self.text(painter, cell, str(rolled), size=11, bold=True, color=theme.ink,
                      align=CENTER)
        # The die the roll was made on: a box marked after the commit steps the system's die
        # down, but this turn's value was rolled on the die it had then.
        self.text(painter, QRectF(cell.left() - 60, cell.top(), 56, cell.height()),
                  die_label(rolled_on(ship, i)), size=8, color=theme.muted, align=RIGHT)
        self.add_box(cell, rolled_key(i))
        painter.setPen(QPen(theme.faint, 0.8))
        rule_y = row.bottom() - 4
        painter.drawLine(QPointF(row.left(), rule_y), QPointF(row.right(), rule_y))

    def _arrow(self, painter: QPainter, theme: Theme, a: QPointF, b: QPointF) -> None:
        painter.setPen(QPen(theme.muted, 0.9))
        painter.drawLine(a, b)
        painter.drawLine(b, QPointF(b.x() - 3, b.y() - 2.5))
        painter.drawLine(b, QPointF(b.x() - 3, b.y() + 2.5))

    def _planned_ring(self, painter: QPainter, theme: Theme, rect: QRectF) -> None:
        """A dashed frame around a box whose repair is planned (shape first, colour second)."""
        pen = QPen(theme.accent, 1.1, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(rect.adjusted(-3.5, -3.5, 3.5, 3.5))
        self.text(painter, QRectF(rect.left() - 10, rect.bottom() + 4, rect.width() + 20, 9),
                  "repair", size=6.5, color=theme.accent, align=CENTER)

    # -- suit table and critical hits ---------------------------------------------------
    def draw_suits(self, painter: QPainter, theme: Theme, y: float) -> float:
        m = self.margin
        y = self.section(painter, theme, y, "Suit table and critical hits")
        cols = {"suit": m, "primary": m + 40, "secondary": m + 130, "tertiary": m + 220,
                "critical": m + 330, "status": m + 362}
        action_w, action_size = 88.0, 10.0
        head = [("suit", "Suit"), ("primary", "Primary"), ("secondary", "Secondary"),
                ("tertiary", "Tertiary *"), ("critical", "Critical hit")]
        if self.phone:  # the columns in the phone's width; a row as tall as a thumb
            w = self.width - 2 * m
            action_w, action_size = (w - 22 - self.box - 6) / 3, 8.5
            cols = {"suit": m, "primary": m + 22, "secondary": m + 22 + action_w,
                    "tertiary": m + 22 + 2 * action_w, "critical": m + w - self.box}
            for col, title in head[:-1]:
                self.text(painter, QRectF(cols[col], y, action_w, self.touch), title, size=7,
                          bold=True, color=theme.muted)
            self.text(painter, QRectF(m, y, w, self.touch), "Critical", size=7, bold=True,
                      color=theme.muted, align=RIGHT)
            self.add_box(QRectF(cols["tertiary"], y, action_w, self.touch), TERTIARY_KEY)
            y += self.touch + 1
        else:
            for col, title in head:
                self.text(painter, QRectF(cols[col], y, 100, 12), title, size=7, bold=True,
                          color=theme.muted)
            self.add_box(QRectF(cols["tertiary"], y - 1, 70, 14), TERTIARY_KEY)
            y += 16
        spec = self.ship.ship_class.spec
        locked = set(locked_suits(self.ship))
        for suit in SUITS:
            row = spec.suit(suit)
            sym = SUIT_SYMBOLS[suit]
            is_locked = suit in locked
            row_h = self.suit_row_h
            mid = y + row_h / 2
            color = theme.muted if is_locked else theme.ink
            self.text(painter, QRectF(cols["suit"], y, 30, row_h), sym, size=15,
                      color=color)
            for col, action in (("primary", row.primary), ("secondary", row.secondary),
                                ("tertiary", row.tertiary)):
                words = ACTION_TITLES[action]
                if self.phone:
                    words = self.elide(painter, words, action_w - 3, action_size)
                self.text(painter, QRectF(cols[col], y, action_w, row_h), words,
                          size=action_size, color=color)
            if is_locked:
                short = 6 if self.phone else 16
                self.strike(painter, theme, QRectF(cols["suit"] - 2, mid - 1,
                                                   cols["critical"] - short - cols["suit"], 2))
            box = QRectF(cols["critical"], mid - self.box / 2, self.box, self.box)
            self.text(painter, box, sym, size=8, color=theme.muted, align=CENTER)
            self.draw_box(painter, theme, box,
                          mark=self.pen_mark(is_locked, self.turn_start["criticals"][suit]))
            if is_locked and not self.phone:
                self.text(painter, QRectF(cols["status"], y, self.width - m - cols["status"],
                                          SUIT_ROW_H),
                          f"{sym} locked: no {suit} cards", size=9.5, bold=True,
                          color=theme.ink)
            self.add_box(box, critical_key(suit))
            y += row_h
            if is_locked and self.phone:  # the words under the row struck through
                self.text(painter, QRectF(cols["primary"], y - 3, self.width - m - cols["primary"], 13),
                          f"{sym} locked: no {suit} cards", size=8.5, bold=True, color=theme.ink)
                y += 12
        return y

    # -- this turn: energy and repairs ---------------------------------------------------
    def draw_turn(self, painter: QPainter, theme: Theme, y: float) -> float:
        m = self.margin
        w = self.width - 2 * m
        session = self.session
        when = f" — turn {session.turn}, {session.phase} phase" if session else ""
        y = self.section(painter, theme, y, "Energy allocation this turn" + when)
        allocation = committed_allocation(self.ship)
        rolled = rolled_dice(self.ship)
        if allocation is not None:
            dc = " with Damage Control announced" if allocation.damage_control_announced else ""
            card = f"Card played: {parse_card(allocation.card).label}{dc}"
        elif rolled is not None:
            card = "Card played: — (dice rolled, allocation not yet committed)"
        else:
            card = "Card played: ______    Damage Control announced: ☐"
        if self.phone:
            y = self.wrapped(painter, m, y, w, card, size=10, color=theme.ink) + 6
        else:
            self.text(painter, QRectF(m, y, w, 16), card, size=10, color=theme.ink)
            y += 22
        per_row = 2 if self.phone else 4  # a phone's column: two to a row
        rows = (len(ENERGY_ACTIONS) + per_row - 1) // per_row
        cell_w = (w - (per_row - 1) * 12) / per_row
        values = allocation.as_dict() if allocation is not None else {}
        for n, key in enumerate(ENERGY_ACTIONS):
            row, col = divmod(n, per_row)
            x = m + col * (cell_w + 12)
            top = y + row * 46
            self.text(painter, QRectF(x, top, cell_w, 12), ACTION_TITLES[key].upper(), size=7,
                      bold=True, color=theme.muted)
            cell = QRectF(x, top + 13, cell_w, 26)
            painter.setPen(QPen(theme.ink, 1.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(cell)
            if key in values:
                self.text(painter, cell, str(values[key]), size=14, bold=True, color=theme.ink,
                          align=CENTER)
        self.add_box(QRectF(m, y, w, 40 + 46 * (rows - 1)), ENERGY_KEY)
        y += 46 * rows
        y = self.draw_repairs(painter, theme, y, allocation)
        lost = "Energy not spent this turn is lost at the end of the turn (house rule)."
        if self.phone:  # wrapped, and tapped over a thumb's height
            bottom = self.wrapped(painter, m, y + 4, w, lost, size=7.5, color=theme.muted)
            note = QRectF(m, y, w, max(self.touch, bottom + 4 - y))
            self.add_box(note, LOST_KEY)
            return note.bottom() + 2
        note = QRectF(m, y, w, 12)
        self.text(painter, note, lost, size=7.5, color=theme.muted)
        self.add_box(note, LOST_KEY)
        return y + 14

    def draw_repairs(self, painter: QPainter, theme: Theme, y: float, allocation) -> float:
        m = self.margin
        w = self.width - 2 * m
        plan = planned_repairs(self.ship)
        if allocation is not None and allocation.damage_control_announced:
            budget = damage_control_budget(self.ship, allocation)
        elif allocation is not None:
            budget = "Damage Control: not announced this turn (no repairs this turn)"
        else:
            budget = (f"Damage Control energy: ______ (box {BOX_COST}, critical hit "
                      f"{CRITICAL_COST})")
        if self.phone:
            y = self.wrapped(painter, m, y, w, budget, size=9.5, color=theme.ink) + 4
        else:
            self.text(painter, QRectF(m, y, w, 14), budget, size=9.5, color=theme.ink)
            y += 16
        if plan is not None and not plan.is_empty and self.phone:
            words = "Planned repairs: " + " · ".join(plan.describe(self.ship))
            bottom = self.wrapped(painter, m, y + 2, w, words, size=9.5, bold=True, color=theme.ink)
            bottom = self.wrapped(painter, m, bottom, w, f"They take effect when the session "
                                  f"reaches the {DAMAGE_CONTROL_PHASE} phase (after Movement).",
                                  size=7.5, color=theme.muted)
            rect = QRectF(m, y, w, max(self.touch, bottom + 2 - y))
            self.add_box(rect, REPAIRS_KEY)
            return rect.bottom() + 2
        if plan is not None and not plan.is_empty:
            parts = plan.describe(self.ship)
            rect = QRectF(m, y, w, 14)
            self.text(painter, rect, "Planned repairs: " + " · ".join(parts), size=9.5,
                      bold=True, color=theme.ink)
            self.text(painter, QRectF(m, y + 14, w, 12),
                      f"They take effect when the session reaches the {DAMAGE_CONTROL_PHASE} "
                      f"phase (after Movement).", size=7.5, color=theme.muted)
            self.add_box(rect, REPAIRS_KEY)
            y += 30
        return y

    def _draw_legend(self, painter: QPainter, theme: Theme, y: float) -> float:
        """A key to the pen marks, at the foot of the sheet (``draw_legend``), and the house
        rules' footnote."""
        def circle(r: QRectF) -> None:
            self.text(painter, r.adjusted(-3, 0, 3, 0), "d6", size=7, color=theme.ink, align=CENTER)
            self.draw_circle(painter, theme, r.adjusted(-1, 0, 1, 0))

        def struck(r: QRectF) -> None:
            self.text(painter, r, "♦", size=9, color=theme.muted, align=CENTER)
            self.strike(painter, theme, QRectF(r.left() - 2, r.center().y() - 1, r.width() + 4, 2))

        def planned(r: QRectF) -> None:
            painter.setPen(QPen(theme.accent, 1.0, Qt.PenStyle.DashLine))
            painter.drawRect(r.adjusted(-1.5, -1.5, 1.5, 1.5))

        y, _x = self.draw_legend(painter, theme, y, [
            (lambda r: self.draw_box(painter, theme, r, mark="slash"), "marked box / critical hit"),
            (circle, "current die"), (struck, "suit locked out"), (planned, "repair planned")])
        m = self.margin
        footnote = ("* House rule: our reading where the published rules are silent "
                    + ("(listed in Help ▸ Rules and House Rules)." if theme.on_paper else
                       "(hover it, or see Help ▸ Rules and House Rules)."))
        if self.phone:
            return self.wrapped(painter, m, y + 2, self.width - 2 * m, footnote, size=7.5,
                                color=theme.muted) + 2
        self.text(painter, QRectF(m, y, self.width - 2 * m, 13), footnote,
                  size=7.5, color=theme.muted)
        return y + 14


SHEET = WarInSpaceSheet
