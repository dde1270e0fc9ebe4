"""``shipsheet serve``: the headless host, as a separate process with no display. A phone
pairs, the referee's seat taps a box; Ctrl+C saves the change to the file and exits 0."""

from __future__ import annotations

import time

from shipsheet.model.paths import resources_dir
from shipsheet.model.storage import load_session

from .phone import Phone
from .serve_process import start_serve, stop_serve


def _start(tmp_path, *extra):
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    proc, links, lines = start_serve(copy, "--seat", "Blue=Blue", "--seat", "Red=Hornet,Lance",
                                     "--referee-seat", *extra, links=3)
    return proc, copy, links, lines


def test_serve_shares_applies_and_saves_on_ctrl_c(tmp_path):
    proc, copy, links, lines = _start(tmp_path)
    try:
        assert set(links) == {"Blue", "Red", "Referee"}, "".join(lines) + proc.stderr.read()
        for url in links.values():
            assert "#k=" in url and url.startswith("http://127.0.0.1:")
        referee = Phone(links["Referee"])
        assert referee.pair()[0] == 200
        _, state, _ = referee.state()
        assert len(state["ships"]) == 5
        hornet = next(s for s in state["ships"] if s["name"] == "Hornet")
        area = next(a for a in hornet["areas"] if a["tap"])
        status, answer, _ = referee.act(state, hornet, kind="tap", key=area["key"])
        assert status == 200 and answer["ok"], answer
        red = Phone(links["Red"])
        assert red.pair()[0] == 200
        assert [s["name"] for s in red.state()[1]["ships"]] == ["Hornet", "Lance"]
        # The terminal QR code: block characters under each link.
        assert sum("█" in line or "▀" in line or "▄" in line for line in lines) > 10
    finally:
        stop_serve(proc)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Saved" in out
    saved = load_session(copy)
    assert any(e.text == answer["message"] for e in saved.log), answer["message"]
    assert answer["message"].endswith("— Referee's phone")


def test_serve_keeps_the_links_from_one_run_to_the_next(tmp_path):
    proc, copy, first, _ = _start(tmp_path, "--no-qr")
    stop_serve(proc)
    proc.communicate(timeout=60)
    proc, copy, second, _ = _start(tmp_path, "--no-qr")
    stop_serve(proc)
    proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert {k: v.split("#")[1] for k, v in first.items()} == {k: v.split("#")[1] for k, v in second.items()}


def test_new_link_from_the_referees_phone_is_shown_there_and_in_the_terminal(tmp_path):
    import threading
    proc, copy, links, lines = _start(tmp_path, "--no-qr")
    later: list[str] = []
    reader = threading.Thread(target=lambda: later.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        referee = Phone(links["Referee"])
        assert referee.pair()[0] == 200
        _, state, _ = referee.state()
        blue = next(s for s in state["seats"] if s["name"] == "Blue")
        import secrets
        status, answer, _ = referee.request("POST", "api/act", {
            "id": secrets.token_urlsafe(12), "epoch": state["epoch"], "kind": "revoke",
            "seat": blue["id"]})
        assert status == 200 and answer["ok"], answer
        new = answer["link"]["url"]
        assert new != links["Blue"] and new.split("#")[0] == links["Blue"].split("#")[0]
        assert all(set(row) <= {"0", "1"} for row in answer["link"]["qr"])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(new in line for line in later):
            time.sleep(0.05)
        assert any(line.startswith("Blue (player): ") and new in line for line in later), later
        assert Phone(new).pair()[0] == 200 and Phone(links["Blue"]).pair()[0] == 403
    finally:
        stop_serve(proc)
        proc.wait(timeout=60)
