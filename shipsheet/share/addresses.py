"""Which addresses this computer has on the local network, the likely one first.

Sharing tools break at the table when they pick the wrong interface (a VPN, a Docker
bridge) and never say which they picked. Here every IPv4 address of every interface is
listed, so the referee can choose; the likely one — the address the computer would use to
reach the wider network — comes first, loopback last. Nothing is sent anywhere: a UDP
socket "connected" to a documentation address only asks the kernel for a route.
"""

from __future__ import annotations

import ipaddress
import socket
from ..model.code_cache import dataclass


@dataclass(frozen=True)
class Candidate:
    address: str
    interface: str  # "" when unknown

    @property
    def label(self) -> str:
        return f"{self.address} ({self.interface})" if self.interface else self.address


def _routed_address() -> str | None:
    """The address the kernel would use for the wider network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route lookup only
            return probe.getsockname()[0]
        except OSError:
            return None


def _interface_addresses() -> list[Candidate]:
    """The IPv4 address of each interface, named as the system names it (Windows: its
    friendly name), from the ``ifaddr`` library (Linux, macOS and Windows alike); the host
    name's addresses when it cannot say."""
    try:
        import ifaddr
        adapters = ifaddr.get_adapters()
    except OSError:
        adapters = []
    found = [Candidate(ip.ip, adapter.nice_name or adapter.name)
             for adapter in adapters for ip in adapter.ips if isinstance(ip.ip, str)]
    if not found:
        try:
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
                found.append(Candidate(info[4][0], ""))
        except OSError:
            pass
    return found


def candidate_addresses() -> list[Candidate]:
    """Every IPv4 address to offer, the likely one first, private before other, loopback last."""
    found = _interface_addresses()
    routed = _routed_address()
    if routed and all(c.address != routed for c in found):
        found.append(Candidate(routed, ""))
    if all(c.address != "127.0.0.1" for c in found):
        found.append(Candidate("127.0.0.1", "lo"))
    unique: dict[str, Candidate] = {}
    for c in found:
        unique.setdefault(c.address, c)

    def order(c: Candidate):
        ip = ipaddress.ip_address(c.address)
        return (c.address != routed, ip.is_loopback, not ip.is_private,
                c.interface.startswith(("docker", "br-", "veth", "virbr", "tun", "wg")))
    return sorted(unique.values(), key=order)


def likely_address() -> str:
    """The address to listen on when none is chosen: the likely one."""
    return candidate_addresses()[0].address


def netloc(address: str, port: int | None) -> str:
    """``address:port`` as a URL and a ``Host`` header name it (an IPv6 address in brackets)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
