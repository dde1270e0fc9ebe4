"""The Triplanetary ship sheet: counter, D-track ladders, status, fuel and cargo, ship's log.

Drawn in the spirit of the game's counters and ship logs: the combat strength
as on the counter ("8", "1D"), the three Advanced Combat System tracks
(Weapons, Drive, Structure) as ladders D0…D6 with their thresholds drawn on
them, the current D-level circled, damage slashed off like pen marks, and the
status in words. Under the standard combat option (a session option) the
single disabled track D0…D6 with its E box takes their place.

Every decision (what a level means, whether a click is allowed, what it does)
comes from :mod:`shipsheet.rules.triplanetary`: thresholds are found by asking
the rules for the status of a scratch copy at each level. The sheet only places its
boxes (``add_box``) with the keys of :mod:`shipsheet.rules.triplanetary.boxes`, which
answers what each box is, what a click does or why not, and its menu.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetrics, QFontMetricsF, QPainter, QPen

from ..model.ship import Ship
from ..rules import triplanetary as tp
from ..rules.triplanetary.boxes import (CARGO_KEY, COUNTER_KEY, COUNTER_STEPS, DAMAGE_ROLL_KEY,
                                        DESTROYING, E_BOX_KEY, FUEL_KEY, LADDER_TOP,
                                        OUT_OF_PLAY_KEY, STANDARD_NOTE_KEY,
                                        advanced_tracks_drawn, cargo_counted, cargo_mark_key,
                                        cargo_steps, choice_drawn, choice_key, combat_system,
                                        fuel_box_key, fuel_counted, fuel_store_words,
                                        ladder_key, out_of_play_words, standard_track_drawn,
                                        step_key, thresholds)
from ..rules.triplanetary.recovery import DEFAULT, ONLY, OWNER
from ..rules.triplanetary.state import track_title
from .base import PAPER, SheetLayout, SheetPainter, Theme

LOG_ROWS = 12  # rows of the ship's log (the latest changes, then ruled lines for notes)

ALIGN_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
ALIGN_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
ALIGN_CENTER = Qt.AlignmentFlag.AlignCenter
ALIGN_TOP_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop


def capability_words(ship: Ship) -> list[tuple[str, str, bool]]:
    """(what, word, lost) for the sheet's status row: Fire, Ordnance, Mines, Maneuver, ..."""
    spec = ship.ship_class.spec
    st = tp.status(ship)
    rows: list[tuple[str, str, bool]] = []

    def yes_no(ok: bool) -> str:
        return "Yes" if ok else "No"

    if spec.defensive_only:
        rows.append(("Fire", "Never (D)", False))
    else:
        rows.append(("Fire", yes_no(st.can_fire), not st.can_fire))
    if spec.mine_layer:
        rows.append(("Mines", yes_no(st.can_launch_mines), not st.can_launch_mines))
    elif spec.defensive_only:
        rows.append(("Ordnance", "Never (D)", False))
    else:
        rows.append(("Ordnance", yes_no(st.can_drop_ordnance), not st.can_drop_ordnance))
    if spec.fixed:
        rows.append(("Maneuver", "Never (fixed)", False))
    else:
        rows.append(("Maneuver", yes_no(st.can_maneuver), not st.can_maneuver))
    rows.append(("Lootable", "Yes: disabled" if st.disabled else "No", st.disabled))
    if tp.out_of_play(ship):
        recovery = "—"
    elif tp.recovered_this_turn(ship):
        recovery = "Used this turn"
    elif tp.recoverable_tracks(ship):
        recovery = "1 D at turn's end"
    else:
        recovery = "Nothing to recover"
    rows.append(("Recovery", recovery, False))
    return rows


def planned_words(ship: Ship, session) -> str:
    """What the ship recovers when the turn ends, and why, in words (the rules decide)."""
    planned = tp.planned_recovery(ship, standard=combat_system(session) == tp.STANDARD)
    if planned is None:
        return ("nothing: it recovered 1 D this turn" if tp.recovered_this_turn(ship)
                else "nothing to recover")
    track, how = planned
    level = tp.track_level(ship, track)
    why = {OWNER: "the owner's choice", ONLY: "the only track it can recover",
           DEFAULT: "no choice made: the default, house rule TRI-H13"}.get(how, how)
    return f"{track_title(track).lower()} D{level} → D{level - 1} ({why})"


class TriplanetarySheet(SheetPainter):
    """A Triplanetary ship's sheet."""

    box = 18.0
    label_w = 92.0  # the column of track and tracker names
    pitch = 46.0  # ladder column pitch
    ladder_pad = 8.0  # a ladder box's hit area, beyond the box on either side
    choice_box = 12.0  # a recovery choice's box

    def __init__(self, ship, session=None, *, layout: SheetLayout = PAPER):
        super().__init__(ship, session, layout=layout)
        if self.phone:  # one column: names over their ladders and trackers, D0…D6 across it
            self.label_w = 0.0
            self.pitch = (self.width - 2 * self.margin - self.box) / LADDER_TOP
            self.ladder_pad = (self.pitch - self.box) / 2
            self.choice_box = 16.0
        #: Threshold captions drawn, per track (for tests; tooltips ask ``boxes.thresholds``).
        self.drawn_thresholds: dict[str, list[tuple[int, str]]] = {}
        #: The D-level circled on each ladder.
        self.circled: dict[str, int] = {}

    # -- the whole sheet --------------------------------------------------------------------
    def draw(self, painter: QPainter, theme: Theme) -> float:
        self.drawn_thresholds = {}
        self.circled = {}
        y = self.draw_title(painter, theme)
        y = self._draw_counter(painter, theme, y + 2)
        system = combat_system(self.session)
        if system == tp.STANDARD:
            y = self.section(painter, theme, y + 8, "Damage — standard combat (session option)")
            y = self._draw_ladder(painter, theme, y, tp.STANDARD_TRACK)
            if advanced_tracks_drawn(self.ship, self.session):
                y = self.section(painter, theme, y + 2,
                                 "Advanced Combat System tracks (kept from before the switch)")
                for track in tp.TRACKS:
                    y = self._draw_ladder(painter, theme, y, track)
        else:
            y = self.section(painter, theme, y + 8, "Damage tracks — Advanced Combat System")
            for track in tp.TRACKS:
                y = self._draw_ladder(painter, theme, y, track)
            if standard_track_drawn(self.ship, self.session):
                y = self.section(painter, theme, y + 2,
                                 "Standard combat track (kept from before the switch)")
                y = self._draw_ladder(painter, theme, y, tp.STANDARD_TRACK)
        y = self._draw_status(painter, theme, y + 4)
        y = self.section(painter, theme, y + 10, "Fuel and cargo")
        y = self._draw_fuel(painter, theme, y + 2)
        y = self._draw_cargo(painter, theme, y + 10)
        return self._draw_log(painter, theme, y + 8)

    # -- counter and ship facts ---------------------------------------------------------------
    def _draw_counter(self, painter: QPainter, theme: Theme, y: float) -> float:
        """The counter (strength as printed, "8" or "1D"), the type's facts, the damage roll."""
        m = self.margin
        ship = self.ship
        spec = ship.ship_class.spec
        size = 66.0
        counter = QRectF(m, y, size, size)
        painter.setPen(QPen(theme.ink, 1.6))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(counter, 5, 5)
        painter.setPen(QPen(theme.ink, 0.6))
        painter.drawRoundedRect(counter.adjusted(3, 3, -3, -3), 3, 3)
        self.text(painter, QRectF(m, y + 6, size, 40), spec.strength_label, size=24, bold=True,
                  color=theme.ink, align=ALIGN_CENTER)
        self.text(painter, QRectF(m + 4, y + size - 22, size - 8, 14),
                  ship.ship_class.name.upper(), size=6.5, bold=True, color=theme.muted,
                  align=ALIGN_CENTER)
        self.add_box(counter, COUNTER_KEY)

        # Facts beside the counter (on a phone: under it, the damage roll beside it).
        x = m + size + 16
        w = 292.0
        rows = []
        if spec.defensive_only:
            rows.append(("Combat", f"{spec.strength_label} — defensive only, never attacks"))
        else:
            rows.append(("Combat", f"{spec.combat} — attacks and defends"))
        role = []
        if spec.fixed:
            role.append("fixed: never maneuvers")
        elif spec.commercial:
            role.append("commercial")
        else:
            role.append("warship")
        if spec.dreadnaught:
            role.append("fires through weapons D3")
        if spec.mine_layer:
            role.append("weapon hits only stop its mines")
        kind = ", ".join(role)
        rows.append(("Type", kind[:1].upper() + kind[1:]))
        system = combat_system(self.session)
        rows.append(("Combat rules", "Standard table (session option)" if system == tp.STANDARD
                     else "Advanced Combat System"))
        rows.append(("Recovery", "1 D a turn, owner's choice; a base restores all"))
        if self.phone:
            tx = m + size + 10
            tw = self.width - m - tx
            if system == tp.STANDARD:
                yy = self._draw_standard_note(painter, theme, y, tx, tw, size)
            else:
                yy = self._draw_damage_roll(painter, theme, y, tx, tw, size)
            yy += 4
            for label, value in rows:
                self.text(painter, QRectF(m, yy, 70, 15), label, size=8, color=theme.muted)
                bottom = self.wrapped(painter, m + 66, yy + 2, self.width - 2 * m - 66, value,
                                      size=8.5, color=theme.ink)
                yy = max(yy + 16, bottom + 3)
            return yy + 4
        yy = y + 2
        for label, value in rows:
            self.text(painter, QRectF(x, yy, 70, 15), label, size=8, color=theme.muted)
            self.text(painter, QRectF(x + 66, yy, w - 66, 15), value, size=8.5, color=theme.ink)
            yy += 16

        # The damage roll, printed on the sheet as on a paper log.
        tx = x + w + 8
        tw = self.width - m - tx
        if system == tp.STANDARD:
            return self._draw_standard_note(painter, theme, y, tx, tw, size)
        return self._draw_damage_roll(painter, theme, y, tx, tw, size)

    def _draw_damage_roll(self, painter: QPainter, theme: Theme, y: float, tx: float, tw: float,
                          size: float) -> float:
        """The damage roll, printed on the sheet as on a paper log."""
        self.text(painter, QRectF(tx, y, tw, 12), "DAMAGE ROLL (1 d6 per hit)", size=7,
                  bold=True, color=theme.muted)
        ty = y + 13
        for roll in range(1, 7):
            self.text(painter, QRectF(tx, ty, 10, 11), str(roll), size=7.5, bold=True,
                      color=theme.ink, align=ALIGN_RIGHT)
            self.text(painter, QRectF(tx + 15, ty, tw - 15, 11),
                      tp.damage_for_roll(roll).describe(), size=7.5, color=theme.ink)
            ty += 11
        table = QRectF(tx - 4, y - 2, tw + 4, ty - y + 4)
        self.add_box(table, DAMAGE_ROLL_KEY)
        return max(y + size, ty) + 4

    def _draw_standard_note(self, painter: QPainter, theme: Theme, y: float, tx: float,
                            tw: float, size: float) -> float:
        """Under standard combat: how its results mark the single track [2018]."""
        self.text(painter, QRectF(tx, y, tw, 12), "STANDARD COMBAT", size=7, bold=True,
                  color=theme.muted)
        painter.setFont(self.font(7.5))
        painter.setPen(theme.ink)
        rect = QRectF(tx, y + 13, tw, size - 13)
        flags = int(ALIGN_TOP_LEFT) | int(Qt.TextFlag.TextWordWrap)
        note = ("Results D1–D5 add up on one disabled track; D6 or more, or E, "
                "destroys the ship. A disabled ship cannot maneuver, launch ordnance "
                "or attack.")
        if self.phone:  # a narrower column: as tall as the words need
            needed = QFontMetricsF(self.font(7.5), painter.device()).boundingRect(
                rect, flags, note).height()
            rect.setHeight(max(rect.height(), needed))
        painter.drawText(rect, flags, note)
        self.add_box(rect, STANDARD_NOTE_KEY)
        return max(y + size, rect.bottom()) + 4

    # -- D-track ladders ------------------------------------------------------------------------
    def _ladder_x(self, level: int) -> float:
        return self.margin + self.label_w + level * self.pitch

    def _draw_ladder(self, painter: QPainter, theme: Theme, y: float, track: str) -> float:
        """One track as a ladder D0…D6: slashes up to the level, the level circled,
        thresholds drawn as heavy rules with their words underneath."""
        ship = self.ship
        title = track_title(track)
        level = tp.track_level(ship, track)
        destroyed = tp.is_destroyed(ship)
        b = self.box
        label_h = 11.0
        if self.phone:  # the track's name on a line over its ladder
            self.text(painter, QRectF(self.margin, y, self.width - 2 * self.margin, 13),
                      title.upper(), size=9, bold=True, color=theme.ink)
            if level > LADDER_TOP:
                self.text(painter, QRectF(self.margin, y, self.width - 2 * self.margin, 13),
                          f"now D{level}", size=8, bold=True, color=theme.ink, align=ALIGN_RIGHT)
            y += 15
        box_y = y + label_h
        if not self.phone:
            self.text(painter, QRectF(self.margin, box_y - 1, self.label_w - 8, b + 2),
                      title.upper(), size=9, bold=True, color=theme.ink)
        marks = thresholds(ship, track)
        self.drawn_thresholds[track] = marks
        for step in range(LADDER_TOP + 1):
            x = self._ladder_x(step)
            rect = QRectF(x, box_y, b, b)
            label = f"D{step}" + ("+" if step == LADDER_TOP else "")
            self.text(painter, QRectF(x - 10, y - 1.5, b + 20, label_h), label, size=7.5,
                      bold=step == min(level, LADDER_TOP), color=theme.muted, align=ALIGN_CENTER)
            before = int(self.turn_start.get(track, 0) or 0)
            mark = self.pen_mark(0 < step <= level, step <= before)
            if destroyed and step == LADDER_TOP and level >= LADDER_TOP and track in DESTROYING:
                mark = "x"  # the track that destroyed the ship
            self.draw_box(painter, theme, rect, mark=mark)
            self.add_box(rect.adjusted(-self.ladder_pad, -label_h, self.ladder_pad, 2),
                         ladder_key(track, step))
        circled = min(level, LADDER_TOP)
        self.circled[track] = level
        self.draw_circle(painter, theme, QRectF(self._ladder_x(circled), box_y, b, b))
        if level > LADDER_TOP and not self.phone:
            self.text(painter, QRectF(self._ladder_x(LADDER_TOP) + b + 6, box_y, 60, b),
                      f"now D{level}", size=8, bold=True, color=theme.ink)
        if self.phone:
            return self._phone_thresholds(painter, theme, box_y, track, level, marks)
        if track == tp.STANDARD_TRACK:
            self._draw_e_box(painter, theme, box_y)
        # Thresholds: a heavy rule before the level, its words under the ladder.
        caption_y = box_y + b + 3
        levels = [lv for lv, _ in marks]
        lines = 1
        for i, (lv, words) in enumerate(marks):
            x = self._ladder_x(lv) - (self.pitch - b) / 2
            painter.setPen(QPen(theme.ink, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
            painter.drawLine(QPointF(x, box_y - 3), QPointF(x, caption_y + 9))
            end = (self._ladder_x(levels[i + 1]) - (self.pitch - b) / 2 - 4
                   if i + 1 < len(levels) else self.width - self.margin)
            painter.setFont(self.font(7.5))
            painter.setPen(theme.ink if lv <= level else theme.muted)
            rect = QRectF(x + 3, caption_y, end - x - 3, 22)
            flags = int(ALIGN_TOP_LEFT) | int(Qt.TextFlag.TextWordWrap)
            caption = f"D{lv}+ {words}"
            painter.drawText(rect, flags, caption)
            # Room for a caption that wraps to a second line (measured on the device, as the
            # layout step's pen has no text layout of its own).
            font, device = self.font(7.5), painter.device()
            needed = QFontMetricsF(font, device).boundingRect(rect, flags, caption).height()
            lines = max(lines, 2 if needed > 1.5 * QFontMetrics(font, device).height() else 1)
        return caption_y + (24 if lines > 1 else 14)

    def _phone_thresholds(self, painter: QPainter, theme: Theme, box_y: float, track: str,
                          level: int, marks: list[tuple[int, str]]) -> float:
        """A phone's thresholds: the heavy rules on the ladder, their words on lines under
        it (the column has no room between the rules); then the E box of standard combat."""
        b = self.box
        m = self.margin
        y = box_y + b + 4
        for lv, words in marks:
            x = self._ladder_x(lv) - (self.pitch - b) / 2
            painter.setPen(QPen(theme.ink, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
            painter.drawLine(QPointF(x, box_y - 3), QPointF(x, box_y + b + 3))
            y = self.wrapped(painter, m, y, self.width - 2 * m, f"D{lv}+ {words}", size=7.5,
                             color=theme.ink if lv <= level else theme.muted)
        if track == tp.STANDARD_TRACK:
            y = self._draw_e_box(painter, theme, y + 14)
        return y + 8

    def _draw_e_box(self, painter: QPainter, theme: Theme, box_y: float) -> float:
        """Standard combat's E (eliminated) box, beside the disabled ladder (on a phone, under
        it). Returns the y under the box."""
        ship = self.ship
        x = self._ladder_x(LADDER_TOP) + self.pitch
        if self.phone:
            x = self._ladder_x(0)
            self.text(painter, QRectF(x + self.box + 8, box_y, 150, self.box),
                      "eliminated (standard combat)", size=7.5, color=theme.muted)
        rect = QRectF(x, box_y, self.box, self.box)
        self.text(painter, QRectF(x - 10, box_y - 11, self.box + 20, 11), "E", size=7,
                  color=theme.muted, align=ALIGN_CENTER)
        eliminated = bool(ship.state.get("eliminated"))
        self.draw_box(painter, theme, rect, mark="x" if eliminated else "")
        self.add_box(rect.adjusted(-6, -11, 6, 2), E_BOX_KEY)
        return rect.bottom() + 2

    # -- status in words -----------------------------------------------------------------------
    def _draw_status(self, painter: QPainter, theme: Theme, y: float) -> float:
        """The status row: what the ship can do now, in words."""
        m = self.margin
        st = tp.status(self.ship)
        y = self.section(painter, theme, y, "Status now")
        if st.destroyed or st.lost:
            word, why = out_of_play_words(st)
            self.text(painter, QRectF(m, y, self.width - 2 * m, 22), word, size=15,
                      bold=True, color=theme.ink)
            if self.phone:  # the reason under the word
                bottom = self.wrapped(painter, m, y + 22, self.width - 2 * m, why, size=8.5,
                                      color=theme.muted)
                rect = QRectF(m, y, self.width - 2 * m, max(self.touch, bottom - y))
                self.add_box(rect, OUT_OF_PLAY_KEY)
                return self._draw_notes(painter, theme, rect.bottom() + 4, [])
            self.text(painter, QRectF(m + 120, y, self.width - 2 * m - 120, 22), why, size=8.5,
                      color=theme.muted)
            self.add_box(QRectF(m, y, self.width - 2 * m, 22), OUT_OF_PLAY_KEY)
            return self._draw_notes(painter, theme, y + 26, [])
        cells = capability_words(self.ship)
        per_row = 2 if self.phone else len(cells)
        rows = (len(cells) + per_row - 1) // per_row
        w = (self.width - 2 * m) / per_row
        top = y
        for i, (what, word, lost) in enumerate(cells):
            row, col = divmod(i, per_row)
            x = m + col * w
            y = top + row * 32
            self.text(painter, QRectF(x, y, w - 6, 11), what.upper(), size=7, bold=True,
                      color=theme.muted)
            self.text(painter, QRectF(x, y + 11, w - 6, 16), word, size=10, bold=lost,
                      color=theme.ink)
            if lost:  # underline what the ship lost: a pen mark, not only a colour
                painter.setPen(QPen(theme.mark, 1.4))
                painter.drawLine(QPointF(x, y + 27), QPointF(x + min(w - 10, 8 + 6.2 * len(word)), y + 27))
        notes = []
        if st.lost_at_map_edge:
            notes.append("Drive D6 or worse: the ship is lost when it reaches the map edge.")
        if not st.weapons_repairable:
            notes.append("Weapons D6 or worse: repaired only by maintenance at a base; "
                         "it still defends normally.")
        yy = self._draw_recovery_choice(painter, theme, top + 32 * rows + 2)
        return self._draw_notes(painter, theme, yy, notes)

    def _draw_notes(self, painter: QPainter, theme: Theme, y: float, notes: list[str]) -> float:
        """Bold notes, then what this turn and the past hold: captured, fired, ordnance."""
        m = self.margin
        ship = self.ship
        captured = ship.state.get("captured_from")
        if captured is not None:
            notes.append(f"Captured: now {ship.side or 'no side'}'s" + (f", was {captured}'s."
                                                                        if captured else "."))
        this_turn = []
        if ship.state.get("fired"):
            this_turn.append("fired guns in this Combat phase")
        launches = int(ship.state.get("launches", 0) or 0)
        if launches:
            this_turn.append(f"launched {launches} ordnance")
        if this_turn:
            notes.append("This turn: " + ", ".join(this_turn) + ".")
        flight = tp.in_flight(ship)
        if flight:
            notes.append("Ordnance in flight: " + ", ".join(
                f"{e['kind']} {e['n']} (turn {e['turn']})" for e in flight[:8])
                + (f" and {len(flight) - 8} more" if len(flight) > 8 else "") + ".")
        w = self.width - 2 * m
        for note in notes:
            if self.phone:
                y = self.wrapped(painter, m, y, w, note, size=8, bold=True, color=theme.ink) + 3
                continue
            if self.advance(painter, note, 8, True) > w:  # a long one (ordnance) wraps
                y = self.wrapped(painter, m, y + 2, w, note, size=8, bold=True,
                                 color=theme.ink) + 4
                continue
            self.text(painter, QRectF(m, y, w, 13), note, size=8, bold=True, color=theme.ink)
            y += 14
        return y

    def _draw_recovery_choice(self, painter: QPainter, theme: Theme, y: float) -> float:
        """The owner's recovery choice as boxes to tick: the track circled is the one the ship
        recovers when the turn ends; a click chooses (one undo step)."""
        ship = self.ship
        m = self.margin
        if not choice_drawn(ship, self.session):
            return y
        self.text(painter, QRectF(m, y, self.label_w + 40, 14), "RECOVERY AT TURN'S END",
                  size=7, bold=True, color=theme.muted)
        blank = self.session is None  # a blank sheet: boxes to tick, nothing ticked
        planned = None if blank else tp.planned_recovery(ship)
        chosen = tp.recovery_choice(ship)
        x = m + self.label_w + 46
        b = self.choice_box
        options = [(track, track_title(track)) for track in tp.TRACKS] + [(None, "Default")]
        if self.phone:
            return self._phone_recovery_choice(painter, theme, y, options, blank, planned, chosen)
        for track, label in options:
            rect = QRectF(x, y + 1, b, b)
            picked = (chosen[:1] == (track,)) if track else (not chosen and not blank)
            self.draw_box(painter, theme, rect, mark="x" if picked else "")
            if track is not None and planned is not None and planned[0] == track:
                self.draw_circle(painter, theme, rect)
            tw = self.advance(painter, label, 8)
            self.text(painter, QRectF(x + b + 4, y, tw + 4, 14), label, size=8, color=theme.ink)
            self.add_box(QRectF(x - 2, y - 1, b + tw + 10, b + 4), choice_key(track))
            x += b + tw + 22
        if not blank:
            self.text(painter, QRectF(m + self.label_w + 46, y + 16, self.width - 2 * m, 14),
                      "When the turn ends: " + planned_words(ship, self.session), size=8,
                      color=theme.ink)
        return y + 34

    def _phone_recovery_choice(self, painter: QPainter, theme: Theme, y: float, options, blank: bool,
                               planned, chosen) -> float:
        """The recovery choice on a phone: two choices to a row, each tapped over its cell."""
        m = self.margin
        w = self.width - 2 * m
        b = self.choice_box
        cell_w, cell_h = w / 2, self.touch
        top = y + 14
        for i, (track, label) in enumerate(options):
            row, col = divmod(i, 2)
            x, cy = m + col * cell_w, top + row * cell_h
            rect = QRectF(x + 4, cy + (cell_h - b) / 2, b, b)
            picked = (chosen[:1] == (track,)) if track else (not chosen and not blank)
            self.draw_box(painter, theme, rect, mark="x" if picked else "")
            if track is not None and planned is not None and planned[0] == track:
                self.draw_circle(painter, theme, rect)
            self.text(painter, QRectF(rect.right() + 6, cy, cell_w - b - 12, cell_h), label,
                      size=8.5, color=theme.ink)
            self.add_box(QRectF(x, cy, cell_w, cell_h), choice_key(track))
        y = top + cell_h * ((len(options) + 1) // 2) + 2
        if not blank:
            y = self.wrapped(painter, m, y, w, "When the turn ends: " + planned_words(self.ship, self.session),
                             size=8, color=theme.ink)
        return y + 8

    # -- the ship's log ------------------------------------------------------------------------
    def log_rows(self) -> list[tuple[str, str, str]]:
        """(turn, what, details) for each change of this ship in the session, oldest first."""
        session = self.session
        if session is None:
            return []
        sid = self.ship.id
        changes: dict[int, list] = {}
        for entry in session.log:
            if not entry.undone:
                changes.setdefault(entry.action, []).append(entry)
        rows = []
        for entries in changes.values():
            mine = [e for e in entries if e.ship == sid and e.kind == "detail"]
            head = next((e for e in entries if e.kind == "action"), None)
            if head is None or not (mine or head.ship == sid):
                continue
            rows.append((f"T{head.turn}", head.text, "; ".join(e.text for e in mine)))
        return rows

    def _draw_log(self, painter: QPainter, theme: Theme, y: float) -> float:
        """The ship's log, as on a paper log: the latest changes, then ruled lines for notes."""
        m = self.margin
        w = self.width - 2 * m
        rows = self.log_rows()
        shown = rows[-LOG_ROWS:]
        title = "Ship's log" + (f" (latest {len(shown)} of {len(rows)})" if len(rows) > len(shown) else "")
        y = self.section(painter, theme, y, title)
        row_h = 14.0
        for i in range(LOG_ROWS):
            top = y + i * row_h
            if i < len(shown):
                turn, what, details = shown[i]
                self.text(painter, QRectF(m, top, 26, row_h), turn, size=7.5, color=theme.muted)
                what_w = min(self.advance(painter, what, 7.5, True) + 4, w / 2 if self.phone else 200)
                self._elided(painter, QRectF(m + 28, top, what_w, row_h), what, 7.5, True, theme.ink)
                self._elided(painter, QRectF(m + 32 + what_w, top, w - 32 - what_w, row_h),
                             details, 7.5, False, theme.ink)
            painter.setPen(QPen(theme.faint if i < len(shown) else theme.muted, 0.5))
            painter.drawLine(QPointF(m, top + row_h), QPointF(m + w, top + row_h))
        return y + LOG_ROWS * row_h + 4

    def _elided(self, painter: QPainter, rect: QRectF, text: str, size: float, bold: bool,
                color) -> None:
        font = self.font(size, bold)
        painter.setFont(font)
        # Measured on the device (the layout step's pen has no metrics of its own).
        text = QFontMetrics(font, painter.device()).elidedText(text, Qt.TextElideMode.ElideRight,
                                                               int(rect.width()))
        painter.setPen(color)
        painter.drawText(rect, int(ALIGN_LEFT), text)

    # -- fuel and cargo ------------------------------------------------------------------------
    def _tracker_label(self, painter: QPainter, theme: Theme, y: float, title: str,
                       value: str) -> float:
        """A tracker's name and value in the label column; returns the y its boxes start at
        (on a phone, the line under the name and value)."""
        m = self.margin
        if self.phone:
            self.text(painter, QRectF(m, y, self.width - 2 * m, 14), title.upper(), size=9,
                      bold=True, color=theme.ink)
            x = m + self.advance(painter, title.upper(), 9, True) + 10
            self.text(painter, QRectF(x, y, self.width - m - x, 14), value, size=8,
                      color=theme.muted)
            return y + 18
        self.text(painter, QRectF(m, y, self.label_w - 8, self.box), title.upper(), size=9,
                  bold=True, color=theme.ink)
        self.text(painter, QRectF(m, y + self.box, self.label_w - 8, 13), value, size=8,
                  color=theme.muted)
        return y

    def _draw_fuel(self, painter: QPainter, theme: Theme, y: float) -> float:
        """Fuel boxes, crossed off from the left as fuel is burnt; or the word "unlimited"."""
        ship = self.ship
        spec = ship.ship_class.spec
        fuel = ship.state.get("fuel")
        x0 = self.margin + self.label_w
        b = self.box
        if spec.fuel is None:
            y = self._tracker_label(painter, theme, y, "Fuel", "")
            rect = QRectF(x0, y, 120, b)
            self.draw_box(painter, theme, rect, dashed=True)
            self.text(painter, rect, "Unlimited", size=8.5, bold=True, color=theme.ink,
                      align=ALIGN_CENTER)
            self.add_box(rect, FUEL_KEY)
            return y + b + 6
        if spec.fuel == 0:
            y = self._tracker_label(painter, theme, y, "Fuel", "")
            store = fuel_store_words(spec)
            rect = QRectF(x0, y, min(330.0, self.width - self.margin - x0), b)
            self.text(painter, rect, f"None of its own; {store} for other ships", size=8.5,
                      color=theme.ink)
            self.add_box(rect, FUEL_KEY)
            return y + b + 6
        y = self._tracker_label(painter, theme, y, "Fuel", f"{fuel} of {spec.fuel} left")
        if fuel_counted(spec):
            return self._counter(painter, theme, y, FUEL_KEY, fuel, "")
        spent = spec.fuel - fuel
        per_row, step, group = 20, b + 2, 6  # groups of five, the fifth numbered
        if self.phone:  # boxes a touch apart, as many to a row as fit
            step, group = self.touch, 0
            per_row = int((self.width - self.margin - x0 - b) // step) + 1
        for i in range(1, spec.fuel + 1):
            row, col = divmod(i - 1, per_row)
            x = x0 + col * step + (col // 5) * group
            rect = QRectF(x, y + row * (b + 10), b, b)
            self.draw_box(painter, theme, rect, mark="slash" if i <= spent else "")
            if i % 5 == 0:
                self.text(painter, QRectF(x - 4, rect.bottom() + 0.5, b + 8, 8), str(i),
                          size=7.5 if self.phone else 6, color=theme.muted, align=ALIGN_CENTER)
            self.add_box(rect, fuel_box_key(i))
        rows = (spec.fuel + per_row - 1) // per_row
        return y + rows * (b + 10)

    def _draw_cargo(self, painter: QPainter, theme: Theme, y: float) -> float:
        """The cargo scale (every 5 t, the load circled) or a counter for a big hold."""
        ship = self.ship
        spec = ship.ship_class.spec
        cargo = int(ship.state.get("cargo", 0) or 0)
        cap = spec.cargo
        b = self.box
        x0 = self.margin + self.label_w
        cap_words = ", unlimited hold" if cap is None else f" of {cap} t"
        y = self._tracker_label(painter, theme, y, "Cargo", f"{cargo} t{cap_words}" if cap != 0 else "")
        if cap == 0:
            self.text(painter, QRectF(x0, y, 300, b), "No hold", size=8.5, color=theme.ink)
            self.add_box(QRectF(x0, y, 80, b), CARGO_KEY)
            return y + b + 12
        if cargo_counted(spec):
            return self._counter(painter, theme, y, CARGO_KEY, cargo, " t")
        steps = cargo_steps(cap)
        w = b + 6
        per_row = len(steps)  # one row on the paper; as many as fit on a phone
        if self.phone:
            per_row = int((self.width - self.margin - x0 - w) // (w + 2)) + 1
        rows = (len(steps) + per_row - 1) // per_row
        for i, tons in enumerate(steps):
            row, col = divmod(i, per_row)
            x = x0 + col * (w + 2)
            top = y + row * (b + 14)
            rect = QRectF(x, top, w, b)
            self.draw_box(painter, theme, rect)
            self.text(painter, rect, str(tons), size=7.5, color=theme.ink, align=ALIGN_CENTER)
            if tons == cargo:
                self.draw_circle(painter, theme, rect)
            self.add_box(rect, cargo_mark_key(tons))
        if cargo not in steps:  # an odd load: a pen tick at its place on the scale, and the number
            below = max(i for i, t in enumerate(steps) if t < cargo)
            lo, hi = steps[below], steps[below + 1]
            row, col = divmod(below, per_row)
            x = x0 + col * (w + 2) + w / 2 + (cargo - lo) / (hi - lo) * (w + 2)
            top = y + row * (b + 14)
            painter.setPen(QPen(theme.accent, 1.8))
            painter.drawLine(QPointF(x, top - 4), QPointF(x, top + b + 4))
            self.text(painter, QRectF(x - 15, top + b + 3, 30, 9), f"{cargo} t", size=6.5,
                      bold=True, color=theme.accent, align=ALIGN_CENTER)
        return y + rows * (b + 14)

    def _counter(self, painter: QPainter, theme: Theme, y: float, key: str, value: int,
                 unit: str) -> float:
        """A written-in number with −/+ steps (fuel or cargo too big for boxes): boxes ``key``
        (``fuel``, ``cargo``) and its steps (``fuel:+1`` …)."""
        b = self.box
        x0 = self.margin + self.label_w
        rect = QRectF(x0, y, 60, b)
        self.draw_box(painter, theme, rect)
        if self.session is not None:  # a blank sheet's box is left to write in
            self.text(painter, rect, f"{value}{unit}", size=9, bold=True, color=theme.ink,
                      align=ALIGN_CENTER)
        if theme.on_paper:  # the steps are buttons: on paper, the number is written over
            return y + b + 8
        self.add_box(rect, key)
        x = rect.right() + 8
        for step in COUNTER_STEPS:
            r = QRectF(x, y, b + 8, b)
            self.draw_box(painter, theme, r)
            self.text(painter, r, f"{step:+d}".replace("-", "−"), size=6.5, color=theme.muted,
                      align=ALIGN_CENTER)
            self.add_box(r, step_key(key, step))
            x += b + 12
        return y + b + 8


SHEET = TriplanetarySheet
