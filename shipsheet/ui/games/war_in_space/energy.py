"""War In Space Energy Allocation: play a card, roll or type the dice, see the energy, commit.

The table is worked out live by :func:`allocate_energy` (a pure calculation);
Commit applies :func:`commit_allocation_action` (one undo step, logged). Roll
applies :func:`roll_energy_action`, which rolls each system's current die with
the session dice. Every refusal shown here is the rules' own message.
"""

from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QButtonGroup, QCheckBox, QComboBox,
                               QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QRadioButton, QSpinBox, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from ....model import RuleViolation, Session, Ship
from ....model.trial import refusal
from ....rules.war_in_space import (SUIT_SYMBOLS, SUITS, Card, EnergyAllocation, allocate_energy,
                                  check_card_playable, commit_allocation_action,
                                  committed_allocation, committed_sides, current_die,
                                  die_label, house_rule,
                                  locked_suits, roll_energy_action, rolled_dice)
from ....rules.war_in_space.terms import (ACTION_TITLES, ACTIONS, ENERGY_ACTIONS, JOKER, RANKS,
                                        parse_card)
from ...document import SessionDocument
from ...plaintext import esc, rich

JOKER_TEXT = "Joker"
JOKER_NOTE = ("Joker revealed: you may still announce Damage Control (all three dice go to "
              "it). Without it, choose the action for each die (house rule).")


def _keep_room(widget: QWidget) -> None:
    """Hidden, the widget keeps its room: what is below it never moves under the pointer."""
    policy = widget.sizePolicy()
    policy.setRetainSizeWhenHidden(True)
    widget.setSizePolicy(policy)
SUIT_LABELS = {"spades": "♠ &Spades", "hearts": "♥ &Hearts", "diamonds": "♦ D&iamonds",
               "clubs": "♣ &Clubs"}
#: Highest die sides on the ladder: the spin boxes take any value up to it and
#: the rules say whether it is possible on the system's current die.
MAX_DIE = 12


def card_code(rank: str, suit: str | None) -> str | None:
    """"4D", "JOKER", or None when a suited rank has no suit chosen."""
    if rank == JOKER_TEXT:
        return Card(JOKER).code
    if suit is None:
        return None
    return Card(rank, suit).code


class EnergyAllocationBox(QGroupBox):
    """The Energy Allocation part of the War In Space panel."""

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__("Energy Allocation", parent)
        self.doc = doc
        self.ship: Ship | None = None
        self._loading = False
        self.allocation: EnergyAllocation | None = None
        self.problem: str | None = None
        self._refused = False

        layout = QVBoxLayout(self)
        self.state_label = rich(QLabel())  # our markup
        self.state_label.setWordWrap(True)
        layout.addWidget(self.state_label)

        # -- the card -----------------------------------------------------------
        card_row = QHBoxLayout()
        rank_label = QLabel("&Rank:")
        self.rank = QComboBox()
        self.rank.addItems([*RANKS, JOKER_TEXT])
        self.rank.setAccessibleName("Card rank")
        self.rank.setToolTip("The rank of the Energy Allocation card played: Ace to 10, a face "
                             "card (J, Q, K) or the Joker.")
        rank_label.setBuddy(self.rank)
        card_row.addWidget(rank_label)
        card_row.addWidget(self.rank)
        card_row.addStretch(1)
        layout.addLayout(card_row)

        suit_grid = QGridLayout()
        self.suit_group = QButtonGroup(self)
        self.suit_buttons: dict[str, QRadioButton] = {}
        for n, suit in enumerate(SUITS):
            button = QRadioButton(SUIT_LABELS[suit])
            button.setAccessibleName(f"{suit} suit")
            self.suit_group.addButton(button, n)
            self.suit_buttons[suit] = button
            suit_grid.addWidget(button, n // 2, n % 2)
        layout.addLayout(suit_grid)

        self.damage_control = QCheckBox("Announce &Damage Control")
        self.damage_control.setToolTip(
            "Announce Damage Control while playing the card (seed): Ace–10 put the highest die "
            "into Damage Control, the middle into the Primary action, the lowest into the "
            "Secondary; J, Q, K put highest + middle into Damage Control, the lowest into the "
            "Primary; a Joker puts all three dice into it. With a Joker it may also be announced "
            "after the Joker is revealed.")
        layout.addWidget(self.damage_control)
        self.joker_note = QLabel(JOKER_NOTE)
        self.joker_note.setWordWrap(True)
        # Its room is kept when it is hidden: "Roll dice" never moves under the pointer.
        _keep_room(self.joker_note)
        layout.addWidget(self.joker_note)

        # -- the dice -------------------------------------------------------------
        dice_grid = QGridLayout()
        self.dice_labels: list[QLabel] = []
        self.dice: list[QSpinBox] = []
        self.assign_labels: list[QLabel] = []
        self.assign: list[QComboBox] = []
        for i in range(3):
            label = QLabel()
            spin = QSpinBox()
            spin.setRange(0, MAX_DIE)
            spin.setSpecialValueText("–")
            label.setBuddy(spin)
            combo = QComboBox()
            for action in ACTIONS:
                combo.addItem(ACTION_TITLES[action], action)
            combo.setToolTip("Joker without Damage Control: the action this die's energy goes to "
                             "(house rule: Attack, Defense or Movement, not Damage Control).")
            alabel = QLabel("→")
            alabel.setBuddy(combo)
            _keep_room(combo)
            _keep_room(alabel)
            dice_grid.addWidget(label, i, 0)
            dice_grid.addWidget(spin, i, 1)
            dice_grid.addWidget(alabel, i, 2)
            dice_grid.addWidget(combo, i, 3)
            self.dice_labels.append(label)
            self.dice.append(spin)
            self.assign_labels.append(alabel)
            self.assign.append(combo)
        dice_grid.setColumnStretch(3, 1)
        layout.addLayout(dice_grid)

        buttons = QHBoxLayout()
        self.roll_button = QPushButton("R&oll dice")
        self.roll_button.setToolTip("Roll each system's current die with the session dice "
                                    "(logged). Or type the physical dice in the boxes above.")
        buttons.addWidget(self.roll_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)

        # -- the allocation ----------------------------------------------------------
        self.table = QTableWidget(len(ENERGY_ACTIONS), 2)
        self.table.setHorizontalHeaderLabels(["Energy", "Suit table"])
        self.table.setVerticalHeaderLabels([ACTION_TITLES[a] for a in ENERGY_ACTIONS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAccessibleName("Energy for each action")
        self.table.setToolTip("The energy each action gets from the card and the dice, worked "
                              "out by the rules as you choose.")
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for row in range(len(ENERGY_ACTIONS)):
            for col in range(2):
                item = QTableWidgetItem("")
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, col, item)
        self._fit_table()
        layout.addWidget(self.table)

        self.message = rich(QLabel())  # our markup; what comes from elsewhere goes through esc()
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Energy Allocation message")
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)

        commit_row = QHBoxLayout()
        self.commit_button = QPushButton("Co&mmit allocation")
        self.commit_button.setToolTip("Commit this allocation as the ship's energy for the turn "
                                      "(one undo step, logged).")
        commit_row.addStretch(1)
        commit_row.addWidget(self.commit_button)
        layout.addLayout(commit_row)

        self.rank.currentIndexChanged.connect(self._edited)
        self.suit_group.idToggled.connect(self._suit_toggled)
        self.damage_control.toggled.connect(self._edited)
        for spin in self.dice:
            spin.valueChanged.connect(self._edited)
        for combo in self.assign:
            combo.currentIndexChanged.connect(self._edited)
        self.roll_button.clicked.connect(self.roll)
        self.commit_button.clicked.connect(self.commit)

    def _fit_table(self) -> None:
        self.table.resizeRowsToContents()
        height = self.table.horizontalHeader().sizeHint().height() + 4
        height += sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setFixedHeight(height)

    # -- reading the controls --------------------------------------------------------
    @property
    def session(self) -> Session:
        return self.doc.session

    def chosen_suit(self) -> str | None:
        n = self.suit_group.checkedId()
        return SUITS[n] if n >= 0 else None

    def chosen_card(self) -> str | None:
        return card_code(self.rank.currentText(), self.chosen_suit())

    def chosen_dice(self) -> list[int]:
        return [spin.value() for spin in self.dice]

    def joker_assignment(self) -> list[str] | None:
        if self.rank.currentText() != JOKER_TEXT or self.damage_control.isChecked():
            return None
        return [combo.currentData() for combo in self.assign]

    # -- showing a ship -----------------------------------------------------------------
    def set_ship(self, ship: Ship | None, keep: bool) -> None:
        """Show ``ship``; ``keep`` keeps the card and dice being chosen (same ship)."""
        self.ship = ship
        self.setEnabled(ship is not None)
        if ship is None:
            return
        self._loading = True
        try:
            committed = committed_allocation(ship)
            rolled = rolled_dice(ship)
            if committed is not None:
                self._show_card(committed.card, committed.damage_control_announced)
            elif not keep:
                self._show_card(None, False)
            rolled_on = committed_sides(ship)
            for i, system in enumerate(ship.ship_class.spec.systems):
                sides = current_die(ship, i)
                label = self.dice_labels[i]
                spin = self.dice[i]
                # A committed roll is shown with the die it was made on (a box marked since
                # steps the die down; "Reactor (d8): 9" would read as impossible).
                shown = rolled_on[i] if rolled_on is not None else sides
                label.setText(f"{system.name} ({die_label(shown)}):")
                if committed is not None:
                    spin.setValue(committed.dice[i])
                elif rolled is not None:
                    spin.setValue(rolled[i])
                elif sides == 0 or not keep:
                    spin.setValue(0)
                fixed = committed is not None or rolled is not None or sides == 0
                spin.setReadOnly(fixed)
                spin.setEnabled(not (sides == 0 and committed is None and rolled is None))
                spin.setSpecialValueText("0" if sides == 0 else "–")
                spin.setAccessibleName(f"{system.name} die")
                if committed is not None:
                    tip = (f"{system.name} rolled {committed.dice[i]} on its {die_label(shown)} "
                           "this turn (committed)."
                           + (f" Its die is {die_label(sides)} now." if shown != sides else ""))
                elif sides == 0:
                    tip = (f"{system.name} produces no energy: all its boxes are marked, so its "
                           f"die counts 0.\n\n{house_rule('A system at 0')}")
                elif rolled is not None:
                    tip = (f"{system.name} rolled {rolled[i]} on its d{sides} this turn. Undo the "
                           f"roll to type physical dice instead.")
                else:
                    tip = (f"{system.name} rolls a d{sides} now: type the physical die (1 to "
                           f"{sides}), or press Roll.")
                spin.setToolTip(tip)
                label.setToolTip(tip)
            inputs_free = committed is None
            self.rank.setEnabled(inputs_free)
            self.damage_control.setEnabled(inputs_free)
            for combo in self.assign:
                combo.setEnabled(inputs_free)
        finally:
            self._loading = False
        self._update_suits()
        self.update_preview()

    def _show_card(self, code: str | None, damage_control: bool) -> None:
        if code is None:
            self.rank.setCurrentIndex(0)
            self._check_suit(None)
        else:
            card = parse_card(code)
            self.rank.setCurrentText(JOKER_TEXT if card.is_joker else card.rank)
            self._check_suit(card.suit)
        self.damage_control.setChecked(damage_control)

    def _check_suit(self, suit: str | None) -> None:
        self.suit_group.setExclusive(False)
        for s, button in self.suit_buttons.items():
            button.setChecked(s == suit)
        self.suit_group.setExclusive(True)

    def _update_suits(self) -> None:
        """Locked suits disabled, each with the rule's reason in its tooltip."""
        ship = self.ship
        committed = committed_allocation(ship)
        rank = self.rank.currentText()
        joker = rank == JOKER_TEXT
        locked = set(locked_suits(ship))
        for suit, button in self.suit_buttons.items():
            sym = SUIT_SYMBOLS[suit]
            if suit in locked:
                try:
                    check_card_playable(ship, Card("A" if joker else rank, suit))
                    reason = ""
                except RuleViolation as exc:
                    reason = str(exc)
                button.setToolTip(f"{sym} {suit.capitalize()}: locked out.\n{reason}")
                button.setEnabled(False)
            else:
                button.setToolTip(f"Play a card of {suit} ({sym}); the suit table gives its "
                                  f"Primary and Secondary actions.")
                button.setEnabled(committed is None and not joker)
        if joker:
            if committed is None:  # a Joker has no suit
                self._loading = True
                self._check_suit(None)
                self._loading = False
            return
        current = self.chosen_suit()
        if committed is None and (current is None or current in locked):
            free = [s for s in SUITS if s not in locked]
            self._loading = True
            self._check_suit(free[0] if free else None)
            self._loading = False

    # -- live preview -------------------------------------------------------------------
    def _suit_toggled(self, _id: int, checked: bool) -> None:
        if checked:
            self._edited()

    def _edited(self, *_args) -> None:
        if self._loading or self.ship is None:
            return
        self._update_suits()
        self.update_preview()

    def update_preview(self) -> None:
        """Work out the allocation with the rules and show it, or show why not."""
        ship = self.ship
        joker = self.rank.currentText() == JOKER_TEXT
        assigning = joker and not self.damage_control.isChecked()
        for label, combo in zip(self.assign_labels, self.assign):
            label.setVisible(assigning)
            combo.setVisible(assigning)
        committed = committed_allocation(ship)
        shown = joker and committed is None
        self.joker_note.setToolTip(house_rule("Allocation without Damage Control") + "\n\n"
                                   + house_rule("Jokers are never locked") if shown else "")
        self.joker_note.setVisible(shown)

        self.allocation, self.problem = None, None
        refused = False  # a rule refused the card or the dice (not merely a missing choice)
        if committed is not None:
            self.allocation = committed
        else:
            code = self.chosen_card()
            dice = self.chosen_dice()
            missing = [self.dice_labels[i].text().rstrip(":") for i in range(3)
                       if dice[i] == 0 and current_die(ship, i)]
            if code is None:
                self.problem = ("Choose a suit. All four suits are locked out by critical hits: "
                                "only a Joker can be played." if len(locked_suits(ship)) == 4
                                else "Choose the card's suit.")
            elif missing:
                self.problem = (f"Roll the dice, or type the physical dice ({', '.join(missing)} "
                                f"still blank).")
            else:
                try:
                    self.allocation = allocate_energy(
                        ship, code, dice, damage_control=self.damage_control.isChecked(),
                        joker_assignment=self.joker_assignment())
                except RuleViolation as exc:
                    self.problem = str(exc)
                    refused = True
        self._refused = refused
        self._show_table(self.allocation)
        self._update_buttons(committed)

    def _show_table(self, allocation: EnergyAllocation | None) -> None:
        spec = self.ship.ship_class.spec
        card = parse_card(allocation.card) if allocation is not None and allocation.card else None
        if card is None and self.chosen_card():
            try:
                card = parse_card(self.chosen_card())
            except RuleViolation:
                card = None
        roles = {}
        if card is not None and not card.is_joker:
            row = spec.suit(card.suit)
            roles = {row.primary: "Primary", row.secondary: "Secondary", row.tertiary: "Tertiary"}
        elif card is not None:
            roles = {a: "assigned" for a in ACTIONS}
        for r, key in enumerate(ENERGY_ACTIONS):
            value = "" if allocation is None else str(getattr(allocation, key))
            self.table.item(r, 0).setText(value)
            self.table.item(r, 1).setText(roles.get(key, ""))

    def _update_buttons(self, committed: EnergyAllocation | None) -> None:
        ship = self.ship
        session = self.session
        if committed is not None:
            dc = " with Damage Control" if committed.damage_control_announced else ""
            self.state_label.setText(
                f"<b>Committed:</b> {esc(parse_card(committed.card).label)}{dc}, dice "
                f"{', '.join(map(str, committed.dice))}. Undo to change it.")
        elif rolled_dice(ship) is not None:
            self.state_label.setText("Dice rolled; choose the card and commit.")
        else:
            self.state_label.setText(f"Turn {session.turn}, {esc(session.phase)} phase: play a "
                                     "card, roll or type the dice, commit.")
        roll_refusal = refusal(session, roll_energy_action(ship))
        self.roll_button.setEnabled(roll_refusal is None)
        self.roll_button.setToolTip(roll_refusal or "Roll each system's current die with the "
                                    "session dice (logged, one undo step). Or type the physical "
                                    "dice in the boxes above.")
        if committed is not None:
            commit_refusal = "This turn's energy is committed; undo the commit to change it."
        elif self.allocation is None:
            commit_refusal = self.problem
        else:
            commit_refusal = refusal(session, commit_allocation_action(ship, self.allocation))
        self.commit_button.setEnabled(commit_refusal is None)
        self.commit_button.setToolTip(commit_refusal or (
            f"Commit {self.allocation.describe()} as this turn's energy (one undo step, logged)."))
        if committed is not None:
            self.message.setText("Energy not spent this turn is lost at the end of the turn "
                                 "(house rule).")
            self.message.setToolTip(house_rule("Unspent energy is lost"))
        elif commit_refusal and self.allocation is not None:
            reason = esc(commit_refusal)
            self.message.setText(f"<b>Can't commit now:</b> {reason}")
            self.message.setToolTip("")
        elif self.problem:
            problem = esc(self.problem)
            self.message.setText(f"<b>Not allowed:</b> {problem}" if self._refused else problem)
            self.message.setToolTip("")
        else:
            self.message.setText(esc(self.allocation.describe()))
            self.message.setToolTip("")

    # -- actions ---------------------------------------------------------------------------
    def roll(self) -> bool:
        """Roll the current dice with the session dice (one undo step)."""
        if self.ship is None:
            return False
        return self.doc.do(roll_energy_action(self.ship))

    def commit(self) -> bool:
        """Commit the allocation shown (one undo step); a refusal is shown in the panel."""
        if self.ship is None:
            return False
        self.update_preview()
        if self.allocation is None or committed_allocation(self.ship) is not None:
            if self.problem:
                self.doc.refused.emit(self.problem)
            return False
        return self.doc.do(commit_allocation_action(self.ship, self.allocation))
