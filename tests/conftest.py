"""Test setup shared by every test: offscreen Qt and private user folders."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The made-up games' packages (tests/fourth_game) import from any test folder.
sys.path.insert(0, str(Path(__file__).parent))

import pytest


@pytest.fixture(autouse=True)
def _private_user_dirs(tmp_path_factory, monkeypatch):
    """Never touch the real user's data, state or config folders."""
    base = tmp_path_factory.mktemp("userdirs")
    for var in ("SHIPSHEET_DATA_DIR", "SHIPSHEET_STATE_DIR", "SHIPSHEET_CONFIG_DIR"):
        monkeypatch.setenv(var, str(base / var.lower()))
