"""A real ``shipsheet serve`` for the tests: started in a process of its own with no display
(it must choose offscreen itself), read until it has printed the seats' links."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

LINK = re.compile(r"(\w+) \((\w+)\): (https?://\S+)")


def start_serve(session_file: Path, *args: str, links: int = 1, port: int = 0):
    """``shipsheet serve SESSION_FILE ARGS…`` on 127.0.0.1 at ``port`` (0: any free one); returns the
    process, the links printed by seat name (once ``links`` of them are), and the lines
    read so far. Its standard input is a pipe: what the referee types there."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "xcb"  # no display: serve must choose offscreen itself
    script = Path(sys.executable).with_name("shipsheet")
    # On Windows a process is sent Ctrl+Break (stop_serve) only in a group of its own.
    group = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if os.name == "nt" else {}
    proc = subprocess.Popen([str(script), "serve", str(session_file), *args,
                             "--bind", "127.0.0.1", "--port", str(port)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env,
                            **group)
    lines, found = [], {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(found) < links:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        match = LINK.match(line)
        if match:
            found[match.group(1)] = match.group(3)
    return proc, found, lines


def stop_serve(proc: subprocess.Popen) -> None:
    """What Ctrl+C at serve's console does (it saves and stops): SIGINT on POSIX, Ctrl+Break
    on Windows, where a console's Ctrl+C cannot be sent to one process."""
    proc.send_signal(signal.CTRL_BREAK_EVENT if os.name == "nt" else signal.SIGINT)
