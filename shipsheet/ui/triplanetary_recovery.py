"""End of turn (Triplanetary): every damaged ship's recovery choice, maintenance, next turn.

One row per damaged ship; one button per track its owner may recover ("D2 → D1").
A choice the rules refuse is disabled and the reason is written in the row.
Each click is one action (one undo step) through the rules' builders.
"""

from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QGridLayout, QLabel, QPushButton,
                               QScrollArea, QVBoxLayout, QWidget)

from ..model import NextTurn
from ..model.trial import ship_refusal as refusal
from ..rules import triplanetary as tp
from ..rules.triplanetary.combat import combat_system
from ..rules.triplanetary.state import track_title
from .document import SessionDocument
from .plaintext import esc, rich


class RecoveryDialog(QDialog):
    """The end-of-turn recovery choices of every damaged ship."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle("End-of-turn recovery — Triplanetary")
        intro = rich(QLabel("A ship recovers <b>1 D per turn</b>, on the track its owner picks. "
                       "A ship that reaches a base and undergoes maintenance is restored to "
                       "full operating status. Each button is one undo step."))
        intro.setWordWrap(True)
        self.turn_label = QLabel()
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.grid_host)
        #: (ship id, track) -> button; (ship id) -> maintenance button, reason label
        self.buttons: dict[tuple[str, str], QPushButton] = {}
        self.maintain_buttons: dict[str, QPushButton] = {}
        self.reasons: dict[str, QLabel] = {}

        buttons = QDialogButtonBox()
        self.next_turn_button = buttons.addButton("End the &turn", QDialogButtonBox.ButtonRole.ActionRole)
        self.next_turn_button.setToolTip("Finish this turn's phases and start the next turn: "
                                         "every ship may recover again")
        self.next_turn_button.clicked.connect(self.next_turn)
        self.next_turn_button.setAutoDefault(False)  # Enter never ends the turn by accident
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.clicked.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.turn_label)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        self.resize(820, 420)
        doc.changed.connect(self.refresh)

    def ships(self):
        """The ships listed: every damaged one (a destroyed one too, to say why not)."""
        return [s for s in self.doc.session.ships if tp.is_damaged(s) or tp.is_destroyed(s)]

    def showEvent(self, event) -> None:
        self.refresh()
        super().showEvent(event)

    def refresh(self) -> None:
        """Rebuild the rows from the session as it is now (only while shown)."""
        if not self.isVisible():
            return
        session = self.doc.session
        self.turn_label.setText(f"Turn {session.turn} · {session.phase}")
        while self.grid.count():
            item = self.grid.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.buttons.clear()
        self.maintain_buttons.clear()
        self.reasons.clear()
        standard = combat_system(session) == tp.STANDARD
        tracks = list(tp.TRACKS)
        if standard or any(s.state.get(tp.STANDARD_TRACK, 0) for s in session.ships):
            tracks.append(tp.STANDARD_TRACK)
        header = ["Ship"] + [track_title(t) for t in tracks] + ["Base", "Why not"]
        for col, text in enumerate(header):
            label = rich(QLabel(f"<b>{esc(text)}</b>"))
            self.grid.addWidget(label, 0, col)
        ships = self.ships()
        if not ships:
            self.grid.addWidget(QLabel("No ship is damaged: nothing to recover."), 1, 0, 1, len(header))
        for row, ship in enumerate(ships, 1):
            name = rich(QLabel(f"{esc(ship.name)}<br><small>{esc(ship.ship_class.name)}"
                               f"{' · ' + esc(ship.side) if ship.side else ''}</small>"))
            self.grid.addWidget(name, row, 0)
            reasons = []
            if tp.is_destroyed(ship):
                reasons.append(f"{ship.name} is destroyed.")
            elif tp.recovered_this_turn(ship):
                reasons.append("Recovered 1 D this turn already.")
            for col, track in enumerate(tracks, 1):
                level = int(ship.state.get(track, 0) or 0)
                why = refusal(ship, lambda s, t=track: tp.recover(s, t))
                button = QPushButton(f"D{level} → D{level - 1}" if level else "D0")
                button.setAccessibleName(f"Recover 1 {track_title(track).lower()} D for {ship.name}")
                button.setEnabled(why is None)
                button.setToolTip(f"Recover 1 {track_title(track).lower()} D now "
                                  f"(D{level} → D{level - 1})" if why is None else f"Can't: {why}")
                button.clicked.connect(lambda _=False, sid=ship.id, t=track: self.recover(sid, t))
                self.grid.addWidget(button, row, col)
                self.buttons[(ship.id, track)] = button
                if why and level and not tp.is_destroyed(ship) and not tp.recovered_this_turn(ship):
                    reasons.append(why)
            why = refusal(ship, tp.maintain)
            maintain = QPushButton("Maintenance")
            maintain.setAccessibleName(f"Maintenance at a base for {ship.name}")
            maintain.setEnabled(why is None)
            maintain.setToolTip("At a base: every track back to D0" if why is None else f"Can't: {why}")
            maintain.clicked.connect(lambda _=False, sid=ship.id: self.maintain(sid))
            self.grid.addWidget(maintain, row, len(tracks) + 1)
            self.maintain_buttons[ship.id] = maintain
            reason = QLabel(" ".join(reasons))
            reason.setWordWrap(True)
            self.grid.addWidget(reason, row, len(tracks) + 2)
            self.reasons[ship.id] = reason
        self.grid.setRowStretch(len(ships) + 2, 1)
        for col in range(len(header)):  # the "Why not" column takes the spare width
            self.grid.setColumnStretch(col, 1 if col == len(header) - 1 else 0)

    def recover(self, ship_id: str, track: str) -> bool:
        ship = self.doc.session.ship(ship_id)
        return self.doc.do(tp.recover_action(ship, track))

    def maintain(self, ship_id: str) -> bool:
        ship = self.doc.session.ship(ship_id)
        return self.doc.do(tp.maintain_action(ship))

    def next_turn(self) -> bool:
        return self.doc.do(NextTurn())
