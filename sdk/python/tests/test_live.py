"""The SDK against the running service the harness started (scripts/sdk-polyglot.test.ts)."""

from __future__ import annotations

import base64
import json
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from svc_partner import (
    AttestationKeys,
    PartnerClient,
    SvcError,
    fetch_attestation_keys,
    fetch_private_attestation_keys,
    verify_attestation,
    verify_private_attestation,
)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def refusal(fn: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(SvcError) as refused:
        fn(*args, **kwargs)
    return refused.value.code


@pytest.fixture(scope="module")
def standard(live: dict[str, Any]) -> PartnerClient:
    return PartnerClient(live["api_url"], live["standard"]["partner_id"], live["standard"]["secret"])


@pytest.fixture(scope="module")
def blind(live: dict[str, Any]) -> PartnerClient:
    return PartnerClient(live["api_url"], live["blind"]["partner_id"], live["blind"]["secret"])


def test_a_standard_grant_is_exchanged_once_and_its_pass_token_introspected(live, standard) -> None:
    code = live["grant_codes"]["python"]
    exchanged = standard.exchange(code, idempotency_key="py-order-1")
    assert exchanged["token_type"] == "Bearer" and exchanged["age_over_18"] is True
    assert exchanged["scopes"] == ["isAdult"]
    # the same key and code again: the first answer, not GRANT_INVALID (a lost answer is not a lost grant)
    assert standard.exchange(code, idempotency_key="py-order-1")["pass_token"] == exchanged["pass_token"]
    state = standard.introspect(exchanged["pass_token"])
    assert state["active"] is True and state["scope"] == "age_verification"
    assert state["attributes"]["age_over_18"] is True
    assert standard.introspect("p_" + "x" * 40) == {"active": False}
    with pytest.raises(SvcError) as spent:
        standard.exchange(code)
    assert (spent.value.code, spent.value.status, spent.value.attempts) == ("GRANT_INVALID", 401, 1)
    assert spent.value.cid


def test_a_wrong_secret_is_refused_with_invalid_signature_and_not_retried(live) -> None:
    other = base64.b64encode(b"\x01" * 32).decode()
    client = PartnerClient(live["api_url"], live["standard"]["partner_id"], other)
    with pytest.raises(SvcError) as refused:
        client.introspect("p_whatever")
    assert (refused.value.code, refused.value.status, refused.value.attempts) == ("INVALID_SIGNATURE", 401, 1)
    assert not refused.value.retryable


def test_a_billing_session_is_opened_for_the_registered_origin_and_refused_for_another(live, blind, standard) -> None:
    session = blind.create_billing_session(live["origin"], ["isAdult"])
    assert session.expires_in == 300 and len(session.token) > 20
    assert refusal(blind.create_billing_session, "https://elsewhere.example") == "ORIGIN_NOT_ALLOWED"
    assert refusal(standard.create_billing_session, live["origin"]) == "FORBIDDEN_RAIL"


def test_a_partner_started_request_is_created_and_its_status_read(standard) -> None:
    created = standard.create_verify_request(scopes=["isAdult"])
    assert created["request_id"] and created["deep_link"].startswith("http")
    assert standard.get_verify_status(created["request_id"])["status"] == "pending"


def test_the_services_jws_attestation_verifies_against_its_published_keys(live) -> None:
    jws = live["jws"]
    keys = fetch_attestation_keys(live["api_url"])
    result = verify_attestation(jws["attestation"], keys, jws["app_id"], jws["origin"])
    assert result.adult is True and result.jti and result.exp > time.time()


def test_attestation_keys_fetch_once_and_again_for_an_unknown_kid_at_most_every_30_s(live) -> None:
    jws = live["jws"]
    now = [1000.0]
    keys = AttestationKeys(live["api_url"], clock=lambda: now[0])
    assert verify_attestation(jws["attestation"], keys, jws["app_id"], jws["origin"]).adult is True
    assert verify_attestation(jws["attestation"], keys, jws["app_id"], jws["origin"]).adult is True
    assert keys.fetches == 1
    head, body, sig = jws["attestation"].split(".")
    header = json.loads(unb64url(head))
    header["kid"] = "announced-later"
    forged = f"{b64url(json.dumps(header).encode())}.{body}.{sig}"
    now[0] += 10
    assert refusal(verify_attestation, forged, keys, jws["app_id"], jws["origin"]) == "UNKNOWN_KEY"
    assert keys.fetches == 1  # within 30 s of the last fetch: no new one
    now[0] += 30
    assert refusal(verify_attestation, forged, keys, jws["app_id"], jws["origin"]) == "UNKNOWN_KEY"
    assert keys.fetches == 2
    now[0] += 3600
    verify_attestation(jws["attestation"], keys, jws["app_id"], jws["origin"])
    assert keys.fetches == 3  # an hour old: fetched again


def test_each_forged_jws_attestation_is_refused_with_its_code(live) -> None:
    jws = live["jws"]
    keys = fetch_attestation_keys(live["api_url"])
    token, app_id, origin = jws["attestation"], jws["app_id"], jws["origin"]
    head, body, sig = token.split(".")
    touched = bytearray(unb64url(sig))
    touched[5] ^= 1
    assert refusal(verify_attestation, f"{head}.{body}.{b64url(bytes(touched))}", keys, app_id, origin) == "BAD_SIGNATURE"
    claims = json.loads(unb64url(body))
    claims["scope_mask"] = 15
    assert refusal(verify_attestation, f"{head}.{b64url(json.dumps(claims).encode())}.{sig}", keys, app_id, origin) == "BAD_SIGNATURE"
    assert refusal(verify_attestation, token, keys, "app_blind_club", origin) == "WRONG_APP"
    assert refusal(verify_attestation, token, keys, app_id, "http://127.0.0.1:8788") == "WRONG_ORIGIN"
    header = json.loads(unb64url(head))
    header["kid"] = "not-a-published-kid"
    assert refusal(verify_attestation, f"{b64url(json.dumps(header).encode())}.{body}.{sig}", keys, app_id, origin) == "UNKNOWN_KEY"
    assert refusal(verify_attestation, token, keys, app_id, origin, now=claims["exp"] + 1) == "EXPIRED"
    assert refusal(verify_attestation, token + "x", keys, app_id, origin) == "BAD_SIGNATURE"
    assert refusal(verify_attestation, "a.b", keys, app_id, origin) == "MALFORMED"


def test_the_private_attestation_verifies_once_then_its_context_is_reused(live) -> None:
    priv = live["private"]
    keys = fetch_private_attestation_keys(live["api_url"])
    used: set[str] = set()

    def consume(context: str) -> bool:
        if context in used:
            return False
        used.add(context)
        return True

    result = verify_private_attestation(priv["attestation"], priv["redemption_context"], keys, consume)
    assert (result.adult, result.scope_mask) == (True, 1)
    assert used == {priv["redemption_context"]}
    assert refusal(verify_private_attestation, priv["attestation"], priv["redemption_context"], keys, consume) == "REUSED"


def test_each_forged_private_attestation_is_refused_before_its_context_is_used(live) -> None:
    priv = live["private"]
    keys = fetch_private_attestation_keys(live["api_url"])
    context = priv["redemption_context"]
    token_part, metadata = priv["attestation"].split(".")
    token = unb64url(token_part)
    epoch = json.loads(unb64url(metadata))["epoch"]
    consumed: list[str] = []

    def consume(c: str) -> bool:
        consumed.append(c)
        return True

    def meta(value: object) -> str:
        return b64url(json.dumps(value).encode())

    def check(attestation: str, ctx: str | bytes = context) -> str:
        return refusal(verify_private_attestation, attestation, ctx, keys, consume)

    assert check(priv["attestation"], secrets.token_bytes(32)) == "WRONG_CONTEXT"
    assert check(f"{token_part}.{meta({'scope_mask': 3, 'epoch': epoch})}") == "WRONG_METADATA"
    assert check(f"{token_part}.{meta({'scope_mask': 1, 'epoch': '2020-01-01'})}") == "WRONG_METADATA"
    assert check(f"{token_part}.{meta({'scope_mask': 1, 'epoch': epoch, 'extra': 1})}") == "MALFORMED"
    unknown = token[:66] + secrets.token_bytes(32) + token[98:]
    assert check(f"{b64url(unknown)}.{metadata}") == "UNKNOWN_KEY"
    mask3 = next(k for k in keys["keys"] if k.get("state") == "current" and k["scope_mask"] == 3)
    switched = token[:66] + unb64url(mask3["token_key_id"]) + token[98:]
    assert check(f"{b64url(switched)}.{meta({'scope_mask': 3, 'epoch': mask3['epoch']})}") == "BAD_SIGNATURE"
    touched = bytearray(token)
    touched[-1] ^= 1
    assert check(f"{b64url(bytes(touched))}.{metadata}") == "BAD_SIGNATURE"
    assert check(token_part) == "MALFORMED"
    assert consumed == []


@pytest.mark.ratelimit
def test_a_real_429_is_retried_after_its_retry_after_then_reported_with_it(live, blind) -> None:
    url = f"{live['api_url']}/api/billing/session"
    for _ in range(40):  # the per-address limit (30 a minute) is counted before any header is read
        try:
            urllib.request.urlopen(urllib.request.Request(url, data=b"{}", method="POST"), timeout=5)
        except urllib.error.HTTPError as err:
            if err.code == 429:
                break
    sleeps: list[float] = []
    client = PartnerClient(live["api_url"], live["blind"]["partner_id"], live["blind"]["secret"], sleep=sleeps.append)
    with pytest.raises(SvcError) as limited:
        client.create_billing_session(live["origin"])
    error = limited.value
    assert (error.status, error.code, error.attempts) == (429, "Too many requests", 3)
    assert error.retry_after is not None and 0 < error.retry_after <= 60
    assert len(sleeps) == 2 and all(0 < s <= 60 for s in sleeps)
