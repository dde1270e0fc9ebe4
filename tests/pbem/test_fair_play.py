"""Fair play by e-mail: each attack on the dice and the orders, run as the attacker would —
a player aiming a roll, a moderator steering, deleting, inserting or re-keying rolls,
making up a contribution, forging a player's orders — and the step that stops it
(SECURITY.md, "Play by e-mail: the threat model")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shipsheet.cli import main
from shipsheet.model.storage import load_session, save_session, session_from_data, session_to_data
from shipsheet.pbem import keys as K
from shipsheet.pbem import orders as O
from shipsheet.pbem import players as P
from shipsheet.pbem import turns as T
from shipsheet.pbem.audit import audit, export_bundle
from shipsheet.pbem.inbox import import_files
from shipsheet.pbem.joins import make_join, write_join
from shipsheet.pbem.reports import export_turn_reports
from shipsheet.pbem.verify import verify_session

from pbem_helpers import (fedcom_edits, resolve, send_orders, the_turns_rolls,
                          verifiable_game)

ROOT = Path(__file__).resolve().parents[2]


def fedcom_turn(tmp_path):
    """Federation Commander, three joined players; turn 2's signed orders imported (queued)."""
    s, files = verifiable_game("fedcom", tmp_path / "t2")
    sent = {n: send_orders(f, fedcom_edits, n, tmp_path / f"{n}-t2.orders.json")
            for n, f in files.items()}
    results = import_files(s, list(sent.values()))
    assert [r.status for r in results] == ["queued"] * 3, [r.line() for r in results]
    return s, files, sent


def closed_turn(tmp_path):
    """The turn above resolved and closed, its reports written (the seed out)."""
    s, files, sent = fedcom_turn(tmp_path)
    T.close_orders(s)
    resolve(s)
    T.close_turn(s)
    export_turn_reports(s, 2, tmp_path / "reports", date="2026-12-01")
    return s, files, sent


def verdict(session):
    return verify_session(load_session_copy(session), pins=False)


def load_session_copy(session):
    return session_from_data(json.loads(json.dumps(session_to_data(session))))


# -- a player cannot aim the dice ------------------------------------------------------------

def test_a_mid_turn_report_carries_the_commitment_only(tmp_path):
    s, files, sent = fedcom_turn(tmp_path)
    seed = s.pbem["dice"]["seeds"]["2"]
    for stage in ("open", "resolving"):
        if stage == "resolving":
            T.close_orders(s)
            resolve(s)
        out = tmp_path / f"mid-{stage}"
        export_turn_reports(s, 2, out, date="2026-12-01")
        text = (out / "turn-2" / "Blue.txt").read_text("utf-8")
        assert "is not closed yet" in text and s.pbem["dice"]["commitments"]["2"] in text
        for path in (out / "turn-2").iterdir():
            assert seed not in path.read_text("utf-8"), path  # nor in the player files
    assert main(["pbem", "report", str(_saved(s, tmp_path)), "--turn", "2", "-o",
                 str(tmp_path / "cli")]) == 0
    assert seed not in (tmp_path / "cli" / "turn-2" / "Red.txt").read_text("utf-8")


def _saved(session, tmp_path, name="moderator.shipsheet"):
    path = tmp_path / name
    save_session(session, path)
    return path


def test_a_contribution_cannot_be_searched_every_file_of_a_turn_carries_the_same(tmp_path):
    """Today's attack searched the nonce of a correction until the next rolls came up 6. A
    contribution is the player's deterministic signature of the turn's commitment: every
    file of theirs for the turn carries the same one, and one the key did not sign is
    refused."""
    s, files = verifiable_game("fedcom", tmp_path / "t2")
    first = json.loads(send_orders(files["Blue"], fedcom_edits, "Blue",
                                   tmp_path / "a.orders.json").read_text())
    again = json.loads(send_orders(files["Blue"], None, "Blue", tmp_path / "b.orders.json")
                       .read_text())
    assert again["seq"] == first["seq"] + 1 and first["contribution"] == again["contribution"]
    # A file re-signed with another contribution (the player's own key can sign anything,
    # but not another signature of the same commitment: Ed25519 is deterministic).
    key = K.load_key(s.uid, "Blue")
    forged = dict(again, seq=again["seq"] + 1,
                  contribution=key.sign(b"anything the player likes"))
    path = tmp_path / "c.orders.json"
    path.write_text(json.dumps(O.signed_by_key(forged, key)))
    result = import_files(s, [path])[0]
    assert result.status == "refused" and "not Blue's signature of the turn's commitment" in \
        result.reason


def test_aimed_late_orders_are_refused_whatever_their_number_even_after_an_undo(tmp_path):
    s, files, sent = closed_turn(tmp_path)
    assert s.turn == 3
    key = K.load_key(s.uid, "Blue")
    data = json.loads(sent["Blue"].read_text("utf-8"))
    late = tmp_path / "late.orders.json"
    late.write_text(json.dumps(O.signed_by_key(dict(data, seq=9), key)))
    result = import_files(s, [late])[0]
    assert result.status == "refused" and "over" in result.reason
    # The moderator undoes the close of the turn and of its orders: turn 2 is open again,
    # but its seed has left the desk (the reports), so its orders stay closed.
    while T.stage(s) != "open" or s.turn != 2:
        s.undo()
    assert s.turn == 2 and T.stage(s) == "open"
    result = import_files(s, [late])[0]
    assert result.status == "refused" and "seed has left the desk" in result.reason
    assert 2 in T.ledger.revealed(s)


# -- the import order steers nothing -------------------------------------------------------------

def test_two_import_orders_of_the_same_files_give_the_same_rolls(tmp_path):
    s, files = verifiable_game("fedcom", tmp_path / "t2")
    sent = [send_orders(f, fedcom_edits, n, tmp_path / f"{n}.orders.json")
            for n, f in files.items()]
    path = _saved(s, tmp_path)
    outcomes = []
    for order in (sent, sent[::-1], [sent[1], sent[2], sent[0]]):
        game = load_session(path)
        assert all(r.accepted for r in import_files(game, order))
        T.close_orders(game)
        resolve(game)
        outcomes.append((the_turns_rolls(game), [sh.state for sh in game.ships]))
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert outcomes[0][0], "the turn rolled"


def test_a_refused_or_undone_file_still_counts_in_the_set(tmp_path):
    """Refusing a file, or undoing its import, cannot take its sender's contribution out of
    the dice: the ledger keeps every authentic file."""
    s, files = verifiable_game("fedcom", tmp_path / "t2")
    blue = send_orders(files["Blue"], fedcom_edits, "Blue", tmp_path / "blue.orders.json")
    bad = load_session(files["Red"])  # Red orders a box Red's ship does not have
    from pbem_helpers import give
    give(bad, "Hornet", "orders", first="drone-2")
    save_session(bad, files["Red"])
    red = tmp_path / "red.orders.json"
    data = json.loads(send_orders(files["Red"], None, "Red", red).read_text())
    data["orders"] = [{"ship": s.ship("Resolute").id, "form": "orders", "values": {}}]
    red.write_text(json.dumps(O.signed_by_key({**data}, K.load_key(s.uid, "Red"))))
    green = send_orders(files["Green"], fedcom_edits, "Green", tmp_path / "green.orders.json")
    results = import_files(s, [blue, red, green])
    assert [r.status for r in results] == ["queued", "refused", "queued"]
    assert "not Red's ship" in results[1].reason
    s.undo()  # the moderator takes Green's import back
    T.close_orders(s)
    assert [c[0] for c in s.pbem["dice"]["turns"]["2"]["set"]] == ["Blue", "Green", "Red"]


def test_the_moderators_own_player_adds_nothing(tmp_path):
    from shipsheet.pbem.players import player_from_items, set_players_action
    s, files = verifiable_game("fedcom", tmp_path / "t2")
    players = [player_from_items(s, n, [n]) for n in ("Blue", "Red", "Green")]
    s.apply(set_players_action(s, players, moderator_plays="green"))
    for n, f in files.items():
        import_files(s, [send_orders(f, fedcom_edits, n, tmp_path / f"{n}.orders.json")])
    T.close_orders(s)
    entry = s.pbem["dice"]["turns"]["2"]
    assert [c[0] for c in entry["set"]] == ["Blue", "Red"] and entry["excluded"] == ["Green"]
    assert "Green is the moderator's own player (adds nothing)" in s.log_text()


# -- the moderator cannot change the rolls unseen -----------------------------------------------

def _tamper(session, change):
    data = json.loads(json.dumps(session_to_data(session)))
    change(data)
    return session_from_data(data)


def _v2_rolls(data):
    return [i for i, e in enumerate(data["log"]) if e.get("roll", [0])[0] == 3]


def _set_value(entry, value):
    old = entry["roll"][3]
    entry["roll"][3] = value
    entry["text"] = entry["text"].replace(f": {old}", f": {value}", 1)


def _rekey(data, session):
    """Re-key the turn: a contribution dropped from the set, every roll recomputed with the
    new key so the values agree with it (the moderator choosing which contributions
    count)."""
    from shipsheet.model.dice import turn_set_key, turn_set_value
    from shipsheet.pbem.transcript import read_turn
    dice = data["pbem"]["dice"]
    dice["turns"]["2"]["set"] = dice["turns"]["2"]["set"][1:]
    key = turn_set_key(dice["seeds"]["2"], data["uid"], 2, dice["turns"]["2"]["set"])
    entries = read_turn(session, 2).entries
    for index, entry in zip(_v2_rolls(data), entries):
        _set_value(data["log"][index], turn_set_value(key, entry["n"], entry["sides"], (
            entry["ship"] or "", entry["action"], entry["reason"])))


def _copy_a_six(data):
    """A low roll given the number and value of a roll that came up high."""
    rolls = _v2_rolls(data)
    high = max(rolls, key=lambda i: data["log"][i]["roll"][3])
    low = min((i for i in rolls if i != high), key=lambda i: data["log"][i]["roll"][3])
    data["log"][low]["roll"][1] = data["log"][high]["roll"][1]
    _set_value(data["log"][low], data["log"][high]["roll"][3])


def _made_up_contribution(data):
    dice = data["pbem"]["dice"]
    dice["turns"]["2"]["set"].append(["Zed", K.sign(K.generate()[0], b"made up")])
    dice["turns"]["2"]["set"].sort()


def _move_to_unused_number(data):
    entry = data["log"][_v2_rolls(data)[-1]]
    entry["roll"][1] += 50


def _typed(data):
    entry = data["log"][_v2_rolls(data)[0]]
    entry["roll"][4] = 1
    entry["text"] = entry["text"].replace(" rolled: ", " typed in: ", 1)


def _insert(data):
    index = _v2_rolls(data)[0]
    copy = json.loads(json.dumps(data["log"][index]))
    copy["roll"][1] = max(data["log"][i]["roll"][1] for i in _v2_rolls(data)) + 1
    data["log"].insert(_v2_rolls(data)[-1] + 1, copy)


TAMPERINGS = {
    "a roll line deleted": lambda d, s: d["log"].pop(_v2_rolls(d)[0]),
    "the rolls re-keyed with another set": _rekey,
    "a low roll given the number and value of a high one": lambda d, s: _copy_a_six(d),
    "a contribution the moderator made up": lambda d, s: _made_up_contribution(d),
    "a roll moved to an unused number": lambda d, s: _move_to_unused_number(d),
    "a roll turned into typed in": lambda d, s: _typed(d),
    "a roll inserted": lambda d, s: _insert(d),
}


@pytest.mark.parametrize("how", sorted(TAMPERINGS))
def test_every_tampering_of_the_rolls_fails_verify_dice(how, tmp_path, capsys):
    s, files, sent = closed_turn(tmp_path)
    assert verdict(s).status == "verified"
    bad = _tamper(s, lambda d: TAMPERINGS[how](d, s))
    result = verify_session(bad, pins=False)
    assert result.status == "failed", (how, result.lines())
    path = _saved(bad, tmp_path, "tampered.shipsheet")
    assert main(["verify-dice", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "Verified" not in out


def test_the_player_catches_a_rewritten_transcript_from_their_own_file(tmp_path):
    """A moderator who rewrites a closed turn whole (set, values and the fixed hash) makes a
    file that holds together; the player's pinned transcript and their next orders, which
    quote it inside their signature, show it."""
    s, files, sent = closed_turn(tmp_path)
    blue = tmp_path / "reports" / "turn-2" / "Blue.shipsheet"
    assert verify_session(load_session(blue)).status == "verified"  # pins turn 2
    from shipsheet.pbem.transcript import fixed, read_turn

    def rewrite(data):
        _rekey(data, s)
    bad = _tamper(s, rewrite)
    entry = bad.pbem["dice"]["turns"]["2"]
    entry["transcript"] = fixed(2, read_turn(bad, 2).entries)
    assert verify_session(bad, pins=False).status == "verified"  # the file alone holds
    again = P.player_session(bad, "Blue")
    result = verify_session(again)
    assert result.status == "failed"
    assert any("transcript" in p and "before" in p for p in result.problems)
    # Blue's next orders quote, inside Blue's signature, the transcript Blue was shown: the
    # import into the rewritten session says the record differs (and the audit fails it).
    orders = send_orders(blue, None, "Blue", tmp_path / "blue-t3.orders.json")
    assert json.loads(orders.read_text())["seen"]["transcripts"]["2"] == \
        s.pbem["dice"]["turns"]["2"]["transcript"]["hash"]
    result = import_files(bad, [orders])[0]
    assert result.status == "queued"
    assert result.warnings and "Blue was shown turn 2's transcript as" in result.warnings[0]


# -- orders no one can forge ------------------------------------------------------------------

def test_a_key_the_moderator_registers_in_a_players_name_fails_the_audit(tmp_path):
    """The moderator holds Blue's secret: he can make a join file for a key of his own, and
    orders signed with it. The import takes them; Blue's ShipSheet and the audit, given
    Blue's pins, do not."""
    s, files, sent = closed_turn(tmp_path)
    blue_file = tmp_path / "reports" / "turn-2" / "Blue.shipsheet"
    assert main(["pbem", "pins", str(blue_file), "-o", str(tmp_path / "blue.pins")]) == 0
    # The moderator, as Blue, on another state folder.
    ps = P.player_session(s, "Blue")
    real_state = os.environ["SHIPSHEET_STATE_DIR"]
    os.environ["SHIPSHEET_STATE_DIR"] = str(tmp_path / "moderators-own-state")
    try:
        data, fake = make_join(ps)
        join = write_join(data, tmp_path / "fake.join.json")
        assert import_files(s, [join])[0].status == "needs-confirmation"
        assert import_files(s, [join], confirm=True)[0].status == "accepted"
        ps = P.player_session(s, "Blue")
        path = send_orders_in(ps, tmp_path / "forged.orders.json")
    finally:
        os.environ["SHIPSHEET_STATE_DIR"] = real_state
    assert import_files(s, [path])[0].status == "queued"  # the import cannot tell
    # Blue opens the next file: another key is listed for them.
    result = verify_session(P.player_session(s, "Blue"))
    assert result.status == "failed"
    assert any("another key for you" in p for p in result.problems)
    # The tournament director, with Blue's pins.
    export_bundle(s, tmp_path / "bundle")
    found = audit(tmp_path / "bundle", pins=[tmp_path / "blue.pins"])
    assert found.status == "failed"
    assert any("Blue's key from turn 3" in p and "is not one Blue pinned" in p
               for p in found.problems), found.lines()
    assert main(["pbem", "audit", str(tmp_path / "bundle"), "--pins",
                 str(tmp_path / "blue.pins")]) == 1


def send_orders_in(player_file_session, out):
    O.export_orders(player_file_session, player_file_session.turn, out)
    return out


def test_unsigned_orders_from_a_player_who_joined_are_refused(tmp_path):
    """The moderator's other way to write Blue's orders: the HMAC of Blue's secret."""
    s, files = verifiable_game("fedcom", tmp_path / "t2", joined=("Blue",))
    ps = load_session(files["Blue"])
    data = {"format": "shipsheet-orders", "version": 1, "game": "fedcom", "session": s.uid,
            "turn": 2, "player": "Blue", "seq": 1, "nonce": "ab" * 32, "orders": []}
    path = tmp_path / "hmac.orders.json"
    path.write_text(json.dumps(O.sign(data, P.record.own_player(ps).secret)))
    result = import_files(s, [path])[0]
    assert result.status == "refused" and "not signed: Blue has joined" in result.reason
    # Red has not joined: Red's HMAC orders are still taken (and add nothing to the dice).
    red = send_orders(files["Red"], fedcom_edits, "Red", tmp_path / "red.orders.json")
    assert json.loads(red.read_text())["version"] == 1
    assert import_files(s, [red])[0].status == "queued"
    T.close_orders(s)
    assert s.pbem["dice"]["turns"]["2"]["unsigned"] == ["Red"]


# -- the audit, by someone with no secret ------------------------------------------------------

def test_the_audit_needs_no_secret_and_the_bundle_holds_none(tmp_path):
    s, files, sent = closed_turn(tmp_path)
    for name in files:
        pf = tmp_path / "reports" / "turn-2" / f"{name}.shipsheet"
        assert main(["pbem", "pins", str(pf), "-o", str(tmp_path / f"{name}.pins")]) == 0
    moderator = _saved(s, tmp_path)
    assert main(["pbem", "audit-export", str(moderator), "-o", str(tmp_path / "bundle")]) == 0
    # Nothing secret in it: no player's secret, no private key, no seed of a turn not closed.
    blob = b"".join(p.read_bytes() for p in (tmp_path / "bundle").rglob("*") if p.is_file())
    secrets = [p.secret for p in P.record.players(s)]
    private = [K.load_key(s.uid, n).private for n in files]
    unrevealed = [h for t, h in s.pbem["dice"]["seeds"].items() if int(t) >= s.turn]
    assert secrets and private and len(unrevealed) == 3
    for value in secrets + private + unrevealed:
        assert value.encode() not in blob
    assert s.pbem["dice"]["seeds"]["2"].encode() in blob  # the closed turn's, revealed
    # Run as a tournament director would: another process, an empty home, no state folder.
    home = tmp_path / "empty-home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SHIPSHEET_", "XDG_")) and k not in ("HOME", "APPDATA")}
    env.update(HOME=str(home), USERPROFILE=str(home), PYTHONPATH=str(ROOT))
    args = [sys.executable, "-m", "shipsheet", "pbem", "audit", str(tmp_path / "bundle")]
    for name in files:
        args += ["--pins", str(tmp_path / f"{name}.pins")]
    run = subprocess.run(args, capture_output=True, text=True, env=env, cwd=str(home),
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Audit passed" in run.stdout and "Traceback" not in run.stderr
    assert not any(home.iterdir())  # it wrote nothing, made no state folder


def test_the_audit_catches_a_refusal_that_steered_the_set(tmp_path):
    s, files, sent = closed_turn(tmp_path)
    export_bundle(s, tmp_path / "bundle")
    manifest = json.loads((tmp_path / "bundle" / "audit.json").read_text())
    # The moderator edits the bundle: Green's file left out of the set it made.
    mark = next(e for e in manifest["ledger"] if e["kind"] == "close-orders")
    mark["set"] = [c for c in mark["set"] if c[0] != "Green"]
    manifest["dice"]["turns"]["2"]["set"] = mark["set"]
    (tmp_path / "bundle" / "audit.json").write_text(json.dumps(manifest))
    found = audit(tmp_path / "bundle")
    assert found.status == "failed"
    assert any("steered" in p for t in found.turns for p in t.problems), found.lines()


def test_verify_dice_needs_nothing_but_the_player_file_and_never_prints_a_traceback(tmp_path):
    s, files, sent = closed_turn(tmp_path)
    red = tmp_path / "reports" / "turn-2" / "Red.shipsheet"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # A reader that closes its end at once (as ``| head -0`` would), before the command has
    # written: its writes meet a closed pipe. A message and the verdict's status; no
    # traceback.
    proc = subprocess.Popen([sys.executable, "-m", "shipsheet", "verify-dice", str(red)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 0 and "Traceback" not in err, err
    assert "the output was closed" in err
    full = subprocess.run([sys.executable, "-m", "shipsheet", "verify-dice", str(red)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert full.returncode == 0, full.stdout + full.stderr
    assert "Verified" in full.stdout and "your rolls in full" in full.stdout
    garbage = tmp_path / "garbage.shipsheet"
    data = json.loads(red.read_text())
    data["pbem"]["dice"]["turns"]["2"]["transcript"]["view"] = [{"roll": {"n": "x"}}, 7]
    data["pbem"]["keys"] = {"Blue": "nope"}
    garbage.write_text(json.dumps(data))
    bad = subprocess.run([sys.executable, "-m", "shipsheet", "verify-dice", str(garbage)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr, bad.stdout + bad.stderr


def test_a_player_cannot_crowd_the_ledger_for_the_others(tmp_path):
    """A player may send many authentic files; past their share of the ledger (20 files or
    512 KB a turn) theirs are refused, the others' still come in, and the audit says which
    were kept by their digest alone."""
    from shipsheet.pbem import ledger
    s, files = verifiable_game("fedcom", tmp_path / "t2")
    key = K.load_key(s.uid, "Red")
    base = json.loads(send_orders(files["Red"], fedcom_edits, "Red",
                                  tmp_path / "red.orders.json").read_text())
    spam = []
    for n in range(2, 2 + ledger.MAX_FILES_PER_TURN + 3):
        path = tmp_path / f"red-{n}.orders.json"
        path.write_text(json.dumps(O.signed_by_key(dict(base, seq=n), key)))
        spam.append(path)
    results = import_files(s, spam)
    assert [r.status for r in results].count("queued") == ledger.MAX_FILES_PER_TURN, \
        [r.line() for r in results]
    assert "send one file with all your orders" in results[-1].reason
    blue = send_orders(files["Blue"], fedcom_edits, "Blue", tmp_path / "blue.orders.json")
    assert import_files(s, [blue])[0].status == "queued"  # the others are not crowded out
    T.close_orders(s)
    assert [c[0] for c in s.pbem["dice"]["turns"]["2"]["set"]] == ["Blue", "Red"]
    T.close_turn(s)
    export_bundle(s, tmp_path / "bundle")
    found = audit(tmp_path / "bundle")
    assert found.status == "incomplete" and not found.problems, found.lines()
    assert any("kept by its digest alone" in n for n in found.incomplete)


@pytest.mark.parametrize("turn_key", ["²", "١", "2 ", "-1", ""])
def test_a_signed_file_quoting_a_turn_no_number_reads_is_refused_not_a_crash(tmp_path, turn_key):
    """A joined player's own signed orders whose "seen" transcripts name a turn by a
    character ``str.isdigit`` passes but ``int`` does not read ("²", an Arabic-Indic digit):
    refused with the reason, as any malformed file, never an exception."""
    s, files = verifiable_game("fedcom", tmp_path / "t2")
    red = tmp_path / "red.orders.json"
    data = json.loads(send_orders(files["Red"], None, "Red", red).read_text())
    data["seen"] = {"transcripts": {turn_key: "ab" * 32}}
    red.write_text(json.dumps(O.signed_by_key(data, K.load_key(s.uid, "Red"))))
    [result] = import_files(s, [red])
    assert result.status == "refused" and "transcript" in result.reason, result.line()
