"""Federation Commander decisions as forms (a phone, an orders file): standing orders, their
copy to the next turn, a box's turn state and repairs, filled with checked values and
applied as the orders editor, the sheet and the Actions panel apply them.

The sample session (``sample.py``) is turn 2, Combat: Resolute's orders (copied from turn
1) are hit last ph-5 and frame instead of the last lab; Swift (damage control 2) lost
reactor-1 and ph-3; Hornet (damage control 3) lost aft-hull-1, lab-1 and more; every box
of Lance is destroyed.
"""

import pytest

from decisions_helpers import DecisionsHelpers, log_lines
from shipsheet.model.decisions import DECIDE, MARK
from shipsheet.model.games import piece
from shipsheet.rules import fedcom as fc
from shipsheet.rules.fedcom.boxes import BOXES
from shipsheet.rules.fedcom.decisions import DECISIONS


FORMS = DecisionsHelpers(DECISIONS)
kinds, spec, values_of, decide, refused = FORMS.functions()


@pytest.fixture
def sample():
    return piece("fedcom", "sample")()


def details(session, change):
    """The change's log lines after its name."""
    return log_lines(session, change)[1:]


# -- what is offered -------------------------------------------------------------------------

def test_forms_offered_now(sample):
    assert kinds(sample, sample.ship("Resolute")) == ["orders", "copy_orders", "turn_state"]
    assert kinds(sample, sample.ship("Swift")) == ["orders", "turn_state", "repair"]
    assert kinds(sample, sample.ship("Lance")) == ["orders", "repair"]  # no intact box left


def test_a_destroyed_ship_decides_nothing(sample):
    lance = sample.ship("Lance")
    sample.apply(fc.volley_action(lance, 60, shield=1))
    assert lance.state["ship_destroyed"]
    assert DECISIONS.forms(sample, lance) == []
    refused(sample, lance, "orders", {}, 'no decision "orders"')


# -- standing orders -------------------------------------------------------------------------

def test_the_orders_form_shows_the_orders_in_force(sample):
    values = values_of(sample, sample.ship("Resolute"), "orders")
    assert (values["first"], values["last"]) == ("", "ph-5")
    assert values["frame:lab"] is True and values["frame:phaser"] is False
    assert values["frame_skip"] is False
    assert (values["heavy1"], values["heavy2"]) == (None, None)  # the card's order


def test_hit_first_changes_the_ddap_order_and_undo_restores_it(sample):
    """[seed 8FC3] "The players have the option, at any time PRIOR to the actual damage being
    scored, to override the DDAP"; [FC-H8] first, the DDAP order, then last."""
    resolute = sample.ship("Resolute")
    before = fc.hit_order(resolute, "phaser")
    assert before[-1] == "ph-5"
    change = decide(sample, resolute, "orders", values_of(sample, resolute, "orders",
                                                          first="ph-1, ph-2"))
    assert change.name == "Standing orders: hit first"
    assert "hit first: ph-1, ph-2" in details(sample, change)
    assert resolute.state["orders"]["first"] == ["ph-1", "ph-2"]
    order = fc.hit_order(resolute, "phaser")
    assert order[:2] == ["ph-1", "ph-2"] and order[-1] == "ph-5"
    sample.undo()
    assert fc.hit_order(resolute, "phaser") == before
    assert "first" not in resolute.state["orders"]


def test_frame_instead_and_the_heavy_weapon_order(sample):
    """[seed 8FC3] frame instead of a last box; [FC-H13] the owner's type order."""
    resolute = sample.ship("Resolute")
    change = decide(sample, resolute, "orders", values_of(
        sample, resolute, "orders", **{"frame:lab": False, "frame:phaser": True,
                                       "frame_skip": True, "heavy1": "disruptor",
                                       "heavy2": "photon"}))
    orders = fc.orders_of(resolute)
    assert orders.frame_instead_of_last == ("phaser",)
    assert orders.frame_instead_of_skip is True
    assert orders.heavy_weapon_order == ("disruptor", "photon")
    assert change.name == ("Standing orders: frame instead of the last box, frame instead of "
                           "skipping, heavy-weapon order disruptor → photon")
    assert "heavy-weapon order: disruptor, photon" in details(sample, change)


def test_clearing_every_order_gives_the_ddap_back(sample):
    resolute = sample.ship("Resolute")
    change = decide(sample, resolute, "orders", values_of(sample, resolute, "orders", last="",
                                                          **{"frame:lab": False}))
    assert change.name == "Standing orders: none (the DDAP decides)"
    assert resolute.state["orders"] == {}
    assert details(sample, change) == ["no standing orders: the DDAP applies"]


def test_an_order_for_a_destroyed_box_is_kept_with_the_rules_note(sample):
    """[seed 8FC4] an illegal order falls back on the default order; the log says so."""
    swift = sample.ship("Swift")
    change = decide(sample, swift, "orders", values_of(sample, swift, "orders", first="ph-3"))
    assert any("that box is already destroyed" in line for line in details(sample, change))


def test_orders_refusals_say_why(sample):
    resolute = sample.ship("Resolute")
    base = values_of(sample, resolute, "orders")
    refused(sample, resolute, "orders", base, "standing orders already")
    refused(sample, resolute, "orders", {**base, "first": "ph-5"}, "house rule FC-H7")
    refused(sample, resolute, "orders", {**base, "heavy1": "photon"},
            "Rank every heavy-weapon type (photon, disruptor)")
    refused(sample, resolute, "orders", {**base, "heavy1": "photon", "heavy2": "photon"},
            "photon is ranked twice")


@pytest.mark.parametrize("changes, words", [
    ({"first": "ph-99"}, 'Resolute has no box "ph-99"'),
    ({"first": "ph-1, ../../etc/passwd"}, "has no box"),
    ({"first": "ph-1 ph-1"}, "ph-1 is listed twice"),
    ({"last": "ph-5, frame"}, 'no box "frame"'),
    ({"first": "ph-1, " * 2000}, "characters of text"),   # 10 KB
    ({"first": ["ph-1"]}, "characters of text"),
    ({"first": 5}, "characters of text"),
    ({"frame:lab": "no"}, "yes or no"),
    ({"frame:warp-core": True}, "no field named frame:warp-core"),
    ({"heavy1": "plasma-R", "heavy2": "photon"}, "choose one of photon, disruptor"),
    ({"heavy3": "photon"}, "no field named heavy3"),
    ({"order": {"phaser": ["ph-1"]}}, "no field named order"),
])
def test_hostile_orders_are_refused(sample, changes, words):
    resolute = sample.ship("Resolute")
    refused(sample, resolute, "orders", values_of(sample, resolute, "orders", **changes), words)


def test_copying_orders_to_the_next_turn(sample):
    """[seed 8FC3] "The info would have to be in each and every SOP that you want it to
    apply"; an edit while they are copied is copied too."""
    resolute = sample.ship("Resolute")
    assert values_of(sample, resolute, "copy_orders") == {"copy": False}
    refused(sample, resolute, "copy_orders", {"copy": False}, "are not copied")
    change = decide(sample, resolute, "copy_orders", {"copy": True})
    assert change.name == "Copy orders to next turn"
    assert resolute.state["next_orders"] == resolute.state["orders"]
    refused(sample, resolute, "copy_orders", {"copy": True}, "already copied")
    decide(sample, resolute, "orders", values_of(sample, resolute, "orders", first="ph-1"))
    assert resolute.state["next_orders"]["first"] == ["ph-1"]
    sample.next_phase()  # Repair
    sample.next_phase()  # turn 3: the copy is the new turn's orders
    assert fc.orders_of(resolute).first == ("ph-1",)
    assert "copy_orders" not in kinds(sample, sample.ship("Swift"))  # no orders to copy


# -- turn states -----------------------------------------------------------------------------

def test_a_turn_state_is_set_as_a_click_on_the_box_sets_it(sample):
    resolute = sample.ship("Resolute")
    form = spec(sample, resolute, "turn_state")
    boxes = {o["value"]: o["label"] for o in form["fields"][0]["options"]}
    assert boxes["photon-2"] == "photon-2 (torpedo: charging)"
    change = decide(sample, resolute, "turn_state", {"box": "ph-2", "state": "fired"})
    assert change.name == "Set ph-2 fired"
    assert details(sample, change) == ["ph-2: unfired → fired"]
    assert fc.turn_state(resolute, "ph-2") == "fired"
    sample.undo()
    assert fc.turn_state(resolute, "ph-2") == "unfired"


def test_turn_state_refusals_are_the_rules_words(sample):
    resolute = sample.ship("Resolute")
    refused(sample, resolute, "turn_state", {"box": "ph-2", "state": "charging"},
            'A phaser (ph-2) can be unfired, fired; not "charging"')
    refused(sample, resolute, "turn_state", {"box": "photon-2", "state": "charging"},
            "photon-2 is charging already")


@pytest.mark.parametrize("ship, values, words", [
    ("Swift", {"box": "ph-3", "state": "fired"}, "Box: choose one of"),    # destroyed
    ("Resolute", {"box": "ph-99", "state": "fired"}, "Box: choose one of"),
    ("Resolute", {"box": "ph-1", "state": "exploded"}, "This turn: choose one of"),
    ("Resolute", {"box": "ph-1"}, "This turn: a value is needed"),
    ("Resolute", {"box": "ph-1" * 3000, "state": "fired"}, "choose one of"),
    ("Resolute", {"box": "ph-1", "state": "fired", "drones": 3}, "no field named drones"),
])
def test_hostile_turn_states_are_refused(sample, ship, values, words):
    refused(sample, sample.ship(ship), "turn_state", values, words)


# -- repair ----------------------------------------------------------------------------------

def test_repair_spends_the_damage_control_rating_in_the_order_chosen(sample):
    """[FC] costs: hull 1, ship systems 2, power 3, weapons 4; Hornet's damage control is 3."""
    hornet = sample.ship("Hornet")
    change = decide(sample, hornet, "repair", {"repair1": "aft-hull-1", "repair2": "lab-1"})
    assert change.name == "Repair aft-hull-1, lab-1"
    assert details(sample, change) == ["aft-hull-1 repaired (1 of 1 points)",
                                       "lab-1 repaired (2 of 2 points)",
                                       "3 of 3 repair points used"]
    assert not {"aft-hull-1", "lab-1"} & set(hornet.state["destroyed"])
    assert "repair" not in kinds(sample, hornet)  # no points left this turn
    sample.undo()
    assert "aft-hull-1" in hornet.state["destroyed"] and "repair" in kinds(sample, hornet)


def test_points_short_of_a_box_carry_to_the_next_turn(sample):
    """[FC-H10] Swift's 2 points go toward reactor-1 (power, 3 points)."""
    swift = sample.ship("Swift")
    assert [f["name"] for f in spec(sample, swift, "repair")["fields"]] == ["repair1", "repair2"]
    decide(sample, swift, "repair", {"repair1": "reactor-1"})
    assert swift.state["repair"] == {"box": "reactor-1", "points": 2}


def test_the_repair_form_names_each_boxs_cost_and_the_points_left(sample):
    """[FC] costs: hull 1, ship systems 2, power 3, weapons 4; Hornet's damage control is 3.
    [FC-H10] points paid toward a box carry to the next turn."""
    hornet = sample.ship("Hornet")
    form = spec(sample, hornet, "repair")
    labels = {o["value"]: o["label"] for o in form["fields"][0]["options"]}
    assert (labels["aft-hull-1"], labels["lab-1"], labels["right-warp-1"], labels["ph-3"]) == (
        "aft-hull-1 (1 point)", "lab-1 (2 points)", "right-warp-1 (3 points)", "ph-3 (4 points)")
    assert form["text"].startswith("3 of 3 repair points left this turn")
    swift = sample.ship("Swift")
    decide(sample, swift, "repair", {"repair1": "reactor-1"})
    sample.next_phase()  # Repair
    sample.next_phase()  # turn 3: Swift's 2 points are back, 2 already paid toward reactor-1
    form = spec(sample, swift, "repair")
    labels = {o["value"]: o["label"] for o in form["fields"][0]["options"]}
    assert labels["reactor-1"] == "reactor-1 (3 points, 2 paid)"
    assert form["text"].startswith("2 of 2 repair points left this turn")


@pytest.mark.parametrize("values, words", [
    ({}, "Choose a box to repair"),
    ({"repair1": "ph-1"}, "Repair 1st: choose one of"),          # not destroyed
    ({"repair1": "frame"}, "choose one of"),
    ({"repair1": "reactor-1", "repair2": "reactor-1"}, "reactor-1 is listed twice"),
    ({"repair1": "reactor-1", "repair3": "ph-3"}, "no field named repair3"),
    ({"repair1": 1}, "choose one of"),
])
def test_hostile_repairs_are_refused(sample, values, words):
    refused(sample, sample.ship("Swift"), "repair", values, words)


def test_every_form_is_plain_json_with_its_values_accepted_as_they_are(sample):
    """What a phone page shows: plain JSON; each field's value is one the field allows."""
    FORMS.assert_plain_json(sample)


# -- taps ----------------------------------------------------------------------------------

def test_box_taps_set_turn_states_and_shields_and_frame_are_marks(sample):
    """A tap on a box of the card is the owner's decision (its turn state); a tap on a
    shield or frame box is a damage mark, the referee's; a key that is no box of the card
    has no answer, so no tap on it is taken at all."""
    ship = sample.ship("Resolute")
    for key in ("box:ph-1", "box:photon-2", "box:drone-1", "box:tractor-1"):
        assert BOXES.answer(sample, ship, key).right == DECIDE
    for key in ("shield:1:3", "frame:2"):
        assert BOXES.answer(sample, ship, key).right == MARK
    for key in ("box:ph-99", "box:", "ph-1", ""):
        assert BOXES.answer(sample, ship, key) is None
    # A tap sets the turn state as the form does (the owner's decision), one click at a time.
    sample.apply(BOXES.answer(sample, ship, "box:ph-2").click())
    assert fc.turn_state(ship, "ph-2") == "fired"


def test_ordinals_of_the_heavy_weapon_ranks_read_as_english():
    from shipsheet.model.text import ordinal as _ordinal  # one for every game and the card
    assert [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]
