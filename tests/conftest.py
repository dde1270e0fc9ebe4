"""Test setup shared by every test: offscreen Qt and private user folders."""

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Start-up's compiled code (model/code_cache.py): one folder for the whole run, set before
# ShipSheet is first imported, so no test reads or writes the user's own cache.
os.environ["SHIPSHEET_CACHE_DIR"] = tempfile.mkdtemp(prefix="shipsheet-cache-")
atexit.register(shutil.rmtree, os.environ["SHIPSHEET_CACHE_DIR"], True)
# The made-up games' packages (tests/fourth_game) import from any test folder.
sys.path.insert(0, str(Path(__file__).parent))

import pytest
from hypothesis import settings

# Property tests draw the same examples every run, so make test's verdict does not depend
# on a random draw (a clean-clone run once found a TOML writer bug by chance; it is an
# example of its test now). HYPOTHESIS_PROFILE=explore draws new examples each run.
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(autouse=True)
def _private_user_dirs(tmp_path_factory, monkeypatch):
    """Never touch the real user's data, state or config folders."""
    base = tmp_path_factory.mktemp("userdirs")
    for var in ("SHIPSHEET_DATA_DIR", "SHIPSHEET_STATE_DIR", "SHIPSHEET_CONFIG_DIR"):
        monkeypatch.setenv(var, str(base / var.lower()))


def pytest_collection_modifyitems(config, items):
    """``linux_only`` (its rule is in pyproject's markers and HACKING.md, Platforms): the
    tests that need a Debian package or the Linux build are skipped on Windows and macOS,
    with the rule as the reason. No other test is skipped for its platform."""
    if sys.platform.startswith("linux"):
        return
    skip = pytest.mark.skip(reason="linux_only: needs a Debian package make test installs "
                                   "with apt-get, or the Linux build (HACKING.md, Platforms)")
    for item in items:
        if "linux_only" in item.keywords:
            item.add_marker(skip)
