"""``shipsheet serve`` printing to a console or file whose encoding cannot hold what it
prints: a redirected Windows console is cp1252, which has no block characters for the QR
codes and no Chinese for a seat's name. It prints them in plain ASCII instead, never a
traceback (before, segno's block characters raised UnicodeEncodeError and serve died)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from shipsheet.model.paths import resources_dir

from .serve_process import stop_serve


def test_serve_prints_links_and_qr_codes_in_ascii_where_the_console_is_cp1252(tmp_path):
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(QT_QPA_PLATFORM="offscreen", PYTHONIOENCODING="cp1252")
    script = Path(sys.executable).with_name("shipsheet")
    proc = subprocess.Popen([str(script), "serve", str(copy), "--seat", "船=Blue",
                             "--referee-seat", "--bind", "127.0.0.1", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            creationflags=subprocess.CREATE_NEW_PROCESS_GROUP if os.name == "nt" else 0)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 60
        links = 0
        while time.monotonic() < deadline and (links < 2 or len(lines) < 80):
            raw = proc.stdout.readline()
            if not raw:
                break
            line = raw.decode("cp1252")  # what the console would show
            lines.append(line)
            links += "http://127.0.0.1:" in line
    finally:
        stop_serve(proc)
        out, err = proc.communicate(timeout=60)
    text = "".join(lines) + out.decode("cp1252")
    errors = err.decode("cp1252", "replace")
    assert "Traceback" not in errors and "UnicodeEncodeError" not in errors, errors
    assert proc.returncode == 0, errors
    # The seat's name the console cannot show, escaped; the link itself whole.
    assert "\\u8239 (player): http://127.0.0.1:" in text, text
    assert "Referee (referee): http://127.0.0.1:" in text
    # The QR codes in ASCII: rows of "##" and spaces, a 25-module code and more.
    rows = [line for line in text.splitlines() if line.strip() and set(line) <= {"#", " "}]
    assert len(rows) > 2 * 25, text
    assert "█" not in text and "▀" not in text
