"""Service-account key files for tests: a fresh RSA key, written the way Google hands it out."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.fakes.sheets.server import SheetsFake

SERVICE_ACCOUNT_EMAIL = "harkness-worker@harkness-test.iam.gserviceaccount.com"
"""The e-mail address of the service account ``service_account_file`` creates."""


@dataclass(frozen=True)
class ServiceAccountKey:
    """A service-account key file on disk, with what tests need to know about it."""

    path: Path
    email: str
    key_id: str
    private_key_pem: bytes
    """The private key, so tests can check it never leaks into messages or logs."""

    def __fspath__(self) -> str:
        return str(self.path)


def generate_service_account(
    fake: SheetsFake,
    directory: Path,
    *,
    email: str = SERVICE_ACCOUNT_EMAIL,
    project_id: str = "harkness-test",
    register: bool = True,
) -> ServiceAccountKey:
    """Write a new service-account key file for ``email`` and (normally) register it.

    The file has the fields of a key downloaded from the Google Cloud console, with
    ``token_uri`` pointing at the fake. With ``register=False`` the fake does not know the
    key, so its token requests fail like those of a deleted key.
    """
    private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = private_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public_pem = private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    key_id = os.urandom(20).hex()
    local_part = email.split("@")[0]
    info = {
        "type": "service_account",
        "project_id": project_id,
        "private_key_id": key_id,
        "private_key": private_pem.decode("ascii"),
        "client_email": email,
        "client_id": "1" + "0" * 20,
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": fake.token_uri,
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{local_part}",
        "universe_domain": "googleapis.com",
    }
    path = directory / f"{local_part}-{key_id[:8]}.json"
    path.write_text(json.dumps(info, indent=2), encoding="utf-8")
    if register:
        fake.register_service_account(email, public_pem, key_id, project_id=project_id)
    return ServiceAccountKey(path, email, key_id, private_pem)
