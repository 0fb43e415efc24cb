"""The partner client: signed calls with the retry rules of docs/partner-api.md#the-partner-sdk-serversdk.

Each call serialises its body once and signs exactly those bytes; every attempt is signed again
with a fresh nonce and timestamp. 429, 5xx and network failures are retried, at most 3 attempts
in all: ``Retry-After`` is honoured (up to 60 s; beyond, the call fails at once), otherwise 1 s
then 2 s with ±20 % jitter (30 s cap). 400, 401 and 403 are never retried.
"""

from __future__ import annotations

import base64
import binascii
import email.utils
import json
import random as _random
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import SvcError, is_retryable_status
from .signing import sign_request

MAX_ATTEMPTS = 3
BASE_DELAY = 1.0
MAX_DELAY = 30.0
MAX_RETRY_AFTER = 60.0
JITTER = 0.2
DEFAULT_TIMEOUT = 10.0

class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A 3xx is answered as is (INVALID_RESPONSE): signed headers never follow a redirect elsewhere."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)

_PARTNER_ID = re.compile(r"^[A-Za-z0-9_]{1,64}$")
_SECRET = re.compile(r"^[A-Za-z0-9+/_-]+={0,2}$")


@dataclass(frozen=True)
class ResponseInfo:
    """What ``on_response`` is told about every answer: never the body, the query or a header value but the cid."""

    method: str
    path: str
    status: int
    cid: str | None
    attempt: int


@dataclass(frozen=True)
class Session:
    """A billing session token: for the loader's ``data-session-token``, this page load only."""

    token: str
    expires_in: int


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Retry-After (delta seconds or an HTTP date) in seconds from ``now``; None when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if re.fullmatch(r"\d{1,9}", text):
        return float(int(text))
    if not re.match(r"^[A-Za-z]{3}, ", text):
        return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def retry_delay(retry: int, retry_after: float | None, random: Callable[[], float]) -> float | None:
    """The wait before retry number ``retry`` (1 for the first); None: do not retry."""
    if retry_after is not None:
        return None if retry_after > MAX_RETRY_AFTER else retry_after
    jittered = BASE_DELAY * 2 ** (retry - 1) * (1 - JITTER + 2 * JITTER * random())
    return min(MAX_DELAY, jittered)


class PartnerClient:
    """Signed calls to the partner API for one partner.

    >>> svc = PartnerClient(api_url="https://api.example", partner_id="pk_live_…", secret=os.environ["SVC_PARTNER_SECRET"])
    >>> svc.exchange(grant_code)["pass_token"]
    """

    def __init__(
        self,
        api_url: str,
        partner_id: str,
        secret: str,
        *,
        app_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_attempts: int = MAX_ATTEMPTS,
        on_response: Callable[[ResponseInfo], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        random: Callable[[], float] = _random.random,
    ) -> None:
        self.api_url = _base_url(api_url, "api_url")
        self.app_url = self.api_url if app_url is None else _base_url(app_url, "app_url")
        if not isinstance(partner_id, str) or not _PARTNER_ID.match(partner_id):
            raise ValueError("partner_id must be the Partner ID, e.g. pk_live_…")
        if not isinstance(secret, str) or not _SECRET.match(secret) or len(_b64decode(secret)) < 16:
            raise ValueError("secret must be the base64 Partner Secret as issued")
        self.partner_id = partner_id
        self._secret = secret
        self._timeout = timeout
        self._max_attempts = max(1, min(MAX_ATTEMPTS, int(max_attempts)))
        self._on_response = on_response
        self._sleep = sleep
        self._clock = clock
        self._random = random

    def __repr__(self) -> str:  # never the secret
        return f"PartnerClient(api_url={self.api_url!r}, partner_id={self.partner_id!r})"

    # ---- the partner API ----

    def exchange(self, grant_code: str, *, idempotency_key: str | None = None) -> dict[str, Any]:
        """POST /v1/exchange: the pass token and attributes a grant code is worth (``GRANT_INVALID`` otherwise).

        An Idempotency-Key is always sent and kept across this call's retries.
        """
        _require(grant_code, "grant_code")
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        return self.request(
            "POST", f"{self.api_url}/v1/exchange", {"grant_code": grant_code}, headers={"Idempotency-Key": key}
        )

    def introspect(self, pass_token: str) -> dict[str, Any]:
        """POST /v1/introspect: ``{"active": False}`` for an expired, unknown or foreign token."""
        _require(pass_token, "pass_token")
        return self.request("POST", f"{self.api_url}/v1/introspect", {"pass_token": pass_token})

    def create_verify_request(
        self, *, scopes: Sequence[str] | None = None, client_proof_mode: bool | None = None
    ) -> dict[str, Any]:
        """POST /api/partner/verify-request: a verification request started from the partner's server."""
        body: dict[str, Any] = {}
        if scopes is not None:
            body["scopes"] = list(scopes)
        if client_proof_mode is not None:
            body["client_proof_mode"] = client_proof_mode
        return self.request("POST", f"{self.app_url}/api/partner/verify-request", body)

    def get_verify_status(self, request_id: str) -> dict[str, Any]:
        """GET /api/partner/verify-status/{request_id}; poll at most once a second."""
        _require(request_id, "request_id")
        quoted = urllib.parse.quote(request_id, safe="")
        return self.request("GET", f"{self.app_url}/api/partner/verify-status/{quoted}")

    def create_billing_session(self, origin: str, scopes: Sequence[str] | None = None) -> Session:
        """POST {app_url}/api/billing/session (ADULT_BLIND): a fresh token for every page load.

        Signed like the exchange, with the lower-case header names and the 32-hex nonce
        docs/adult-blind.md#getting-a-session-token-every-page-load documents.
        """
        body: dict[str, Any] = {"origin": origin} if scopes is None else {"origin": origin, "scopes": list(scopes)}

        def sign(text: str, timestamp: int) -> dict[str, str]:
            signed = sign_request(self.partner_id, self._secret, text, timestamp=timestamp, nonce=secrets.token_hex(16))
            return {name.lower(): value for name, value in signed.items()}

        created = self.request("POST", f"{self.app_url}/api/billing/session", body, sign=sign, expect_status=201)
        token, expires_in = created.get("token"), created.get("expires_in")
        if not isinstance(token, str) or type(expires_in) is not int:
            raise SvcError("INVALID_RESPONSE", "/api/billing/session answered without token and expires_in", status=201)
        return Session(token=token, expires_in=expires_in)

    # ---- the one signed request ----

    def request(
        self,
        method: str,
        url: str,
        body: Any = None,
        *,
        headers: Mapping[str, str] | None = None,
        sign: Callable[[str, int], dict[str, str]] | None = None,
        expect_status: int | None = None,
    ) -> dict[str, Any]:
        """A signed call to any signed route, with the same signing and retry rules."""
        if method not in ("GET", "POST"):
            raise ValueError("method must be GET or POST")
        path = urllib.parse.urlsplit(url).path
        text = "" if method == "GET" else json.dumps({} if body is None else body, separators=(",", ":"))
        signer = sign or (lambda t, ts: sign_request(self.partner_id, self._secret, t, timestamp=ts))
        attempt = 0
        while True:
            attempt += 1
            signed = signer(text, int(self._clock()))
            if method == "GET":
                signed = {k: v for k, v in signed.items() if k.lower() != "content-type"}
            all_headers = {**signed, **(headers or {})}
            status, cid, payload, retry_after_header, network_error = self._attempt(method, url, all_headers, text)
            if network_error is None and self._on_response is not None:
                self._on_response(ResponseInfo(method, path, status, cid, attempt))
            if network_error is None and 200 <= status < 300:
                if not isinstance(payload, dict) or (expect_status is not None and status != expect_status):
                    raise SvcError(
                        "INVALID_RESPONSE",
                        f"{path} answered {status} without the JSON it documents",
                        status=status,
                        cid=cid,
                        attempts=attempt,
                    )
                return payload
            retry_after = None if network_error is not None else parse_retry_after(retry_after_header, self._clock())
            error = _to_error(status, cid, payload, path, attempt, retry_after, network_error)
            if not (error.code == "NETWORK_ERROR" or is_retryable_status(status)) or attempt >= self._max_attempts:
                raise error
            delay = retry_delay(attempt, retry_after, self._random)
            if delay is None:
                raise error
            self._sleep(delay)

    def _attempt(
        self, method: str, url: str, headers: dict[str, str], text: str
    ) -> tuple[int, str | None, Any, str | None, str | None]:
        data = None if method == "GET" else text.encode("utf-8")
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with _OPENER.open(req, timeout=self._timeout) as res:
                raw, status, res_headers = res.read(), res.status, res.headers
        except urllib.error.HTTPError as err:
            raw, status, res_headers = err.read(), err.code, err.headers
        except (urllib.error.URLError, OSError, TimeoutError) as err:
            return 0, None, None, None, str(getattr(err, "reason", err))
        try:
            payload = json.loads(raw.decode("utf-8")) if raw else None
        except (ValueError, UnicodeDecodeError):
            payload = None
        return status, res_headers.get("x-svc-cid"), payload, res_headers.get("retry-after"), None


def _to_error(
    status: int,
    cid: str | None,
    payload: Any,
    path: str,
    attempts: int,
    retry_after: float | None,
    network_error: str | None,
) -> SvcError:
    if network_error is not None:
        return SvcError("NETWORK_ERROR", f"{path}: no answer ({network_error})", status=0, attempts=attempts)
    body = payload if isinstance(payload, dict) else {}
    code = body.get("error")
    if not isinstance(code, str):
        code = "Too many requests" if status == 429 else "INTERNAL_ERROR" if status >= 500 else "INVALID_RESPONSE"
    message = body.get("message")
    return SvcError(
        code,
        message if isinstance(message, str) else f"{path} answered HTTP {status}",
        status=status,
        cid=cid,
        retry_after=None if retry_after is None else int(-(-retry_after // 1)),
        attempts=attempts,
    )


def _base_url(value: str, name: str) -> str:
    parts = urllib.parse.urlsplit(value) if isinstance(value, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{name} must be an absolute http(s) URL, got {value!r}")
    return value.rstrip("/")


def _b64decode(secret: str) -> bytes:
    try:
        return base64.b64decode(secret.replace("-", "+").replace("_", "/") + "==")
    except (binascii.Error, ValueError):
        return b""


def _require(value: object, name: str) -> None:
    if not isinstance(value, str) or value == "":
        raise ValueError(f"{name} must be a non-empty string")
