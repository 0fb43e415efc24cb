"""The distribution as partners install it: a wheel built offline with Debian's pip and setuptools."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

from conftest import ROOT


def test_the_wheel_builds_offline_with_the_typed_package_and_its_metadata(tmp_path: pathlib.Path) -> None:
    source = tmp_path / "src-copy"
    shutil.copytree(ROOT / "sdk" / "python", source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(source)],
        check=True,
        env=env,
        capture_output=True,
        timeout=120,
    )
    (wheel,) = tmp_path.glob("svc_partner-0.1.0-py3-none-any.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"svc_partner/__init__.py", "svc_partner/py.typed", "svc_partner/attestation.py"} <= names
    assert not any(name.startswith("tests/") for name in names)
    metadata = zipfile.ZipFile(wheel).read("svc_partner-0.1.0.dist-info/METADATA").decode()
    assert "Name: svc-partner" in metadata
    assert "Requires-Python: >=3.11" in metadata
    assert "Requires-Dist: cryptography" in metadata
    assert "License: UNLICENSED" in metadata
