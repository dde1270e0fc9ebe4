"""Help > Rules and House Rules: where each game's rules come from, and our own readings."""

from __future__ import annotations

import html
import importlib

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from ..model import GAME_IDS, GAME_TITLES

SOURCES = {
    "war-in-space": "War In Space, part 7: Damage Control (energy allocation with cards and dice, "
                    "repair costs, suit lockouts).",
    "triplanetary": "Triplanetary, Advanced Combat System (to-hit tables, damage table, weapon, drive "
                    "and structure D-tracks); the standard combat table is a session option.",
    "fedcom": "Federation Commander PBEM rule 8FC, the Default Damage Allocation Procedure. "
              "The bundled chart and ships are our own training samples, not the official ones.",
}
_MODULES = {"war-in-space": "war_in_space", "triplanetary": "triplanetary", "fedcom": "fedcom"}


def house_rules(game: str) -> list[tuple[str, str]]:
    """The (topic, text) house readings a game's rules module declares."""
    try:
        module = importlib.import_module(f"shipsheet.rules.{_MODULES[game]}")
    except ModuleNotFoundError:
        return []
    return list(getattr(module, "HOUSE_RULES", []))


def rules_html(game: str) -> str:
    parts = [f"<h2>{html.escape(GAME_TITLES[game])}</h2>",
             f"<p><b>Source:</b> {html.escape(SOURCES[game])}</p>",
             "<p>Where the source text is silent, ShipSheet follows these <b>house rules</b>; "
             "each is marked “House rule” where the sheet uses it.</p>"]
    rules = house_rules(game)
    if rules:
        parts.append("<dl>")
        for topic, text in rules:
            parts.append(f"<dt><b>{html.escape(topic)}</b></dt><dd>{html.escape(text)}</dd>")
        parts.append("</dl>")
    else:
        parts.append("<p><i>No house rules declared.</i></p>")
    return "\n".join(parts)


class RulesHelp(QDialog):
    def __init__(self, parent: QWidget | None = None, game: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("Rules and House Rules")
        self.resize(640, 520)
        tabs = QTabWidget()
        for g in GAME_IDS:
            browser = QTextBrowser()
            browser.setHtml(rules_html(g))
            tabs.addTab(browser, GAME_TITLES[g])
            if g == game:
                tabs.setCurrentIndex(tabs.count() - 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(buttons)
