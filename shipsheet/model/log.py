"""The session log: one entry per action, die roll, or note."""

from __future__ import annotations

from dataclasses import field
from .code_cache import dataclass


def now_iso() -> str:
    from datetime import datetime, timezone  # on first use: off the start-up path
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


@dataclass
class LogEntry:
    """One line of the log.

    ``kind`` is ``action`` (the headline of a change), ``roll`` (a die roll,
    random or typed), ``detail`` (a further line of an action, e.g. one DDAP
    point) or ``phase``. ``action`` numbers the change the entry belongs to,
    so the UI can mark all entries of an undone change at once.
    """

    text: str
    kind: str = "action"
    turn: int = 1
    phase: str = ""
    ship: str | None = None
    action: int = 0
    undone: bool = False
    time: str = field(default_factory=now_iso)
    #: The ship that did this to ``ship`` (an attacker: the play-by-e-mail turn report
    #: gives each player the attacks their ships made or took), or None.
    by: str | None = None
    #: A die roll's record, for checking it later (``shipsheet verify-dice``): a short list
    #: of whole numbers whose layout the dice scheme defines (``model/dice.py``), or None.
    roll: list | None = None
    #: None: anyone who may see ``ship`` may read the line. Otherwise the line is about a
    #: private decision of the ship's owner, of this kind (the game's ``privacy`` piece
    #: names its kinds and when each becomes public, ``model/privacy.py``): only the owner
    #: and the referee read ``text``; everyone else reads ``public`` (None: nothing).
    private: str | None = None
    #: The line as those who may not read ``text`` read it (a private line only).
    public: str | None = None

    def to_json(self) -> dict:
        """The entry as saved: fields at their file default are left out, so a log never
        saves larger than it was read (a file of bare ``{"text": ""}`` entries would
        otherwise grow eightfold, past what loading accepts)."""
        data = {"text": self.text}
        if self.kind != "action":
            data["kind"] = self.kind
        if self.turn != 1:
            data["turn"] = self.turn
        if self.phase:
            data["phase"] = self.phase
        if self.ship is not None:
            data["ship"] = self.ship
        if self.action:
            data["action"] = self.action
        if self.undone:
            data["undone"] = True
        if self.time:
            data["time"] = self.time
        if self.by is not None:
            data["by"] = self.by
        if self.roll is not None:
            data["roll"] = self.roll
        if self.private is not None:
            data["private"] = self.private
            if self.public is not None:
                data["public"] = self.public
        return data

    def plain(self, ship_names: dict[str, str] | None = None) -> str:
        """The entry as one line of plain text (for a PBEM turn report)."""
        who = ""
        if self.ship and ship_names:
            who = f"{ship_names.get(self.ship, self.ship)}: "
        indent = "    " if self.kind in ("roll", "detail") else ""
        mark = " (undone)" if self.undone else ""
        return f"T{self.turn} {self.phase} | {indent}{who}{self.text}{mark}"


def log_as_text(entries, ship_names: dict[str, str] | None = None,
                include_undone: bool = False) -> str:
    """The log as plain text, one line per entry; undone changes left out by default."""
    return "\n".join(e.plain(ship_names) for e in entries
                     if include_undone or not e.undone)
