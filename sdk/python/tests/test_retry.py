"""The retry rules of docs/partner-api.md#the-partner-sdk-serversdk, against a scripted local HTTP server
(injected sleep: nothing waits for real)."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from svc_partner import PartnerClient, SvcError, hash_body

SECRET = base64.b64encode(b"\x07" * 32).decode()


class Scripted:
    def __init__(self) -> None:
        self.answers: list[tuple[int, dict[str, str], str]] = []
        self.seen: list[dict[str, str | None]] = []


@pytest.fixture(scope="module")
def shared_server() -> Iterator[tuple[str, Scripted]]:
    script = Scripted()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length).decode() if length else ""
            script.seen.append({**{k.lower(): v for k, v in self.headers.items()}, "body": body, "method": self.command})
            status, headers, text = script.answers.pop(0)
            self.send_response(status)
            for name, value in {"content-type": "application/json", "x-svc-cid": "cid-1", **headers}.items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(text.encode())))
            self.end_headers()
            self.wfile.write(text.encode())

        do_GET = do_POST = answer

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", script
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def server(shared_server: tuple[str, Scripted]) -> tuple[str, Scripted]:
    shared_server[1].answers.clear()
    shared_server[1].seen.clear()
    return shared_server


def client(url: str, sleeps: list[float]) -> PartnerClient:
    return PartnerClient(url, "pk_test_demo", SECRET, sleep=sleeps.append, random=lambda: 0.5)


OK = (200, {}, json.dumps({"active": False}))


def test_a_429_is_retried_after_its_retry_after_and_then_succeeds(server) -> None:
    url, script = server
    script.answers = [(429, {"retry-after": "2"}, '{"error":"Too many requests","message":"slow down"}'), OK]
    sleeps: list[float] = []
    assert client(url, sleeps).introspect("p_x") == {"active": False}
    assert sleeps == [2.0]
    nonces = [seen["x-partner-nonce"] for seen in script.seen]
    assert len(set(nonces)) == 2  # each attempt signed afresh


def test_a_retry_after_beyond_a_minute_fails_at_once_and_reports_it(server) -> None:
    url, script = server
    script.answers = [(429, {"retry-after": "120"}, '{"error":"Too many requests","message":"later"}')]
    sleeps: list[float] = []
    with pytest.raises(SvcError) as limited:
        client(url, sleeps).introspect("p_x")
    assert (limited.value.code, limited.value.status, limited.value.retry_after, limited.value.attempts) == (
        "Too many requests",
        429,
        120,
        1,
    )
    assert sleeps == [] and limited.value.cid == "cid-1"


def test_5xx_backs_off_one_then_two_seconds_and_gives_up_after_three_attempts(server) -> None:
    url, script = server
    script.answers = [(500, {}, '{"error":"INTERNAL_ERROR","message":"x"}')] * 3
    sleeps: list[float] = []
    with pytest.raises(SvcError) as failed:
        client(url, sleeps).introspect("p_x")
    assert sleeps == [1.0, 2.0]
    assert (failed.value.code, failed.value.attempts, failed.value.retryable) == ("INTERNAL_ERROR", 3, True)


@pytest.mark.parametrize("status", [400, 401, 403])
def test_400_401_and_403_are_never_retried(server, status: int) -> None:
    url, script = server
    script.answers = [(status, {}, '{"error":"INVALID_REQUEST","message":"no"}')]
    sleeps: list[float] = []
    with pytest.raises(SvcError) as refused:
        client(url, sleeps).introspect("p_x")
    assert (refused.value.status, refused.value.attempts, sleeps) == (status, 1, [])


def test_a_2xx_that_is_not_json_is_invalid_response(server) -> None:
    url, script = server
    script.answers = [(200, {"content-type": "text/html"}, "<html>proxy</html>")]
    with pytest.raises(SvcError) as bad:
        client(url, []).introspect("p_x")
    assert bad.value.code == "INVALID_RESPONSE"


def test_a_redirect_is_not_followed_and_is_invalid_response(server) -> None:
    url, script = server
    script.answers = [(307, {"location": "http://elsewhere.example/v1/introspect"}, "{}")]
    with pytest.raises(SvcError) as moved:
        client(url, []).introspect("p_x")
    assert (moved.value.code, moved.value.status, moved.value.attempts, len(script.seen)) == ("INVALID_RESPONSE", 307, 1, 1)


def test_a_get_signs_the_empty_body_and_sends_no_content_type(server) -> None:
    url, script = server
    script.answers = [(200, {}, '{"status":"pending","expires_at":1}')]
    client(url, []).get_verify_status("abc/def")
    seen = script.seen[0]
    assert seen["method"] == "GET" and "content-type" not in seen
    assert seen["body"] == "" and hash_body("") == "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"


def test_exchange_keeps_one_idempotency_key_across_its_retries(server) -> None:
    url, script = server
    script.answers = [(503, {"retry-after": "1"}, '{"error":"SERVICE_UNAVAILABLE","message":"x"}'), OK]
    client(url, []).exchange("g_abc")
    keys = {seen["idempotency-key"] for seen in script.seen}
    assert len(keys) == 1 and None not in keys
    assert script.seen[0]["body"] == '{"grant_code":"g_abc"}'


def test_no_answer_is_a_network_error_after_three_attempts() -> None:
    sleeps: list[float] = []
    with pytest.raises(SvcError) as down:
        client("http://127.0.0.1:9", sleeps).introspect("p_x")
    assert (down.value.code, down.value.status, down.value.attempts, down.value.retryable) == ("NETWORK_ERROR", 0, 3, True)


def test_the_client_refuses_a_secret_that_is_not_base64_and_never_shows_its_secret() -> None:
    with pytest.raises(ValueError):
        PartnerClient("http://x.example", "pk_test_demo", "not a secret!")
    assert SECRET not in repr(PartnerClient("http://x.example", "pk_test_demo", SECRET))
