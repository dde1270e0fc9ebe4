"""Deprecated: TOML files are written with tomlkit now (:mod:`shipsheet.model.toml_files`).

``dumps`` is kept for one release so scripts that followed the README keep working; it
warns (``DeprecationWarning``) and gives what ``toml_files.to_text`` gives.
"""

from __future__ import annotations

import warnings
from typing import Iterable, Mapping

from .toml_files import TomlWriteError, to_text

__all__ = ["TomlWriteError", "dumps"]


def dumps(data: Mapping, *, header: Iterable[str] | str | None = None, comments=None) -> str:
    """``data`` as TOML text that :mod:`tomllib` reads back equal to ``data``."""
    warnings.warn("shipsheet.model.toml_writer.dumps has moved to shipsheet.model.toml_files.to_text",
                  DeprecationWarning, stacklevel=2)
    return to_text(data, None, header)
