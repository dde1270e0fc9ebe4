"""Triplanetary's Actions panel: attack, recovery and its choice, maintenance, ordnance,
events (lost, looted, captured), fuel and cargo, combat option.

Shows the actions for ``doc.current_ship`` and the session; every change goes
through ``doc.do`` with an action builder of :mod:`shipsheet.rules.triplanetary`
(one click, one undo step). A choice the rules refuse is disabled and the
reason is written beside it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QFrame, QGroupBox,
                               QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget)

from ....model import RuleViolation
from ....model.trial import ship_refusal as refusal, trial_ship
from ....rules import triplanetary as tp
from ....rules.triplanetary.combat import combat_system
from ....rules.triplanetary.definitions import MAX_AMOUNT
from ....rules.triplanetary.house import house_rule
from ....rules.triplanetary.recovery import DEFAULT, ONLY, OWNER
from ....rules.triplanetary.state import RECOVERY_PHASE, track_title
from ...document import SessionDocument
from ...layouts import fill_with_scroll
from ...plaintext import esc, rich

#: Mnemonic letters of the recovery buttons (the menus use F, E, S, V, H).
_RECOVER_TEXT = {
    "weapon": "Recover 1 &weapons D",
    "drive": "Recover 1 &drive D",
    "structure": "Recover 1 st&ructure D",
    "standard": "Recover 1 d&isabled D",
}


def _reason(label: QLabel) -> QLabel:
    """A small wrapped label for a refusal's reason, written under the control it disables."""
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 0.92)
    label.setFont(font)
    label.setContentsMargins(12, 0, 0, 4)
    return label


def _pair_refusal(rule, actor, target, *args) -> str | None:
    """Why the rules refuse ``rule(actor, target, *args)`` (tried on copies), or None."""
    try:
        a = trial_ship(actor)
        rule(a, a if target is actor else trial_ship(target), *args)
    except RuleViolation as exc:
        return str(exc)
    return None


def _store_row(form: QFormLayout, text: str, spin: QSpinBox, what: str,
               slot) -> tuple[QPushButton, QLabel]:
    """A fuel or cargo row: its label, the spin box and a Set button (Enter does the same)."""
    button = QPushButton("Set")
    button.setToolTip(f"Set {what} beside (Enter in the box does it too)")
    button.clicked.connect(slot)
    spin.lineEdit().returnPressed.connect(slot)
    label = QLabel(text)
    label.setBuddy(spin)
    row = QHBoxLayout()
    row.addWidget(spin, 1)
    row.addWidget(button)
    form.addRow(label, row)
    return button, label


class Panel(QWidget):
    """The Triplanetary actions for the current ship and the session."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.attack_dialog = None
        self.recovery_dialog = None

        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(6, 6, 6, 6)

        self.heading = rich(QLabel())  # our markup; names go through esc()
        self.heading.setWordWrap(True)
        self.heading.setAccessibleName("Current ship")
        layout.addWidget(self.heading)

        # Combat: the referee's attack dialog and the session's combat system.
        combat = QGroupBox("Combat")
        box = QVBoxLayout(combat)
        self.attack_button = QPushButton("&Attack…")
        self.attack_button.setToolTip(
            "Resolve an attack (referee): pick attackers and targets from the roster, guns "
            "or other damage (torpedo, mine, asteroid, ram), roll or type the dice, preview "
            "each target's tracks, then Apply (one undo step).")
        self.attack_button.clicked.connect(self.open_attack)
        box.addWidget(self.attack_button)
        self.standard_box = QCheckBox("Standard &combat table (session option)")
        self.standard_box.setToolTip(
            "Use the standard combat table for this session: results D1–D5 or E on a single "
            "disabled track instead of the Advanced Combat System's weapon, drive and "
            "structure tracks. Every track already marked is kept.")
        self.standard_box.toggled.connect(self.set_standard)
        box.addWidget(self.standard_box)
        layout.addWidget(combat)

        # Recovery: the owner's choice of track, maintenance at a base.
        recovery = QGroupBox("Recovery — 1 D per turn")
        self.recovery_group = recovery
        box = QVBoxLayout(recovery)
        self.recovery_note = rich(QLabel())
        self.recovery_note.setWordWrap(True)
        box.addWidget(self.recovery_note)
        choice_row = QHBoxLayout()
        choice_label = QLabel("At turn's end recover:")
        self.choice = QComboBox()
        self.choice.setAccessibleName("Recovery choice at the end of the turn")
        self.choice.setToolTip("The owner's choice of track, carried out when the turn ends (one "
                               "undo step).\n\n" + house_rule("TRI-H14") + "\n\n"
                               + house_rule("TRI-H13"))
        choice_label.setBuddy(self.choice)
        self.choice.activated.connect(self.choose)
        choice_row.addWidget(choice_label)
        choice_row.addWidget(self.choice, 1)
        box.addLayout(choice_row)
        self.now_note = _reason(QLabel())
        box.addWidget(self.now_note)
        self.recover_buttons: dict[str, QPushButton] = {}
        self.recover_reasons: dict[str, QLabel] = {}
        for track in tp.ALL_TRACKS:
            button = QPushButton(_RECOVER_TEXT[track])
            button.clicked.connect(lambda _=False, t=track: self.recover(t))
            reason = _reason(QLabel())
            self.recover_buttons[track] = button
            self.recover_reasons[track] = reason
            box.addWidget(button)
            box.addWidget(reason)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        box.addWidget(line)
        self.maintain_button = QPushButton("&Maintenance at a base")
        self.maintain_button.clicked.connect(self.maintain)
        self.maintain_reason = _reason(QLabel())
        box.addWidget(self.maintain_button)
        box.addWidget(self.maintain_reason)
        self.recovery_all_button = QPushButton("End-of-turn rec&overy, every ship…")
        self.recovery_all_button.setToolTip(
            "Every damaged ship with its recovery choice (the owner picks the track), "
            "maintenance at a base, and the end of the turn.")
        self.recovery_all_button.clicked.connect(self.open_recovery)
        box.addWidget(self.recovery_all_button)
        layout.addWidget(recovery)

        # Ordnance: launched in the Ordnance phase, checked at launch [seed], [TRI-H17/H18].
        ordnance = QGroupBox("Ordnance")
        self.ordnance_group = ordnance
        box = QVBoxLayout(ordnance)
        row = QHBoxLayout()
        self.launch_buttons: dict[str, QPushButton] = {}
        for kind, text in (("torpedo", "&Torpedo"), ("mine", "Mi&ne"), ("nuke", "Nu&ke")):
            button = QPushButton(text)
            button.setAccessibleName(f"Launch a {kind}")
            button.clicked.connect(lambda _=False, k=kind: self.launch(k))
            row.addWidget(button)
            self.launch_buttons[kind] = button
        box.addLayout(row)
        self.launch_reason = _reason(QLabel())
        box.addWidget(self.launch_reason)
        ticks = QHBoxLayout()
        self.launch_out_of_phase = QCheckBox("Out of phase")
        self.launch_out_of_phase.setToolTip("The referee allows a launch outside the Ordnance "
                                            "phase (logged).\n\n" + house_rule("TRI-H18"))
        self.launch_second = QCheckBox("Second launch")
        self.launch_second.setToolTip("The referee allows another launch this turn (logged).\n\n"
                                      + house_rule("TRI-H18"))
        for tick in (self.launch_out_of_phase, self.launch_second):
            tick.toggled.connect(self.refresh)
            ticks.addWidget(tick)
        box.addLayout(ticks)
        flight = QHBoxLayout()
        self.in_flight = QComboBox()
        self.in_flight.setAccessibleName("Ordnance in flight")
        self.in_flight.setToolTip("This ship's launches not yet spent (an attack that names one "
                                  "spends it).\n\n" + house_rule("TRI-H19"))
        self.remove_launch = QPushButton("Remove")
        self.remove_launch.setToolTip("Take the launch off the map (it missed, or left the map): "
                                      "one undo step")
        self.remove_launch.clicked.connect(self.remove_ordnance)
        flight.addWidget(self.in_flight, 1)
        flight.addWidget(self.remove_launch)
        box.addLayout(flight)
        layout.addWidget(ordnance)

        # Events: lost at the map edge, looted, captured [seed], [TRI-H25..H27].
        events = QGroupBox("Events")
        self.events_group = events
        form = QFormLayout(events)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)  # labels above: narrow
        lost_row = QHBoxLayout()
        self.lost_button = QPushButton("&Lost at the map edge")
        self.lost_button.clicked.connect(self.lose)
        self.lost_referee = QCheckBox("Referee's ruling")
        self.lost_referee.setToolTip(house_rule("TRI-H25"))
        self.lost_referee.toggled.connect(self.refresh)
        lost_row.addWidget(self.lost_button)
        lost_row.addWidget(self.lost_referee)
        form.addRow(lost_row)
        self.lost_reason = _reason(QLabel())
        form.addRow(self.lost_reason)
        self.looter = QComboBox()
        self.looter.setAccessibleName("Looter")
        self.loot_tons = QSpinBox()
        self.loot_tons.setSuffix(" t")
        self.loot_tons.setAccessibleName("Tons to loot")
        self.loot_button = QPushButton("Loot")
        self.loot_button.clicked.connect(self.loot)
        loot_row = QHBoxLayout()
        loot_row.addWidget(self.looter, 1)
        loot_row.addWidget(self.loot_tons)
        loot_row.addWidget(self.loot_button)
        form.addRow("Looted by:", loot_row)
        self.captor = QComboBox()
        self.captor.setAccessibleName("Captor")
        self.capture_button = QPushButton("Capture")
        self.capture_button.clicked.connect(self.capture)
        capture_row = QHBoxLayout()
        capture_row.addWidget(self.captor, 1)
        capture_row.addWidget(self.capture_button)
        form.addRow("Captured by:", capture_row)
        self.events_reason = _reason(QLabel())
        form.addRow(self.events_reason)
        for combo in (self.looter, self.captor):
            combo.currentIndexChanged.connect(self._refresh_event_buttons)
        self.loot_tons.valueChanged.connect(self._refresh_event_buttons)
        layout.addWidget(events)
        # Combos as narrow as a name: the dock stays narrow, with no sideways scrolling.
        for combo in (self.choice, self.in_flight, self.looter, self.captor):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)

        # Fuel and cargo trackers (the sheet's boxes do the same with a click).
        stores = QGroupBox("Fuel and cargo")
        form = QFormLayout(stores)
        self.fuel_spin = QSpinBox()
        self.fuel_spin.setAccessibleName("Fuel left")
        self.fuel_set, self.fuel_label = _store_row(
            form, "F&uel left:", self.fuel_spin, "the fuel left to the number", self.set_fuel)
        self.cargo_spin = QSpinBox()
        self.cargo_spin.setSuffix(" t")
        self.cargo_spin.setAccessibleName("Cargo carried, tons")
        self.cargo_set, _ = _store_row(
            form, "Car&go:", self.cargo_spin, "the cargo carried to the tons", self.set_cargo)
        self.stores_group = stores
        layout.addWidget(stores)

        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Last message")
        layout.addWidget(self.message)
        layout.addStretch(1)

        fill_with_scroll(self, content, whole_width=True)

        # Bound methods (not lambdas): Qt drops them with the panel.
        doc.changed.connect(self.refresh)
        doc.selection_changed.connect(self.refresh)
        doc.refused.connect(self.show_refusal)
        self.refresh()

    # -- state --------------------------------------------------------------------------------
    def refresh(self, *_args) -> None:
        """Show the current ship's choices as the rules allow them now."""
        session = self.doc.session
        ship = self.doc.current_ship
        standard = combat_system(session) == tp.STANDARD
        self.standard_box.blockSignals(True)
        self.standard_box.setChecked(standard)
        self.standard_box.blockSignals(False)
        self.attack_button.setEnabled(bool(session.ships))
        has = ship is not None
        for widget in (self.recovery_group, self.stores_group, self.ordnance_group,
                       self.events_group):
            widget.setEnabled(has)
        if not has:
            self.heading.setText("<i>No ship selected.</i>")
            return
        spec = ship.ship_class.spec
        chips = tp.status_chips(ship)
        self.heading.setText(
            f"<b>{esc(ship.name)}</b> — {esc(ship.ship_class.name)} "
            f"({esc(spec.strength_label)})<br>{esc(' · '.join(chips) or 'Fully operational')}")
        self._refresh_recovery(ship, standard)
        self._refresh_ordnance(ship)
        self._refresh_events(ship)
        self._refresh_stores(ship)

    def _refresh_recovery(self, ship, standard: bool) -> None:
        phase = self.doc.session.phase
        planned = tp.planned_recovery(ship, standard=standard)
        if tp.out_of_play(ship):
            note = f"{ship.name} is {tp.out_of_play(ship)}: nothing to recover."
        elif tp.recovered_this_turn(ship):
            note = (f"{ship.name} has recovered 1 D this turn; the next recovery comes after the "
                    "end of the turn.")
        elif planned is None:
            note = f"{ship.name} has nothing it can recover."
        else:
            track, how = planned
            level = tp.track_level(ship, track)
            words = {OWNER: "the owner's choice", ONLY: "the only track it can recover",
                     DEFAULT: "no choice made: the default, highest D-level (TRI-H13)"}.get(
                         how, how)
            note = (f"When the turn ends {ship.name} recovers {track_title(track).lower()} "
                    f"D{level} → D{level - 1} ({words}).")
        note = esc(note)
        if phase == RECOVERY_PHASE:
            note = "<b>Recovery phase.</b> " + note
        self.recovery_note.setText(note)
        self._refresh_choice(ship, standard)
        in_phase = phase == RECOVERY_PHASE
        self.now_note.setText("" if in_phase else
                              "Recover now: in the Recovery phase, which closes the turn "
                              "(house rule TRI-H1). Until then, set the choice above.")
        self.now_note.setVisible(not in_phase and not tp.out_of_play(ship))
        shown = tp.tracks_shown([ship], standard=standard)
        for track, button in self.recover_buttons.items():
            level = tp.track_level(ship, track)
            button.setVisible(track in shown)
            reason = self.recover_reasons[track]
            why = refusal(ship, lambda s, t=track: tp.recover(s, t, phase=phase))
            title = track_title(track).lower()
            if level:
                button.setText(f"{_RECOVER_TEXT[track]} now (D{level} → D{level - 1})")
            else:
                button.setText(_RECOVER_TEXT[track] + " now")
            button.setEnabled(why is None)
            button.setToolTip(f"Recover 1 D on the {title} track now (the ship's one recovery "
                              "this turn)." if why is None else f"Can't: {why}")
            reason.setText("" if why is None else why)
            # Said once above: "already recovered", out of play, and the phase.
            reason.setVisible(shown and why is not None and level > 0 and in_phase
                              and not tp.recovered_this_turn(ship) and not tp.out_of_play(ship))
        why = refusal(ship, tp.maintain)
        self.maintain_button.setEnabled(why is None)
        self.maintain_button.setToolTip(
            "The ship reached a base: every track back to D0 (weapons and drive at D6 or "
            "worse included)." if why is None else f"Can't: {why}")
        self.maintain_reason.setText(why or "")
        self.maintain_reason.setVisible(why is not None)

    def _refresh_choice(self, ship, standard: bool) -> None:
        """The choice combo: the default, each track, or the ship's own order of tracks."""
        chosen = tp.recovery_choice(ship)
        self.choice.blockSignals(True)
        self.choice.clear()
        self.choice.addItem("Default (highest D)", None)
        for track in tp.TRACKS:
            level = tp.track_level(ship, track)
            self.choice.addItem(f"{track_title(track)}" + (f" (D{level})" if level else ""),
                                [track])
        if len(chosen) > 1:
            self.choice.addItem(tp.describe_choice(chosen).capitalize(), list(chosen))
        index = 0 if not chosen else (self.choice.count() - 1 if len(chosen) > 1
                                      else 1 + tp.TRACKS.index(chosen[0]))
        self.choice.setCurrentIndex(index)
        self.choice.blockSignals(False)
        self.choice.setEnabled(not tp.out_of_play(ship) and not standard)

    def _refresh_ordnance(self, ship) -> None:
        """Launch buttons as the rules allow them now; the launches still in flight."""
        phase = self.doc.session.phase
        kinds = tp.launchable_kinds(ship)
        reasons: dict[str, str] = {}
        for kind, button in self.launch_buttons.items():
            why = refusal(ship, lambda s, k=kind: (tp.check_launch_timing(
                s, phase, out_of_phase=self.launch_out_of_phase.isChecked(),
                second_launch=self.launch_second.isChecked()), tp.launch(s, k, 1)))
            button.setEnabled(why is None)
            button.setToolTip(f"Launch a {kind} (one undo step; it stays in flight until an "
                              "attack spends it)." if why is None else f"Can't: {why}")
            if why:
                reasons[kind] = why
        # One line under the buttons when the ship can launch nothing now: the reason of
        # its own kinds (not "a Transport launches mines only"), else why it launches none.
        blocked = all(k in reasons for k in kinds)
        text = (reasons[kinds[0]] if kinds else next(iter(reasons.values()), "")) if blocked else ""
        self.launch_reason.setText(text)
        self.launch_reason.setVisible(bool(text))
        flight = tp.in_flight(ship)
        self.in_flight.clear()
        for entry in flight:
            self.in_flight.addItem(f"{entry['kind'].capitalize()} {entry['n']} (turn "
                                   f"{entry['turn']})", entry["n"])
        if not flight:
            self.in_flight.addItem("None in flight", None)
        self.in_flight.setEnabled(bool(flight))
        self.remove_launch.setEnabled(bool(flight))

    def _refresh_events(self, ship) -> None:
        """Lost at the map edge (drive D6+, or the referee), looted and captured (disabled)."""
        why = refusal(ship, lambda s: tp.lose_at_map_edge(s, referee=self.lost_referee.isChecked()))
        self.lost_button.setEnabled(why is None)
        self.lost_button.setToolTip("The ship reaches the map edge and is lost (one undo step)."
                                    if why is None else f"Can't: {why}")
        self.lost_reason.setText(why or "")
        # Said under the button only when it is news (a drive short of D6 is the usual case:
        # the button's tooltip says it).
        self.lost_reason.setVisible(why is not None and not tp.out_of_play(ship)
                                    and "steered clear" not in why)
        others = [s for s in self.doc.session.ships if s.id != ship.id and not tp.out_of_play(s)]
        # Ships of another side first: they are the ones that loot and capture.
        others.sort(key=lambda s: (s.side or "") == (ship.side or ""))
        for combo, picked in ((self.looter, self.looter.currentData()),
                              (self.captor, self.captor.currentData())):
            combo.blockSignals(True)
            combo.clear()
            for other in others:
                combo.addItem(f"{other.name}" + (f" · {other.side}" if other.side else ""), other.id)
            if not others:
                combo.addItem("No other ship", None)
            index = combo.findData(picked)
            combo.setCurrentIndex(max(index, 0))
            combo.blockSignals(False)
        carried = int(ship.state.get("cargo", 0) or 0)
        self.loot_tons.blockSignals(True)
        self.loot_tons.setRange(1, max(1, carried))
        self.loot_tons.blockSignals(False)
        self._refresh_event_buttons()

    def _refresh_event_buttons(self, *_args) -> None:
        ship = self.doc.current_ship
        if ship is None:
            return
        looter, captor = self._picked(self.looter), self._picked(self.captor)
        loot_why = ("Pick the looting ship." if looter is None else
                    _pair_refusal(tp.loot, looter, ship, self.loot_tons.value()))
        capture_why = ("Pick the capturing ship." if captor is None else
                       _pair_refusal(tp.capture, captor, ship))
        for button, why, tip in ((self.loot_button, loot_why,
                                  "Move the tons to the looter's hold (one undo step)."),
                                 (self.capture_button, capture_why,
                                  "The ship joins the captor's side (one undo step).")):
            button.setEnabled(why is None)
            button.setToolTip(tip if why is None else f"Can't: {why}")
        # One line under both rows: the target's own reason first (it is not disabled), else
        # the looter's or captor's.
        target_why = _pair_refusal(lambda a, b: tp.check_disabled(b, "looted"), ship, ship)
        reason = "" if tp.out_of_play(ship) else (target_why or loot_why or capture_why)
        self.events_reason.setText(reason or "")
        self.events_reason.setVisible(bool(reason))

    def _refresh_stores(self, ship) -> None:
        spec = ship.ship_class.spec
        fuel = ship.state.get("fuel")
        destroyed = tp.is_destroyed(ship)
        for widget, value, cap in ((self.fuel_spin, fuel, spec.fuel),
                                   (self.cargo_spin, ship.state.get("cargo", 0), spec.cargo)):
            widget.blockSignals(True)
            widget.setRange(0, MAX_AMOUNT if cap is None else cap)
            widget.setValue(int(value or 0))
            widget.blockSignals(False)
        unlimited = spec.fuel is None
        self.fuel_spin.setSpecialValueText("")
        if unlimited:
            self.fuel_spin.setRange(0, 0)
            self.fuel_spin.setSpecialValueText("unlimited")
        fuel_ok = not unlimited and bool(spec.fuel) and not destroyed
        self.fuel_spin.setEnabled(fuel_ok)
        self.fuel_set.setEnabled(fuel_ok)
        self.fuel_spin.setToolTip(
            "Unlimited fuel: nothing to track." if unlimited else
            f"A {ship.ship_class.name} has no fuel of its own." if not spec.fuel else
            f"Fuel left, 0 to {spec.fuel}.")
        cargo_ok = spec.cargo != 0 and not destroyed
        self.cargo_spin.setEnabled(cargo_ok)
        self.cargo_set.setEnabled(cargo_ok)
        self.cargo_spin.setToolTip(
            "No hold." if spec.cargo == 0 else
            "Cargo carried (unlimited hold)." if spec.cargo is None else
            f"Cargo carried, 0 to {spec.cargo} t.")

    # -- changes -----------------------------------------------------------------------------
    def _do(self, action) -> bool:
        self.message.setText("")
        return self.doc.do(action)

    def show_refusal(self, message: str) -> None:
        self.message.setText(f"Not allowed: {message}")

    def recover(self, track: str) -> bool:
        ship = self.doc.current_ship
        return ship is not None and self._do(tp.recover_action(ship, track))

    def choose(self, index: int) -> bool:
        """The choice combo was picked: one action (nothing when it is the ship's already)."""
        ship = self.doc.current_ship
        if ship is None:
            return False
        tracks = self.choice.itemData(index)
        if tuple(tracks or ()) == tp.recovery_choice(ship):
            return False
        done = self._do(tp.choose_recovery_action(ship, tracks))
        if not done:
            self.refresh()
        return done

    def launch(self, kind: str) -> bool:
        ship = self.doc.current_ship
        return ship is not None and self._do(tp.launch_ordnance_action(
            ship, kind, out_of_phase=self.launch_out_of_phase.isChecked(),
            second_launch=self.launch_second.isChecked()))

    def remove_ordnance(self) -> bool:
        ship, n = self.doc.current_ship, self.in_flight.currentData()
        return ship is not None and n is not None and self._do(tp.remove_ordnance_action(ship, n))

    def lose(self) -> bool:
        ship = self.doc.current_ship
        return ship is not None and self._do(
            tp.lose_at_map_edge_action(ship, referee=self.lost_referee.isChecked()))

    def loot(self) -> bool:
        ship, looter = self.doc.current_ship, self._picked(self.looter)
        return (ship is not None and looter is not None
                and self._do(tp.loot_action(looter, ship, self.loot_tons.value())))

    def capture(self) -> bool:
        ship, captor = self.doc.current_ship, self._picked(self.captor)
        return ship is not None and captor is not None and self._do(tp.capture_action(captor, ship))

    def _picked(self, combo: QComboBox):
        sid = combo.currentData()
        return None if sid is None else self.doc.session.ship(sid)

    def maintain(self) -> bool:
        ship = self.doc.current_ship
        return ship is not None and self._do(tp.maintain_action(ship))

    def set_fuel(self) -> bool:
        ship = self.doc.current_ship
        if ship is None or not self.fuel_spin.isEnabled():
            return False
        value = self.fuel_spin.value()
        if value == ship.state.get("fuel"):
            return False
        return self._do(tp.fuel_action(ship, value))

    def set_cargo(self) -> bool:
        ship = self.doc.current_ship
        if ship is None or not self.cargo_spin.isEnabled():
            return False
        value = self.cargo_spin.value()
        if value == ship.state.get("cargo", 0):
            return False
        return self._do(tp.cargo_action(ship, value))

    def set_standard(self, checked: bool) -> bool:
        try:
            action = tp.combat_option_action(tp.STANDARD if checked else tp.ADVANCED)
        except RuleViolation as exc:
            self.show_refusal(str(exc))
            return False
        done = self._do(action)
        if not done:
            self.refresh()
        return done

    # -- dialogs -----------------------------------------------------------------------------
    def open_attack(self):
        """The referee's attack dialog, the current ship picked as attacker (or target)."""
        from .attack import AttackDialog
        dialog = self.attack_dialog
        if dialog is not None and dialog.isVisible():
            dialog.raise_()
            dialog.activateWindow()
            return dialog
        ship = self.doc.current_ship
        attackers, targets = [], []
        if ship is not None:
            if refusal(ship, tp.check_attacker) is None:
                attackers = [ship.id]
            elif not tp.is_destroyed(ship):
                targets = [ship.id]
        if dialog is None:
            # A child of the panel: it goes away with the session's docks.
            dialog = self.attack_dialog = AttackDialog(self.doc, self, attackers, targets)
        else:  # reopened: the referee's settings stay, the current ship is picked again
            dialog.pick(attackers, targets)
        dialog.show()
        return dialog

    def ask_before_turn_end(self, ship_ids: list[str]) -> bool:
        """The window's Next Turn asks once about ships with several tracks and no choice
        (``GAME.choices_before_turn_end``): True to end the turn (the default applies to any
        left open), False to keep it."""
        from .recovery import ask_before_turn_end
        return ask_before_turn_end(self.doc, self.window(), ship_ids)

    def open_recovery(self):
        """Every damaged ship's recovery choice, maintenance, and the end of the turn."""
        from .recovery import RecoveryDialog
        if self.recovery_dialog is None:
            self.recovery_dialog = RecoveryDialog(self.doc, self)
        self.recovery_dialog.show()
        self.recovery_dialog.raise_()
        self.recovery_dialog.activateWindow()
        return self.recovery_dialog

