"""What the Ship Designer and the chart editor share: a window that edits one file of the library.

Both windows edit one definition (a ship class, a damage chart) with a name, a
file name, notes and a sample mark; validate it at every change; save it into
the user's folder, import and export it as a file; ask before unsaved changes
are lost; and follow the calling window's SessionDocument. :class:`FileWindow`
does all that once; a window says what differs through the class attributes
and the hooks below (``_library_path``, ``_write``, ``_saved``, ``_check_import``,
``_load_file``, ``_refresh_session``, …).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QCheckBox, QFileDialog, QGridLayout, QHBoxLayout, QLabel,
                               QLineEdit, QMainWindow, QMenu, QMessageBox, QPlainTextEdit,
                               QPushButton, QWidget)

from ...model.errors import ShipDefinitionError
from ...model.classfiles import Problem, read_toml, slug, stem_problem
from .widgets import ErrorLabel, colour_sheet, error_color, mark_invalid, ok_color
from ..dialogs import ask_save_changes
from ..plaintext import esc, rich
from ..qactions import make_action


class FileWindow(QMainWindow):
    """A non-modal window editing one definition file (the base of both designer windows)."""

    #: What the window edits, in words: "class", "chart".
    NOUN = "class"
    #: The file pickers' filter.
    FILE_FILTER = "All files (*)"
    #: The file name a name gives when it has no letters (``slug``'s fallback).
    FALLBACK_STEM = "my-class"
    #: How the refusal to save or use says where the problem is marked.
    MARKED = "The field is marked in red."
    #: Room left for what the window system puts around a window (title bar, borders) when
    #: the window is fitted to the screen before it is shown (they are not known yet).
    FRAME_ALLOWANCE = QSize(16, 48)

    def __init__(self, parent: QWidget | None, width: int, height: int):
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.default_size = QSize(width, height)
        self._fit_to_screen(parent)
        self.session_doc = None
        self.editing_path: Path | None = None  # the user's file being edited in place
        self.document=None
        self.problem: Problem | None = None
        self._clean: dict = {}
        self._stem_edited = False
        self._loading = False
        self._focus_widget: QWidget | None = None

    # -- building the window ---------------------------------------------------------------
    def _fit_to_screen(self, parent: QWidget | None) -> None:
        """Open at the default size when it fits the screen the window opens on (its
        parent's, else the primary one), else as large as the screen's available area
        allows, title bar and borders included; centred on the parent (or the screen) and
        never reaching past the available area (a panel or task bar)."""
        screen = (parent.screen() if parent is not None else None) or self.screen() \
            or QGuiApplication.primaryScreen()
        if screen is None:  # no screen at all: nothing to fit
            self.resize(self.default_size)
            return
        area = screen.availableGeometry()
        frame = self.FRAME_ALLOWANCE
        size = self.default_size.boundedTo(QSize(max(1, area.width() - frame.width()),
                                                 max(1, area.height() - frame.height())))
        self.resize(size)
        outer = QRect(QPoint(0, 0), size + frame)
        centre = parent.frameGeometry().center() if parent is not None and parent.isVisible() \
            else area.center()
        outer.moveCenter(centre)
        x = max(area.left(), min(outer.left(), area.right() + 1 - outer.width()))
        y = max(area.top(), min(outer.top(), area.bottom() + 1 - outer.height()))
        self.move(x, y)

    def _make_file_fields(self, name_label: str, sample_text: str, notes_placeholder: str) -> None:
        """The fields every definition has: name, file name (and where it goes), notes, sample."""
        self.name = QLineEdit()
        self.name.setAccessibleName(name_label)
        self.stem = QLineEdit()
        self.stem.setAccessibleName("File name")
        self.where = QLabel()
        self.where.setStyleSheet("color: palette(placeholder-text);")
        self.sample = QCheckBox(sample_text)
        self.notes = QPlainTextEdit()
        self.notes.setAccessibleName("Notes")
        self.notes.setPlaceholderText(notes_placeholder)
        self.notes.setTabChangesFocus(True)
        self.notes.setFixedHeight(self.fontMetrics().lineSpacing() * 2 + 14)
        self.start_button = QPushButton("Start &From ▾")
        self.start_menu = QMenu(self)
        self.start_menu.aboutToShow.connect(self._fill_start_menu)
        self.start_button.setMenu(self.start_menu)
        self.common_error = ErrorLabel()
        self.name.textEdited.connect(self._name_edited)
        self.stem.textEdited.connect(self._stem_typed)
        self.sample.toggled.connect(self._changed)
        self.notes.textChanged.connect(self._changed)

    def _add_file_rows(self, grid: QGridLayout, stem_row: int, notes_row: int) -> None:
        """Put the file name (with where it goes) and the notes (with sample) into ``grid``."""
        row = QHBoxLayout()
        row.addWidget(self.stem, 2)
        row.addWidget(self.where, 3)
        grid.addLayout(row, stem_row, 1, 1, 2)
        row = QHBoxLayout()
        row.addWidget(self.notes, 1)
        row.addWidget(self.sample, 0, Qt.AlignmentFlag.AlignTop)
        grid.addLayout(row, notes_row, 1, 1, 2)

    def _make_status(self) -> None:
        """The footer's validation display, Show Problem and Save to Library."""
        self.status_icon = QLabel()
        self.status_text = rich(QLabel())  # our markup; names go through esc()
        self.status_text.setWordWrap(True)
        self.goto_button = QPushButton("Show &Problem")
        self.goto_button.clicked.connect(self.focus_problem)
        self.save_button = QPushButton("Save to Library")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)

    def _footer_row(self, *middle: QWidget) -> QWidget:
        """The footer row: the validation display, ``middle``, then Save to Library."""
        footer = QWidget()
        row = QHBoxLayout(footer)
        row.setContentsMargins(10, 6, 10, 6)
        row.addWidget(self.status_icon)
        row.addWidget(self.status_text, 1)
        for widget in middle:
            row.addWidget(widget)
        row.addWidget(self.save_button)
        return footer

    def _act(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        return make_action(self, text, slot, shortcut, tip)

    def _make_file_menu(self, new_slot, tips: dict[str, str] | None = None,
                        after_save: tuple = ()) -> QMenu:
        """The file actions (New, Import, Export, Save, Close) and the menu named after NOUN.

        ``after_save`` are (attribute, text, slot) of actions made after Save and listed under it.
        """
        K = QKeySequence.StandardKey
        tips = tips or {}
        noun = self.NOUN.title()
        self.act_new = self._act(f"&New Blank {noun}", new_slot, K.New, tips.get("new", ""))
        self.act_import = self._act(f"&Import {noun} File…", self.import_file, K.Open,
                                    tips.get("import", ""))
        self.act_export = self._act(f"&Export {noun} File…", self.export_file, "Ctrl+E",
                                    tips.get("export", ""))
        self.act_save = self._act("&Save to Library", self.save, K.Save)
        extra = []
        for attr, text, slot in after_save:
            setattr(self, attr, self._act(text, slot))
            extra.append(getattr(self, attr))
        self.act_close = self._act("&Close", self.close, K.Close)
        m = self.menuBar().addMenu(f"&{noun}")
        m.addAction(self.act_new)
        start = m.addMenu("Start &From")
        start.aboutToShow.connect(lambda: self._fill_start_menu(start))
        m.addSeparator()
        m.addAction(self.act_import)
        m.addAction(self.act_export)
        m.addSeparator()
        m.addAction(self.act_save)
        for action in extra:
            m.addAction(action)
        m.addSeparator()
        m.addAction(self.act_close)
        return m

    def _start_menu(self, menu: QMenu | None) -> QMenu:
        """The Start From menu to fill (the button's unless another is given), emptied."""
        menu = menu if isinstance(menu, QMenu) else self.start_menu
        menu.clear()
        return menu

    # -- the session ---------------------------------------------------------------------
    def set_session_doc(self, doc) -> None:
        """The calling window's SessionDocument (one the window cannot use is taken as None)."""
        if self.session_doc is not None:
            try:
                self.session_doc.changed.disconnect(self._refresh_session)
                self.session_doc.destroyed.disconnect(self._session_gone)
            except (RuntimeError, TypeError):
                pass
        self.session_doc = doc if doc is not None and self._accepts_session(doc) else None
        if self.session_doc is not None:
            self.session_doc.changed.connect(self._refresh_session)
            self.session_doc.destroyed.connect(self._session_gone)
        self._refresh_session()

    def _session_gone(self, *_args) -> None:
        self.session_doc = None
        self._refresh_session()

    def _accepts_session(self, doc) -> bool:
        """Can the window use this session (e.g. only a Federation Commander one)?"""
        return True

    def _refresh_session(self, *_args) -> None:
        """Show what the session allows (the window's session buttons)."""

    # -- reading the fields ------------------------------------------------------------------
    @property
    def stem_text(self) -> str:
        """The file name (without .toml)."""
        return self.stem.text().strip()

    @property
    def dirty(self) -> bool:
        """Are there changes not saved yet?"""
        return self.current_data() != self._clean

    # -- reacting to edits ----------------------------------------------------------------------
    def _name_edited(self, text: str) -> None:
        if not self._stem_edited:
            self.stem.setText(slug(text, self.FALLBACK_STEM))
        self._changed()

    def _stem_typed(self, _text: str) -> None:
        self._stem_edited = True
        self._changed()

    def _check_stem(self) -> str | None:
        """A file name that cannot be one is the problem (marked at the field); returns why."""
        why = stem_problem(self.stem_text)
        if why:
            self.problem = Problem(f"file name: {why}", "", why)
            mark_invalid(self.stem, why)
            self.common_error.show_message(f"File name: {why}")
            self._focus_widget = self.stem
        return why

    def _show_validity(self, valid_text: str, valid_tip: str | None = None,
                       invalid_tip: str | None = None) -> None:
        """The footer's verdict on ``self.problem`` (a tip of None leaves the tooltip alone).
        ``valid_text`` is our own markup: every value in it has gone through ``esc()``."""
        if self.problem is None:
            self.status_icon.setText("✔")
            colour_sheet(self.status_icon, lambda w: f"color: {ok_color(w)}; font-weight: bold;")
            self.status_text.setText(valid_text)
            tip = valid_tip
        else:
            self.status_icon.setText("⚠")
            colour_sheet(self.status_icon, lambda w: f"color: {error_color(w)}; font-weight: bold;")
            self.status_text.setText(esc(self.problem.message))
            tip = invalid_tip
        if tip is not None:
            self.status_text.setToolTip(tip)
        self.goto_button.setVisible(self.problem is not None)

    def show_status(self, text: str) -> None:
        """A passing message in the status bar."""
        self.statusBar().showMessage(text, 8000)

    # -- saving -------------------------------------------------------------------------------------
    def _refuse(self, title: str, what: str = "saved") -> bool:
        """Say why the definition cannot be saved or used, and go to the field. Returns False."""
        problem = self.validate()
        QMessageBox.warning(self, title, f"The {self.NOUN} is not valid, so it was not {what}:\n\n"
                                         f"{problem.message}\n\n{self.MARKED}")
        self.focus_problem()
        return False

    def _cannot_write(self, title: str, path: Path, exc: Exception) -> bool:
        """Say why a file could not be written. Returns False."""
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        QMessageBox.warning(self, title, f"{path}: {why}")
        return False

    def save(self) -> bool:
        """Save into the user's folder; refused (saying why) while the definition is invalid."""
        if self.validate() is not None:
            return self._refuse("Cannot Save")
        path = self._library_path()
        if path.is_file() and path != self.editing_path:
            answer = QMessageBox.question(
                self, f"Replace {self.NOUN.title()}?", self._replace_question(path),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        try:
            saved = self._write(path)
        except (OSError, ShipDefinitionError) as exc:
            return self._cannot_write("Cannot Save", path, exc)
        self.editing_path = path
        self._stem_edited = True
        self._clean = self.current_data()
        self._changed()
        self._saved(path, saved)
        return True

    def _has_document(self) -> bool:
        """Is there anything loaded that could have unsaved changes?"""
        return True

    def _may_discard(self) -> bool:
        """Ask before unsaved changes are thrown away."""
        if not self._has_document() or not self.dirty:
            return True
        return ask_save_changes(
            QMessageBox.question, self, f"Unsaved {self.NOUN.title()}",
            f"Save the changes to {self.name.text().strip() or f'this {self.NOUN}'} first?",
            self.save)

    def closeEvent(self, event) -> None:
        if not self._may_discard():
            event.ignore()
            return
        self.set_session_doc(None)
        event.accept()

    # -- import and export ------------------------------------------------------------------------------
    def import_file(self, path: str | Path | None = None) -> bool:
        """Open a file (e.g. from an e-mail) in the window; Save adds it to the library."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, f"Import {self.NOUN.title()} File",
                                                  str(Path.home()), self.FILE_FILTER)
            if not path:
                return False
        path = Path(path)
        try:
            data, document = read_toml(path)
        except ShipDefinitionError as exc:
            QMessageBox.warning(self, "Cannot Import", str(exc))
            return False
        handled = self._check_import(path, data)
        if handled is not None:
            return handled
        if not self._may_discard():
            return False
        self._load_file(data, path.stem, document)
        self._clean = {}  # imported: not in the library until saved
        self._changed()
        verdict = "Save to Library adds it." if self.problem is None else \
            "Fix the problem shown, then save it."
        self.show_status(f"Imported {path.name}. {verdict}")
        return True

    def export_file(self, path: str | Path | None = None) -> bool:
        """Write the definition to a file of the user's choosing (refused while invalid)."""
        if self.validate() is not None:
            return self._refuse("Cannot Export", "exported")
        if path is None:
            suggested = Path.home() / f"{self.stem_text}.toml"
            path, _ = QFileDialog.getSaveFileName(self, f"Export {self.NOUN.title()} File",
                                                  str(suggested), self.FILE_FILTER)
            if not path:
                return False
        path = Path(path)
        if path.suffix.lower() != ".toml":
            path = path.with_name(path.name + ".toml")
        try:
            self._write(path)
        except (OSError, ShipDefinitionError) as exc:
            return self._cannot_write("Cannot Export", path, exc)
        self.show_status(f"Exported to {path}")
        return True

    # -- what each window says: its own methods ---------------------------------------------------
    # A window built on FileWindow defines these (the base calls them):
    #   current_data() -> dict            the definition as the fields hold it now
    #   validate() -> Problem | None      check it as its loader would; show a problem at its field
    #   _changed(*args)                   react to an edit (validate, preview, title)
    #   _fill_start_menu(menu=None)       the Start From menu
    #   _library_path() -> Path           where Save writes (the user's folder)
    #   _replace_question(path) -> str    Save's question before replacing the user's file
    #   _write(path)                      write the file; return what was saved, as the loader reads it
    #   _saved(path, saved)               after Save: say so
    #   _check_import(path, data)         None if ``data`` is for this window, else import_file's answer
    #   _load_file(data, stem, document)  fill the fields from an imported file
    def focus_problem(self) -> None:
        """Put the keyboard focus on the field the problem names."""
        if self._focus_widget is not None:
            self._focus_widget.setFocus()


__all__ = ["FileWindow"]
