"""Settings and recent files, as JSON in the platformdirs user config folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..model.files import read_regular
from ..model.paths import user_config_dir
from ..model.storage import write_atomic

MAX_RECENT = 10


def _path() -> Path:
    return user_config_dir() / "settings.json"


#: Settings are a few hundred bytes; a larger file is not ours to read.
MAX_SETTINGS_BYTES = 1_000_000


def load_settings() -> dict:
    try:
        data = json.loads(read_regular(_path(), MAX_SETTINGS_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


#: What writing the settings can raise when the write itself fails: OSError (a full disk,
#: no permission, a read-only folder, a file or folder in the way, the file another user's
#: or hard-linked: ``storage.WouldBreakFile``) and UnicodeError (a folder name the file
#: system cannot encode). Anything else — a value that is not JSON (TypeError, ValueError) —
#: is a bug and is raised.
WRITE_FAILURES = (OSError, UnicodeError)
#: Why the settings could not be written the last time, "" when they were.
last_error = ""


def save_settings(data: dict) -> None:
    """Write the settings; raises what a failed write raises (:data:`WRITE_FAILURES`)."""
    payload = json.dumps(data, indent=1).encode("utf-8")  # a value that is not JSON: a bug, raised
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, payload)


def _save_or_say(data: dict) -> bool:
    """Save the settings; when the write fails, say so once on stderr and keep why in
    :data:`last_error` (settings and recent files are a convenience: never fail the action
    that changed them). True when saved."""
    global last_error
    try:  # a value that is not JSON raises TypeError or ValueError, not caught here: a bug
        save_settings(data)
    except WRITE_FAILURES as exc:
        why = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
        if why != last_error:
            print(f"ShipSheet: the settings could not be saved ({why})", file=sys.stderr)
        last_error = why
        return False
    last_error = ""
    return True


def recent_files() -> list[str]:
    """Recent session files, newest first, those that still exist."""
    files = load_settings().get("recent", [])
    if not isinstance(files, list):
        return []
    return [f for f in files if isinstance(f, str) and Path(f).is_file()][:MAX_RECENT]


def add_recent_file(path: str | Path) -> None:
    path = str(Path(path).resolve())
    data = load_settings()
    files = [f for f in data.get("recent", []) if isinstance(f, str) and f != path]
    data["recent"] = [path] + files[: MAX_RECENT - 1]
    _save_or_say(data)  # recent files are a convenience; never fail an open over them


def get_setting(key: str, default=None):
    return load_settings().get(key, default)


def set_setting(key: str, value) -> None:
    data = load_settings()
    data[key] = value
    _save_or_say(data)
