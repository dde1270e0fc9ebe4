"""The loader's shortcuts give what the plain way gives: the depth check read a level at a
time, the size a large file would save as counted without making its text (and bounded
without writing its ships' classes), the cycle collector paused while a session loads and
put back as it was, even when the load fails."""

from __future__ import annotations

import copy
import gc
import json
import random

import pytest

from shipsheet.model import SessionFileError, load_session
from shipsheet.model import storage
from shipsheet.model.paths import resources_dir


def _depth_plainly(value, limit: int) -> bool:
    """Every value's depth, one by one (the old way)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def _nested(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice([1, "a", None, 2.5, True])
    if rng.random() < 0.5:
        return [_nested(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {str(k): _nested(rng, depth - 1) for k in range(rng.randint(0, 3))}


def test_the_depth_check_says_what_looking_at_every_value_says():
    rng = random.Random(28)
    answers = set()
    for _ in range(3000):
        value = _nested(rng, rng.randint(0, 9))
        for limit in (1, 2, 3, 5, 8):
            answer = storage._depth_ok(value, limit)
            assert answer == _depth_plainly(value, limit), (value, limit)
            answers.add(answer)
    assert answers == {True, False}


@pytest.mark.parametrize("game", ["fedcom", "triplanetary", "war-in-space"])
def test_the_size_counted_is_the_size_saved(game):
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    session.ships[0].name = "Ünïcødé ✦ 艦"  # not ASCII: bytes, not characters
    assert storage.saved_size(session) == len(storage.session_to_bytes(session))


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_a_session_loads_and_put_back_as_it_was(enabled, monkeypatch):
    seen = []
    check = storage._session_from_data
    monkeypatch.setattr(storage, "_session_from_data",
                        lambda data, label: (seen.append(gc.isenabled()), check(data, label))[1])
    raw = (resources_dir() / "samples" / "fedcom.shipsheet").read_bytes()
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        storage.parse_session_bytes(raw, "fedcom.shipsheet")
        assert gc.isenabled() is enabled
        with pytest.raises(SessionFileError):
            storage.parse_session_bytes(raw.replace(b'"shipsheet-session"', b'"not-a-session"', 1), "bad")
        assert gc.isenabled() is enabled  # a refused file puts it back too
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False, False]


def _sample(game: str) -> dict:
    return json.loads((resources_dir() / "samples" / f"{game}.shipsheet").read_text("utf-8"))


def _many(data: dict, count: int, classes: str) -> dict:
    """``count`` ships made from the sample's (new ids), their classes ``"shared"`` (all the
    first ship's), ``"repeated"`` (the sample's in turn: equal ones share a class) or
    ``"distinct"`` (each its own, by its name: a file's classes then read once each)."""
    ships = data["ships"]
    data["ships"] = [dict(copy.deepcopy(ships[0] if classes == "shared" else ships[i % len(ships)]),
                          id=f"s{i}", name=f"Ship {i}") for i in range(count)]
    if classes == "distinct":
        for i, ship in enumerate(data["ships"]):
            ship["class"]["class"] = f"Class {i}"
            ship.pop("class_id", None)
    return data


def _states_left_to_defaults(data: dict) -> dict:
    """Every ship's state and turn start left out where the game fills them in (a few
    bytes in the file, hundreds once saved), and no log (nothing else to make up for it)."""
    data["log"] = []
    for ship in data["ships"]:
        ship.pop("turn_start", None)
        if data["game"] != "war-in-space":  # its states name their marks
            ship["state"] = {}
    return data


def _floats_in_options(data: dict) -> dict:
    data["options"]["many"] = "X"
    return data


VARIANTS = {
    "as saved": (lambda d: d, {}),
    "compact, states left to their defaults": (lambda d: _states_left_to_defaults(_many(d, 60, "distinct")),
                                              {"separators": (",", ":")}),
    "one class shared by every ship": (lambda d: _many(d, 60, "shared"), {"separators": (",", ":")}),
    "classes repeated": (lambda d: _many(d, 60, "repeated"), {"separators": (",", ":")}),
    "text escaped in the file": (lambda d: _many(d, 20, "distinct"), {"ensure_ascii": True, "indent": 1}),
    "floats that save longer": (_floats_in_options, {"separators": (",", ":")}),
}


@pytest.mark.parametrize("game", ["fedcom", "triplanetary", "war-in-space"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_bound_on_the_size_a_file_saves_as_is_never_below_it(game, variant):
    """A large file is saved once at load only when ``_saved_size_at_most`` says it might
    not fit: that bound, made without writing the ships' classes, must never be below what
    the session saves as — whatever the file left to its defaults, shared or escaped."""
    make, dump = VARIANTS[variant]
    data = make(_sample(game))
    for ship in data["ships"]:
        ship["name"] = ship["name"] + " Ünïcødé ✦ 艦"
    text = json.dumps(data, **dump)
    if variant == "floats that save longer":
        text = text.replace('"X"', "[" + ",".join(["1E15"] * 500) + "]")
    raw = text.encode("utf-8")
    parsed, grown = storage._decode(raw, "bound.shipsheet")
    session = storage.session_from_data(parsed, "bound.shipsheet")
    saved = storage.saved_size(session)
    bound = storage._saved_size_at_most(session, len(raw), grown)
    assert saved <= bound
    # What the bound stands on: each ship's class saves as the file's text of it read, or
    # (shared with an equal one read before) as that one's.
    def text(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    read = {text(ship["class"]) for ship in json.loads(raw)["ships"]}
    assert all(text(ship.ship_class.data) in read for ship in session.ships)
    # Nothing counted more than twice (once as read, once as it saves), but the floats'
    # growth and the room kept for each ship's comma and its class's place.
    assert bound <= len(raw) + grown + saved + 5 * len(session.ships) + 16
    if variant == "floats that save longer":
        assert grown == 500 * 14  # "1E15" saves as "1000000000000000.0"


def test_a_large_file_is_saved_at_load_only_when_the_bound_says_it_might_not_fit(monkeypatch):
    """The work of a large file's load: its ships' classes are not written to check its saved
    size (counted calls), unless the bound is past the limit; then it is saved once, and
    loads when it fits."""
    raw = json.dumps(_many(_sample("fedcom"), 40, "distinct"), separators=(",", ":")).encode()
    calls = []
    real = storage.saved_size
    monkeypatch.setattr(storage, "saved_size", lambda session: calls.append(1) or real(session))
    monkeypatch.setattr(storage, "SAVE_CHECK_BYTES", len(raw) // 2)
    session = storage.parse_session_bytes(raw, "big.shipsheet")
    assert calls == []
    saved = real(session)
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", saved + 10)  # fits, but the bound is above
    assert len(storage.parse_session_bytes(raw, "big.shipsheet").ships) == 40
    assert calls == [1]
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", saved - 1)
    with pytest.raises(SessionFileError, match="would save as"):
        storage.parse_session_bytes(raw, "big.shipsheet")


def test_a_class_shared_by_equal_definitions_is_counted_as_it_saves():
    """Ships whose definitions are equal share one class (``_ClassCache``), kept as the first
    ship's text read it; equal is not the same when saved (``1 == 1.0 == True``). Here the
    shared class saves far longer than any ship's own definition in the file did: the bound
    counts it as it saves, for each ship."""
    raw = json.dumps(_many(_sample("fedcom"), 30, "shared"), separators=(",", ":")).encode()
    parsed, grown = storage._decode(raw, "shared.shipsheet")
    session = storage.session_from_data(parsed, "shared.shipsheet")
    shared = session.ships[0].ship_class
    assert all(ship.ship_class is shared for ship in session.ships)
    shared.data["notes"] = "saved longer than read " * 150
    assert storage.saved_size(session) <= storage._saved_size_at_most(session, len(raw), grown)


def test_a_float_in_a_class_is_counted_as_it_saves():
    """No game's class takes a float today; were one to, ``1E15`` in the file saves as
    ``1000000000000000.0``: the bound counts what floats grow by (``_decode`` counts it)."""
    data = _sample("fedcom")
    data["ships"], data["log"] = data["ships"][:1], []
    raw = json.dumps(data, separators=(",", ":")).encode()
    parsed, grown = storage._decode(raw, "float.shipsheet")
    session = storage.session_from_data(parsed, "float.shipsheet")
    # As if the file had given the class "x":[1E15,...] (200 of them), read as floats.
    session.ships[0].ship_class.data["x"] = [1e15] * 200
    in_file = len(',"x":[' + ",".join(["1E15"] * 200) + "]")
    bound = storage._saved_size_at_most(session, len(raw) + in_file, grown + 200 * 14)
    assert storage.saved_size(session) <= bound
