"""Known answers: the HMAC worked example (fixtures/hmac/), RFC 8037 A.4, RFC 9578's type 2 vectors."""

from __future__ import annotations

import base64
import json
import secrets

import pytest
from conftest import fixture

from svc_partner import SvcError, compute_signature, hash_body, serialize_token_challenge, sign_request
from svc_partner import verify_private_attestation
from svc_partner.attestation import import_ed25519_jwk, verify_compact_ed25519
from svc_partner.signing import canonical_string

WORKED = fixture("hmac", "worked-example.json")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_signing_reproduces_the_worked_example_step_by_step() -> None:
    assert hash_body(WORKED["body"]) == WORKED["body_hash"]
    canonical = canonical_string(WORKED["body_hash"], WORKED["timestamp"], WORKED["partner_id"], WORKED["nonce"])
    assert canonical == WORKED["canonical"]
    assert compute_signature(WORKED["secret"], canonical) == WORKED["signature"]
    headers = sign_request(
        WORKED["partner_id"], WORKED["secret"], WORKED["body"], timestamp=int(WORKED["timestamp"]), nonce=WORKED["nonce"]
    )
    assert headers == {
        "Content-Type": "application/json",
        "X-Partner-ID": "pk_test_demo",
        "X-Partner-Timestamp": "1767225600",
        "X-Partner-Nonce": WORKED["nonce"],
        "X-Partner-Signature": WORKED["signature"],
    }


def test_each_common_mistake_gives_the_signature_the_fixture_lists_not_the_right_one() -> None:
    mistakes = WORKED["mistakes"]
    assert hash_body(mistakes["partner_id_in_body"]["body"]) == mistakes["partner_id_in_body"]["body_hash"]
    assert hash_body(mistakes["body_reserialised"]["body"]) == mistakes["body_reserialised"]["body_hash"]
    for name in ("partner_id_in_body", "body_reserialised"):
        m = mistakes[name]
        canonical = canonical_string(m["body_hash"], WORKED["timestamp"], WORKED["partner_id"], WORKED["nonce"])
        assert compute_signature(WORKED["secret"], canonical) == m["signature"] != WORKED["signature"]
    wrong_order = mistakes["wrong_canonical_order"]
    assert compute_signature(WORKED["secret"], wrong_order["canonical"]) == wrong_order["signature"]
    # the secret's text as the key: the SDK never does it, the fixture's value proves what it would give
    import hashlib
    import hmac

    text_keyed = hmac.new(WORKED["secret"].encode(), WORKED["canonical"].encode(), hashlib.sha256).digest()
    assert b64url(text_keyed) == mistakes["secret_not_decoded"]["signature"]


def test_a_fresh_signature_has_a_uuid_nonce_and_the_current_second() -> None:
    headers = sign_request("pk_test_demo", WORKED["secret"], "")
    assert len(headers["X-Partner-Nonce"]) == 36
    assert len(headers["X-Partner-Signature"]) == 43


def test_rfc8037_a4_ed25519_signature_verifies_and_a_flipped_bit_does_not() -> None:
    vector = fixture("attestation", "rfc8037.json")
    key = import_ed25519_jwk(vector["publicJwk"])
    header, payload = verify_compact_ed25519(vector["jws"], key)
    assert header == {"alg": "EdDSA"}
    assert payload.decode() == vector["payload"]
    head, body, sig = vector["jws"].split(".")
    raw = bytearray(base64.urlsafe_b64decode(sig + "=="))
    raw[0] ^= 1
    with pytest.raises(SvcError) as refused:
        verify_compact_ed25519(f"{head}.{body}.{b64url(bytes(raw))}", key)
    assert refused.value.code == "BAD_SIGNATURE"


RFC9578 = fixture("private-attestation", "rfc9578-type2.json")


def vector_key_set(v: dict[str, str]) -> tuple[dict, bytes, str]:
    challenge = bytes.fromhex(v["token_challenge"])
    context = challenge[19 : 19 + 32]
    token = bytes.fromhex(v["token"])
    keys = {
        "issuer_name": "issuer.example",
        "keys": [
            {
                "token_type": 2,
                "token_key_id": b64url(token[66:98]),
                "public_key": b64url(bytes.fromhex(v["pkS"])),
                "scope_mask": 1,
                "epoch": "2024-06-01",
            }
        ],
    }
    metadata = b64url(json.dumps({"scope_mask": 1, "epoch": "2024-06-01"}).encode())
    return keys, context, f"{b64url(token)}.{metadata}"


def test_rfc9578_type2_vector_token_is_accepted_for_its_issuer_and_context() -> None:
    keys, context, attestation = vector_key_set(RFC9578[4])
    assert serialize_token_challenge("issuer.example", context) == bytes.fromhex(RFC9578[4]["token_challenge"])
    result = verify_private_attestation(attestation, context, keys)
    assert (result.adult, result.scope_mask, result.epoch) == (True, 1, "2024-06-01")


def test_rfc9578_vector_token_is_refused_for_another_context_or_a_touched_signature() -> None:
    keys, context, attestation = vector_key_set(RFC9578[4])
    with pytest.raises(SvcError) as other:
        verify_private_attestation(attestation, secrets.token_bytes(32), keys)
    assert other.value.code == "WRONG_CONTEXT"
    token_part, metadata = attestation.split(".")
    token = bytearray(base64.urlsafe_b64decode(token_part + "=="))
    token[-1] ^= 1
    with pytest.raises(SvcError) as touched:
        verify_private_attestation(f"{b64url(bytes(token))}.{metadata}", context, keys)
    assert touched.value.code == "BAD_SIGNATURE"


def test_rfc9578_challenges_without_origin_info_are_reproduced() -> None:
    checked = 0
    for v in RFC9578:
        if not v["token_challenge"].endswith("0000"):
            continue
        challenge = bytes.fromhex(v["token_challenge"])
        length = challenge[18]
        assert serialize_token_challenge("issuer.example", challenge[19 : 19 + length]) == challenge
        checked += 1
    assert checked >= 2
