"""File > Export PDF… and Print Preview… from the window: scope, page size, progress, cancel."""

from __future__ import annotations

import subprocess

from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QDialog

from shipsheet.ui import print_actions
from shipsheet.ui.print_actions import PrintOptionsDialog


def choose(monkeypatch, scope: str, log: bool = False, page: str = "A4"):
    """Answer the print options dialog as a user would."""
    def exec_(self):
        getattr(self, scope).setChecked(True)
        self.log.setChecked(log)
        self.page.setCurrentText(page)
        return QDialog.DialogCode.Accepted
    monkeypatch.setattr(PrintOptionsDialog, "exec", exec_)


def test_export_whole_session_one_page_per_ship(window, dialogs, monkeypatch, tmp_path):
    window.open_sample("fedcom")
    choose(monkeypatch, "all")
    dialogs.path = str(tmp_path / "night")
    out = window._printing().export_pdf_dialog(window)
    assert out == tmp_path / "night.pdf" and out.is_file()
    assert out.read_bytes().startswith(b"%PDF")
    assert f"Exported {len(window.doc.session.ships)} pages" in window.status_text()


def test_export_current_ship_with_the_log_on_letter(window, dialogs, monkeypatch, tmp_path):
    window.open_sample("triplanetary")
    choose(monkeypatch, "current", log=True, page="Letter")
    dialogs.path = str(tmp_path / "ajax.pdf")
    out = window._printing().export_pdf_dialog(window)
    data = out.read_bytes()
    assert b"/MediaBox [0 0 612" in data
    assert "Exported 2 pages" in window.status_text()


def test_cancelled_export_writes_nothing(window, dialogs, monkeypatch, tmp_path):
    window.open_sample("war-in-space")
    choose(monkeypatch, "all")
    dialogs.path = str(tmp_path / "cancel.pdf")
    monkeypatch.setattr(print_actions.QProgressDialog, "wasCanceled", lambda self: True)
    assert window._printing().export_pdf_dialog(window) is None
    assert not (tmp_path / "cancel.pdf").exists()
    assert "Export cancelled" in window.status_text()


def test_print_preview_draws_the_pages(window, monkeypatch, tmp_path):
    """The preview asks for the pages; here they go to a PDF printer to be counted."""
    window.open_sample("war-in-space")
    choose(monkeypatch, "all")
    out = tmp_path / "preview.pdf"

    def exec_(self):
        printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(out))
        self.paintRequested.emit(printer)
        return 0
    monkeypatch.setattr(QPrintPreviewDialog, "exec", exec_)
    window._printing().print_preview(window)
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True).stdout
    assert int(info.split("Pages:")[1].split()[0]) == len(window.doc.session.ships)


def test_selected_scope_needs_several_selected_ships(window):
    window.open_sample("fedcom")
    dialog = PrintOptionsDialog(window, "Print", has_selection=False)
    assert not dialog.selected.isEnabled()
    dialog = PrintOptionsDialog(window, "Print", has_selection=True)
    assert dialog.selected.isEnabled()
