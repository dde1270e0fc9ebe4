"""A phone decides only what a player decides, by the rules: the same ``decisions`` piece as
an orders file, so a refuel is refused from the phone in the same words (house rule TRI-H29:
a player burns fuel, the referee refuels), and burning fuel is one undo step."""

from __future__ import annotations

import json

import pytest

from shipsheet.share.seats import PLAYER, REFEREE

from .phone import Phone, sample, share, wait

REFUEL = ("Fuel left: at most 14. A player burns fuel but does not take it on: refuelling, at "
          "a base or from a tanker, is the referee's (house rule TRI-H29).")


@pytest.fixture
def triplanetary(qtbot):
    session = sample("triplanetary")
    link, (mars, ref) = share(session, seats=[("Mars", PLAYER, ("Mars Patrol",), ()),
                                              ("Referee", REFEREE, (), ())])
    yield session, link, {"mars": mars, "ref": ref}
    link.stop()


def _phone(qtbot, link, seat):
    phone = Phone(link.url(seat))
    status, _, _ = wait(qtbot, phone.pair)
    assert status == 200
    _, state, _ = wait(qtbot, phone.state)
    return phone, state, next(s for s in state["ships"] if s["name"] == "Ajax")


def test_a_phone_that_raises_fuel_is_refused_in_the_rules_words(qtbot, triplanetary):
    session, link, seats = triplanetary
    phone, state, ajax = _phone(qtbot, link, seats["mars"])
    fuel = next(f for f in ajax["forms"] if f["kind"] == "fuel")
    assert fuel["fields"][0]["max"] == 14 and "refuelling" in fuel["fields"][0]["over"]
    before = json.dumps(session.ship("Ajax").state, sort_keys=True)
    steps = len(session._undo)
    for wanted in (20, 15):
        status, answer, _ = wait(qtbot, lambda: phone.act(state, ajax, kind="decide", form="fuel",
                                                          values={"fuel": wanted}))
        # A rule's refusal (PROTOCOL.md): answered, not applied, in the rule's words.
        assert status == 200 and answer["ok"] is False and answer["error"] == REFUEL, answer
    # Taking on fuel by tapping a fuel box already burnt is not the player's either.
    burnt = next(a for a in ajax["areas"] if a["key"] == "fuel:3")
    assert not burnt["tap"] and burnt["refusal"]
    status, answer, _ = wait(qtbot, lambda: phone.act(state, ajax, kind="tap", key="fuel:3"))
    assert status == 403
    assert json.dumps(session.ship("Ajax").state, sort_keys=True) == before
    assert len(session._undo) == steps
    # Burning fuel is the player's: one undo step.
    status, answer, _ = wait(qtbot, lambda: phone.act(state, ajax, kind="decide", form="fuel",
                                                      values={"fuel": 9}))
    assert status == 200 and answer["ok"], answer
    assert session.ship("Ajax").state["fuel"] == 9 and len(session._undo) == steps + 1
    session.undo()
    assert session.ship("Ajax").state["fuel"] == 14


def test_the_referee_refuels_at_a_base(qtbot, triplanetary):
    session, link, seats = triplanetary
    phone, state, ajax = _phone(qtbot, link, seats["ref"])
    status, answer, _ = wait(qtbot, lambda: phone.act(state, ajax, kind="tap", key="fuel:3"))
    assert status == 200 and answer["ok"], answer
    assert session.ship("Ajax").state["fuel"] > 14
