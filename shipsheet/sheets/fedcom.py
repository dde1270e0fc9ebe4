"""The Federation Commander ship card: shields, weapons, systems, frame, standing orders.

Drawn from the model alone, for the screen and the printer alike ("the
screen is the paper"). Every box is placed with its key (``rules/fedcom/boxes.py``
names them), and what it says and does is the rules' answer for the key: a left
click sets the box's next turn state (fired, charging, launched, used …); the
context menu offers the other states and the referee's corrections (destroy or
restore by hand, drones left, shuttle occupant). Shield and frame boxes are
marked by hand like a tally (a correction: the volley dialog marks them itself).

Marks: a destroyed box is struck with a full X, a shield box down carries a
slash, and a box used this turn (fired, charging, launched, used) has its
top-right corner filled, like a dog-ear; weapons also say their state in
words. No rule is decided here: states, orders, hit order and status all
come from ``shipsheet.rules.fedcom``.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen, QPolygonF, QTransform

from ..model.games import GAME_TITLES
from ..rules.fedcom import (REPAIR_COSTS, BoxSpec, FedComClass, boxes_used_this_turn, orders_of,
                            repair_cost, status, turn_state, turn_states)
from ..rules.fedcom.boxes import box_key, frame_key, shield_key
from ..rules.fedcom.overrides import resolve  # not exported by the package (yet)
from ..rules.fedcom.words import (CATEGORY_TITLES, CHIP_TITLES, OCCUPANT_WORDS, SHIELD_NAMES,
                                  box_number, kind_title, state_word)
from .base import PAPER, SheetLayout, SheetPainter, Theme
from .display import remembered, section

#: Where each shield sits on the card: the front row (#6, #1, #2) above the rear row
#: (#5, #4, #3), as around the ship seen from above.
SHIELD_GRID = ((6, 1, 2), (5, 4, 3))

#: The DESTROYED stamp's turn, in degrees (clockwise; negative: up to the right).
STAMP_ANGLE = -6.0

#: Kinds drawn as a box with a caption beside it (type, arc, state, load).
CHIP_KINDS = ("phaser", "torpedo", "drone", "shuttle", "tractor")


_NONE: frozenset = frozenset()


class _Marked(NamedTuple):
    """A drawing's marked boxes: destroyed, destroyed when the turn began (only when this
    turn's marks are shown apart; else none), used this turn."""

    destroyed: frozenset
    before: frozenset
    used: frozenset


class _Line:
    """One line of a row of plain boxes, kept for every drawing (``SheetPainter.kept``):
    its rects, box ids, keys and numbers. Compared by identity in a section's key."""

    __slots__ = ("rects", "ids", "here", "keys", "numbers")

    def __init__(self, rects: tuple, ids: tuple, numbers: tuple):
        self.rects = rects
        self.ids = ids
        self.here = frozenset(ids)
        self.keys = tuple(box_key(b) for b in ids)
        self.numbers = numbers


class FedComSheet(SheetPainter):
    """A Federation Commander ship card (sample or the owner's own)."""

    box = 15.0
    pitch = 17.0        # box plus the gap between boxes in a row
    group_gap = 4.0     # extra space after every fifth box, for counting
    label_w = 84.0      # the label column of a row of boxes
    chip_w = 90.0       # a weapon (box and caption) in a chip row
    chip_h = 26.0       # the height of a chip row
    row_h = 20.0        # the height of a row of plain boxes
    label_line = 0.0    # a label's own line over its boxes (a phone's long rows)
    numbers = (6.0, 7.0)  # the size of a box's number, and of a weapon's
    ear = 6.0           # the dog-ear of a box used this turn
    caption_dy = 0.0    # a chip's caption lines, down from the chip's top

    def __init__(self, ship, session=None, *, layout: SheetLayout = PAPER):
        super().__init__(ship, session, layout=layout)
        self._places: dict[str, str] | None = None
        self._marks: _Marked | None = None
        if self.phone:  # one column; boxes ``touch`` apart, two weapons to a row
            self.pitch = self.row_h = self.touch
            self.group_gap = 0.0
            self.label_line = 16.0
            self.chip_w = (self.width - 2 * self.margin) / 2
            self.chip_h = self.box + 10
            self.numbers = (10.0, 11.0)
            self.ear = 9.0
            self.caption_dy = (self.box - 15.0) / 2

    # -- what the rules say (computed once per painter; a change makes a new painter) --
    @property
    def spec(self) -> FedComClass:
        return self.ship.ship_class.spec

    def order_places(self) -> dict[str, str]:
        """box id -> "hit first" / "hit last" for the standing orders that apply now."""
        if self._places is None:
            orders = orders_of(self.ship)
            self._places = {}
            if orders:
                resolved = resolve(self.spec, self.ship.state["destroyed"], orders)
                for ids in resolved.front.values():
                    self._places.update({i: "hit first" for i in ids})
                for ids in resolved.back.values():
                    self._places.update({i: "hit last" for i in ids})
        return self._places

    # -- the card ---------------------------------------------------------------------------
    def draw(self, painter: QPainter, theme: Theme) -> float:
        spec = self.spec
        name = self.ship.ship_class.name
        race = (f" · {spec.race}" if spec.race and not name.casefold().startswith(spec.race.casefold())
                else "")
        y = self.draw_title(painter, theme, subtitle=f"{name}{race} · {GAME_TITLES['fedcom']}")
        y = self._draw_summary(painter, theme, y)
        y = self._draw_shields(painter, theme, y + 4)
        y = self._draw_weapons(painter, theme, y + 6)
        y = self._draw_systems(painter, theme, y + 6)
        y = self._draw_columns(painter, theme, y + 6)
        y = self._draw_orders(painter, theme, y + 6)
        y = self._draw_legend(painter, theme, y + 8)
        if self.ship.state.get("ship_destroyed"):
            self._draw_stamp(painter, theme)
        return y

    def _draw_summary(self, painter: QPainter, theme: Theme, y: float) -> float:
        """Damage control, frame left, boxes destroyed, repair this turn, turn and phase."""
        m, w = self.margin, self.width - 2 * self.margin
        st = status(self.ship)
        spec = self.spec
        bits = [f"Damage control {spec.damage_control}",
                f"Frame {st.frame_left} of {st.frame} left",
                f"{st.boxes_destroyed} of {st.boxes_total} boxes destroyed"
                + (" (crippled)" if st.crippled and not st.destroyed else "")]
        spent = self.ship.state.get("repair_spent", 0)
        if spent:
            bits.append(f"repair: {spent} of {spec.damage_control} points used this turn")
        if self.phone:  # the column wraps the line; the turn under it
            y = self.wrapped(painter, m, y - 4, w, " · ".join(bits), size=8.5, color=theme.ink)
            if self.session is not None:
                self.text(painter, QRectF(m, y, w, 14), f"Turn {self.session.turn}, {self.session.phase}",
                          size=8.5, color=theme.muted)
                y += 14
            return y + 4
        left = "   ·   ".join(bits)
        self.text(painter, QRectF(m, y - 4, w, 14), left, size=8.5, color=theme.ink)
        if self.session is not None:
            turn = f"Turn {self.session.turn}, {self.session.phase}"
            if self.advance(painter, left, 8.5) + self.advance(painter, turn, 8.5) + 24 > w:
                y += 13
            self.text(painter, QRectF(m, y - 4, w, 14), turn, size=8.5, color=theme.muted,
                      align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return y + 14

    # -- headings -----------------------------------------------------------------------------
    def heading(self, painter: QPainter, theme: Theme, x: float, y: float, w: float,
                title: str, note: str = "") -> float:
        """A labelled group heading over ``w`` units; returns the y its content starts at."""
        return section(self, painter, theme, ("heading", x, y, w, title, note),
                       lambda: self._heading(painter, theme, x, y, w, title, note))

    def _heading(self, painter: QPainter, theme: Theme, x: float, y: float, w: float,
                 title: str, note: str) -> float:
        self.text(painter, QRectF(x, y, w, 16), title.upper(), size=8.5, bold=True, color=theme.muted)
        if note and self.phone and (self.advance(painter, title.upper(), 8.5, True)
                                    + self.advance(painter, note, 7.5) + 10 > w):
            # No room beside the title in a phone's column: the note on lines of its own.
            y = self.wrapped(painter, x, y + 15, w, note, size=7.5, color=theme.muted) - 14
            note = ""
        if note:
            self.text(painter, QRectF(x, y, w, 16), note, size=7.5, color=theme.muted,
                      align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        painter.setPen(QPen(theme.faint, 1.0))
        painter.drawLine(QPointF(x, y + 17), QPointF(x + w, y + 17))
        return y + 22

    # -- boxes ---------------------------------------------------------------------------------
    @remembered
    def pen_box(self, painter: QPainter, theme: Theme, rect: QRectF, *, mark: str = "",
                number: str = "", used: bool = False, strong: bool = False) -> None:
        """One box: its number, a dog-ear when used this turn, an X or a slash on top."""
        if mark == "x":
            self.fill_rect(painter, rect, theme.faint)
        if number:
            self.text(painter, rect, number, size=self.numbers[1] if strong else self.numbers[0],
                      bold=strong, color=theme.ink if strong else theme.muted,
                      align=Qt.AlignmentFlag.AlignCenter)
        if used:
            ear = min(self.ear, rect.width() * 0.55)
            corner = QPolygonF([QPointF(rect.right() - ear, rect.top()), rect.topRight(),
                                QPointF(rect.right(), rect.top() + ear)])
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(theme.ink)
            painter.drawPolygon(corner)
            painter.setBrush(Qt.BrushStyle.NoBrush)
        self.draw_box(painter, theme, rect, mark=mark)

    def box_positions(self, x: float, y: float, count: int, width: float) -> list[QRectF]:
        """Rects for ``count`` boxes in rows from (x, y), a gap after every fifth, wrapping."""
        rects = []
        cx, cy, in_row = x, y, 0
        for _ in range(count):
            if cx + self.box > x + width + 0.01 and in_row:
                cx, cy, in_row = x, cy + self.pitch, 0
            rects.append(QRectF(cx, cy, self.box, self.box))
            in_row += 1
            cx += self.pitch + (self.group_gap if in_row % 5 == 0 else 0)
        return rects

    def boxes_width(self, count: int) -> float:
        """The width a row of ``count`` boxes takes."""
        if count <= 0:
            return 0.0
        return (count - 1) * self.pitch + ((count - 1) // 5) * self.group_gap + self.box

    # -- shields ---------------------------------------------------------------------------
    def _draw_shields(self, painter: QPainter, theme: Theme, y: float) -> float:
        spec = self.spec
        damage = self.ship.state["shield_damage"]
        m, w = self.margin, self.width - 2 * self.margin
        left = [s - d for s, d in zip(spec.shields, damage)]
        y = self.heading(painter, theme, m, y, w, "Shields",
                         f"{sum(left)} of {sum(spec.shields)} boxes up"
                         + theme.hint(" · click a box to mark or regenerate"))
        if self.phone:  # one shield under the other, #1 to #6, as many boxes to a row as fit
            grid, col_w = tuple((n,) for n in range(1, 7)), w
            per_row = int((w - self.box) // self.pitch) + 1
        else:
            grid, col_w, per_row = SHIELD_GRID, w / 3, 10
        first = 15.0 if self.phone else 13.0  # the caption's line over the boxes
        # "DOWN" after the longest caption ("#2  right front"), in one column for all six.
        down_dx = max(self.advance(painter, f"#{n}  {name}", 8, True)
                      for n, name in SHIELD_NAMES.items()) + 10
        for grid_row in grid:
            tallest = 0.0
            for col, n in enumerate(grid_row):
                x = m + col * col_w
                size, down = spec.shields[n - 1], damage[n - 1]
                before = self.turn_start["shield_damage"][n - 1] if self.turn_marks else 0
                bottom = section(self, painter, theme,
                                 ("shield", n, x, y, col_w, per_row, first, down_dx, size, down, before),
                                 lambda x=x, n=n, size=size, down=down, before=before:
                                 self._shield(painter, theme, n, x, y, col_w, per_row, first, down_dx,
                                              size, down, before))
                tallest = max(tallest, bottom)
            y += tallest + 7
        return y

    def _shield(self, painter: QPainter, theme: Theme, n: int, x: float, y: float, col_w: float,
                per_row: int, first: float, down_dx: float, size: int, down: int,
                before: int) -> float:
        """Shield #``n``: its caption, boxes left, DOWN when none is, and its boxes; returns
        how far below ``y`` its boxes end."""
        caption = f"#{n}  {SHIELD_NAMES[n]}"
        self.text(painter, QRectF(x, y - 1, col_w - 8, 12), caption, size=8, bold=True,
                  color=theme.ink)
        self.text(painter, QRectF(x, y, col_w - (6 if self.phone else 14), 12),
                  f"{size - down} of {size}" if size else "none", size=7.5,
                  color=theme.ink if size and size == down else theme.muted,
                  align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if size and size == down:
            self.text(painter, QRectF(x + down_dx, y - 1, 40, 12), "DOWN", size=7.5,
                      bold=True, color=theme.mark)
        rects = self.box_positions(x, y + first, size, self.boxes_width(per_row))
        self._shield_boxes(painter, theme, rects, down, before)
        for k, rect in enumerate(rects, start=1):
            self.add_box(rect, shield_key(n, k))
        return (rects[-1].bottom() if rects else y + first) - y

    def _shield_boxes(self, painter: QPainter, theme: Theme, rects: list[QRectF], down: int,
                      before: int = 0) -> None:
        """A shield's boxes in two strokes (a shield has up to 40 boxes, a card six shields):
        the same boxes and slashes as ``draw_box``, drawn in bulk. ``before``: boxes already
        down when the turn began, crossed (X) when this turn's marks are shown apart."""
        painter.setPen(QPen(theme.ink, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRects(rects)
        if down:
            painter.setPen(QPen(theme.mark, 2.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            lines = []
            for k, rect in enumerate(rects[:down]):
                inset = rect.adjusted(2.5, 2.5, -2.5, -2.5)
                lines.append(QLineF(inset.bottomLeft(), inset.topRight()))
                if k < before:
                    lines.append(QLineF(inset.topLeft(), inset.bottomRight()))
            painter.drawLines(lines)

    # -- weapons and other chips -------------------------------------------------------------
    def _draw_weapons(self, painter: QPainter, theme: Theme, y: float) -> float:
        spec = self.spec
        m, w = self.margin, self.width - 2 * self.margin
        kinds = [k for k in ("phaser", "torpedo", "drone") if k in spec.by_kind]
        weapon_kinds = [k for k in spec.kinds if spec.category(k) == "weapons" and k not in kinds]
        if not kinds and not weapon_kinds:
            return y
        y = self.heading(painter, theme, m, y, w, "Weapons",
                         f"repair {REPAIR_COSTS['weapons']} points per box"
                         + theme.hint(" · click: fired / unfired …"))
        for kind in kinds:
            y = self._chip_rows(painter, theme, y, kind)
            if kind == "torpedo" and len(spec.heavy_weapon_order) > 1:
                # [seed 8FC4] the owner specifies which type is hit first; that the type
                # order ranks above fired/charging/unfired is house rule FC-H13.
                note = ("Types are hit in the card's order: " + " → ".join(spec.heavy_weapon_order)
                        + " (standing orders may change it for a turn) · house rule FC-H13")
                if self.phone:
                    y = self.wrapped(painter, m, y - 2, w, note, size=7, color=theme.muted) + 4
                    continue
                self.text(painter, QRectF(m + self.label_w, y - 4, w - self.label_w, 11),
                          note, size=7, color=theme.muted)
                y += 10
        for kind in weapon_kinds:
            y = self._plain_rows(painter, theme, m, y, w, [kind])
        return y

    def _chip_rows(self, painter: QPainter, theme: Theme, y: float, kind: str) -> float:
        """``kind``'s chips under its title: a section (``sheets.display.section``) named by
        all its chips read — which of them are destroyed (and were when the turn began),
        their turn states, drones left or bays' occupants, the repair under way on one,
        the standing orders' places — so a kind whose chips are as they were is repeated
        in one go, without working out each chip's caption (a click on another box of a
        big card redrew every chip's key); each chip is a section of its own within it."""
        spec = self.spec
        ids = spec.by_kind[kind]
        st = self.ship.state
        lost, before, _used = self._marked_among(ids)  # the turn states below say the use
        turn = st["turn"]
        held = ()
        if kind == "drone":
            held = tuple(st["drones"].get(box_id) for box_id in ids)
        elif kind == "shuttle":
            held = tuple(st["occupant"].get(box_id) for box_id in ids)
        repair = st.get("repair")
        repair = (repair["box"], repair["points"]) if repair and repair.get("box") in lost else None
        places = self.order_places()
        key = ("chip rows", spec, kind, y, self.turn_marks, self.blank, self.phone, lost, before,
               tuple(turn.get(box_id) for box_id in ids), held, repair,
               tuple(places.get(box_id) for box_id in ids) if places else ())
        return section(self, painter, theme, key,
                       lambda: self._draw_chip_rows(painter, theme, y, kind))

    def _draw_chip_rows(self, painter: QPainter, theme: Theme, y: float, kind: str) -> float:
        spec = self.spec
        m, w = self.margin, self.width - 2 * self.margin
        ids = spec.by_kind[kind]
        if self.phone:  # the title on its own line, the chips under it
            self.text(painter, QRectF(m, y, w, self.label_line), CHIP_TITLES[kind], size=8,
                      bold=True, color=theme.ink)
            x0, y = m, y + self.label_line
            cols = max(1, int((w + 0.01) // self.chip_w))
        else:
            self.text(painter, QRectF(m, y + 2, self.label_w - 4, 14), CHIP_TITLES[kind], size=8,
                      bold=True, color=theme.ink)
            x0 = m + self.label_w
            cols = max(1, int((w - self.label_w) // self.chip_w))
        for i, box_id in enumerate(ids):
            row, col = divmod(i, cols)
            x = x0 + col * self.chip_w
            top = y + row * self.chip_h
            self._chip(painter, theme, spec.box(box_id), x, top)
        rows = (len(ids) + cols - 1) // cols
        return y + rows * self.chip_h + 2

    def _chip(self, painter: QPainter, theme: Theme, box: BoxSpec, x: float, top: float) -> None:
        """A weapon, shuttle bay or tractor: box with its number, and two lines of caption
        (a section: a chip as it was is repeated)."""
        st = self.ship.state
        destroyed = box.id in self._marked().destroyed
        state = None if destroyed else turn_state(self.ship, box.id)
        default = turn_states(box.kind)[0]
        first, second = self._caption(box, state)
        if destroyed:
            second = "destroyed"
            repair = st.get("repair")
            if repair and repair.get("box") == box.id:
                second = f"repair {repair['points']}/{repair_cost(self.spec, box.id)}"
        placed = self.order_places().get(box.id)
        if placed and not destroyed:
            second = f"{second} · {placed}" if second else placed
        used = state is not None and state != default
        mark = self.pen_mark(destroyed, box.id in self._marked().before, "x")
        section(self, painter, theme, ("chip", box.id, x, top, mark, used, first, second, destroyed),
                lambda: self._draw_chip(painter, theme, box, x, top, mark, used, first, second,
                                        destroyed))

    def _draw_chip(self, painter: QPainter, theme: Theme, box: BoxSpec, x: float, top: float,
                   mark: str, used: bool, first: str, second: str, destroyed: bool) -> None:
        rect = QRectF(x, top + 3, self.box, self.box)
        self.pen_box(painter, theme, rect, mark=mark, number=box_number(box), used=used,
                     strong=True)
        tx = x + self.box + 5
        tw = self.chip_w - self.box - 8
        ink = theme.muted if destroyed else theme.ink
        top += self.caption_dy
        self.text(painter, QRectF(tx, top, tw, 11), first, size=7.5, bold=True, color=ink)
        emphasis = used and not destroyed
        self.text(painter, QRectF(tx, top + 11, tw, 11), second, size=7, bold=emphasis,
                  color=theme.ink if emphasis else theme.muted)
        self.add_box(rect.adjusted(-1, -3, tw + 6, 4), box_key(box.id))

    def _caption(self, box: BoxSpec, state: str | None) -> tuple[str, str]:
        st = self.ship.state
        arc = box.arc_text if box.has_arc else ""
        if state is None or (self.blank and state == turn_states(box.kind)[0]):
            word = ""  # destroyed; or a blank sheet, whose "unfired" is the pen's to write
        else:
            word = state_word(box.kind, state)
        if box.kind == "phaser":
            return f"{box.type}  {arc}", word
        if box.kind == "torpedo":
            sizes = {self.spec.box(b).size for b in self.spec.by_kind["torpedo"]}
            if len(sizes) > 1:  # [seed 8FC4] "Smallest Fired ...": the size matters, say it
                word = f"size {box.size}" + (f" · {word}" if word else "")
            return f"{box.type}  {arc}", word
        if box.kind == "drone":
            left = st["drones"].get(box.id, box.drones)
            name = box.type or "rack"
            return f"{name}  {arc}", f"{left}/{box.drones} · {word}" if word else f"{left}/{box.drones} drones"
        if box.kind == "shuttle":
            occ = st["occupant"].get(box.id, box.occupant)
            return OCCUPANT_WORDS[occ], word
        if box.kind == "tractor":
            return f"tractor  {arc}".strip(), word
        return box.id, word

    # -- plain boxes -------------------------------------------------------------------------
    def _marked(self) -> "_Marked":
        """Which boxes are destroyed, were destroyed when the turn began (when this turn's
        marks are shown apart) and are used this turn: read once a drawing."""
        if self._marks is None:
            state = self.ship.state
            self._marks = _Marked(
                frozenset(state["destroyed"]),
                frozenset(self.turn_start["destroyed"]) if self.turn_marks else _NONE,
                boxes_used_this_turn(self.ship))
        return self._marks

    def _marked_among(self, ids) -> "_Marked":
        """The marks of the boxes ``ids`` alone (a kind's): destroyed, destroyed when the
        turn began, used this turn — what names a kind's row or chips as sections."""
        marked = self._marked()
        lost = marked.destroyed.intersection(ids) if marked.destroyed else _NONE
        return _Marked(lost, marked.before & lost if lost and marked.before else _NONE,
                       marked.used.intersection(ids) if marked.used else _NONE)

    def _plain_rows(self, painter: QPainter, theme: Theme, x: float, y: float, w: float,
                    kinds: list[str]) -> float:
        """One row (wrapping if needed) of boxes per kind, the kind's name in the label column.

        A card's boxes are mostly plain ones, up to five hundred, recorded at every change.
        Where a row's boxes go, their keys and numbers are kept (``kept``); each line of a
        row is a section (``sheets.display.section``) named by its boxes and which of them
        are marked, so a line as it was is repeated in one go, its boxes placed and all,
        and only a line with a box that changed is drawn afresh."""
        spec = self.spec
        for kind in kinds:
            lost, before, used = self._marked_among(spec.by_kind[kind])
            y = section(self, painter, theme, ("plain row", spec, kind, x, y, w, lost, used, before),
                        lambda kind=kind, lost=lost, used=used, before=before, y=y:
                        self._plain_row(painter, theme, x, y, w, kind, lost, used, before))
        return y

    def _plain_row(self, painter: QPainter, theme: Theme, x: float, y: float, w: float,
                   kind: str, lost: frozenset, used: frozenset, before: frozenset) -> float:
        """``kind``'s row: its label, then its lines of boxes, each a section of its own (a
        row of hundreds of boxes with one changed draws one line afresh)."""
        spec = self.spec
        ids = spec.by_kind[kind]
        bx, by, bw = self._row_label(painter, x, y, w, kind_title(kind), len(ids),
                                     theme.muted if len(lost) == len(ids) else theme.ink)
        lines = self.kept(("plain lines", spec, kind, bx, by, bw, self.box, self.pitch,
                           self.group_gap), lambda: self._plain_lines(kind, bx, by, bw))
        for line in lines:
            here = line.here
            key = ("plain line", line, lost & here if lost else _NONE,
                   used & here if used else _NONE, before & here if before else _NONE)
            section(self, painter, theme, key,
                    lambda line=line: self._plain_line(painter, theme, line, lost, used, before))
        return lines[-1].rects[-1].bottom() + (self.row_h - self.box)

    def _plain_lines(self, kind: str, x: float, y: float, width: float) -> "tuple[_Line, ...]":
        """The lines of ``kind``'s row of boxes from (x, y), ``width`` wide: each line's
        rects, box ids, keys and numbers (numbered when the kind has more than one box)."""
        spec = self.spec
        ids = spec.by_kind[kind]
        rects = self.box_positions(x, y, len(ids), width)
        numbered = len(ids) > 1
        return tuple(_Line(tuple(rects[start:end]), ids[start:end],
                           tuple(box_number(spec.box(b)) if numbered else "" for b in ids[start:end]))
                     for start, end in self._lines(rects))

    def _plain_line(self, painter: QPainter, theme: Theme, line: "_Line", lost: frozenset,
                    used: frozenset, before: frozenset) -> None:
        """One line of a row: each box drawn (X when destroyed, the dog-ear when used this
        turn) and placed."""
        pen_box, add_box, mark = self.pen_box, self.add_box, self.pen_mark
        for rect, box_id, key, number in zip(line.rects, line.ids, line.keys, line.numbers):
            gone = box_id in lost
            pen_box(painter, theme, rect, mark=mark(gone, box_id in before, "x"), number=number,
                    used=box_id in used and not gone)
            add_box(rect, key)

    def _row_label(self, painter: QPainter, x: float, y: float, w: float, label: str,
                   count: int, color) -> tuple[float, float, float]:
        """A row's label in the label column; (x, y, width) of where its ``count`` boxes go:
        beside it — or on a phone, when they do not fit beside it, on lines under it."""
        if self.phone and self.boxes_width(count) > w - self.label_w + 0.01:
            self.text(painter, QRectF(x, y, w, self.label_line), label, size=8, color=color)
            return x, y + self.label_line, w
        self.text(painter, QRectF(x, y, self.label_w - 4, self.box), label, size=8,
                  color=color, bold=False)
        return x + self.label_w, y, w - self.label_w

    @staticmethod
    def _lines(rects: list[QRectF]) -> list[tuple[int, int]]:
        """Where ``rects`` (from :meth:`box_positions`) wrap: (start, end) of each line."""
        starts = [i for i, r in enumerate(rects) if i == 0 or r.top() != rects[i - 1].top()]
        return list(zip(starts, starts[1:] + [len(rects)]))

    def _destroyed_mark(self, box_id: str, destroyed: bool) -> str:
        """X for a destroyed box — a slash when it was destroyed this turn and this turn's
        marks are shown apart."""
        return self.pen_mark(destroyed, box_id in self.turn_start["destroyed"], "x")

    # -- the other groups -------------------------------------------------------------------
    def _kinds_of(self, category: str) -> list[str]:
        spec = self.spec
        return [k for k in spec.kinds if spec.category(k) == category and k not in CHIP_KINDS]

    def _draw_systems(self, painter: QPainter, theme: Theme, y: float) -> float:
        """Shuttle bays and tractors, with what each holds and its state (ship systems)."""
        spec = self.spec
        m, w = self.margin, self.width - 2 * self.margin
        chips = [k for k in ("shuttle", "tractor") if k in spec.by_kind]
        if not chips:
            return y
        y = self.heading(painter, theme, m, y, w, "Shuttle bays and tractors",
                         f"ship systems · repair {REPAIR_COSTS['systems']} points per box"
                         + theme.hint(" · click: used this turn"))
        for kind in chips:
            y = self._chip_rows(painter, theme, y, kind)
        return y

    def _draw_columns(self, painter: QPainter, theme: Theme, y: float) -> float:
        """Control and power on the left; other ship systems, hull and frame on the right."""
        m, w = self.margin, self.width - 2 * self.margin
        if self.phone:  # one column: each group under the last
            y = self._draw_categories(painter, theme, m, y, w, ("control", "power", "systems", "hull"))
            return self._draw_frame(painter, theme, m, y, w)
        half = (w - 16) / 2
        xl, xr = m, m + half + 16
        yl = self._draw_categories(painter, theme, xl, y, half, ("control", "power"))
        yr = self._draw_categories(painter, theme, xr, y, half, ("systems", "hull"))
        yr = self._draw_frame(painter, theme, xr, yr, half)
        return max(yl, yr)

    def _draw_categories(self, painter: QPainter, theme: Theme, x: float, y: float, w: float,
                         categories: tuple[str, ...]) -> float:
        """A heading and the rows of plain boxes for each repair category that has boxes."""
        for category in categories:
            kinds = self._kinds_of(category)
            if kinds:
                y = self.heading(painter, theme, x, y, w, CATEGORY_TITLES[category],
                                 f"repair {REPAIR_COSTS[category]} per box")
                y = self._plain_rows(painter, theme, x, y, w, kinds) + 6
        return y

    def _draw_frame(self, painter: QPainter, theme: Theme, x: float, y: float, w: float) -> float:
        spec = self.spec
        hits = self.ship.state["frame_hits"]
        y = self.heading(painter, theme, x, y, w, "Frame", f"{spec.frame - hits} of {spec.frame} left")
        if self.phone and self.boxes_width(spec.frame) > w - self.label_w:
            bx, by, bw = x, y + 4, w  # the heading names the boxes: no label over them
        else:
            bx, by, bw = self._row_label(painter, x, y, w, "Frame", spec.frame, theme.ink)
        rects = self.box_positions(bx, by, spec.frame, bw)
        hits_before = self.turn_start["frame_hits"]
        for k, rect in enumerate(rects, start=1):
            self.pen_box(painter, theme, rect, mark=self.pen_mark(k <= hits, k <= hits_before, "x"))
            self.add_box(rect, frame_key(k))
        return rects[-1].bottom() + 6

    # -- standing orders and legend -----------------------------------------------------------
    def _draw_orders(self, painter: QPainter, theme: Theme, y: float) -> float:
        m, w = self.margin, self.width - 2 * self.margin
        st = self.ship.state
        orders = orders_of(self.ship)
        turn = f" · turn {self.session.turn}" if self.session is not None else ""
        if not orders:
            note = "none: the DDAP decides every hit"
        elif st.get("next_orders") is not None:
            note = ("copied to the next turn" if st["next_orders"] == orders.to_json()
                    else "an earlier copy goes to the next turn")
        else:
            note = "lapse at the end of this turn"
        y = self.heading(painter, theme, m, y, w, "Standing orders" + turn, note)
        lines = orders.describe()
        notes = resolve(self.spec, st["destroyed"], orders).notes if orders else []
        for line in lines:
            if self.phone:
                y = self.wrapped(painter, m, y, w, "•  " + line, size=8, color=theme.ink) + 2
                continue
            self.text(painter, QRectF(m, y, w, 12), "•  " + line, size=8, color=theme.ink)
            y += 12
        for line in notes:
            if self.phone:
                y = self.wrapped(painter, m, y, w, "Note: " + line, size=7.5, color=theme.mark) + 2
                continue
            self.text(painter, QRectF(m, y, w, 12), "Note: " + line, size=7.5,
                      color=theme.mark)
            y += 12
        if not lines and self.session is None:  # a blank sheet: lines to write orders on
            painter.setPen(QPen(theme.faint if not theme.on_paper else theme.muted, 0.5))
            for _ in range(3):
                y += 14
                painter.drawLine(QPointF(m, y), QPointF(m + w, y))
            y += 4
        elif not lines and self.phone:  # the phone's form is under its sheet
            y = self.wrapped(painter, m, y, w, "No overrides this turn.", size=8,
                             color=theme.muted)
        elif not lines:
            self.text(painter, QRectF(m, y, w, 12),
                      "No overrides this turn"
                      + theme.hint(" (give them with Standing Orders… in the Actions panel)") + ".",
                      size=8, color=theme.muted)
            y += 12
        return y + 2

    def _draw_legend(self, painter: QPainter, theme: Theme, y: float) -> float:
        keys = [("x", False, "destroyed"), ("slash", False, "shield box down"),
                ("", True, "fired, charging, launched or used this turn")]
        if self.turn_marks:  # slash and X then say when (the key under the title), not what
            keys = keys[2:]
        y, x = self.draw_legend(painter, theme, y, [
            (lambda rect, mark=mark, used=used: self.pen_box(painter, theme, rect, mark=mark,
                                                              used=used), text)
            for mark, used, text in keys])
        if theme.on_paper:
            return y
        hint = theme.hint("Click a box: its next state · right-click: more")
        m, size = self.margin, self.LEGEND_MARK
        if self.phone:  # on a line of its own
            self.text(painter, QRectF(m, y + 2, self.width - 2 * m, size + 2), hint, size=7,
                      color=theme.muted)
            return y + size + 5
        self.text(painter, QRectF(x, y - size - 4, self.width - m - x, size + 2), hint, size=7,
                  color=theme.muted,
                  align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return y

    def _stamp(self) -> tuple[QPointF, QRectF, float]:
        """The DESTROYED stamp: its middle, its frame round the middle (before it is turned
        ``STAMP_ANGLE``) and its words' size. Turned, it stays above the class line (its
        paper would hide the line's words) and right of the name (``title_reserve``); a
        phone's is smaller, its column narrow."""
        m = self.margin
        if self.phone:
            return QPointF(self.width - m - 60, m + 12), QRectF(-56, -11, 112, 22), 13.0
        return QPointF(self.width - m - 120, m + 2), QRectF(-92, -17, 184, 34), 20.0

    def title_reserve(self) -> float:
        """A destroyed ship's name ends before its stamp (the stamp is drawn over the title)."""
        if not self.ship.state.get("ship_destroyed"):
            return 0.0
        middle, frame, _size = self._stamp()
        left = middle.x() + QTransform().rotate(STAMP_ANGLE).mapRect(frame).left()
        return self.width - self.margin - left + 6

    def _draw_stamp(self, painter: QPainter, theme: Theme) -> None:
        """A rubber stamp in the title block, clear of the boxes: DESTROYED."""
        middle, rect, size = self._stamp()
        painter.save()
        painter.translate(middle)
        painter.rotate(STAMP_ANGLE)
        painter.setPen(QPen(theme.mark, 2.2))
        painter.setBrush(theme.paper)
        painter.drawRoundedRect(rect, 4, 4)
        self.text(painter, rect, "DESTROYED", size=size, bold=True, color=theme.mark,
                  align=Qt.AlignmentFlag.AlignCenter)
        painter.restore()


SHEET = FedComSheet

__all__ = ["FedComSheet", "SHEET", "box_number", "kind_title", "state_word"]
