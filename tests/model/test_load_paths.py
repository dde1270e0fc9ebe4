"""The loader's shortcuts give what the plain way gives: the depth check read a level at a
time, the size a large file would save as counted without making its text, the cycle
collector paused while a session loads and put back as it was, even when the load fails."""

from __future__ import annotations

import gc
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
