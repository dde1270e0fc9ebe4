"""The referee's attack dialog (Triplanetary): attackers and targets, odds, dice, preview, Apply.

Everything the dialog shows comes from the rules' :func:`resolve_attack` /
:func:`resolve_other`, which change nothing. The dice are either typed (physical
dice) or rolled with the session dice: a "Roll" shows what the session dice
will give (a copy of the seeded dice is asked, the session's are untouched),
and Apply builds the rules' :func:`attack` / :func:`other_damage` action, which
rolls those same dice inside the action (so they are logged and undo rewinds
them). One Apply is one undo step with one log line per target.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFont, QPainter, QPen
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QGridLayout, QGroupBox, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QScrollArea, QSizePolicy, QSpinBox,
                               QVBoxLayout, QWidget)

from ....model.trial import ship_refusal as refusal, trial_ship as scratch
from ....rules import triplanetary as tp
from ....rules.triplanetary.combat import combat_system
from ....rules.triplanetary.house import house_rule
from ....rules.triplanetary.ordnance import ATTACKING_ORDNANCE
from ....rules.triplanetary.planning import AttackPlan, Die
from ....rules.triplanetary.state import track_title
from ....rules.triplanetary.tables import damage_for_roll
from ....sheets.triplanetary import LADDER_TOP
from ...document import HistoryAction, SessionDocument
from ...layouts import fit_to_screen
from ...plaintext import esc, rich
from ...sheet_view import theme_for

KINDS = (("guns", "Guns"), ("torpedo", "Torpedo"), ("mine", "Mine"), ("asteroid", "Asteroid"),
         ("ram", "Ram"))
SHIP_ROLE = Qt.ItemDataRole.UserRole


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _strength_sum(what: str, ships: list, pick: str) -> str:
    """"Attack strength: <b>6</b> (Kite 4 + Wasp 2)": the rules' sum, in words."""
    if not ships:
        return f"{what} strength: pick {pick}."
    total, parts = tp.combined_strength(ships)
    words = " + ".join(f"{esc(name)} {esc(label)}" for name, label in parts)
    return f"{what} strength: <b>{total}</b>" + (f" ({words})" if len(parts) > 1 else "")


#: Every result a damage roll can show (the damage table's words), to reserve their room.
_RESULT_WORDS = tuple(damage_for_roll(n).describe() for n in range(1, 7)) + ("no damage",)


class DieBox(QWidget):
    """One die: type its value (physical dice) or roll it with the session dice."""

    changed = Signal()

    def __init__(self, what: str, roll_text: str = "Roll", parent: QWidget | None = None):
        super().__init__(parent)
        self.what = what
        self.rolled = False
        self.spin = QSpinBox()
        self.spin.setRange(0, 6)
        self.spin.setSpecialValueText("–")
        self.spin.setAccessibleName(what)
        self.spin.setToolTip(f"{what}: type the value of a physical d6 (1–6), or use Roll")
        self.spin.valueChanged.connect(self._typed)
        self.roll_button = QPushButton(roll_text)
        self.roll_button.setToolTip(f"Roll {what.lower()} with the session dice (seeded and logged)")
        self.roll_button.clicked.connect(self.roll)
        # The labels whose words change as dice are typed keep the room of their longest
        # words from the start (font metrics): nothing beside or around them moves under the
        # pointer (a click meant for the next roll's field once hit its Roll button).
        metrics = self.fontMetrics()
        self.source = QLabel()
        self.source.setFixedWidth(max(70, *(metrics.horizontalAdvance(w) + 8
                                            for w in ("typed", "rolled"))))
        self.result = QLabel()
        self.result.setMinimumWidth(max(metrics.horizontalAdvance(f"→ {w}") + 8
                                        for w in _RESULT_WORDS))
        self.result.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.spin)
        layout.addWidget(self.roll_button)
        layout.addWidget(self.source)
        layout.addWidget(self.result, 1)

    @property
    def typed(self) -> int | None:
        """The typed value, or None (rolled, or not known yet)."""
        return None if self.rolled or self.spin.value() == 0 else self.spin.value()

    @property
    def known(self) -> bool:
        return self.rolled or self.spin.value() > 0

    def _typed(self, value: int) -> None:
        self.rolled = False
        self.source.setText("typed" if value else "")
        self.changed.emit()

    def roll(self) -> None:
        self.rolled = True
        self.changed.emit()

    def show_rolled(self, value: int | None) -> None:
        """Show what the session dice give for this die."""
        if not self.rolled:
            return
        self.spin.blockSignals(True)
        self.spin.setValue(value or 0)
        self.spin.blockSignals(False)
        self.source.setText("rolled")

    def die(self) -> Die:
        """This die as the plan has it: typed, to roll, or not yet."""
        return Die(self.typed, self.rolled)

    def reset(self) -> None:
        self.rolled = False
        self.spin.blockSignals(True)
        self.spin.setValue(0)
        self.spin.blockSignals(False)
        self.source.setText("")
        self.result.setText("")


class TrackPreview(QWidget):
    """One target's tracks before and after the attack, drawn like the sheet's ladders."""

    ROW = 17.0
    BOX = 11.0
    PITCH = 19.0

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.name = ""
        self.tracks: tuple[str, ...] = tp.TRACKS
        self.before: dict[str, int] = {}
        self.after: dict[str, int] = {}
        self.words = ""
        self.destroyed = False
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_preview(self, name: str, tracks: tuple[str, ...], before: dict[str, int],
                    after: dict[str, int], words: str, destroyed: bool) -> None:
        self.name, self.tracks, self.before, self.after = name, tracks, before, after
        self.words, self.destroyed = words, destroyed
        changes = [f"{track_title(t)} D{before[t]} → D{after[t]}" if after[t] != before[t]
                   else f"{track_title(t)} D{before[t]}" for t in tracks]
        self.setAccessibleName(f"{name}: " + ", ".join(changes) + f". {words}")
        self.setToolTip(self.accessibleName())
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, int(20 + self.ROW * len(self.tracks) + 18))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event) -> None:
        theme = theme_for(self)
        ink = self.palette().color(self.foregroundRole())
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont(self.font())
        bold = QFont(font)
        bold.setBold(True)
        p.setFont(bold)
        p.setPen(ink)
        p.drawText(QRectF(0, 0, self.width(), 18), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                   self.name + ("  —  DESTROYED" if self.destroyed else ""))
        small = QFont(font)
        small.setPointSizeF(font.pointSizeF() * 0.85)
        y = 20.0
        x0 = 78.0
        for track in self.tracks:
            before, after = self.before.get(track, 0), self.after.get(track, 0)
            p.setFont(small)
            p.setPen(ink)
            p.drawText(QRectF(0, y, x0 - 6, self.ROW), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                       track_title(track))
            for step in range(LADDER_TOP + 1):
                r = QRectF(x0 + step * self.PITCH, y + (self.ROW - self.BOX) / 2, self.BOX, self.BOX)
                p.setPen(QPen(ink, 1.0))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(r)
                inset = r.adjusted(2, 2, -2, -2)
                if 0 < step <= min(before, LADDER_TOP):  # damage already marked
                    p.setPen(QPen(ink, 1.3))
                    p.drawLine(inset.bottomLeft(), inset.topRight())
                elif before < step <= after or (step == LADDER_TOP and after > LADDER_TOP > before):
                    p.setPen(QPen(theme.mark, 2.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
                    p.drawLine(inset.bottomLeft(), inset.topRight())
                    p.drawLine(inset.topLeft(), inset.bottomRight())  # new damage: a bold X
            circled = min(after, LADDER_TOP)
            r = QRectF(x0 + circled * self.PITCH, y + (self.ROW - self.BOX) / 2, self.BOX, self.BOX)
            p.setPen(QPen(theme.accent, 1.5))
            p.drawEllipse(r.adjusted(-2.5, -2.5, 2.5, 2.5))
            text = f"D{before} → D{after}" if after != before else f"D{before}"
            p.setFont(bold if after != before else small)
            p.setPen(ink)
            p.drawText(QRectF(x0 + (LADDER_TOP + 1) * self.PITCH + 4, y, 120, self.ROW),
                       int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
            y += self.ROW
        p.setFont(small)
        p.drawText(QRectF(0, y + 1, self.width(), 16), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                   self.words)
        p.end()


class AttackDialog(QDialog):
    """Resolve one attack for the referee, preview it, apply it as one undo step."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None,
                 attackers: list[str] | tuple[str, ...] = (), targets: list[str] | tuple[str, ...] = ()):
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle("Attack — Triplanetary")
        self.result: tp.AttackResult | None = None
        self.problem = ""
        self.last_applied = ""

        # -- left: who, with what ------------------------------------------------------------
        self.kind = QComboBox()
        for key, label in KINDS:
            self.kind.addItem(label, key)
        self.kind.setToolTip("Guns use the odds column; torpedoes, mines, asteroids and rams "
                             "use the other damage table")
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.attackers = QListWidget()
        self.attackers.setAccessibleName("Attackers")
        self.targets = QListWidget()
        self.targets.setAccessibleName("Targets")
        for widget in (self.attackers, self.targets):
            widget.itemChanged.connect(self.recompute)
            widget.setMinimumHeight(110)
        self.attackers_label = QLabel("A&ttackers (strengths add):")
        self.attackers_label.setBuddy(self.attackers)
        targets_label = QLabel("Tar&gets (strengths add):")
        targets_label.setBuddy(self.targets)
        self.attack_sum = rich(QLabel())  # our markup; names go through esc()
        self.attack_sum.setWordWrap(True)
        self.defense_sum = rich(QLabel())  # our markup; names go through esc()
        self.defense_sum.setWordWrap(True)

        self.less = QCheckBox("Attack at &less than full strength:")
        self.less.setToolTip("A ship may attack at less than its full strength")
        self.less.toggled.connect(self.recompute)
        self.strength = QSpinBox()
        self.strength.setRange(1, 1)
        self.strength.setAccessibleName("Attack strength")
        self.strength.valueChanged.connect(self.recompute)
        self.range = QSpinBox()
        self.range.setRange(0, 99)
        self.range.setToolTip("−1 to the to-hit roll per hex of range")
        self.range.valueChanged.connect(self.recompute)
        self.velocity = QSpinBox()
        self.velocity.setRange(0, 99)
        self.velocity.setToolTip("−1 to the to-hit roll per hex of relative velocity beyond 2")
        self.velocity.valueChanged.connect(self.recompute)
        self.heroic = QCheckBox("&Heroic (+1)")
        self.heroic.setToolTip("+1 to the to-hit roll for a heroic ship")
        self.heroic.toggled.connect(self.recompute)
        self.modifier = QSpinBox()
        self.modifier.setRange(-6, 6)
        self.modifier.setToolTip("House rule: a referee's die modifier for other damage "
                                 "(below 1: no effect; above 6 counts as 6)")
        self.modifier.valueChanged.connect(self.recompute)
        self.distribute = QComboBox()
        self.distribute.addItem("Each target takes every damage roll", "each")
        self.distribute.addItem("Damage rolls dealt one per target in turn", "in-turn")
        self.distribute.setToolTip(house_rule("TRI-H3"))
        self.distribute.currentIndexChanged.connect(self.recompute)
        # The referee's rulings on when guns fire [TRI-H15, TRI-H16] (logged when used).
        self.out_of_phase = QCheckBox("Out of &phase (referee)")
        self.out_of_phase.setToolTip("Allow a gun attack outside the Combat phase; the log says "
                                     "so.\n\n" + house_rule("TRI-H15"))
        self.second_attack = QCheckBox("Second attack this phase (&referee)")
        self.second_attack.setToolTip("Allow a ship that has fired in this Combat phase to fire "
                                      "again; the log says so. A counter-attack needs no tick: "
                                      "it is the attacked ship's own attack.\n\n"
                                      + house_rule("TRI-H16"))
        for tick in (self.out_of_phase, self.second_attack):
            tick.toggled.connect(self.recompute)
        # A torpedo's or mine's launch [TRI-H19].
        self.launch = QComboBox()
        self.launch.setAccessibleName("Launch")
        self.launch.setToolTip("Which launch this is (the attack spends it), or its source ship "
                               "ticked above, checked as if it launched now, or no source (the "
                               "referee's ruling, logged).\n\n" + house_rule("TRI-H19"))
        self.launch.currentIndexChanged.connect(self._launch_changed)

        left = QVBoxLayout()
        form = QFormLayout()  # a row's text label gets the field as its buddy (mnemonics work)
        form.addRow("&Kind:", self.kind)
        left.addLayout(form)
        left.addWidget(self.attackers_label)
        left.addWidget(self.attackers)
        left.addWidget(self.attack_sum)
        left.addWidget(targets_label)
        left.addWidget(self.targets)
        left.addWidget(self.defense_sum)
        self.gun_form = QWidget()
        gf = QFormLayout(self.gun_form)
        gf.setContentsMargins(0, 0, 0, 0)
        gf.addRow(self.less, self.strength)
        gf.addRow("&Range (hexes):", self.range)
        gf.addRow("Relative &velocity (hexes):", self.velocity)
        gf.addRow(self.heroic)
        gf.addRow(self.out_of_phase)
        gf.addRow(self.second_attack)
        left.addWidget(self.gun_form)
        self.other_form = QWidget()
        of = QFormLayout(self.other_form)
        of.setContentsMargins(0, 0, 0, 0)
        self.launch_label = QLabel("&Launch:")
        self.launch_label.setBuddy(self.launch)
        of.addRow(self.launch_label, self.launch)
        of.addRow("Die &modifier (house rule):", self.modifier)
        left.addWidget(self.other_form)
        self.distribute_form = QWidget()
        df = QFormLayout(self.distribute_form)
        df.setContentsMargins(0, 0, 0, 0)
        df.addRow("&Several targets:", self.distribute)
        left.addWidget(self.distribute_form)

        # -- right: odds, dice, hits, preview --------------------------------------------------
        self.system = QLabel()
        self.system.setWordWrap(True)
        self.odds = QLabel()
        odds_font = QFont(self.font())
        odds_font.setPointSizeF(odds_font.pointSizeF() * 1.8)
        odds_font.setBold(True)
        self.odds.setFont(odds_font)
        self.odds.setAccessibleName("Odds column")
        self.odds_detail = QLabel()
        self.odds_detail.setWordWrap(True)

        dice = QGroupBox("Dice")
        dl = QVBoxLayout(dice)
        self.to_hit = DieBox("To-hit roll", "R&oll")
        self.to_hit.changed.connect(self._to_hit_changed)
        to_hit_row = QHBoxLayout()
        to_hit_label = QLabel("To-&hit roll:")
        to_hit_label.setBuddy(self.to_hit.spin)
        to_hit_label.setMinimumWidth(100)
        to_hit_row.addWidget(to_hit_label)
        to_hit_row.addWidget(self.to_hit, 1)
        dl.addLayout(to_hit_row)
        self.hits = rich(QLabel())  # our markup; names go through esc()
        self.hits.setWordWrap(True)
        self.hits.setAccessibleName("Hits")
        dl.addWidget(self.hits)
        self.damage_grid = QGridLayout()
        dl.addLayout(self.damage_grid)
        self.damage_boxes: list[DieBox] = []
        self.roll_damage = QPushButton("Roll &damage dice")
        self.roll_damage.setToolTip("Roll every damage die not typed yet, with the session dice")
        self.roll_damage.clicked.connect(self.roll_all_damage)
        dl.addWidget(self.roll_damage, 0, Qt.AlignmentFlag.AlignLeft)

        preview = QGroupBox("Preview — each target's tracks after the attack")
        self.preview_layout = QVBoxLayout(preview)
        self.preview_layout.addStretch(1)
        self.previews: list[TrackPreview] = []
        preview_scroll = QScrollArea()
        preview_scroll.setWidgetResizable(True)
        preview_scroll.setWidget(preview)
        preview_scroll.setMinimumHeight(150)

        self.problem_label = QLabel()
        self.problem_label.setWordWrap(True)
        self.problem_label.setAccessibleName("Why not")
        bold = QFont(self.font())
        bold.setBold(True)
        self.problem_label.setFont(bold)
        self.applied_label = QLabel()
        self.applied_label.setWordWrap(True)

        # Lines that wrap keep the room of two lines: the Dice group never moves under the
        # pointer while the referee types (a range once went into Relative velocity).
        two_lines = 2 * self.fontMetrics().lineSpacing() + 4
        for label in (self.system, self.odds_detail, self.hits, self.attack_sum, self.defense_sum):
            label.setMinimumHeight(two_lines)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        right = QVBoxLayout()
        right.addWidget(self.system)
        right.addWidget(self.odds)
        right.addWidget(self.odds_detail)
        right.addWidget(dice)
        right.addWidget(preview_scroll, 1)
        right.addWidget(self.problem_label)
        right.addWidget(self.applied_label)

        self.buttons = QDialogButtonBox()
        self.apply_button = self.buttons.addButton("&Apply", QDialogButtonBox.ButtonRole.ApplyRole)
        self.apply_button.setToolTip("Apply the attack to its targets: one undo step, one log "
                                     "line per target")
        self.apply_button.clicked.connect(self.apply)
        close = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.clicked.connect(self.close)
        for button in (self.apply_button, close):
            button.setAutoDefault(False)  # Enter after typing a die never applies by accident

        columns = QHBoxLayout()
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        outer = QVBoxLayout(self)
        outer.addLayout(columns, 1)
        outer.addWidget(self.buttons)
        fit_to_screen(self, 920, 680)

        # The window's Undo/Redo shortcuts, here too (the dialog has the focus): the
        # document's one Undo, which asks first about a phone's step.
        self.history_actions = (HistoryAction(doc, self, "Undo"), HistoryAction(doc, self, "Redo"))

        self._fill_lists(set(attackers), set(targets))
        doc.changed.connect(self._on_doc_changed)
        self._kind_changed()

    # -- the roster ------------------------------------------------------------------------------
    @property
    def kind_key(self) -> str:
        return self.kind.currentData()

    def _fill_lists(self, attackers: set[str], targets: set[str]) -> None:
        """One checkable row per ship, with its strength and why it cannot take part."""
        for widget, chosen, role in ((self.attackers, attackers, "attacker"),
                                     (self.targets, targets, "target")):
            widget.blockSignals(True)
            widget.clear()
            for ship in self.doc.session.ships:
                spec = ship.ship_class.spec
                text = f"{ship.name} — {ship.ship_class.name} {spec.strength_label}"
                if ship.side:
                    text += f" · {ship.side}"
                if role == "attacker":
                    why = refusal(ship, tp.check_attacker)
                else:
                    gone = tp.out_of_play(ship)
                    why = f"{ship.name} is {gone}." if gone else None
                if why:
                    text += "  (" + (tp.out_of_play(ship) or
                                     ("defensive only" if spec.defensive_only else "can't fire")) + ")"
                elif role == "attacker" and ship.state.get("fired"):
                    text += "  (fired this Combat phase)"
                item = QListWidgetItem(text)
                item.setData(SHIP_ROLE, ship.id)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
                              | Qt.ItemFlag.ItemIsSelectable)
                item.setCheckState(Qt.CheckState.Checked if ship.id in chosen
                                   else Qt.CheckState.Unchecked)
                item.setToolTip(why or (f"Combat strength {spec.strength_label}"))
                widget.addItem(item)
            widget.blockSignals(False)

    def _fill_launches(self) -> None:
        """The launches in flight of the kind picked, then "source" and "no source"."""
        keep = self.launch.currentData()
        kind = self.kind_key
        self.launch.blockSignals(True)
        self.launch.clear()
        if kind in ATTACKING_ORDNANCE:
            for ship in self.doc.session.ships:
                for entry in tp.in_flight(ship, kind):
                    self.launch.addItem(tp.describe_launch(ship, entry),
                                        ("launch", ship.id, entry["n"]))
            self.launch.addItem("The source ticked above (checked as at launch)",
                                ("source", None, None))
            self.launch.addItem("No source (the referee's ruling)", ("none", None, None))
            index = self.launch.findData(keep)
            self.launch.setCurrentIndex(max(index, 0))
        self.launch.blockSignals(False)
        self._launch_changed()

    def _launch_changed(self, *_args) -> None:
        """A launch names its source: its ship is ticked and the list waits."""
        choice = self.launch.currentData()
        ordnance = self.kind_key in ATTACKING_ORDNANCE
        self.attackers.setEnabled(not ordnance or choice is None or choice[0] == "source")
        if ordnance and choice is not None and choice[0] == "launch":
            self.attackers.blockSignals(True)
            for i in range(self.attackers.count()):
                item = self.attackers.item(i)
                item.setCheckState(Qt.CheckState.Checked if item.data(SHIP_ROLE) == choice[1]
                                   else Qt.CheckState.Unchecked)
            self.attackers.blockSignals(False)
        self.recompute()

    def _checked_ids(self, widget: QListWidget) -> list[str]:
        return [widget.item(i).data(SHIP_ROLE) for i in range(widget.count())
                if widget.item(i).checkState() == Qt.CheckState.Checked]

    def _ships(self, widget: QListWidget):
        session = self.doc.session
        return [session.ship(i) for i in self._checked_ids(widget)]

    def pick(self, attackers: list[str] | tuple[str, ...], targets: list[str] | tuple[str, ...]) -> None:
        """Tick exactly these ships (ids) as attackers and targets; the dice start afresh."""
        self.to_hit.reset()
        self._set_damage_boxes(0)
        self.applied_label.setText("")
        self._fill_lists(set(attackers), set(targets))
        self.recompute()

    def showEvent(self, event) -> None:
        self._on_doc_changed()
        super().showEvent(event)

    def _on_doc_changed(self) -> None:
        if not self.isVisible():
            return  # worked out again when shown
        known = {s.id for s in self.doc.session.ships}
        attackers = set(self._checked_ids(self.attackers)) & known
        targets = set(self._checked_ids(self.targets)) & known
        self._fill_lists(attackers, targets)
        self._fill_launches()

    # -- working it out --------------------------------------------------------------------------
    def _kind_changed(self, *_args) -> None:
        guns = self.kind_key == "guns"
        ordnance = self.kind_key in ATTACKING_ORDNANCE
        self.gun_form.setVisible(guns)
        self.other_form.setVisible(not guns)
        self.launch.setVisible(ordnance)
        self.launch_label.setVisible(ordnance)
        self.attackers_label.setText("A&ttackers (strengths add):" if guns else
                                     "Source (the ship that launched it):" if ordnance else
                                     "Sources (recorded only, op&tional):")
        self._fill_launches()

    def _to_hit_changed(self) -> None:
        self.recompute()

    def _combat(self) -> str:
        return combat_system(self.doc.session)

    def plan(self) -> AttackPlan:
        """The attack as the form has it now (the rules work it out)."""
        guns = self.kind_key == "guns"
        sources, launch, no_source = self._ships(self.attackers), None, False
        choice = self.launch.currentData() if self.kind_key in ATTACKING_ORDNANCE else None
        if choice is not None and choice[0] == "launch":
            sources, launch = [self.doc.session.ship(choice[1])], choice[2]
        elif choice is not None and choice[0] == "none":
            sources, no_source = [], True
        return AttackPlan(
            self.kind_key, sources, self._ships(self.targets),
            out_of_phase=guns and self.out_of_phase.isChecked(),
            second_attack=guns and self.second_attack.isChecked(),
            launch=launch, no_source=no_source,
            range=self.range.value() if guns else 0,
            relative_velocity=self.velocity.value() if guns else 0,
            heroic=guns and self.heroic.isChecked(),
            strength=self.strength.value() if guns and self.less.isChecked() else None,
            modifier=0 if guns else self.modifier.value(),
            distribute=self.distribute.currentData(),
            to_hit=self.to_hit.die(), damage=[box.die() for box in self.damage_boxes])

    def _set_damage_boxes(self, count: int) -> None:
        while len(self.damage_boxes) > count:
            box = self.damage_boxes.pop()
            label = self.damage_grid.itemAtPosition(len(self.damage_boxes), 0).widget()
            for widget in (label, box):
                self.damage_grid.removeWidget(widget)
                widget.setParent(None)
                widget.deleteLater()
        while len(self.damage_boxes) < count:
            n = len(self.damage_boxes) + 1
            box = DieBox(f"Damage roll {n}")
            box.changed.connect(self.recompute)
            label = QLabel(f"Damage roll &{n}:" if n < 10 else f"Damage roll {n}:")
            label.setBuddy(box.spin)
            label.setMinimumWidth(100)
            self.damage_grid.addWidget(label, n - 1, 0)
            self.damage_grid.addWidget(box, n - 1, 1)
            self.damage_boxes.append(box)

    def _strength_sums(self) -> None:
        attackers, targets = self._ships(self.attackers), self._ships(self.targets)
        guns = self.kind_key == "guns"
        full = tp.combined_strength(attackers)[0]
        self.attack_sum.setText(_strength_sum("Attack", attackers, "the attacking ships") if guns else "")
        self.defense_sum.setText(_strength_sum("Defense", targets, "the targets") if guns else "")
        self.strength.blockSignals(True)
        self.strength.setRange(1, max(1, full))
        if not self.less.isChecked():
            self.strength.setValue(max(1, full))
        self.strength.blockSignals(False)
        self.strength.setEnabled(self.less.isChecked())
        self.distribute_form.setVisible(len(targets) > 1)

    def recompute(self, *_args) -> None:
        """Work the attack out again from the choices and the dice; enable Apply when complete."""
        self.applied_label.setText("")  # the last attack's "Applied" goes as the next is set up
        self.result = None
        self.problem = ""
        self._strength_sums()
        standard = self._combat() == tp.STANDARD
        session = self.doc.session
        self.system.setText(f"Turn {session.turn} · {session.phase} phase. "
                            + ("Standard combat table (session option): one result D1–D5 or E."
                               if standard else "Advanced Combat System: to-hit roll, then one "
                               "damage roll per hit."))
        self.roll_damage.setVisible(not standard)
        self.odds.setText("—")
        self.odds_detail.setText("")
        worked = self.plan().work_out(self.doc.session)
        if worked.first is not None:
            self._show_odds(worked.first)
        if worked.rolls is None:
            self._fail(worked.problem)
            return
        self.to_hit.show_rolled(worked.first.roll)
        self._set_damage_boxes(worked.damage_dice)
        result = worked.rolls
        self.hits.setText(self._hits_text(result))
        for i, box in enumerate(self.damage_boxes):
            roll = result.damage_rolls[i]
            box.show_rolled(roll.roll)
            box.result.setText(f"→ {roll.damage.describe()}" if box.known else "")
        self.roll_damage.setEnabled(any(not b.known for b in self.damage_boxes))
        if worked.result is None:
            self._show_previews(None)
            self._fail(worked.problem, clear=False)
            return
        self.result = worked.result
        self._show_previews(worked.result)
        self.problem_label.setText("")
        self.apply_button.setEnabled(True)

    def _fail(self, message: str, clear: bool = True) -> None:
        """Show why the attack cannot be applied (yet); ``clear`` drops the dice results."""
        self.problem = message
        self.problem_label.setText(message)
        self.apply_button.setEnabled(False)
        if clear:
            self._set_damage_boxes(0)
            self.hits.setText("")
            self.roll_damage.setEnabled(False)
            self._show_previews(None)

    def _show_odds(self, result: tp.AttackResult) -> None:
        if result.kind == "guns":
            self.odds.setText(result.column or "worse than 1:4")
            mods = [f"{reason}: {_signed(value)}" for reason, value in result.modifiers]
            less = (f" (of {result.full_strength})"
                    if result.full_strength is not None and result.attack != result.full_strength else "")
            self.odds_detail.setText(
                f"{result.attack}{less} against {result.defense}, rounded in the defender's favour. "
                f"Die modifier {_signed(result.modifier)}" + (f" ({'; '.join(mods)})" if mods else "") + ".")
        else:
            self.odds.setText(self.kind.currentText())
            self.odds_detail.setText("Other damage table: no odds, no range or velocity modifiers"
                                     + (f"; die modifier {_signed(result.modifier)}." if result.modifier else "."))

    def _hits_text(self, result: tp.AttackResult) -> str:
        how = "rolled" if result.roll_rolled else "typed"
        if result.roll is None:
            return ""
        roll = f"Roll {result.roll} ({how})"
        if result.modifier:
            roll += f" {_signed(result.modifier)} = {result.modified_roll}"
            if result.modified_roll is not None and result.modified_roll < 1:
                roll += " (below 1: no effect)"
            elif result.modified_roll is not None and result.modified_roll > 6:
                roll += " (counts as 6)"
        if result.combat == tp.STANDARD:
            return f"{roll}: <b>{result.standard_result or 'no effect'}</b>"
        hits = f"{result.hits} hit{'s' if result.hits != 1 else ''}" if result.hits else "no hit"
        return f"{roll}: <b>{hits}</b>" + (" — one damage roll per hit:" if result.hits else ".")

    def _show_previews(self, result: tp.AttackResult | None) -> None:
        """Each target's tracks: after the attack when the dice are all known, else as now."""
        targets = self._ships(self.targets)
        standard = self._combat() == tp.STANDARD
        while len(self.previews) > len(targets):
            widget = self.previews.pop()
            self.preview_layout.removeWidget(widget)
            widget.setParent(None)
            widget.deleteLater()
        while len(self.previews) < len(targets):
            widget = TrackPreview()
            self.previews.append(widget)
            self.preview_layout.insertWidget(len(self.previews) - 1, widget)
        for widget, ship in zip(self.previews, targets):
            tracks = (tp.STANDARD_TRACK,) if standard else tp.TRACKS
            preview = next((t for t in result.targets if t.ship_id == ship.id), None) if result else None
            # The rules' own preview of the target after the attack (nothing re-applied here).
            trial = scratch(ship, None if preview is None else preview.state_after)
            before = tp.levels(ship)
            after = tp.levels(trial)
            chips = tp.status_chips(trial)
            if preview is None:
                words = "Now: " + (" · ".join(chips) or "fully operational")
            elif not preview.affected:
                words = "No effect."
            else:
                words = "After: " + (" · ".join(chips) or "fully operational")
            widget.set_preview(ship.name, tracks, before, after, words,
                               preview is not None and preview.after.destroyed)

    # -- dice and apply ----------------------------------------------------------------------
    def roll_all_damage(self) -> None:
        for box in self.damage_boxes:
            if not box.known:
                box.rolled = True
        self.recompute()

    def apply(self) -> bool:
        """Apply the attack worked out (the dice rolled inside the action): one undo step."""
        self.recompute()
        if self.result is None:
            return False
        action = self.plan().action()
        if not self.doc.do(action):
            return False
        self.last_applied = action.name
        self.to_hit.reset()
        self._set_damage_boxes(0)
        self.recompute()
        self.applied_label.setText(f"Applied: {action.name}. Undo (Ctrl+Z) takes it back.")
        return True
