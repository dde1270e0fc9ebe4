"""A reference for the start-up figure: ShipSheet's first window built in plain PySide6.

No ShipSheet code: the same kinds and numbers of widgets as the window showing the
fedcom sample (menus and toolbar with their actions, a status bar, three docks: a tree
of 5 ships, a panel of group boxes with buttons, labels, a check list and a combo, a
log of 129 lines; in the middle an image drawn with 160 labels and 70 boxes), shown
and exiting once painted, like ``bare_window.py``. It shows what a window with that
content costs in PySide6 before any of ShipSheet's own work (reading the file,
applying rules, the real drawing code).
"""

import sys

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QFont, QImage, QKeySequence, QPainter
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDockWidget, QGroupBox,
                               QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QMainWindow,
                               QPushButton, QScrollArea, QToolBar, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

MENUS = {"&File": 13, "&Edit": 3, "&Session": 8, "&View": 6, "&Tools": 2, "&Help": 2}


class Quit(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, app.quit)
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
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        fonts = []
        for size, bold in ((7, False), (9, False), (9, True), (14, True)):
            font = QFont()
            font.setFamilies(["Noto Sans", "DejaVu Sans", "Liberation Sans"])
            font.setPointSizeF(size * 0.75)
            font.setBold(bold)
            fonts.append(font)
        for i in range(70):
            painter.drawRect(QRectF(28 + (i % 20) * 26, 120 + (i // 20) * 40, 16, 16))
        for i in range(160):
            painter.setFont(fonts[i % 4])
            painter.drawText(QRectF(28 + (i % 8) * 68, 300 + (i // 8) * 26, 66, 20),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), f"Label {i}")
        painter.end()
        self.setFixedSize(595, 852)

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
layout.addWidget(QLabel("<b>Ship 0</b>"))
for title in ("Volley", "Standing orders", "Ship states", "Repairs", "Damage Allocation Chart"):
    box = QGroupBox(title)
    box_layout = QVBoxLayout(box)
    box_layout.addWidget(QLabel("One line that says what this box holds."))
    if title == "Repairs":
        checks = QListWidget()
        for i in range(6):
            item = QListWidgetItem(f"Box {i}: 2 points")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            checks.addItem(item)
        box_layout.addWidget(checks)
    if title == "Standing orders":
        box_layout.addWidget(QCheckBox("Carry these orders forward"))
    if title == "Damage Allocation Chart":
        combo = QComboBox()
        combo.addItem("Training chart")
        box_layout.addWidget(combo)
    else:
        box_layout.addWidget(QPushButton(f"{title}…"))
    layout.addWidget(box)
layout.addStretch(1)
panel_scroll = QScrollArea()
panel_scroll.setWidget(panel)
panel_scroll.setWidgetResizable(True)
dock(window, "Actions", panel_scroll, Qt.DockWidgetArea.RightDockWidgetArea)

log = QWidget()
log_layout = QVBoxLayout(log)
row = QHBoxLayout()
row.addWidget(QComboBox())
row.addWidget(QCheckBox("Details"))
log_layout.addLayout(row)
lines = QListWidget()
lines.addItems([f"Turn 1 · Combat — Ship {i % 5}: volley point {i}, roll 4, row 4: phaser" for i in range(129)])
log_layout.addWidget(lines)
dock(window, "Log", log, Qt.DockWidgetArea.BottomDockWidgetArea)

quitter = Quit()
window.installEventFilter(quitter)
window.show()
app.exec()
