"""Orders files: out of a player's file (checked against the rules first), into the
moderator's session (each checked: session, turn, player, authentic, no replay, legal),
one undo step per accepted file; the turn desk; hostile files refused, changing nothing."""

import json
import shutil

import pytest

from shipsheet.model import RuleViolation, load_session
from shipsheet.model.storage import save_session
from shipsheet.pbem import inbox as I
from shipsheet.pbem import orders as O
from shipsheet.pbem import players as P
from shipsheet.pbem import record as R
from shipsheet.pbem.desk import turn_desk
from shipsheet.pbem.dice import start_verifiable
from shipsheet.pbem.turns import close_orders
from shipsheet.rules.triplanetary.recovery import recovery_choice
from shipsheet.rules.war_in_space import committed_allocation

from shipsheet.pbem import ledger
from pbem_helpers import (GAMES, fedcom_session, fingerprint, game_state, give, play,
                          player_files, values_of)


def desk(session):
    return {row.player: (row.status, row.seq) for row in turn_desk(session)}


def export(ps, path):
    """A player exports this turn's orders, after looking at the warnings; saves the file."""
    orders = O.current_orders(ps)
    assert O.order_warnings(ps, orders) == []
    return O.export_orders(ps, ps.turn, path)


def tampered(path, tmp_path):
    """The file with one byte of its orders changed (still valid JSON)."""
    raw = path.read_bytes()
    at = raw.index(b'"first": "ph-1') + len(b'"first": "ph-')
    bad = tmp_path / f"tampered-{path.name}"
    bad.write_bytes(raw[:at] + b"3" + raw[at + 1:])
    return bad


# -- the whole cycle, Federation Commander --------------------------------------------------------

def test_the_fedcom_cycle_three_players_a_tampered_and_a_replayed_file(tmp_path):
    s = fedcom_session()
    files = player_files(s, tmp_path)
    assert set(files) == {"Blue", "Red", "Green"}
    _, edit = GAMES["fedcom"]
    sent = {}
    for name, path in files.items():
        ps = play(path, edit, name)
        sent[name] = export(ps, tmp_path / f"{name}-t2.orders.json")
        save_session(ps, path)
    blue_orders = json.loads(sent["Blue"].read_text("utf-8"))
    assert [o["form"] for o in blue_orders["orders"]] == ["turn_state", "orders"]
    assert blue_orders["seq"] == 1 and blue_orders["turn"] == 2 and blue_orders["session"] == s.uid
    assert R.sent(load_session(files["Blue"])) == {2: 1}

    bad = tampered(sent["Blue"], tmp_path)
    state = game_state(s)
    results = I.import_orders(s, [bad])
    assert [r.status for r in results] == ["refused"] and "not authentic" in results[0].reason
    assert game_state(s) == state and desk(s)["Blue"] == ("missing", None)

    results = I.import_orders(s, [sent["Blue"], sent["Red"], sent["Green"], sent["Blue"]])
    assert [r.status for r in results] == ["accepted", "accepted", "accepted", "duplicate"]
    assert results[0].reason.startswith("applied as one step: orders from Blue for turn 2")
    resolute, hornet, bastion = s.ship("Resolute"), s.ship("Hornet"), s.ship("Bastion")
    assert resolute.state["orders"]["first"] == ["ph-1", "ph-2"]
    assert resolute.state["turn"]["ph-4"] == "fired"
    assert hornet.state["orders"] == {"first": ["drone-2"], "frame_instead_of_skip": True}
    assert bastion.state["orders"] == {"last": ["ph-1"]}
    assert desk(s) == {"Blue": ("applied", 1), "Red": ("applied", 1), "Green": ("applied", 1)}
    text = s.log_text()
    for name in ("Blue", "Red", "Green"):
        assert f"orders from {name} for turn 2" in text

    # Undo takes back one file's orders, in one step.
    assert s.undo_status().undo == "orders from Green for turn 2"
    s.undo()
    assert bastion.state["orders"] == {} and desk(s)["Green"] == ("missing", None)
    assert hornet.state["orders"]["first"] == ["drone-2"]
    s.redo()

    # The next turn: Blue's orders of turn 2 again are a replay; Red's illegal orders are
    # refused; Green sends nothing.
    s.next_turn()
    files = player_files(s, tmp_path / "t3")
    before = fingerprint(s)
    [replay] = I.import_orders(s, [sent["Blue"]])
    assert replay.status == "refused" and "replay" in replay.reason
    assert fingerprint(s) == before
    ps = load_session(files["Blue"])
    give(ps, "Swift", "orders", last="ph-1")
    blue3 = export(ps, tmp_path / "Blue-t3.orders.json")
    red = load_session(files["Red"])
    lance = red.ship("Lance")
    illegal = [{"ship": lance.id, "form": "orders",
                "values": values_of(red, lance, "orders", first="warp-99")}]
    assert any('no box "warp-99"' in w for w in O.order_warnings(red, illegal))
    red3 = O.export_orders(red, red.turn, tmp_path / "Red-t3.orders.json", illegal)
    state = game_state(s)
    results = I.import_orders(s, [blue3, red3])
    assert [r.status for r in results] == ["accepted", "refused"]
    assert 'no box "warp-99"' in results[1].reason
    assert desk(s) == {"Blue": ("applied", 1), "Red": ("refused", 1), "Green": ("missing", None)}
    assert turn_desk(s)[1].reason.startswith("refused: order 1 (Lance, Standing orders)")
    assert s.undo_status().undo == "refused orders from Red for turn 3"
    s.undo()  # the desk's note of the refusal: one step, nothing else
    assert desk(s)["Red"] == ("missing", None) and desk(s)["Blue"] == ("applied", 1)
    assert s.ship("Swift").state["orders"] == {"last": ["ph-1"]}


def test_war_in_space_energy_as_orders_the_moderator_rolls_the_dice(tmp_path):
    s, edit = GAMES["war-in-space"][0](), GAMES["war-in-space"][1]
    start_verifiable(s)
    files = player_files(s, tmp_path)
    sent = []
    for name, path in files.items():
        ps = play(path, edit, name)
        assert all(sh.state["energy"] is None for sh in ps.ships)  # left for the moderator
        sent.append(export(ps, tmp_path / f"{name}.orders.json"))
    data = json.loads(sent[0].read_text("utf-8"))
    energy = data["orders"][0]["values"]
    assert energy["card"] == "QH" and energy["damage_control"] is True
    assert energy["die1"] is None and energy["die2"] is None and energy["die3"] is None
    rolls = s.dice.count
    results = I.import_orders(s, sent)
    # Verifiable dice: queued while the turn's orders are open, nothing rolled yet.
    assert [r.status for r in results] == ["queued", "queued"]
    assert s.dice.count == rolls and s.ship("Lancer").state["energy"] is None
    assert desk(s) == {"Concord": ("queued", 1), "Hegemony": ("queued", 1)}
    close_orders(s)  # the set is fixed; the orders applied in the players' order, dice rolled
    vigilant = committed_allocation(s.ship("Vigilant"))
    assert vigilant.card == "QH" and vigilant.damage_control_announced
    joker = s.ship("Resolute").state["energy"]
    assert joker["card"] == "JOKER"
    assert committed_allocation(s.ship("Lancer")).card == "9D"
    assert s.dice.count > rolls  # the moderator's dice
    rolled = [e for e in s.log if e.kind == "roll" and e.turn == 3]
    assert rolled and all(e.roll is not None and e.roll[0] == 3 for e in rolled)
    assert desk(s) == {"Concord": ("applied", 1), "Hegemony": ("applied", 1)}
    s.undo()  # Close Orders: every order and roll of it goes, in one step
    assert s.ship("Lancer").state["energy"] is None and s.dice.count == rolls
    assert desk(s)["Hegemony"] == ("queued", 1)


def test_war_in_space_dice_in_orders_are_refused(tmp_path):
    s = GAMES["war-in-space"][0]()
    ps = P.player_session(s, "Concord")
    vigilant = ps.ship("Vigilant")
    cheat = [{"ship": vigilant.id, "form": "energy",
              "values": {"card": "QH", "die1": 10, "die2": 6, "die3": 8}}]
    assert any("the dice are the moderator's to roll" in w for w in O.order_warnings(ps, cheat))
    path = O.export_orders(ps, ps.turn, tmp_path / "cheat.orders.json", cheat)
    state = game_state(s)
    [result] = I.import_orders(s, [path])
    assert result.status == "refused" and "moderator's to roll" in result.reason
    assert game_state(s) == state


def test_triplanetary_recovery_choices_as_orders(tmp_path):
    s, edit = GAMES["triplanetary"][0](), GAMES["triplanetary"][1]
    files = player_files(s, tmp_path)
    sent = [export(play(path, edit, name), tmp_path / f"{name}.orders.json")
            for name, path in files.items()]
    assert [o["form"] for o in json.loads(sent[0].read_text())["orders"]] == ["recovery"]
    results = I.import_orders(s, sent)
    assert [r.status for r in results] == ["accepted", "accepted"]
    assert tuple(recovery_choice(s.ship("Vigilant"))) == ("weapon", "drive")
    assert tuple(recovery_choice(s.ship("Raven"))) == ("structure",)
    assert desk(s) == {"Mars Patrol": ("applied", 1), "Pirates": ("applied", 1)}
    s.undo()
    assert not recovery_choice(s.ship("Raven"))


# -- what the player's orders say, and the warnings -----------------------------------------------

def test_orders_are_what_the_player_changed_through_the_forms():
    s = fedcom_session()
    ps = P.player_session(s, "Blue")
    assert O.current_orders(ps) == []
    give(ps, "Swift", "orders", last="ph-1")
    [order] = O.current_orders(ps)
    assert order["form"] == "orders" and order["values"]["last"] == "ph-1"
    give(ps, "Swift", "orders", last="")  # changed back: nothing to send
    assert O.current_orders(ps) == []
    # Damage marked in a player file never becomes an order.
    from shipsheet.rules.fedcom.actions import mark_box_action
    ps.apply(mark_box_action(ps.ship("Swift"), "ph-1"))
    assert O.current_orders(ps) == []


def test_warnings_show_every_order_the_ddap_would_ignore_and_why():
    s = fedcom_session()
    blue = P.player_session(s, "Blue")
    swift = blue.ship("Swift")
    assert "ph-3" in swift.state["destroyed"]
    give(blue, swift, "orders", first="ph-3")
    warnings = O.order_warnings(blue, O.current_orders(blue))
    assert any('"ph-3" not applied: that box is already destroyed' in w for w in warnings)
    green = P.player_session(s, "Green")
    give(green, "Bastion", "orders", first="center-warp-1", last="fighter-bay-2")
    warnings = O.order_warnings(green, O.current_orders(green))
    assert any("center-warp-1" in w and "never names center-warp" in w for w in warnings)
    assert any("fighter-bay-2" in w and "never reaches it" in w for w in warnings)
    # Vague orders (a box in both lists) are refused by the form itself.
    bastion = green.ship("Bastion")
    vague = [{"ship": bastion.id, "form": "orders",
              "values": values_of(green, bastion, "orders", first="ph-1", last="ph-1")}]
    assert any("vague" in w and "would be refused" in w for w in O.order_warnings(green, vague))
    # Another player's ship: withheld from the file, or shown.
    hornet = s.ship("Hornet")
    theirs = [{"ship": hornet.id, "form": "orders", "values": {"first": "ph-1"}}]
    assert any("there is no ship" in w for w in O.order_warnings(green, theirs))
    s.apply(P.set_players_action(s, R.players(s), show_others=True))
    green = P.player_session(s, "Green")
    assert any("Hornet is not Green's ship" in w for w in O.order_warnings(green, theirs))


def test_warnings_show_frame_orders_the_rules_would_not_apply():
    """[FC-H6] Frame orders are not applied when no frame box is left (frame damage would
    destroy the ship); a frame order for a kind the chart never names [seed 8FC2: each
    point hits the kind its chart cell names] does nothing. Both are said before sending."""
    from shipsheet.rules.fedcom.actions import mark_frame_action
    from shipsheet.rules.fedcom.card import card
    s = fedcom_session()
    hornet = s.ship("Hornet")
    s.apply(mark_frame_action(hornet, card(hornet).frame))
    red = P.player_session(s, "Red")
    give(red, "Hornet", "orders", frame_skip=True)
    assert O.order_warnings(red, O.current_orders(red)) == [
        "Hornet: Frame orders not applied: no frame box is left, so frame damage would "
        "destroy the ship (house rule FC-H6)."]
    green = P.player_session(s, "Green")
    give(green, "Bastion", "orders", **{"frame:fighter-bay": True})
    [warning] = O.order_warnings(green, O.current_orders(green))
    assert warning.startswith('Bastion: frame_instead_of_last: "fighter-bay" does nothing')
    assert warning.endswith("never names fighter-bay.")


def test_orders_export_is_numbered_and_an_undo_never_reuses_a_number(tmp_path):
    s = fedcom_session()
    ps = P.player_session(s, "Blue")
    give(ps, "Swift", "orders", last="ph-1")
    first = O.export_orders(ps, ps.turn, tmp_path / "a.orders.json")
    assert ps.undo_status().undo == "Orders for turn 2 exported as number 1"
    ps.undo()
    ps.undo()  # the orders too
    give(ps, "Swift", "orders", last="ph-2")
    second = O.export_orders(ps, ps.turn, tmp_path / "b.orders.json")
    assert json.loads(first.read_text())["seq"] == 1 and json.loads(second.read_text())["seq"] == 2
    with pytest.raises(RuleViolation, match="for turn 2"):
        O.export_orders(ps, 3, tmp_path / "c.orders.json")
    with pytest.raises(RuleViolation, match="not a player file"):
        O.export_orders(s, 2, tmp_path / "d.orders.json")


# -- corrections ---------------------------------------------------------------------------------

def test_a_correction_replaces_a_file_not_applied_and_waits_for_confirmation_after(tmp_path):
    s = fedcom_session()
    ps = P.player_session(s, "Red")
    lance = ps.ship("Lance")
    bad = O.export_orders(ps, ps.turn, tmp_path / "1.orders.json", [
        {"ship": lance.id, "form": "orders", "values": {"first": "nowhere"}}])
    assert I.import_orders(s, [bad])[0].status == "refused"
    assert desk(s)["Red"] == ("refused", 1)
    give(ps, "Hornet", "orders", first="ph-1")
    good = O.export_orders(ps, ps.turn, tmp_path / "2.orders.json")
    assert I.import_orders(s, [good])[0].status == "accepted"
    assert desk(s)["Red"] == ("applied", 2)
    # A correction after orders were applied: held until the moderator confirms.
    give(ps, "Hornet", "orders", first="ph-2")
    fix = O.export_orders(ps, ps.turn, tmp_path / "3.orders.json")
    state = game_state(s)
    [held] = I.import_orders(s, [fix])
    assert held.status == "needs-confirmation" and "confirmation" in held.reason
    assert game_state(s) == state and desk(s)["Red"] == ("arrived", 3)
    assert I.import_orders(s, [fix])[0].status == "needs-confirmation"
    [done] = I.import_orders(s, [fix], confirm=True)
    assert done.status == "accepted" and s.ship("Hornet").state["orders"]["first"] == ["ph-2"]
    assert turn_desk(s)[1].applied == (2, 3)
    # The older files again: a replay, refused.
    before = fingerprint(s)
    results = I.import_orders(s, [good, bad, fix])
    assert [r.status for r in results] == ["refused", "refused", "duplicate"]
    assert "older" in results[0].reason
    assert fingerprint(s) == before


def test_the_same_number_with_other_orders_is_refused(tmp_path):
    s = fedcom_session()
    ps = P.player_session(s, "Blue")
    give(ps, "Swift", "orders", last="ph-1")
    one = O.export_orders(ps, ps.turn, tmp_path / "1.orders.json")
    data = json.loads(one.read_text())
    data["orders"][0]["values"]["last"] = "ph-2"
    other = tmp_path / "other.orders.json"
    other.write_text(json.dumps(O.sign(data, R.own_player(ps).secret)))
    assert I.import_orders(s, [one])[0].status == "accepted"
    before = game_state(s)
    [result] = I.import_orders(s, [other])
    assert result.status == "refused" and "already received" in result.reason
    assert game_state(s) == before  # authentic: kept in the ledger, with why; the game as it was
    assert [(f.seq, f.status) for f in ledger.files(s, "orders")] == [(1, "applied"), (1, "refused")]
    [again] = I.import_orders(s, [other])  # the same bytes again change nothing more
    assert again.status == "refused" and len(ledger.files_list(s)) == 2


def test_an_order_the_session_holds_already_is_skipped_as_ordered_already(tmp_path):
    """DESK.md, "Import checks": an order whose form already holds its values is skipped
    ("as ordered already"); the file is still accepted, as one step. (Triplanetary: a game
    whose action takes a choice made again.)"""
    s = GAMES["triplanetary"][0]()
    ps = P.player_session(s, "Pirates")
    give(ps, "Raven", "recovery", track="structure")
    path = O.export_orders(ps, ps.turn, tmp_path / "1.orders.json")
    give(s, "Raven", "recovery", track="structure")  # the moderator made it meanwhile
    state = game_state(s)
    [result] = I.import_orders(s, [path])
    assert result.status == "accepted" and game_state(s) == state
    text = s.log_text()
    assert "Raven, Recovery: as ordered already" in text
    assert "Pirates's orders number 1: 0 applied of 1" in text
    assert desk(s)["Pirates"] == ("applied", 1)


def test_fedcom_standing_orders_in_force_already_are_skipped_not_refused(tmp_path):
    """The same for Federation Commander, whose orders action refuses orders identical to
    the ship's ("These are Swift's standing orders already"): an orders file repeating
    orders the moderator set meanwhile is accepted, that order skipped as ordered already,
    the rest applied."""
    s = fedcom_session()
    ps = P.player_session(s, "Blue")
    give(ps, "Swift", "orders", last="ph-1")
    give(ps, "Resolute", "orders", first="ph-2")
    path = O.export_orders(ps, ps.turn, tmp_path / "blue.orders.json")
    give(s, "Swift", "orders", last="ph-1")  # the moderator set Swift's meanwhile
    [result] = I.import_orders(s, [path])
    assert result.status == "accepted", result.reason
    assert "Swift, Standing orders: as ordered already" in s.log_text()
    assert s.ship("Resolute").state["orders"]["first"] == ["ph-2"]


# -- hostile files ---------------------------------------------------------------------------------

@pytest.fixture
def signed(tmp_path):
    """(moderator session, Blue's player file, write(data, name) -> path of a file signed
    with Blue's secret, a good orders object)."""
    s = fedcom_session()
    ps = P.player_session(s, "Blue")
    give(ps, "Swift", "orders", last="ph-1")
    good = json.loads(O.export_orders(ps, ps.turn, tmp_path / "good.orders.json").read_text())
    secret = R.own_player(ps).secret

    def write(data, name="hostile.orders.json", key=secret):
        path = tmp_path / name
        path.write_text(json.dumps(O.sign(data, key)), "utf-8")
        return path
    return s, ps, write, good


def _refused(s, path, words):
    before = fingerprint(s)
    [result] = I.import_orders(s, [path])
    assert result.status == "refused", result
    assert words in result.reason, result.reason
    assert fingerprint(s) == before
    return result


def test_truncated_and_not_json_files_are_refused(signed, tmp_path):
    s, _, _, _ = signed
    raw = (tmp_path / "good.orders.json").read_bytes()
    cut = tmp_path / "cut.orders.json"
    cut.write_bytes(raw[: len(raw) // 2])
    _refused(s, cut, "damaged or truncated")
    empty = tmp_path / "empty.orders.json"
    empty.write_bytes(b"")
    _refused(s, empty, "empty")
    latin = tmp_path / "latin.orders.json"
    latin.write_bytes(b'{"format": "shipsheet-orders", "player": "Bl\xe9"}')
    _refused(s, latin, "not UTF-8")
    array = tmp_path / "array.orders.json"
    array.write_text("[1, 2]")
    _refused(s, array, "JSON object")
    nan = tmp_path / "nan.orders.json"
    nan.write_text('{"format": "shipsheet-orders", "turn": NaN}')
    _refused(s, nan, "damaged or truncated")
    lone = tmp_path / "surrogate.orders.json"
    good = json.loads(raw)
    good["orders"][0]["ship"] = "\ud800"
    lone.write_text(json.dumps(good))  # escaped: valid JSON, but no character
    _refused(s, lone, "not valid Unicode")


def test_a_wrong_format_or_version_is_refused(signed):
    s, _, write, good = signed
    _refused(s, write({**good, "format": "shipsheet-order"}), "not a ShipSheet orders file")
    _refused(s, write({**good, "version": 3}), "newer ShipSheet")
    _refused(s, write({**good, "version": 2}), "unknown key")  # a version-2 file has no mac
    _refused(s, write({**good, "extra": 1}), "unknown key")
    _refused(s, write({**good, "nonce": "xyz"}), "nonce: 64 hex digits")
    _refused(s, write({**good, "orders": [{"ship": "x", "form": "orders", "values": {"a": [1]}}]}),
             "orders[0].values.a")
    _refused(s, write({**good, "game": "war-in-space"}), "this session plays Federation Commander")
    _refused(s, write({**good, "turn": 0}), "turn")
    no_mac = {k: v for k, v in good.items() if k != "mac"}
    path = write(no_mac)
    data = json.loads(path.read_text())
    del data["mac"]
    path.write_text(json.dumps(data))
    _refused(s, path, "mac: missing")


def test_a_foreign_session_an_unknown_player_and_a_future_turn_are_refused(signed):
    s, _, write, good = signed
    _refused(s, write({**good, "session": "0" * 32}), "another session")
    _refused(s, write({**good, "player": "Yellow"}), 'no player called "Yellow"')
    _refused(s, write({**good, "player": "Red"}), "not authentic")  # Blue's key, Red's name
    _refused(s, write({**good, "turn": 3}), "a turn still to come")
    _refused(s, write({**good, "turn": 1}), "replay")


def test_a_nonce_already_used_in_another_turn_is_a_replay(signed, tmp_path):
    """DESK.md, "Import checks": a file for this turn carrying the nonce of orders received
    for another turn is a replay (its dice mix would repeat), refused, changing nothing."""
    s, _, write, good = signed
    assert I.import_orders(s, [tmp_path / "good.orders.json"])[0].status == "accepted"
    s.next_turn()
    [result] = I.import_orders(s, [write({**good, "turn": s.turn})])
    assert result.status == "refused" and "nonce was used in another turn" in result.reason
    assert s.ship("Resolute").state["orders"] == {}  # nothing of it applied


def test_orders_naming_another_players_ship_are_refused(signed):
    s, _, write, good = signed
    hornet = s.ship("Hornet")
    data = {**good, "orders": [{"ship": hornet.id, "form": "orders", "values": {"first": "ph-1"}}]}
    state = game_state(s)
    [result] = I.import_orders(s, [write(data)])
    assert result.status == "refused" and "Hornet is not Blue's ship" in result.reason
    assert game_state(s) == state and hornet.state["orders"] == {}
    assert desk(s)["Blue"] == ("refused", 1)


def test_a_huge_file_is_refused_by_its_size_unread(signed, tmp_path):
    s, _, _, _ = signed
    big = tmp_path / "big.orders.json"
    with open(big, "wb") as fh:
        fh.truncate(10 * 1024 * 1024)
    _refused(s, big, "too large")


def test_a_player_file_or_a_session_given_as_orders_says_what_it_is(signed, tmp_path):
    s, ps, _, _ = signed
    player_file = tmp_path / "Blue.shipsheet"
    save_session(ps, player_file)
    _refused(s, player_file, "a player file (Blue's session file), not an orders file")
    session_file = tmp_path / "moderator.shipsheet"
    save_session(s, session_file)
    _refused(s, session_file, "a session file, not an orders file")
    with pytest.raises(O.OrdersFileError, match="player file"):
        O.read_orders(player_file)
    _refused(s, tmp_path / "missing.orders.json", "No such file")
    _refused(s, tmp_path, "folder")


def test_orders_go_into_a_moderators_session_only(signed, tmp_path):
    s, ps, _, _ = signed
    with pytest.raises(RuleViolation, match="player file"):
        I.import_orders(ps, [tmp_path / "good.orders.json"])
    from shipsheet.model.games import piece
    with pytest.raises(RuleViolation, match="not played by e-mail"):
        I.import_orders(piece("fedcom", "sample")(), [tmp_path / "good.orders.json"])


def test_several_files_at_once_each_on_its_own(signed, tmp_path):
    s, _, write, good = signed
    bad = write({**good, "session": "f" * 32}, "foreign.orders.json")
    shutil.copy(tmp_path / "good.orders.json", tmp_path / "copy.orders.json")
    results = I.import_orders(s, [bad, tmp_path / "good.orders.json", tmp_path / "copy.orders.json"])
    assert [r.status for r in results] == ["refused", "accepted", "duplicate"]
    assert [r.line().split(":")[1].strip() for r in results] == ["REFUSED", "accepted", "duplicate"]
