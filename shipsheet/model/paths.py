"""Where things live: bundled resources and the user's folders (platformdirs)."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "ShipSheet"
_PACKAGE = Path(__file__).resolve().parent.parent


def resources_dir() -> Path:
    """The bundled ``resources`` folder.

    Inside an installed wheel it is ``shipsheet/resources``; in a checkout or
    an editable install it is ``resources/`` beside the package.
    """
    for candidate in (_PACKAGE / "resources", _PACKAGE.parent / "resources"):
        if (candidate / "ships").is_dir():
            return candidate
    raise FileNotFoundError(
        f"ShipSheet's resources folder is missing (looked in {_PACKAGE / 'resources'} "
        f"and {_PACKAGE.parent / 'resources'}); reinstall the application.")


def _platformdirs():
    import platformdirs  # on first use: keeps it off the start-up path
    return platformdirs


def _override(var: str) -> Path | None:
    value = os.environ.get(var)
    return Path(value) if value else None


def user_data_dir() -> Path:
    """The user's data folder (own ships and charts). SHIPSHEET_DATA_DIR overrides."""
    return _override("SHIPSHEET_DATA_DIR") or Path(_platformdirs().user_data_dir(APP_NAME, False))


def user_state_dir() -> Path:
    """Autosaves live here. SHIPSHEET_STATE_DIR overrides."""
    return _override("SHIPSHEET_STATE_DIR") or Path(_platformdirs().user_state_dir(APP_NAME, False))


def user_cache_dir() -> Path:
    """What start-up keeps to be faster next time (``code_cache``). SHIPSHEET_CACHE_DIR overrides."""
    return _override("SHIPSHEET_CACHE_DIR") or Path(_platformdirs().user_cache_dir(APP_NAME, False))


def user_config_dir() -> Path:
    """Settings and recent files. SHIPSHEET_CONFIG_DIR overrides."""
    return _override("SHIPSHEET_CONFIG_DIR") or Path(_platformdirs().user_config_dir(APP_NAME, False))


def user_ships_dir() -> Path:
    return user_data_dir() / "ships"


def user_charts_dir() -> Path:
    return user_data_dir() / "charts"
