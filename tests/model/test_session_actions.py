"""The one path for every change: apply checks and refuses with nothing changed,
logs, and can be undone and redone without Qt."""

import pytest

from shipsheet.model import RuleViolation, SessionAction, ShipAction
from shipsheet.model.actions import RemoveShip, RenameShip, SetSide

from fake_game import make_session, make_ship, mark


def test_apply_logs_and_undo_redo_restore_state():
    session = make_session("Alpha")
    ship = session.ships[0]
    change = session.apply(ShipAction("Mark box", ship, mark))
    assert ship.state["marks"] == 1
    assert [e.text for e in session.log[change.entries]] == ["Mark box", "marks now 1"]
    assert session.undo_status().undo == "Mark box"
    session.undo()
    assert ship.state["marks"] == 0
    assert all(e.undone for e in session.log[change.entries])
    assert session.undo_status().redo == "Mark box"
    session.redo()
    assert ship.state["marks"] == 1
    assert not any(e.undone for e in session.log[change.entries])


def test_refused_action_changes_nothing_even_after_partial_change():
    session = make_session("Alpha")
    ship = session.ships[0]
    for _ in range(3):
        session.apply(ShipAction("Mark box", ship, mark))
    log_before = len(session.log)
    with pytest.raises(RuleViolation, match="only 3 boxes"):
        session.apply(ShipAction("Mark box", ship, mark))
    assert ship.state["marks"] == 3
    assert len(session.log) == log_before
    assert session.undo_status().undo == "Mark box"  # the refused one is not on the stack


def test_new_change_clears_redo():
    session = make_session("Alpha")
    ship = session.ships[0]
    session.apply(ShipAction("Mark box", ship, mark))
    session.undo()
    assert (session.undo_status().redo is not None)
    session.apply(ShipAction("Mark box", ship, mark))
    assert session.undo_status().redo is None
    with pytest.raises(RuleViolation, match="nothing to redo"):
        session.redo()


def test_undo_with_empty_stack_is_refused():
    session = make_session("Alpha")
    while (session.undo_step() is not None):
        session.undo()
    with pytest.raises(RuleViolation, match="nothing to undo"):
        session.undo()


def test_add_remove_rename_side_are_undoable():
    session = make_session("Alpha")
    beta = make_ship("Beta")
    session.add_ship(beta, side="Red")
    assert [s.name for s in session.ships] == ["Alpha", "Beta"]
    assert session.sides == ["Red"]
    session.apply(RenameShip(beta, "Bravo"))
    session.apply(SetSide(beta, "Blue"))
    session.apply(RemoveShip(beta))
    assert [s.name for s in session.ships] == ["Alpha"]
    session.undo()
    assert session.ships[1].name == "Bravo" and session.ships[1].side == "Blue"
    session.undo()
    session.undo()
    assert session.ships[1].name == "Beta" and session.ships[1].side == "Red"
    session.undo()
    assert [s.name for s in session.ships] == ["Alpha"]


def test_add_ship_of_another_game_is_refused():
    from shipsheet.model import get_class, new_ship
    session = make_session("Alpha")
    frigate = new_ship(get_class("triplanetary/frigate"), "Nike")
    with pytest.raises(RuleViolation, match="another game"):
        session.add_ship(frigate)
    assert len(session.ships) == 1


def test_rename_to_empty_is_refused():
    session = make_session("Alpha")
    with pytest.raises(RuleViolation, match="needs a name"):
        session.apply(RenameShip(session.ships[0], "   "))
    assert session.ships[0].name == "Alpha"


def test_phases_advance_and_wrap_into_next_turn_with_end_turn_hook():
    session = make_session("Alpha")
    assert (session.turn, session.phase) == (1, "First")
    session.next_phase()
    assert session.phase == "Second"
    session.next_turn()
    assert (session.turn, session.phase) == (2, "First")
    assert session.ships[0].state["ended"] == 1
    session.undo()
    assert (session.turn, session.phase) == (1, "Second")
    assert session.ships[0].state["ended"] == 0


def test_session_action_touching_several_ships_is_one_undo_step():
    session = make_session("Alpha", "Beta")
    ids = [s.id for s in session.ships]

    def volley(s, ctx):
        for ship in s.ships:
            mark(ship, ctx)
            ctx.log(f"{ship.name} hit", ship=ship.id)

    session.apply(SessionAction("Volley", volley, ships=ids))
    assert [s.state["marks"] for s in session.ships] == [1, 1]
    session.undo()
    assert [s.state["marks"] for s in session.ships] == [0, 0]


def test_observers_hear_every_apply_undo_redo():
    session = make_session("Alpha")
    heard = []
    session.subscribe(lambda change: heard.append(change.name))
    session.apply(ShipAction("Mark box", session.ships[0], mark))
    session.undo()
    session.redo()
    assert heard == ["Mark box", "Mark box", "Mark box"]


def test_ship_lookup_by_name_and_unknown_ship():
    session = make_session("Alpha")
    assert session.ship("alpha") is session.ships[0]
    with pytest.raises(RuleViolation, match='no ship "Zeta"'):
        session.ship("Zeta")


def test_log_text_leaves_out_undone_changes():
    session = make_session("Alpha")
    ship = session.ships[0]
    session.apply(ShipAction("Mark box", ship, mark))
    session.apply(ShipAction("Second mark", ship, mark))
    session.undo()
    text = session.log_text()
    assert "Mark box" in text and "Second mark" not in text
    assert "Second mark" in session.log_text(include_undone=True)


def test_two_actions_together_are_one_step_and_refused_together():
    from shipsheet.model.actions import Together
    session = make_session("Alpha", "Beta")
    alpha, beta = session.ships
    both = Together(ShipAction("Mark Alpha", alpha, mark), ShipAction("Mark Beta", beta, mark))
    session.apply(both)
    assert (alpha.state["marks"], beta.state["marks"]) == (1, 1)
    assert session.undo_status().undo == "Mark Alpha"
    session.undo()
    assert (alpha.state["marks"], beta.state["marks"]) == (0, 0)  # one undo, both back
    beta.state["marks"] = 3  # Beta's next mark is refused (past 3): Alpha's is taken back too
    with pytest.raises(RuleViolation, match="Beta has only 3 boxes"):
        session.apply(Together(ShipAction("Mark Alpha", alpha, mark),
                               ShipAction("Mark Beta", beta, mark)))
    assert (alpha.state["marks"], beta.state["marks"]) == (0, 3)
