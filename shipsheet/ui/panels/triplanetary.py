"""Triplanetary's Actions panel: attack, recovery, maintenance, fuel and cargo, combat option.

Shows the actions for ``doc.current_ship`` and the session; every change goes
through ``doc.do`` with an action builder of :mod:`shipsheet.rules.triplanetary`
(one click, one undo step). A choice the rules refuse is disabled and the
reason is written beside it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QFormLayout, QFrame, QGroupBox, QHBoxLayout, QLabel,
                               QPushButton, QSpinBox, QVBoxLayout, QWidget)

from ...model import RuleViolation
from ...model.trial import ship_refusal as refusal
from ...rules import triplanetary as tp
from ...rules.triplanetary.combat import combat_system
from ...rules.triplanetary.definitions import MAX_AMOUNT
from ...rules.triplanetary.game import RECOVERY_PHASE
from ...rules.triplanetary.state import track_title
from ..document import SessionDocument
from ..layouts import fill_with_scroll
from ..plaintext import esc, rich

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

        fill_with_scroll(self, content)

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
        for widget in (self.recovery_group, self.stores_group):
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
        self._refresh_stores(ship)

    def _refresh_recovery(self, ship, standard: bool) -> None:
        phase = self.doc.session.phase
        if tp.is_destroyed(ship):
            note = f"{ship.name} is destroyed: nothing to recover."
        elif tp.recovered_this_turn(ship):
            note = f"{ship.name} has recovered 1 D this turn; the next recovery comes after the end of the turn."
        elif tp.recoverable_tracks(ship):
            note = f"{ship.name} may recover 1 D now; the owner picks the track."
        else:
            note = f"{ship.name} has nothing it can recover."
        note = esc(note)
        if phase == RECOVERY_PHASE:
            note = "<b>Recovery phase.</b> " + note
        self.recovery_note.setText(note)
        for track, button in self.recover_buttons.items():
            level = int(ship.state.get(track, 0) or 0)
            shown = track != tp.STANDARD_TRACK or standard or level > 0
            button.setVisible(shown)
            reason = self.recover_reasons[track]
            why = refusal(ship, lambda s, t=track: tp.recover(s, t))
            title = track_title(track).lower()
            if level:
                button.setText(f"{_RECOVER_TEXT[track]} (D{level} → D{level - 1})")
            else:
                button.setText(_RECOVER_TEXT[track])
            button.setEnabled(why is None)
            button.setToolTip(f"Recover 1 D on the {title} track now (the ship's one recovery "
                              "this turn)." if why is None else f"Can't: {why}")
            reason.setText("" if why is None else why)
            # "Already recovered this turn" is said once, in the note above.
            reason.setVisible(shown and why is not None and level > 0
                              and not tp.recovered_this_turn(ship) and not tp.is_destroyed(ship))
        why = refusal(ship, tp.maintain)
        self.maintain_button.setEnabled(why is None)
        self.maintain_button.setToolTip(
            "The ship reached a base: every track back to D0 (weapons and drive at D6 or "
            "worse included)." if why is None else f"Can't: {why}")
        self.maintain_reason.setText(why or "")
        self.maintain_reason.setVisible(why is not None)

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
        from ..triplanetary_attack import AttackDialog
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

    def open_recovery(self):
        """Every damaged ship's recovery choice, maintenance, and the end of the turn."""
        from ..triplanetary_recovery import RecoveryDialog
        if self.recovery_dialog is None:
            self.recovery_dialog = RecoveryDialog(self.doc, self)
        self.recovery_dialog.show()
        self.recovery_dialog.raise_()
        self.recovery_dialog.activateWindow()
        return self.recovery_dialog

