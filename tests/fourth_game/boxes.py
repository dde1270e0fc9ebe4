"""Skirmish's boxes: a track's next box to mark (``hull:2``), the only box a click does
anything to."""

from __future__ import annotations

from shipsheet.model.boxes import BoxAnswer, GameBoxes

from .rules import TRACKS, mark_action, wrecked


def track_key(track: str, index: int) -> str:
    return f"{track}:{index}"


class SkirmishBoxes(GameBoxes):
    def answer(self, session, ship, key):
        track, _, number = key.partition(":") if isinstance(key, str) else ("", "", "")
        if track not in TRACKS or not number.isascii() or not number.isdigit():
            return None
        index = int(number)
        if index != ship.state[track] or index >= ship.ship_class.spec.boxes(track):
            return None  # the sheet shows only the next box to mark as one
        refusal = f"{ship.name} is wrecked: nothing more can be marked." if wrecked(ship) else None
        return BoxAnswer(f"{track} box {index + 1}", state="unmarked", refusal=refusal,
                         click=None if refusal else (lambda: mark_action(ship, track)))


BOXES = SkirmishBoxes()
