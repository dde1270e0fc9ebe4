"""War In Space Damage Control planner: choose repairs within this turn's Damage Control energy.

The cost and the budget come from :func:`plan_repairs` (4 a box, 8 a critical
hit; a plan past the energy is refused with how much is missing). "Plan
repairs" applies :func:`plan_repairs_action`: planned before the Damage Control
phase, the repairs wait for it (Next Phase in the toolbar); planned during it
they take effect at once.
"""

from __future__ import annotations


from PySide6.QtWidgets import (QCheckBox, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
                               QPushButton, QSpinBox, QVBoxLayout, QWidget)

from ....model import RuleViolation, Ship
from ....model.trial import refusal
from ....rules.war_in_space import (BOX_COST, CRITICAL_COST, SUIT_SYMBOLS, SUITS,
                                  cancel_repairs_action, committed_allocation, current_die,
                                  die_label, house_rule, locked_suits, marked_boxes,
                                  plan_repairs, plan_repairs_action, planned_repairs)
from ....rules.war_in_space.game import DAMAGE_CONTROL_PHASE
from ....rules.war_in_space.repairs import check_damage_control_energy
from ...document import SessionDocument
from ...plaintext import esc, rich


class DamageControlPlanner(QGroupBox):
    """Damaged boxes and critical hits, their cost, a running total, and Plan repairs."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__("Damage Control", parent)
        self.doc = doc
        self.ship: Ship | None = None
        self._loading = False
        self._seen_plan: object = None
        self.problem: str | None = None

        layout = QVBoxLayout(self)
        self.budget_label = rich(QLabel())  # our markup; names go through esc()
        self.budget_label.setWordWrap(True)
        self.budget_label.setAccessibleName("Damage Control energy")
        layout.addWidget(self.budget_label)

        self.grid = QGridLayout()
        self.box_labels: list[QLabel] = []
        self.box_spins: list[QSpinBox] = []
        self.box_costs: list[QLabel] = []
        for i in range(3):
            label = QLabel()
            label.setWordWrap(True)  # "Fire Control (d8 of d10), 1 marked:" in a 330 px dock
            spin = QSpinBox()
            cost = QLabel()
            label.setBuddy(spin)
            self.grid.addWidget(label, i, 0)
            self.grid.addWidget(spin, i, 1)
            self.grid.addWidget(cost, i, 2)
            self.box_labels.append(label)
            self.box_spins.append(spin)
            self.box_costs.append(cost)
            spin.valueChanged.connect(self._edited)
        self.crit_checks: dict[str, QCheckBox] = {}
        for n, suit in enumerate(SUITS):
            check = QCheckBox(f"{SUIT_SYMBOLS[suit]} critical hit")
            check.setAccessibleName(f"Repair the {suit} critical hit")
            cost = QLabel(f"= {CRITICAL_COST}")
            self.grid.addWidget(check, 3 + n, 0, 1, 2)
            self.grid.addWidget(cost, 3 + n, 2)
            self.crit_checks[suit] = check
            check.toggled.connect(self._edited)
            check.setProperty("cost_label", cost)
        self.grid.setColumnStretch(0, 1)
        layout.addLayout(self.grid)
        self.nothing_label = QLabel("Nothing to repair: no box or critical hit is marked.")
        self.nothing_label.setWordWrap(True)
        layout.addWidget(self.nothing_label)

        self.total_label = rich(QLabel())  # our markup; names go through esc()
        self.total_label.setWordWrap(True)
        self.total_label.setAccessibleName("Repairs total")
        layout.addWidget(self.total_label)

        buttons = QHBoxLayout()
        self.cancel_button = QPushButton("Ca&ncel planned repairs")
        self.cancel_button.clicked.connect(self.cancel)
        self.plan_button = QPushButton("&Plan repairs")
        self.plan_button.clicked.connect(self.plan)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.plan_button)
        layout.addLayout(buttons)

        self.planned_label = rich(QLabel())  # our markup; names go through esc()
        self.planned_label.setWordWrap(True)
        self.planned_label.setAccessibleName("Planned repairs")
        layout.addWidget(self.planned_label)
        note = rich(QLabel("<small>Energy not spent this turn is lost at the end of the turn "
                      "(house rule).</small>"))
        note.setWordWrap(True)
        note.setToolTip(house_rule("Unspent energy is lost") + "\n\n"
                        + house_rule("Planning repairs"))
        layout.addWidget(note)

    # -- reading the controls -------------------------------------------------------------
    def chosen_boxes(self) -> dict[int, int]:
        return {i: spin.value() for i, spin in enumerate(self.box_spins) if spin.value()}

    def chosen_criticals(self) -> list[str]:
        return [suit for suit, check in self.crit_checks.items() if check.isChecked()]

    # -- showing a ship ----------------------------------------------------------------------
    def set_ship(self, ship: Ship | None, keep: bool) -> None:
        """Show ``ship``; ``keep`` keeps a plan being edited unless the ship's plan changed."""
        self.ship = ship
        self.setEnabled(ship is not None)
        if ship is None:
            return
        plan = planned_repairs(ship)
        signature = (ship.id, plan.boxes if plan else None, plan.criticals if plan else None)
        reload = not keep or signature != self._seen_plan
        self._seen_plan = signature
        self._loading = True
        try:
            systems = ship.ship_class.spec.systems
            locked = set(locked_suits(ship))
            for i, system in enumerate(systems):
                marks = marked_boxes(ship, i)
                spin, label, cost = self.box_spins[i], self.box_labels[i], self.box_costs[i]
                keep_value = 0 if reload else spin.value()
                spin.setRange(0, marks)
                spin.setValue(min(plan.boxes[i] if (reload and plan) else keep_value, marks))
                shown = marks > 0
                for w in (spin, label, cost):
                    w.setVisible(shown)
                now = die_label(current_die(ship, i))
                label.setText(f"{system.name} ({now} of d{system.die}), {marks} marked:")
                tip = (f"Repair {system.name} boxes: {BOX_COST} Damage Control energy each; each "
                       f"repaired box lets it roll one die type higher, never above its "
                       f"undamaged d{system.die}.")
                spin.setToolTip(tip)
                label.setToolTip(tip)
                spin.setAccessibleName(f"{system.name} boxes to repair")
            for suit, check in self.crit_checks.items():
                shown = suit in locked
                check.setVisible(shown)
                check.property("cost_label").setVisible(shown)
                check.setChecked(shown and ((suit in plan.criticals) if (reload and plan)
                                            else (check.isChecked() and not reload)))
                check.setToolTip(f"Repair the {SUIT_SYMBOLS[suit]} critical hit: {CRITICAL_COST} "
                                 f"Damage Control energy; {suit} may be played again.")
            self.nothing_label.setVisible(not locked and not any(
                marked_boxes(ship, i) for i in range(len(systems))))
        finally:
            self._loading = False
        self.update_total()

    def _edited(self, *_args) -> None:
        if not self._loading and self.ship is not None:
            self.update_total()

    def budget(self) -> tuple[int | None, str | None]:
        """This turn's Damage Control energy left, or why there is none."""
        try:
            return check_damage_control_energy(self.ship), None
        except RuleViolation as exc:
            return None, str(exc)

    def update_total(self) -> None:
        """The running total against the energy, from the rules; refusal past the budget."""
        ship = self.ship
        session = self.doc.session
        for i, spin in enumerate(self.box_spins):
            self.box_costs[i].setText(f"× {BOX_COST} = {BOX_COST * spin.value()}")
        energy, why_none = self.budget()
        allocation = committed_allocation(ship)
        if energy is None:
            self.budget_label.setText(esc(why_none))
        else:
            spent = allocation.damage_control - energy
            self.budget_label.setText(
                f"<b>Damage Control energy this turn: {allocation.damage_control}</b>"
                + (f" ({spent} spent, {energy} left)" if spent else ""))
        self.problem = None
        plan = None
        try:
            plan = plan_repairs(ship, energy or 0, boxes=self.chosen_boxes(),
                                criticals=self.chosen_criticals())
        except RuleViolation as exc:
            self.problem = str(exc)
        if plan is not None:
            if energy is None:
                self.total_label.setText(f"Total: {plan.cost} energy")
            else:
                self.total_label.setText(f"<b>Total: {plan.cost} of {energy}</b> · "
                                         f"{plan.remaining} left unspent")
        else:
            self.total_label.setText(f"<b>Not allowed:</b> {esc(self.problem)}")
        in_phase = session.phase == DAMAGE_CONTROL_PHASE
        self.plan_button.setText("&Repair now" if in_phase else "&Plan repairs")
        current = planned_repairs(ship)
        if energy is None:
            action_refusal = why_none
        elif plan is not None and plan.is_empty and current is None:
            action_refusal = "Choose the boxes or critical hits to repair."
        else:
            action_refusal = refusal(session, plan_repairs_action(
                ship, self.chosen_boxes(), self.chosen_criticals()))
        self.plan_button.setEnabled(action_refusal is None)
        self.plan_button.setToolTip(action_refusal or (
            "Carry out these repairs now (this is the Damage Control phase)." if in_phase else
            f"Plan these repairs; they take effect when the session reaches the "
            f"{DAMAGE_CONTROL_PHASE} phase (Next Phase in the toolbar)."))
        if current is not None and not current.is_empty:
            self.planned_label.setText(
                "<b>Planned:</b> " + esc(" · ".join(current.describe(ship)))
                + f"<br>They take effect when the session reaches the {DAMAGE_CONTROL_PHASE} "
                "phase (Next Phase in the toolbar).")
        else:
            self.planned_label.setText("No repairs planned.")
        cancel_refusal = refusal(session, cancel_repairs_action(ship))
        self.cancel_button.setEnabled(cancel_refusal is None)
        self.cancel_button.setToolTip(cancel_refusal or "Drop the repairs planned for this turn.")

    # -- actions ------------------------------------------------------------------------------
    def plan(self) -> bool:
        """Plan (or, in the Damage Control phase, carry out) the chosen repairs."""
        if self.ship is None:
            return False
        return self.doc.do(plan_repairs_action(self.ship, self.chosen_boxes(),
                                               self.chosen_criticals()))

    def cancel(self) -> bool:
        if self.ship is None:
            return False
        return self.doc.do(cancel_repairs_action(self.ship))
