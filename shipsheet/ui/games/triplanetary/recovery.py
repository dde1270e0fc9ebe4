"""End of turn (Triplanetary): each damaged ship's recovery choice, maintenance, the turn's end.

[seed] "A ship recovers from 1 D a turn ... The ship's owner chooses what kind of damage to
recover from." One row per ship; one button per track its owner may choose ("D2 → D1"),
pressed down on the track the ship will recover when the turn ends. A click sets the
owner's choice: one action, one undo step (the rules' ``choose_recovery_action``). The
column "When the turn ends" says what will happen and why (the owner's choice, the only
track, or the default, house rule TRI-H13).

Opened two ways: from the panel (every damaged ship, and an "End the turn" button), and by
the window's Next Turn when some ships have several tracks and no choice (``asking``: only
those ships; "End the turn" goes on and the default applies to any left open, "Cancel"
keeps the turn). It asks once and never blocks.
"""

from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QGridLayout, QLabel, QPushButton,
                               QScrollArea, QVBoxLayout, QWidget)

from ....model import NextTurn
from ....model.trial import ship_refusal as refusal
from ....rules import triplanetary as tp
from ....rules.triplanetary.combat import combat_system
from ....rules.triplanetary.house import house_rule
from ....rules.triplanetary.recovery import DEFAULT, ONLY, OWNER
from ....rules.triplanetary.state import track_title
from ...document import SessionDocument
from ...layouts import fit_to_screen
from ...plaintext import esc, rich

_HOW = {OWNER: "owner's choice", ONLY: "only track", DEFAULT: "default: highest D (TRI-H13)"}


class RecoveryDialog(QDialog):
    """The end-of-turn recovery choices of the damaged ships (or of ``only`` these)."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None, *,
                 only: list[str] | None = None, asking: bool = False):
        super().__init__(parent)
        self.doc = doc
        self.only = list(only) if only is not None else None
        self.asking = asking
        self.setWindowTitle("Before the turn ends — recovery choices" if asking
                            else "End-of-turn recovery — Triplanetary")
        if asking:
            text = ("These ships can recover on more than one track and their owners have not "
                    "chosen. Pick each one's track, or end the turn: the default applies "
                    "(the highest D-level; ties drive, weapons, structure). Each pick is one "
                    "undo step.")
        else:
            text = ("A ship recovers <b>1 D per turn</b>, on the track its owner picks; a ship "
                    "that has not recovered when the turn ends recovers then, by its owner's "
                    "choice or the default. A ship that reaches a base and undergoes "
                    "maintenance is restored to full operating status. Each button is one "
                    "undo step.")
        intro = rich(QLabel(text if not asking else esc(text)))
        intro.setWordWrap(True)
        intro.setToolTip(house_rule("TRI-H13") + "\n\n" + house_rule("TRI-H14"))
        self.turn_label = QLabel()
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.grid_host)
        #: (ship id, track) -> choice button; ship id -> maintenance button, outcome, reason
        self.buttons: dict[tuple[str, str], QPushButton] = {}
        self.maintain_buttons: dict[str, QPushButton] = {}
        self.outcomes: dict[str, QLabel] = {}
        self.reasons: dict[str, QLabel] = {}

        buttons = QDialogButtonBox()
        self.next_turn_button = buttons.addButton("End the &turn", QDialogButtonBox.ButtonRole.ActionRole)
        self.next_turn_button.setToolTip(
            "Finish this turn: every damaged ship that has not recovered recovers 1 D (its "
            "owner's choice, or the default), and the next turn starts")
        self.next_turn_button.clicked.connect(self.next_turn)
        self.next_turn_button.setAutoDefault(False)  # Enter never ends the turn by accident
        close = buttons.addButton(QDialogButtonBox.StandardButton.Cancel if asking
                                  else QDialogButtonBox.StandardButton.Close)
        close.setToolTip("Keep the turn going" if asking else "Close this window")
        close.clicked.connect(self.reject if asking else self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.turn_label)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        fit_to_screen(self, 900, 420)
        doc.changed.connect(self.refresh)

    def ships(self):
        """The ships listed: ``only`` these, else every damaged one (a destroyed one too, to
        say why not)."""
        session = self.doc.session
        if self.only is not None:
            known = {s.id for s in session.ships}
            return [session.ship(i) for i in self.only if i in known]
        return [s for s in session.ships if tp.is_damaged(s) or tp.out_of_play(s)]

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
        self.outcomes.clear()
        self.reasons.clear()
        standard = combat_system(session) == tp.STANDARD
        tracks = tp.tracks_shown(session.ships, standard=standard)
        header = (["Ship"] + [track_title(t) for t in tracks]
                  + ["When the turn ends", "Base", "Why not"])
        for col, text in enumerate(header):
            self.grid.addWidget(rich(QLabel(f"<b>{esc(text)}</b>")), 0, col)
        ships = self.ships()
        if not ships:
            self.grid.addWidget(QLabel("No ship is damaged: nothing to recover."), 1, 0, 1, len(header))
        for row, ship in enumerate(ships, 1):
            self._row(row, ship, tracks, standard)
        self.grid.setRowStretch(len(ships) + 2, 1)
        for col in range(len(header)):  # the "Why not" column takes the spare width
            self.grid.setColumnStretch(col, 1 if col == len(header) - 1 else 0)

    def _row(self, row: int, ship, tracks: list[str], standard: bool) -> None:
        name = rich(QLabel(f"{esc(ship.name)}<br><small>{esc(ship.ship_class.name)}"
                           f"{' · ' + esc(ship.side) if ship.side else ''}</small>"))
        self.grid.addWidget(name, row, 0)
        planned = tp.planned_recovery(ship, standard=standard)
        reasons = []
        gone = tp.out_of_play(ship)
        if gone:
            reasons.append(f"{ship.name} is {gone}.")
        elif tp.recovered_this_turn(ship):
            reasons.append("Recovered 1 D this turn already.")
        available = tp.recoverable_tracks(ship)
        for col, track in enumerate(tracks, 1):
            level = tp.track_level(ship, track)
            button = QPushButton(f"D{level} → D{level - 1}" if level else "D0")
            button.setCheckable(True)
            button.setChecked(planned is not None and planned[0] == track)
            button.setAccessibleName(f"Recover 1 {track_title(track).lower()} D for {ship.name} "
                                     "when the turn ends")
            if track == tp.STANDARD_TRACK:
                why = (None if track in available else
                       refusal(ship, lambda s, t=track: tp.recover_one(s, t)))
                button.setEnabled(False)  # [TRI-H9] no choice to make
                button.setToolTip("Standard combat: the single disabled track recovers by "
                                  "itself." if why is None else f"Can't: {why}")
            else:
                why = (None if track in available else
                       refusal(ship, lambda s, t=track: tp.recover_one(s, t)))
                button.setEnabled(why is None and not standard)
                button.setToolTip(f"Choose: recover 1 {track_title(track).lower()} D when the "
                                  f"turn ends (D{level} → D{level - 1})" if why is None
                                  else f"Can't: {why}")
                button.clicked.connect(lambda _=False, sid=ship.id, t=track: self.choose(sid, t))
            self.grid.addWidget(button, row, col)
            self.buttons[(ship.id, track)] = button
            if why and level and not gone and not tp.recovered_this_turn(ship):
                reasons.append(why)
        if planned is None:
            outcome = "nothing" if not gone else "—"
        else:
            track, how = planned
            level = tp.track_level(ship, track)
            outcome = (f"{track_title(track).lower()} D{level} → D{level - 1} "
                       f"({_HOW.get(how, how)})")
        label = QLabel(outcome)
        label.setAccessibleName(f"{ship.name} when the turn ends")
        self.grid.addWidget(label, row, len(tracks) + 1)
        self.outcomes[ship.id] = label
        why = refusal(ship, tp.maintain)
        maintain = QPushButton("Maintenance")
        maintain.setAccessibleName(f"Maintenance at a base for {ship.name}")
        maintain.setEnabled(why is None)
        maintain.setToolTip("At a base: every track back to D0" if why is None else f"Can't: {why}")
        maintain.clicked.connect(lambda _=False, sid=ship.id: self.maintain(sid))
        self.grid.addWidget(maintain, row, len(tracks) + 2)
        self.maintain_buttons[ship.id] = maintain
        reason = QLabel(" ".join(reasons))
        reason.setWordWrap(True)
        self.grid.addWidget(reason, row, len(tracks) + 3)
        self.reasons[ship.id] = reason

    def choose(self, ship_id: str, track: str) -> bool:
        """The owner picks ``track``: one action (none when it is already the ship's choice)."""
        ship = self.doc.session.ship(ship_id)
        if tp.recovery_choice(ship)[:1] == (track,):
            self.refresh()  # keep the button pressed
            return False
        done = self.doc.do(tp.choose_recovery_action(ship, track))
        if not done:
            self.refresh()
        return done

    def maintain(self, ship_id: str) -> bool:
        ship = self.doc.session.ship(ship_id)
        return self.doc.do(tp.maintain_action(ship))

    def next_turn(self) -> bool:
        """End the turn. Asked by the window: hand back to it (it ends the turn)."""
        if self.asking:
            self.accept()
            return True
        return self.doc.do(NextTurn())


def ask_before_turn_end(doc: SessionDocument, parent: QWidget | None, ship_ids: list[str]) -> bool:
    """The window's question before a turn ends: True to end it, False to keep it."""
    dialog = RecoveryDialog(doc, parent, only=ship_ids, asking=True)
    try:
        return dialog.exec() == QDialog.DialogCode.Accepted
    finally:
        doc.changed.disconnect(dialog.refresh)
        dialog.deleteLater()
