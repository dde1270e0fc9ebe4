"""What a sheet shows at a box: the colour at a point of its area, drawn at twice the size
(as on a high-resolution screen). For tests that check a click left its mark."""

from __future__ import annotations


def sheet_image(session, ship):
    """The sheet drawn at twice the size, light theme: (image, box key -> rectangle)."""
    from PySide6.QtGui import QColor, QImage, QPainter

    from shipsheet.sheets import Theme, painter_for
    sheet = painter_for(ship, session)
    size = sheet.size()
    image = QImage(int(size.width()) * 2, int(size.height()) * 2, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.scale(2, 2)
    sheet.paint(painter, Theme.light())
    painter.end()
    return image, {a.key: a.rect for a in sheet.areas}


def sheet_pixel(session, ship, key, dx, dy):
    """The colour the sheet shows ``dx``, ``dy`` units right of and below the top-left corner
    of box ``key``'s area."""
    image, rects = sheet_image(session, ship)
    rect = rects[key]
    return image.pixelColor(round((rect.left() + dx) * 2), round((rect.top() + dy) * 2))


def near(colour, other) -> bool:
    """Two colours alike to the eye (each channel within 40 of 255)."""
    return all(abs(a - b) < 40 for a, b in ((colour.red(), other.red()),
                                            (colour.green(), other.green()),
                                            (colour.blue(), other.blue())))
