"""Hostile ship definitions and Damage Allocation Charts: a clear error, or a usable file.

The foundation's fuzz test (tests/model/test_storage_fuzz.py) covers session files; this
extends it to the two other kinds of file a user receives or writes by hand (spec,
ship definitions are TOML files in the library; FedCom charts are TOML files
in ``charts/fedcom/``). Each test runs 1,000 files made from the bundled ones: the parsed
tree mutated (values replaced by any TOML value, keys deleted, added, renamed, entries
duplicated, numbers nudged, containers emptied or nested hundreds deep) and written back
as TOML, the text mutated byte by byte and token by token, both, and a few extremes
(empty, not UTF-8, over the size limit, nested 5,000 deep).

For each file exactly one of:

- the loader raises its documented error, ``ShipDefinitionError`` (``load_ship_class``;
  ``load_chart`` documents "errors name the file and the first bad position" and raises
  the same class), whose message starts with the file name ("ca.toml: boxes[12].arc:
  unknown arc" is the documented form);
- it loads, and what loaded is usable: a new ship of the class gets its initial state,
  which the game's file validator accepts; the roster and library texts work; a session
  holding the ship saves and reopens to the same bytes. A chart loaded survives its own
  round trip (``to_json`` -> ``parse_chart``) and allocates a volley on every sample card
  without any exception but a RuleViolation.

Nothing else may escape: no KeyError, TypeError, RecursionError, UnicodeError...
"""

import tomllib

from hypothesis import given, note

from shipsheet.model import (RuleViolation, Session, ShipDefinitionError, get_class,
                             load_ship_class, new_ship)
from shipsheet.model.games import get_game
from shipsheet.model.storage import parse_session_bytes, session_to_bytes
from shipsheet.rules.fedcom import allocate_volley, load_chart, parse_chart

from rel_helpers import (EXAMPLES, FUZZ_SETTINGS, assert_state_is_a_valid_file_state, bundled,
                         hostile_files, toml_document, write)

SHIPS = bundled("ships/*/*.toml")
CHARTS = bundled("charts/fedcom/*.toml")
FEDCOM_CARDS = ["fedcom/sample-frigate", "fedcom/sample-heavy-cruiser",
                "fedcom/sample-drone-cruiser", "fedcom/sample-dreadnought"]


class Outcomes:
    """Loads the fuzzed files into ``folder`` and counts what loaded and what was refused."""

    def __init__(self, folder):
        self.folder = folder
        self.loaded = 0
        self.refused = 0

    def load(self, loader, case):
        """What ``loader`` made of the file ``case`` (name, bytes), or None when it refused
        it with a ShipDefinitionError naming the file."""
        name, raw = case
        path = write(self.folder, name, raw)
        try:
            loaded = loader(path)
        except ShipDefinitionError as exc:
            _assert_clear_error(exc, name)
            self.refused += 1
            return None
        self.loaded += 1
        return loaded

    def assert_both_exercised(self, what: str) -> None:
        print(f"\n{what}: {self.loaded} loaded, {self.refused} refused")
        assert self.loaded + self.refused >= EXAMPLES
        assert self.loaded >= 20 and self.refused >= 500  # both outcomes are exercised


def test_the_generator_writes_the_bundled_files_back_exactly():
    """The mutations start from the real files: unmutated, the TOML writer reproduces each
    bundled definition and chart as the same data (so the fuzz is near the real format)."""
    for name, text in SHIPS + CHARTS:
        data = tomllib.loads(text)
        assert tomllib.loads(toml_document(data)) == data, name


def _assert_clear_error(exc: Exception, name: str) -> None:
    message = str(exc)
    assert message.startswith(f"{name}: "), f"the error does not name the file: {message!r}"
    assert len(message) > len(name) + 2


def test_hostile_ship_definitions_give_a_clear_error_or_a_usable_class(tmp_path):
    """1,000 mutated definitions: ShipDefinitionError naming the file, or a usable class."""
    seen = Outcomes(tmp_path)

    @FUZZ_SETTINGS
    @given(hostile_files(SHIPS))
    def fuzz(case):
        cls = seen.load(load_ship_class, case)
        if cls is None:
            return
        note(f"loaded: {cls.data!r}")
        rules = get_game(cls.game)
        ship = new_ship(cls, "Fuzz")
        session = Session(cls.game, seed=1)
        session.add_ship(ship, "Red")
        assert_state_is_a_valid_file_state(session, ship)
        assert isinstance(rules.describe_class(cls), str)
        assert all(isinstance(chip, str) for chip in rules.status_chips(ship))
        raw_session = session_to_bytes(session)
        again = parse_session_bytes(raw_session, "fuzz.shipsheet")
        assert session_to_bytes(again) == raw_session

    fuzz()
    seen.assert_both_exercised("ship definitions")


def test_hostile_charts_give_a_clear_error_or_a_usable_chart(tmp_path):
    """1,000 mutated charts: ShipDefinitionError naming the file, or a usable chart."""
    seen = Outcomes(tmp_path)
    cards = [new_ship(get_class(c), "Target") for c in FEDCOM_CARDS]

    @FUZZ_SETTINGS
    @given(hostile_files(CHARTS))
    def fuzz(case):
        chart = seen.load(load_chart, case)
        if chart is None:
            return
        again = parse_chart(chart.to_json(), "again.toml", chart.id)
        assert again.to_json() == chart.to_json()
        for ship in cards:
            try:
                allocate_volley(ship, 60, rolls=[1, 2, 3, 4, 5, 6], chart=chart,
                                rng=_NoDice())
            except RuleViolation:
                pass

    fuzz()
    seen.assert_both_exercised("charts")


class _NoDice:
    """Random tie-breaks of the DDAP, fixed: always the first choice."""

    def randint(self, a, b):
        return a
