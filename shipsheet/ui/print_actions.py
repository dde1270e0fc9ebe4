"""File > Print…, Print Preview…, Export PDF…: choose what to print, show progress."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDialog, QDialogButtonBox,
                               QFileDialog, QFormLayout, QMessageBox, QProgressDialog, QRadioButton,
                               QVBoxLayout, QWidget)

from ..printing.render import Cancelled, PrintJob, export_pdf, render_job
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
        form = QFormLayout()
        form.addRow(self.current)
        form.addRow(self.selected)
        form.addRow(self.all)
        form.addRow("&Paper:", self.page)
        form.addRow(self.log)
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
                    window.doc.display_name)


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
    preview.resize(900, 1000)
    preview.exec()
