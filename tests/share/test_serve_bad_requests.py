"""Bad requests at a real ``shipsheet serve``, as an attacker on the network would send
them: malformed bodies are answered with a JSON 4xx (never a 500), malformed HTTP
messages say at most one line a minute per source in the terminal (never a traceback),
and a second ``serve`` on a file in use names who holds it in words."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from shipsheet.model.paths import resources_dir

from .phone import Phone
from .serve_process import start_serve, stop_serve


def _serve(copy: Path):
    proc, links, _lines = start_serve(copy, "--referee-seat", "--no-qr")
    if "Referee" not in links:
        proc.kill()
        raise AssertionError("serve printed no link: " + proc.stderr.read())
    return proc, links["Referee"]


def _raw(netloc: str, message: bytes) -> bytes:
    host, port = netloc.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        try:
            sock.sendall(message)
        except ConnectionError:  # refused before all of it was read: the answer is sent
            pass
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    return out


def test_malformed_bodies_and_messages_at_a_real_serve(tmp_path):
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    proc, url = _serve(copy)
    try:
        phone = Phone(url)
        assert phone.pair()[0] == 200
        bodies = {
            "invalid UTF-8": b'{"id": "\xff\xfe\xfd"}',
            "UTF-16": json.dumps({"id": "abcdefgh", "kind": "tap"}).encode("utf-16"),
            "8,000 deep": b"[" * 8000 + b"]" * 8000,
            "a 5,000-digit integer": b'{"id": "abcdefgh", "rev": ' + b"9" * 5000 + b"}",
            "NaN": b'{"id": "abcdefgh", "rev": NaN}',
        }
        for what, raw in bodies.items():
            status, answer, headers = phone.request("POST", "api/act", raw=raw)
            assert 400 <= status < 500, (what, status, answer)
            assert headers["Content-Type"].startswith("application/json"), what
            assert answer["ok"] is False and answer["error"], what
        netloc = urlsplit(url).netloc
        messages = [
            b"GET / HTTP/1.1\r\n\r\n",  # no Host
            f"GET / HTTP/1.1\r\nHost: {netloc}\r\nHost: {netloc}\r\n\r\n".encode(),
            f"GET / HTTP/1.1\r\nHost: {netloc}\r\nX-Big: {'a' * 70000}\r\n\r\n".encode(),
        ] * 4
        for message in messages:
            answer = _raw(netloc, message)
            assert re.match(rb"HTTP/1\.[01] 4\d\d ", answer), answer[:200]
        # The server still answers the phone.
        assert phone.state()[0] == 200
    finally:
        stop_serve(proc)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("Table Link:")]
    assert len(lines) == 1, err  # twelve malformed messages from one address, one line
    assert "127.0.0.1" in lines[0]


def test_a_second_serve_names_who_holds_the_file(tmp_path):
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    proc, _url = _serve(copy)
    try:
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        script = Path(sys.executable).with_name("shipsheet")
        second = subprocess.run([str(script), "serve", str(copy), "--referee-seat", "--no-qr",
                                 "--bind", "127.0.0.1", "--port", "0"],
                                capture_output=True, text=True, env=env, timeout=60)
    finally:
        stop_serve(proc)
        proc.communicate(timeout=60)
    assert second.returncode == 1
    assert "object at 0x" not in second.stderr
    assert f"process {proc.pid}" in second.stderr and "close it there first" in second.stderr
