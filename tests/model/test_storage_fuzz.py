"""Hostile and mutated session files: SessionFileError or a valid session, nothing else.

Two hypothesis tests, 1,200 examples each (2,400 files): one generates JSON
of any shape around the session keys, one mutates the bytes of real session
files of all three games (flips, cuts, splices, inserted junk).
"""

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from shipsheet.model import Session, SessionFileError
from shipsheet.model.storage import parse_session_bytes, session_to_bytes, session_to_data

from sessions import three_ship_session

SEEDS = [session_to_bytes(three_ship_session(g)) for g in ("war-in-space", "triplanetary", "fedcom")]
SEED_DATA = [json.loads(s) for s in SEEDS]

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=False), st.text(max_size=20))
json_values = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)), max_leaves=20)


def check(raw: bytes) -> None:
    try:
        session = parse_session_bytes(raw, "fuzz.shipsheet")
    except SessionFileError as exc:
        assert str(exc).startswith("fuzz.shipsheet: ")
        return
    assert isinstance(session, Session)
    # Whatever loads must also save and load again to the same data.
    again = parse_session_bytes(session_to_bytes(session), "again")
    assert session_to_data(again) == session_to_data(session)


@st.composite
def replaced_fields(draw):
    data = json.loads(json.dumps(draw(st.sampled_from(SEED_DATA))))
    # Walk to a random place in the real file and put any JSON value there.
    node = data
    for _ in range(draw(st.integers(0, 4))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if draw(st.booleans()) or not isinstance(node[key], (dict, list)):
                node[key] = draw(json_values)
                break
            node = node[key]
        elif isinstance(node, list) and node:
            i = draw(st.integers(0, len(node) - 1))
            if draw(st.booleans()) or not isinstance(node[i], (dict, list)):
                node[i] = draw(json_values)
                break
            node = node[i]
    return json.dumps(data).encode()


@settings(max_examples=1200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(replaced_fields(), json_values.map(lambda v: json.dumps(v).encode())))
def test_generated_json_files(raw):
    check(raw)


@st.composite
def mutated_bytes(draw):
    raw = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "delete", "dup"]))
        pos = draw(st.integers(0, len(raw) - 1))
        if op == "flip":
            raw[pos] = draw(st.integers(0, 255))
        elif op == "cut":
            del raw[pos:]
        elif op == "insert":
            raw[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del raw[pos:pos + draw(st.integers(1, 40))]
        else:
            raw[pos:pos] = raw[pos:pos + draw(st.integers(1, 40))]
        if not raw:
            break
    return bytes(raw)


@settings(max_examples=1200, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_bytes())
def test_mutated_real_files(raw):
    check(raw)
