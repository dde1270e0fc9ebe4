"""The baseline: a bare PySide6 QMainWindow, shown, exiting once painted; prints its RSS."""

import sys

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


def painted():
    print("painted", flush=True)  # the benchmark times start-up to this line
    app.quit()


class Quit(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, painted)
        return False


app = QApplication(sys.argv[:1])
window = QMainWindow()
window.resize(1280, 860)
quitter = Quit()
window.installEventFilter(quitter)
window.show()
app.exec()
if "--rss" in sys.argv:
    status = open("/proc/self/status").read()
    print([line for line in status.splitlines() if line.startswith("VmRSS")][0].split()[1])
