"""HMAC-SHA256 request signing, exactly as docs/partner-api.md#signing-with-a-worked-example says."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
import uuid


def b64url(data: bytes) -> str:
    """base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def hash_body(body: str | bytes) -> str:
    """Step 1: base64url (no padding) of SHA-256 over the exact bytes of the body."""
    raw = body.encode("utf-8") if isinstance(body, str) else body
    return b64url(hashlib.sha256(raw).digest())


def canonical_string(body_hash: str, timestamp: str, partner_id: str, nonce: str) -> str:
    """Step 2: bodyHash.timestamp.partnerId.nonce, in this order."""
    return f"{body_hash}.{timestamp}.{partner_id}.{nonce}"


def compute_signature(secret_base64: str, canonical: str) -> str:
    """Steps 3–4: base64url (no padding) of HMAC-SHA256 keyed with the base64-*decoded* secret."""
    key = base64.b64decode(secret_base64.replace("-", "+").replace("_", "/"))
    return b64url(hmac.new(key, canonical.encode("utf-8"), hashlib.sha256).digest())


def sign_request(
    partner_id: str,
    secret: str,
    body: str,
    *,
    timestamp: int | None = None,
    nonce: str | None = None,
) -> dict[str, str]:
    """The five headers of one signed request; ``body`` is the exact text sent ('' for a GET)."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    n = str(uuid.uuid4()) if nonce is None else nonce
    signature = compute_signature(secret, canonical_string(hash_body(body), ts, partner_id, n))
    return {
        "Content-Type": "application/json",
        "X-Partner-ID": partner_id,
        "X-Partner-Timestamp": ts,
        "X-Partner-Nonce": n,
        "X-Partner-Signature": signature,
    }
