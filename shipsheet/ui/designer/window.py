"""The Ship Designer window: pick a game, start blank or from a class, edit, see the sheet, save.

Left: the class's fields (the common ones, then the game's editor). Right: the
live preview, drawn by the game's own sheet painter (``painter_for``) from a
new ship of the class as it is now. Every change is validated at once by the
file loader itself (``parse_ship_class``), and its message is shown at the
field its key path names. Save writes TOML into the user's ships folder,
refused while the class is invalid.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QGridLayout, QGroupBox, QLabel, QMenu, QMessageBox, QPushButton,
                               QSplitter, QVBoxLayout, QWidget)

from ...model import GAME_IDS, GAME_TITLES, get_game
from ...model.errors import ShipDefinitionError
from ...model.games import COMMON_KEYS, piece
from ...model.library import get_class, list_classes, new_ship
from ...model.ship import ShipClass, clone
from ...model.update import ships_of_class, update_ships_action
from ...sheets import painter_for
from ..dialogs import game_combo
from ..layouts import fill_with_scroll
from ..plaintext import esc
from ...model.classfiles import (Problem, blank_definition, check_definition,
                                 read_toml, save_definition, slug, top_key, user_class_path)
from .editor_base import GameEditor
from .file_window import FileWindow
from .widgets import PreviewPane, clear_invalid, mark_invalid

FILE_FILTER = "Ship classes (*.toml);;All files (*)"
#: What the Start From menu says of a class the user has, and of a bundled sample.
YOURS, SAMPLE = "(yours)", "(sample)"
#: The preview follows the fields this long after the last keystroke.
PREVIEW_DELAY_MS = 150


class _FieldsLayout(QVBoxLayout):
    """The fields' column, inside a scroll area that fills the window's side with them down
    to their minimum height (a word-wrapped message would otherwise make the scroll area
    ask for their preferred height, and scroll where there was room to shrink the table)."""

    def hasHeightForWidth(self) -> bool:
        return False


class DesignerWindow(FileWindow):
    """Create and edit ship classes of the three games."""

    NOUN = "class"
    FILE_FILTER = FILE_FILTER

    #: A class was saved to the library (its ShipClass).
    saved = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, game: str | None = None,
                 class_id: str | None = None, session_doc=None):
        super().__init__(parent, 1340, 880)
        self.game = ""
        self.editor: GameEditor | None = None
        self.origin_id: str | None = None  # the class this one was started from
        self.last_valid: ShipClass | None = None
        self._shown_once = False

        self._make_common()
        self.preview = PreviewPane()
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.refresh_preview)

        self.editor_host = QVBoxLayout()
        self.editor_host.setContentsMargins(0, 0, 0, 0)
        left = QWidget()
        left_layout = _FieldsLayout(left)
        left_layout.setContentsMargins(8, 8, 8, 0)
        left_layout.addWidget(self.common)
        left_layout.addLayout(self.editor_host, 1)
        # The fields scroll when the window is smaller than they are (a laptop screen):
        # the window opens fitting the screen, whatever the game's editor needs.
        left_host = QWidget()
        self.fields_scroll = fill_with_scroll(left_host, left)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left_host)
        splitter.addWidget(self.preview)
        splitter.setStretchFactor(0, 5)
        splitter.setStretchFactor(1, 4)
        splitter.setSizes([720, 600])
        splitter.setChildrenCollapsible(False)
        self.splitter = splitter

        self._make_footer()
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.footer)
        self.setCentralWidget(central)
        self._make_actions()

        self.set_session_doc(session_doc)
        if class_id:
            self.load_class(class_id)
        else:
            self.new_blank(game or self._session_game() or GAME_IDS[0])

    # -- building the window ---------------------------------------------------------------
    def _make_common(self) -> None:
        self.game_box = game_combo()
        self.game_box.setToolTip("The game the class is for; changing it starts a blank class.")
        self.game_box.activated.connect(self._game_picked)
        self._make_file_fields("Class name", "Sa&mple design",
                               "Notes (optional): where the data comes from, house rules …")
        self.start_button.setToolTip("Start again: a blank class, or a copy of a class in the "
                                     "library (your own classes are edited in place).")
        self.name.setToolTip("The class's name, as pickers and the sheet show it.")
        self.stem.setToolTip("The file name in your ships folder; the class id is "
                             "<game>/<file name>.")
        self.sample.setToolTip("Mark the class as a sample (the sheet says SAMPLE DESIGN).")

        self.common = QGroupBox("Class")
        grid = QGridLayout(self.common)
        labels = {}
        for text, row in (("&Game:", 0), ("Class &name:", 1), ("F&ile name:", 2), ("N&otes:", 3)):
            labels[row] = QLabel(text)
            grid.addWidget(labels[row], row, 0)
        labels[0].setBuddy(self.game_box)
        labels[1].setBuddy(self.name)
        labels[2].setBuddy(self.stem)
        labels[3].setBuddy(self.notes)
        grid.addWidget(self.game_box, 0, 1)
        grid.addWidget(self.start_button, 0, 2, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.name, 1, 1, 1, 2)
        self._add_file_rows(grid, 2, 3)
        grid.addWidget(self.common_error, 4, 0, 1, 3)
        grid.setColumnStretch(1, 1)

    def _make_footer(self) -> None:
        self._make_status()
        self.status_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_text.setAccessibleName("Validation")
        self.goto_button.setToolTip("Go to the field the message names")
        self.update_button = QPushButton("&Update Ships in Session…")
        self.update_button.setToolTip("Move the ships of this class in the session window to "
                                      "this version, keeping their damage where it matches")
        self.update_button.clicked.connect(self.update_session_ships)
        self.save_button.setToolTip("Save the class in your ships folder (Ctrl+S); it is in the "
                                    "library at once")
        self.footer = self._footer_row(self.goto_button, self.update_button)
        self.footer.setObjectName("designer-footer")

    def _make_actions(self) -> None:
        self._make_file_menu(lambda: self.new_blank(self.game),
                             tips={"new": "Start a blank class of this game",
                                   "import": "Open a class file someone sent you (.toml)",
                                   "export": "Write the class to a file to share (.toml)"},
                             after_save=(("act_blank", "Print &Blank Sheet…", self.print_blank),))
        self.act_blank.setToolTip("This class's sheet, every box empty, to print or export for "
                                  "play on paper")
        self.act_update = self._act("&Update Ships in This Session…", self.update_session_ships)
        m = self.menuBar().addMenu("&Session")
        m.addAction(self.act_update)
        self.tools_menu = self.menuBar().addMenu("&Tools")
        self._game_tools: dict | None = None  # the games' own windows, made when it first opens
        self.tools_menu.aboutToShow.connect(self.tool_actions)

    # -- the session (set_session_doc: FileWindow; it enables "Update ships in this session") ------
    def _session_game(self) -> str | None:
        return self.session_doc.session.game if self.session_doc is not None else None

    # -- starting a class ------------------------------------------------------------------
    def _set_game(self, game: str) -> None:
        if self.editor is not None and self.game == game:
            return
        if self.editor is not None:
            self.editor_host.removeWidget(self.editor)
            self.editor.deleteLater()
        self.game = game
        self.editor = piece(game, "editor")()
        self.editor.changed.connect(self._changed)
        status = getattr(self.editor, "status", None)
        if status is not None:
            status.connect(self.show_status)
        self.editor_host.addWidget(self.editor, 1)
        self.game_box.setCurrentIndex(max(0, self.game_box.findData(game)))
        self._fit_splitter()

    def _fit_splitter(self) -> None:
        """Give the fields the width they need, so they do not scroll sideways, as long as
        the preview keeps its own minimum; the preview has the rest. (Once shown: before,
        the splitter has no width to share.)"""
        if not self.splitter.isVisible() or self.editor is None:
            return
        left, right = self.splitter.sizes()
        total = left + right
        margins = self.fields_scroll.widget().layout().contentsMargins()
        need = (max(self.common.minimumSizeHint().width(), self.editor.minimumSizeHint().width())
                + margins.left() + margins.right()
                + self.fields_scroll.verticalScrollBar().sizeHint().width())
        left = max(0, min(max(left, need), total - self.preview.minimumSizeHint().width()))
        self.splitter.setSizes([left, total - left])

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self._fit_splitter()

    def load_definition(self, data: dict, *, stem: str | None = None,
                        document=None, origin_id: str | None = None,
                        editing_path: Path | None = None) -> None:
        """Fill the fields from a definition (as read from a file or the library)."""
        game = data.get("game") if isinstance(data.get("game"), str) else self.game
        if game not in GAME_IDS:
            raise ShipDefinitionError(f'game: unknown value "{game}" (expected one of: '
                                      f'{", ".join(GAME_IDS)})')
        self._loading = True
        try:
            self._set_game(game)
            name = data.get("class") if isinstance(data.get("class"), str) else ""
            self.name.setText(name)
            self.sample.setChecked(data.get("sample") is True)
            self.notes.setPlainText(data.get("notes") if isinstance(data.get("notes"), str) else "")
            self.editor.load(data)
            self._stem_edited = stem is not None
            self.stem.setText(stem if stem is not None else slug(name))
            self.origin_id = origin_id
            self.editing_path = editing_path
            self.document = document
        finally:
            self._loading = False
        self.last_valid = None
        self._clean = self.current_data()
        self._changed()
        self.refresh_preview()
        known = (*COMMON_KEYS, *get_game(self.game).class_keys)
        dropped = sorted(str(k) for k in data if k not in known)
        if dropped:
            self.show_status("Not kept (no such field in the format): " + ", ".join(dropped))

    def new_blank(self, game: str) -> None:
        """A blank class of ``game`` (a small valid one, so the preview shows at once)."""
        if not self._may_discard():
            return
        self.load_definition(blank_definition(game))
        self.name.setFocus()
        self.name.selectAll()
        self.show_status(f"New {GAME_TITLES[game]} class")

    def load_class(self, class_id: str) -> None:
        """Start from a library class: the user's own is edited in place, a bundled one copied."""
        cls = get_class(class_id)
        stem = class_id.split("/", 1)[1]
        own = user_class_path(cls.game, stem)
        if own.is_file():
            data, document = read_toml(own)
            self.load_definition(data, stem=stem, document=document, origin_id=class_id,
                                 editing_path=own)
            self.show_status(f"Editing your class {cls.name} ({own})")
            return
        data = clone(cls.data)
        data["class"] = f"{cls.name} (copy)"
        data.pop("sample", None)
        self.load_definition(data, origin_id=class_id)
        self.show_status(f"A copy of {cls.name}: save it under a name of your own")

    def _game_picked(self, index: int) -> None:
        game = self.game_box.itemData(index)
        if game == self.game:
            return
        if not self._may_discard():
            self.game_box.setCurrentIndex(max(0, self.game_box.findData(self.game)))
            return
        self.load_definition(blank_definition(game))
        self.show_status(f"New {GAME_TITLES[game]} class")

    def _fill_start_menu(self, menu: QMenu | None = None) -> None:
        menu = self._start_menu(menu)
        menu.addAction(f"Blank {GAME_TITLES[self.game]} Class", lambda: self.new_blank(self.game))
        menu.addSeparator()
        rules = get_game(self.game)
        for cls in list_classes(self.game):
            stem = cls.id.split("/", 1)[1]
            mine = user_class_path(cls.game, stem).is_file()
            label = start_label(rules.describe_class(cls),
                                YOURS if mine else SAMPLE if cls.sample else "")
            act = menu.addAction(label, lambda cid=cls.id: self._start_from(cid))
            act.setToolTip("Edit your class" if mine else "Start from a copy of this class")

    def _start_from(self, class_id: str) -> None:
        if self._may_discard():
            self.load_class(class_id)

    # -- reading the fields ------------------------------------------------------------------
    def current_data(self) -> dict:
        """The definition as the fields hold it now (one row per FedCom box)."""
        values = self.editor.values() if self.editor is not None else {}
        data: dict = {"game": self.game, "class": self.name.text().strip()}
        for key in self.editor.head_keys if self.editor is not None else ():
            if key in values:
                data[key] = values.pop(key)
        if self.sample.isChecked():
            data["sample"] = True
        notes = self.notes.toPlainText().strip()
        if notes:
            data["notes"] = notes
        data.update(values)
        return data

    def file_data(self) -> dict:
        """The definition as written to the file (FedCom: alike boxes folded with ``count``)."""
        data = self.current_data()
        fold = getattr(self.editor, "file_values", None)
        if fold is None:
            return data
        folded = fold(data)
        a, _ = check_definition(folded, "check")
        b, _ = check_definition(data, "check")
        if a is not None and b is not None and a.spec.boxes == b.spec.boxes:
            return folded
        return data

    @property
    def class_id(self) -> str:
        """The id the class has once saved: ``<game>/<file name>``."""
        return f"{self.game}/{self.stem_text}"

    # -- reacting to edits (the name and file name fields: FileWindow) ------------------------------
    def _changed(self, *_args) -> None:
        if self._loading or self.editor is None:
            return
        self.validate()
        self._preview_timer.start()
        self.setWindowTitle(f"Ship Designer — {self.name.text().strip() or 'new class'}[*]")
        self.setWindowModified(self.dirty)

    def validate(self) -> Problem | None:
        """Check the class as the file loader would; show any problem at its field."""
        self._clear_marks()
        data = self.current_data()
        why = self._check_stem()
        if not why:
            cls, problem = check_definition(data, self.stem_text)
            self.problem = problem
            if cls is not None:
                self.last_valid = cls
            else:
                self._show_at_field(problem)
        path = user_class_path(self.game, self.stem_text) if not why else None
        self._show_validity(f"Valid. Save puts it in your library as <b>{esc(self.class_id)}</b>"
                            + (" (replacing your file)" if path and path.is_file() else ""),
                            str(path) if path else "", "Save is refused until this is fixed.")
        self.where.setText(f".toml in ships/{self.game}/")
        self.where.setToolTip(str(path) if path else "")
        self._refresh_session()
        return self.problem

    def _clear_marks(self) -> None:
        for w in (self.name, self.stem, self.notes, self.sample, self.game_box):
            clear_invalid(w)
        self.common_error.clear()
        if self.editor is not None:
            self.editor.clear_problem()
        self._focus_widget = None

    def _show_at_field(self, problem: Problem) -> None:
        common = {"class": self.name, "notes": self.notes, "sample": self.sample,
                  "game": self.game_box}
        key = top_key(problem.path)
        if key in common:
            mark_invalid(common[key], problem.message)
            self.common_error.show_message(f"{problem.path}: {problem.text}")
            self._focus_widget = common[key]
            return
        if self.editor.show_problem(problem):
            return
        self.common_error.show_message(problem.message)

    def focus_problem(self) -> None:
        """Put the keyboard focus on the field the problem names (the file name's included)."""
        if self._focus_widget is not None:
            self._focus_widget.setFocus()
        elif self.editor is not None:
            self.editor.focus_problem()

    def refresh_preview(self) -> None:
        """Draw the sheet of a new ship of the class with the game window's own painter."""
        self._preview_timer.stop()
        cls = self.last_valid
        if cls is None:
            self.preview.canvas.set_painter(None)
            self.preview.set_stale(True, "no valid version yet")
            return
        try:
            # set_painter lays it out: a painter that cannot draw this class fails here
            self.preview.canvas.set_painter(painter_for(new_ship(cls, cls.name or "Ship")))
        except Exception as exc:  # the preview must never take the designer down
            self.preview.canvas.set_painter(None)
            self.preview.set_stale(True, f"the sheet could not be drawn ({exc})")
            return
        self.preview.set_stale(self.problem is not None,
                               "fix the problem marked in red" if self.problem is not None else "")

    def _refresh_session(self, *_args) -> None:
        ships = self.session_ships()
        doc = self.session_doc
        self.update_button.setVisible(doc is not None)
        self.act_update.setEnabled(bool(ships) and self.problem is None)
        self.update_button.setEnabled(bool(ships) and self.problem is None)
        if doc is not None:
            if not ships:
                tip = f"No ship in the session is a {self.name.text().strip() or 'ship of this class'}"
            elif self.problem is not None:
                tip = "Fix the problem first: only a valid class can be used"
            else:
                tip = f"{len(ships)} ship(s) in the session: " + ", ".join(s.name for s in ships)
            self.update_button.setToolTip(tip)

    # -- saving, import and export (FileWindow; here what is the class's own) ---------------------------
    def _refuse(self, title: str, what: str = "saved") -> bool:
        """Say why the class cannot be saved or used (always "not saved"), and go to the field."""
        super()._refuse(title)
        self.show_status(f"Not saved: {self.problem.message}")
        return False

    def _library_path(self) -> Path:
        return user_class_path(self.game, self.stem_text)

    def _replace_question(self, path: Path) -> str:
        return (f"Your ships folder already has {path.name} for {GAME_TITLES[self.game]}. "
                "Replace it with this class?")

    def _write(self, path: Path) -> ShipClass:
        # the file the class came from (its comments), if any
        return save_definition(self.file_data(), path, self.document)

    def _saved(self, path: Path, cls: ShipClass) -> None:
        self.show_status(f"Saved {path.name}: {cls.name} is in the library as {cls.id}")
        forget = getattr(self.editor, "show_not_kept", None)
        if forget is not None:
            forget([])  # the saved file no longer has what was not kept
        self.saved.emit(cls)

    def _has_document(self) -> bool:
        return self.editor is not None

    def _check_import(self, path: Path, data: dict) -> bool | None:
        """A file for one of the games' own tools (a Federation Commander chart) goes to it;
        anything else but a class is refused."""
        from ..games import all_tools
        tool = next((t for t in all_tools() if t.takes is not None and t.takes(data)), None)
        if tool is not None:
            tool.open(self.parent(), session_doc=self.session_doc, path=path)
            return True
        if data.get("game") not in GAME_IDS:
            QMessageBox.warning(self, "Cannot Import",
                                f"{path.name}: not a ShipSheet ship class (its \"game\" must be "
                                f"one of {', '.join(GAME_IDS)})")
            return False
        return None

    def _load_file(self, data: dict, stem: str, document) -> None:
        self.load_definition(data, stem=stem, document=document)

    # -- updating the session's ships ----------------------------------------------------------------------
    def session_ships(self) -> list:
        """Ships in the calling session of this class (the one started from, or this id)."""
        doc = self.session_doc
        if doc is None or doc.session.game != self.game:
            return []
        ids = {self.class_id}
        if self.origin_id:
            ids.add(self.origin_id)
        return ships_of_class(doc.session, ids)

    def update_session_ships(self) -> bool:
        """Explicitly move the session's ships of this class to this version (one undo step)."""
        doc = self.session_doc
        if doc is None:
            self.show_status("Open the designer from a session window to update its ships.")
            return False
        if self.validate() is not None:
            return self._refuse("Cannot Update Ships")
        ships = self.session_ships()
        if not ships:
            QMessageBox.information(self, "Update Ships",
                                    f"No ship in “{doc.session.title}” is a {self.name.text()}.")
            return False
        cls, problem = check_definition(self.file_data(), self.stem_text)
        if cls is None:  # cannot happen after validate(); kept for safety
            QMessageBox.warning(self, "Cannot Update Ships", problem.message)
            return False
        names = "\n".join(f"• {s.name}" for s in ships)
        answer = QMessageBox.question(
            self, "Update Ships",
            f"Update {len(ships)} ship{'s' if len(ships) != 1 else ''} in “{doc.session.title}” "
            f"to this version of {cls.name}?\n\n{names}\n\n"
            "Damage is carried over where systems and boxes still match; what cannot be "
            "matched is reported and logged. Undo in the session window takes it back.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        action = update_ships_action([s.id for s in ships], cls)
        refusals: list[str] = []
        doc.refused.connect(refusals.append)
        try:
            done = doc.do(action)
        finally:
            doc.refused.disconnect(refusals.append)
        if not done:
            QMessageBox.warning(self, "Cannot Update Ships",
                                refusals[0] if refusals else "The session refused the change.")
            return False
        lines = [line for report in action.reports for line in report.lines()]
        unmatched = sum(len(r.unmatched) for r in action.reports)
        summary = ("Everything was carried over." if not unmatched else
                   f"{unmatched} thing{'s' if unmatched != 1 else ''} could not be matched.")
        QMessageBox.information(self, "Ships Updated", summary + "\n\n" + "\n".join(lines))
        self.show_status(f"{action.name}. {summary}")
        self._refresh_session()
        return True

    # -- tools --------------------------------------------------------------------------------------------------
    def print_blank(self) -> bool:
        """A blank sheet of the class as it stands (refused while it is not valid)."""
        if self.validate() is not None or self.last_valid is None:
            QMessageBox.information(self, "Print Blank Sheet",
                                    "The class is not valid yet: fix the problem shown first.")
            return False
        from ..print_actions import blank_sheets
        return blank_sheets(self, [self.last_valid])

    def tool_actions(self) -> dict:
        """The games' own windows in the Tools menu, for the same session (made when the
        menu first opens), by their menu text without "&"."""
        if self._game_tools is None:
            from ..games import all_tools
            self._game_tools = {}
            for tool in all_tools():
                act = self._act(tool.text, lambda t=tool: self.open_tool(t), tip=tool.tip)
                self.tools_menu.addAction(act)
                self._game_tools[tool.text.replace("&", "")] = act
        return self._game_tools

    def open_tool(self, tool):
        """Open a game's tool (a ``ui.games.Tool``) for the same session."""
        return tool.open(self.parent(), session_doc=self.session_doc)


def start_label(description: str, mark: str) -> str:
    """A Start From entry: the game's description of the class, then ``mark`` ("(yours)",
    "(sample)") once at the end, even when the description says "(sample)" itself."""
    text = description.replace(f" {SAMPLE}", "", 1) if SAMPLE in description else description
    return f"{text}  {mark}" if mark else description


__all__ = ["DesignerWindow", "start_label"]
