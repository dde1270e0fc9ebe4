"""War In Space's damage is marked by hand: a mark may name the attacking ship, recorded as
the log line's ``by`` for the play-by-e-mail turn reports."""

import pytest

from shipsheet.model import RuleViolation, get_class, new_ship
from shipsheet.rules.war_in_space import mark_critical_action, mark_system_box_action


def test_marks_record_their_attacker(session, cruiser_in):
    lancer = session.add_ship(new_ship(get_class("war-in-space/frigate"), "Lancer"), "Red")
    start = len(session.log)
    session.apply(mark_system_box_action(cruiser_in, "Drive", attacker=lancer))
    session.apply(mark_critical_action(cruiser_in, "D", attacker=lancer.id))
    session.apply(mark_system_box_action(cruiser_in, "Reactor"))
    details = [e for e in session.log[start:] if e.kind == "detail"]
    assert [e.by for e in details] == [lancer.id, lancer.id, None]
    assert all(e.ship == cruiser_in.id for e in details)
    assert details[0].text.startswith("Drive: box 1 of 3 marked")
    session.undo()
    session.undo()
    assert cruiser_in.state["marks"][1] == 1 and not cruiser_in.state["criticals"]["diamonds"]


def test_an_unknown_attacker_or_the_ship_itself_is_refused(session, cruiser_in):
    before = [list(cruiser_in.state["marks"]), dict(cruiser_in.state["criticals"])]
    with pytest.raises(RuleViolation, match="no ship"):
        session.apply(mark_system_box_action(cruiser_in, "Drive", attacker="ghost"))
    with pytest.raises(RuleViolation, match="own attacker"):
        session.apply(mark_critical_action(cruiser_in, "D", attacker=cruiser_in))
    assert [cruiser_in.state["marks"], cruiser_in.state["criticals"]] == before
