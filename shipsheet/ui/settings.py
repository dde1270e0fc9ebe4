"""Settings and recent files, as JSON in the platformdirs user config folder."""

from __future__ import annotations

import json
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


def save_settings(data: dict) -> None:
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=1).encode("utf-8"))


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
    try:
        save_settings(data)
    except OSError:
        pass  # recent files are a convenience; never fail an open over them


def get_setting(key: str, default=None):
    return load_settings().get(key, default)


def set_setting(key: str, value) -> None:
    data = load_settings()
    data[key] = value
    try:
        save_settings(data)
    except OSError:
        pass
