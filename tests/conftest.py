"""Test setup shared by every test: offscreen Qt and private user folders."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


@pytest.fixture(autouse=True)
def _private_user_dirs(tmp_path_factory, monkeypatch):
    """Never touch the real user's data, state or config folders."""
    base = tmp_path_factory.mktemp("userdirs")
    for var in ("SHIPSHEET_DATA_DIR", "SHIPSHEET_STATE_DIR", "SHIPSHEET_CONFIG_DIR"):
        monkeypatch.setenv(var, str(base / var.lower()))
