"""Shared machinery of the reliability suite (issue 8): random action sequences with undo
and redo interleaved, and TOML generation/mutation for the hostile-file fuzzers.

Model level only: nothing here imports Qt.

The sequence driver (:func:`run_sequence`) is game-neutral. A game supplies a
:class:`GameDriver`: how to draw one random step (an action built with that game's
``actions.py`` builders, or ``NextPhase``/``NextTurn``), the invariants that must
hold on every ship after every step, and checks of one transition.

How saved bytes are compared (decided here, documented in README.md):

* a refused action (``RuleViolation``) must leave ``session_to_bytes`` **identical**
  (and the undo/redo names unchanged);
* undo immediately followed by redo must give **identical** bytes;
* any other undo/redo, and "undo all the way", are compared with
  :func:`assert_same_but_undone_tail`: everything but the log identical, the log
  of the reference a prefix of the log now (``undone`` flags and times included),
  and every entry after that prefix marked ``undone``. Undone entries stay in the
  log by design (``Session.undo`` marks them), so this is the exact statement of
  "returns to the same state".
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import tomllib
from collections import Counter
from datetime import date, datetime, time
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, note, settings, strategies as st

from shipsheet.model import RuleViolation, Session
from shipsheet.model.actions import NextPhase, NextTurn
from shipsheet.model.errors import SessionFileError
from shipsheet.model.keypath import Node
from shipsheet.model.paths import resources_dir
from shipsheet.model.ship import Ship, clone
from shipsheet.model.storage import parse_session_bytes, session_to_bytes

#: Examples per property test (the issue asks for 1,000 random sequences per game).
EXAMPLES = 1000
#: Steps per sequence (each step: apply a random action, undo, redo, or undo+redo).
MIN_STEPS, MAX_STEPS = 5, 15

#: Shrinking a failing sequence can take minutes; the step notes already list every step
#: of a failure, so the suite does not shrink unless REL_SHRINK=1 is set (then it does,
#: and prints the smallest sequence it finds).
_PHASES = tuple(Phase) if os.environ.get("REL_SHRINK") else (
    Phase.explicit, Phase.reuse, Phase.generate, Phase.target)
SEQUENCE_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, print_blob=True,
                             phases=_PHASES, suppress_health_check=list(HealthCheck))
FUZZ_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, print_blob=True,
                         suppress_health_check=list(HealthCheck))


# -- sessions ----------------------------------------------------------------------

def session_bytes(builder: Callable[[], Session], *preludes: Callable[[Session], None]) -> bytes:
    """The saved bytes of a session built by ``builder`` then ``preludes`` (all through
    actions), with the log left empty.

    The log of a sample is history only (no rule reads it) but is two thirds of every
    save; the sequences save after every step, so they start from an empty log and
    compare, in full, the entries their own steps add.
    """
    session = builder()
    for prelude in preludes:
        prelude(session)
    session.log.clear()
    raw = session_to_bytes(session)
    assert session_to_bytes(parse_session_bytes(raw, "start.shipsheet")) == raw, \
        "a saved session does not reload to the same bytes"
    return raw


_opened: dict[bytes, Session] = {}


def open_saved(raw: bytes) -> Session:
    """A session opened from saved bytes, as a user opens a file: no undo history.

    The file is parsed once; each call returns a fresh copy of that session (same ship
    classes, which are immutable; copies of everything else), checked to save to the
    very same bytes.
    """
    if raw not in _opened:
        _opened[raw] = parse_session_bytes(raw, "start.shipsheet")
    master = _opened[raw]
    assert not master.log, "templates start with an empty log (see session_bytes)"
    session = Session(master.game, name=master.name, seed=master.dice.seed)
    session.uid = master.uid
    session.turn = master.turn
    session.phase = master.phase
    session.options = clone(master.options)
    session.dice.count = master.dice.count
    session.ships = [Ship(name=s.name, ship_class=s.ship_class, state=clone(s.state),
                          side=s.side, id=s.id) for s in master.ships]
    session.turn_start = clone(master.turn_start)
    assert session_to_bytes(session) == raw
    return session


_valid_states: set = set()


def state_as_loaded(session: Session, ship) -> dict:
    """The ship's state as the game's file validator reads it back (SessionFileError if invalid)."""
    node = Node(clone(ship.state), "rel.shipsheet", f"ships[{ship.name}].state", SessionFileError)
    return session.rules.check_state(ship.ship_class, node)


def assert_state_is_a_valid_file_state(session: Session, ship) -> None:
    """Every state the rules can reach must also load from a session file, unchanged.

    (check_state is a pure function of class and state: a state seen valid is remembered,
    with the class itself, not its id: the hostile-file tests load many different classes
    under one id, e.g. every mutated ``ca.toml`` is "fedcom/ca".)
    """
    key = (ship.ship_class, repr(ship.state))
    if key in _valid_states:
        return
    loaded = state_as_loaded(session, ship)
    assert loaded == ship.state, (f"{ship.name}: the state the rules produced is read back "
                                  f"differently from a file:\n{ship.state}\n{loaded}")
    _valid_states.add(key)


def _split(raw: bytes) -> tuple[dict, list]:
    data = json.loads(raw)
    return data, data.pop("log")


def assert_same_but_undone_tail(now: bytes, then: bytes, what: str) -> None:
    """``now`` is ``then`` plus log entries that are all marked undone (see module doc)."""
    if now == then:
        return
    a, log_a = _split(now)
    b, log_b = _split(then)
    assert a == b, f"{what}: the session differs (besides the log)"
    assert log_a[:len(log_b)] == log_b, f"{what}: the earlier log entries changed"
    tail = log_a[len(log_b):]
    assert all(e.get("undone") for e in tail), \
        f"{what}: log entries added since are not marked undone: {[e['text'] for e in tail]}"


# -- the sequence driver -------------------------------------------------------------

@dataclasses.dataclass
class Step:
    """One random step: a label for the report, the kind (for the statistics), the action
    builder call (made at apply time, so builder refusals count as refusals too), and the
    ids of the ships the action is about (for "a destroyed ship takes no action")."""

    label: str
    kind: str
    build: Callable[[], Any]
    ships: tuple[str, ...] = ()
    #: Arguments a game's hooks need again (e.g. to preview a volley before it is applied).
    args: dict = dataclasses.field(default_factory=dict)


class Stats:
    """What the random sequences did (printed in the report, asserted on after the run)."""

    def __init__(self) -> None:
        self.examples = 0
        self.steps = 0
        self.accepted: Counter = Counter()
        self.refused: Counter = Counter()
        self.ops: Counter = Counter()
        self.events: Counter = Counter()

    def summary(self) -> str:
        kinds = sorted(set(self.accepted) | set(self.refused))
        per_kind = ", ".join(f"{k} {self.accepted[k]}/{self.refused[k]}" for k in kinds)
        return (f"{self.events['undo all']} sequences run to the end ({self.examples} started), "
                f"{self.steps} steps; ops {dict(self.ops)}; "
                f"accepted/refused per action: {per_kind}; events {dict(self.events)}")

    def assert_exercised(self, kinds: list[str], never_refused: tuple[str, ...] = ()) -> None:
        """Each kind of action was both accepted and refused at least once (a generator
        that only ever produces refusals, or only legal actions, proves little);
        ``never_refused``: kinds the rules always allow (NextPhase, NextTurn)."""
        # Sequences run to the end ("undo all" is their last step); hypothesis also starts
        # some it abandons (its choice budget while mutating earlier examples).
        assert self.events["undo all"] >= EXAMPLES, self.summary()
        for kind in kinds:
            assert self.accepted[kind], f"{kind!r} was never accepted: {self.summary()}"
            if kind in never_refused:
                assert not self.refused[kind], f"{kind!r} was refused: {self.summary()}"
            else:
                assert self.refused[kind], f"{kind!r} was never refused: {self.summary()}"
        for op in ("apply", "apply+undo+redo", "undo", "redo", "undo+redo"):
            assert self.ops[op], f"no {op} step was run: {self.summary()}"


class GameDriver:
    """What a game gives the driver: ``draw_step(data, session) -> Step`` (each game
    defines it) and the hooks below."""

    #: Every kind of step draw_step can return (for Stats.assert_exercised).
    kinds: list[str] = []

    def check(self, session: Session) -> None:
        """Invariants of every ship after every step (and at the start)."""

    def before(self, session: Session, step: Step) -> Any:
        """Whatever :meth:`after_apply`/:meth:`after_refusal` need of the state before."""
        return None

    def after_apply(self, memo: Any, session: Session, step: Step) -> None:
        """Checks of an accepted action (e.g. a destroyed ship must have refused it)."""

    def after_refusal(self, memo: Any, session: Session, step: Step, exc: RuleViolation) -> None:
        """Checks of a refused action."""


def phase_step(data) -> Step:
    """``NextPhase`` or ``NextTurn`` of the model (the hooks of the game run inside)."""
    if data.draw(st.integers(0, 3), label="phase or turn"):
        return Step("Next phase", "next phase", NextPhase)
    return Step("Next turn", "next turn", NextTurn)


#: apply: a random action; apply+undo+redo: the same, then undo and redo at once (the
#: issue's literal property); undo+redo: of whatever change is on top.
OPS = st.sampled_from(["apply"] * 5 + ["apply+undo+redo"] * 2
                      + ["undo", "undo", "redo", "redo", "undo+redo"])


def run_sequence(data, templates: list[bytes], driver: GameDriver, stats: Stats) -> None:
    """Open one of ``templates``, run 5-15 random steps checking everything, then undo it all."""
    stats.examples += 1
    start = templates[data.draw(st.integers(0, len(templates) - 1), label="start")]
    session = open_saved(start)
    driver.check(session)
    done: list[tuple[bytes, bytes]] = []     # model of the undo stack: (before, after) bytes
    undone: list[tuple[bytes, bytes]] = []   # model of the redo stack
    current = start
    n = data.draw(st.integers(MIN_STEPS, MAX_STEPS), label="steps")
    for i in range(n):
        stats.steps += 1
        op = data.draw(OPS, label=f"op {i}")
        stats.ops[op] += 1
        if op.startswith("apply"):
            step = driver.draw_step(data, session)
            note(f"step {i}: {step.label}")
            memo = driver.before(session, step)
            names = (session.undo_status().undo, session.undo_status().redo)
            try:
                session.apply(step.build())
            except RuleViolation as exc:
                stats.refused[step.kind] += 1
                assert session_to_bytes(session) == current, \
                    f"refused {step.label!r} ({exc}) changed the session"
                assert (session.undo_status().undo, session.undo_status().redo) == names, \
                    f"refused {step.label!r} changed the undo/redo stacks"
                driver.after_refusal(memo, session, step, exc)
            else:
                stats.accepted[step.kind] += 1
                after = session_to_bytes(session)
                done.append((current, after))
                undone.clear()
                driver.after_apply(memo, session, step)
                current = after
                if op == "apply+undo+redo":
                    # The literal property: undo then redo restores the same bytes.
                    session.undo()
                    session.redo()
                    assert session_to_bytes(session) == after, \
                        f"undo then redo of {step.label!r} did not restore the saved bytes"
        elif op in ("undo", "redo"):
            note(f"step {i}: {op}")
            # Undo moves a change from the undo stack to the redo stack and returns to the
            # bytes before it; redo moves it back and returns to the bytes after it.
            if op == "undo":
                source, target, can, run, back_to = done, undone, lambda: session.undo_status().undo is not None, session.undo, 0
            else:
                source, target, can, run, back_to = undone, done, lambda: session.undo_status().redo is not None, session.redo, 1
            if not source:
                assert not can()
                _refused_and_unchanged(run, session, current, f"{op} with nothing to {op}")
                continue
            run()
            change = source.pop()
            target.append(change)
            current = session_to_bytes(session)
            assert_same_but_undone_tail(current, change[back_to], f"step {i}: {op}")
        else:  # undo+redo of whatever is on top
            note(f"step {i}: undo+redo")
            if not done:
                continue
            session.undo()
            session.redo()
            assert session_to_bytes(session) == current, f"step {i}: undo+redo changed the bytes"
        driver.check(session)

    # Every reachable session saves and loads back to the same bytes.
    assert session_to_bytes(parse_session_bytes(current, "end.shipsheet")) == current, \
        "the session at the end does not reload to the same bytes"
    # Undo all the way: back to the start (log entries aside, all marked undone).
    stats.events["undo all"] += 1
    for _ in done:
        session.undo()
    assert session.undo_step() is None
    assert_same_but_undone_tail(session_to_bytes(session), start, "undo all the way")
    driver.check(session)
    # Redo what was done: exactly the bytes before "undo all".
    for _ in done:
        session.redo()
    assert session_to_bytes(session) == current, "redo of everything undone differs"


def _refused_and_unchanged(fn: Callable[[], Any], session: Session, current: bytes,
                           what: str) -> None:
    try:
        fn()
    except RuleViolation:
        pass
    else:
        raise AssertionError(f"{what} was not refused")
    assert session_to_bytes(session) == current, f"{what} changed the session"


def assert_refused_or_reopens(session: Session, build: Callable[[], Any]) -> None:
    """The regression form of "every state the rules reach is a valid file state": the
    action ``build()`` makes is refused and changes nothing, or the session it leaves
    saves and opens again to the same bytes."""
    before = session_to_bytes(session)
    try:
        session.apply(build())
    except RuleViolation:
        assert session_to_bytes(session) == before
        return
    raw = session_to_bytes(session)
    assert session_to_bytes(parse_session_bytes(raw, "x.shipsheet")) == raw


def ship_index(data, session: Session, label: str = "ship") -> int:
    return data.draw(st.integers(0, len(session.ships) - 1), label=label)


# -- TOML: writing and mutating ---------------------------------------------------------

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_string(text: str) -> str:
    out = json.dumps(text, ensure_ascii=False)
    return out.replace("\x7f", "\\u007f")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


@dataclasses.dataclass(frozen=True)
class Nested:
    """A value written inside ``depth`` pairs of brackets (kept flat here, so the
    generator itself never recurses deeply; the loader under test does the nesting)."""

    value: Any
    depth: int


def toml_value(value: Any) -> str:
    """``value`` as a TOML inline value (every type tomllib produces, and :class:`Nested`)."""
    if isinstance(value, Nested):
        return "[" * value.depth + toml_value(value.value) + "]" * value.depth
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        text = repr(value)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {type(value).__name__}")


def toml_document(data: dict) -> str:
    """A TOML document (one ``key = value`` line per top-level key) for ``data``."""
    return "".join(f"{_toml_key(k)} = {toml_value(v)}\n" for k, v in data.items())


def bundled(pattern: str) -> list[tuple[str, str]]:
    """(file name, text) of the bundled files matching ``pattern`` under resources/."""
    files = sorted(resources_dir().glob(pattern))
    assert files, f"no bundled files match {pattern}"
    return [(p.name, p.read_text(encoding="utf-8")) for p in files]


def strings_in(value: Any, out: set[str] | None = None) -> set[str]:
    """Every string (keys and values) in a parsed TOML tree: a vocabulary of near-valid words."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, list):
        for v in value:
            strings_in(v, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            strings_in(v, out)
    return out


def toml_values(words: list[str]):
    """Any TOML value: edge numbers, words of the real files, odd text, dates, lists, tables."""
    ints = st.one_of(st.integers(-3, 15), st.sampled_from([0, -1, 2**31, 2**63 - 1, -2**63, 10**6]),
                     st.integers(-2**63, 2**63 - 1))
    floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                       st.sampled_from([0.0, -0.0, 1.5, 8.0, 1e300]))
    texts = st.one_of(st.sampled_from(words), st.sampled_from(words).map(str.upper),
                      st.sampled_from(words).map(lambda w: f" {w} "),
                      st.text(max_size=12), st.sampled_from(["", " ", "x" * 300, "d0", "d20",
                                                             "☃", "\n", "unlimited", "frame"]))
    scalars = st.one_of(ints, floats, texts, st.booleans(), st.datetimes(), st.dates(),
                        st.times())
    return st.recursive(scalars, lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(words), st.text(max_size=6)), kids,
                        max_size=4)), max_leaves=8)


def _places(tree: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) in the tree."""
    out = []
    stack = [tree]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            out.append((node, key))
            if isinstance(value, (dict, list)):
                stack.append(value)
    return out


@st.composite
def mutated_tree(draw, tree: dict, words: list[str]) -> dict:
    """``tree`` (a parsed TOML file) with 1-4 structural mutations."""
    tree = clone(tree)
    values = toml_values(words)
    for _ in range(draw(st.integers(1, 4))):
        places = _places(tree)
        op = draw(st.sampled_from(["replace", "replace", "delete", "add", "duplicate",
                                   "nudge", "rename", "nest", "empty"]))
        if not places:
            tree[draw(st.sampled_from(words))] = draw(values)
            continue
        parent, key = places[draw(st.integers(0, len(places) - 1))]
        if op == "replace":
            parent[key] = draw(values)
        elif op == "delete":
            del parent[key]
        elif op == "add":
            if isinstance(parent, dict):
                parent[draw(st.sampled_from(words))] = draw(values)
            else:
                parent.insert(draw(st.integers(0, len(parent))), draw(values))
        elif op == "duplicate":
            if isinstance(parent, list):
                parent.insert(key, clone(parent[key]))
            else:
                parent[draw(st.sampled_from(words))] = clone(parent[key])
        elif op == "nudge":
            value = parent[key]
            if isinstance(value, int) and not isinstance(value, bool):
                parent[key] = value + draw(st.sampled_from([-100, -2, -1, 1, 2, 100]))
            elif isinstance(value, str):
                parent[key] = draw(st.sampled_from(words))
            else:
                parent[key] = draw(values)
        elif op == "rename":
            if isinstance(parent, dict):
                parent[draw(st.sampled_from(words))] = parent.pop(key)
        elif op == "nest":
            parent[key] = Nested(parent[key], draw(st.sampled_from([1, 2, 50, 900, 3000])))
        else:  # empty a container, or put an empty one
            value = parent[key]
            parent[key] = type(value)() if isinstance(value, (dict, list)) else draw(
                st.sampled_from([[], {}, ""]))
    return tree


TEXT_JUNK = [b"=", b"[", b"]", b"{", b"}", b'"', b"'''", b"\n", b",", b"#", b"\x00", b"\xff",
             b"\xc3", b"[[boxes]]\n", b"inf", b"nan", b"1979-05-27T07:32:00Z", b"0x7f", b"1e999",
             b"\\u", b"  ", b"game = \"fedcom\"\n", b"= =", b"\r\n"]
_TOKEN = re.compile(rb'"[^"\n]*"|-?\d+|true|false')


@st.composite
def mutated_text(draw, raw: bytes) -> bytes:
    """``raw`` with 1-4 byte-level or token-level mutations (most no longer parse as TOML)."""
    raw = bytearray(raw)
    for _ in range(draw(st.integers(1, 4))):
        if not raw:
            raw.extend(draw(st.sampled_from(TEXT_JUNK)))
            continue
        op = draw(st.sampled_from(["flip", "cut", "insert", "delete", "dup", "token", "token",
                                   "swap-lines"]))
        pos = draw(st.integers(0, len(raw) - 1))
        if op == "flip":
            raw[pos] = draw(st.integers(0, 255))
        elif op == "cut":
            del raw[pos:]
        elif op == "insert":
            raw[pos:pos] = draw(st.one_of(st.sampled_from(TEXT_JUNK),
                                          st.binary(min_size=1, max_size=6)))
        elif op == "delete":
            del raw[pos:pos + draw(st.integers(1, 30))]
        elif op == "dup":
            raw[pos:pos] = raw[pos:pos + draw(st.integers(1, 60))]
        elif op == "token":
            tokens = list(_TOKEN.finditer(bytes(raw)))
            if tokens:
                m = tokens[draw(st.integers(0, len(tokens) - 1))]
                new = draw(st.sampled_from([b"-1", b"0", b"99999999999999999999", b"true",
                                            b'""', b'"d8"', b'"d3"', b"1.5", b"[]", b"{}",
                                            b'"phaser"', b'"frame"', b'"unlimited"', b"inf"]))
                raw[m.start():m.end()] = new
        else:
            lines = bytes(raw).split(b"\n")
            if len(lines) > 1:
                i = draw(st.integers(0, len(lines) - 2))
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
                raw = bytearray(b"\n".join(lines))
    return bytes(raw)


def hostile_files(originals: list[tuple[str, str]]):
    """Strategy of (file name, bytes): real files mutated as trees, as text, or both, plus
    a few extremes (empty, over-large, deeply nested, not UTF-8)."""
    parsed = [(name, tomllib.loads(text)) for name, text in originals]
    words = sorted(set().union(*(strings_in(tree) for _, tree in parsed)))

    @st.composite
    def one(draw):
        index = draw(st.integers(0, len(originals) - 1))
        name, text = originals[index]
        tree = parsed[index][1]
        how = draw(st.sampled_from(["tree", "tree", "text", "tree+text", "extreme"]))
        if how == "tree":
            raw = toml_document(draw(mutated_tree(tree, words))).encode()
        elif how == "text":
            raw = draw(mutated_text(text.encode()))
        elif how == "tree+text":
            raw = draw(mutated_text(toml_document(draw(mutated_tree(tree, words))).encode()))
        else:
            raw = draw(st.sampled_from([
                b"", b"\n", b"\xef\xbb\xbf" + text.encode(), text.encode("utf-16"),
                b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n",
                text.encode() + b"\nnotes = \"" + b"x" * 1_000_001 + b"\"\n",
                text.encode().replace(b"\n", b"\r\n"),
            ]))
        odd = draw(st.sampled_from([name, name, name, "my ship \u2708.toml", "-.toml", ".toml"]))
        return odd, raw

    return one()


def write(folder: Path, name: str, raw: bytes) -> Path:
    path = folder / name
    path.write_bytes(raw)
    return path
