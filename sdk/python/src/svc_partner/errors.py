"""The one exception of the SDK (docs/partner-api.md#every-error-code)."""

from __future__ import annotations


def is_retryable_status(status: int) -> bool:
    """429, 5xx and 0 (no answer) are worth retrying; 400, 401 and 403 never are."""
    return status == 0 or status == 429 or status >= 500


class SvcError(Exception):
    """A failed call or a refused attestation.

    ``code`` is the service's catalogue code (``GRANT_INVALID``, ``INVALID_SIGNATURE``, …), the
    SDK's own ``NETWORK_ERROR`` (status 0) or ``INVALID_RESPONSE``, or, for an attestation
    refused offline, one of ``MALFORMED``, ``UNKNOWN_KEY``, ``BAD_SIGNATURE``, ``EXPIRED``,
    ``WRONG_AUDIENCE``, ``WRONG_APP``, ``WRONG_ORIGIN``, ``KEYS_UNAVAILABLE``,
    ``WRONG_METADATA``, ``WRONG_CONTEXT``, ``REUSED`` (status 0 then).
    """

    code: str
    status: int
    retry_after: int | None
    cid: str | None
    attempts: int

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int = 0,
        retry_after: int | None = None,
        cid: str | None = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.cid = cid
        self.attempts = attempts

    @property
    def retryable(self) -> bool:
        """True for 429, 5xx and network failures: the SDK already retried those (3 attempts in all)."""
        return self.code == "NETWORK_ERROR" or (self.status != 0 and is_retryable_status(self.status))

    def __repr__(self) -> str:
        return f"SvcError(code={self.code!r}, status={self.status}, retry_after={self.retry_after}, cid={self.cid!r})"
