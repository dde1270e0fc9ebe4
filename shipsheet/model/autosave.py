"""Autosave: rotating slots in the user state folder, and finding what to recover.

Each session (by its ``uid``) gets up to ``slots`` files
``<uid>.<n>.shipsheet`` with a small ``<uid>.json`` index naming the
session's own file (if it has one) and each slot's time. The newest slot is
offered back after a crash when it is newer than the session's own file.
A clean close calls :meth:`AutosaveStore.discard`.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import SessionFileError
from .paths import user_state_dir
from .session import Session
from .storage import load_session, session_to_bytes, write_atomic

_UID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True)
class AutosaveInfo:
    """One autosave that may be recovered."""

    uid: str
    path: Path
    saved_at: float  # seconds since the epoch
    source: Path | None  # the session's own file, None for an unsaved session
    title: str

    def load(self) -> Session:
        return load_session(self.path)

    @property
    def time_text(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.saved_at))


class AutosaveStore:
    """Rotating autosave slots in one folder."""

    def __init__(self, folder: str | Path | None = None, slots: int = 3):
        self._folder = Path(folder) if folder is not None else None
        if slots < 1:
            raise ValueError("at least one autosave slot is needed")
        self.slots = slots

    @property
    def folder(self) -> Path:
        """The autosave folder (the user state folder is looked up on first use)."""
        if self._folder is None:
            self._folder = user_state_dir() / "autosave"
        return self._folder

    def _index_path(self, uid: str) -> Path:
        return self.folder / f"{uid}.json"

    def _read_index(self, uid: str) -> dict:
        try:
            data = json.loads(self._index_path(uid).read_text("utf-8"))
        except (OSError, ValueError):
            return {"slots": {}}
        if not isinstance(data, dict) or not isinstance(data.get("slots"), dict):
            return {"slots": {}}
        return data

    def write(self, session: Session, source: str | Path | None = None,
              payload: bytes | None = None) -> Path:
        """Write the session to its next slot (oldest overwritten); returns that slot's path.

        ``payload`` lets a caller serialise on one thread and write on another.
        """
        if not _UID.match(session.uid):
            raise ValueError(f"unusable session uid {session.uid!r}")
        self.folder.mkdir(parents=True, exist_ok=True)
        index = self._read_index(session.uid)
        slots = index["slots"]
        times = {int(k): v for k, v in slots.items() if str(k).isdigit() and int(k) < self.slots}
        free = [n for n in range(self.slots) if n not in times]
        slot = free[0] if free else min(times, key=lambda n: times[n])
        path = self.folder / f"{session.uid}.{slot}.shipsheet"
        write_atomic(path, payload if payload is not None else session_to_bytes(session))
        times[slot] = time.time()
        index = {"uid": session.uid, "title": session.title,
                 "source": str(Path(source).resolve()) if source else None,
                 "slots": {str(k): v for k, v in times.items()}}
        write_atomic(self._index_path(session.uid), json.dumps(index).encode("utf-8"))
        return path

    def discard(self, uid: str) -> None:
        """Remove a session's autosaves (after a clean close or a recovery)."""
        for path in list(self.folder.glob(f"{uid}.*.shipsheet")) + [self._index_path(uid)]:
            try:
                path.unlink()
            except OSError:
                pass

    def newest(self, uid: str) -> AutosaveInfo | None:
        """The newest readable slot of one session."""
        index = self._read_index(uid)
        source = Path(index["source"]) if isinstance(index.get("source"), str) else None
        title = index.get("title") if isinstance(index.get("title"), str) else uid
        slots = sorted(((v, k) for k, v in index["slots"].items() if isinstance(v, (int, float))),
                       reverse=True)
        for saved_at, slot in slots:
            path = self.folder / f"{uid}.{slot}.shipsheet"
            try:
                load_session(path)
            except SessionFileError:
                continue  # a damaged slot: try the one before it
            return AutosaveInfo(uid, path, float(saved_at), source, title)
        return None

    def recoverable(self) -> list[AutosaveInfo]:
        """Autosaves newer than their session's own file (or of never-saved sessions)."""
        if not self.folder.is_dir():
            return []
        found = []
        for index_path in sorted(self.folder.glob("*.json")):
            uid = index_path.stem
            if not _UID.match(uid):
                continue
            info = self.newest(uid)
            if info is None:
                continue
            if info.source is not None:
                try:
                    if info.source.stat().st_mtime >= info.saved_at:
                        continue
                except OSError:
                    pass  # the session's file is gone: the autosave is all there is
            found.append(info)
        return sorted(found, key=lambda i: i.saved_at, reverse=True)

    def newer_than_file(self, path: str | Path) -> AutosaveInfo | None:
        """The newest autosave of the session saved at ``path``, if newer than the file."""
        target = Path(path).resolve()
        for info in self.recoverable():
            if info.source == target:
                return info
        return None
