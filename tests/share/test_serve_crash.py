"""``shipsheet serve`` killed mid-burst (SIGKILL: as a power cut would stop it), then run
again: every change a phone was told was applied is there, counted from the phone's own
answers, and the phones are told what happened. (``Popen.kill``: SIGKILL on POSIX,
TerminateProcess on Windows — neither lets the process clean up.)"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from shipsheet.model.paths import resources_dir
from shipsheet.model.storage import load_session

from .phone import Phone
from .serve_process import start_serve, stop_serve


def _serve(copy: Path, env: dict, *extra):
    proc, links, lines = start_serve(copy, "--referee-seat", "--no-qr", *extra)
    if "Referee" not in links:
        proc.kill()
        raise AssertionError("serve printed no link: " + "".join(lines) + proc.stderr.read())
    return proc, links["Referee"], lines


def _tapper(phone: Phone, stop: threading.Event, acknowledged: list):
    """Tap every tappable box, one after another, as fast as the answers come."""
    status, state, _ = phone.state()
    tapped = set()
    try:
        while not stop.is_set():
            choice = next(((ship, area) for ship in state["ships"] for area in ship["areas"]
                           if area.get("tap") and (ship["id"], area["key"]) not in tapped), None)
            if choice is None:
                return
            ship, area = choice
            tapped.add((ship["id"], area["key"]))
            status, answer, _ = phone.act(state, ship, kind="tap", key=area["key"])
            if status == 200 and answer.get("ok"):
                acknowledged.append(answer["message"])
            if isinstance(answer, dict) and isinstance(answer.get("state"), dict):
                state = answer["state"]
    except OSError:  # the server was killed under the phone
        return


def test_serve_killed_mid_burst_loses_nothing_a_phone_was_told(tmp_path, browser):
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc, url, _lines = _serve(copy, env)
    phone = Phone(url)
    assert phone.pair()[0] == 200
    stop, acknowledged = threading.Event(), []
    tapper = threading.Thread(target=_tapper, args=(phone, stop, acknowledged))
    tapper.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < 40 and time.monotonic() < deadline and tapper.is_alive():
        time.sleep(0.01)
    proc.kill()  # SIGKILL (TerminateProcess on Windows) mid-burst: the phone is still tapping
    proc.wait(timeout=30)
    stop.set()
    tapper.join(timeout=30)
    told = list(acknowledged)
    assert len(told) >= 40, told
    assert load_session(copy).log == [] or not any("Referee's phone" in e.text
                                                    for e in load_session(copy).log)

    proc, url, lines = _serve(copy, env)
    try:
        out = "".join(lines)
        assert "Recovered" in out, out
        again = Phone(url)  # the same link as before: the seats stay with the file
        assert again.pair()[0] == 200
        _, view, _ = again.state()
        assert "stopped without saving" in view["notice"]
        # A phone's page says so, in words, until the player says OK.
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        browser.get(url)
        WebDriverWait(browser, 15).until(lambda d: d.find_element(By.ID, "recovered").is_displayed())
        assert "every change your phone was told was applied is here" in \
            browser.find_element(By.ID, "recovered-text").text
        browser.find_element(By.ID, "recovered-ok").click()
        WebDriverWait(browser, 5).until(lambda d: not d.find_element(By.ID, "recovered").is_displayed())
    finally:
        stop_serve(proc)
        proc.communicate(timeout=60)
    assert proc.returncode == 0
    saved = [e.text for e in load_session(copy).log if not e.undone and e.kind == "action"
             and e.text.endswith("— Referee's phone")]
    print(f"told {len(told)}, saved {len(saved)}")
    assert len(saved) >= len(told), (len(saved), len(told))
    assert saved[:len(told)] == told  # the very changes, in the order the phone was told


def test_serve_as_saved_serves_the_file_and_keeps_the_autosave(tmp_path):
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc, url, _ = _serve(copy, env)
    phone = Phone(url)
    phone.pair()
    _, state, _ = phone.state()
    ship = state["ships"][0]
    area = next(a for a in ship["areas"] if a.get("tap"))
    status, answer, _ = phone.act(state, ship, kind="tap", key=area["key"])
    assert status == 200 and answer["ok"], answer
    proc.kill()
    proc.wait(timeout=30)
    proc, url, lines = _serve(copy, env, "--as-saved")
    stop_serve(proc)
    proc.communicate(timeout=60)
    assert "as saved" in "".join(lines)
    from shipsheet.model.autosave import AutosaveStore
    assert AutosaveStore().newer_than_file(copy) is not None  # kept, for the window to offer
