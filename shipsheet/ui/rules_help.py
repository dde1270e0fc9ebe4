"""Help > Rules and House Rules: where each game's rules come from, and our own readings."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from ..model import GAME_IDS, GAME_TITLES
from ..model.games import piece
from ..model.house import HouseRule
from .layouts import fit_to_screen


def house_rules(game: str) -> list[HouseRule]:
    """The house readings a game declares (its ``house_rules`` piece), each with its id."""
    return list(piece(game, "house_rules"))


def rules_html(game: str) -> str:
    parts = [f"<h2>{html.escape(GAME_TITLES[game])}</h2>",
             f"<p><b>Source:</b> {html.escape(piece(game, 'source'))}</p>",
             "<p>Where the source text is silent, ShipSheet follows these <b>house rules</b>. "
             "Each has a short id (such as TRI-H13): the sheets, dialogs and the log quote it "
             "where the reading is applied.</p>"]
    rules = house_rules(game)
    if rules:
        parts.append("<dl>")
        for rule in rules:
            parts.append(f"<dt><b>{html.escape(rule.id)} · {html.escape(rule.topic)}</b></dt>"
                         f"<dd>{html.escape(rule.text)}</dd>")
        parts.append("</dl>")
    else:
        parts.append("<p><i>No house rules declared.</i></p>")
    return "\n".join(parts)


class RulesHelp(QDialog):
    def __init__(self, parent: QWidget | None = None, game: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("Rules and House Rules")
        fit_to_screen(self, 640, 520)
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
