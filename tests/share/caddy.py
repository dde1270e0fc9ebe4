"""Debian's Caddy as the referee's TLS proxy, for the tests and the benchmark: on loopback,
its internal authority's certificate for the public name, its data in a folder of the
caller's (``skip_install_trust``: nothing touches the system's trust store), forwarding
to ``shipsheet serve``. Linux only (the Debian package; HACKING.md, Platforms)."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_caddy(folder: Path, name: str, public_port: int, upstream_port: int):
    """Caddy at https://NAME:PUBLIC_PORT (on 127.0.0.1) in front of 127.0.0.1:UPSTREAM_PORT;
    returns (the process, its root certificate) once it answers over TLS. Answers are passed
    on as they come (``flush_interval -1``), as a tunnel passes bytes on."""
    if shutil.which("caddy") is None:
        raise RuntimeError("These tests need Debian's caddy: sudo apt-get install caddy "
                           "(make test installs it)")
    data = folder / "caddy-data"
    config = folder / "Caddyfile"
    config.write_text(f"""{{
\tadmin off
\tskip_install_trust
\tlocal_certs
\thttp_port {free_port()}
\thttps_port {public_port}
\tstorage file_system {data}
\tauto_https disable_redirects
}}
{name}:{public_port} {{
\tbind 127.0.0.1
\ttls internal
\treverse_proxy 127.0.0.1:{upstream_port} {{
\t\tflush_interval -1
\t}}
}}
""")
    env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "xdg-data"),
           "XDG_CONFIG_HOME": str(folder / "xdg-config")}
    proc = subprocess.Popen(["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
                            env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    root = data / "pki" / "authorities" / "local" / "root.crt"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        if root.exists():
            try:
                context = ssl.create_default_context(cafile=str(root))
                with socket.create_connection(("127.0.0.1", public_port), 2) as raw:
                    with context.wrap_socket(raw, server_hostname=name):
                        return proc, root
            except (OSError, ssl.SSLError):
                pass
        time.sleep(0.2)
    stop_caddy(proc)
    raise RuntimeError("Caddy did not start: " + (proc.stderr.read() if proc.stderr else ""))


def stop_caddy(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
