"""Triplanetary: combat strength, the flags the rules read, fuel, fuel store and cargo."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QFormLayout, QHBoxLayout, QLabel, QSpinBox, QWidget

from ....rules.triplanetary.definitions import UNLIMITED
from ....model.classfiles import top_key
from ...designer.editor_base import GameEditor, bool_of, int_of
from ...designer.widgets import ErrorLabel, spin
from ...plaintext import rich

#: The flags, each with what it means at the table (from the definitions' docstring).
FLAGS = (
    ("defensive_only", "&Defensive only (\"D\")",
     "The \"D\" after the strength: the ship never attacks or counterattacks [2018]."),
    ("commercial", "Commercia&l", "A commercial ship (transport, packet, tanker, liner) [2018]."),
    ("dreadnaught", "Dreadnaug&ht",
     "May still fire with weapons D1–D3, though not drop ordnance [seed]."),
    ("mine_layer", "Mine la&yer",
     "Weapon hits only stop it launching mines: transports and packets [seed]."),
    ("fixed", "Fi&xed", "Never maneuvers: the orbital base [2018]."),
)


class AmountField(QWidget):
    """A whole number, or "unlimited" (the torch's fuel, the base's cargo)."""

    def __init__(self, name: str, tip: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.number: QSpinBox = spin(0, 999_999, 0, tip=tip)
        self.number.setMinimumWidth(110)
        self.number.setAccessibleName(name)
        self.unlimited = QCheckBox("unlimited")
        self.unlimited.setToolTip(f"{name}: unlimited")
        self.unlimited.toggled.connect(self.number.setDisabled)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.number)
        layout.addWidget(self.unlimited)
        layout.addStretch(1)

    def set_value(self, value) -> None:
        unlimited = isinstance(value, str) and value.strip().lower() == UNLIMITED
        self.unlimited.setChecked(unlimited)
        self.number.setValue(int_of(value, 0))

    def value(self):
        return UNLIMITED if self.unlimited.isChecked() else self.number.value()


class TriplanetaryEditor(GameEditor):
    """One Triplanetary ship type."""

    game = "triplanetary"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.combat = spin(0, 999_999, 2, tip="Combat strength (the number on the counter).")
        self.combat.setMinimumWidth(110)
        self.combat.setAccessibleName("Combat strength")
        self.printed = rich(QLabel())  # our markup: numbers only
        self.printed.setToolTip("The strength as printed on the counter.")
        combat_row = QHBoxLayout()
        combat_row.addWidget(self.combat)
        combat_row.addWidget(self.printed)
        combat_row.addStretch(1)
        self.flags: dict[str, QCheckBox] = {}
        for key, text, tip in FLAGS:
            box = QCheckBox(text)
            box.setToolTip(tip)
            box.toggled.connect(self._changed)
            self.flags[key] = box
        self.fuel = AmountField("Fuel", "Fuel points the ship carries.")
        self.fuel_store = AmountField("Fuel store", "Fuel it holds for other ships "
                                                    "(the orbital base's unlimited store).")
        self.cargo = AmountField("Cargo", "Cargo capacity in tons.")
        self.error = ErrorLabel()
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        combat_label = QLabel("Com&bat strength:")
        combat_label.setBuddy(self.combat)
        form.addRow(combat_label, combat_row)
        for key, _text, tip in FLAGS:
            row = QHBoxLayout()
            row.addWidget(self.flags[key])
            hint = QLabel(tip)
            hint.setWordWrap(True)
            hint.setStyleSheet("color: palette(placeholder-text);")
            row.addWidget(hint, 1)
            form.addRow("", row)
        for text, amount in (("Fu&el:", self.fuel), ("Fuel sto&re:", self.fuel_store),
                             ("C&argo (t):", self.cargo)):
            label = QLabel(text)
            label.setBuddy(amount.number)
            form.addRow(label, amount)
        form.addRow("", self.error)
        self.fill_scrolling(form)
        self.combat.valueChanged.connect(self._changed)
        for amount in (self.fuel, self.fuel_store, self.cargo):
            amount.number.valueChanged.connect(self._changed)
            amount.unlimited.toggled.connect(self._changed)
        self._refresh()

    def load(self, data: dict) -> None:
        self._loading = True
        try:
            self.combat.setValue(int_of(data.get("combat"), 0))
            for key, box in self.flags.items():
                box.setChecked(bool_of(data.get(key)))
            self.fuel.set_value(data.get("fuel", 0))
            self.fuel_store.set_value(data.get("fuel_store", 0))
            self.cargo.set_value(data.get("cargo", 0))
        finally:
            self._loading = False
        self._refresh()

    def values(self) -> dict:
        out: dict = {"combat": self.combat.value(),
                     "defensive_only": self.flags["defensive_only"].isChecked(),
                     "commercial": self.flags["commercial"].isChecked(),
                     "fuel": self.fuel.value(), "cargo": self.cargo.value()}
        for key in ("dreadnaught", "mine_layer", "fixed"):
            if self.flags[key].isChecked():
                out[key] = True
        if self.fuel_store.value() != 0:
            out["fuel_store"] = self.fuel_store.value()
        return out

    def _changed(self, *_args) -> None:
        self._refresh()
        self.emit_changed()

    def _refresh(self) -> None:
        d = "D" if self.flags["defensive_only"].isChecked() else ""
        self.printed.setText(f"printed: <b>{self.combat.value()}{d}</b>")

    def locate(self, path: str):
        key = top_key(path)
        if key == "combat":
            return self.combat, self.error
        if key in self.flags:
            return self.flags[key], self.error
        if key in ("fuel", "fuel_store", "cargo"):
            return getattr(self, key).number, self.error
        return None

