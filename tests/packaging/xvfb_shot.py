"""Run by test_real_x_server: the app on an X server (xcb, not offscreen), then a screenshot
of the whole screen taken from the X server, saved to argv[2]."""

import sys

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication

from shipsheet.ui.app import Application, make_qapp

qapp = make_qapp()
assert QGuiApplication.platformName() == "xcb", QGuiApplication.platformName()
application = Application(qapp)
window = application.new_window()
window.resize(1200, 800)
window.move(0, 0)
window.open_path(sys.argv[1])


def shoot():
    screen = QGuiApplication.primaryScreen()
    screen.grabWindow(0).save(sys.argv[2])
    canvas = window.sheet_view.canvas
    top_left = canvas.mapTo(window, canvas.rect().topLeft())
    print(f"canvas {top_left.x()} {top_left.y()} {canvas.width()} {canvas.height()}", flush=True)
    window.doc.mark_clean()
    qapp.quit()


QTimer.singleShot(1500, shoot)
qapp.exec()
