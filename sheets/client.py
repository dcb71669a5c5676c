"""The worker's connection to Google Sheets: real gspread and google-auth, made dependable.

``open_client(settings)`` gives a ``gspread.Client`` (``SheetsClient``) that:

- authenticates as the service account whose key file ``GOOGLE_APPLICATION_CREDENTIALS``
  names, fetching tokens from that file's ``token_uri`` (google-auth honours it);
- sends every Sheets API request to ``HARKNESS_SHEETS_API_BASE`` instead of
  ``https://sheets.googleapis.com`` (the loopback fake in tests, or a proxy);
- gives up waiting for an answer after ``HARKNESS_SHEETS_TIMEOUT`` seconds (gspread's own
  default is to wait forever);
- retries 429 and 5xx answers and timeouts a bounded number of times with exponential
  backoff and jitter, then raises a ``SheetsError`` that names the spreadsheet, the API
  method and what went wrong. A 403 says which e-mail address to share the sheet with.

How the base URL is changed: gspread 6 builds absolute URLs from module constants
(``gspread.urls``) and sends every request through one method, ``HTTPClient.request``;
it lets callers supply their own ``HTTPClient`` class for exactly this kind of policy (its
``BackOffHTTPClient`` is one). ``HarknessHTTPClient`` overrides ``request`` to rewrite the
Google host to the configured base and to wrap the call in the retry loop, so every gspread
method (``batch_get``, ``batch_update``, ``values_*``...) gets both without patching gspread's
modules. Requests to any other Google API (Drive) are refused: the worker needs none, and
tests must never leave 127.0.0.1.

Secrets stay out of messages and logs: errors carry Google's message (with anything shaped
like a key, a JWT or an access token redacted), the service account's e-mail address and the
spreadsheet id, never the key file's contents or a token.
"""

from __future__ import annotations

import json
import logging
import random
import re
import time
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import gspread
import requests  # type: ignore[import-untyped, unused-ignore]
from google.auth import exceptions as auth_exceptions
from google.oauth2 import service_account
from gspread.exceptions import APIError
from gspread.http_client import FileType, HTTPClient, ParamsType
from gspread.utils import extract_id_from_url
from urllib3.exceptions import NewConnectionError

from sheets.metrics import GOOGLE_429
from sheets.settings import GOOGLE_SHEETS_API_BASE, SheetsSettings

logger = logging.getLogger(__name__)

SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets"
"""The one OAuth scope the worker asks for: read and write spreadsheets (no Drive access)."""

_IDEMPOTENT_POSTS = frozenset(
    {
        "spreadsheets.values.batchUpdate",
        "spreadsheets.values.clear",
        "spreadsheets.values.batchClear",
        "spreadsheets.values.batchGetByDataFilter",
        "spreadsheets.developerMetadata.search",
        "spreadsheets.getByDataFilter",
    }
)
"""POST methods that give the same result when sent twice, so a timeout may be retried."""

_READ_POSTS = frozenset(
    {
        "spreadsheets.values.batchGetByDataFilter",
        "spreadsheets.developerMetadata.search",
        "spreadsheets.getByDataFilter",
    }
)
"""POST methods that only read."""

_SECRET_SHAPES = re.compile(
    r"-----BEGIN [A-Z ]+-----.*?-----END [A-Z ]+-----"  # PEM blocks (private keys)
    r"|eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"  # JWTs (signed assertions)
    r"|ya29\.[A-Za-z0-9._-]+",  # Google access tokens
    re.DOTALL,
)


def redact(text: str) -> str:
    """Remove anything shaped like a private key, a signed JWT or an access token.

    >>> redact("invalid_grant for eyJhbGciOi.eyJpc3Mi.c2ln and ya29.a0AfH6")
    'invalid_grant for [redacted] and [redacted]'
    """
    return _SECRET_SHAPES.sub("[redacted]", text)


class SheetsError(Exception):
    """A Sheets API call that failed for good; the message says what to do about it, then
    (in brackets) what Google answered, if it did.

    >>> error = SheetsError("There is no spreadsheet X", status=404, google="404 NOT_FOUND: gone")
    >>> str(error)
    'There is no spreadsheet X (Google: 404 NOT_FOUND: gone)'
    >>> error.summary, error.google
    ('There is no spreadsheet X', '404 NOT_FOUND: gone')
    """

    def __init__(
        self,
        message: str,
        *,
        spreadsheet_id: str | None = None,
        operation: str | None = None,
        status: int | None = None,
        google: str | None = None,
    ) -> None:
        super().__init__(f"{message} (Google: {google})" if google else message)
        self.summary = message
        """What failed and what to do, without Google's own words: a reply quotes this."""
        self.google = google
        """Google's answer (HTTP status, status name, its message, redacted), if any."""
        self.spreadsheet_id = spreadsheet_id
        self.operation = operation
        self.status = status
        """The last HTTP status Google answered, if any."""


class SheetsConfigError(SheetsError):
    """The worker's settings cannot work (no key file, unreadable key, bad base URL)."""


class SheetsAuthError(SheetsError):
    """Google refused the service account's credentials or their scopes."""


class SheetsPermissionError(SheetsError):
    """The spreadsheet is not shared with the service account (or not for editing)."""

    def __init__(self, message: str, *, share_with: str, **context: Any) -> None:
        super().__init__(message, **context)
        self.share_with = share_with
        """The e-mail address the TD must share the spreadsheet with, as an Editor."""


class SheetsNotFoundError(SheetsError):
    """No spreadsheet has this id."""


class SheetsRequestError(SheetsError):
    """Google rejected the request itself (400): a bad range, a bad batch request..."""


class SheetsUnavailableError(SheetsError):
    """Google kept answering 429 or 5xx until the retries ran out."""


class SheetsTimeoutError(SheetsError):
    """Google did not answer in time (after the retries, or for a write that is not retried)."""


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to retry, and how long to wait: exponential backoff with jitter.

    The n-th retry (from 0) waits a random time between half and all of
    ``min(maximum, initial * 2**n)`` ("equal jitter"), so workers that failed together do not
    retry together; a ``Retry-After`` from Google is waited out in full when longer. All the
    waits of one request together never exceed ``total`` seconds.

    The defaults outlast Google's per-minute quota window (Sheets API usage limits: the
    quotas refill every minute): 8 retries wait at least 0.5 + 1 + 2 + 4 + 8 + 16 + 16 + 16
    = 63.5 s in all, and at most ``total``, 120 s, before the request is given up.

    >>> policy = RetryPolicy(retries=5, initial=1.0, maximum=8.0)
    >>> [policy.ceiling(n) for n in range(5)]
    [1.0, 2.0, 4.0, 8.0, 8.0]
    >>> policy = RetryPolicy()
    >>> sum(policy.ceiling(n) / 2 for n in range(policy.retries))
    63.5
    """

    retries: int = 8
    initial: float = 1.0
    maximum: float = 32.0
    total: float = 120.0

    def wait(
        self, attempt: int, waited: float, retry_after: float | None, rng: random.Random
    ) -> float | None:
        """The wait before retry number ``attempt``, after ``waited`` seconds of waits so
        far; None when the retries or the total wait are used up.

        >>> RetryPolicy(total=10).wait(0, 4.0, 60.0, random.Random(1))  # what is left
        6.0
        >>> RetryPolicy(total=10).wait(0, 10.0, None, random.Random(1)) is None
        True
        """
        left = self.total - waited
        if attempt >= self.retries or left <= 0:
            return None
        delay = self.backoff(attempt, rng)
        if retry_after is not None:
            delay = max(delay, retry_after)
        return min(delay, left)

    def ceiling(self, attempt: int) -> float:
        """The longest wait before retry number ``attempt`` (counting from 0)."""
        return float(min(self.maximum, self.initial * 2**attempt))

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """The wait before retry number ``attempt``: between half and all of its ceiling."""
        ceiling = self.ceiling(attempt)
        return rng.uniform(ceiling / 2, ceiling)


@dataclass(frozen=True)
class SheetsCall:
    """What an API request is, for retry decisions and error messages."""

    method: str
    operation: str
    """Google's method name, such as ``spreadsheets.values.batchGet``."""
    spreadsheet_id: str | None
    idempotent: bool
    """True when sending it twice does no harm, so it may be retried after a timeout."""

    @property
    def is_read(self) -> bool:
        """True for methods that only read (``get``, ``batchGet``, ``search``)."""
        return self.method == "GET" or self.operation in _READ_POSTS

    @property
    def target(self) -> str:
        """``spreadsheet <id>`` for messages."""
        return f"spreadsheet {self.spreadsheet_id}" if self.spreadsheet_id else "Google Sheets"


def describe_call(method: str, path: str) -> SheetsCall:
    """Name the Sheets API method of a request path (relative to the API base).

    >>> describe_call("GET", "/v4/spreadsheets/abc/values:batchGet")
    SheetsCall(method='GET', operation='spreadsheets.values.batchGet', spreadsheet_id='abc', \
idempotent=True)
    >>> describe_call("POST", "/v4/spreadsheets/abc:batchUpdate").idempotent
    False
    """
    verb = method.upper()
    prefix = "/v4/spreadsheets/"
    rest = path[len(prefix) :] if path.startswith(prefix) else ""
    head, slash, tail = rest.partition("/")
    spreadsheet_id, colon, custom = head.partition(":")
    if not slash:
        operation = f"spreadsheets.{custom}" if colon else "spreadsheets.get"
    elif tail.startswith("values/"):
        verb_suffix = tail.rpartition(":")[2] if ":" in tail[len("values/") :] else ""
        if verb_suffix in ("append", "clear"):
            operation = f"spreadsheets.values.{verb_suffix}"
        else:
            operation = "spreadsheets.values.get" if verb == "GET" else "spreadsheets.values.update"
    elif tail.startswith("values:"):
        operation = f"spreadsheets.values.{tail[len('values:') :]}"
    elif tail.startswith("developerMetadata"):
        operation = (
            "spreadsheets.developerMetadata.search"
            if tail.endswith(":search")
            else "spreadsheets.developerMetadata.get"
        )
    elif tail.startswith("sheets/"):
        operation = "spreadsheets.sheets.copyTo"
    else:
        operation = f"{verb} {path}"
    idempotent = verb in ("GET", "PUT", "HEAD") or operation in _IDEMPOTENT_POSTS
    return SheetsCall(verb, operation, unquote(spreadsheet_id) or None, idempotent)


def _google_error(error: APIError) -> tuple[int, str, str]:
    """(HTTP status, Google's status name, Google's message, redacted) of an error answer."""
    status_code = int(error.response.status_code)
    status = str(error.error.get("status") or "")
    message = redact(str(error.error.get("message") or ""))
    return status_code, status, message


def _is_scope_problem(error: APIError) -> bool:
    details = error.error.get("details") or []
    reasons = {item.get("reason") for item in details if isinstance(item, Mapping)}
    message = str(error.error.get("message") or "").lower()
    return "ACCESS_TOKEN_SCOPE_INSUFFICIENT" in reasons or "insufficient authentication scopes" in (
        message
    )


class HarknessHTTPClient(HTTPClient):
    """gspread's HTTP client with a configurable API base, a timeout and bounded retries."""

    def __init__(
        self,
        credentials: service_account.Credentials,
        *,
        api_base: str = GOOGLE_SHEETS_API_BASE,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(credentials)
        self.set_timeout(timeout)
        self.credentials = credentials
        self.api_base = api_base.rstrip("/")
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._rng = rng or random.Random()

    @property
    def service_account_email(self) -> str:
        """The service account's e-mail address: what a TD shares the spreadsheet with."""
        return str(self.credentials.service_account_email)

    def _rewrite(self, method: str, endpoint: str) -> tuple[str, str]:
        """The URL to send to, and the request path relative to the API base."""
        parts = urlsplit(endpoint)
        google = urlsplit(GOOGLE_SHEETS_API_BASE)
        if (parts.scheme, parts.netloc) != (google.scheme, google.netloc):
            raise SheetsRequestError(
                f"Harkness only uses the Google Sheets API; refusing {method.upper()} "
                f"{parts.scheme}://{parts.netloc}{parts.path}",
                operation=f"{method.upper()} {parts.path}",
            )
        rest = endpoint[len(GOOGLE_SHEETS_API_BASE) :]
        return self.api_base + rest, parts.path

    def request(
        self,
        method: str,
        endpoint: str,
        params: ParamsType | None = None,
        data: bytes | None = None,
        json: Mapping[str, Any] | None = None,
        files: FileType = None,
        headers: MutableMapping[str, str] | None = None,
    ) -> requests.Response:
        """Send one API request to the configured base, retrying 429, 5xx and timeouts."""
        url, path = self._rewrite(method, endpoint)
        call = describe_call(method, path)
        started = time.monotonic()
        attempt = 0
        waited = 0.0
        while True:
            retry_after: float | None = None
            timed_out = False
            last_status: int | None = None
            try:
                return super().request(
                    method,
                    url,
                    params=params,
                    data=data,
                    json=json,
                    files=files,
                    headers=headers,
                )
            except APIError as error:
                status_code, status, message = _google_error(error)
                if status_code != 429 and status_code < 500:
                    raise self._final_error(error, call) from error
                if status_code == 429:
                    GOOGLE_429.inc()
                failure = f"{status_code} {status}: {message}".strip()
                retry_after = _retry_after(error.response)
                last_status = status_code
            except requests.exceptions.Timeout as error:
                if not call.idempotent and not isinstance(
                    error, requests.exceptions.ConnectTimeout
                ):
                    raise SheetsTimeoutError(
                        f"Google Sheets did not answer {call.operation} on {call.target} within "
                        f"{self.timeout} s. The change may or may not have been made, so it was "
                        "not sent again; check the spreadsheet before retrying.",
                        spreadsheet_id=call.spreadsheet_id,
                        operation=call.operation,
                    ) from error
                failure, timed_out = f"no answer within {self.timeout} s", True
            except requests.exceptions.ConnectionError as error:
                if not call.idempotent and not _never_sent(error):
                    raise SheetsUnavailableError(
                        f"The connection to Google Sheets broke during {call.operation} on "
                        f"{call.target}. The change may or may not have been made, so it was "
                        "not sent again; check the spreadsheet before retrying.",
                        spreadsheet_id=call.spreadsheet_id,
                        operation=call.operation,
                    ) from error
                failure = "the connection failed"
            except auth_exceptions.RefreshError as error:
                if not getattr(error, "retryable", False):
                    raise self._auth_error(error, call) from None
                failure = self._refresh_reason(error)
            except auth_exceptions.TransportError:
                failure = "the token endpoint could not be reached"
            delay = self.retry.wait(attempt, waited, retry_after, self._rng)
            if delay is None:
                elapsed = max(time.monotonic() - started, waited)
                kind = SheetsTimeoutError if timed_out else SheetsUnavailableError
                raise kind(
                    f"Google Sheets did not complete {call.operation} on {call.target} after "
                    f"{attempt + 1} tries over {elapsed:.1f} s; the last try failed with: "
                    f"{failure}",
                    spreadsheet_id=call.spreadsheet_id,
                    operation=call.operation,
                    status=last_status,
                )
            attempt += 1
            waited += delay
            logger.warning(
                "Sheets %s on %s failed (%s); retry %d of %d in %.2f s",
                call.operation,
                call.target,
                failure,
                attempt,
                self.retry.retries,
                delay,
            )
            self._sleep(delay)

    def _final_error(self, error: APIError, call: SheetsCall) -> SheetsError:
        status_code, status, message = _google_error(error)
        context: dict[str, Any] = {
            "spreadsheet_id": call.spreadsheet_id,
            "operation": call.operation,
            "status": status_code,
            "google": f"{status_code} {status}: {message}",
        }
        email = self.service_account_email
        if status_code == 401:
            return SheetsAuthError(
                f"Google refused the credentials of service account {email} for "
                f"{call.operation} on {call.target}",
                **context,
            )
        if status_code == 403 and _is_scope_problem(error):
            return SheetsAuthError(
                f"The access token of service account {email} lacks the scope "
                f"{SHEETS_SCOPE} needed for {call.operation} on {call.target}",
                **context,
            )
        if status_code == 403:
            need = "read" if call.is_read else "edit"
            return SheetsPermissionError(
                f"The service account {email} may not {need} {call.target}: share the "
                f"spreadsheet with {email} as an Editor, then try again",
                share_with=email,
                **context,
            )
        if status_code == 404:
            return SheetsNotFoundError(
                f"There is no {call.target} (or it was deleted): check the spreadsheet ID or URL",
                **context,
            )
        return SheetsRequestError(
            f"Google Sheets rejected {call.operation} on {call.target}", **context
        )

    @staticmethod
    def _refresh_reason(error: auth_exceptions.RefreshError) -> str:
        reason = error.args[0] if error.args and isinstance(error.args[0], str) else ""
        return redact(reason).rstrip(". ") or type(error).__name__

    def _auth_error(self, error: auth_exceptions.RefreshError, call: SheetsCall) -> SheetsError:
        token_uri = getattr(self.credentials, "_token_uri", "its token_uri")
        return SheetsAuthError(
            f"The service account {self.service_account_email} could not get an access token "
            f"from {token_uri} for {call.operation} on {call.target}: "
            f"{self._refresh_reason(error)}. Check that the key in GOOGLE_APPLICATION_CREDENTIALS "
            "is current (not deleted or rotated) and belongs to this account.",
            spreadsheet_id=call.spreadsheet_id,
            operation=call.operation,
        )


def _never_sent(error: Exception) -> bool:
    """True when the connection could not even be opened, so the request was never sent."""
    reason = getattr(error.args[0], "reason", None) if error.args else None
    return isinstance(reason, NewConnectionError)


def _retry_after(response: requests.Response) -> float | None:
    value = response.headers.get("Retry-After") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


class SheetsClient(gspread.Client):
    """A ``gspread.Client`` whose requests go through ``HarknessHTTPClient``."""

    http_client: HarknessHTTPClient

    def __init__(self, http_client: HarknessHTTPClient) -> None:
        # gspread.Client.__init__ only instantiates an HTTP client class from (auth, session);
        # ours needs its settings, so it is built first and handed in ready to use.
        self.http_client = http_client

    @property
    def service_account_email(self) -> str:
        """The e-mail address a TD shares a spreadsheet with so that the worker can use it."""
        return self.http_client.service_account_email

    def open_spreadsheet(self, key_or_url: str) -> gspread.Spreadsheet:
        """Open a spreadsheet by ID or by its browser URL (one ``spreadsheets.get`` call)."""
        return self.open_by_key(spreadsheet_id(key_or_url))


#: A spreadsheet ID as Google makes them (letters, digits, ``-`` and ``_``).
_ID = re.compile(r"^[A-Za-z0-9_-]{10,200}$")


def is_spreadsheet_id(text: str) -> bool:
    """Whether ``text`` has the shape of a spreadsheet ID."""
    return bool(_ID.match(text))


def spreadsheet_id(key_or_url: str) -> str:
    """The spreadsheet ID in a browser URL, or the ID itself; the one reading of a sheet's
    address for the worker, the endpoint and the bot.

    >>> spreadsheet_id("https://docs.google.com/spreadsheets/d/1AbC-dEf_0123456789/edit#gid=0")
    '1AbC-dEf_0123456789'
    """
    text = key_or_url.strip()
    if "/" in text:
        try:
            text = extract_id_from_url(text)
        except gspread.exceptions.NoValidUrlKeyFound:
            raise SheetsRequestError(f"{key_or_url!r} is not a Google Sheets URL") from None
    if not is_spreadsheet_id(text):
        raise SheetsRequestError(f"{key_or_url!r} is not a spreadsheet ID or URL")
    return text


def load_credentials(path: str) -> service_account.Credentials:
    """Service-account credentials for the Sheets scope, from a key file.

    The key file's ``token_uri`` is where tokens are fetched. Errors name the file and the
    problem, never the key.
    """
    try:
        with open(path, encoding="utf-8") as key_file:
            info = json.load(key_file)
    except OSError as error:
        raise SheetsConfigError(
            f"Cannot read the service-account key file {path} (GOOGLE_APPLICATION_CREDENTIALS): "
            f"{error.strerror or type(error).__name__}"
        ) from None
    except ValueError:
        raise SheetsConfigError(
            f"{path} (GOOGLE_APPLICATION_CREDENTIALS) is not JSON; download the service "
            "account's key again (JSON format)"
        ) from None
    if not isinstance(info, dict) or info.get("type") != "service_account":
        raise SheetsConfigError(
            f"{path} (GOOGLE_APPLICATION_CREDENTIALS) is not a service-account key file "
            '(it needs "type": "service_account")'
        )
    # google-auth's factory is unannotated; naming its type here keeps the call checked.
    from_info: Callable[..., service_account.Credentials] = (
        service_account.Credentials.from_service_account_info
    )
    try:
        return from_info(info, scopes=[SHEETS_SCOPE])
    except (ValueError, KeyError, auth_exceptions.GoogleAuthError) as error:
        reason = redact(str(error))[:300] or type(error).__name__
        raise SheetsConfigError(
            f"{path} (GOOGLE_APPLICATION_CREDENTIALS) is not a usable service-account key "
            f"file: {reason}"
        ) from None


def open_client(
    settings: SheetsSettings | None = None,
    *,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> SheetsClient:
    """A gspread client for the worker, configured from ``settings`` (or the environment).

    ``sleep`` and ``rng`` exist for tests that want to observe or skip the backoff waits.
    No network call happens here: the first API call fetches the access token.
    """
    settings = settings or SheetsSettings()
    if settings.google_application_credentials is None:
        raise SheetsConfigError(
            "GOOGLE_APPLICATION_CREDENTIALS is not set: point it at the service account's "
            "JSON key file"
        )
    credentials = load_credentials(str(settings.google_application_credentials))
    http_client = HarknessHTTPClient(
        credentials,
        api_base=settings.api_base,
        timeout=settings.timeout,
        retry=RetryPolicy(
            settings.retries, settings.backoff_initial, settings.backoff_max, settings.retry_total
        ),
        sleep=sleep,
        rng=rng,
    )
    return SheetsClient(http_client)
