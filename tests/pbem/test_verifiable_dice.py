"""Verifiable dice (turn-set-v2, and turn-hmac-v1 for older turns; shipsheet/pbem/dice.py):
values, records, undo, previews, reveal, verify, the command line."""

import hashlib
import hmac
import json
import random

import pytest

from shipsheet.cli import main
from shipsheet.model import Dice, RuleViolation, SessionAction, SessionFileError
from shipsheet.model.dice import (SEEDED, TURN_HMAC, TURN_SET, commitment, turn_hmac_value,
                                  turn_key, turn_set_key, turn_set_value)
from shipsheet.model.library import get_class, new_ship
from shipsheet.model.paths import resources_dir
from shipsheet.model.session import Session
from shipsheet.model.storage import load_session, save_session, session_from_data, session_to_data
from shipsheet.pbem import dice as pd
from shipsheet.rules.fedcom.actions import preview_volley, volley_action
from shipsheet.rules.fedcom.sample import build_sample_session
from shipsheet.pbem.turns import close_orders, close_turn
from shipsheet.pbem.verify import verify_session
from shipsheet.rules.war_in_space.actions import commit_energy_action

SEED = "11" * 32
NONCES = ["aa" * 32, "bb" * 32]


def nonce(i: int) -> str:
    return hashlib.sha256(f"nonce {i}".encode()).hexdigest()


def roll_action(n=3, sides=6, reason="to hit"):
    return SessionAction("Attack", lambda s, ctx: [ctx.dice.roll(sides, reason) for _ in range(n)],
                         ships=())


def hmac_v1(session):
    """The session switched to the first scheme, as a ShipSheet from before stages did."""
    pd.start_verifiable(session)
    record = session.pbem["dice"]
    record["scheme"] = TURN_HMAC
    record.pop("v2_from")
    record.pop("turns")
    record.update(nonces={}, late=[])
    return session


def orders_action(turn: int, value: str):
    """What the import of a turn-hmac-v1 turn does: the nonce is mixed in inside its step."""
    return SessionAction("Orders", lambda s, ctx: pd.add_nonce(s, turn, value), ships=())


def rolls(session):
    return [e for e in session.log if e.kind == "roll"]


def reload(session):
    return session_from_data(json.loads(json.dumps(session_to_data(session))))


def verifiable_fedcom(*, close: bool = True):
    """The Federation Commander sample with verifiable dice: the turn's orders closed,
    volleys fired, the turn closed (``close``)."""
    session = build_sample_session()
    pd.start_verifiable(session)
    close_orders(session)
    session.apply(volley_action(session.ship("Hornet"), 20, shield=2))
    session.apply(volley_action(session.ship("Bastion"), 24, shield=3))
    session.apply(volley_action(session.ship("Swift"), 10))
    if close:
        close_turn(session)
    return session


def v2_rolls(session):
    return [e for e in session.log if e.kind == "roll" and e.roll and e.roll[0] == 3]


# -- the values ---------------------------------------------------------------------------

def test_the_documented_formula():
    key = hmac.new(bytes.fromhex(SEED), b"nonces:" + b"".join(bytes.fromhex(n) for n in NONCES),
                   hashlib.sha256).digest()
    assert turn_key(SEED, NONCES) == key
    x = int.from_bytes(hmac.new(key, b"5:0", hashlib.sha256).digest()[:8], "big")
    assert x < 2**64 - 2**64 % 6  # a d6 almost never rejects
    assert turn_hmac_value(key, 5, 6) == x % 6 + 1
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_values_are_in_range_and_unbiased():
    key = turn_key(SEED, NONCES)
    n = 60_000
    counts = [0] * 6
    for number in range(n):
        counts[turn_hmac_value(key, number, 6) - 1] += 1
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts)
    assert chi2 < 30, counts  # 5 degrees of freedom: p < 1e-5 for a fair die
    for sides in (1, 2, 7, 20, 100, 2**32):
        values = {turn_hmac_value(key, number, sides) for number in range(300)}
        assert min(values) >= 1 and max(values) <= sides
    assert {turn_hmac_value(key, number, 3) for number in range(100)} == {1, 2, 3}


def test_rejection_sampling_draws_again_above_the_last_whole_multiple(monkeypatch):
    """A draw at or above 2**64 - 2**64 % sides is rejected and the next attempt taken."""
    real = hmac.new

    class Top:  # a first draw of 2**64 - 1: above 2**64 - 4, the last multiple of 6
        def digest(self):
            return b"\xff" * 32

    def fake(key, msg, digestmod):
        return Top() if msg.endswith(b":0") else real(key, msg, digestmod)

    key = turn_key(SEED, [])
    second = int.from_bytes(hmac.new(key, b"9:1", hashlib.sha256).digest()[:8], "big")
    monkeypatch.setattr(hmac, "new", fake)  # the dice import hmac where they use it
    assert turn_hmac_value(key, 9, 6) == second % 6 + 1
    assert turn_hmac_value(key, 9, 1) == 1  # one side: every draw is accepted


def test_deterministic_given_seed_nonces_and_number_and_nonces_change_the_rolls():
    key = turn_key(SEED, NONCES)
    first = [turn_hmac_value(key, i, 6) for i in range(40)]
    assert first == [turn_hmac_value(turn_key(SEED, list(NONCES)), i, 6) for i in range(40)]
    assert first != [turn_hmac_value(turn_key(SEED, NONCES[:1]), i, 6) for i in range(40)]
    assert first != [turn_hmac_value(turn_key(SEED, NONCES[::-1]), i, 6) for i in range(40)]
    assert first != [turn_hmac_value(turn_key("22" * 32, NONCES), i, 6) for i in range(40)]


def test_the_documented_turn_set_formula():
    contributions = [["Red", "cd" * 64], ["Blue", "ab" * 64]]
    mix = json.dumps({"session": "uid1", "turn": 3, "set": sorted(contributions)},
                     sort_keys=True, separators=(",", ":")).encode()
    key = hmac.new(bytes.fromhex(SEED), b"shipsheet turn-set-v2 key\n" + mix,
                   hashlib.sha256).digest()
    assert turn_set_key(SEED, "uid1", 3, contributions) == key
    assert turn_set_key(SEED, "uid1", 3, contributions[::-1]) == key  # a set: order is nothing
    purpose = ("ship-1", "Volley of 12 at Hornet", "DAC row, group 1")
    msg = json.dumps([17, 6, *purpose, 0], separators=(",", ":")).encode()
    x = int.from_bytes(hmac.new(key, msg, hashlib.sha256).digest()[:8], "big")
    assert turn_set_value(key, 17, 6, purpose) == x % 6 + 1
    values = [turn_set_value(key, n, 6, purpose) for n in range(60)]
    assert values != [turn_set_value(key, n, 6, (*purpose[:2], "DAC row, group 2"))
                      for n in range(60)]  # the purpose is part of the roll
    assert values != [turn_set_value(turn_key(SEED, []), n, 6, purpose) for n in range(60)]
    counts = [0] * 6
    for n in range(30_000):
        counts[turn_set_value(key, n, 6, purpose) - 1] += 1
    assert sum((c - 5000) ** 2 / 5000 for c in counts) < 30, counts


def test_the_old_scheme_rolls_what_it_always_rolled():
    dice = Dice(42)
    assert dice.scheme == SEEDED
    assert [dice.roll(6) for _ in range(5)] == [random.Random(f"42:{i}").randint(1, 6)
                                                for i in range(5)]


# -- in a session -------------------------------------------------------------------------

def test_every_roll_is_recorded_and_none_is_typed_in_a_verifiable_turn():
    session = build_sample_session()
    count = session.dice.count
    session.dice.type_in(4)
    session.apply(roll_action(2))
    typed, random_roll = rolls(session)[-2:]
    assert typed.text == "d6 typed in: 4 for to hit"
    assert typed.roll == [1, count, 6, 4, 1, 0]
    assert random_roll.roll[:3] == [1, count, 6] and random_roll.roll[4:] == [0, 0]

    pd.start_verifiable(session)
    with pytest.raises(RuleViolation, match="orders are still open"):
        session.apply(roll_action(1))  # no die rolls before the orders close
    close_orders(session)
    with pytest.raises(RuleViolation, match="none can be typed in"):
        session.dice.type_in(2)  # refused as it is typed
    session.apply(roll_action(2))
    first, second = rolls(session)[-2:]
    assert first.roll[:3] == [3, count + 1, 6] and first.roll[4:] == [0, 0]
    assert second.roll[1] == count + 2
    close_turn(session)
    with pytest.raises(RuleViolation, match="still open"):
        session.apply(roll_action(1))  # the next turn's orders are open
    assert verify_session(session).status == "verified"


def test_rolls_typed_before_the_dice_became_verifiable_are_refused_until_taken_back():
    session = build_sample_session()
    session.dice.type_in(5)  # typed while the dice were the session's seeded ones
    pd.start_verifiable(session)
    close_orders(session)
    with pytest.raises(RuleViolation, match=r"wait unused: take them back \(Dice.clear_typed\)"):
        session.apply(roll_action(1))
    session.dice.clear_typed()
    session.apply(roll_action(1))
    assert rolls(session)[-1].roll[4] == 0  # the session's roll, not the typed 5


def test_undo_and_redo_roll_the_same_dice_and_an_undone_roll_stays_in_the_transcript():
    session = build_sample_session()
    pd.start_verifiable(session)
    close_orders(session)
    session.apply(roll_action(2))
    first = [e.roll for e in rolls(session)[-2:]]
    session.undo()
    session.redo()  # redo: the same change, the same dice, the same entries
    assert [e.roll for e in rolls(session)[-2:]] == first
    session.undo()
    session.apply(roll_action(2))  # the same numbers and purpose: the same values again
    assert [e.roll for e in rolls(session) if not e.undone][-2:] == first
    session.undo()
    session.apply(roll_action(2, reason="another purpose"))  # the same numbers, new purpose
    again = [e for e in rolls(session) if not e.undone][-2:]
    assert [e.roll[1] for e in again] == [r[1] for r in first]
    close_turn(session)
    result = verify_session(reload(session))
    assert result.status == "verified", result.lines()
    turn = next(t for t in result.turns if t.turn == session.turn - 1)
    assert any("undone roll(s), kept" in n for n in turn.notes)
    fixed = session.pbem["dice"]["turns"][str(session.turn - 1)]["transcript"]
    assert fixed["count"] == 6  # two live rolls and the four undone, in log order


def test_a_preview_names_its_action_and_rolls_what_the_action_will():
    session = build_sample_session()
    pd.start_verifiable(session)
    close_orders(session)
    before = json.dumps(session.pbem, sort_keys=True)
    hornet = session.ship("Hornet")
    preview = preview_volley(session, hornet, 20, shield=2)
    assert json.dumps(session.pbem, sort_keys=True) == before  # previews change nothing
    session.apply(volley_action(hornet, 20, shield=2))
    assert preview.rolls and [e.roll[3] for e in v2_rolls(session)][:len(preview.rolls)] == \
        list(preview.rolls)
    # A copy of the dice with no action to stand for cannot roll verifiable dice.
    with pytest.raises(RuleViolation, match="rolls inside an action"):
        session.dice.copy().roll(6)


def test_undo_takes_back_the_switch():
    session = build_sample_session()
    pd.start_verifiable(session)
    assert session.dice.scheme == TURN_SET
    session.undo()
    assert "dice" not in session.pbem and session.dice.scheme == SEEDED
    session.apply(roll_action(1))
    assert rolls(session)[-1].roll[0] == 1


def test_a_verifiable_turn_ends_only_by_close_turn():
    session = build_sample_session()
    pd.start_verifiable(session)
    with pytest.raises(RuleViolation, match="ends with Close Turn"):
        session.next_turn()
    close_orders(session)
    with pytest.raises(RuleViolation, match="ends with Close Turn"):
        session.next_turn()
    turn = session.turn
    close_turn(session)
    assert session.turn == turn + 1 and session.pbem["dice"]["turns"][str(turn)]["stage"] == "closed"
    with pytest.raises(RuleViolation, match="still open: close them first"):
        close_turn(session)


def test_reveal_only_a_closed_turn():
    session = build_sample_session()
    c = pd.start_verifiable(session)
    turn = session.turn
    with pytest.raises(pd.DiceError, match="has not been played"):
        pd.reveal(session, turn + 1)
    with pytest.raises(pd.DiceError, match="not closed"):
        pd.reveal(session, turn)
    close_orders(session)
    with pytest.raises(pd.DiceError, match="not closed"):
        pd.reveal(session, turn)
    close_turn(session)
    seed, following = pd.reveal(session, turn)
    assert pd.commitment(seed) == c
    assert following == session.pbem["dice"]["commitments"][str(turn + 1)]
    assert all(str(t) in session.pbem["dice"]["seeds"] for t in range(turn + 1, turn + 4))


def test_a_seed_not_matching_its_commitment_is_refused_and_reported():
    session = verifiable_fedcom()
    turn = session.turn - 1
    wrong = "ab" * 32
    with pytest.raises(pd.DiceError, match=f"seed given for turn {turn} does not match the "
                                           "commitment in the session file"):
        pd.check_seed(session, turn, wrong)
    result = verify_session(session, seeds={turn: wrong})
    assert result.status == "failed"
    assert any("the seed given differs" in p for t in result.turns for p in t.problems)
    right = session.pbem["dice"]["seeds"][str(turn)]
    result = verify_session(session, commitments={turn: commitment(wrong)})
    assert result.status == "failed"
    assert any("the commitment given" in p for t in result.turns for p in t.problems)
    assert pd.check_seed(session, turn, right.upper()) == right


# -- verify on saved files ----------------------------------------------------------------

def test_verify_passes_on_a_real_session_saved_and_reloaded(tmp_path):
    session = verifiable_fedcom(close=False)
    path = tmp_path / "game.shipsheet"
    save_session(session, path)
    data = json.loads(path.read_text("utf-8"))
    assert data["dice"]["scheme"] == TURN_SET
    loaded = load_session(path)
    assert loaded.dice.scheme == TURN_SET
    result = verify_session(loaded)
    assert result.status == "incomplete"  # the turn is not closed
    assert "not final until the turn closes" in "\n".join(result.lines())
    # The reloaded session rolls on from where it was, with the same keys.
    loaded.apply(volley_action(loaded.ship("Lance"), 24, shield=2))
    session.apply(volley_action(session.ship("Lance"), 24, shield=2))
    assert [e.roll for e in rolls(loaded)][-3:] == [e.roll for e in rolls(session)][-3:]
    close_turn(loaded)
    result = verify_session(reload(loaded))
    assert result.status == "verified" and result.turns[0].checked >= 4, result.lines()


def test_verify_passes_on_war_in_space_energy_dice_across_turns():
    session = Session("war-in-space", name="WIS")
    session.add_ship(new_ship(get_class("war-in-space/cruiser"), "Vigilant"), "Concord")
    pd.start_verifiable(session)
    for card in ("7S", "4D"):
        close_orders(session)
        session.apply(commit_energy_action(session.ship("Vigilant"), card))
        close_turn(session)
    recorded = [e.roll for e in v2_rolls(session)]
    assert len(recorded) >= 6 and {r[2] for r in recorded} - {6}  # not only d6
    result = verify_session(reload(session))
    assert result.status == "verified" and [t.turn for t in result.turns] == [1, 2]


def tampered(session, change) -> Session:
    data = json.loads(json.dumps(session_to_data(session)))
    change(data)
    return session_from_data(data)


def test_verify_names_a_roll_whose_value_was_changed():
    session = verifiable_fedcom()
    data = json.loads(json.dumps(session_to_data(session)))
    index = max(i for i, e in enumerate(data["log"]) if e.get("roll", [0])[0] == 3
                and e["roll"][2] == 6)
    entry = data["log"][index]
    old = entry["roll"][3]
    new = old % 6 + 1
    entry["roll"][3] = new
    entry["text"] = entry["text"].replace(f": {old}", f": {new}", 1)
    result = verify_session(session_from_data(data))
    assert result.status == "failed"
    text = "\n".join(result.lines())
    assert f"roll #{entry['roll'][1]}: d6 {new}" in text and f"the seed gives {old}" in text
    # Only the text changed: the line and its record disagree.
    text_only = tampered(session, lambda d: d["log"][index].update(
        text=d["log"][index]["text"].replace(f": {old}", f": {new}", 1)))
    assert "the log line says" in "\n".join(verify_session(text_only).lines())
    # The record taken away.
    no_record = tampered(session, lambda d: d["log"][index].pop("roll"))
    assert "no roll record" in "\n".join(verify_session(no_record).lines())


def test_a_changed_seed_or_commitment_in_the_file_is_reported():
    session = verifiable_fedcom()
    turn = str(session.turn - 1)
    bad = tampered(session, lambda d: d["pbem"]["dice"]["commitments"].update({turn: "cd" * 32}))
    assert verify_session(bad).status == "failed"
    bad = tampered(session, lambda d: d["pbem"]["dice"]["seeds"].update({turn: "cd" * 32}))
    result = verify_session(bad)
    assert result.status == "failed"
    assert any("does not match the commitment" in p for t in result.turns for p in t.problems)


def test_an_old_file_says_it_cannot_be_verified():
    sample = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    assert sample.dice.scheme == SEEDED
    result = pd.verify(sample)
    assert not result.verifiable and result.status == "incomplete"
    assert "cannot be verified: old dice scheme" in result.lines()[1]
    # Rolls recorded since are recomputed from the file's seed, which proves nothing.
    sample.apply(volley_action(sample.ship("Swift"), 12, shield=4))
    result = pd.verify(sample)
    assert result.checked > 0 and not result.verifiable and "proves nothing" in result.headline()
    assert verify_session(sample).status == "incomplete"


def test_the_file_says_its_scheme_and_refuses_a_contradiction():
    data = session_to_data(build_sample_session())
    assert data["dice"]["scheme"] == SEEDED
    del data["dice"]["scheme"]  # a file from before schemes
    assert session_from_data(json.loads(json.dumps(data))).dice.scheme == SEEDED
    data["dice"]["scheme"] = TURN_SET
    with pytest.raises(SessionFileError, match="play-by-e-mail record says"):
        session_from_data(data)
    data["dice"]["scheme"] = "turn-hmac-v9"
    with pytest.raises(SessionFileError, match="unknown value"):
        session_from_data(data)


def test_a_player_file_rolls_its_own_dice_and_cannot_roll_the_moderators():
    session = verifiable_fedcom(close=False)
    copy = reload(session)
    copy.pbem["dice"]["seeds"].pop(str(copy.turn))  # the commitment stays: the seed is not ours
    with pytest.raises(RuleViolation, match="are the moderator's"):
        copy.apply(roll_action(1))


# -- the older scheme, for turns played before stages ----------------------------------------

def test_a_turn_hmac_v1_turn_still_rolls_and_verifies_with_its_nonces():
    session = hmac_v1(build_sample_session())
    session.apply(orders_action(session.turn, nonce(1)))
    session.apply(volley_action(session.ship("Hornet"), 20, shield=2))
    session.apply(orders_action(session.turn, nonce(2)))
    session.apply(volley_action(session.ship("Bastion"), 24, shield=3))
    since = session.pbem["dice"]["since"]
    assert {e.roll[0] for e in rolls(session) if e.action > since} == {2}
    result = pd.verify(reload(session))
    assert result.status == "verified" and result.nonces[session.turn] == [nonce(1), nonce(2)]
    undone = session.undo()  # the volley: its rolls stay in the log, undone
    assert undone.name.startswith("Volley")
    assert pd.verify(reload(session)).undone
    # It switches to turn-set-v2 when its turn closes.
    turn = session.turn
    close_turn(session)
    assert session.pbem["dice"]["v2_from"] == turn + 1 and session.dice.scheme == TURN_SET
    verdict = verify_session(reload(session))
    assert verdict.old is not None and verdict.old.status == "verified"
    assert "turn-hmac-v1" in "\n".join(verdict.lines())


def test_add_nonce_refusals():
    session = build_sample_session()
    with pytest.raises(RuntimeError, match="inside an action"):
        pd.add_nonce(session, session.turn, nonce(1))
    session.apply(orders_action(session.turn, nonce(1)))  # not verifiable: nothing done
    assert "dice" not in session.pbem
    hmac_v1(session)
    session.apply(orders_action(session.turn, nonce(1).upper()))
    for turn, value, message in ((session.turn, nonce(1), "already mixed"),
                                 (session.turn - 1, nonce(2), "is over"),
                                 (session.turn, "12ab", "64 hex digits")):
        with pytest.raises(pd.DiceError, match=message):
            session.apply(orders_action(turn, value))
    assert session.pbem["dice"]["nonces"][str(session.turn)] == [nonce(1)]


# -- the command line ---------------------------------------------------------------------

def test_cli_exit_codes(tmp_path, capsys):
    session = verifiable_fedcom()
    good = tmp_path / "good.shipsheet"
    save_session(session, good)
    assert main(["verify-dice", str(good)]) == 0
    assert "Verified: all" in capsys.readouterr().out

    data = json.loads(good.read_text("utf-8"))
    entry = next(e for e in reversed(data["log"]) if e.get("roll", [0])[0] == 3)
    entry["roll"][3] = entry["roll"][3] % entry["roll"][2] + 1
    bad = tmp_path / "bad.shipsheet"
    bad.write_text(json.dumps(data), "utf-8")
    assert main(["verify-dice", str(bad)]) == 1
    assert "FAILED" in capsys.readouterr().out

    turn = session.turn - 1
    assert main(["verify-dice", str(good), "--seed", f"{turn}={'ab' * 32}"]) == 1
    assert "the seed given differs" in capsys.readouterr().out
    seed = session.pbem["dice"]["seeds"][str(turn)]
    assert main(["verify-dice", str(good), "--seed", f"{turn}={seed.upper()}",
                 "--commitment", f"{turn}={commitment(seed)}"]) == 0
    capsys.readouterr()

    open_turn = tmp_path / "open.shipsheet"
    save_session(verifiable_fedcom(close=False), open_turn)
    assert main(["verify-dice", str(open_turn)]) == 3
    assert "not closed yet" in capsys.readouterr().out

    assert main(["verify-dice", str(resources_dir() / "samples" / "fedcom.shipsheet")]) == 3
    assert "cannot be verified: old dice scheme" in capsys.readouterr().out

    (tmp_path / "mail.shipsheet").write_text("Dear referee")
    assert main(["verify-dice", str(tmp_path / "mail.shipsheet")]) == 2
    assert main(["verify-dice", str(tmp_path / "absent.shipsheet")]) == 2
    assert main(["verify-dice", str(good), "--seed", "3=xyz"]) == 2
    assert main(["verify-dice"]) == 2
    assert "TURN=HEX" in capsys.readouterr().err
