"""``shipsheet serve`` reached from outside the room (issue 33), through the real command
line: the public address in the links, the referee's yes typed at serve's terminal, HTTPS
with a certificate of the referee's, and options given wrong refused in words."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from shipsheet.model.paths import resources_dir

from .certs import make_certificate, trusting
from .phone import Phone
from .serve_process import start_serve, stop_serve

ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/120.0 Mobile Safari/537.36")


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    return copy


def _read_until(proc, stream, words: str, seen: list[str], timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        seen.append(line)
        if words in line:
            return line
    raise AssertionError(f"serve never said {words!r}: {''.join(seen)}")


def test_serve_at_a_public_address_waits_for_the_referees_yes_typed_at_its_terminal(tmp_path):
    proc, links, lines = start_serve(_copy(tmp_path), "--seat", "Blue=Blue", "--no-qr",
                                     "--public-url", "https://table.test",
                                     "--trusted-proxy", "127.0.0.1", links=1)
    try:
        assert links["Blue"].startswith("https://table.test/s/"), "".join(lines)
        assert any("reached at https://table.test" in line for line in lines)
        port = next(line for line in lines if line.startswith("Sharing")).split(" port ")[1].split()[0]
        # The proxy (this test) reaches serve on 127.0.0.1 with the public Host and says
        # the player is at 203.0.113.20 over HTTPS.
        lan = links["Blue"].replace("https://table.test", f"http://127.0.0.1:{port.rstrip(',.')}")
        phone = Phone(lan, host="table.test", origin="https://table.test", user_agent=ANDROID)
        proxy = {"X-Forwarded-For": "203.0.113.20", "X-Forwarded-Proto": "https"}
        status, asked, _ = phone.pair(headers=proxy)
        assert status == 202 and asked["waiting"], asked
        said = _read_until(proc, proc.stdout, "wants Blue's seat", lines)
        assert said.strip() == ("A new device wants Blue's seat (Chrome on Android, from "
                                "203.0.113.20): type 'allow 1' or 'refuse 1'.")
        proc.stdin.write("allow 1\n")
        proc.stdin.flush()
        _read_until(proc, proc.stdout, "Let the device into Blue's seat.", lines)
        status, body, headers = phone.pair(join=asked["join"], headers=proxy)
        assert status == 200 and "; Secure" in headers["Set-Cookie"], body
        # The proxy carries the cookie on (a Secure cookie is never sent over plain HTTP,
        # so the test's own jar keeps it to itself, as a browser would).
        token = headers["Set-Cookie"].split(";")[0]
        status, view, _ = phone.request("GET", "api/state", headers={**proxy, "Cookie": token})
        assert status == 200 and view["seat"]["name"] == "Blue"
    finally:
        stop_serve(proc)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err


def test_serve_speaks_https_with_the_referees_certificate(tmp_path):
    cert, key = make_certificate(tmp_path)
    proc, links, lines = start_serve(_copy(tmp_path), "--seat", "Blue=Blue", "--no-qr",
                                     "--tls-cert", str(cert), "--tls-key", str(key), links=1)
    try:
        assert links["Blue"].startswith("https://127.0.0.1:"), "".join(lines)
        phone = Phone(links["Blue"], context=trusting(cert))
        status, _, headers = phone.pair()
        assert status == 200 and "; Secure" in headers["Set-Cookie"]
        assert phone.state()[1]["seat"]["name"] == "Blue"
    finally:
        stop_serve(proc)
        proc.communicate(timeout=60)
    assert proc.returncode == 0


@pytest.mark.parametrize("args, words", [
    (["--public-url", "table.example.net"], "starts with https://"),
    (["--trusted-proxy", "proxy.example.net"], "not a name"),
    (["--tls-cert", "missing.crt"], "both the certificate and its key"),
])
def test_serve_refuses_an_exposure_given_wrong_in_words(tmp_path, args, words):
    script = Path(sys.executable).with_name("shipsheet")
    done = subprocess.run([str(script), "serve", str(_copy(tmp_path)), *args], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
