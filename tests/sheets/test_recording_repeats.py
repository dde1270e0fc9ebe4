"""What a recording repeats from the last one is what a fresh drawing draws.

The window and the phones record a sheet after every change, repeating from the last
recording every part whose key says it is as it was (``sheets.display``: helpers, and
sections that also place boxes and return where they end). A key that forgot something
the part shows would leave a stale box on screen. So: every sample ship of every game,
on the paper and on a phone, light and dark, with this turn's marks apart or not, is
changed click by click (clicks and menu entries, chosen by a seeded random) and through
the turn's end, and after each change the recording made from the last one must be a
first recording's, call for call and box for box."""

from __future__ import annotations

import random

import pytest

from shipsheet.model import load_session
from shipsheet.model.actions import NextPhase
from shipsheet.model.errors import RuleViolation
from shipsheet.model.paths import resources_dir
from shipsheet.sheets import PAPER, PHONE, painter_for
from shipsheet.sheets.base import Theme, measure_device
from shipsheet.sheets.display import record

GAMES = ("fedcom", "triplanetary", "war-in-space")
CHANGES = 40


def _calls(display):
    return [(c.name, c.args, c.pen, c.brush, c.font, c.transform) for c in display.calls]


def _boxes(painter):
    return [(a.key, a.rect.getRect()) for a in painter.areas]


def _a_change(painter, rng):
    """A click or a menu entry of one of the sheet's boxes (None when none applies)."""
    areas = list(painter.areas)
    rng.shuffle(areas)
    for area in areas[:40]:
        choices = []
        if area.click is not None and not area.refusal:
            choices.append(area.click)
        if area.has_menu():
            choices += [factory for _label, factory in area.menu]
        if choices:
            return rng.choice(choices)()
    return None


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("layout", [PAPER, PHONE], ids=["paper", "phone"])
def test_a_recording_from_the_last_is_a_first_recording(qapp, game, layout):
    session = load_session(str(resources_dir() / "samples" / f"{game}.shipsheet"))
    rng = random.Random(f"{game}-{layout.name}")
    device = measure_device()
    changed = 0
    for ship in list(session.ships):
        for theme, turn_marks in ((Theme.light(), False), (Theme.dark(), True)):
            last = record(painter_for(ship, session, turn_marks=turn_marks, layout=layout),
                          theme, device)
            for step in range(CHANGES):
                painter = painter_for(ship, session, turn_marks=turn_marks, layout=layout)
                painter.layout()
                action = NextPhase() if step % 13 == 12 else _a_change(painter, rng)
                if action is None:
                    break
                try:
                    session.apply(action)
                except RuleViolation:  # a rule, or a choice another change took away
                    continue
                changed += 1
                again = painter_for(ship, session, turn_marks=turn_marks, layout=layout)
                last = record(again, theme, device, last)
                fresh = painter_for(ship, session, turn_marks=turn_marks, layout=layout)
                first = record(fresh, theme, device)
                assert _calls(last) == _calls(first), (game, ship.name, step, action)
                assert _boxes(again) == _boxes(fresh), (game, ship.name, step, action)
                assert (last.width, last.height) == (first.width, first.height)
    assert changed >= 8 * len(session.ships), changed  # most steps made a change


@pytest.mark.parametrize("layout", [PAPER, PHONE], ids=["paper", "phone"])
def test_what_clicks_do_not_change_is_drawn_as_a_first_recording_too(qapp, layout):
    """What the random clicks above never reach, on the FedCom card: the points carried
    toward a weapon under repair (on its chip: "repair 1/4", then "repair 3/4", nothing
    else on the card moving), the ship's side (in its title), and standing orders (the
    chips they name to be hit first or last). After each, the recording made from the last
    is a first recording's."""
    from shipsheet.model.actions import SetSide
    from shipsheet.rules.fedcom.actions import set_orders_action
    session = load_session(str(resources_dir() / "samples" / "fedcom.shipsheet"))
    swift = next(ship for ship in session.ships if ship.name == "Swift")  # ph-3 destroyed
    device = measure_device()

    def carried(points):  # as a repair left unfinished last turn leaves it (carry_over.py)
        return lambda: swift.state.__setitem__("repair", {"box": "ph-3", "points": points})

    changes = [carried(1), carried(3), lambda: session.apply(SetSide(swift, "Orion raiders")),
               lambda: session.apply(set_orders_action(swift, {"first": ["ph-1"], "last": ["ph-2"]}))]
    for theme, turn_marks in ((Theme.light(), False), (Theme.dark(), True)):
        last = record(painter_for(swift, session, turn_marks=turn_marks, layout=layout), theme,
                      device)
        for n, change in enumerate(changes):
            change()
            again = painter_for(swift, session, turn_marks=turn_marks, layout=layout)
            last = record(again, theme, device, last)
            fresh = painter_for(swift, session, turn_marks=turn_marks, layout=layout)
            first = record(fresh, theme, device)
            assert _calls(last) == _calls(first), (n, turn_marks)
            assert _boxes(again) == _boxes(fresh), n
        session.undo()
        session.undo()
        swift.state["repair"] = None
