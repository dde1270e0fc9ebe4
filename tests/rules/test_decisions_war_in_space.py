"""War In Space decisions as forms (a phone, an orders file): the Energy Allocation and the
repair plan, filled with checked values, applied as the Actions panel applies them.

The sample session (``sample.py``) is mid-turn 2, Movement phase: Vigilant (cruiser, Drive
2 boxes marked, ♦ locked) committed K♥ with Damage Control and planned Drive 1 + ♦; Lancer
(frigate, Reactor 1 box, ♠ locked) committed 10♦ with Damage Control (4 energy); Harrier
committed nothing.
"""

import pytest

from decisions_helpers import DecisionsHelpers, log_lines
from shipsheet.model.decisions import DECIDE, MARK
from shipsheet.model.games import piece
from shipsheet.rules.war_in_space import BOX_COST, committed_allocation, planned_repairs
from shipsheet.rules.war_in_space.boxes import BOXES
from shipsheet.rules.war_in_space.decisions import DECISIONS
from shipsheet.rules.war_in_space.game import COMBAT, DAMAGE_CONTROL_PHASE


FORMS = DecisionsHelpers(DECISIONS, dice=True)
kinds, spec, values_of, decide, refused = FORMS.functions()


@pytest.fixture
def sample():
    return piece("war-in-space", "sample")()


@pytest.fixture
def turn3(sample):
    """Turn 3, Energy Allocation: Vigilant's planned repairs were made in turn 2's Damage
    Control phase (Drive back to 1 mark: d6; ♦ unlocked); Lancer's ♠ is still locked."""
    sample.next_turn()
    return sample


# -- Energy Allocation --------------------------------------------------------------------

def test_energy_is_offered_in_the_energy_allocation_phase_to_a_ship_that_has_not_committed(
        sample):
    """[WIS-H8] energy is allocated in the Energy Allocation phase; [WIS-H6] once a turn."""
    assert "energy" not in kinds(sample, sample.ship("Harrier"))  # Movement: the phase is over
    sample.next_turn()
    turn3 = sample
    vigilant = turn3.ship("Vigilant")
    assert "energy" in kinds(turn3, vigilant)
    form = spec(turn3, vigilant, "energy")
    fields = {f["name"]: f for f in form["fields"]}
    # One field per system, at its current die: Reactor d10, Drive d6 (1 box marked), FC d8.
    assert [(fields[n]["min"], fields[n]["max"]) for n in ("die1", "die2", "die3")] == \
        [(1, 10), (1, 6), (1, 8)]
    assert len(fields["card"]["options"]) == 53  # 52 cards and the Joker
    decide(turn3, vigilant, "energy", values_of(turn3, vigilant, "energy", card="4S"))
    assert "energy" not in kinds(turn3, vigilant)


def test_the_seed_example_typed_from_physical_dice(turn3):
    """Seed: "If the Energy Allocation Card is an Ace through 10, then the highest die score
    is allocated to the Damage Control Action, the next highest score to the Primary Action
    Type, and the last die score to the Secondary action type" (4♦ with DC, dice 7, 5, 2)."""
    vigilant = turn3.ship("Vigilant")
    change = decide(turn3, vigilant, "energy",
                    values_of(turn3, vigilant, "energy", card="4D", damage_control=True,
                              die1=7, die2=5, die3=2))
    energy = vigilant.state["energy"]
    assert (energy["damage_control"], energy["attack"], energy["defense"], energy["movement"]) \
        == (7, 5, 2, 0)
    assert change.name == "Energy Allocation: 4♦ with Damage Control"
    lines = log_lines(turn3, change)
    assert lines[-1] == ("4♦ with Damage Control, dice [7, 5, 2]: Attack 5, Defense 2, "
                         "Movement 0, Damage Control 7")
    turn3.undo()
    assert vigilant.state["energy"] is None
    assert all(e.undone for e in turn3.log[change.entries])


def test_dice_left_empty_are_rolled_by_the_session_and_undo_rewinds_them(turn3):
    vigilant = turn3.ship("Vigilant")
    values = values_of(turn3, vigilant, "energy", card="7C")
    assert [values[n] for n in ("die1", "die2", "die3")] == [None, None, None]
    change = decide(turn3, vigilant, "energy", values)
    rolls = [e.text for e in turn3.log[change.entries] if e.kind == "roll"]
    assert [r.split(" ")[0] for r in rolls] == ["d10", "d6", "d8"]
    dice = committed_allocation(vigilant).dice
    turn3.undo()
    decide(turn3, vigilant, "energy", values)
    assert committed_allocation(vigilant).dice == dice  # the same dice: nothing to fish for


def test_a_joker_without_damage_control_assigns_each_die(turn3):
    """[WIS-H5] Without Damage Control a Joker's dice go where the player says."""
    resolute = turn3.ship("Resolute")
    decide(turn3, resolute, "energy",
           values_of(turn3, resolute, "energy", card="JOKER", die1=4, die2=3, die3=2,
                     joker1="movement", joker2="attack", joker3="movement"))
    energy = resolute.state["energy"]
    assert (energy["attack"], energy["movement"], energy["defense"]) == (3, 6, 0)


def test_a_locked_suit_is_offered_and_refused_in_the_rules_words(turn3):
    """Seed: a critical hit costs the ability "to play cards from a particular suit"."""
    lancer = turn3.ship("Lancer")
    card = next(f for f in spec(turn3, lancer, "energy")["fields"] if f["name"] == "card")
    options = {o["value"]: o["label"] for o in card["options"]}
    assert "locked" in options["4S"] and "locked" not in options["4H"]
    refused(turn3, lancer, "energy", values_of(turn3, lancer, "energy", card="4S"),
            "locks spades out until it is repaired")


def test_a_system_at_0_counts_0_and_is_not_rolled(turn3):
    """[WIS-H2] "When the marks step it below d4 the system produces 0 energy: its die counts
    0 and is not rolled." Harrier's three systems are all at 0."""
    harrier = turn3.ship("Harrier")
    fields = {f["name"]: f for f in spec(turn3, harrier, "energy")["fields"]}
    assert [(fields[n]["min"], fields[n]["max"], fields[n]["value"])
            for n in ("die1", "die2", "die3")] == [(0, 0, 0)] * 3
    assert fields["die1"]["label"] == "Reactor (0: produces no energy)"
    refused(turn3, harrier, "energy", values_of(turn3, harrier, "energy", card="7C", die1=1),
            "from 0 to 0")
    change = decide(turn3, harrier, "energy", values_of(turn3, harrier, "energy", card="7C"))
    assert [e for e in turn3.log[change.entries] if e.kind == "roll"] == []
    assert harrier.state["energy"]["dice"] == [0, 0, 0]


def test_energy_refusals_teach_and_change_nothing(turn3):
    vigilant = turn3.ship("Vigilant")
    base = values_of(turn3, vigilant, "energy", card="4D")
    refused(turn3, vigilant, "energy", {**base, "die1": 7}, "Type every die")
    refused(turn3, vigilant, "energy", {**base, "joker1": "attack", "joker2": "attack",
                                        "joker3": "attack"}, "Only a Joker")
    refused(turn3, vigilant, "energy", {**base, "card": "JOKER"}, "give an action for each die")


@pytest.mark.parametrize("changes, words", [
    ({"card": "ZZ"}, "Card played: choose one of"),
    ({"card": 4}, "Card played: choose one of"),
    ({"card": "4D" * 5000}, "Card played: choose one of"),  # 10 KB
    ({"card": None}, "Card played: a value is needed"),
    ({"die1": 11}, "from 1 to 10"),              # a d10 shows 1 to 10
    ({"die2": 7}, "from 1 to 6"),                # Drive is a d6 now
    ({"die1": 0}, "from 1 to 10"),
    ({"die1": "seven"}, "a whole number"),
    ({"die1": 7.5}, "a whole number"),
    ({"die1": True}, "a whole number"),
    ({"damage_control": "yes"}, "yes or no"),
    ({"joker1": "damage_control"}, "choose one of"),
    ({"energy": 99}, "no field named energy"),
    ({"x" * 10_000: 1}, "no field named"),
])
def test_hostile_energy_values_are_refused(turn3, changes, words):
    vigilant = turn3.ship("Vigilant")
    refused(turn3, vigilant, "energy",
            values_of(turn3, vigilant, "energy", **{"card": "4D", **changes}), words)


def test_hostile_forms_are_refused(sample):
    harrier = sample.ship("Harrier")  # Movement: energy is no decision now
    refused(sample, harrier, "energy", {"card": "4D"}, 'no decision "energy"')
    sample.next_turn()
    vigilant = sample.ship("Vigilant")
    refused(sample, vigilant, "energy", ["4D"], "table of names and values")
    refused(sample, vigilant, "warp", {}, 'no decision "warp"')
    refused(sample, vigilant, "e" * 10_000, {}, "no decision")


# -- repairs ---------------------------------------------------------------------------------

def test_repairs_are_offered_to_a_damaged_ship_until_the_damage_control_phase_is_over(sample):
    assert "repairs" not in kinds(sample, sample.ship("Kestrel"))  # undamaged
    vigilant = sample.ship("Vigilant")
    assert kinds(sample, vigilant) == ["repairs"]
    # The plan made in the sample (Drive 1, ♦) is the form's list, a place for each of the
    # three damaged things (two Drive boxes, the ♦ critical hit).
    values = values_of(sample, vigilant, "repairs")
    assert [values[f"repair{n}"] for n in (1, 2, 3)] == ["box:2", "critical:diamonds", "none"]
    while sample.phase != COMBAT:
        sample.next_phase()
    assert "repairs" not in kinds(sample, sample.ship("Harrier"))


def test_planning_a_box_repair_and_undo(sample):
    """Seed: "By spending 4 energy points a ship may repair one system box"; it waits for
    "the Damage Control phase after movement"."""
    lancer = sample.ship("Lancer")
    change = decide(sample, lancer, "repairs", values_of(sample, lancer, "repairs",
                                                         repair1="box:1"))
    assert planned_repairs(lancer).boxes == (1, 0, 0)
    assert change.name == "Plan repairs"
    lines = log_lines(sample, change)
    assert f"1. Reactor box ({BOX_COST} energy)" in lines
    assert all(e.private == "repairs" for e in sample.log[change.entries])  # the owner's
    assert lancer.state["marks"][0] == 1  # not yet: it waits for the Damage Control phase
    sample.undo()
    assert lancer.state["planned_repairs"] is None
    sample.redo()
    sample.next_phase()
    assert sample.phase == DAMAGE_CONTROL_PHASE and lancer.state["marks"][0] == 0


def test_repairs_past_the_energy_are_dropped_in_the_order_of_the_list_and_said(sample):
    """Seed: 8 energy repair one critical hit; Lancer has 4 Damage Control energy: the ♠
    critical hit listed first is dropped, the Reactor box after it fits."""
    lancer = sample.ship("Lancer")
    change = decide(sample, lancer, "repairs", values_of(
        sample, lancer, "repairs", repair1="critical:spades", repair2="box:1"))
    assert planned_repairs(lancer).boxes == (1, 0, 0) and planned_repairs(lancer).criticals == ()
    lines = log_lines(sample, change)
    assert any(line.startswith("Dropped: ♠ critical hit (the Damage Control energy left (4) "
                               "does not pay for them)") for line in lines), lines


def test_a_list_before_the_energy_waits_for_it_and_is_paid_in_its_order(turn3):
    """One orders file: the repair list travels with the Energy Allocation that pays it.
    Planned before the allocation, it is paid when the allocation is committed; what does
    not fit is dropped then, and said."""
    from shipsheet.rules.war_in_space import commit_energy_action
    lancer = turn3.ship("Lancer")
    lancer.state["marks"][0] = 1  # a Reactor box to repair besides the ♠ critical hit
    decide(turn3, lancer, "repairs", values_of(turn3, lancer, "repairs",
                                              repair1="box:1", repair2="critical:spades"))
    assert lancer.state["planned_repairs"]["order"] == [["box", 0], ["critical", "spades"]]
    # 10♦ with Damage Control: the highest die to Damage Control (dice 3, 2, 2: 3 energy).
    change = turn3.apply(commit_energy_action(lancer, "10D", (3, 2, 2), damage_control=True))
    text = [e.text for e in turn3.log[change.entries]]
    assert any(t.startswith("Dropped: Reactor box, ♠ critical hit") for t in text), text
    assert lancer.state["planned_repairs"] is None


def test_the_repairs_form_states_the_seeds_costs(sample):
    """Seed: "By spending 4 energy points a ship may repair one system box ... By spending 8
    energy points a ship may repair one critical hit"."""
    form = spec(sample, sample.ship("Lancer"), "repairs")
    options = dict((o["value"], o["label"]) for o in form["fields"][0]["options"])
    assert options["box:1"] == "Reactor box (4 energy; 1 marked, die d6)"
    assert options["critical:spades"] == "♠ critical hit (8 energy)"
    assert [f["label"] for f in form["fields"]] == ["Repair 1st", "Repair 2nd"]
    assert "A box costs 4, a critical hit 8." in form["text"]
    assert form["private"] == "repairs"


def test_repairing_what_is_not_damaged_is_refused_and_no_damage_control_drops_all(sample):
    lancer = sample.ship("Lancer")
    refused(sample, lancer, "repairs", values_of(sample, lancer, "repairs",
                                                 repair1="box:1", repair2="box:1"),
            "Reactor has 1 marked box: repairing 2 would lift it above")
    harrier = sample.ship("Harrier")  # no Energy Allocation committed this turn: it waits
    decide(sample, harrier, "repairs", values_of(sample, harrier, "repairs", repair1="box:1"))
    assert harrier.state["planned_repairs"]["order"] == [["box", 0]]


@pytest.mark.parametrize("changes, words", [
    ({"repair1": "box:2"}, "choose one of"),         # Lancer's Drive has no marked box
    ({"repair1": "box:4"}, "choose one of"),         # a fourth system does not exist
    ({"repair1": "critical:hearts"}, "choose one of"),  # ♥ is not locked
    ({"repair3": "box:1"}, "no field named repair3"),   # two damaged things: two places
    ({"box:0:0": 1}, "no field named"),
    ({"repair1": "1" * 10_000}, "choose one of"),
    ({"repair1": 1}, "choose one of"),
])
def test_hostile_repair_values_are_refused(sample, changes, words):
    lancer = sample.ship("Lancer")
    refused(sample, lancer, "repairs", values_of(sample, lancer, "repairs", **changes), words)


def test_every_form_is_plain_json_with_its_values_accepted_as_they_are(sample):
    """What a phone page shows: plain JSON; each field's value is one the field allows."""
    FORMS.assert_plain_json(sample)


# -- taps --------------------------------------------------------------------------------------

def test_damage_boxes_are_marks_and_the_turn_record_is_the_players(sample):
    """A tap on a system box, a critical hit or an explanation of the sheet is the referee's
    (a damage mark); on the energy cells, the dice rolled or the planned repairs it is about
    the owner's own turn record; a key that is no box of the sheet has no answer, so no tap
    on it is taken at all."""
    ship = sample.ship("Vigilant")
    for key in ("box:0:0", "box:1:2", "crit:spades", "crit:diamonds", "ladder:0", "tertiary",
                "lost"):
        assert BOXES.answer(sample, ship, key).right == MARK, key
    for key in ("energy", "repairs", "rolled:0", "rolled:2"):
        assert BOXES.answer(sample, ship, key).right == DECIDE, key
    assert BOXES.answer(sample, sample.ship("Harrier"), "dead").right == MARK
    for key in ("dead", "unknown", "", "rolled:3", "box:0:4", "crit:joker"):
        assert BOXES.answer(sample, ship, key) is None, key
    # A tap on a damage box marks it as the sheet's click does, one box at a time.
    sample.apply(BOXES.answer(sample, ship, "box:0:3").click())
    assert ship.state["marks"] == [1, 2, 0]
