"""Partner SDK of the age-verification service (Python). Same surface as @svc/partner-sdk.

>>> from svc_partner import PartnerClient, SvcError, verify_attestation, verify_private_attestation
"""

from .attestation import (
    AttestationKeys,
    VerifiedAttestation,
    VerifiedPrivateAttestation,
    compute_origin_hash,
    fetch_attestation_keys,
    fetch_private_attestation_keys,
    serialize_token_challenge,
    verify_attestation,
    verify_private_attestation,
)
from .client import PartnerClient, ResponseInfo, Session, parse_retry_after, retry_delay
from .errors import SvcError, is_retryable_status
from .signing import canonical_string, compute_signature, hash_body, sign_request

__version__ = "0.1.0"

__all__ = [
    "AttestationKeys",
    "PartnerClient",
    "ResponseInfo",
    "Session",
    "SvcError",
    "VerifiedAttestation",
    "VerifiedPrivateAttestation",
    "canonical_string",
    "compute_origin_hash",
    "compute_signature",
    "fetch_attestation_keys",
    "fetch_private_attestation_keys",
    "hash_body",
    "is_retryable_status",
    "parse_retry_after",
    "retry_delay",
    "serialize_token_challenge",
    "sign_request",
    "verify_attestation",
    "verify_private_attestation",
]
