"""Files from others can do no harm: each finding of the hostile-input audit, at its root.

Every accepted file must save and load again ("whatever loads, saves"); every refusal
names the key and the problem; nothing waits on a pipe or reads without bound.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shipsheet.model import SessionFileError, ShipDefinitionError, load_session, save_session
from shipsheet.model import storage
from shipsheet.model.files import UnreadableFile, read_regular
from shipsheet.model.paths import resources_dir
from shipsheet.model.storage import parse_session_bytes, session_to_bytes

from sessions import three_ship_session
from ship_variants import ship_variants
from untimed import returns, within_memory

SAMPLES = resources_dir() / "samples"


def sample_data(game: str = "fedcom") -> dict:
    return json.loads((SAMPLES / f"{game}.shipsheet").read_text("utf-8"))


def raw(data) -> bytes:
    return json.dumps(data).encode("utf-8")


def round_trip(session):
    again = parse_session_bytes(session_to_bytes(session), "again")
    assert session_to_bytes(again) == session_to_bytes(session)
    return again


# -- 1. names that would be paths ------------------------------------------------------------

@pytest.mark.parametrize("uid", ["../../victim/settings", "*", "a b", "", "x" * 65, "ok/..", "é"])
def test_a_uid_that_is_not_plain_letters_is_replaced_at_load(uid):
    data = sample_data()
    data["uid"] = uid
    session = parse_session_bytes(raw(data), "mail.shipsheet")
    assert session.uid != uid and len(session.uid) == 32
    round_trip(session)


# -- 3. whatever loads, saves ------------------------------------------------------------------

@pytest.mark.parametrize("where", ["name", "ship", "side", "log", "options", "state", "key"])
def test_text_that_is_no_character_is_refused_at_load(where):
    """A lone surrogate loaded, then every save failed with UnicodeEncodeError."""
    data = sample_data()
    bad = "Res\ud800lute"
    if where == "name":
        data["name"] = bad
    elif where == "ship":
        data["ships"][0]["name"] = bad
    elif where == "side":
        data["ships"][0]["side"] = bad
    elif where == "log":
        data["log"][0]["text"] = bad
    elif where == "options":
        data["options"]["note"] = bad
    elif where == "state":
        data["ships"][0]["class"]["notes"] = bad
    else:
        data["options"][bad] = 1
    text = json.dumps(data)  # ensure_ascii: the surrogate is written as \ud800
    with pytest.raises(SessionFileError, match="not valid Unicode"):
        parse_session_bytes(text.encode(), "mail.shipsheet")


def test_a_valid_surrogate_pair_is_a_character_and_loads():
    data = sample_data()
    data["ships"][0]["name"] = "Resolute \U0001F680"
    session = parse_session_bytes(json.dumps(data).encode(), "ok.shipsheet")  # \ud83d\ude80
    assert session.ships[0].name.endswith("\U0001F680")
    round_trip(session)


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1E999"])
def test_numbers_too_large_to_save_are_refused_at_load(number):
    """1e400 read as infinity, which saves as Infinity, which load refuses."""
    text = json.dumps(sample_data()).replace('"options": {', f'"options": {{"x": {number}, ', 1)
    with pytest.raises(SessionFileError, match="too large"):
        parse_session_bytes(text.encode(), "mail.shipsheet")


def test_a_log_saves_no_larger_than_it_was_read():
    """1,000,000 bare log entries (13 MB) saved as 70 MB, over the load limit: the user's own
    save locked them out. Fields at their file default are now left out when saving."""
    data = sample_data()
    data["log"] = [{"text": ""}] * 1000
    data_raw = raw(data)
    session = parse_session_bytes(data_raw, "log.shipsheet")
    saved = session_to_bytes(session)
    assert saved.count(b'{"text":""}') == 1000
    assert len(saved) <= len(data_raw)
    round_trip(session)


def test_a_large_file_that_would_save_past_the_limit_is_refused_at_load(monkeypatch):
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", 60_000)
    monkeypatch.setattr(storage, "SAVE_CHECK_BYTES", 12_000)
    data = sample_data()
    data["options"]["many"] = "X"
    text = json.dumps(data).replace('"X"', "[" + ",".join(["1E15"] * 3000) + "]")
    assert 12_000 < len(text) < 60_000
    with pytest.raises(SessionFileError, match="would save as"):
        parse_session_bytes(text.encode(), "big.shipsheet")


def test_a_byte_order_mark_is_accepted():
    session = parse_session_bytes(b"\xef\xbb\xbf" + raw(sample_data()), "bom.shipsheet")
    assert session.ships


def test_messages_say_null_not_nonetype():
    data = sample_data()
    data["ships"][0]["name"] = None
    with pytest.raises(SessionFileError, match=r"ships\[0\]\.name: expected text, found null"):
        parse_session_bytes(raw(data), "mail.shipsheet")


# -- 4. wrong types where code expected others --------------------------------------------------

@pytest.mark.parametrize("ships", [3, None, {"a": 1}, "ships"])
def test_a_version_0_file_with_ships_of_the_wrong_type_is_refused(ships):
    data = {"format": "shipsheet-session", "version": 0, "game": "fedcom", "ships": ships}
    with pytest.raises(SessionFileError, match="ships: expected a list"):
        parse_session_bytes(raw(data), "old.shipsheet")


@pytest.mark.parametrize("chart", [3, ["training"], {"id": "training"}, "../../etc/passwd", True])
def test_a_fedcom_chart_choice_of_the_wrong_kind_is_refused(chart):
    data = sample_data("fedcom")
    data["options"]["chart"] = chart
    with pytest.raises(SessionFileError, match="options.chart"):
        parse_session_bytes(raw(data), "chart.shipsheet")


def test_a_kept_chart_that_does_not_validate_is_refused():
    data = sample_data("fedcom")
    data["options"]["chart"] = "mine"
    data["options"]["chart_data"] = {"id": "mine", "name": "Mine", "rows": [["phaser"]]}
    with pytest.raises(SessionFileError, match="options.chart_data: the kept chart does not validate"):
        parse_session_bytes(raw(data), "chart.shipsheet")


@pytest.mark.parametrize("combat", [1, "fancy", None, ["standard"]])
def test_a_triplanetary_combat_option_of_the_wrong_kind_is_refused(combat):
    data = sample_data("triplanetary")
    data["options"]["combat"] = combat
    with pytest.raises(SessionFileError, match="options.combat"):
        parse_session_bytes(raw(data), "tp.shipsheet")


# -- 5. special files ---------------------------------------------------------------------------

def test_a_pipe_or_a_device_is_refused_at_once(tmp_path):
    fifo = tmp_path / "night.shipsheet"
    os.mkfifo(fifo)
    with pytest.raises(SessionFileError, match="is a pipe, not a file"):
        returns(lambda: load_session(fifo))  # opening it to read would wait for a writer
    zero = tmp_path / "zero.shipsheet"
    zero.symlink_to("/dev/zero")
    with pytest.raises(SessionFileError, match="is a device, not a file"):
        returns(lambda: load_session(zero))  # read, it has no end
    with pytest.raises(SessionFileError, match="is a folder"):
        load_session(tmp_path)


def test_reads_are_bounded_and_checked_before_reading(tmp_path):
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:
        fh.truncate(200 * 1024 * 1024)  # 200 MB, sparse: cheap to make, slow to read
    # Read whole, the file would be 200 MB in memory: refused, it never is.
    with pytest.raises(UnreadableFile, match="too large"):
        within_memory(lambda: read_regular(big, 1024), 16 * 1024 * 1024)
    from shipsheet.model import load_ship_class
    with pytest.raises(ShipDefinitionError, match="too large"):
        within_memory(lambda: load_ship_class(big), 16 * 1024 * 1024)


def test_a_deeply_nested_toml_is_a_clean_refusal(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    from shipsheet.model import load_ship_class
    with pytest.raises(ShipDefinitionError, match="deep.toml: "):
        load_ship_class(deep)


def test_a_pipe_among_the_users_ships_and_charts_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setenv("SHIPSHEET_DATA_DIR", str(tmp_path))
    (tmp_path / "ships" / "fedcom").mkdir(parents=True)
    (tmp_path / "charts" / "fedcom").mkdir(parents=True)
    os.mkfifo(tmp_path / "ships" / "fedcom" / "trap.toml")
    os.mkfifo(tmp_path / "charts" / "fedcom" / "trap.toml")
    from shipsheet.model.library import library_problems, list_classes
    from shipsheet.rules.fedcom import list_charts
    returns(lambda: list_classes("fedcom"))
    assert any("trap.toml" in p and "pipe" in p for p in library_problems())
    returns(lambda: list_charts())


# -- 8. load time is linear in the ship count ---------------------------------------------------
# Timed in ``make bench`` (tests/benchmarks/test_load_scaling.py: time per ship against a file a
# tenth the size); here, with no clock, the work a load does counted per ship.

def _armada(tmp_path, count: int) -> Path:
    """``count`` ships of three classes, as a session saves them (three ships made and
    saved, their data repeated under new ids and names)."""
    from shipsheet.model import Session, get_class, new_ship
    session = Session("fedcom", name="Armada")
    for c in ("fedcom/sample-heavy-cruiser", "fedcom/sample-frigate", "fedcom/sample-dreadnought"):
        session.ships.append(new_ship(get_class(c), "Ship"))
    data = json.loads(session_to_bytes(session))
    three = data["ships"]
    data["ships"] = [{**three[i % 3], "id": f"ship{i}", "name": f"Ship {i}"} for i in range(count)]
    path = tmp_path / f"armada-{count}.shipsheet"
    path.write_bytes(raw(data))
    return path


def _counted_load(path: Path, monkeypatch) -> tuple[object, dict[str, int]]:
    """``load_session(path)`` and the work it did: values visited by the checker
    (``keypath.Node.child``), classes parsed, and lines run to find each ship's class
    (``storage._ClassCache.get``, line-traced: a scan of the classes or ships loaded before
    runs lines for each one seen)."""
    import sys

    from shipsheet.model import keypath
    counts = {"values": 0, "parses": 0, "class lookup lines": 0}
    child, parse, get = keypath.Node.child, storage.parse_ship_class, storage._ClassCache.get

    def counting_child(self, key, value):
        counts["values"] += 1
        return child(self, key, value)

    def counting_parse(*args, **kwargs):
        counts["parses"] += 1
        return parse(*args, **kwargs)
    here = storage.__file__

    def line(frame, event, arg):
        if event == "line":
            counts["class lookup lines"] += 1
        return line

    def call(frame, event, arg):
        return line if frame.f_code.co_filename == here else None

    def traced_get(self, *args):
        was = sys.gettrace()
        sys.settrace(call)  # only while a class is looked up: the rest of the load runs at speed
        try:
            return get(self, *args)
        finally:
            sys.settrace(was)
    monkeypatch.setattr(keypath.Node, "child", counting_child)
    monkeypatch.setattr(storage, "parse_ship_class", counting_parse)
    monkeypatch.setattr(storage._ClassCache, "get", traced_get)
    # Every file saved once at load, as a large one is: the same path for every size.
    monkeypatch.setattr(storage, "SAVE_CHECK_BYTES", 0)
    try:
        return load_session(path), counts
    finally:
        monkeypatch.undo()


def test_five_thousand_ships_load_with_the_same_work_per_ship_as_five_hundred(tmp_path, monkeypatch):
    """2,000 ships took 11.5 s, 5,000 took 68 s: each ship's class was found by a linear scan.
    Counted, not timed: each ship from the 500th to the 5,000th costs as many values visited
    and lines run to find its class as each from the 50th to the 500th (the session's own
    fields, counted once, drop out), and each of the three classes is parsed once."""
    counted = {}
    for count in (50, 500, 5000):
        loaded, counted[count] = _counted_load(_armada(tmp_path, count), monkeypatch)
        assert len(loaded.ships) == count
        assert len({id(s.ship_class) for s in loaded.ships}) == 3  # one parse per class
        assert counted[count]["parses"] == 3
    for what in ("values", "class lookup lines"):
        early = (counted[500][what] - counted[50][what]) / 450
        late = (counted[5000][what] - counted[500][what]) / 4500
        assert early >= 1, (what, early)  # it counted the ships' work at all
        assert abs(late - early) / early < 0.01, (what, early, late)


def test_a_session_past_the_ship_limit_is_refused_at_save_with_the_limit_named(tmp_path):
    """Whatever saves, loads: 5,001 ships saved, then could not be opened ("expected at most
    5000 entries"). Now the save refuses first, naming the limit, and the file on disk (and
    an autosave) stays as it was."""
    from shipsheet.model import Session, get_class, new_ship
    from shipsheet.model.autosave import AutosaveStore
    from shipsheet.model.storage import MAX_SHIPS, SessionTooLarge
    session = Session("fedcom", name="Armada")
    frigate = get_class("fedcom/sample-frigate")
    session.ships.append(new_ship(frigate, "Ship 0"))
    path = tmp_path / "armada.shipsheet"
    save_session(session, path)
    before = path.read_bytes()
    session.ships.extend(new_ship(frigate, f"Ship {i}") for i in range(1, MAX_SHIPS + 1))
    with pytest.raises(SessionTooLarge, match="5,001 ships; a session file may have at most 5,000"):
        save_session(session, path)
    assert path.read_bytes() == before
    handle = AutosaveStore(tmp_path / "autosave").handle()
    with pytest.raises(SessionTooLarge, match="at most 5,000"):
        handle.write(session)
    assert not list((tmp_path / "autosave").glob("*.shipsheet"))


def _notes(cls, i):
    cls["notes"] = f"variant {i}"


def test_load_work_per_ship_is_the_same_for_60_and_600_ships_and_no_key_path_is_spelled(monkeypatch):
    """Linear loading, counted: a hostile file, every ship's class a little different, all
    claiming one id, each loads as its own class (each one parsed);
    the checker visits as many values per ship for 600 ships as for 60, and a good file
    spells no key path but each class's own (they are made for an error's message;
    spelling one for each of the 265,000 values of 1,000 ships was a fifth of a load)."""
    from shipsheet.model import keypath
    counts = {"child": 0, "path": 0}
    child, path = keypath.Node.child, keypath.Node.path.fget

    def counting_child(self, key, value):
        counts["child"] += 1
        return child(self, key, value)

    def counting_path(self):
        counts["path"] += 1
        return path(self)
    monkeypatch.setattr(keypath.Node, "child", counting_child)
    monkeypatch.setattr(keypath.Node, "path", property(counting_path))
    data = sample_data("fedcom")
    ship = data["ships"][0]

    def per_ship(count):
        data["ships"] = ship_variants(ship, count, _notes)
        counts.update(child=0, path=0)
        session = parse_session_bytes(raw(data), "variants.shipsheet")
        assert len({id(s.ship_class) for s in session.ships}) == count
        return counts["child"] / count, counts["path"] / count

    small, small_paths = per_ship(60)
    big, big_paths = per_ship(600)
    assert small > 50  # a ship's class and state are checked value by value
    assert abs(big - small) / small < 0.02, (small, big)
    # One key path a parsed class: its name in the errors its rules may raise.
    assert small_paths < 3.1 and big_paths < 3.1, (small_paths, big_paths)


# -- 9. the terminal ---------------------------------------------------------------------------

def test_check_escapes_control_characters(tmp_path, capsys):
    """An escape sequence in a file could rewrite an ERROR line into a fake OK, or set the
    terminal's title."""
    from shipsheet.cli import main
    data = sample_data()
    data["name"] = "Night\x1b]0;pwned\x07\x1b[2K\rOK\u202e"
    path = tmp_path / "night\x1b[31m.shipsheet"
    path.write_text(json.dumps(data))
    bad = tmp_path / "bad.shipsheet"
    data["game"] = "\x1b[32mfine\x1b[0m"
    bad.write_text(json.dumps(data))
    assert main(["check", str(path), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err and "\u202e" not in out
    assert "Night\\x1b]0;pwned\\x07" in out and "\\u202e" in out
    assert "night\\x1b[31m.shipsheet: OK" in out
    assert "bad.shipsheet: ERROR: " in err and "\\x1b[32mfine" in err


# -- 10. saving -----------------------------------------------------------------------------------

def test_saving_through_a_symlink_writes_the_target(tmp_path):
    target = tmp_path / "real" / "night.shipsheet"
    target.parent.mkdir()
    save_session(three_ship_session(), target)
    link = tmp_path / "night.shipsheet"
    link.symlink_to(target)
    session = three_ship_session()
    session.turn = 7
    save_session(session, link)
    assert link.is_symlink()
    assert load_session(target).turn == 7


def test_temporary_files_of_killed_saves_are_removed_by_the_next_save(tmp_path):
    """An older ShipSheet's temporary files (``.NAME.<random>.tmp``, never locked) go by
    their age, beside the file saved; today's (``.saving.tmp``, locked while written) go
    whatever their age once no writer holds them: tests/model/test_save_leftovers.py."""
    path = tmp_path / "night.shipsheet"
    stale = tmp_path / ".night.shipsheet.abc123.tmp"
    fresh = tmp_path / ".night.shipsheet.def456.tmp"  # perhaps another save right now
    other = tmp_path / ".other.shipsheet.abc123.tmp"
    for f in (stale, fresh, other):
        f.write_bytes(b"x" * 1000)
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    save_session(three_ship_session(), path)
    assert not stale.exists() and fresh.exists() and other.exists()


FULL_DISK = r"""
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
from shipsheet.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("room", [0, 30_000])
def test_pdf_export_on_a_full_disk_says_so_and_keeps_the_old_pdf(tmp_path, room):
    """Finding 6: exit 0 and "Exported", over a 0-byte or truncated PDF."""
    out = tmp_path / "sheets.pdf"
    out.write_bytes(b"%PDF-1.4 the previous export\n%%EOF\n")
    before = out.read_bytes()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([sys.executable, "-c", FULL_DISK, str(room), "print",
                          str(SAMPLES / "fedcom.shipsheet"), "--all", "-o", str(out)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "cannot write" in run.stderr
    assert out.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_session_save_on_a_full_disk_fails_and_keeps_the_old_file(tmp_path):
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    before = path.read_bytes()
    code = ("import resource, signal, sys\n"
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
            "resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))\n"
            "sys.path.insert(0, sys.argv[2])\n"
            "from sessions import three_ship_session\n"
            "from shipsheet.model import save_session\n"
            "s = three_ship_session(); s.turn = 9\n"
            "try:\n    save_session(s, sys.argv[1])\nexcept OSError as e:\n    print('failed', e.errno)\n")
    run = subprocess.run([sys.executable, "-c", code, str(path), str(Path(__file__).parent)],
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.startswith("failed"), run.stderr
    assert path.read_bytes() == before


def test_a_session_too_large_to_open_again_is_not_saved(tmp_path, monkeypatch):
    """Whatever saves, loads: a log grown by play past what a session file may hold (a
    million lines of detail are 67 MB) is refused at save, with the reason, and the old
    file stays."""
    path = tmp_path / "night.shipsheet"
    session = three_ship_session()
    save_session(session, path)
    before = path.read_bytes()
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", len(before) + 100)
    from shipsheet.model.log import LogEntry
    session.log += [LogEntry(f"point {i}: roll 4, row 4, column 3", "detail") for i in range(50)]
    with pytest.raises(storage.SessionTooLarge, match="too large to save"):
        save_session(session, path)
    assert path.read_bytes() == before


def test_the_log_is_saved_from_kept_blocks_exactly_as_a_whole(tmp_path):
    from shipsheet.model.log import LogEntry
    session = load_session(SAMPLES / "fedcom.shipsheet")
    reference = lambda: json.dumps(storage.session_to_data(session), ensure_ascii=False,  # noqa: E731
                                   separators=(",", ":")).encode()
    assert session_to_bytes(session) == reference()
    session.log += [LogEntry(f"line {i}", "detail") for i in range(3000)]
    assert session_to_bytes(session) == reference()
    session.log[5].undone = True
    session.log[2500].undone = True
    assert session_to_bytes(session) == reference()
    del session.log[1500:]
    assert session_to_bytes(session) == reference()
