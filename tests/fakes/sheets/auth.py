"""The OAuth 2.0 token endpoint of the fake: service-account JWT-bearer grants (RFC 7523).

A service account signs a JWT with its private key and posts it to the ``token_uri`` of its
key file as ``grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>``.
Google checks the signature with the account's public key (found by ``kid``), and the claims:
``iss`` is the account's e-mail, ``aud`` is ``https://oauth2.googleapis.com/token`` (the fake
also accepts its own token URI), ``scope`` lists the scopes, and
``iat``/``exp`` span at most an hour around now. It answers
``{"access_token": ..., "expires_in": 3599, "token_type": "Bearer"}``, or a 400 with
``{"error": "invalid_grant", "error_description": ...}``.

This fake does the same checks, with the public key the test registered.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.fakes.sheets.errors import ApiError

JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
SCOPE_SPREADSHEETS = "https://www.googleapis.com/auth/spreadsheets"
SCOPE_SPREADSHEETS_READONLY = "https://www.googleapis.com/auth/spreadsheets.readonly"
SCOPE_DRIVE = "https://www.googleapis.com/auth/drive"
SCOPE_DRIVE_READONLY = "https://www.googleapis.com/auth/drive.readonly"
SCOPE_DRIVE_FILE = "https://www.googleapis.com/auth/drive.file"

READ_SCOPES = frozenset(
    {
        SCOPE_SPREADSHEETS,
        SCOPE_SPREADSHEETS_READONLY,
        SCOPE_DRIVE,
        SCOPE_DRIVE_READONLY,
        SCOPE_DRIVE_FILE,
    }
)
"""Scopes that let a token read spreadsheets (Sheets API authorization scopes)."""
WRITE_SCOPES = frozenset({SCOPE_SPREADSHEETS, SCOPE_DRIVE, SCOPE_DRIVE_FILE})
"""Scopes that let a token change spreadsheets."""

GOOGLE_TOKEN_AUDIENCE = "https://oauth2.googleapis.com/token"
"""The ``aud`` Google requires in a token-request assertion (google-auth always sends it,
whatever the key file's ``token_uri``)."""

TOKEN_LIFETIME = 3599
"""Seconds an access token lives, as Google answers."""
MAX_ASSERTION_LIFETIME = 3600
"""Google accepts assertions whose ``exp`` is at most an hour after ``iat``."""
CLOCK_SKEW = 300
"""Seconds of clock difference tolerated for ``iat``."""


class OAuthError(Exception):
    """An error answer of the token endpoint (HTTP 400 or 401 with an OAuth error code)."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(f"{error}: {description}")
        self.error = error
        self.description = description
        self.status = status

    def body(self) -> dict[str, str]:
        """The JSON body Google's token endpoint sends."""
        return {"error": self.error, "error_description": self.description}


@dataclass(frozen=True)
class ServiceAccount:
    """A service account the fake knows: its e-mail and the public half of its key."""

    email: str
    key_id: str
    public_key: rsa.RSAPublicKey
    project_id: str


@dataclass
class AccessToken:
    """An access token the fake issued."""

    token: str
    email: str
    scopes: frozenset[str]
    expires_at: float


def _b64url_decode(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


@dataclass
class TokenAuthority:
    """Service accounts, the token exchange, and the check of bearer tokens on API calls."""

    clock: Callable[[], float]
    accounts: dict[str, ServiceAccount] = field(default_factory=dict)
    tokens: dict[str, AccessToken] = field(default_factory=dict)

    def register(
        self, email: str, public_key_pem: bytes, key_id: str, project_id: str = "harkness-test"
    ) -> ServiceAccount:
        """Let a service account exchange JWTs signed by the private half of this key."""
        key = serialization.load_pem_public_key(public_key_pem)
        if not isinstance(key, rsa.RSAPublicKey):
            raise ValueError("a service-account key is an RSA key")
        account = ServiceAccount(email, key_id, key, project_id)
        self.accounts[email.lower()] = account
        return account

    def exchange(self, form: dict[str, str], audience: str) -> dict[str, Any]:
        """Answer a token request (the form fields of the POST), or raise ``OAuthError``.

        ``audience`` is the fake's own token URI, accepted as ``aud`` besides Google's.
        """
        grant_type = form.get("grant_type", "")
        if grant_type != JWT_BEARER:
            raise OAuthError("unsupported_grant_type", f"Invalid grant_type: {grant_type}")
        assertion = form.get("assertion", "")
        header, claims, signing_input, signature = self._split(assertion)
        if header.get("alg") != "RS256":
            raise OAuthError("invalid_grant", "Invalid JWT: the signing algorithm must be RS256.")
        issuer = claims.get("iss")
        account = self.accounts.get(str(issuer).lower()) if isinstance(issuer, str) else None
        if account is None:
            raise OAuthError("invalid_grant", "Invalid grant: account not found")
        if header.get("kid") not in (None, account.key_id):
            raise OAuthError("invalid_grant", "Invalid JWT Signature.")
        try:
            account.public_key.verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            raise OAuthError("invalid_grant", "Invalid JWT Signature.") from None
        if claims.get("aud") not in (GOOGLE_TOKEN_AUDIENCE, audience):
            raise OAuthError(
                "invalid_grant",
                f"Invalid JWT: the audience must be {GOOGLE_TOKEN_AUDIENCE}.",
            )
        self._check_times(claims)
        scopes = frozenset(str(claims.get("scope", "")).split())
        if not scopes:
            raise OAuthError("invalid_scope", "Invalid OAuth scope or ID token audience provided.")
        token = "ya29.fake-" + secrets.token_urlsafe(24)
        self.tokens[token] = AccessToken(
            token, account.email, scopes, self.clock() + TOKEN_LIFETIME
        )
        return {"access_token": token, "expires_in": TOKEN_LIFETIME, "token_type": "Bearer"}

    @staticmethod
    def _split(assertion: str) -> tuple[dict[str, Any], dict[str, Any], bytes, bytes]:
        parts = assertion.split(".")
        if len(parts) != 3:
            raise OAuthError("invalid_grant", "Invalid JWT: the assertion is not a JWT.")
        try:
            header = json.loads(_b64url_decode(parts[0]))
            claims = json.loads(_b64url_decode(parts[1]))
            signature = _b64url_decode(parts[2])
        except (ValueError, binascii.Error):
            raise OAuthError("invalid_grant", "Invalid JWT: the assertion is not a JWT.") from None
        if not isinstance(header, dict) or not isinstance(claims, dict):
            raise OAuthError("invalid_grant", "Invalid JWT: the assertion is not a JWT.")
        return header, claims, f"{parts[0]}.{parts[1]}".encode("ascii"), signature

    @staticmethod
    def _check_times(claims: dict[str, Any]) -> None:
        now = time.time()
        issued, expires = claims.get("iat"), claims.get("exp")
        if not isinstance(issued, int | float) or not isinstance(expires, int | float):
            raise OAuthError("invalid_grant", "Invalid JWT: iat and exp are required.")
        if expires <= now or issued > now + CLOCK_SKEW or expires - issued > MAX_ASSERTION_LIFETIME:
            raise OAuthError(
                "invalid_grant",
                "Invalid JWT: Token must be a short-lived token (60 minutes) and in a "
                "reasonable timeframe. Check your iat and exp values in the JWT claim.",
            )

    def expire_all(self) -> None:
        """Make every issued access token expire now (clients must fetch a new one)."""
        for token in self.tokens.values():
            token.expires_at = min(token.expires_at, self.clock())

    def authenticate(self, authorization: str | None) -> AccessToken:
        """The token of an API call's ``Authorization`` header, or a 401 ``ApiError``."""
        if not authorization:
            raise ApiError(
                401,
                "Request is missing required authentication credential. Expected OAuth 2 "
                "access token, login cookie or other valid authentication credential. See "
                "https://developers.google.com/identity/sign-in/web/devconsole-project.",
            )
        scheme, _, value = authorization.partition(" ")
        token = self.tokens.get(value.strip()) if scheme.lower() == "bearer" else None
        if token is None or token.expires_at <= self.clock():
            raise ApiError(401)
        return token


def insufficient_scopes() -> ApiError:
    """Google's answer to a token whose scopes do not allow the call."""
    return ApiError(
        403,
        "Request had insufficient authentication scopes.",
        details=[
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
                "domain": "googleapis.com",
                "metadata": {"service": "sheets.googleapis.com"},
            }
        ],
    )
