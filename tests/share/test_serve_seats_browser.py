"""``shipsheet serve`` with two seats serves exactly those two, seen from a real browser:
the seats of an earlier run that are not given again (a referee's above all) are retired,
the terminal says which, and their old links open nothing."""

from __future__ import annotations

import re
from pathlib import Path

from selenium.webdriver.support.ui import WebDriverWait

from shipsheet.model.paths import resources_dir

from .serve_process import start_serve, stop_serve

SHOWN = ("var t = function (i) { var e = document.getElementById(i); "
         "return e && !e.hidden ? e.textContent : null; }; "
         "return {seat: t('seat-name'), text: document.body.innerText};")


def _serve(copy: Path, *seats: str, expect: int):
    proc, links, lines = start_serve(copy, *seats, "--no-qr", links=expect)
    return proc, links, "".join(lines)


def _stop(proc) -> str:
    stop_serve(proc)
    out, _err = proc.communicate(timeout=60)
    return out


def _visit(browser, url: str, done) -> dict:
    browser.delete_all_cookies()
    browser.get("about:blank")
    browser.get(url)
    return WebDriverWait(browser, 15, poll_frequency=0.05).until(
        lambda d: (lambda s: s if done(s) else None)(d.execute_script(SHOWN)))


def test_serve_with_two_seats_serves_exactly_two(tmp_path, browser):
    copy = tmp_path / "fc.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    proc, first, _ = _serve(copy, "--seat", "Blue=Blue", "--seat", "Red=Red", "--referee-seat",
                            expect=3)
    _stop(proc)
    assert set(first) == {"Blue", "Red", "Referee"}

    proc, second, out = _serve(copy, "--seat", "Blue=Blue", "--spectator", "Guest", expect=2)
    try:
        assert set(second) == {"Blue", "Guest"}
        assert second["Blue"].split("/s/")[1] == first["Blue"].split("/s/")[1]  # the same link
        assert re.search(r"Retired .*: Red, Referee\.", out), out
        here = second["Blue"].split("/s/")[0]  # this run's address (the port may differ)
        for gone in ("Red", "Referee"):
            old = here + "/s/" + first[gone].split("/s/")[1]
            page = _visit(browser, old, lambda s: "not at the table" in s["text"])
            assert "This seat is not at the table (any more)." in page["text"], gone
        for name in ("Blue", "Guest"):
            page = _visit(browser, second[name], lambda s: s["seat"] == name)
            assert "not at the table" not in page["text"]
    finally:
        _stop(proc)
