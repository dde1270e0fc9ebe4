"""Fixtures of the Table Link tests: one phone-sized headless Chromium per test module."""

from __future__ import annotations

import pytest

from .browser import quit_chrome, start_chrome


@pytest.fixture(scope="module")
def browser():
    """A Selenium Chrome driver (Debian's chromium, 390×844 at scale 2, console log kept).
    Fails, never skips, when chromium or chromium-driver is missing: make test installs them."""
    driver = start_chrome()
    try:
        yield driver
    finally:
        quit_chrome(driver)
