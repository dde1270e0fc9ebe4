"""The one font of every sheet: DejaVu Sans, bundled (``resources/fonts/``).

The sheets are measured and drawn in it on every machine — the window, the printer and
the PDF, and Table Link's SVG, whose phones are served the same two files
(``share/server.py``) — so the system's fonts never change how a session lays out
(checked on Linux with the system's fonts hidden, ``tests/test_bundled_font.py``). It has the suit symbols ♠♥♦♣ War In Space's sheet
shows. Its licence is ``resources/fonts/LICENSE-DejaVu.txt``.

:func:`register_bundled_fonts` adds the files to Qt's font database once per process (it
needs the QGuiApplication); ``sheets.base.sheet_font`` calls it before the first sheet is
measured, on whichever thread that is, so the window, the printer and ``shipsheet serve``
need not remember to. A system's own "DejaVu Sans", of another version, is not used.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ..model.paths import resources_dir

#: The family the bundled files are (what ``QFontDatabase`` names them).
FAMILY = "DejaVu Sans"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"

_lock = threading.Lock()
_family: str | None = None
_registered: tuple[Path, ...] = ()


def font_path(bold: bool = False) -> Path:
    """The bundled font file: regular or bold."""
    return resources_dir() / "fonts" / (BOLD if bold else REGULAR)


def register_bundled_fonts() -> str:
    """Add the bundled regular and bold files to Qt's font database (once; any thread, after
    the QGuiApplication is made) and return their family. A file Qt refuses is a broken
    install: an error, never a quiet fall back to the system's fonts."""
    global _family, _registered
    if _family is not None:
        return _family
    with _lock:
        if _family is None:
            from PySide6.QtGui import QFontDatabase, QGuiApplication
            if QGuiApplication.instance() is None:
                raise RuntimeError("the bundled font is registered once the QGuiApplication exists")
            # The system's fonts are listed first (hasFamily populates the database): a file
            # registered later takes the place of the system's face of the same family and
            # style. Registered before, it would depend on the order fontconfig lists both
            # in — a system's own DejaVu Sans Bold drew the bold labels (Qt 6.11).
            QFontDatabase.hasFamily(FAMILY)
            families, paths = [], []
            for bold in (False, True):
                path = font_path(bold)
                ident = QFontDatabase.addApplicationFont(str(path))
                if ident < 0:
                    raise RuntimeError(f"Qt could not load the bundled font {path}; "
                                       "reinstall the application.")
                families += QFontDatabase.applicationFontFamilies(ident)
                paths.append(path)
            if FAMILY not in families:
                raise RuntimeError(f"the bundled font files are {families}, not {FAMILY}")
            _registered = tuple(paths)
            _family = FAMILY
    return _family


def registered_files() -> tuple[Path, ...]:
    """The files registered with Qt so far (none before the first sheet is measured)."""
    return _registered
