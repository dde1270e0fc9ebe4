"""Players and their files: set up as one undo step, each player's file holding their ships
(the others shown without their orders, or withheld), their secret and the moderator's
uid, never a dice seed; in a player file only the player's decisions apply."""

import json
import os
import stat

import pytest

from shipsheet.model import RuleViolation, load_session
from shipsheet.model.actions import SetSide
from shipsheet.model.games import piece
from shipsheet.model.storage import save_session
from shipsheet.pbem import players as P
from shipsheet.pbem import record as R
from shipsheet.pbem.dice import start_verifiable
from shipsheet.rules.fedcom.actions import copy_orders_action, mark_box_action

from pbem_helpers import fedcom_session, fingerprint, give, values_of


@pytest.fixture
def fc():
    return fedcom_session()


# -- setting up the players -------------------------------------------------------------------

def test_players_are_one_undo_step_with_secrets(fc):
    everyone = R.players(fc)
    assert [p.name for p in everyone] == ["Blue", "Red", "Green"]
    assert [[s.name for s in p.own_ships(fc)] for p in everyone] \
        == [["Resolute", "Swift"], ["Hornet", "Lance"], ["Bastion"]]
    assert all(R.is_hex64(p.secret) for p in everyone)
    assert len({p.secret for p in everyone}) == 3
    assert R.role(fc) == "moderator" and R.moderator_uid(fc) == fc.uid
    assert fc.undo_status().undo == "Set play-by-e-mail players"
    assert "Blue: Resolute, Swift" in fc.log_text()
    fc.undo()
    assert R.players(fc) == [] and R.role(fc) is None


def test_setting_players_again_keeps_the_secrets_of_known_players(fc):
    before = {p.name: p.secret for p in R.players(fc)}
    fc.apply(P.set_players_action(fc, [
        P.player_from_items(fc, "blue", ["Blue", "Bastion"]), P.player_from_items(fc, "Red", ["Red"])],
        show_others=True))
    after = {p.name: p.secret for p in R.players(fc)}
    assert after == {"blue": before["Blue"], "Red": before["Red"]}
    assert R.show_others(fc)


def test_a_ship_that_changes_sides_changes_players(fc):
    """A player commands the ships of their sides: a ship moved to another side is its new
    side's player's at once (``record.Player.owns``; as a Table Link seat, rules/RULES.md)."""
    swift = fc.ship("Swift")
    fc.apply(SetSide(swift, "Red"))
    blue, red = R.find_player(fc, "Blue"), R.find_player(fc, "Red")
    assert red.owns(swift) and not blue.owns(swift)
    assert sorted(s.name for s in P.player_session(fc, "Red").ships) == ["Hornet", "Lance", "Swift"]
    assert "Swift" not in [s.name for s in P.player_session(fc, "Blue").ships]


@pytest.mark.parametrize("players, words", [
    ([], "at least one player"),
    ([{"name": "Blue", "sides": ["Blue"]}, {"name": "blue", "sides": ["Red"]}], "two players"),
    ([{"name": "Blue", "sides": ["Blue"]}, {"name": "Fleet", "sides": ["Green"], "ships": []},
      {"name": "Red", "sides": ["Red"]}], None),  # Green exists in the fixture: accepted
    ([{"name": "Blue", "sides": ["Purple"]}], 'no ship is on the side "Purple"'),
    ([{"name": "Blue", "ships": ["nope"]}], 'no ship "nope"'),
    ([{"name": "Blue", "sides": ["Blue"]}, {"name": "Also", "sides": ["Blue"]}],
     "commanded by Blue and Also"),
    ([{"name": "../evil", "sides": ["Blue"]}], "cannot be a player's name"),
    ([{"name": "x" * 41, "sides": ["Blue"]}], "at most 40"),
    ([{"name": "Blue\x1b[2J", "sides": ["Blue"]}], "cannot be a player's name"),
    ([{"name": "Nobody"}], "commands no ship"),
])
def test_bad_players_are_refused_and_nothing_changes(fc, players, words):
    before = fingerprint(fc)
    if words is None:
        fc.apply(P.set_players_action(fc, players))
        return
    with pytest.raises(RuleViolation, match=words.replace("(", r"\(")):
        fc.apply(P.set_players_action(fc, players))
    assert fingerprint(fc) == before


def test_items_are_sides_or_ships_by_name_or_id(fc):
    p = P.player_from_items(fc, "Mixed", ["Green", "Lance", fc.ship("Swift").id])
    assert p.sides == ("Green",) and p.ships == (fc.ship("Lance").id, fc.ship("Swift").id)
    with pytest.raises(RuleViolation, match='"Nowhere" is neither a side nor a ship'):
        P.player_from_items(fc, "Mixed", ["Nowhere"])


# -- a player's file ------------------------------------------------------------------------------

def test_a_player_file_holds_the_players_ships_secret_and_the_moderators_uid(fc, tmp_path):
    before = fingerprint(fc)
    paths = P.export_player_files(fc, tmp_path)
    assert [p.name for p in paths] == ["Blue.shipsheet", "Red.shipsheet", "Green.shipsheet"]
    if os.name == "posix":  # file modes are POSIX's (Windows: the profile folder's access list)
        assert all(stat.S_IMODE(os.stat(p).st_mode) == 0o600 for p in paths)
    blue = load_session(paths[0])
    assert [s.name for s in blue.ships] == ["Resolute", "Swift"]  # others withheld
    assert [s.state for s in blue.ships] == [fc.ship("Resolute").state, fc.ship("Swift").state]
    assert (blue.turn, blue.phase, blue.options) == (fc.turn, fc.phase, fc.options)
    assert blue.pbem["role"] == "player" and blue.pbem["player"] == "Blue"
    assert blue.pbem["session"] == fc.uid and blue.uid != fc.uid
    own = R.own_player(blue)
    assert own == R.find_player(fc, "Blue")
    assert [p["name"] for p in blue.pbem["players"]] == ["Blue"]  # no other secret
    text = paths[0].read_text("utf-8")
    for other in ("Red", "Green"):
        assert R.find_player(fc, other).secret not in text
    # The log: lines about the player's own ships only.
    assert blue.log and {e.ship for e in blue.log} <= {s.id for s in blue.ships}
    assert "Set play-by-e-mail players" not in blue.log_text()
    assert blue.dice.seed != fc.dice.seed
    assert fingerprint(fc) == before  # the moderator's session is not changed


def test_a_player_file_takes_only_its_players_decisions_and_says_where_they_are_made(fc, tmp_path):
    """``guard_for``: in a player file every change but the player's own decisions is
    refused, with the hint of where decisions are made; a moderator's session has no guard."""
    assert P.guard_for(fc, "Decide in the Decisions panel.") is None  # the moderator's
    assert P.role_of(fc) == "moderator" and P.role_of(None) is None
    blue = load_session(P.export_player_files(fc, tmp_path)[0])
    guard = P.guard_for(blue, "Decide in the Decisions panel.")
    assert P.role_of(blue) == "player" and guard is not None
    why = guard(SetSide(blue.ship("Resolute"), "Red"))
    assert why and why.endswith("Decide in the Decisions panel.")


def test_other_ships_are_shown_without_their_orders(fc):
    fc.apply(P.set_players_action(fc, [P.player_from_items(fc, n, [n]) for n in ("Blue", "Red", "Green")],
                                  show_others=True))
    resolute = fc.ship("Resolute")
    fc.apply(copy_orders_action(resolute))
    assert resolute.state["orders"] and resolute.state["next_orders"]
    red = P.player_session(fc, "Red")
    assert [s.name for s in red.ships] == [s.name for s in fc.ships]
    shown = red.ship("Resolute")
    assert shown.state["orders"] == {} and shown.state["next_orders"] is None
    assert shown.state["destroyed"] == resolute.state["destroyed"]
    assert red.turn_start[shown.id]["orders"] == {}
    assert "ph-5" not in json.dumps(red.pbem) and resolute.state["orders"]  # moderator's untouched
    assert red.ship("Hornet").state == fc.ship("Hornet").state  # own ships as they are


def test_the_public_state_is_a_copy_less_what_the_game_keeps_private():
    from shipsheet.model.privacy import public_state
    wis = piece("war-in-space", "sample")()
    ship = wis.ships[0]
    assert wis.phase != "Energy Allocation"  # the cards of this turn are revealed
    public = public_state(wis, ship)
    assert public is not ship.state
    assert public == {**ship.state, "planned_repairs": None}  # the plan stays the owner's


def test_a_player_file_never_holds_the_seed_of_a_turn_not_closed(fc, tmp_path):
    from shipsheet.pbem.turns import close_orders, close_turn
    start_verifiable(fc)
    seeds = dict(fc.pbem["dice"]["seeds"])
    path = P.export_player_files(fc, tmp_path / "open")[0]
    text = path.read_text("utf-8")
    assert all(seed not in text for seed in seeds.values())
    blue = load_session(path)
    assert blue.pbem["dice"]["commitments"] == fc.pbem["dice"]["commitments"]
    assert blue.pbem["dice"]["seeds"] == {}
    assert str(fc.dice.seed) not in text
    # Once the turn is closed, its seed goes out (so its player can check its rolls), and
    # only its: the next turns' stay secret.
    turn = fc.turn
    close_orders(fc)
    close_turn(fc)
    text = P.export_player_files(fc, tmp_path / "closed")[0].read_text("utf-8")
    assert seeds[str(turn)] in text
    assert all(h not in text for t, h in fc.pbem["dice"]["seeds"].items() if int(t) > turn)


def test_a_player_file_for_an_unknown_player_or_without_players_is_refused(fc):
    with pytest.raises(RuleViolation, match='no player called "Yellow"'):
        P.player_session(fc, "Yellow")
    plain = piece("fedcom", "sample")()
    with pytest.raises(RuleViolation, match="Set up the players first"):
        P.export_player_files(plain, "/nonexistent")


# -- in a player file, only decisions ------------------------------------------------------------

def test_only_the_players_decisions_apply_in_a_player_file(fc):
    blue = P.player_session(fc, "Blue")
    resolute = blue.ship("Resolute")
    damage = mark_box_action(resolute, "ph-1")
    assert "only Blue's decisions" in P.may_apply(blue, damage)
    decision = P.Decision(blue, resolute, "orders", values_of(blue, resolute, "orders", first="ph-2"))
    assert P.may_apply(blue, decision) is None
    assert P.may_apply(fc, damage) is None  # the moderator does everything
    change = P.decide(blue, resolute, "orders", values_of(blue, resolute, "orders", first="ph-2"))
    assert resolute.state["orders"]["first"] == ["ph-2"]
    assert blue.pbem["decided"][str(blue.turn)][-1]["form"] == "orders"
    blue.undo()
    assert "first" not in resolute.state["orders"] and blue.pbem.get("decided", {}) == {}
    assert change.name.startswith("Standing orders")


def test_a_player_decides_only_for_their_own_ships(fc):
    fc.apply(P.set_players_action(fc, [P.player_from_items(fc, n, [n]) for n in ("Blue", "Red", "Green")],
                                  show_others=True))
    blue = P.player_session(fc, "Blue")
    hornet = blue.ship("Hornet")
    with pytest.raises(RuleViolation, match="not Blue's ship"):
        P.decide(blue, hornet, "turn_state", {"box": "ph-1", "state": "fired"})
    with pytest.raises(RuleViolation, match="not a player file"):
        P.decide(fc, "Resolute", "turn_state", {"box": "ph-1", "state": "fired"})


def test_a_decision_that_needs_the_moderators_dice_is_recorded_not_applied():
    wis = piece("war-in-space", "sample")()
    wis.next_turn()
    wis.apply(P.set_players_action(wis, [P.player_from_items(wis, "Concord", ["Concord"])]))
    ps = P.player_session(wis, "Concord")
    count = ps.dice.count
    P.decide(ps, "Vigilant", "energy", {"card": "QH", "damage_control": True, "die1": 3,
                                        "die2": 2, "die3": 1})
    vigilant = ps.ship("Vigilant")
    assert vigilant.state["energy"] is None and ps.dice.count == count
    [order] = ps.pbem["decided"]["3"]
    assert order["values"]["card"] == "QH" and order["values"]["die1"] is None
    # Deciding again replaces it; a refusal is the rules' words, as the moderator would say.
    P.decide(ps, "Vigilant", "energy", {"card": "KH"})
    assert [o["values"]["card"] for o in ps.pbem["decided"]["3"]] == ["KH"]
    with pytest.raises(RuleViolation, match="Joker"):
        P.decide(ps, "Vigilant", "energy", {"card": "QH", "joker1": "attack"})


# -- a hostile record ------------------------------------------------------------------------------

@pytest.mark.parametrize("change, words", [
    (lambda r: r.update(role="king"), "role"),
    (lambda r: r["players"][0].update(secret="00"), "players[0].secret"),
    (lambda r: r["players"][1].update(name="Blue"), "named twice"),
    (lambda r: r["players"][0].update(sides="Blue"), "players[0].sides"),
    (lambda r: r.update(players={"Blue": 1}), "players"),
    (lambda r: r["players"][0].update(name="a/b"), "players[0].name"),
])
def test_a_damaged_record_is_refused_with_its_key_path(fc, tmp_path, change, words):
    change(fc.pbem)
    path = tmp_path / "hostile.shipsheet"
    save_session(fc, path)
    loaded = load_session(path)  # the file loads: the record is checked when it is used
    with pytest.raises(R.RecordError, match=words.replace("[", r"\[").replace("]", r"\]")):
        R.players(loaded) if words != "role" else R.role(loaded)
    with pytest.raises(RuleViolation):
        P.export_player_files(loaded, tmp_path / "out")
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_a_player_file_gives_no_moderator_rights(fc):
    blue = P.player_session(fc, "Blue")
    with pytest.raises(RuleViolation, match="player file"):
        blue.apply(P.set_players_action(blue, [{"name": "Blue", "sides": ["Blue"]}]))
    with pytest.raises(RuleViolation, match="Set up the players first"):
        P.player_session(blue, "Blue")
    give(blue, "Resolute", "orders", first="ph-3")  # a scripted edit of its own orders works
