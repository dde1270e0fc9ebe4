"""Writing the settings (``ui/settings.py``): a write that fails never fails what the user
did (opening a file, choosing a page size) and is said on stderr and kept in
``settings.last_error``; it catches what a failed write raises (``WRITE_FAILURES``: OSError,
UnicodeError), not a bug — a value that is not JSON is raised. Before, only OSError was
caught and nothing was said."""

from __future__ import annotations

import os

import pytest

from shipsheet.ui import settings


def test_a_failed_write_is_said_and_never_raised(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(settings, "last_error", "")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the settings folder would be")
    monkeypatch.setenv("SHIPSHEET_CONFIG_DIR", str(blocked / "config"))
    settings.set_setting("page_size", "A4")  # no exception
    settings.add_recent_file(__file__)
    assert settings.last_error
    err = capsys.readouterr().err
    assert err.count("the settings could not be saved") == 1  # once, not at every write
    monkeypatch.setenv("SHIPSHEET_CONFIG_DIR", str(tmp_path / "config"))
    settings.set_setting("page_size", "A4")
    assert settings.last_error == "" and settings.get_setting("page_size") == "A4"


def test_a_write_that_cannot_encode_its_path_is_a_failed_write(tmp_path, monkeypatch):
    monkeypatch.setattr(settings, "last_error", "")
    def unencodable(*_args, **_kwargs):
        raise UnicodeEncodeError("ascii", "\u8239", 0, 1, "a folder name the file system cannot hold")
    monkeypatch.setattr(settings, "write_atomic", unencodable)
    settings.set_setting("page_size", "A4")
    assert "cannot hold" in settings.last_error


def test_a_value_that_is_not_json_is_a_bug_and_raised(tmp_path):
    with pytest.raises(TypeError):
        settings.set_setting("page_size", object())
    assert not os.path.exists(settings._path())
