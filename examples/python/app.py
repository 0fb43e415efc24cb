"""A partner backend in plain Python (http.server, no framework) with svc-partner.

    SVC_API_URL=http://localhost:8787 SVC_PARTNER_ID=pk_test_demo \
    SVC_PARTNER_SECRET=BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc= \
    PYTHONPATH=sdk/python/src /usr/bin/python3 examples/python/app.py   # then open http://localhost:8788/

The page shows the widget; on success the widget sends the visitor to /success#grant_code=…,
whose script posts the code here; this backend exchanges it (server to server, signed) and keeps
only the pass token, which it introspects on /account.
"""

from __future__ import annotations

import html
import json
import os
import secrets
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from svc_partner import PartnerClient, SvcError

API_URL = os.environ.get("SVC_API_URL", "http://localhost:8787")
svc = PartnerClient(API_URL, os.environ["SVC_PARTNER_ID"], os.environ["SVC_PARTNER_SECRET"])
sessions: dict[str, str] = {}  # session id → pass token (a real app: its session store)

PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Shop</title>
<h1>Check your age</h1><div id="svc-widget"></div>
<script src="{api}/v4/loader.min.js" data-partner-id="{pid}" data-success-path="/success" data-locale="en"></script>"""
SUCCESS = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Verified</title><p id="out">Checking…</p>
<script src="{api}/v4/loader.min.js" data-partner-id="{pid}" data-success-path="/success"></script>
<script>
const result = SVC.consumeResult();
fetch('/api/age/exchange', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, body: JSON.stringify(result) }})
  .then((r) => r.json()).then((body) => {{ document.getElementById('out').textContent = body.adult ? 'Verified: 18+' : 'Not verified'; }});
</script>"""


class Handler(BaseHTTPRequestHandler):
    def send(self, status: int, body: str, kind: str = "text/html; charset=utf-8", headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        values = {"api": html.escape(API_URL), "pid": html.escape(svc.partner_id)}
        if self.path == "/":
            self.send(200, PAGE.format(**values))
        elif self.path.startswith("/success"):
            self.send(200, SUCCESS.format(**values))
        elif self.path == "/account":
            sid = (self.headers.get("Cookie") or "").removeprefix("sid=")
            token = sessions.get(sid)
            state = svc.introspect(token) if token else {"active": False}
            self.send(200, json.dumps({"verified": state["active"]}), "application/json")
        else:
            self.send(404, "not found", "text/plain")

    def do_POST(self) -> None:
        if self.path != "/api/age/exchange":
            return self.send(404, "not found", "text/plain")
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        code = body.get("grant_code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code.startswith("g_"):
            return self.send(400, json.dumps({"error": "no grant code"}), "application/json")
        try:
            grant = svc.exchange(code)
        except SvcError as err:  # GRANT_INVALID: used, expired or not ours → verify again
            self.log_message("svc %s (cid %s)", err.code, err.cid)  # the code, never the grant
            return self.send(409 if err.code == "GRANT_INVALID" else 502, json.dumps({"error": err.code}), "application/json")
        sid = secrets.token_urlsafe(24)
        sessions[sid] = grant["pass_token"]
        cookie = f"sid={sid}; HttpOnly; SameSite=Lax; Path=/"
        self.send(200, json.dumps({"adult": grant.get("age_over_18") is True}), "application/json", {"Set-Cookie": cookie})


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8788"))
    print(f"partner example on http://localhost:{port}/")
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
