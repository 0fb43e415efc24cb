"""Offline checks of the two ADULT_BLIND attestations (docs/adult-blind.md#verifying-offline and
#checking-a-private-attestation), with exactly the checks of the TypeScript SDK
(server/sdk/attestation.ts, server/sdk/private-attestation.ts). Crypto is `cryptography`'s.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import struct
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.serialization import load_der_public_key

from .errors import SvcError
from .signing import b64url

ATTESTATION_TYP = "svc-attestation+jwt"
ATTESTATION_AUDIENCE = "svc-attestation"
MAX_ATTESTATION_LENGTH = 8 * 1024
_B64URL = re.compile(r"^[A-Za-z0-9_-]+$")
_X = re.compile(r"^[A-Za-z0-9_-]{43}$")
_EPOCH = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MAX_SAFE = 2**53 - 1

# RFC 9578 §8.2: token_type (2) | nonce (32) | challenge_digest (32) | token_key_id (32) | authenticator (256)
TOKEN_TYPE = 0x0002
_NK = 256
_TOKEN_INPUT_LENGTH = 2 + 32 + 32 + 32
_TOKEN_LENGTH = _TOKEN_INPUT_LENGTH + _NK


@dataclass(frozen=True)
class VerifiedAttestation:
    """What a verified JWS attestation proves (scope_mask bits), and what a partner may keep."""

    adult: bool
    french: bool
    eu: bool
    unique: bool
    nullifier: str
    jti: str
    exp: int


@dataclass(frozen=True)
class VerifiedPrivateAttestation:
    """What a verified private attestation proves; ``adult`` is always set (issued only for isAdult)."""

    adult: bool
    french: bool
    eu: bool
    scope_mask: int
    epoch: str
    token_key_id: str


def _fail(code: str, message: str) -> SvcError:
    return SvcError(code, message)


def _b64url_decode(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def _is_int(value: object) -> bool:
    return type(value) is int and -_MAX_SAFE <= value <= _MAX_SAFE  # bool is not an int here


def _shown(value: object) -> str:
    if isinstance(value, str):
        return value[:64]
    if isinstance(value, (dict, list)):
        return "an array" if isinstance(value, list) else "an object"
    return json.dumps(value)


def compute_origin_hash(origin: str) -> str:
    """origin_hash as the service computes it: base64url (no padding) of SHA-256 over the ASCII origin."""
    return b64url(hashlib.sha256(origin.encode("ascii", errors="replace")).digest())


def import_ed25519_jwk(jwk: Mapping[str, Any]) -> Ed25519PublicKey:
    """The Ed25519 public key of a JWK; anything but an OKP Ed25519 signing key is UNKNOWN_KEY."""
    x = jwk.get("x")
    if jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519" or not isinstance(x, str) or not _X.match(x):
        raise _fail("UNKNOWN_KEY", "key is not an Ed25519 public key")
    if jwk.get("use", "sig") != "sig" or jwk.get("alg", "EdDSA") != "EdDSA":
        raise _fail("UNKNOWN_KEY", "key is not meant for EdDSA signatures")
    return Ed25519PublicKey.from_public_bytes(_b64url_decode(x))


def _split_compact(jws: object) -> tuple[dict[str, Any], str, str, bytes]:
    if not isinstance(jws, str) or len(jws) > MAX_ATTESTATION_LENGTH:
        raise _fail("MALFORMED", "not a string of sane length")
    parts = jws.split(".")
    if len(parts) != 3:
        raise _fail("MALFORMED", f"expected 3 parts, got {len(parts)}")
    if not all(_B64URL.match(p) for p in parts):
        raise _fail("MALFORMED", "a part is empty or not base64url")
    header_part, payload_part, signature_part = parts
    try:
        header = json.loads(_b64url_decode(header_part).decode("utf-8"))
        signature = _b64url_decode(signature_part)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise _fail("MALFORMED", "header is not base64url JSON") from None
    if not isinstance(header, dict):
        raise _fail("MALFORMED", "header is not an object")
    if "crit" in header:
        raise _fail("MALFORMED", "crit header parameters are not understood")
    return header, f"{header_part}.{payload_part}", payload_part, signature


def verify_compact_ed25519(jws: str, key: Ed25519PublicKey) -> tuple[dict[str, Any], bytes]:
    """Three base64url parts and a valid Ed25519 signature over part1.part2; checks no claim (RFC 8037 A.4)."""
    header, signing_input, payload_part, signature = _split_compact(jws)
    if header.get("alg") != "EdDSA":
        raise _fail("MALFORMED", f"alg must be EdDSA, got {_shown(header.get('alg'))}")
    try:
        if len(signature) != 64:
            raise InvalidSignature()
        key.verify(signature, signing_input.encode("ascii"))
    except InvalidSignature:
        raise _fail("BAD_SIGNATURE", "signature does not verify") from None
    try:
        payload = _b64url_decode(payload_part)
    except (ValueError, binascii.Error):
        raise _fail("MALFORMED", "payload is not base64url") from None
    return header, payload


class AttestationKeys:
    """The published JWS key set, fetched on demand as docs/adult-blind.md#verifying-offline asks:
    kept at most an hour, fetched once more when an attestation names a kid it does not hold
    (a key announced since), but not more than once every 30 s (no fetch storm from forged kids).

    >>> keys = AttestationKeys("https://svc.example")   # one per process
    >>> verify_attestation(token, keys, app_id, origin)
    """

    MAX_AGE = 3600.0
    UNKNOWN_KID_COOLDOWN = 30.0

    def __init__(self, app_url: str, *, clock: Callable[[], float] = time.time, timeout: float = 10.0) -> None:
        self.app_url = app_url.rstrip("/")
        self._clock = clock
        self._timeout = timeout
        self._jwks: dict[str, Any] | None = None
        self._fetched_at = 0.0
        self.fetches = 0

    def _fetch(self) -> dict[str, Any]:
        self._jwks = fetch_attestation_keys(self.app_url, timeout=self._timeout)
        self._fetched_at = self._clock()
        self.fetches += 1
        return self._jwks

    def for_kid(self, kid: str) -> dict[str, Any]:
        """A key set holding ``kid`` when one can be had; the current one otherwise."""
        now = self._clock()
        if self._jwks is None or now - self._fetched_at >= self.MAX_AGE or now < self._fetched_at:
            return self._fetch()
        if any(isinstance(k, Mapping) and k.get("kid") == kid for k in self._jwks["keys"]):
            return self._jwks
        return self._fetch() if now - self._fetched_at >= self.UNKNOWN_KID_COOLDOWN else self._jwks


def verify_attestation(
    token: str,
    jwks: Mapping[str, Any] | AttestationKeys,
    app_id: str,
    origin: str,
    *,
    now: float | None = None,
) -> VerifiedAttestation:
    """Verifies an ADULT_BLIND attestation offline; raises SvcError (status 0) with the reason's code.

    ``jwks`` is the key set of ``GET {app_url}/api/billing/attestation-keys`` as a dict, or an
    :class:`AttestationKeys` that fetches and caches it. The key is chosen by
    kid; typ, alg, aud, app_id, origin_hash, ver and exp are checked.
    """
    header, _, _, _ = _split_compact(token)
    if header.get("typ") != ATTESTATION_TYP:
        raise _fail("MALFORMED", f"typ must be {ATTESTATION_TYP}, got {_shown(header.get('typ'))}")
    kid = header.get("kid")
    if not isinstance(kid, str) or kid == "":
        raise _fail("MALFORMED", "kid is missing")
    if isinstance(jwks, AttestationKeys):
        jwks = jwks.for_kid(kid)
    keys = jwks.get("keys") if isinstance(jwks, Mapping) else None
    if not isinstance(keys, list):
        raise _fail("KEYS_UNAVAILABLE", "key set has no keys array")
    jwk = next((k for k in keys if isinstance(k, Mapping) and k.get("kid") == kid), None)
    if jwk is None:
        raise _fail("UNKNOWN_KEY", f"no key with kid {kid[:64]} in the given key set")
    _, payload = verify_compact_ed25519(token, import_ed25519_jwk(jwk))

    try:
        claims = json.loads(payload.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise _fail("MALFORMED", "payload is not JSON") from None
    if not isinstance(claims, dict):
        raise _fail("MALFORMED", "payload is not an object")
    exp, scope_mask, jti, nullifier = (claims.get(k) for k in ("exp", "scope_mask", "jti", "nullifier"))
    if not _is_int(exp) or not _is_int(scope_mask) or scope_mask < 0 or not isinstance(jti, str) or not isinstance(
        nullifier, str
    ):
        raise _fail("MALFORMED", "exp, scope_mask, jti or nullifier has the wrong type")
    if claims.get("ver") != "1":
        raise _fail("MALFORMED", f"unknown payload version {_shown(claims.get('ver'))}")
    current = time.time() if now is None else now
    if exp <= int(current):
        raise _fail("EXPIRED", "attestation has expired")
    if claims.get("aud") != ATTESTATION_AUDIENCE:
        raise _fail("WRONG_AUDIENCE", f"aud must be {ATTESTATION_AUDIENCE}")
    if claims.get("app_id") != app_id:
        raise _fail("WRONG_APP", "attestation was made for another app")
    if not isinstance(origin, str) or claims.get("origin_hash") != compute_origin_hash(origin):
        raise _fail("WRONG_ORIGIN", "attestation was made for another origin")
    return VerifiedAttestation(
        adult=bool(scope_mask & 1),
        french=bool(scope_mask & 2),
        eu=bool(scope_mask & 4),
        unique=bool(scope_mask & 8),
        nullifier=nullifier,
        jti=jti,
        exp=exp,
    )


def serialize_token_challenge(issuer_name: str, redemption_context: bytes) -> bytes:
    """RFC 9577 §2.1 TokenChallenge for token type 0x0002, with an empty origin_info."""
    issuer = issuer_name.encode("utf-8")
    if not 1 <= len(issuer) <= 0xFFFF:
        raise ValueError("issuer_name must be 1 to 65535 bytes")
    if len(redemption_context) not in (0, 32):
        raise ValueError("redemption_context must be empty or 32 bytes")
    return (
        struct.pack(">HH", TOKEN_TYPE, len(issuer))
        + issuer
        + bytes([len(redemption_context)])
        + redemption_context
        + b"\x00\x00"
    )


def _context_bytes(context: str | bytes) -> bytes:
    if isinstance(context, str):
        if not _B64URL.match(context):
            raise ValueError("redemption_context must be 32 bytes (base64url or bytes)")
        try:
            raw = _b64url_decode(context)
        except (ValueError, binascii.Error):
            raise ValueError("redemption_context must be 32 bytes (base64url or bytes)") from None
    else:
        raw = bytes(context)
    if len(raw) != 32:
        raise ValueError("redemption_context must be 32 bytes (base64url or bytes)")
    return raw


def _read_metadata(part: str) -> tuple[int, str]:
    try:
        value = json.loads(_b64url_decode(part).decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise _fail("MALFORMED", "metadata is not base64url JSON") from None
    if not isinstance(value, dict):
        raise _fail("MALFORMED", "metadata is not an object")
    if set(value) - {"scope_mask", "epoch"}:
        raise _fail("MALFORMED", "metadata has members other than scope_mask and epoch")
    scope_mask, epoch = value.get("scope_mask"), value.get("epoch")
    if type(scope_mask) is not int or not 0 <= scope_mask <= 15:
        raise _fail("MALFORMED", "scope_mask is not an integer from 0 to 15")
    if not isinstance(epoch, str) or not _EPOCH.match(epoch):
        raise _fail("MALFORMED", "epoch is not a UTC date")
    return scope_mask, epoch


def verify_private_attestation(
    attestation: str,
    redemption_context: str | bytes,
    keys: Mapping[str, Any],
    consume_context: Callable[[str], bool] | None = None,
) -> VerifiedPrivateAttestation:
    """Verifies a private attestation ``<base64url token>.<base64url metadata>`` offline.

    In order: its shape (RFC 9578 token type 0x0002), the key by token_key_id (and that its
    public key hashes to that id), the metadata the key signs for, the challenge (issuer_name and
    this page's 32-byte redemption context), the RSASSA-PSS SHA-384 signature (salt 48), then,
    if given, ``consume_context(context_base64url)``: True the first time, False for a context
    already used (REUSED). ``keys`` is ``GET {app_url}/api/billing/private-attestation-keys``.
    """
    context = _context_bytes(redemption_context)
    if not isinstance(attestation, str) or len(attestation) > 1024:
        raise _fail("MALFORMED", "not a string of sane length")
    parts = attestation.split(".")
    if len(parts) != 2 or not all(_B64URL.match(p) for p in parts):
        raise _fail("MALFORMED", "not <token>.<metadata> in base64url")
    try:
        token = _b64url_decode(parts[0])
    except (ValueError, binascii.Error):
        raise _fail("MALFORMED", "token is not base64url") from None
    if len(token) != _TOKEN_LENGTH:
        raise _fail("MALFORMED", f"token is {len(token)} bytes, not {_TOKEN_LENGTH}")
    token_type = struct.unpack(">H", token[:2])[0]
    if token_type != TOKEN_TYPE:
        raise _fail("MALFORMED", f"token_type {token_type}")
    scope_mask, epoch = _read_metadata(parts[1])

    challenge_digest, token_key_id = token[34:66], token[66:98]
    listed = keys.get("keys") if isinstance(keys, Mapping) else None
    key = None
    for candidate in listed if isinstance(listed, list) else []:
        kid = candidate.get("token_key_id") if isinstance(candidate, Mapping) else None
        if candidate.get("token_type") == TOKEN_TYPE and isinstance(kid, str) and _B64URL.match(kid):
            if _b64url_decode(kid) == token_key_id:
                key = candidate
                break
    if key is None:
        raise _fail("UNKNOWN_KEY", "no published key has this token_key_id")
    public_key_b64 = key.get("public_key")
    if not isinstance(public_key_b64, str) or not _B64URL.match(public_key_b64):
        raise _fail("UNKNOWN_KEY", "public_key is not base64url")
    public_key_der = _b64url_decode(public_key_b64)
    if hashlib.sha256(public_key_der).digest() != token_key_id:
        raise _fail("UNKNOWN_KEY", "the key set lists a public_key that does not hash to its token_key_id")
    if key.get("scope_mask") != scope_mask or type(key.get("scope_mask")) is not int or key.get("epoch") != epoch:
        raise _fail("WRONG_METADATA", "the metadata is not the one the token key signs for")

    issuer_name = keys.get("issuer_name")
    if not isinstance(issuer_name, str):
        raise _fail("MALFORMED", "the key set has no issuer_name")
    expected = hashlib.sha256(serialize_token_challenge(issuer_name, context)).digest()
    if not hmac.compare_digest(expected, challenge_digest):
        raise _fail("WRONG_CONTEXT", "the token was made for another redemption context or issuer")

    try:
        public_key = load_der_public_key(public_key_der)
    except (ValueError, UnsupportedAlgorithm):
        raise _fail("UNKNOWN_KEY", "public_key is not an RSA SubjectPublicKeyInfo") from None
    if not isinstance(public_key, RSAPublicKey):
        raise _fail("UNKNOWN_KEY", "public_key is not an RSA SubjectPublicKeyInfo")
    try:
        public_key.verify(
            token[_TOKEN_INPUT_LENGTH:],
            token[:_TOKEN_INPUT_LENGTH],
            padding.PSS(mgf=padding.MGF1(hashes.SHA384()), salt_length=48),
            hashes.SHA384(),
        )
    except InvalidSignature:
        raise _fail("BAD_SIGNATURE", "the signature does not verify") from None

    if consume_context is not None and not consume_context(b64url(context)):
        raise _fail("REUSED", "this redemption context was already used")
    return VerifiedPrivateAttestation(
        adult=bool(scope_mask & 1),
        french=bool(scope_mask & 2),
        eu=bool(scope_mask & 4),
        scope_mask=scope_mask,
        epoch=epoch,
        token_key_id=key["token_key_id"],
    )


def _get_json(url: str, timeout: float) -> Any:
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers={"Accept": "application/json"}), timeout=timeout
        ) as res:
            return json.loads(res.read().decode("utf-8"))
    except urllib.error.HTTPError as err:
        raise SvcError("KEYS_UNAVAILABLE", f"fetching {url} answered HTTP {err.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise SvcError("KEYS_UNAVAILABLE", f"fetching {url} failed ({err})") from None


def fetch_attestation_keys(app_url: str, *, timeout: float = 10.0) -> dict[str, Any]:
    """GET {app_url}/api/billing/attestation-keys (cache ≤ 1 h; fetch once more on an unknown kid)."""
    body = _get_json(f"{app_url.rstrip('/')}/api/billing/attestation-keys", timeout)
    if not isinstance(body, dict) or not isinstance(body.get("keys"), list):
        raise SvcError("KEYS_UNAVAILABLE", "key set has no keys array")
    return body


def fetch_private_attestation_keys(app_url: str, *, timeout: float = 10.0) -> dict[str, Any]:
    """GET {app_url}/api/billing/private-attestation-keys (cache ≤ 1 h)."""
    body = _get_json(f"{app_url.rstrip('/')}/api/billing/private-attestation-keys", timeout)
    if not isinstance(body, dict) or not isinstance(body.get("keys"), list):
        raise SvcError("KEYS_UNAVAILABLE", "key set has no keys array")
    return body
