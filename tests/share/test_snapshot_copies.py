"""A change copies into the server's snapshot only the ships it touched: the others keep
their copies from the snapshot before (a copy is only ever read). Counted copies, no clock;
and what the snapshot holds is the live session's state, ship for ship."""

from __future__ import annotations

from shipsheet.model import trial
from shipsheet.model.actions import NextPhase
from shipsheet.rules.fedcom import mark_shield_action
from shipsheet.share.host import TableHost

from .phone import sample


def test_a_change_copies_only_the_ships_it_touched(monkeypatch):
    session = sample("fedcom")
    host = TableHost(session, session.apply, session.undo)
    copies = []
    copy_ship = trial.trial_ship
    monkeypatch.setattr(trial, "trial_ship", lambda ship, state=None: copies.append(ship.name)
                        or copy_ship(ship, state))
    before = {s.id: s for s in host.snapshot.session.ships}
    hornet = session.ship("Hornet")

    session.apply(mark_shield_action(hornet, 1, 3))
    assert copies == ["Hornet"]
    after = host.snapshot
    for ship in after.session.ships:
        live = session.ship(ship.id)
        assert ship.state == live.state and ship is not live
        assert (ship is before[ship.id]) == (ship.id != hornet.id)
    assert after.ship(hornet.id).state["shield_damage"][0] == 3

    copies.clear()
    session.undo()  # the undo touches the same ship: it alone is copied again
    assert copies == ["Hornet"] and host.snapshot.ship(hornet.id).state == hornet.state

    copies.clear()
    session.apply(NextPhase())  # the phase may change every ship: all are copied
    assert sorted(copies) == sorted(s.name for s in session.ships)
    host.close()
