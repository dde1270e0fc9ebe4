"""A reference for the start-up figure: ShipSheet's first window built in plain PySide6.

No ShipSheet code (but see ``--read``): the same kinds and numbers of widgets as the window showing the
fedcom sample (menus and toolbar with their actions, a status bar, three docks: a tree
of 5 ships, a panel of five group boxes with buttons, labels, a check box and a combo, a
log of 129 lines; in the middle an image drawn with 159 labels and 216 boxes), shown
and exiting once painted, like ``bare_window.py``. ``--census`` prints what it is made
of instead; ``tests/ui/test_startup_reference.py`` compares that with ShipSheet's window
(``window_census.py``) and fails when they drift apart. It shows what a window with that
content costs in PySide6 before any of ShipSheet's own work (reading the file,
applying rules, the real drawing code).

What any window must do before it shows a stranger's file, this one does on request, with
ShipSheet's own means, so the start-up figure can judge what ShipSheet's window costs over
PySide6's own (``test_app_speed.py``):

- ``--read FILE`` reads and checks FILE with ShipSheet's model before PySide6 is imported,
  as ``shipsheet`` does (``cli._read_before_qt``): the model, the game's rules, the checks;
- ``--guarded`` keeps every label plain text while the window is built and first painted,
  with the style sheet ShipSheet's start-up gives its window (``plaintext.STARTUP_SHEET``).
"""

import sys

if "--read" in sys.argv:
    from shipsheet.model import load_session
    load_session(sys.argv[sys.argv.index("--read") + 1])

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QFont, QImage, QKeySequence, QPainter
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDockWidget, QGroupBox,
                               QHBoxLayout, QLabel, QListWidget, QMainWindow,
                               QPushButton, QScrollArea, QToolBar, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

MENUS = {"&File": 15, "&Edit": 3, "&Session": 10, "&View": 8, "&Tools": 1, "&Help": 2}
LABELS, BOXES = 159, 216


def painted():
    print("painted", flush=True)  # the benchmark times start-up to this line
    app.quit()


class Quit(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, painted)
        return False


class Sheet(QWidget):
    """An image drawn once, as ShipSheet draws a sheet: boxes and labels in four sizes."""

    def __init__(self):
        super().__init__()
        ratio = self.devicePixelRatioF()
        self.image = QImage(int(595 * ratio), int(852 * ratio), QImage.Format.Format_ARGB32_Premultiplied)
        self.image.setDevicePixelRatio(ratio)
        self.image.fill(QColor("white"))
        painter = QPainter(self.image)
        self.draw(painter)
        painter.end()
        self.setFixedSize(595, 852)

    @staticmethod
    def draw(painter):
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        fonts = []
        for size, bold in ((7, False), (9, False), (9, True), (14, True)):
            font = QFont()
            font.setFamilies(["Noto Sans", "DejaVu Sans", "Liberation Sans"])
            font.setPointSizeF(size * 0.75)
            font.setBold(bold)
            fonts.append(font)
        for i in range(BOXES):
            painter.drawRect(QRectF(28 + (i % 20) * 26, 120 + (i // 20) * 24, 16, 16))
        for i in range(LABELS):
            painter.setFont(fonts[i % 4])
            painter.drawText(QRectF(28 + (i % 8) * 68, 400 + (i // 8) * 22, 66, 20),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), f"Label {i}")

    def paintEvent(self, event):
        painter = QPainter(self)
        painter.drawImage(0, 0, self.image)
        painter.end()


def dock(window, title, widget, area):
    d = QDockWidget(title, window)
    d.setWidget(widget)
    window.addDockWidget(area, d)
    d.toggleViewAction().setShortcut(QKeySequence("Ctrl+1"))


app = QApplication(sys.argv[:1])
window = QMainWindow()
if "--guarded" in sys.argv:  # as ShipSheet's window is until it has first painted
    from shipsheet.ui.plaintext import STARTUP_SHEET
    window.setStyleSheet(STARTUP_SHEET)
window.resize(1280, 860)
toolbar = QToolBar("Main")
toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
for menu_title, count in MENUS.items():
    menu = window.menuBar().addMenu(menu_title)
    for i in range(count):
        action = QAction(f"Action &{i}…", window)
        action.setShortcut(QKeySequence(f"Ctrl+Shift+{i % 10}"))
        action.setStatusTip("What this action does")
        menu.addAction(action)
        if menu_title in ("&File", "&Edit") and i < 4:
            toolbar.addAction(action)
window.addToolBar(toolbar)
window.statusBar().addPermanentWidget(QLabel("Turn 1 · Energy Allocation"))

scroll = QScrollArea()
scroll.setWidget(Sheet())
window.setCentralWidget(scroll)

roster = QTreeWidget()
roster.setHeaderHidden(True)
for side in ("Federation", "Klingons"):
    top = QTreeWidgetItem(roster, [side])
    for i in range(3 if side == "Federation" else 2):
        QTreeWidgetItem(top, [f"Ship {i} — Heavy cruiser · undamaged"])
roster.expandAll()
dock(window, "Roster", roster, Qt.DockWidgetArea.LeftDockWidgetArea)

panel = QWidget()
layout = QVBoxLayout(panel)
layout.addWidget(QLabel("Ship 0"))
layout.addWidget(QLabel("Standing orders\nFrame 6 of 6 left; 0 of 67 boxes destroyed"))
for title in ("Volley", "Standing orders", "This turn", "Repair", "Damage Allocation Chart"):
    box = QGroupBox(title)
    box_layout = QVBoxLayout(box)
    if title == "Volley":
        box_layout.addWidget(QPushButton("Volley…"))
    if title == "Standing orders":
        box_layout.addWidget(QLabel("• hit last: ph-5\n• frame instead of the last box of: lab"))
        box_layout.addWidget(QCheckBox("Copy orders to next turn"))
        box_layout.addWidget(QPushButton("Standing Orders…"))
    if title == "This turn":
        box_layout.addWidget(QLabel("photon-2 charging.\nStates reset at the end of the turn."))
    if title == "Repair":
        for text in ("4 of 4 repair points left this turn.", "Destroyed boxes:", "Nothing to repair."):
            box_layout.addWidget(QLabel(text))
        box_layout.addWidget(QPushButton("Repair ticked boxes"))
    if title == "Damage Allocation Chart":
        box_layout.addWidget(QLabel("Chart:"))
        combo = QComboBox()
        combo.addItem("Training chart")
        box_layout.addWidget(combo)
    layout.addWidget(box)
layout.addWidget(QLabel(""))
layout.addStretch(1)
panel_scroll = QScrollArea()
panel_scroll.setWidget(panel)
panel_scroll.setWidgetResizable(True)
dock(window, "Actions", panel_scroll, Qt.DockWidgetArea.RightDockWidgetArea)

log = QWidget()
log_layout = QVBoxLayout(log)
row = QHBoxLayout()
row.addWidget(QLabel("Ship:"))
row.addWidget(QComboBox())
row.addWidget(QLabel("Turn:"))
row.addWidget(QComboBox())
row.addWidget(QCheckBox("Show undone"))
row.addWidget(QPushButton("Copy as text"))
log_layout.addLayout(row)
lines = QListWidget()
lines.addItems([f"Turn 1 · Combat — Ship {i % 5}: volley point {i}, roll 4, row 4: phaser" for i in range(129)])
log_layout.addWidget(lines)
dock(window, "Log", log, Qt.DockWidgetArea.BottomDockWidgetArea)

if "--census" in sys.argv:  # what this window is made of (tests/ui/test_startup_reference.py)
    import json
    from window_census import CountingPainter, census
    window.show()
    app.processEvents()
    image = QImage(595, 852, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    counting = CountingPainter(painter)
    Sheet.draw(counting)
    painter.end()
    print(json.dumps(census(window, counting.labels, counting.boxes)))
    sys.exit(0)
quitter = Quit()
window.installEventFilter(quitter)
window.show()
app.exec()
