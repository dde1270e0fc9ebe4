"""Run in a fresh process by ``test_startup_guard.py``: the plain-text guard is installed
once per process, and start-up arms it late (``plaintext.install_when_painted``).

``window FILE``: ``run_app`` on FILE as the command line starts it (quitting after the first
paint), ``dialog``: a modal question over a window not painted yet, ``unguarded FILE``: the
window with the guard never armed (the checks must then find bad labels), ``appearance``:
the start-up style sheet, then a dark and a light appearance. Prints JSON: each
label as it paints, whether it was plain or our own declared markup, and how many times the
sheet was drawn."""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from shipsheet.ui import app as app_module, plaintext
from shipsheet.ui import sheet_view

HOSTILE = '<b>HOSTILE</b><img src="hostile-marker.png">'
painted: list[dict] = []
renders: list[float] = []


class LabelWatch(QObject):
    """Notes what each label is as it paints (before any of its text is drawn)."""

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint and isinstance(obj, QLabel):
            painted.append({"text": obj.text()[:60], "rich": plaintext.is_rich(obj),
                            "plain": obj.textFormat() == Qt.TextFormat.PlainText})
        return False


watch = LabelWatch()


def watch_labels(top) -> None:
    for label in (top, *top.findChildren(QLabel)):
        if isinstance(label, QLabel):
            label.installEventFilter(watch)


def report(**extra) -> None:
    print(json.dumps({"painted": painted, "renders": renders, **extra}), flush=True)


real_render = sheet_view.SheetCanvas._render


def counting_render(self):
    renders.append(round(self.zoom, 3))
    return real_render(self)


sheet_view.SheetCanvas._render = counting_render
mode = sys.argv[1]
if mode == "unguarded":
    plaintext.install_when_painted = lambda app, window: None
    app_module.install_when_painted = plaintext.install_when_painted
if mode in ("window", "unguarded"):
    real_show = app_module.MainWindow.show

    def show(self):
        watch_labels(self)  # every label the window holds when it first shows
        real_show(self)

    app_module.MainWindow.show = show
    code = app_module.run_app(sys.argv[2], quit_after_startup=True)
    report(code=code, guard=plaintext._guard is not None)
elif mode == "appearance":  # the start-up style sheet, then dark and back to light
    from shipsheet.ui import palette
    qapp = app_module.make_qapp(guard=False)
    window = app_module.MainWindow()
    plaintext.install_when_painted(qapp, window)
    during = (qapp.styleSheet(), window.styleSheet())
    window.show()
    QApplication.processEvents()
    QApplication.processEvents()
    after = (qapp.styleSheet(), window.styleSheet(), qapp.style().name())
    palette.apply_color_scheme(qapp, "dark")
    dark = qapp.style().name()
    palette.apply_color_scheme(qapp, "light")
    report(during=during, after=after, dark=dark, light=qapp.style().name())
elif mode == "dialog":
    qapp = app_module.make_qapp(guard=False)
    window = app_module.MainWindow()
    plaintext.install_when_painted(qapp, window)
    box = QMessageBox(window)
    box.setText(f"“{HOSTILE}.shipsheet” is already open")  # a file name is a stranger's text
    watch_labels(box)
    QTimer.singleShot(300, box.accept)
    box.exec()
    report(guard=plaintext._guard is not None, window_painted=window.isVisible())
    QApplication.processEvents()
