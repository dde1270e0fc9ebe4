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
                                  marked_boxes, planned_repairs, remaining_damage_control,
                                  rolled_dice)
from ..rules.war_in_space.boxes import (DEAD_KEY, ENERGY_KEY, LOST_KEY, REPAIRS_KEY, TERTIARY_KEY,
                                        box_key, critical_key, die_this_turn,
                                        ladder_key, planned_boxes, rolled_key, rolled_on)
from ..rules.war_in_space.game import DAMAGE_CONTROL_PHASE
from ..rules.war_in_space.terms import ACTION_TITLES, ENERGY_ACTIONS, parse_card
from .base import SheetPainter, Theme

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

    # -- the whole sheet ---------------------------------------------------------
    def draw(self, painter: QPainter, theme: Theme) -> float:
        spec = self.ship.ship_class.spec
        size = f" · {spec.size}" if spec.size else ""
        y = self.draw_title(painter, theme, f"{self.ship.ship_class.name}{size} · War In Space")
        y = self.draw_systems(painter, theme, y + 4)
        y = self.draw_suits(painter, theme, y + 14)
        y = self.draw_turn(painter, theme, y + 14)
        return self.draw_legend(painter, theme, y + 12)

    # -- energy systems ------------------------------------------------------------
    def draw_systems(self, painter: QPainter, theme: Theme, y: float) -> float:
        m = self.margin
        right = self.width - m
        y = self.section(painter, theme, y, "Energy systems")
        ladder_x = m + NAME_W
        self.text(painter, QRectF(ladder_x, y, 300, 12),
                  "Die ladder (current die circled) · a damage box under each step",
                  size=7, color=theme.muted)
        self.text(painter, QRectF(right - 80, y, 80, 12), "Die this turn", size=7,
                  color=theme.muted, align=RIGHT)
        y += 16
        spec = self.ship.ship_class.spec
        for i, system in enumerate(spec.systems):
            self.draw_system(painter, theme, i, system, QRectF(m, y, right - m, ROW_H),
                             die_this_turn(self.ship, i), planned_boxes(self.ship, i))
            y += ROW_H
        if is_dead_in_space(self.ship):
            rect = QRectF(m, y, right - m, 18)
            self.text(painter, rect, "DEAD IN SPACE — all three systems produce 0 energy",
                      size=10, bold=True, color=theme.ink)
            self.add_box(rect, DEAD_KEY)
            y += 20
        return y

    def draw_system(self, painter: QPainter, theme: Theme, i: int, system, row: QRectF,
                    rolled: int | None, planned: int) -> None:
        ship = self.ship
        marks = marked_boxes(ship, i)
        ladder = system.ladder
        x0 = row.left()
        self.text(painter, QRectF(x0, row.top(), NAME_W - 8, 16), system.name, size=11,
                  bold=True, color=theme.ink)
        plural = "es" if system.boxes > 1 else ""
        self.text(painter, QRectF(x0, row.top() + 16, NAME_W - 8, 12),
                  f"undamaged d{system.die} · {system.boxes} box{plural}", size=7.5,
                  color=theme.muted)
        # The die ladder: d10 → d8 → d6 → d4 → 0, the current die circled.
        lx = x0 + NAME_W
        die_y = row.top()
        pitch = DIE_W + STEP_W
        for k, sides in enumerate(ladder):
            cell = QRectF(lx + k * pitch, die_y, DIE_W, 16)
            current = k == marks
            self.text(painter, cell, die_label(sides), size=10, bold=current,
                      color=theme.ink if current or k > marks else theme.muted, align=CENTER)
            if current:
                self.draw_circle(painter, theme, cell.adjusted(1, -1, -1, 1))
            if k + 1 < len(ladder):
                a = QPointF(cell.right() + 5, cell.center().y())
                b = QPointF(cell.right() + STEP_W - 5, cell.center().y())
                self._arrow(painter, theme, a, b)
        self.add_box(QRectF(lx - 3, die_y - 3, len(ladder) * pitch - STEP_W + 6, 22),
                     ladder_key(i))
        # The boxes, one under each step of the ladder.
        box_y = die_y + 22
        first_planned = marks - planned  # repairs erase the last marks
        marks_before = self.turn_start["marks"][i]
        for k in range(system.boxes):
            cx = lx + k * pitch + DIE_W + STEP_W / 2
            rect = QRectF(cx - self.box / 2, box_y, self.box, self.box)
            marked = k < marks
            is_planned = marked and k >= first_planned
            self.draw_box(painter, theme, rect, mark=self.pen_mark(marked, k < marks_before))
            if is_planned:
                self._planned_ring(painter, theme, rect)
            self.add_box(rect, box_key(i, k))
        # This turn's die.
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
        self.text(painter, QRectF(row.right() - 84, die_y + 6, 56, 24),
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
        head = [("suit", "Suit"), ("primary", "Primary"), ("secondary", "Secondary"),
                ("tertiary", "Tertiary *"), ("critical", "Critical hit")]
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
            mid = y + SUIT_ROW_H / 2
            color = theme.muted if is_locked else theme.ink
            self.text(painter, QRectF(cols["suit"], y, 30, SUIT_ROW_H), sym, size=15,
                      color=color)
            for col, action in (("primary", row.primary), ("secondary", row.secondary),
                                ("tertiary", row.tertiary)):
                self.text(painter, QRectF(cols[col], y, 88, SUIT_ROW_H), ACTION_TITLES[action],
                          size=10, color=color)
            if is_locked:
                self.strike(painter, theme, QRectF(cols["suit"] - 2, mid - 1,
                                                   cols["critical"] - 16 - cols["suit"], 2))
            box = QRectF(cols["critical"], mid - self.box / 2, self.box, self.box)
            self.text(painter, box, sym, size=8, color=theme.muted, align=CENTER)
            self.draw_box(painter, theme, box,
                          mark=self.pen_mark(is_locked, self.turn_start["criticals"][suit]))
            if is_locked:
                self.text(painter, QRectF(cols["status"], y, self.width - m - cols["status"],
                                          SUIT_ROW_H),
                          f"{sym} locked: no {suit} cards", size=9.5, bold=True,
                          color=theme.ink)
            self.add_box(box, critical_key(suit))
            y += SUIT_ROW_H
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
        self.text(painter, QRectF(m, y, w, 16), card, size=10, color=theme.ink)
        y += 22
        cell_w = (w - 3 * 12) / 4
        values = allocation.as_dict() if allocation is not None else {}
        for n, key in enumerate(ENERGY_ACTIONS):
            x = m + n * (cell_w + 12)
            self.text(painter, QRectF(x, y, cell_w, 12), ACTION_TITLES[key].upper(), size=7,
                      bold=True, color=theme.muted)
            cell = QRectF(x, y + 13, cell_w, 26)
            painter.setPen(QPen(theme.ink, 1.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(cell)
            if key in values:
                self.text(painter, cell, str(values[key]), size=14, bold=True, color=theme.ink,
                          align=CENTER)
        self.add_box(QRectF(m, y, w, 40), ENERGY_KEY)
        y += 46
        y = self.draw_repairs(painter, theme, y, allocation)
        note = QRectF(m, y, w, 12)
        self.text(painter, note, "Energy not spent this turn is lost at the end of the turn "
                  "(house rule).", size=7.5, color=theme.muted)
        self.add_box(note, LOST_KEY)
        return y + 14

    def draw_repairs(self, painter: QPainter, theme: Theme, y: float, allocation) -> float:
        m = self.margin
        w = self.width - 2 * m
        plan = planned_repairs(self.ship)
        if allocation is not None and allocation.damage_control_announced:
            left = remaining_damage_control(self.ship)
            spent = allocation.damage_control - left
            cost = plan.cost if plan else 0
            budget = (f"Damage Control energy: {allocation.damage_control} · spent {spent} · "
                      f"planned {cost} · left {left - cost}")
        elif allocation is not None:
            budget = "Damage Control: not announced this turn (no repairs this turn)"
        else:
            budget = (f"Damage Control energy: ______ (box {BOX_COST}, critical hit "
                      f"{CRITICAL_COST})")
        self.text(painter, QRectF(m, y, w, 14), budget, size=9.5, color=theme.ink)
        y += 16
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

    def draw_legend(self, painter: QPainter, theme: Theme, y: float) -> float:
        """A key to the pen marks, at the foot of the sheet."""
        m = self.margin
        painter.setPen(QPen(theme.faint, 0.8))
        painter.drawLine(QPointF(m, y), QPointF(self.width - m, y))
        y += 8
        x = m
        size = 11.0
        entries = [("slash", "marked box / critical hit"), ("circle", "current die"),
                   ("strike", "suit locked out"), ("planned", "repair planned")]
        for kind, words in entries:
            r = QRectF(x, y + 1, size, size)
            if kind == "slash":
                self.draw_box(painter, theme, r, mark="slash")
            elif kind == "circle":
                self.text(painter, r.adjusted(-3, 0, 3, 0), "d6", size=7, color=theme.ink,
                          align=CENTER)
                self.draw_circle(painter, theme, r.adjusted(-1, 0, 1, 0))
            elif kind == "strike":
                self.text(painter, r, "♦", size=9, color=theme.muted, align=CENTER)
                self.strike(painter, theme, QRectF(r.left() - 2, r.center().y() - 1,
                                                   r.width() + 4, 2))
            else:
                pen = QPen(theme.accent, 1.0, Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawRect(r.adjusted(-1.5, -1.5, 1.5, 1.5))
            tw = self.advance(painter, words, 7.5)
            self.text(painter, QRectF(x + size + 6, y, tw + 4, 13), words, size=7.5,
                      color=theme.muted)
            x += size + 6 + tw + 22
        y += 16
        self.text(painter, QRectF(m, y, self.width - 2 * m, 13),
                  "* House rule: our reading where the published rules are silent "
                  + ("(listed in Help ▸ Rules and House Rules)." if theme.on_paper else
                     "(hover it, or see Help ▸ Rules and House Rules)."),
                  size=7.5, color=theme.muted)
        return y + 14


SHEET = WarInSpaceSheet
