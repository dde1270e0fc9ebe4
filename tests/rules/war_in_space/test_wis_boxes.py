"""The boxes of the War In Space SDS (``rules/war_in_space/boxes.py``): every key the sheet
lays out has the rules' answer, what a click on one does shows on the sheet, and any other
string a phone sends has no answer.

The sample session (``rules/war_in_space/sample.py``) is turn 2, Movement: Vigilant (cruiser:
Reactor d10 4 boxes, Drive d8 3, Fire Control d8 3) has 2 Drive boxes and the ♦ critical
marked, committed K♥ with Damage Control on dice 9, 3, 6 and planned Drive 1 + ♦; Harrier
(escort: Reactor 2 boxes, Drive 3, Fire Control 1) has every box marked: dead in space;
Kestrel (escort) is undamaged, its one mistaken mark corrected.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from shipsheet.model.boxes import BoxAnswer, box_answer
from shipsheet.model.decisions import DECIDE, MARK
from shipsheet.model.games import piece
from shipsheet.rules.war_in_space import (current_die, is_dead_in_space, locked_suits,
                                          marked_boxes, planned_repairs)
from shipsheet.rules.war_in_space.boxes import (BOX, BOXES, CRITICAL, DEAD_KEY, ENERGY_KEY,
                                                LADDER, LOST_KEY, REPAIRS_KEY, ROLLED,
                                                TERTIARY_KEY, box_key, critical_key, ladder_key,
                                                parse_key, rolled_key)
from shipsheet.rules.war_in_space.terms import SUITS

from sheet_pixels import near, sheet_pixel

#: The areas that only explain (a hover shows their tooltip; a click or a tap does nothing).
HOVER_ONLY = (LADDER, ROLLED, TERTIARY_KEY, DEAD_KEY, ENERGY_KEY, REPAIRS_KEY, LOST_KEY)


@pytest.fixture
def sample():
    return piece("war-in-space", "sample")()


def sheet_keys(ship) -> set[str]:
    """Every box the SDS of ``ship`` has now: each system's damage boxes, die ladder and die
    this turn, the four critical boxes, the Tertiary heading, the energy cells, the note on
    lost energy; "dead in space" when it is, the planned repairs when there are some."""
    systems = ship.ship_class.spec.systems
    keys = {box_key(i, k) for i, s in enumerate(systems) for k in range(s.boxes)}
    keys |= {ladder_key(i) for i in range(len(systems))}
    keys |= {rolled_key(i) for i in range(len(systems))}
    keys |= {critical_key(suit) for suit in SUITS}
    keys |= {TERTIARY_KEY, ENERGY_KEY, LOST_KEY}
    if is_dead_in_space(ship):
        keys.add(DEAD_KEY)
    plan = planned_repairs(ship)
    if plan is not None and not plan.is_empty:
        keys.add(REPAIRS_KEY)
    return keys


def answer(session, ship, key) -> BoxAnswer:
    found = BOXES.answer(session, ship, key)
    assert found is not None, key
    return found


def laid_out(session, ship) -> list[str]:
    from shipsheet.sheets import painter_for
    return [area.key for area in painter_for(ship, session).layout()]


#: A damage box's area is the 16-unit box: its centre is on the slash of a marked one.
CENTRE = (8, 8)


def circle_edge(k: int) -> tuple[float, float]:
    """The left edge of the circle around die ``k`` of a ladder, from the ladder area's
    corner (the area starts 3 units left of and above the first die; a die and its arrow
    take 50 units)."""
    return (k * 50 + 2, 11)


# -- every box laid out is answered -------------------------------------------------------------

@pytest.mark.parametrize("with_session", [True, False])
def test_every_box_the_sheet_lays_out_is_answered_with_a_name_a_state_and_a_right(
        qapp, sample, with_session):
    """The SDS places every box of every system, every suit's critical and its explanations
    once, and the rules answer each: a one-line name, the tooltip; a damage box or critical
    tells marked from unmarked and either marks on a click or says why not, with a menu to
    correct a mark; an explanation is hover only. A tap on a damage box, a critical or an
    explanation is the referee's (MARK); on the dice rolled, the energy cells or the planned
    repairs it is about the owner's turn record (DECIDE)."""
    session = sample if with_session else None  # None: a sheet drawn without a session
    for ship in sample.ships:
        keys = laid_out(session, ship)
        assert sorted(keys) == sorted(sheet_keys(ship)), ship.name
        for key in keys:
            found = box_answer(session, ship, key)
            assert found is not None, key
            assert found.label and "\n" not in found.label and found.tooltip, key
            sort = parse_key(key)[0]
            assert found.right == (DECIDE if sort in (ROLLED, ENERGY_KEY, REPAIRS_KEY)
                                   else MARK), key
            if sort in HOVER_ONLY:
                assert found.click is None and found.refusal is None, key
                assert not found.has_menu(), key
                continue
            assert found.state in ("marked", "unmarked"), key
            assert found.tooltip.startswith(f"{found.label}: {found.state}"), key
            marked = found.state == "marked"
            assert (found.click is None) == marked == bool(found.refusal), key
            assert found.has_menu() == marked, key


def test_the_keys_name_what_the_sheet_draws():
    assert [box_key(1, 2), critical_key("clubs"), ladder_key(0), rolled_key(2)] == [
        "box:1:2", "crit:clubs", "ladder:0", "rolled:2"]
    assert parse_key(box_key(0, 3)) == (BOX, 0, 3)
    assert parse_key(critical_key("diamonds")) == (CRITICAL, "diamonds")
    assert parse_key(ladder_key(2)) == (LADDER, 2)
    assert parse_key(rolled_key(1)) == (ROLLED, 1)
    for key in (TERTIARY_KEY, DEAD_KEY, ENERGY_KEY, REPAIRS_KEY, LOST_KEY):
        assert parse_key(key) == (key,)


# -- the words are the sheet's ------------------------------------------------------------------

def test_the_words_are_the_sheets(sample):
    """What the sheet has always said on hover, now the rules' answer."""
    vigilant = sample.ship("Vigilant")
    box = answer(sample, vigilant, "box:0:2")
    assert (box.label, box.state) == ("Reactor box 3 of 4", "unmarked")
    assert box.tooltip == ("Reactor box 3 of 4: unmarked. Click to mark damage: box 1 (boxes "
                           "are marked left to right) gets the slash and Reactor steps from d10 "
                           "to d8. One undo step.")
    drive = answer(sample, vigilant, "box:1:1")  # the second mark, whose repair is planned
    assert drive.tooltip.splitlines() == [
        "Drive box 2 of 3: marked (damage). It took Drive from d6 to d4.",
        "Repair planned (4 Damage Control energy): it takes effect in the Damage Control "
        "phase."]
    assert "Repair planned" not in answer(sample, vigilant, "box:1:0").tooltip
    assert answer(sample, vigilant, "ladder:1").tooltip.startswith(
        "Drive die ladder: d8 → d6 → d4 → 0. It rolls a d4 now; undamaged d8.")
    assert answer(sample, vigilant, "ladder:1").state == "d4"
    rolled = answer(sample, vigilant, "rolled:0")
    assert (rolled.label, rolled.state) == ("Reactor die this turn", "rolled 9")
    assert rolled.tooltip == "Reactor: the die rolled this turn: 9 on its d10"
    assert answer(sample, vigilant, "energy").tooltip.startswith(
        "This turn's energy, committed: Attack 0, Defense 3, Movement 0, Damage Control 15 "
        "(dice [9, 3, 6], K♥).")
    assert answer(sample, vigilant, "repairs").tooltip.startswith(
        "Planned repairs: Drive: 1 box (4 energy); ♦ critical hit (8 energy).\n")
    spades = answer(sample, vigilant, "crit:spades")
    assert (spades.label, spades.state) == ("♠ critical hit", "unmarked")
    assert "House rule WIS-H4 (Jokers are never locked):" in spades.tooltip
    diamonds = answer(sample, vigilant, "crit:diamonds")
    assert diamonds.tooltip.splitlines()[:2] == [
        "♦ critical hit: marked. No card of diamonds may be played for Energy Allocation "
        "until it is repaired (8 Damage Control energy).",
        "Repair planned: it takes effect in the Damage Control phase."]
    # The house readings the sheet's explanations quote.
    for key, rule in (("tertiary", "WIS-H3"), ("ladder:0", "WIS-H2"), ("lost", "WIS-H7")):
        assert f"House rule {rule} (" in answer(sample, vigilant, key).tooltip, key
    harrier = sample.ship("Harrier")
    assert "House rule WIS-H11 (Dead in space):" in answer(sample, harrier, "dead").tooltip
    # A system at 0 counts 0 every turn, rolled or not (Harrier committed nothing).
    assert answer(sample, harrier, "rolled:1").tooltip == "Drive: the die rolled this turn: 0 on its 0"
    kestrel = sample.ship("Kestrel")  # committed 7♠ without Damage Control [WIS-H5]
    assert "House rule WIS-H5 (" in answer(sample, kestrel, "energy").tooltip


# -- what a click does shows on the sheet ----------------------------------------------------------

def test_a_click_on_a_system_box_marks_it_and_the_die_steps_down_on_the_sheet(qapp, sample):
    """A click on any unmarked box marks the system's next box (boxes are marked left to
    right): the first box gets the slash and the circle moves from d10 to d8; the die rolled
    this turn stays what it was rolled on."""
    from shipsheet.sheets import Theme
    mark, accent = Theme.light().mark, Theme.light().accent
    vigilant = sample.ship("Vigilant")
    assert not near(sheet_pixel(sample, vigilant, "box:0:0", *CENTRE), mark)
    assert near(sheet_pixel(sample, vigilant, "ladder:0", *circle_edge(0)), accent)
    assert not near(sheet_pixel(sample, vigilant, "ladder:0", *circle_edge(1)), accent)

    sample.apply(answer(sample, vigilant, "box:0:2").click())
    assert marked_boxes(vigilant, 0) == 1 and current_die(vigilant, 0) == 8
    assert sample.undo_status().undo == "Mark Reactor box"
    assert "Vigilant: Reactor: box 1 of 4 marked; die d10 -> d8" in sample.log_text()
    assert near(sheet_pixel(sample, vigilant, "box:0:0", *CENTRE), mark)
    assert not near(sheet_pixel(sample, vigilant, "box:0:2", *CENTRE), mark)
    assert near(sheet_pixel(sample, vigilant, "ladder:0", *circle_edge(1)), accent)
    assert not near(sheet_pixel(sample, vigilant, "ladder:0", *circle_edge(0)), accent)
    assert answer(sample, vigilant, "box:0:0").state == "marked"
    assert answer(sample, vigilant, "ladder:0").state == "d8"
    assert answer(sample, vigilant, "rolled:0").tooltip == (
        "Reactor: the die rolled this turn: 9 on its d10; its die is d8 now")
    assert "steps from d8 to d6" in answer(sample, vigilant, "box:0:1").tooltip


def test_the_last_box_takes_a_system_to_zero_and_its_boxes_are_then_all_refused(sample):
    """Drive (d4, 2 of 3 marked): its last box takes it to 0 [WIS-H2]; then every Drive box is
    marked, so no box offers a click [WIS-H12]."""
    vigilant = sample.ship("Vigilant")
    last = answer(sample, vigilant, "box:1:2")
    assert "Drive steps from d4 to 0" in last.tooltip
    sample.apply(last.click())
    assert current_die(vigilant, 1) == 0
    assert "(it produces no energy)" in answer(sample, vigilant, "ladder:1").tooltip
    for k in range(3):
        found = answer(sample, vigilant, box_key(1, k))
        assert found.click is None and "is already marked" in found.refusal


def test_a_click_on_a_critical_marks_it_and_locks_the_suit_on_the_sheet(qapp, sample):
    from shipsheet.sheets import Theme
    mark = Theme.light().mark
    vigilant = sample.ship("Vigilant")
    assert not near(sheet_pixel(sample, vigilant, "crit:spades", *CENTRE), mark)
    sample.apply(answer(sample, vigilant, "crit:spades").click())
    assert "spades" in locked_suits(vigilant)
    assert sample.undo_status().undo.startswith("Mark ♠ critical")
    assert near(sheet_pixel(sample, vigilant, "crit:spades", *CENTRE), mark)
    now = answer(sample, vigilant, "crit:spades")
    assert now.state == "marked" and now.click is None
    assert "No card of spades may be played" in now.tooltip


# -- a marked box: the rules' refusal, and the menu's correction --------------------------------------

def test_a_marked_box_refuses_with_the_rules_words_and_its_menu_corrects_the_mark(qapp, sample):
    """A mark is repaired only by Damage Control (4 energy a box [seed]); a mistaken one is
    corrected from the menu, logged as a correction [WIS-H10]."""
    from shipsheet.sheets import Theme
    mark = Theme.light().mark
    vigilant = sample.ship("Vigilant")
    drive = answer(sample, vigilant, "box:1:1")
    assert drive.click is None
    assert drive.refusal == (
        "Drive box 2 of 3 is already marked. A mark is repaired only by Damage Control (4 "
        "energy a box: plan it in the Actions panel; it takes effect in the Damage Control "
        "phase). A mistaken mark: Undo, or right-click ▸ Correct mark (logged as a "
        "correction).")
    assert drive.has_menu()
    assert [label for label, _ in drive.menu] == [
        "Correct mark: Drive box (logged as a correction, not a repair)"]
    sample.apply(drive.menu[0][1]())
    assert marked_boxes(vigilant, 1) == 1 and current_die(vigilant, 1) == 6
    assert sample.undo_status().undo == "Correct mark: Drive box"
    assert sample.log_text().splitlines()[-1].endswith(
        "Vigilant: Correction: Drive box 2 unmarked (a mistaken mark, not a repair); die d6")
    assert not near(sheet_pixel(sample, vigilant, "box:1:1", *CENTRE), mark)
    assert near(sheet_pixel(sample, vigilant, "box:1:0", *CENTRE), mark)
    again = answer(sample, vigilant, "box:1:1")
    assert again.state == "unmarked" and again.click is not None and not again.has_menu()


def test_a_marked_critical_refuses_with_the_rules_words_and_its_menu_unlocks_the_suit(sample):
    vigilant = sample.ship("Vigilant")
    diamonds = answer(sample, vigilant, "crit:diamonds")
    assert diamonds.click is None
    assert diamonds.refusal == (
        "The ♦ critical hit is already marked. It is repaired only by Damage Control (8 "
        "energy: plan it in the Actions panel). A mistaken mark: Undo, or right-click ▸ "
        "Correct mark (logged as a correction).")
    assert [label for label, _ in diamonds.menu] == [
        "Correct mark: ♦ critical (logged as a correction, not a repair)"]
    sample.apply(diamonds.menu[0][1]())
    assert "diamonds" not in locked_suits(vigilant)
    assert "Correction: ♦ critical hit unmarked" in sample.log_text()
    assert answer(sample, vigilant, "crit:diamonds").state == "unmarked"


# -- any other string: no answer --------------------------------------------------------------------

HOSTILE = ["", "box", "box:", "box:0", "box:0:", "box:99:0", "box:0:-1", "box:-1:0", "box:0:4",
           "box:3:0", "box:00:0", "box:0:00", "box:0:0:0", "box:+1:0", "box: 0:0", " box:0:0",
           "BOX:0:0", "box:1e0:0", "box:٠:0", "box:0:²", "box:0:0\n", "box:" + "9" * 5000 + ":0",
           "crit:", "crit:joker", "crit:JOKER", "crit:S", "crit:♠", "crit:Spades", "crit:spades:0",
           "crit:spade", "ladder:", "ladder:3", "ladder:-0", "rolled:3", "rolled:01", "rolled:0.0",
           "tertiary:", "Tertiary", "energy ", "lost:0", "x" * 1_000_000, "é" * 1000,
           "\x00", "dead"]  # Vigilant is not dead in space


@pytest.mark.parametrize("key", HOSTILE, ids=lambda k: repr(k[:20]))
def test_hostile_keys_have_no_answer(sample, key):
    assert BOXES.answer(sample, sample.ship("Vigilant"), key) is None


def test_no_answer_for_a_box_the_sheet_does_not_draw_now(sample):
    """"Dead in space" and the planned repairs are drawn only when they are so."""
    kestrel, harrier = sample.ship("Kestrel"), sample.ship("Harrier")
    assert BOXES.answer(sample, kestrel, "dead") is None
    assert BOXES.answer(sample, kestrel, "repairs") is None
    assert BOXES.answer(sample, harrier, "dead") is not None
    assert BOXES.answer(sample, kestrel, "box:1:2") is not None  # escort: Drive 3 boxes
    assert BOXES.answer(sample, kestrel, "box:2:1") is None  # escort: Fire Control 1 box


_PARTS = st.one_of(st.integers(-3, 12).map(str), st.sampled_from(["", "0", "00", "-0", " 1"]),
                   st.sampled_from(list(SUITS) + ["joker", "S", "♠"]), st.text(max_size=8))
_KEYS = st.one_of(
    st.text(max_size=40),
    st.tuples(st.sampled_from([BOX, CRITICAL, LADDER, ROLLED, TERTIARY_KEY, "dead", "x"]),
              st.lists(_PARTS, max_size=3)).map(lambda t: ":".join([t[0], *t[1]])))


@settings(max_examples=400, deadline=None)
@given(key=_KEYS)
def test_any_string_is_answered_only_when_it_is_a_box_the_sheet_has(key):
    """A phone may send anything: never an exception, an answer only for a box of the SDS."""
    session = _SAMPLE
    for ship in session.ships:
        found = BOXES.answer(session, ship, key)
        assert (found is not None) == (key in _KEYS_OF[ship.id]), (ship.name, key)
        if found is not None:
            assert isinstance(found, BoxAnswer) and found.label


_SAMPLE = piece("war-in-space", "sample")()
_KEYS_OF = {ship.id: sheet_keys(ship) for ship in _SAMPLE.ships}
