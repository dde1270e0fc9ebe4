"""An attack being planned (the attack dialog's form reads into one): what it gives with
the session's dice and, step by step, what is still missing. No Qt."""

from shipsheet.model import Session, get_class, new_ship
from shipsheet.rules.triplanetary.planning import AttackPlan, Die


def session_with(*stems):
    session = Session("triplanetary", seed=3)
    ships = [session.add_ship(new_ship(get_class(f"triplanetary/{s}"), f"{s}{i}"))
             for i, s in enumerate(stems)]
    while session.phase != "Combat":  # gun attacks belong to the Combat phase [TRI-H15]
        session.next_phase()
    return session, ships


def test_each_step_says_what_is_missing_then_the_attack_is_ready():
    """Frigate 8 vs corsair 4 is 2:1 [seed]; a typed 6 on 2:1 is 2 hits; two damage rolls."""
    session, (frigate, corsair) = session_with("frigate", "corsair")
    plan = AttackPlan("guns")
    assert plan.work_out(session).problem == "Pick at least one attacker and at least one target."
    plan.attackers, plan.targets = [frigate], [corsair]
    worked = plan.work_out(session)
    assert worked.problem == "Roll or type the to-hit die." and worked.first.column == "2:1"
    plan.to_hit = Die(6)
    worked = plan.work_out(session)
    assert (worked.damage_dice, worked.problem) == (2, "Roll or type damage roll 1, 2.")
    plan.damage = [Die(None), Die(5)]
    assert plan.work_out(session).problem.startswith("Type the damage rolls first to last")
    plan.damage = [Die(3), Die(rolled=True)]
    worked = plan.work_out(session)
    assert worked.problem == "" and worked.result.hits == 2
    assert worked.result.damage_rolls[0].roll == 3
    before = session.dice.count
    session.apply(plan.action())
    assert session.dice.count == before + 1  # the one left to the dice was rolled in the action
    assert corsair.state["structure"] >= 1


def test_odds_worse_than_one_to_four_have_no_effect():
    """[2018] "worse than 1:4 has no effect": corvette 2 against dreadnaught 16."""
    session, (corvette, dread) = session_with("corvette", "dreadnaught")
    worked = AttackPlan("guns", [corvette], [dread], to_hit=Die(6)).work_out(session)
    assert worked.result is None and worked.problem.startswith("Odds worse than 1:4")
