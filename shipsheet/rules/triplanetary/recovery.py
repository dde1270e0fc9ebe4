"""The owner's recovery choice, and the recovery every damaged ship makes when the turn ends.

[seed] "A ship recovers from 1 D a turn, just as in regular combat. The ship's owner
chooses what kind of damage to recover from." Recovery is not optional: a ship that has
not recovered when its turn ends recovers then, on the track its owner chose. The choice
is a thing of its own (:func:`choose_recovery`, one logged, undoable action) that may be
set at any time in the turn — from the sheet, the panel, a phone, an orders file.

When the turn ends (:func:`end_turn`), a damaged ship that did not recover:

- with one track it can recover, recovers that one (there is nothing to choose);
- with several, recovers the first track of its owner's choice it can recover;
- with several and no usable choice, recovers by the stated default [TRI-H13]: the track
  with the highest D-level, ties in the order drive, weapons, structure; the log says
  "default choice". Never a silent forfeit.

Under standard combat the single disabled track needs no choice [TRI-H9].
"""

from __future__ import annotations

from typing import Iterable

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .state import STANDARD_TRACK, TRACK_TITLES, TRACKS
from .tracks import _refuse_destroyed, out_of_play, recover_one, recoverable_tracks, track_level

#: [TRI-H13] ties of the default choice are broken in this order.
DEFAULT_ORDER = ("drive", "weapon", "structure")

OWNER = "owner's choice"
ONLY = "the only track it can recover"
DEFAULT = "default choice: highest D-level, house rule TRI-H13"
STANDARD_RULE = "standard combat: the single disabled track, house rule TRI-H9"


def recovery_choice(ship: Ship) -> tuple[str, ...]:
    """The owner's choice: tracks in order of preference (empty: none chosen)."""
    return tuple(t for t in ship.state.get("recovery_choice", ()) if t in TRACKS)


def _tracks(tracks: str | Iterable[str] | None) -> list[str]:
    if tracks is None:
        return []
    if isinstance(tracks, str):
        tracks = [tracks]
    chosen: list[str] = []
    for track in tracks:
        if track == STANDARD_TRACK:
            raise RuleViolation("Under standard combat the single disabled track needs no "
                                "choice: it recovers by itself when the turn ends.")
        if track not in TRACKS:
            raise RuleViolation(f'Unknown track "{track}" (expected one of: '
                                f'{", ".join(TRACKS)}).')
        if track in chosen:
            raise RuleViolation(f"The {TRACK_TITLES[track].lower()} track is listed twice.")
        chosen.append(track)
    return chosen


def choose_recovery(ship: Ship, tracks: str | Iterable[str] | None) -> str:
    """Set the owner's choice: one track, tracks in order of preference, or None to clear it.

    [seed] "The ship's owner chooses what kind of damage to recover from." [TRI-H14] the
    choice stands from turn to turn until it is changed or cleared. Refused for a ship out
    of play, an unknown or repeated track, and a choice that is already the ship's.
    Returns what was done in words.
    """
    _refuse_destroyed(ship, "recover")
    chosen = _tracks(tracks)
    if tuple(chosen) == recovery_choice(ship):
        raise RuleViolation(f"{ship.name}'s recovery choice is already "
                            f"{describe_choice(chosen)}.")
    ship.state["recovery_choice"] = chosen
    return f"recovery choice: {describe_choice(chosen)}"


def describe_choice(tracks: Iterable[str]) -> str:
    """``"drive, then weapons"``, or ``"none (the default applies)"``."""
    words = [TRACK_TITLES[t].lower() for t in tracks]
    return ", then ".join(words) if words else "none (the default applies)"


def default_track(ship: Ship, candidates: Iterable[str]) -> str:
    """[TRI-H13] The track with the highest D-level; ties in the order drive, weapons,
    structure."""
    return max(candidates, key=lambda t: (track_level(ship, t), -DEFAULT_ORDER.index(t)))


def tracks_shown(ships: Iterable[Ship], *, standard: bool) -> list[str]:
    """The damage tracks a view of ``ships``' recovery shows: the three of the advanced
    tables, and the standard table's single disabled track when the session uses that table
    (``standard``) or one of the ships still carries standard damage (the table was switched
    off after it hit them: it recovers as before) [TRI-H9]."""
    shown = list(TRACKS)
    if standard or any(track_level(s, STANDARD_TRACK) for s in ships):
        shown.append(STANDARD_TRACK)
    return shown


def planned_recovery(ship: Ship, *, standard: bool = False) -> tuple[str, str] | None:
    """What the ship will recover when the turn ends, and why: ``(track, how)``; None when
    it recovers nothing (out of play, already recovered, nothing it can recover).

    ``standard``: the session plays standard combat.
    """
    available = recoverable_tracks(ship)
    if not available:
        return None
    if STANDARD_TRACK in available and (standard or available == [STANDARD_TRACK]):
        return STANDARD_TRACK, STANDARD_RULE
    advanced = [t for t in available if t in TRACKS]
    if len(advanced) == 1:
        return advanced[0], ONLY
    for track in recovery_choice(ship):
        if track in advanced:
            return track, OWNER
    return default_track(ship, advanced), DEFAULT


def needs_choice(ship: Ship, *, standard: bool = False) -> bool:
    """True when the owner has a choice to make before the turn ends: several tracks the
    ship can recover and no choice among them (the default would apply)."""
    planned = planned_recovery(ship, standard=standard)
    return planned is not None and planned[1] == DEFAULT


def end_turn(ship: Ship, *, standard: bool = False) -> list[str]:
    """The ship's turn ends: it recovers 1 D if it has not this turn (by its owner's choice,
    its only track, or the default [TRI-H13]); the turn's limits are reset (recovery, guns
    fired [TRI-H16], ordnance launched [TRI-H18]). Returns the log lines.

    A ship out of play is left as it is.
    """
    if out_of_play(ship):
        return []
    lines: list[str] = []
    planned = planned_recovery(ship, standard=standard)
    if planned is not None:
        track, how = planned
        before = track_level(ship, track)
        recover_one(ship, track)
        lines.append(f"recovers 1 D ({how}): {TRACK_TITLES[track].lower()} D{before} → "
                     f"D{before - 1}")
    ship.state["recovered"] = False
    ship.state["fired"] = False
    ship.state["launches"] = 0
    return lines


__all__ = ["DEFAULT_ORDER", "choose_recovery", "default_track", "describe_choice", "end_turn",
           "needs_choice", "planned_recovery", "recovery_choice"]
