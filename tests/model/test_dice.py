"""Dice: seeded per session, every roll logged, physical rolls may be typed in."""

import pytest

from shipsheet.model import Dice, RuleViolation, SessionAction, check_die

from fake_game import make_session


def rolls(seed, n=20, sides=6):
    dice = Dice(seed)
    return [dice.roll(sides) for _ in range(n)]


def test_same_seed_same_rolls_and_every_face_possible():
    assert rolls(42) == rolls(42)
    assert rolls(42) != rolls(43)
    assert set(rolls(1, 600)) == {1, 2, 3, 4, 5, 6}


def test_typed_rolls_are_used_first_and_checked():
    dice = Dice(5)
    dice.type_in(6, 1)
    assert dice.roll(6) == 6
    assert dice.roll(6) == 1
    dice.type_in(9)
    with pytest.raises(RuleViolation, match="A d8 shows 1 to 8; 9 is impossible"):
        dice.roll(8)


def test_check_die():
    assert check_die(4, 6) == 4
    for bad in (0, 7, -1, 2.5, True, "3"):
        with pytest.raises(RuleViolation):
            check_die(bad, 6)


def test_rolls_inside_an_action_are_logged_and_rewound_by_undo():
    session = make_session("Alpha", seed=99)

    def roll_two(s, ctx):
        ctx.dice.roll(6, "to hit")
        ctx.dice.roll(6, "damage")

    session.apply(SessionAction("Attack", roll_two, ships=()))
    logged = [e.text for e in session.log if e.kind == "roll"]
    assert len(logged) == 2 and logged[0].startswith("d6 rolled: ") and logged[0].endswith("for to hit")
    session.undo()
    session.apply(SessionAction("Attack", roll_two, ships=()))
    again = [e.text for e in session.log if e.kind == "roll" and not e.undone]
    assert again == logged  # undo then the same attack: the same dice


def test_typed_roll_in_an_action_is_logged_as_typed():
    session = make_session("Alpha")
    session.dice.type_in(3)
    session.apply(SessionAction("Attack", lambda s, ctx: ctx.dice.roll(6, "to hit"), ships=()))
    assert any(e.text == "d6 typed in: 3 for to hit" for e in session.log)


def test_impossible_typed_roll_refuses_the_action_and_keeps_the_queue():
    session = make_session("Alpha")
    session.dice.type_in(7)
    with pytest.raises(RuleViolation, match="impossible"):
        session.apply(SessionAction("Attack", lambda s, ctx: ctx.dice.roll(6, "to hit"), ships=()))
    assert session.dice.typed_pending == (7,)


def test_a_copy_rolls_what_the_dice_roll_next_and_leaves_them_alone():
    """Previews roll a copy: applying right after rolls the same, typed-in values first."""
    dice = Dice(seed=7, count=3)
    dice.type_in(5)
    copy = dice.copy()
    previewed = [copy.roll(6), copy.roll(6), copy.roll(10)]
    assert dice.count == 3 and dice.typed_pending == (5,)
    assert [dice.roll(6), dice.roll(6), dice.roll(10)] == previewed
    assert previewed[0] == 5
