"""A phone-sized headless Chromium for the Table Link browser tests (Selenium + Debian's
chromium and chromium-driver, which ``make test`` installs: see packaging/system_deps.py).

Never downloads anything: the driver is Debian's ``/usr/bin/chromedriver`` (or the one
``SHIPSHEET_CHROMEDRIVER`` names, with ``SHIPSHEET_CHROME`` the browser) and
``SE_OFFLINE=true`` stops Selenium Manager from looking for another one. A missing
browser is a failure, not a skip: the tests say what to install."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

# Debian's, unless named: SHIPSHEET_CHROME and SHIPSHEET_CHROMEDRIVER (packaging/ci.py names
# the GitHub runner's Google Chrome and its chromedriver on Windows, macOS and Ubuntu).
CHROMIUM = os.environ.get("SHIPSHEET_CHROME") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("SHIPSHEET_CHROMEDRIVER") or "/usr/bin/chromedriver"
PHONE = {"width": 390, "height": 844, "pixelRatio": 2.0}

ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-extensions",
    "--password-store=basic",
    f"--window-size={PHONE['width']},{PHONE['height']}",
)


def missing() -> list[str]:
    """What is not installed, as Debian packages."""
    out = []
    if not (os.access(CHROMIUM, os.X_OK)):
        out.append("chromium")
    if not (os.access(CHROMEDRIVER, os.X_OK)):
        out.append("chromium-driver")
    return out


def start_chrome(*, phone: dict = PHONE, touch: bool = True, args=(), env: dict | None = None):
    """A headless Chromium showing pages as a 390×844 phone at device scale factor 2, with
    the console log kept (``driver.get_log("browser")``). Quit it with :func:`quit_chrome`.
    ``args``: more of Chromium's switches; ``env``: its environment (a HOME of its own, whose
    certificate store trusts a test's authority)."""
    gone = missing()
    if gone:
        raise RuntimeError("The Table Link browser tests need Debian's Chromium and its driver: "
                           f"sudo apt-get install {' '.join(gone)}  (make test installs them); "
                           "elsewhere name a Chrome and its chromedriver in SHIPSHEET_CHROME "
                           "and SHIPSHEET_CHROMEDRIVER")
    os.environ["SE_OFFLINE"] = "true"  # before Selenium looks for a driver: never download one
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="shipsheet-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ARGS:
        options.add_argument(arg)
    options.add_argument(f"--user-data-dir={profile}")
    for arg in args:
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": phone["width"], "height": phone["height"],
                          "pixelRatio": phone["pixelRatio"], "touch": touch}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(CHROMEDRIVER, log_output=os.devnull, env=env)
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except Exception:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    driver._shipsheet_profile = profile
    return driver


def quit_chrome(driver) -> None:
    profile = getattr(driver, "_shipsheet_profile", None)
    try:
        driver.quit()
    finally:
        if profile:
            shutil.rmtree(profile, ignore_errors=True)


class Console:
    """The browser's console lines, kept across reads (``get_log`` empties Chrome's buffer)."""

    def __init__(self, driver):
        self.driver = driver
        self.lines: list[dict] = []

    def read(self) -> list[dict]:
        self.lines.extend(self.driver.get_log("browser"))
        return self.lines

    def csp_violations(self) -> list[str]:
        return [e["message"] for e in self.read()
                if "Content Security Policy" in e["message"] or "Content-Security-Policy" in e["message"]]

    def script_errors(self) -> list[str]:
        return [e["message"] for e in self.read()
                if e.get("source") == "javascript" or "Uncaught" in e["message"]]


def screenshot(driver, path: str | Path) -> Path:
    path = Path(path)
    driver.save_screenshot(str(path))
    return path
