"""File > Print…, Print Preview…, Export PDF…: choose what to print, show progress."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDialog, QDialogButtonBox,
                               QFileDialog, QFormLayout, QMessageBox, QProgressDialog, QRadioButton,
                               QVBoxLayout, QWidget)

from ..printing.render import Cancelled, PrintJob, export_pdf, render_job
from .layouts import fit_to_screen
from .settings import get_setting, set_setting


class PrintOptionsDialog(QDialog):
    """Which ships (current, selected, all), page size, and the log page."""

    def __init__(self, parent: QWidget, title: str, has_selection: bool):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.current = QRadioButton("&Current ship")
        self.selected = QRadioButton("&Selected ships")
        self.selected.setEnabled(has_selection)
        self.all = QRadioButton("&Whole session (one ship per page)")
        scope = get_setting("print_scope", "current")
        {"current": self.current, "selected": self.selected, "all": self.all}.get(
            scope, self.current).setChecked(True)
        if not self.selected.isEnabled() and self.selected.isChecked():
            self.current.setChecked(True)
        self.page = QComboBox()
        self.page.addItems(["A4", "Letter"])
        self.page.setCurrentText(get_setting("page_size", "A4"))
        self.log = QCheckBox("Add a page with the session &log")
        self.log.setChecked(bool(get_setting("print_log", False)))
        self.turn_marks = QCheckBox("Show this &turn's marks apart (/ this turn, X before)")
        self.turn_marks.setChecked(bool(get_setting("turn_marks", False)))
        form = QFormLayout()
        form.addRow(self.current)
        form.addRow(self.selected)
        form.addRow(self.all)
        form.addRow("&Paper:", self.page)
        form.addRow(self.log)
        form.addRow(self.turn_marks)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    @property
    def scope(self) -> str:
        return "all" if self.all.isChecked() else "selected" if self.selected.isChecked() else "current"

    def remember(self) -> None:
        set_setting("print_scope", self.scope)
        set_setting("page_size", self.page.currentText())
        set_setting("print_log", self.log.isChecked())


def _job(window, dialog: PrintOptionsDialog) -> PrintJob:
    session = window.doc.session
    if dialog.scope == "all":
        ships = list(session.ships)
    elif dialog.scope == "selected":
        ids = window.roster.selected_ship_ids()
        ships = [s for s in session.ships if s.id in ids]
    else:
        ships = [window.doc.current_ship] if window.doc.current_ship else []
    return PrintJob(session, ships, dialog.log.isChecked(), dialog.page.currentText(),
                    window.doc.display_name, turn_marks=dialog.turn_marks.isChecked())


def _ask(window, title: str) -> PrintJob | None:
    if window.doc is None:
        return None
    dialog = PrintOptionsDialog(window, title, len(window.roster.selected_ship_ids()) > 1)
    if not dialog.exec():
        return None
    dialog.remember()
    job = _job(window, dialog)
    if not job.ships and not job.log:
        QMessageBox.information(window, title, "There is no ship to print.")
        return None
    return job


def _progress(window, total: int):
    """A progress callback showing a dialog for anything longer than a page or two."""
    dialog = QProgressDialog("Drawing sheets…", "Cancel", 0, total, window)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(400)

    def progress(done: int, _total: int) -> bool:
        dialog.setValue(done)
        QApplication.processEvents()
        return not dialog.wasCanceled()

    return dialog, progress


def export_pdf_dialog(window) -> Path | None:
    job = _ask(window, "Export PDF")
    if job is None:
        return None
    stem = Path(window.doc.display_name).stem
    start = str((window.doc.path.parent if window.doc.path else Path.home()) / f"{stem}.pdf")
    path, _ = QFileDialog.getSaveFileName(window, "Export PDF", start, "PDF files (*.pdf)")
    if not path:
        return None
    if not path.lower().endswith(".pdf"):
        path += ".pdf"
    dialog, progress = _progress(window, len(job.ships))
    try:
        pages = export_pdf(job, path, progress)
    except Cancelled:
        window.show_status("Export cancelled; no file written")
        return None
    except OSError as exc:
        QMessageBox.warning(window, "Export PDF", f"Cannot write {Path(path).name}: {exc.strerror or exc}")
        return None
    finally:
        dialog.close()
    window.show_status(f"Exported {pages} pages to {Path(path).name}")
    return Path(path)


def _printer(job: PrintJob) -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName(job.title or job.session.title)
    return printer


def print_dialog(window) -> bool:
    job = _ask(window, "Print")
    if job is None:
        return False
    printer = _printer(job)
    if QPrintDialog(printer, window).exec() != QDialog.DialogCode.Accepted:
        return False
    dialog, progress = _progress(window, len(job.ships))
    try:
        render_job(printer, job, progress)
    except Cancelled:
        window.show_status("Printing cancelled")
        return False
    finally:
        dialog.close()
    window.show_status("Sent to the printer")
    return True


def print_preview(window) -> None:
    job = _ask(window, "Print Preview")
    if job is None:
        return
    printer = _printer(job)
    preview = QPrintPreviewDialog(printer, window)
    preview.paintRequested.connect(lambda p: render_job(p, job))
    fit_to_screen(preview, 900, 1000)  # a page tall, or as tall as the screen lets it be
    preview.exec()


# -- blank sheets, for play on paper ---------------------------------------------------------

class BlankSheetDialog(QDialog):
    """File ▸ Print Blank Sheet…: classes of the library (one game), the paper, and Print or
    Export PDF."""

    def __init__(self, parent: QWidget, game: str | None = None, class_id: str | None = None,
                 preset: list | None = None):
        super().__init__(parent)
        self.preset = list(preset or [])  # the designer's class: no picking
        from PySide6.QtWidgets import QAbstractItemView, QLabel, QListWidget
        from .dialogs import game_combo
        self.setWindowTitle("Print Blank Sheet")
        self.setMinimumWidth(480)
        self.game = game_combo(game)
        self.classes = QListWidget()
        self.classes.setAccessibleName("Ship classes")
        self.classes.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.page = QComboBox()
        self.page.addItems(["A4", "Letter"])
        self.page.setCurrentText(get_setting("page_size", "A4"))
        note = QLabel("One page per class, every box empty, for players who play on paper. "
                      "Ctrl+click picks several.")
        note.setWordWrap(True)
        form = QFormLayout()
        if self.preset:
            form.addRow("Class:", QLabel(", ".join(c.name for c in self.preset)))
            self.game.hide()
            self.classes.hide()
        else:
            form.addRow("&Game:", self.game)
            form.addRow("&Classes:", self.classes)
        form.addRow("&Paper:", self.page)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.print_button = buttons.addButton("&Print…", QDialogButtonBox.ButtonRole.AcceptRole)
        self.pdf_button = buttons.addButton("&Export PDF…", QDialogButtonBox.ButtonRole.AcceptRole)
        self.choice = ""
        self.print_button.clicked.connect(lambda: self._done("print"))
        self.pdf_button.clicked.connect(lambda: self._done("pdf"))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.game.currentIndexChanged.connect(lambda _i: self._fill(None))
        self._fill(class_id)

    def _fill(self, class_id: str | None) -> None:
        from PySide6.QtWidgets import QListWidgetItem
        from ..model import get_game
        from ..model.library import list_classes
        game = self.game.currentData()
        rules = get_game(game)
        self.classes.clear()
        for cls in list_classes(game):
            item = QListWidgetItem(rules.describe_class(cls) + ("  (sample)" if cls.sample else ""))
            item.setData(Qt.ItemDataRole.UserRole, cls.id)
            self.classes.addItem(item)
            if cls.id == class_id or (class_id is None and self.classes.count() == 1):
                item.setSelected(True)
                self.classes.setCurrentItem(item)

    def chosen(self) -> list:
        if self.preset:
            return self.preset
        from ..model.library import get_class
        return [get_class(item.data(Qt.ItemDataRole.UserRole))
                for item in self.classes.selectedItems()]

    def _done(self, choice: str) -> None:
        if not self.chosen():
            QMessageBox.information(self, "Print Blank Sheet", "Pick at least one class.")
            return
        self.choice = choice
        set_setting("page_size", self.page.currentText())
        self.accept()


def blank_sheets(window, classes: list | None = None, game: str | None = None) -> bool:
    """Print or export blank sheets: of ``classes`` (the designer's class), or of classes
    picked in :class:`BlankSheetDialog`."""
    dialog = BlankSheetDialog(window, game, preset=classes)
    if not dialog.exec():
        return False
    chosen = dialog.chosen()
    job = PrintJob(None, [], False, dialog.page.currentText(), blank=chosen)
    status = getattr(window, "show_status", None) or (lambda text: None)
    if dialog.choice == "pdf":
        stem = chosen[0].id.split("/")[-1] + ("-and-more" if len(chosen) > 1 else "") + "-blank"
        path, _ = QFileDialog.getSaveFileName(window, "Export PDF", str(Path.home() / f"{stem}.pdf"),
                                              "PDF files (*.pdf)")
        if not path:
            return False
        if not path.lower().endswith(".pdf"):
            path += ".pdf"
        try:
            pages = export_pdf(job, path)
        except OSError as exc:
            QMessageBox.warning(window, "Export PDF", f"Cannot write {Path(path).name}: "
                                                      f"{exc.strerror or exc}")
            return False
        status(f"Exported {pages} blank sheet{'s' if pages != 1 else ''} to {Path(path).name}")
        return True
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName("Blank sheets")
    if QPrintDialog(printer, window).exec() != QDialog.DialogCode.Accepted:
        return False
    render_job(printer, job)
    status("Sent to the printer")
    return True
