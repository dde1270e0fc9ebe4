"""The README's Table Link picture: a player's phone showing the Federation Commander sample.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/table_screenshots.py
Writes docs/screenshots/table-phone.png.

Starts Table Link on 127.0.0.1 for the sample session with a "Blue" player seat, opens the
seat's link in Debian's headless Chromium as a 390×844 phone at device scale 2 (the
options of the browser tests, tests/share/browser.py), taps a box as a player would, and
saves the first screen: the header (session, turn, seat, live), the ship tabs, the sheet
and the answer. Selenium runs on a helper thread while Qt's loop runs here (the server
hands every request to the session's thread through queued signals). Nothing is written
in the user's folders: the seats live in a temporary state folder.
"""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT))

#: The seats' file goes here, not in the user's state folder.
_STATE = tempfile.mkdtemp(prefix="shipsheet-table-shots-")
os.environ["SHIPSHEET_STATE_DIR"] = _STATE

_pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="browser")


def run(fn, timeout: float = 30.0):
    """``fn()`` on the browser thread while Qt's events are processed here; its result."""
    from PySide6.QtCore import QCoreApplication

    future = _pool.submit(fn)
    end = time.monotonic() + timeout
    while not future.done():
        if time.monotonic() > end:
            raise TimeoutError("the browser did not answer in time")
        QCoreApplication.processEvents()
        time.sleep(0.01)
    return future.result()


def until(driver, predicate, timeout: float = 15.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return run(lambda: WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate()),
               timeout + 5)


def settle(seconds: float) -> None:
    """Let the page and the server work for a moment (Qt's loop keeps running)."""
    run(lambda: time.sleep(seconds))


def main() -> int:
    from PySide6.QtGui import QGuiApplication
    from selenium.webdriver.common.by import By

    from shipsheet.model.games import piece
    from shipsheet.share import SeatBook, TableLink
    from shipsheet.share.authority import QtAuthority
    from tests.share.browser import quit_chrome, screenshot, start_chrome

    app = QGuiApplication.instance() or QGuiApplication(["shipsheet table screenshots"])
    session = piece("fedcom", "sample")()
    book = SeatBook(session.uid)
    blue = book.add("Blue", "player", sides=("Blue",), ships=())
    authority = QtAuthority()
    link = TableLink(session, book, authority, session.apply, session.undo)
    link.start(["127.0.0.1"], 0)
    driver = run(start_chrome)
    try:
        js = driver.execute_script
        run(lambda: driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "light"}]}))
        run(lambda: driver.get(link.url(blue)))
        until(driver, lambda: js("return document.querySelectorAll('.ship:not([hidden]) .area').length") > 0
              and js("return !!document.querySelector('.ship:not([hidden]) svg.sheet-svg')")
              and js("return document.getElementById('conn').textContent") == "Live"
              and js("return document.fonts.status") == "loaded")

        # A player's tap: Resolute's first phaser fired this turn (the answer shows at the foot).
        def tap():
            button = driver.find_element(By.CSS_SELECTOR, '.ship:not([hidden]) button.area[data-key="box:ph-1"]')
            button.click()
        run(tap)
        until(driver, lambda: (js("return document.getElementById('toast').textContent") or "")
              .endswith("Blue's phone"))
        until(driver, lambda: "Intact; fired this turn" in js(
            "return document.querySelector('.ship:not([hidden]) button.area[data-key=\"box:ph-1\"]')"
            ".getAttribute('aria-label')"))
        settle(0.6)  # the new sheet drawn, the toast faded in
        run(lambda: js("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()"))
        OUT.mkdir(parents=True, exist_ok=True)
        path = run(lambda: screenshot(driver, OUT / "table-phone.png"))
        print(f"wrote {path.relative_to(ROOT)}")
    finally:
        run(lambda: quit_chrome(driver))
        link.stop()
        authority.deleteLater()
        app.processEvents()
        shutil.rmtree(_STATE, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
