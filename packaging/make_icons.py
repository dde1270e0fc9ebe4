"""Render the application icon (resources/icons/shipsheet.svg) to PNGs in the usual sizes,
and to the Windows ``.ico`` and macOS ``.icns`` the PyInstaller spec builds with.

Run: .venv/bin/python packaging/make_icons.py  (writes packaging/icons/hicolor/<n>x<n>/apps/,
packaging/icons/shipsheet.ico and packaging/icons/shipsheet.icns; Pillow, a test extra,
writes the last two on any system). The files are committed: a build needs neither Qt's
SVG renderer nor Pillow.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
APP_ID = "io.github.shipsheet.ShipSheet"
ICO = ROOT / "packaging" / "icons" / "shipsheet.ico"
ICNS = ROOT / "packaging" / "icons" / "shipsheet.icns"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)       # Windows reads up to 256
ICNS_SIZES = (16, 32, 64, 128, 256, 512, 1024)   # 1024: the 512 @2x rendition


def write_platform_icons(images: dict) -> None:
    """``images``: size -> PNG bytes of the icon rendered at that size (not scaled)."""
    import io

    from PIL import Image

    pictures = {size: Image.open(io.BytesIO(data)).convert("RGBA") for size, data in images.items()}
    largest = pictures[max(ICO_SIZES)]
    largest.save(ICO, format="ICO", sizes=[(n, n) for n in ICO_SIZES],
                 append_images=[pictures[n] for n in ICO_SIZES if n != max(ICO_SIZES)])
    top = pictures[max(ICNS_SIZES)]
    top.save(ICNS, format="ICNS", append_images=[pictures[n] for n in ICNS_SIZES[:-1]])


def main() -> None:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication(sys.argv[:1])
    svg = ROOT / "resources" / "icons" / "shipsheet.svg"
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not a valid SVG")
    rendered: dict[int, bytes] = {}
    for size in sorted(set(SIZES) | set(ICO_SIZES) | set(ICNS_SIZES)):
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")
        rendered[size] = bytes(data)
        if size not in SIZES:
            continue
        out = ROOT / "packaging" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        image.save(str(out))
    scalable = ROOT / "packaging" / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    scalable.write_bytes(svg.read_bytes())
    write_platform_icons(rendered)
    del app
    print(f"icons written for sizes {', '.join(map(str, SIZES))} and scalable; "
          f"{ICO.name} and {ICNS.name}")


if __name__ == "__main__":
    main()
