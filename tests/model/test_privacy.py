"""Each game's one definition of "private" (its ``privacy`` piece, ``model/privacy.py``):
which fields others do not see, when the rules make them public, and log lines marked when
they are logged — and old logs marked when they are loaded."""

from __future__ import annotations

import json

from shipsheet.model.games import piece
from shipsheet.model.privacy import public_state, seen_text
from shipsheet.model.storage import load_session, save_session, session_to_data

from pbem.pbem_helpers import give


def _lines(session, change):
    return session.log[change.entries]


def test_war_in_space_cards_are_the_owners_until_energy_allocation_ends():
    """House rule WIS-H14: the committed card, Damage Control, dice and energy are hidden
    while the Energy Allocation phase lasts, and public from the next phase on."""
    s = piece("war-in-space", "sample")()
    s.next_turn()
    kestrel = s.ship("Kestrel")
    change = give(s, kestrel, "energy", card="9C", damage_control=True)
    lines = _lines(s, change)
    assert lines and all(e.private == "energy" for e in lines)
    assert all(seen_text(s, e, owner=False) is None for e in lines)
    assert any("9♣" in seen_text(s, e, owner=True) for e in lines)
    hidden = public_state(s, kestrel)
    assert hidden["energy"] is None and hidden["rolled"] is None
    assert kestrel.state["energy"] is not None
    s.next_phase()  # Movement: every card is revealed
    assert any("9♣" in (seen_text(s, e, owner=False) or "") for e in lines)
    assert public_state(s, kestrel)["energy"] == kestrel.state["energy"]


def test_war_in_space_repair_plans_are_never_shown_to_others():
    """The plan is its owner's (model/privacy: "repairs"); what the Damage Control phase
    repairs is logged as a public line of that phase."""
    s = piece("war-in-space", "sample")()
    s.next_turn()
    vigilant = s.ship("Vigilant")
    change = give(s, vigilant, "repairs", repair1="box:2")
    assert all(e.private == "repairs" for e in _lines(s, change))
    assert public_state(s, vigilant)["planned_repairs"] is None
    assert vigilant.state["planned_repairs"] is not None
    s.next_phase()
    s.next_phase()  # Damage Control
    assert all(seen_text(s, e, owner=False) is None for e in _lines(s, change))


def test_war_in_space_a_second_plan_replaces_the_first():
    """House rule WIS-H15."""
    s = piece("war-in-space", "sample")()
    s.next_turn()
    harrier = s.ship("Harrier")
    give(s, harrier, "repairs", repair1="box:1", repair2="box:2")
    change = give(s, harrier, "repairs", repair1="box:3", repair2="none")
    assert harrier.state["planned_repairs"]["order"] == [["box", 2]]
    assert any("replaces the earlier plan" in e.text for e in _lines(s, change))


def test_federation_commander_orders_are_never_public_but_their_effect_is_said():
    """House rule FC-H15: the orders stay the owner's; a hit they decided is explained to
    others as "the owner's standing order"."""
    from shipsheet.rules.fedcom.actions import volley_action
    s = piece("fedcom", "sample")()
    resolute = s.ship("Resolute")
    change = give(s, resolute, "orders", first="lab-2, ph-6")
    assert all(e.private == "orders" for e in _lines(s, change))
    assert public_state(s, resolute)["orders"] != resolute.state["orders"]
    volley = s.apply(volley_action(resolute, 40, shield=2, attacker=s.ship("Hornet")))
    said = [seen_text(s, e, owner=False) for e in _lines(s, volley)]
    own = [seen_text(s, e, owner=True) for e in _lines(s, volley)]
    assert any("standing order: 1st" in t for t in own if t)
    assert not any("standing order: " in t or "lab-2, ph-6" in t for t in said if t)
    assert any("the owner's standing order" in t for t in said if t)
    s.next_turn()
    s.next_turn()
    assert all(seen_text(s, e, owner=False) is None for e in _lines(s, change))


def test_triplanetary_recovery_choices_are_the_owners():
    s = piece("triplanetary", "sample")()
    ajax = s.ship("Ajax")
    change = give(s, ajax, "recovery", track="weapon", then="drive")
    assert all(e.private == "recovery" for e in _lines(s, change))
    assert public_state(s, ajax)["recovery_choice"] == []
    s.next_turn()
    assert all(seen_text(s, e, owner=False) is None for e in _lines(s, change))


def test_an_old_log_is_marked_on_load_by_the_same_definition(tmp_path):
    """A session saved before lines were marked (no "log_marks"): its lines about private
    decisions become private when it is loaded, and the file saves with the marks."""
    s = piece("fedcom", "sample")()
    give(s, s.ship("Resolute"), "orders", first="lab-2, ph-6")
    data = session_to_data(s)
    assert data.get("log_marks") == 1
    data.pop("log_marks")
    for entry in data["log"]:
        for key in ("private", "public"):
            entry.pop(key, None)
    old = tmp_path / "old.shipsheet"
    old.write_text(json.dumps(data), "utf-8")
    loaded = load_session(old)
    orders = [e for e in loaded.log if "lab-2, ph-6" in e.text]
    assert orders and all(e.private == "orders" for e in orders)
    assert all(seen_text(loaded, e, owner=False) is None for e in orders)
    save_session(loaded, tmp_path / "new.shipsheet")
    again = load_session(tmp_path / "new.shipsheet")
    assert [e.private for e in again.log] == [e.private for e in loaded.log]
