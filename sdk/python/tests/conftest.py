"""Shared fixtures: the repository's known-answer files, and the running service the harness
(scripts/sdk-polyglot.test.ts) started, described in the JSON file SVC_SDK_LIVE names."""

from __future__ import annotations

import json
import os
import pathlib
import sys
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "sdk" / "python" / "src"))


def fixture(*parts: str) -> Any:
    return json.loads((ROOT / "fixtures" / pathlib.Path(*parts)).read_text("utf-8"))


@pytest.fixture(scope="session")
def live() -> dict[str, Any]:
    path = os.environ.get("SVC_SDK_LIVE")
    if not path:
        pytest.fail("SVC_SDK_LIVE is unset: run these through scripts/sdk-polyglot.test.ts, which starts the service")
    return json.loads(pathlib.Path(path).read_text("utf-8"))
