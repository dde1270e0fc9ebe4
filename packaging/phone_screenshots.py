"""Table Link's phones, one picture a seat and game: docs/phone-<game>-player.png and
docs/phone-<game>-referee.png, each a 390×844 phone at device scale 2.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/phone_screenshots.py

For each game's sample session (resources/samples/<game>.shipsheet) Table Link is started on
127.0.0.1 with a player seat (the side of the session's first ship) and the referee's; each
seat's link is opened in Debian's headless Chromium (tests/share/browser.py) and its first
screen saved: the player's at the top of the sheet; the referee's scrolled to the sheet's
first boxes, under the header that stays, with the header's menu open (the referee's
controls: undo, the next phase or turn, the seats and their new links). Selenium runs on a helper thread while Qt's loop
runs here. Nothing is written in the user's folders: the seats live in a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs"
sys.path.insert(0, str(ROOT))

# The browser on a helper thread while Qt's loop runs here, as the table's pictures do it.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_screenshots import run, settle, until  # noqa: E402
import table_screenshots  # noqa: E402

shutil.rmtree(table_screenshots._STATE, ignore_errors=True)  # its folder: this script makes its own

#: The seats' file goes here, not in the user's state folder.
_STATE = tempfile.mkdtemp(prefix="shipsheet-phone-shots-")
os.environ["SHIPSHEET_STATE_DIR"] = _STATE

GAMES = ("fedcom", "triplanetary", "war-in-space")

READY = """
const s = document.querySelector('#ships .ship:not([hidden])');
return !!s && s.querySelectorAll('button.area').length > 0 && !!s.querySelector('svg.sheet-svg')
  && document.getElementById('conn').textContent === 'Live' && document.fonts.status === 'loaded';
"""

#: The referee's screen: the sheet scrolled up to its first boxes, just under the header.
TO_THE_BOXES = """
const s = document.querySelector('#ships .ship:not([hidden])');
const first = s.querySelector('button.area');
const header = document.querySelector('header.top').getBoundingClientRect().height;
scrollTo(0, first.getBoundingClientRect().top + scrollY - header - 48);
"""


def shoot(driver, link, seat, path: Path, script: str = "", menu: bool = False) -> None:
    from tests.share.browser import screenshot

    js = driver.execute_script
    run(lambda: (driver.get("about:blank"), driver.get(link.url(seat))))
    until(driver, lambda: js(READY))
    settle(0.3)
    run(lambda: js("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur();"
                   + script))
    if menu:
        run(lambda: driver.find_element("id", "more-summary").click())
        run(lambda: js("document.getElementById('more-summary').blur()"))
    settle(0.3)
    run(lambda: screenshot(driver, path))
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> int:
    from PySide6.QtGui import QGuiApplication

    from shipsheet.model import load_session
    from shipsheet.model.paths import resources_dir
    from shipsheet.share import SeatBook, TableLink
    from shipsheet.share.authority import QtAuthority
    from tests.share.browser import quit_chrome, start_chrome

    app = QGuiApplication.instance() or QGuiApplication(["shipsheet phone screenshots"])
    driver = run(start_chrome)
    try:
        run(lambda: driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "light"}]}))
        OUT.mkdir(parents=True, exist_ok=True)
        for game in GAMES:
            session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
            book = SeatBook(session.uid)
            side = session.ships[0].side
            player = book.add(side or "Player", "player", sides=(side,) if side else (), ships=())
            referee = book.add("Referee", "referee", sides=(), ships=())
            authority = QtAuthority()
            link = TableLink(session, book, authority, session.apply, session.undo)
            link.start(["127.0.0.1"], 0)
            try:
                shoot(driver, link, player, OUT / f"phone-{game}-player.png")
                shoot(driver, link, referee, OUT / f"phone-{game}-referee.png", TO_THE_BOXES,
                      menu=True)
            finally:
                link.stop()
                authority.deleteLater()
                app.processEvents()
    finally:
        run(lambda: quit_chrome(driver))
        shutil.rmtree(_STATE, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
