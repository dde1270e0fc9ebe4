"""A table reached from outside the room: its public address, the proxy it trusts, and
who is really asking.

At the table, phones reach the server on the local network by its own address. From home,
they reach it through something the referee already has — a tunnel (Tailscale Funnel, a
Cloudflare tunnel) or a reverse proxy (Caddy on a small server) — at a public address
(``--public-url https://table.example.net``), or directly over HTTPS with a certificate of
the referee's (``--tls-cert``, ``--tls-key``). This module holds what that changes:

- :class:`Exposure`: the public address (the links and QR codes carry it; ``Host`` and
  ``Origin`` are checked against it and the LAN addresses chosen, nothing else), the
  proxies trusted (``--trusted-proxy``), the TLS context, and whether a new device waits
  for the referee's yes (``--approve-joins``, on with a public address).
- :func:`client_of`: the real client of a request and whether it came over HTTPS. A
  proxy's ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only when the
  connection comes from a proxy the referee named, never from anyone else; from it they
  are used, so every limit applies per real client, not per proxy.

SECURITY.md, "Beyond the room", is the threat model.
"""

from __future__ import annotations

import ipaddress
import ssl
from dataclasses import field
from ..model.code_cache import dataclass
from pathlib import Path
from typing import Iterable, NamedTuple
from urllib.parse import urlsplit

#: The headers a trusted proxy adds (Caddy, cloudflared and Tailscale's funnel all do).
FORWARDED_FOR = "X-Forwarded-For"
FORWARDED_PROTO = "X-Forwarded-Proto"
#: The most addresses an ``X-Forwarded-For`` is read for (a longer one is a forgery).
MAX_FORWARDED = 16


class PublicAddress(NamedTuple):
    """Where phones outside the room reach the table: ``https://table.example.net``."""

    scheme: str  # "https" (or "http" for a test or a private network)
    host: str    # as the browser names it, lower case
    port: int | None  # None: the scheme's own

    @property
    def netloc(self) -> str:
        """How a ``Host`` header names it (the port only when it is not the scheme's)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port is None else f"{host}:{self.port}"

    @property
    def origin(self) -> str:
        """The ``Origin`` its own page's requests carry."""
        return f"{self.scheme}://{self.netloc}"

    @property
    def https(self) -> bool:
        return self.scheme == "https"


def parse_public_url(text: str) -> PublicAddress:
    """The public address a referee gave (``--public-url``, the dialog's field), checked:
    ``https://`` (or ``http://``), a host, an optional port, no path but ``/``, no user,
    query or fragment. ValueError says what is wrong, in words."""
    text = str(text).strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f'"{text}" is not an address: {exc}') from None
    if parts.scheme not in ("https", "http"):
        raise ValueError(f'"{text}": the public address starts with https:// (the address '
                         "your tunnel or proxy gives you)")
    host = (parts.hostname or "").lower()
    if not host:
        raise ValueError(f'"{text}": the public address needs a host name')
    if parts.username is not None or parts.password is not None:
        raise ValueError(f'"{text}": a public address carries no user name or password')
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f'"{text}": the public address is the host alone (the table is at '
                         "its root)")
    default = 443 if parts.scheme == "https" else 80
    return PublicAddress(parts.scheme, host, None if port in (None, default) else port)


def parse_proxy(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """A trusted proxy as the referee names it: an address (``127.0.0.1``) or a network
    (``10.0.0.0/24``). ValueError for anything else (a host name is not trusted: it could
    resolve to anyone)."""
    try:
        return ipaddress.ip_network(str(text).strip(), strict=False)
    except ValueError:
        raise ValueError(f'"{text}": a trusted proxy is an IP address (or a network such as '
                         "10.0.0.0/24), not a name") from None


def tls_context(cert: str | Path, key: str | Path) -> ssl.SSLContext:
    """A server TLS context from the referee's certificate and key files (PEM): TLS 1.2 at
    least. OSError or ssl.SSLError (a ValueError to the caller) when they cannot be used."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert), str(key))
    return context


@dataclass
class Exposure:
    """How the table is reached beyond the room (nothing: the table's own network only).

    ``public``: the public address; ``proxies``: the proxies whose forwarded headers are
    believed; ``tls``: the TLS context when the server speaks HTTPS itself;
    ``approve_joins``: a new device waits for the referee's yes (default: with a public
    address)."""

    public: PublicAddress | None = None
    proxies: tuple = ()
    tls: ssl.SSLContext | None = None
    approve_joins: bool | None = None
    #: The files the TLS context was made from (for the words of the dialog).
    tls_files: tuple[str, str] | None = field(default=None, repr=False)

    def __post_init__(self):
        if self.approve_joins is None:
            self.approve_joins = self.public is not None

    @classmethod
    def from_options(cls, public_url: str | None = None, proxies: Iterable[str] = (),
                     tls_cert: str | None = None, tls_key: str | None = None,
                     approve_joins: bool | None = None) -> "Exposure":
        """From the command line's or the dialog's words; ValueError says what is wrong."""
        public = parse_public_url(public_url) if public_url else None
        nets = tuple(parse_proxy(p) for p in proxies if str(p).strip())
        if bool(tls_cert) != bool(tls_key):
            raise ValueError("HTTPS needs both the certificate and its key (--tls-cert and "
                             "--tls-key)")
        context = None
        if tls_cert:
            try:
                context = tls_context(tls_cert, tls_key)
            except (OSError, ssl.SSLError) as exc:
                raise ValueError(f"the certificate or its key cannot be used: "
                                 f"{getattr(exc, 'strerror', None) or exc}") from None
        return cls(public, nets, context, approve_joins,
                   (str(tls_cert), str(tls_key)) if tls_cert else None)

    @property
    def scheme(self) -> str:
        """The scheme the server itself speaks."""
        return "https" if self.tls is not None else "http"

    def trusts(self, address: str) -> bool:
        """Whether ``address`` (a connection's peer) is a proxy the referee named."""
        if not self.proxies:  # at the table: no address is read (every request asks)
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.proxies)


#: Nothing beyond the room: the table's own network, plain HTTP (the default).
AT_THE_TABLE = Exposure()


class Client(NamedTuple):
    """Who is asking: the real client's address (the proxy's client when a trusted proxy
    says so), and whether the page reached it over HTTPS."""

    address: str
    https: bool
    via_proxy: bool


def client_of(peer: str, headers, exposure: Exposure) -> Client:
    """The real client of a request that came from ``peer`` with ``headers``. Forwarded
    headers are read only when ``peer`` is a trusted proxy: the rightmost address of
    ``X-Forwarded-For`` that is not itself a trusted proxy is the client (a client can
    put anything it likes at the left; only what the proxies appended is theirs)."""
    direct = exposure.tls is not None
    if not exposure.trusts(peer):
        return Client(peer, direct, False)
    client = peer
    chain = [part.strip() for value in headers.getall(FORWARDED_FOR, [])
             for part in value.split(",")][-MAX_FORWARDED:]
    for hop in reversed(chain):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break  # not an address: nothing further left is believed
        client = hop
        if not exposure.trusts(hop):
            break
    proto = headers.get(FORWARDED_PROTO, "").split(",")[-1].strip().lower()
    https = proto == "https" if proto else direct
    return Client(client, https, True)


__all__ = ["AT_THE_TABLE", "Client", "Exposure", "FORWARDED_FOR", "FORWARDED_PROTO",
           "PublicAddress", "client_of", "parse_proxy", "parse_public_url", "tls_context"]
