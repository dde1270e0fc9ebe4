"""``shipsheet serve``: the headless host, as a separate process with no display. A phone
pairs, the referee's seat taps a box; Ctrl+C saves the change to the file and exits 0."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from shipsheet.model.paths import resources_dir
from shipsheet.model.storage import load_session

from .phone import Phone


def _start(tmp_path, *extra):
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "xcb"  # no display: serve must choose offscreen itself
    script = Path(sys.executable).with_name("shipsheet")
    proc = subprocess.Popen([str(script), "serve", str(copy), "--seat", "Blue=Blue",
                             "--seat", "Red=Hornet,Lance", "--referee-seat",
                             "--bind", "127.0.0.1", "--port", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines, links = [], {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(links) < 3:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.match(r"(\w+) \((\w+)\): (http://\S+)", line)
        if found:
            links[found.group(1)] = found.group(3)
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
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Saved" in out
    saved = load_session(copy)
    assert any(e.text == answer["message"] for e in saved.log), answer["message"]
    assert answer["message"].endswith("— Referee's phone")


def test_serve_keeps_the_links_from_one_run_to_the_next(tmp_path):
    proc, copy, first, _ = _start(tmp_path, "--no-qr")
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    proc, copy, second, _ = _start(tmp_path, "--no-qr")
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert {k: v.split("#")[1] for k, v in first.items()} == {k: v.split("#")[1] for k, v in second.items()}
