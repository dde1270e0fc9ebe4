"""Guard against the PySide6 6.12.0 defect that made ShipSheet crash after a few pages.

On Python 3.11 that release dropped a reference to None on every call of a
method returning nothing (QPainter.save, scale, drawLine ...), so after some
thousands of calls the interpreter aborted ("none_dealloc"). pyproject.toml
keeps PySide6 below 6.12; this test fails if an installed binding has the defect.
"""

import sys

from PySide6.QtGui import QColor, QImage, QPainter


def test_void_qt_calls_keep_none_alive(qapp):
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    before = sys.getrefcount(None)
    for _ in range(2000):
        painter.save()
        painter.scale(1.0, 1.0)
        painter.setPen(QColor("black"))
        painter.restore()
    drift = sys.getrefcount(None) - before
    painter.end()
    assert abs(drift) < 500, f"None lost {-drift} references: this PySide6 build is defective"
