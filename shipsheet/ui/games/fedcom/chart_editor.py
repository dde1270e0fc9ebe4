"""The Federation Commander chart editor: six rows by ten cells, a primary and an alternate kind each.

The pickers offer the kinds the library knows (the standard kinds, the ship
classes' own kinds, and the chart's own); frame is offered only where the
rules allow it, as the alternate of column 10 [seed 8FC2]. Validation is the
chart loader's own (``parse_chart``). Save writes the chart into the user's
charts folder; "Use in This Session" sets it as the session's chart (the
option the fedcom rules read), one undo step in the session window.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QFrame, QGridLayout, QGroupBox, QLabel, QLineEdit, QMenu,
                               QMessageBox, QPushButton, QScrollArea, QVBoxLayout, QWidget)

from ....model.errors import RuleViolation
from ....rules.fedcom.actions import set_chart_action
from ....rules.fedcom.chart import (COLUMNS, FRAME, OPTION_CHART, ROWS, get_chart, list_charts,
                                    split_cell)
from ....model.classfiles import Problem, read_toml, slug, top_key
from ....rules.fedcom.chart_files import (blank_chart, chart_data, check_chart, is_chart_data,
                                           library_kinds, save_chart, user_chart_path)
from ...designer.file_window import FileWindow
from ...designer.widgets import ErrorLabel, clear_invalid, mark_invalid, set_combo_text
from ...plaintext import esc, rich

NONE = "—"
_CELL = re.compile(r"^rows\[(\d+)\](?:\[(\d+)\])?")
_KIND_SPLIT = re.compile(r"[,\s]+")
FILE_FILTER = "Damage Allocation Charts (*.toml);;All files (*)"


class CellEditor(QFrame):
    """One cell: the primary kind above, the alternate below (frame only in column 10)."""

    def __init__(self, row: int, column: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.row, self.column = row, column
        self.primary = QComboBox()
        self.alternate = QComboBox()
        where = f"roll {row + 1}, column {column + 1}"
        self.primary.setAccessibleName(f"Primary kind, {where}")
        self.alternate.setAccessibleName(f"Alternate kind, {where}")
        self.primary.setToolTip(f"Roll {row + 1}, column {column + 1}: the kind hit first.")
        self.alternate.setToolTip(
            f"Roll {row + 1}, column {column + 1}: the kind hit when the ship has no intact box "
            "of the primary kind" + (" (frame is allowed here only: column 10)"
                                     if column == COLUMNS - 1 else "") + ".")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(1)
        layout.addWidget(self.primary)
        layout.addWidget(self.alternate)
        self.setFrameShape(QFrame.Shape.StyledPanel)

    def set_kinds(self, kinds: list[str]) -> None:
        primary, alternate = self.primary.currentText(), self.alternate.currentText()
        for box in (self.primary, self.alternate):
            box.blockSignals(True)
            box.clear()
        self.primary.addItem("")
        self.primary.addItems(kinds)
        self.alternate.addItem(NONE)
        self.alternate.addItems(kinds)
        if self.column == COLUMNS - 1:
            self.alternate.addItem(FRAME)  # [seed 8FC2] frame only as the alternate of the last column
        set_combo_text(self.primary, primary)
        set_combo_text(self.alternate, alternate or NONE)
        for box in (self.primary, self.alternate):
            box.blockSignals(False)

    def set_text(self, text: str) -> None:
        parts = split_cell(text) if text else [""]
        set_combo_text(self.primary, parts[0])
        set_combo_text(self.alternate, parts[1] if len(parts) > 1 and parts[1] else NONE)

    def text(self) -> str:
        primary = self.primary.currentText().strip()
        alternate = self.alternate.currentText().strip()
        return primary if alternate in ("", NONE) else f"{primary}/{alternate}"


class ChartEditorWindow(FileWindow):
    """Create and edit Damage Allocation Charts."""

    NOUN = "chart"
    FILE_FILTER = FILE_FILTER
    FALLBACK_STEM = "my-chart"
    MARKED = "The cell or field is marked in red."

    def __init__(self, parent: QWidget | None = None, *, chart_id: str | None = None,
                 session_doc=None):
        super().__init__(parent, 1360, 720)
        self._loaded = False  # no chart yet: nothing to ask about while the window opens
        self.setWindowTitle("Chart Editor")

        self._make_file_fields("Chart name", "Sa&mple chart", "Notes (optional)")
        self.where.setText(".toml in charts/fedcom/")
        self.own_kinds = QLineEdit()
        self.own_kinds.setAccessibleName("The chart's own kinds")
        self.own_kinds.setPlaceholderText("kinds beyond the standard ones, e.g. fighter-bay "
                                          "(kinds of your ship classes are offered already)")
        head = QGroupBox("Chart")
        grid = QGridLayout(head)
        rows = (("Chart &name:", self.name), ("F&ile name:", None), ("N&otes:", None),
                ("Own &kinds:", self.own_kinds))
        for r, (text, widget) in enumerate(rows):
            label = QLabel(text)
            grid.addWidget(label, r, 0)
            label.setBuddy(widget or (self.stem if r == 1 else self.notes))
        grid.addWidget(self.name, 0, 1)
        grid.addWidget(self.start_button, 0, 2)
        self._add_file_rows(grid, 1, 2)
        grid.addWidget(self.own_kinds, 3, 1, 1, 2)
        grid.addWidget(self.common_error, 4, 0, 1, 3)
        grid.setColumnStretch(1, 1)

        cells = QWidget()
        cgrid = QGridLayout(cells)
        cgrid.setSpacing(4)
        corner = QLabel("roll")
        corner.setStyleSheet("color: palette(placeholder-text);")
        corner.setToolTip("Rows: the d6 roll. Columns: a group's points, 1 to 10, in order.")
        cgrid.addWidget(corner, 0, 0, Qt.AlignmentFlag.AlignCenter)
        for c in range(COLUMNS):
            label = rich(QLabel(f"<b>{c + 1}</b>"))
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            cgrid.addWidget(label, 0, c + 1)
        self.cells: list[list[CellEditor]] = []
        for r in range(ROWS):
            label = rich(QLabel(f"<b>{r + 1}</b>"))
            label.setToolTip(f"Die roll {r + 1}")
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            cgrid.addWidget(label, r + 1, 0)
            row = []
            for c in range(COLUMNS):
                cell = CellEditor(r, c)
                cell.primary.currentIndexChanged.connect(self._changed)
                cell.alternate.currentIndexChanged.connect(self._changed)
                cgrid.addWidget(cell, r + 1, c + 1)
                row.append(cell)
            self.cells.append(row)
        cgrid.setRowStretch(ROWS + 1, 1)
        scroll = QScrollArea()
        scroll.setWidget(cells)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.grid_error = ErrorLabel()
        chart_group = QGroupBox("Damage Allocation Chart — the d6 roll picks the row; a group's "
                                "points use columns 1, 2 … 10 in order")
        cg = QVBoxLayout(chart_group)
        cg.addWidget(scroll, 1)
        cg.addWidget(self.grid_error)

        self._make_status()
        self.session_label = QLabel()
        self.use_button = QPushButton("&Use in This Session")
        self.use_button.setToolTip("Make this the session's Damage Allocation Chart "
                                   "(one undo step in the session window)")
        self.use_button.clicked.connect(self.use_in_session)
        self.save_button.setToolTip("Save the chart in your charts folder (Ctrl+S)")
        footer = self._footer_row(self.session_label, self.goto_button, self.use_button)

        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(8, 8, 8, 0)
        layout.addWidget(head)
        layout.addWidget(chart_group, 1)
        layout.addWidget(footer)
        self.setCentralWidget(central)

        self.own_kinds.editingFinished.connect(self._kinds_changed)
        self._make_actions()
        self.set_session_doc(session_doc)
        if chart_id:
            self.load_chart(chart_id)
        else:
            self.new_blank()

    def _make_actions(self) -> None:
        self._make_file_menu(self.new_blank,
                             after_save=(("act_use", "&Use in This Session", self.use_in_session),))

    # -- session (set_session_doc: FileWindow; a Federation Commander one enables Use) ----------
    def _accepts_session(self, doc) -> bool:
        return doc.session.game == "fedcom"

    def _refresh_session(self, *_args) -> None:
        doc = self.session_doc
        self.use_button.setVisible(doc is not None)
        self.session_label.setVisible(doc is not None)
        self.act_use.setEnabled(doc is not None and self.problem is None)
        self.use_button.setEnabled(doc is not None and self.problem is None)
        if doc is not None:
            current = doc.session.options.get(OPTION_CHART) or "training"
            self.session_label.setText(f"Session chart: {current}")

    # -- kinds -----------------------------------------------------------------------------------
    def own_kind_list(self) -> list[str]:
        """The kinds typed under Own kinds."""
        return [k for k in _KIND_SPLIT.split(self.own_kinds.text().strip()) if k]

    def kinds(self) -> list[str]:
        """The kinds the pickers offer: the library's, then the chart's own."""
        kinds = library_kinds()
        return kinds + [k for k in self.own_kind_list() if k not in kinds]

    def _kinds_changed(self) -> None:
        kinds = self.kinds()
        self._loading = True
        try:
            for row in self.cells:
                for cell in row:
                    cell.set_kinds(kinds)
        finally:
            self._loading = False
        self._changed()

    # -- loading -------------------------------------------------------------------------------------
    def load_data(self, data: dict, *, stem: str | None = None, document=None,
                  editing_path: Path | None = None, suggested_stem: str | None = None) -> None:
        """Fill the editor from chart data (as read from a file)."""
        self._loading = True
        try:
            self.name.setText(data.get("name") if isinstance(data.get("name"), str) else "")
            self.sample.setChecked(data.get("sample") is True)
            self.notes.setPlainText(data.get("notes") if isinstance(data.get("notes"), str) else "")
            extra = data.get("extra_kinds") if isinstance(data.get("extra_kinds"), list) else []
            self.own_kinds.setText(", ".join(k for k in extra if isinstance(k, str)))
            kinds = self.kinds()
            rows = data.get("rows") if isinstance(data.get("rows"), list) else []
            for r in range(ROWS):
                row = rows[r] if r < len(rows) and isinstance(rows[r], list) else []
                for c in range(COLUMNS):
                    cell = self.cells[r][c]
                    cell.set_kinds(kinds)
                    value = row[c] if c < len(row) and isinstance(row[c], str) else ""
                    cell.set_text(value)
            self._stem_edited = stem is not None
            self.stem.setText(stem if stem is not None else
                              suggested_stem or slug(self.name.text(), self.FALLBACK_STEM))
            self.document = document
            self.editing_path = editing_path
        finally:
            self._loading = False
        self._clean = self.current_data()
        self._loaded = True
        self._changed()

    def _has_document(self) -> bool:
        """Nothing to lose before the first chart is loaded (the window is still opening)."""
        return self._loaded

    def new_blank(self) -> None:
        """Start a blank chart (after asking about unsaved changes)."""
        if not self._may_discard():
            return
        self.load_data(blank_chart())
        self.show_status("New chart: pick the primary kind of every cell (and alternates)")

    def load_chart(self, chart_id: str) -> None:
        """Start from a chart: the user's own is edited in place, a bundled one copied."""
        mine = user_chart_path(chart_id)
        if mine.is_file():
            data, document = read_toml(mine)
            self.load_data(data, stem=chart_id, document=document, editing_path=mine)
            self.show_status(f"Editing your chart {self.name.text()}")
            return
        chart = get_chart(chart_id)
        data = chart.to_json()
        data["name"] = f"{chart.name} (copy)"
        data.pop("sample", None)
        self.load_data(data, suggested_stem=f"{chart_id}-copy")
        self.show_status(f"A copy of {chart.name}: save it under a name of your own")

    def _fill_start_menu(self, menu: QMenu | None = None) -> None:
        menu = self._start_menu(menu)
        menu.addAction("Blank Chart", self.new_blank)
        menu.addSeparator()
        for info in list_charts():
            label = info.name + ("  (yours)" if info.user else "  (sample)" if info.sample else "")
            menu.addAction(label, lambda cid=info.id: self._start_from(cid))

    def _start_from(self, chart_id: str) -> None:
        if self._may_discard():
            self.load_chart(chart_id)

    # -- the data ----------------------------------------------------------------------------------------
    def current_data(self) -> dict:
        """The chart as the cells hold it now (what Save writes: ``chart_files.chart_data``)."""
        return chart_data(self.name.text(), [[cell.text() for cell in row] for row in self.cells],
                          notes=self.notes.toPlainText(), sample=self.sample.isChecked(),
                          own_kinds=self.own_kind_list())

    def _changed(self, *_args) -> None:
        if self._loading:
            return
        self.validate()
        self.setWindowTitle(f"Chart Editor — {self.name.text().strip() or 'new chart'}[*]")
        self.setWindowModified(self.dirty)

    def validate(self) -> Problem | None:
        """Check the chart as the chart loader would; show any problem at its cell."""
        for w in (self.name, self.stem, self.notes, self.sample, self.own_kinds):
            clear_invalid(w)
        for row in self.cells:
            for cell in row:
                clear_invalid(cell.primary)
                clear_invalid(cell.alternate)
        self.common_error.clear()
        self.grid_error.clear()
        self._focus_widget = None
        if not self._check_stem():
            _chart, self.problem = check_chart(self.current_data(), self.stem_text)
            if self.problem is not None:
                self._show_at_field(self.problem)
        self._show_validity(f"Valid. Save puts it in your charts as <b>{esc(self.stem_text)}</b>")
        self._refresh_session()
        return self.problem

    def _show_at_field(self, problem: Problem) -> None:
        match = _CELL.match(problem.path)
        if match:
            r = min(int(match.group(1)), ROWS - 1)
            c = min(int(match.group(2) or 0), COLUMNS - 1)
            cell = self.cells[r][c]
            words = problem.text.lower()
            alternate = cell.alternate.currentText() not in ("", NONE) and (
                "alternate" in words or "frame" in words
                or f'"{cell.alternate.currentText()}"' in problem.text)
            widget = cell.alternate if alternate else cell.primary
            mark_invalid(widget, problem.message)
            self.grid_error.show_message(f"{problem.path} (roll {r + 1}, column {c + 1}): "
                                         f"{problem.text}")
            self._focus_widget = widget
            return
        fields = {"name": self.name, "notes": self.notes, "sample": self.sample,
                  "extra_kinds": self.own_kinds}
        key = top_key(problem.path)
        widget = fields.get(key)
        if widget is not None:
            mark_invalid(widget, problem.message)
            self._focus_widget = widget
        self.common_error.show_message(f"{problem.path}: {problem.text}" if problem.path
                                       else problem.message)

    # -- saving, using, files (FileWindow; here what is the chart's own) -------------------------------
    def _library_path(self) -> Path:
        return user_chart_path(self.stem_text)

    def _replace_question(self, path: Path) -> str:
        return f"Your charts folder already has {path.name}. Replace it?"

    def _write(self, path: Path):
        return save_chart(self.current_data(), path, self.document)

    def _saved(self, path: Path, chart) -> None:
        self.show_status(f"Saved {path.name}: pick “{chart.name}” for a session")

    def use_in_session(self) -> bool:
        """Make this chart the session's (set_chart_action: one undo step)."""
        doc = self.session_doc
        if doc is None:
            return False
        if self.validate() is not None:
            return self._refuse("Cannot Use Chart", "used")
        chart, _ = check_chart(self.current_data(), self.stem_text)
        refusals: list[str] = []
        doc.refused.connect(refusals.append)
        try:
            done = doc.do(set_chart_action(chart))
        except RuleViolation as exc:  # a builder refusing before the action exists
            refusals.append(str(exc))
            done = False
        finally:
            doc.refused.disconnect(refusals.append)
        if not done:
            QMessageBox.warning(self, "Cannot Use Chart", refusals[0] if refusals else "Refused.")
            return False
        self.show_status(f"The session now uses {chart.name}")
        self._refresh_session()
        return True

    def _check_import(self, path: Path, data: dict) -> bool | None:
        """Only a chart file is imported here (ship classes are the Ship Designer's)."""
        if not is_chart_data(data):
            QMessageBox.warning(self, "Cannot Import", f"{path.name}: not a Damage Allocation "
                                "Chart (a chart file has six \"rows\"); ship classes are "
                                "imported in the Ship Designer.")
            return False
        return None

    def _load_file(self, data: dict, stem: str, document) -> None:
        self.load_data(data, stem=stem, document=document)


__all__ = ["CellEditor", "ChartEditorWindow"]
