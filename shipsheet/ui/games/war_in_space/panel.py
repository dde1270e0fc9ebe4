"""The War In Space actions panel: Energy Allocation and the Damage Control planner.

It shows the current ship of the session, follows the document's signals,
and makes every change through ``doc.do`` (one click, one undo step). Damage
itself is marked by clicking the sheet.
"""

from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget)

from ....rules.war_in_space import house_rule, is_dead_in_space
from ....rules.war_in_space.game import DAMAGE_CONTROL_PHASE
from ...document import SessionDocument
from ...layouts import ColumnScroll
from ...plaintext import esc, rich
from .energy import EnergyAllocationBox
from .repairs import DamageControlPlanner


class Panel(ColumnScroll):
    """Energy Allocation (card, dice, table, commit) and Damage Control (repairs) for a ship."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self._shown: tuple[str, int] | None = None
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        body = QWidget()
        layout = QVBoxLayout(body)
        self.heading = rich(QLabel())  # our markup; names go through esc()
        self.heading.setWordWrap(True)
        self.heading.setAccessibleName("Ship and phase")
        layout.addWidget(self.heading)
        self.phase_hint = rich(QLabel())
        self.phase_hint.setWordWrap(True)
        self.phase_hint.setToolTip(house_rule("Turn sequence"))
        layout.addWidget(self.phase_hint)
        self.energy = EnergyAllocationBox(doc)
        layout.addWidget(self.energy)
        self.repairs = DamageControlPlanner(doc)
        layout.addWidget(self.repairs)
        self.marking_hint = rich(QLabel(
            "<small>Mark damage on the sheet: click a system box (its die steps down) or a "
            "critical box (its suit is locked out). Right-click a marked box to correct a "
            "mistaken mark.</small>"))
        self.marking_hint.setWordWrap(True)
        layout.addWidget(self.marking_hint)
        row = QHBoxLayout()
        self.rules_button = QPushButton("House r&ules…")
        self.rules_button.setToolTip("Where the published rules are silent, ShipSheet follows "
                                     "house rules; read them all.")
        self.rules_button.clicked.connect(self.show_house_rules)
        row.addWidget(self.rules_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(1)
        self.setWidget(body)  # as wide as the column needs (ColumnScroll), no narrower
        # Bound methods: Qt drops these connections when the panel goes.
        doc.changed.connect(self.refresh)
        doc.selection_changed.connect(self.refresh)
        self.refresh()

    def sizeHint(self):
        """Wide enough for the panel's contents, so the dock opens without clipping."""
        hint = super().sizeHint()
        body = self.widget().sizeHint()
        hint.setWidth(max(hint.width(), body.width() + self.verticalScrollBar().sizeHint().width()
                          + 4))
        return hint

    def refresh(self, *_args) -> None:
        """Show the document's current ship (keeping a choice in progress for the same ship)."""
        ship = self.doc.current_ship
        session = self.doc.session
        # A choice in progress is kept for the same ship in the same turn (e.g. after an undo).
        key = (ship.id, session.turn) if ship is not None else None
        keep = key is not None and key == self._shown
        self._shown = key
        if ship is None:
            self.heading.setText("<b>No ship selected.</b> Add a ship or pick one in the roster.")
            self.phase_hint.setText("")
        else:
            dead = " — <b>Dead in space</b>" if is_dead_in_space(ship) else ""
            name = esc(ship.name)
            self.heading.setText(f"<b>{name}</b>{dead}<br>Turn {session.turn} · "
                                 f"{esc(session.phase)} phase")
            phases = session.rules.phases
            index = phases.index(session.phase) if session.phase in phases else -1
            upcoming = phases[index + 1] if index + 1 < len(phases) else "the next turn"
            hint = f"Next Phase (toolbar, Ctrl+→) goes on to {upcoming}."
            if DAMAGE_CONTROL_PHASE in phases[index + 1:]:
                hint += (f" Planned repairs take effect when the session reaches the "
                         f"{DAMAGE_CONTROL_PHASE} phase.")
            self.phase_hint.setText(f"<small>{esc(hint)}</small>")
        self.energy.set_ship(ship, keep)
        self.repairs.set_ship(ship, keep)

    def show_house_rules(self) -> None:
        from ...rules_help import RulesHelp
        RulesHelp(self.window(), "war-in-space").exec()
