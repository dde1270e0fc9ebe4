"""Session files: round trip, clear errors for bad files, never modified, migrations."""

import hashlib
import json
import os
from pathlib import Path

import pytest

from shipsheet.model import SessionFileError, load_session, save_session
from shipsheet.model.storage import FORMAT, VERSION, session_to_data

from sessions import three_ship_session


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("game", ["war-in-space", "triplanetary", "fedcom"])
def test_round_trip_keeps_everything(tmp_path, game):
    session = three_ship_session(game)
    session.next_phase()
    path = tmp_path / "night.shipsheet"
    save_session(session, path)
    loaded = load_session(path)
    assert session_to_data(loaded) == session_to_data(session)
    assert [s.name for s in loaded.ships] == [s.name for s in session.ships]
    assert loaded.turn == session.turn and loaded.phase == session.phase
    assert loaded.dice.seed == 1234 and loaded.dice.count == session.dice.count


def test_file_is_json_with_format_and_version_and_embeds_the_class(tmp_path):
    session = three_ship_session()
    path = tmp_path / "s.shipsheet"
    save_session(session, path)
    data = json.loads(path.read_text("utf-8"))
    assert data["format"] == "shipsheet-session" and data["version"] == VERSION
    assert data["ships"][0]["class"]["class"] == session.ships[0].ship_class.name


def test_opens_where_the_class_is_not_installed(tmp_path):
    session = three_ship_session()
    data = session_to_data(session)
    for ship in data["ships"]:
        ship["class_id"] = "triplanetary/only-on-the-referees-laptop"
    path = tmp_path / "s.shipsheet"
    path.write_text(json.dumps(data))
    loaded = load_session(path)
    assert loaded.ships[0].ship_class.id == "triplanetary/only-on-the-referees-laptop"


def _bad_files(tmp_path):
    good = session_to_data(three_ship_session())
    text = json.dumps(good)
    deep = "[" * 100_000 + "]" * 100_000
    newer = dict(good, version=VERSION + 1)
    huge = dict(good, turn=10 ** 30)
    wrong_ship = json.loads(text)
    wrong_ship["ships"][0]["class"]["combat"] = "lots"
    return {
        "empty": (b"", "the file is empty"),
        "truncated": (text[: len(text) // 2].encode(), "damaged or truncated"),
        "binary": (bytes(range(256)) * 4, "not a ShipSheet session (the file is not text"),
        "not-json": (b"Dear referee, here is my ship", "damaged or truncated"),
        "other-json": (b'{"hello": "world"}', 'no "format": "shipsheet-session"'),
        "list": (b"[1, 2, 3]", 'no "format": "shipsheet-session"'),
        "newer": (json.dumps(newer).encode(), "made by a newer ShipSheet (file version 2"),
        "huge-number": (json.dumps(huge).encode(), "turn: 1000000000000000000000000000000 is too large"),
        "huge-digits": (text.replace('"turn": 1', '"turn": ' + "9" * 5000).encode(), "damaged or truncated"),
        "nan": (text.replace('"turn": 1', '"turn": NaN').encode(), None),
        "deep": (deep.encode(), None),
        "bad-class": (json.dumps(wrong_ship).encode(), "ships[0].class"),
    }


@pytest.mark.parametrize("kind", ["empty", "truncated", "binary", "not-json", "other-json", "list", "newer",
                                  "huge-number", "huge-digits", "nan", "deep", "bad-class"])
def test_bad_files_give_a_clear_error_and_are_not_touched(tmp_path, kind):
    payload, message = _bad_files(tmp_path)[kind]
    path = tmp_path / f"{kind}.shipsheet"
    path.write_bytes(payload)
    before, mtime = digest(path), os.stat(path).st_mtime_ns
    with pytest.raises(SessionFileError) as info:
        load_session(path)
    assert str(info.value).startswith(f"{kind}.shipsheet: ")
    if message:
        assert message in str(info.value)
    assert digest(path) == before and os.stat(path).st_mtime_ns == mtime


def test_hundred_megabyte_file_is_refused_quickly(tmp_path):
    path = tmp_path / "huge.shipsheet"
    with open(path, "wb") as fh:
        fh.write(b'{"format": "shipsheet-session", "name": "')
        fh.write(b"x" * (100 * 1024 * 1024))
        fh.write(b'"}')
    with pytest.raises(SessionFileError, match="too large"):
        load_session(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(SessionFileError, match="cannot read"):
        load_session(tmp_path / "nope.shipsheet")
    with pytest.raises(SessionFileError, match="is a folder"):
        load_session(tmp_path)


def test_version_0_file_is_migrated(tmp_path):
    """A hand-made version-0 file: ships had "definition" and "damage", dice a bare seed, no log."""
    frigate = (Path(__file__).parents[2] / "resources/ships/triplanetary/frigate.toml").read_text()
    import tomllib
    v0 = {
        "format": FORMAT,
        "version": 0,
        "game": "triplanetary",
        "name": "Old night",
        "turn": 4,
        "seed": 555,
        "ships": [{"id": "nike1", "name": "Nike", "definition": tomllib.loads(frigate)}],
    }
    # The old file carried the state under "damage": take an undamaged state from a new ship.
    from shipsheet.model import get_class, new_ship
    v0["ships"][0]["damage"] = new_ship(get_class("triplanetary/frigate"), "x").state
    path = tmp_path / "old.shipsheet"
    path.write_text(json.dumps(v0))
    session = load_session(path)
    assert session.name == "Old night" and session.turn == 4
    assert session.dice.seed == 555 and session.log == []
    assert session.ships[0].name == "Nike" and session.ships[0].ship_class.name == "Frigate"


def test_save_replaces_atomically_and_leaves_no_temp_files(tmp_path):
    session = three_ship_session()
    path = tmp_path / "s.shipsheet"
    save_session(session, path)
    session.next_phase()
    save_session(session, path)
    assert load_session(path).phase == session.phase
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.shipsheet"]


def test_bad_log_entry_is_named_by_its_key_path(tmp_path):
    data = session_to_data(three_ship_session())
    data["log"][1]["kind"] = "gossip"
    path = tmp_path / "log.shipsheet"
    path.write_text(json.dumps(data))
    with pytest.raises(SessionFileError, match=r'log\[1\]\.kind: unknown value "gossip"'):
        load_session(path)


def test_log_entry_with_a_list_for_its_kind(tmp_path):
    data = session_to_data(three_ship_session())
    data["log"][0]["kind"] = []
    path = tmp_path / "log.shipsheet"
    path.write_text(json.dumps(data))
    with pytest.raises(SessionFileError, match=r"log\[0\]\.kind: expected text, found a list"):
        load_session(path)


def test_a_log_entry_reads_the_same_whichever_way_it_is_checked(tmp_path):
    """Log entries are checked by a fast path and, when in doubt, by the key-path reader:
    an edited file's padded texts come back trimmed either way, an empty ship id is refused."""
    data = session_to_data(three_ship_session())
    data["log"][0]["text"] = "  padded by hand  "
    data["log"][1]["text"] = "  padded, kind too  "
    data["log"][1]["kind"] = " " + data["log"][1]["kind"]  # in doubt: the key-path reader
    path = tmp_path / "log.shipsheet"
    path.write_text(json.dumps(data))
    log = load_session(path).log
    assert log[0].text == "padded by hand" and log[1].text == "padded, kind too"
    data["log"][0]["ship"] = ""
    path.write_text(json.dumps(data))
    with pytest.raises(SessionFileError, match=r"log\[0\]\.ship: must not be empty"):
        load_session(path)
