"""War In Space: size class, the three energy systems (die and boxes), the suit table."""

from __future__ import annotations

import re

from PySide6.QtWidgets import (QComboBox, QFormLayout, QGridLayout, QGroupBox, QLabel, QLineEdit,
                               QWidget)

from ....rules.war_in_space.definition import SYSTEM_COUNT
from ....rules.war_in_space.terms import ACTIONS, DIE_LADDER, SUIT_SYMBOLS, SUITS
from ...designer.editor_base import GameEditor, int_of, text_of
from ...designer.widgets import ErrorLabel, combo, set_combo_text, spin
from ...plaintext import esc, rich

DIES = tuple(f"d{d}" for d in DIE_LADDER)
_SYSTEM = re.compile(r"^systems\[(\d+)\](?:\.(name|die|boxes))?")
_SUIT = re.compile(r"^suits\.(spades|hearts|diamonds|clubs)(?:\[(\d+)\])?")


def ladder_hint(die_text: str) -> str:
    """``d10`` -> ``d10 → d8 → d6 → d4 → 0: up to 4 boxes`` (spec: one box per step down)."""
    try:
        top = DIE_LADDER.index(int(die_text.strip().lower().lstrip("d")))
    except ValueError:
        return ""
    steps = [f"d{d}" for d in reversed(DIE_LADDER[:top])] + ["0"]
    return f"→ {' → '.join(steps)}: up to {len(steps)} box{'es' if len(steps) > 1 else ''}"


class WarInSpaceEditor(GameEditor):
    """The Ship Data Sheet of a War In Space class."""

    game = "war-in-space"
    head_keys = ("size",)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.size = QLineEdit()
        self.size.setPlaceholderText("e.g. Escort, Cruiser, Battleship")
        self.size.setToolTip("The ship's size class, free text, shown on the sheet.")
        self.size.setAccessibleName("Size class")
        self.size_error = ErrorLabel()

        systems = QGroupBox("Energy systems — three, one per energy die")
        grid = QGridLayout(systems)
        for col, text in enumerate(("Name", "Undamaged die", "Boxes", "")):
            label = rich(QLabel(f"<b>{esc(text)}</b>"))
            grid.addWidget(label, 0, col)
        self.names: list[QLineEdit] = []
        self.dies: list[QComboBox] = []
        self.boxes = []
        self.hints: list[QLabel] = []
        for i in range(SYSTEM_COUNT):
            name = QLineEdit()
            name.setAccessibleName(f"System {i + 1} name")
            name.setToolTip("The system's name on the sheet (each system its own name).")
            die = combo(DIES, tip="The die this system rolls when undamaged.")
            die.setAccessibleName(f"System {i + 1} die")
            boxes = spin(0, 9, 3, tip="System boxes: each marked box steps the die one type "
                                      "down; a system has at most as many boxes as steps to 0.")
            boxes.setAccessibleName(f"System {i + 1} boxes")
            hint = QLabel()
            hint.setStyleSheet("color: palette(placeholder-text);")
            for col, w in enumerate((name, die, boxes, hint)):
                grid.addWidget(w, i + 1, col)
            name.textEdited.connect(self.emit_changed)
            die.currentIndexChanged.connect(self._picked)
            boxes.valueChanged.connect(self.emit_changed)
            self.names.append(name)
            self.dies.append(die)
            self.boxes.append(boxes)
            self.hints.append(hint)
        grid.setColumnStretch(0, 2)
        grid.setColumnStretch(3, 3)
        self.systems_error = ErrorLabel()
        grid.addWidget(self.systems_error, SYSTEM_COUNT + 1, 0, 1, 4)

        suits = QGroupBox("Suit table — Primary and Secondary action per suit")
        sgrid = QGridLayout(suits)
        for col, text in enumerate(("Suit", "Primary", "Secondary", "Tertiary")):
            sgrid.addWidget(rich(QLabel(f"<b>{esc(text)}</b>")), 0, col)
        self.primary: dict[str, QComboBox] = {}
        self.secondary: dict[str, QComboBox] = {}
        self.tertiary: dict[str, QLabel] = {}
        titles = [a.capitalize() for a in ACTIONS]
        for row, suit in enumerate(SUITS, start=1):
            sgrid.addWidget(QLabel(f"{SUIT_SYMBOLS[suit]}  {suit.capitalize()}"), row, 0)
            p = combo(titles, tip=f"The Primary action of a {suit[:-1]} card.")
            s = combo(titles, tip=f"The Secondary action of a {suit[:-1]} card.")
            p.setAccessibleName(f"{suit.capitalize()} primary")
            s.setAccessibleName(f"{suit.capitalize()} secondary")
            t = QLabel()
            t.setToolTip("The action left out: this suit's Tertiary action [house name].")
            for w in (p, s):
                w.currentIndexChanged.connect(self._picked)
            sgrid.addWidget(p, row, 1)
            sgrid.addWidget(s, row, 2)
            sgrid.addWidget(t, row, 3)
            self.primary[suit], self.secondary[suit], self.tertiary[suit] = p, s, t
        self.suits_error = ErrorLabel()
        sgrid.addWidget(self.suits_error, len(SUITS) + 1, 0, 1, 4)

        form = QFormLayout()
        form.addRow("Si&ze class:", self.size)
        form.addRow("", self.size_error)
        self.fill_scrolling(form, systems, suits)
        self.size.textEdited.connect(self.emit_changed)

    # -- loading and reading ----------------------------------------------------------------
    def load(self, data: dict) -> None:
        self._loading = True
        try:
            self.size.setText(text_of(data.get("size")))
            systems = data.get("systems") if isinstance(data.get("systems"), list) else []
            for i in range(SYSTEM_COUNT):
                entry = systems[i] if i < len(systems) and isinstance(systems[i], dict) else {}
                self.names[i].setText(text_of(entry.get("name")))
                set_combo_text(self.dies[i], text_of(entry.get("die"), "d8").strip().lower())
                self.boxes[i].setValue(int_of(entry.get("boxes"), 1))
            suits = data.get("suits") if isinstance(data.get("suits"), dict) else {}
            for suit in SUITS:
                pair = suits.get(suit) if isinstance(suits.get(suit), list) else []
                first = text_of(pair[0] if pair else None, ACTIONS[0])
                second = text_of(pair[1] if len(pair) > 1 else None, ACTIONS[1])
                set_combo_text(self.primary[suit], first.strip().capitalize())
                set_combo_text(self.secondary[suit], second.strip().capitalize())
        finally:
            self._loading = False
        self._refresh_hints()

    def values(self) -> dict:
        out: dict = {}
        if self.size.text().strip():
            out["size"] = self.size.text().strip()
        out["systems"] = [{"name": self.names[i].text().strip(),
                           "die": self.dies[i].currentText(),
                           "boxes": self.boxes[i].value()} for i in range(SYSTEM_COUNT)]
        out["suits"] = {suit: [self.primary[suit].currentText().lower(),
                               self.secondary[suit].currentText().lower()] for suit in SUITS}
        return out

    def _picked(self, *_args) -> None:
        """A die or a suit's action was picked: the hints follow, the window hears of it."""
        self._refresh_hints()
        self.emit_changed()

    def _refresh_hints(self) -> None:
        for die, hint in zip(self.dies, self.hints):
            hint.setText(ladder_hint(die.currentText()))
        for suit in SUITS:
            used = {self.primary[suit].currentText().lower(), self.secondary[suit].currentText().lower()}
            left = [a for a in ACTIONS if a not in used]
            self.tertiary[suit].setText(left[0].capitalize() if len(left) == 1 else "—")

    # -- errors ---------------------------------------------------------------------------
    def locate(self, path: str):
        if path == "size":
            return self.size, self.size_error
        match = _SYSTEM.match(path)
        if match:
            i = int(match.group(1))
            if i < SYSTEM_COUNT:
                field = match.group(2) or "name"
                widget = {"name": self.names, "die": self.dies, "boxes": self.boxes}[field][i]
                return widget, self.systems_error
        if path == "systems":
            return self.names[0], self.systems_error
        match = _SUIT.match(path)
        if match:
            suit, k = match.group(1), match.group(2)
            widget = self.secondary[suit] if k == "1" else self.primary[suit]
            return widget, self.suits_error
        if path == "suits":
            return self.primary[SUITS[0]], self.suits_error
        return None


__all__ = ["WarInSpaceEditor", "ladder_hint"]
