"""Small dialogs: new session, new ship, unsaved changes, recovery, about."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel,
                               QLineEdit, QListWidget, QListWidgetItem, QMessageBox, QVBoxLayout,
                               QWidget)

from ..version import __version__
from ..model import GAME_IDS, GAME_TITLES, get_game
from ..model.library import library_problems, list_classes
from ..model.ship import unique_name
from .plaintext import rich


def game_combo(current: str | None = None) -> QComboBox:
    combo = QComboBox()
    for game in GAME_IDS:
        combo.addItem(GAME_TITLES[game], game)
    if current:
        combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


class NewSessionDialog(QDialog):
    """Pick a game and a name for a new session."""

    def __init__(self, parent: QWidget | None = None, game: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("New Session")
        self.game = game_combo(game)
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. Saturday scenario")
        form = QFormLayout(self)
        form.addRow("&Game:", self.game)
        form.addRow("&Name:", self.name)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


NAME_ROLE = Qt.ItemDataRole.UserRole + 1  # a list item's class name


class NewShipDialog(QDialog):
    """Pick a class from the library (of one game, or any), a name and a side."""

    def __init__(self, parent: QWidget | None = None, game: str | None = None,
                 sides: list[str] | None = None, taken: list[str] | None = None):
        super().__init__(parent)
        self.setWindowTitle("Add Ship" if game else "New Ship")
        self.taken = list(taken or [])  # the session's ship names: the suggestion avoids them
        self.setMinimumWidth(420)
        self.fixed_game = game
        self.game = game_combo(game)
        self.game.setEnabled(game is None)
        self.classes = QListWidget()
        self.classes.setAccessibleName("Ship classes")
        self.name = QLineEdit()
        self.side = QComboBox()
        self.side.setEditable(True)
        self.side.addItem("")
        for side in sides or []:
            self.side.addItem(side)
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: palette(placeholder-text)")
        form = QFormLayout()
        form.addRow("&Game:", self.game)
        form.addRow("&Class:", self.classes)
        form.addRow("&Name:", self.name)
        form.addRow("&Side:", self.side)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problems)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.game.currentIndexChanged.connect(self._fill)
        self.classes.currentItemChanged.connect(self._class_picked)
        self.classes.itemDoubleClicked.connect(lambda _i: self.accept())
        self._fill()
        self.name.setFocus()  # the offered name, selected: type to replace, Enter to add

    def _fill(self) -> None:
        game = self.game.currentData()
        rules = get_game(game)
        self.classes.clear()
        for cls in list_classes(game):
            label = rules.describe_class(cls) + ("  (sample)" if cls.sample else "")
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, cls.id)
            item.setData(NAME_ROLE, cls.name)
            item.setToolTip(f"{cls.id}\n{cls.source}")
            self.classes.addItem(item)
        if self.classes.count():
            self.classes.setCurrentRow(0)
        problems = [p for p in library_problems() if p.startswith(game + "/")]
        self.problems.setText("Skipped (invalid):\n" + "\n".join(problems) if problems else "")
        self.problems.setVisible(bool(problems))

    def _class_picked(self, item, _previous=None) -> None:
        """Offer a short name of the ship's own — the class name, numbered when the session
        has one already — selected, so typing replaces it (a name typed is kept)."""
        if item is not None and not self.name.isModified():
            self.name.setText(unique_name(item.data(NAME_ROLE), self.taken))
            self.name.selectAll()

    @property
    def class_id(self) -> str | None:
        item = self.classes.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def accept(self) -> None:
        if self.class_id is None:
            QMessageBox.information(self, "Add Ship", "Pick a ship class first.")
            return
        if not self.name.text().strip():
            QMessageBox.information(self, "Add Ship", "The ship needs a name.")
            self.name.setFocus()
            return
        super().accept()


def ask_save_changes(ask, parent: QWidget | None, title: str, text: str, save) -> bool:
    """Save, Discard or Cancel before unsaved changes are lost (``ask``: QMessageBox.warning or
    .question). True to go on: saved (``save()`` succeeded) or discarded."""
    button = QMessageBox.StandardButton
    answer = ask(parent, title, text, button.Save | button.Discard | button.Cancel, button.Save)
    if answer == button.Save:
        return save()
    return answer == button.Discard


def ask_recover(parent: QWidget | None, infos) -> object | None:
    """Offer to restore autosaves after a crash; returns the chosen AutosaveInfo or None."""
    if not infos:
        return None
    info = infos[0]
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Restore unsaved work?")
    box.setTextFormat(Qt.TextFormat.PlainText)  # the session's name comes from the autosave file
    box.setText(f"ShipSheet did not close properly. An autosave (“{info.title}”) from "
                f"{info.time_text} {info.compared()}.")
    box.setInformativeText("Restore it? If you discard it, it is deleted.")
    restore = box.addButton("Restore", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    later = box.addButton("Not now", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(restore)
    box.exec()
    clicked = box.clickedButton()
    if clicked is restore:
        return info
    if clicked is later:
        return False
    return None


def about(parent: QWidget | None) -> None:
    box = QMessageBox(parent)
    box.setWindowTitle("About ShipSheet")
    box.setIconPixmap(parent.windowIcon().pixmap(64, 64) if parent is not None else box.iconPixmap())
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(
        f"<h3>ShipSheet {__version__}</h3>"
        "<p>Ship sheets for <i>War In Space</i>, <i>Triplanetary</i> (Advanced Combat System) "
        "and <i>Federation Commander</i> (PBEM Default Damage Allocation Procedure).</p>"
        "<p>Bundled ships and charts are our own samples, not the publishers' official cards.</p>"
        "<p>Built with Qt for Python (PySide6).</p>")
    label = box.findChild(QLabel, "qt_msgbox_label")
    if label is not None:
        rich(label)  # our own markup, with nothing from a file in it
    box.exec()


def show_plain_warning(parent: QWidget | None, title: str, text: str, details: str = "") -> None:
    """A warning whose text may come from files (shown as plain text, details folded)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    if details:
        box.setDetailedText(details)
    box.exec()
