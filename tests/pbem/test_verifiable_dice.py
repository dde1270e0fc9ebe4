"""Verifiable dice (turn-hmac-v1, shipsheet/pbem/dice.py): values, records, undo, verify, CLI."""

import hashlib
import hmac
import json
import random

import pytest

from shipsheet.cli import main
from shipsheet.model import Dice, RuleViolation, SessionAction, SessionFileError
from shipsheet.model.dice import (SEEDED, TURN_HMAC, commitment, turn_hmac_value, turn_key)
from shipsheet.model.library import get_class, new_ship
from shipsheet.model.paths import resources_dir
from shipsheet.model.session import Session
from shipsheet.model.storage import load_session, save_session, session_from_data, session_to_data
from shipsheet.pbem import dice as pd
from shipsheet.rules.fedcom.actions import preview_volley, volley_action
from shipsheet.rules.fedcom.sample import build_sample_session
from shipsheet.rules.war_in_space.actions import commit_energy_action

SEED = "11" * 32
NONCES = ["aa" * 32, "bb" * 32]


def nonce(i: int) -> str:
    return hashlib.sha256(f"nonce {i}".encode()).hexdigest()


def roll_action(n=3, sides=6, reason="to hit"):
    return SessionAction("Attack", lambda s, ctx: [ctx.dice.roll(sides, reason) for _ in range(n)],
                         ships=())


def orders_action(turn: int, value: str):
    """What the orders import does: the nonce is mixed in inside its undoable step."""
    return SessionAction("Orders", lambda s, ctx: pd.add_nonce(s, turn, value), ships=())


def rolls(session):
    return [e for e in session.log if e.kind == "roll"]


def reload(session):
    return session_from_data(json.loads(json.dumps(session_to_data(session))))


def verifiable_fedcom():
    """The Federation Commander sample switched to verifiable dice, orders in, volleys fired."""
    session = build_sample_session()
    pd.start_verifiable(session)
    session.apply(orders_action(session.turn, nonce(1)))
    session.apply(volley_action(session.ship("Hornet"), 20, shield=2))
    session.apply(orders_action(session.turn, nonce(2)))
    session.apply(volley_action(session.ship("Bastion"), 24, shield=3))
    session.apply(volley_action(session.ship("Swift"), 10))
    return session


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


def test_the_old_scheme_rolls_what_it_always_rolled():
    dice = Dice(42)
    assert dice.scheme == SEEDED
    assert [dice.roll(6) for _ in range(5)] == [random.Random(f"42:{i}").randint(1, 6)
                                                for i in range(5)]


# -- in a session -------------------------------------------------------------------------

def test_every_roll_is_recorded_in_both_schemes_typed_ones_too():
    session = build_sample_session()
    count = session.dice.count
    session.dice.type_in(4)
    session.apply(roll_action(2))
    typed, random_roll = rolls(session)[-2:]
    assert typed.text == "d6 typed in: 4 for to hit"
    assert typed.roll == [1, count, 6, 4, 1, 0]
    assert random_roll.roll[:3] == [1, count, 6] and random_roll.roll[4:] == [0, 0]

    pd.start_verifiable(session)
    session.apply(orders_action(session.turn, nonce(1)))
    session.dice.type_in(2)
    session.apply(roll_action(2))
    typed, random_roll = rolls(session)[-2:]
    assert typed.roll == [2, count + 1, 6, 2, 1, 1]  # a typed roll uses up no number
    assert random_roll.roll[:3] == [2, count + 1, 6] and random_roll.roll[4:] == [0, 1]
    result = pd.verify(session)
    assert [r.text for r in result.typed] == ["d6 typed in: 2 for to hit"]
    assert result.status == "verified"


def test_undo_then_roll_again_keeps_the_number_and_the_undone_rolls_are_listed():
    session = build_sample_session()
    pd.start_verifiable(session)
    session.apply(roll_action(2))
    first = [e.roll for e in rolls(session)[-2:]]
    session.undo()
    session.redo()  # redo: the same change, the same dice, the same entries
    assert [e.roll for e in rolls(session)[-2:]] == first
    assert not any(e.undone for e in rolls(session))
    session.undo()
    session.apply(orders_action(session.turn, nonce(7)))  # a new nonce: a different key
    session.apply(roll_action(2))
    again = [e for e in rolls(session) if not e.undone][-2:]
    assert [e.roll[1] for e in again] == [r[1] for r in first]  # the same numbers, rolled again
    result = pd.verify(reload(session))
    assert result.status == "verified"
    assert [(r.number, r.logged) for r in result.undone] == [(r[1], r[3]) for r in first]


def test_undo_takes_back_a_nonce_and_the_switch():
    session = build_sample_session()
    pd.start_verifiable(session)
    session.apply(orders_action(session.turn, nonce(1)))
    assert session.pbem["dice"]["nonces"][str(session.turn)] == [nonce(1)]
    session.undo()
    assert session.pbem["dice"]["nonces"].get(str(session.turn), []) == []
    session.undo()
    assert "dice" not in session.pbem and session.dice.scheme == SEEDED
    session.apply(roll_action(1))
    assert rolls(session)[-1].roll[0] == 1


def test_add_nonce_refusals():
    session = build_sample_session()
    with pytest.raises(RuntimeError, match="inside an action"):
        pd.add_nonce(session, session.turn, nonce(1))
    session.apply(orders_action(session.turn, nonce(1)))  # not verifiable: nothing done
    assert "dice" not in session.pbem
    pd.start_verifiable(session)
    session.apply(orders_action(session.turn, nonce(1).upper()))
    for turn, value, message in ((session.turn, nonce(1), "already mixed"),
                                 (session.turn - 1, nonce(2), "is over"),
                                 (session.turn, "12ab", "64 hex digits")):
        with pytest.raises(pd.DiceError, match=message):
            session.apply(orders_action(turn, value))
    assert session.pbem["dice"]["nonces"][str(session.turn)] == [nonce(1)]


def test_a_preview_rolls_what_the_real_roll_then_rolls_even_before_the_seed_exists():
    session = build_sample_session()
    pd.start_verifiable(session)
    del session.pbem["dice"]["seeds"][str(session.turn)]  # as after a turn nobody committed to
    del session.pbem["dice"]["commitments"][str(session.turn)]
    before = json.dumps(session.pbem, sort_keys=True)
    preview_volley(session, session.ship("Hornet"), 20, shield=2)
    copy = session.dice.copy()
    expected = [copy.roll(6) for _ in range(3)]
    assert json.dumps(session.pbem, sort_keys=True) == before  # previews change nothing
    session.apply(roll_action(3))
    assert [e.roll[3] for e in rolls(session)[-3:]] == expected
    assert session.pbem["dice"]["late"] == [session.turn]
    result = pd.verify(session)
    assert result.ok and result.late_turns == [session.turn] and result.status == "incomplete"
    assert any("no report committed to them first" in line for line in result.lines())


def test_reveal_and_ensure_seeds():
    session = build_sample_session()
    c = pd.start_verifiable(session)
    turn = session.turn
    with pytest.raises(pd.DiceError, match="has not been played"):
        pd.reveal(session, turn + 1)
    with pytest.raises(pd.DiceError, match="before the dice became verifiable"):
        pd.reveal(session, turn - 1)
    seed, following = pd.reveal(session, turn)
    assert pd.commitment(seed) == c
    assert following == session.pbem["dice"]["commitments"][str(turn + 1)]
    assert pd.ensure_seeds(session) is False  # made ahead at the switch
    for t in range(turn + 1, turn + 4):
        session.pbem["dice"]["seeds"].pop(str(t), None)
        session.pbem["dice"]["commitments"].pop(str(t), None)
    with pytest.raises(pd.DiceError, match="not made yet"):
        pd.reveal(session, turn)
    assert pd.ensure_seeds(session) is True
    assert pd.reveal(session, turn)[0] == seed


def test_a_seed_not_matching_its_commitment_is_refused_and_reported():
    session = verifiable_fedcom()
    turn = session.turn
    wrong = "ab" * 32
    with pytest.raises(pd.DiceError, match=f"seed given for turn {turn} does not match the "
                                           "commitment in the session file"):
        pd.check_seed(session, turn, wrong)
    result = pd.verify(session, {turn: wrong})
    assert result.status == "failed" and {p.turn for p in result.bad_seeds} == {turn}
    assert any("does not match" in line for line in result.lines())
    # A commitment a player kept from a report, against the file's own seed.
    right = session.pbem["dice"]["seeds"][str(turn)]
    result = pd.verify(session, commitments={turn: commitment(wrong)})
    assert not result.ok and "the commitment given" in result.bad_seeds[0].message
    assert pd.check_seed(session, turn, right.upper()) == right


# -- verify on saved files ----------------------------------------------------------------

def test_verify_passes_on_a_real_session_saved_and_reloaded(tmp_path):
    session = verifiable_fedcom()
    path = tmp_path / "game.shipsheet"
    save_session(session, path)
    data = json.loads(path.read_text("utf-8"))
    assert data["dice"]["scheme"] == TURN_HMAC
    loaded = load_session(path)
    assert loaded.dice.scheme == TURN_HMAC
    result = pd.verify(loaded)
    assert result.status == "verified", result.lines()
    assert result.checked >= 3 and not result.missing_numbers
    assert {e.roll[5] for e in rolls(loaded) if e.roll[0] == 2 and not e.roll[4]} >= {1, 2}
    assert result.nonces[session.turn] == [nonce(1), nonce(2)]
    # The reloaded session rolls on from where it was, with the same keys.
    loaded.apply(volley_action(loaded.ship("Lance"), 24, shield=2))
    session.apply(volley_action(session.ship("Lance"), 24, shield=2))
    assert [e.roll for e in rolls(loaded)][-3:] == [e.roll for e in rolls(session)][-3:]
    assert pd.verify(loaded).status == "verified"


def test_verify_passes_on_war_in_space_energy_dice_across_turns():
    session = Session("war-in-space", name="WIS")
    session.add_ship(new_ship(get_class("war-in-space/cruiser"), "Vigilant"), "Concord")
    pd.start_verifiable(session)
    session.apply(orders_action(1, nonce(1)))
    session.apply(commit_energy_action(session.ship("Vigilant"), "7S"))
    session.next_turn()
    session.apply(orders_action(2, nonce(2)))
    session.apply(commit_energy_action(session.ship("Vigilant"), "4D"))
    recorded = [e.roll for e in rolls(session)]
    assert len(recorded) >= 6 and {r[2] for r in recorded} - {6}  # not only d6
    assert pd.verify(reload(session)).status == "verified"
    # A player who has the reports' seeds checks a player's copy of the record.
    seeds = {t: pd.reveal(session, t)[0] for t in (1, 2)}
    player = reload(session)
    player.pbem["dice"] = pd.public_record(session.pbem["dice"])
    assert "seeds" not in player.pbem["dice"]
    player = reload(player)  # a player file's own dice are seeded-v1
    assert player.dice.scheme == SEEDED
    assert pd.verify(player).status == "incomplete"
    assert pd.verify(player).unknown_seed_turns == [1, 2]
    assert pd.verify(player, seeds).status == "verified"
    assert pd.public_record(session.pbem["dice"], before_turn=2)["seeds"] == {"1": seeds[1]}


def tampered(session, change) -> Session:
    data = json.loads(json.dumps(session_to_data(session)))
    change(data)
    return session_from_data(data)


def test_verify_names_a_roll_whose_value_was_changed(tmp_path):
    session = verifiable_fedcom()
    data = json.loads(json.dumps(session_to_data(session)))
    index = max(i for i, e in enumerate(data["log"]) if e.get("roll", [0])[0] == 2
                and e["roll"][2] == 6 and not e["roll"][4])
    entry = data["log"][index]
    old = entry["roll"][3]
    new = old % 6 + 1
    entry["roll"][3] = new
    entry["text"] = entry["text"].replace(f": {old}", f": {new}", 1)
    bad = session_from_data(data)
    result = pd.verify(bad)
    assert result.status == "failed" and len(result.mismatched) == 1
    wrong = result.mismatched[0]
    assert (wrong.index, wrong.number, wrong.logged, wrong.expected) == (
        index, entry["roll"][1], new, old)
    assert f"logged {new}, the seed gives {old}" in wrong.describe()
    assert entry["text"] in wrong.describe() and f"roll #{wrong.number}" in wrong.describe()
    # Only the text changed: the line and its record disagree.
    text_only = tampered(session, lambda d: d["log"][index].update(
        text=d["log"][index]["text"].replace(f": {old}", f": {new}", 1)))
    wrong = pd.verify(text_only).mismatched[0]
    assert "the log line says" in wrong.why and wrong.number == entry["roll"][1]
    # The record taken away.
    no_record = tampered(session, lambda d: d["log"][index].pop("roll"))
    assert pd.verify(no_record).mismatched[0].why == "no roll record"


def test_a_changed_seed_or_commitment_in_the_file_is_reported(monkeypatch):
    # Fixed seeds: with random ones, the few rolls drawn again from the changed seed all
    # came out the same about once in 300 runs (nothing mismatched, the test failed).
    import shipsheet.model.dice as model_dice
    count = iter(range(1000))

    def fixed_seed():
        return hashlib.sha256(f"seed {next(count)}".encode()).hexdigest()

    monkeypatch.setattr(model_dice, "new_seed", fixed_seed)
    monkeypatch.setattr(pd, "new_seed", fixed_seed)
    session = verifiable_fedcom()
    turn = str(session.turn)
    bad = tampered(session, lambda d: d["pbem"]["dice"]["commitments"].update({turn: "cd" * 32}))
    result = pd.verify(bad)
    assert result.status == "failed" and result.bad_seeds[0].turn == session.turn
    bad = tampered(session, lambda d: d["pbem"]["dice"]["seeds"].update({turn: "cd" * 32}))
    assert pd.verify(bad).bad_seeds and pd.verify(bad).mismatched


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


def test_the_file_says_its_scheme_and_refuses_a_contradiction():
    data = session_to_data(build_sample_session())
    assert data["dice"]["scheme"] == SEEDED
    del data["dice"]["scheme"]  # a file from before schemes
    assert session_from_data(json.loads(json.dumps(data))).dice.scheme == SEEDED
    data["dice"]["scheme"] = TURN_HMAC
    with pytest.raises(SessionFileError, match="play-by-e-mail record says"):
        session_from_data(data)
    data["dice"]["scheme"] = "turn-hmac-v9"
    with pytest.raises(SessionFileError, match="unknown value"):
        session_from_data(data)


def test_a_player_file_rolls_its_own_dice_and_cannot_roll_the_moderators():
    session = verifiable_fedcom()
    copy = reload(session)
    copy.pbem["dice"]["seeds"].pop(str(copy.turn))  # the commitment stays: the seed is not ours
    with pytest.raises(RuleViolation, match="are the moderator's"):
        copy.apply(roll_action(1))


# -- the command line ---------------------------------------------------------------------

def test_cli_exit_codes(tmp_path, capsys):
    session = verifiable_fedcom()
    good = tmp_path / "good.shipsheet"
    save_session(session, good)
    assert main(["verify-dice", str(good)]) == 0
    assert "Verified: all" in capsys.readouterr().out

    data = json.loads(good.read_text("utf-8"))
    entry = next(e for e in reversed(data["log"]) if e.get("roll", [0])[0] == 2 and
                 not e["roll"][4])
    entry["roll"][3] = entry["roll"][3] % 6 + 1
    bad = tmp_path / "bad.shipsheet"
    bad.write_text(json.dumps(data), "utf-8")
    assert main(["verify-dice", str(bad)]) == 1
    assert "Rolls that do not match:" in capsys.readouterr().out

    turn = session.turn
    assert main(["verify-dice", str(good), "--seed", f"{turn}={'ab' * 32}"]) == 1
    assert "does not match the commitment in the session file" in capsys.readouterr().out

    player = reload(session)
    player.pbem["dice"] = pd.public_record(session.pbem["dice"])
    pfile = tmp_path / "player.shipsheet"
    save_session(player, pfile)
    assert main(["verify-dice", str(pfile)]) == 3
    assert "--seed TURN=HEX" in capsys.readouterr().out
    seed = session.pbem["dice"]["seeds"][str(turn)]
    assert main(["verify-dice", str(pfile), "--seed", f"{turn}={seed.upper()}",
                 "--commitment", f"{turn}={commitment(seed)}"]) == 0

    assert main(["verify-dice", str(resources_dir() / "samples" / "fedcom.shipsheet")]) == 3
    assert "cannot be verified: old dice scheme" in capsys.readouterr().out

    (tmp_path / "mail.shipsheet").write_text("Dear referee")
    assert main(["verify-dice", str(tmp_path / "mail.shipsheet")]) == 2
    assert main(["verify-dice", str(tmp_path / "absent.shipsheet")]) == 2
    assert main(["verify-dice", str(good), "--seed", "3=xyz"]) == 2
    assert main(["verify-dice"]) == 2
    assert "TURN=HEX" in capsys.readouterr().err
