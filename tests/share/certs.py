"""A certificate of the referee's own, made in the test with ``cryptography``: a self-signed
server certificate for the names and addresses given, written as PEM files, and an
``ssl.SSLContext`` a phone uses to trust it (nothing touches the system's trust store)."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def make_certificate(folder: Path, names=("localhost",), addresses=("127.0.0.1",)) -> tuple[Path, Path]:
    """(certificate file, key file) of a fresh self-signed certificate valid for a day."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names else addresses[0])])
    now = datetime.datetime.now(datetime.timezone.utc)
    alternatives = [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                   .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "table.crt", folder / "table.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def trusting(cert_file: Path) -> ssl.SSLContext:
    """A client context that trusts ``cert_file`` and nothing else."""
    return ssl.create_default_context(cafile=str(cert_file))
