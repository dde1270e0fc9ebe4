"""A player's own key (pbem/keys.py), join files (pbem/joins.py) and pins (pbem/pins.py): one
contribution per key and turn, a signature no one can alter into another, a key that
stays in its player's state folder, a join file the moderator can check, and a player's
ShipSheet that remembers what it was shown."""

from __future__ import annotations

import json
import os
import stat

import pytest

from shipsheet.model.dice import commitment
from shipsheet.model.storage import load_session, save_session
from shipsheet.pbem import joins as J
from shipsheet.pbem import keys as K
from shipsheet.pbem import pins as Pins
from shipsheet.pbem import players as P
from shipsheet.pbem.inbox import import_files

from pbem_helpers import verifiable_game

#: The order of the Ed25519 group (RFC 8032): S + L is the same scalar, another encoding.
L = 2**252 + 27742317777372353535851937790883648493


def test_a_contribution_is_one_value_per_key_and_turn():
    private, public = K.generate()
    key = K.PlayerKey("uid1", "Blue", private, public)
    c = commitment("11" * 32)
    assert key.contribution(3, c) == key.contribution(3, c)  # deterministic: nothing to search
    assert key.contribution(3, c) != key.contribution(4, c)
    assert K.verify(public, K.contribution_message("uid1", 3, c), key.contribution(3, c))
    assert not K.verify(public, K.contribution_message("uid2", 3, c), key.contribution(3, c))
    assert not K.verify(K.generate()[1], K.contribution_message("uid1", 3, c),
                        key.contribution(3, c))


def test_a_signature_cannot_be_made_into_another_valid_one():
    """Ed25519 as ``cryptography`` checks it refuses a non-canonical S (S + L), so a player
    cannot turn their one contribution into a second one to choose between."""
    private, public = K.generate()
    message = b"shipsheet dice contribution v2\n{}"
    signature = bytes.fromhex(K.sign(private, message))
    s = int.from_bytes(signature[32:], "little")
    other = signature[:32] + (s + L).to_bytes(32, "little")
    assert K.verify(public, message, signature.hex())
    assert not K.verify(public, message, other.hex())
    for bad in ("", "zz" * 64, "00" * 64, signature.hex()[:-2], None, 5):
        assert not K.verify(public, message, bad)


def test_the_key_stays_in_the_players_state_folder_readable_by_them_only(tmp_path):
    key = K.make_key("uid1", "Blue ../../etc")
    path = K.key_path("uid1", "Blue ../../etc")
    assert path.parent == K.key_path("x", "y").parent  # named by a hash: no name is a path
    assert ".." not in path.name and len(path.stem) == 32
    assert K.load_key("uid1", "Blue ../../etc") == key
    assert K.load_key("uid1", "Red") is None
    if os.name == "posix":  # file modes are POSIX's (Windows keeps it in the user's profile)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    data = json.loads(path.read_text())
    data["public"] = K.generate()[1]  # a key file whose halves do not belong together
    path.write_text(json.dumps(data))
    with pytest.raises(K.SigningKeyError, match="damaged"):
        K.load_key("uid1", "Blue ../../etc")


def test_a_join_file_is_checked_with_the_secret_and_its_own_key(tmp_path):
    s, files = verifiable_game("fedcom", tmp_path, joined=())
    ps = load_session(files["Blue"])
    data, key = J.make_join(ps)
    assert J.authentic(data, P.record.own_player(ps).secret) and J.proves_possession(data)
    assert data["replaces"] is None and data["public_key"] == key.public
    path = J.write_join(data, tmp_path / "Blue.join.json")
    # Changed after it was written: the MAC, then the key's own signature, fail.
    for change, why in ((dict(data, turn=9), "does not match Blue's secret"),
                        ({**data, "public_key": K.generate()[1]}, "does not match")):
        bad = tmp_path / "bad.join.json"
        bad.write_text(json.dumps(change))
        result = import_files(s, [bad])[0]
        assert result.status == "refused" and why in result.reason
    forged = dict(data, public_key=K.generate()[1])
    forged["mac"] = J.mac_of(P.record.own_player(ps).secret, forged)  # the moderator's MAC
    bad.write_text(json.dumps(forged))
    result = import_files(s, [bad])[0]
    assert result.status == "refused" and "own signature does not hold" in result.reason
    assert import_files(s, [path])[0].status == "accepted"
    assert import_files(s, [path])[0].status == "duplicate"
    assert [k.public for k in P.record.find_player(s, "Blue").keys] == [key.public]


def test_a_lost_key_is_replaced_with_the_moderators_confirmation(tmp_path):
    s, files = verifiable_game("fedcom", tmp_path, joined=("Blue",))
    old = K.load_key(s.uid, "Blue")
    ps = load_session(files["Blue"])
    data, new = J.make_join(ps, new_key=True)
    assert new.public != old.public and data["replaces"] == old.fingerprint
    path = J.write_join(data, tmp_path / "new.join.json")
    result = import_files(s, [path])[0]
    assert result.status == "needs-confirmation" and "replace their key" in result.reason
    assert import_files(s, [path], confirm=True)[0].status == "accepted"
    keys = P.record.find_player(s, "Blue").keys
    assert [k.public for k in keys] == [new.public]  # joined and replaced within one turn
    assert "Blue's key replaced from turn 2" in s.log_text()


def test_pins_remember_what_the_player_was_shown_and_catch_a_change(tmp_path):
    s, files = verifiable_game("fedcom", tmp_path, joined=("Blue", "Red"))
    blue = P.player_session(s, "Blue")
    first = Pins.check(blue)
    assert first.problems == [] and first.pins.own == K.load_key(s.uid, "Blue").fingerprint
    assert first.pins.keys["Red"] and first.pins.commitments[2] == \
        s.pbem["dice"]["commitments"]["2"]
    again = P.player_session(s, "Blue")
    again.pbem["dice"]["commitments"]["2"] = "cd" * 32  # a moderator changing his word...
    from shipsheet.pbem.public import seal
    again.pbem["seal"] = seal(again.pbem, again.turn, P.record.own_player(again).secret)
    found = Pins.check(again)
    assert any("Turn 2's commitment" in p and "changed it" in p for p in found.problems)
    # ...or a file changed by someone else: its seal no longer holds, nothing is pinned.
    other = P.player_session(s, "Blue")
    other.pbem["dice"]["commitments"]["9"] = "ab" * 32
    assert Pins.check(other).problems == [] and 9 not in Pins.load(s.uid, "Blue").commitments
    from shipsheet.pbem.verify import verify_session
    assert verify_session(other).status == "failed"  # the seal does not hold
    # Red's key swapped with no replacement on record.
    swapped = P.player_session(s, "Blue")
    swapped.pbem["keys"]["Red"] = [{"public": K.generate()[1], "from": 2}]
    swapped.pbem["seal"] = seal(swapped.pbem, swapped.turn, P.record.own_player(swapped).secret)
    assert any("Red's key is now" in p for p in Pins.check(swapped).problems)
    save_session(swapped, tmp_path / "swapped.shipsheet")
