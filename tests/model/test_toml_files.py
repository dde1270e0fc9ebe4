"""TOML files through tomlkit: what is written reads back (tomllib) to the data given, and
a user's comments survive a save, wherever they are."""

from __future__ import annotations

import datetime as dt
import math
import tomllib
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from shipsheet.model.classfiles import read_toml, save_definition
from shipsheet.model.paths import resources_dir
from shipsheet.model.toml_files import TomlWriteError, to_text

BUNDLED = sorted((resources_dir() / "ships").glob("*/*.toml")) + \
    sorted((resources_dir() / "charts").glob("*/*.toml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_file_round_trips_and_keeps_its_text(path: Path):
    text = path.read_text("utf-8")
    data = tomllib.loads(text)
    assert tomllib.loads(to_text(data)) == data
    _, document = read_toml(path)
    assert to_text(data, document) == text  # nothing changed: the file comes back as it was


COMMENTED = '''\
# Header: my own corvette.
# Second header line.

game = "fedcom"  # after game
# above class
class = "Corvette"
damage_control = 2  # after damage control
frame = 3
# above shields
shields = [12, 10, 10, 8, 10, 10]  # six shields
boxes = [
  # the bridge comes first
  { id = "bridge-1", kind = "bridge" },  # after the bridge
  # phasers
  { id = "ph-1", kind = "phaser", type = "Ph-1", arc = "FA" },
  { id = "ph-2", kind = "phaser", type = "Ph-3", arc = "360" },  # rear phaser
  # engines at the end
  { id = "warp", kind = "left-warp", count = 2 },
]  # after the boxes
# a comment at the end
'''

EVERY_COMMENT = [line.strip() for line in COMMENTED.splitlines() if "#" in line]


def test_a_designer_save_keeps_every_comment_of_a_users_file(tmp_path):
    """Comments in every position — header, above keys, after values, inside the boxes
    array, after it, at the end — survive a change saved by the designer."""
    path = tmp_path / "corvette.toml"
    path.write_text(COMMENTED)
    data, document = read_toml(path)
    data["frame"] = 4
    data["boxes"][2]["arc"] = "RA"  # inside the array
    data["boxes"].insert(3, {"id": "lab-1", "kind": "lab"})
    save_definition(data, path, document)
    text = path.read_text()
    for comment in EVERY_COMMENT:
        assert comment.split("#", 1)[1] in text, comment
    assert tomllib.loads(text) == data
    assert "frame = 4" in text and 'arc = "RA" },  # rear phaser' in text


def test_a_new_file_reads_like_the_bundled_ones():
    data = {"game": "fedcom", "class": "X", "suits": {"spades": ["attack", "movement"]},
            "shields": [30, 24, 24, 20, 24, 24],
            "boxes": [{"id": "ph-1", "kind": "phaser", "type": "Ph-1", "arc": "FA"},
                      {"id": "lab", "kind": "lab", "count": 4}]}
    lines = to_text(data, header="made here").splitlines()
    assert lines[:4] == ["# made here", 'game = "fedcom"', 'class = "X"', "shields = [30, 24, 24, 20, 24, 24]"]
    assert lines[4] == "boxes = [" and "ph-1" in lines[5] and "lab" in lines[6]
    assert "[suits]" in lines and lines.index("[suits]") > lines.index("boxes = [")


@pytest.mark.parametrize("text", [
    'He said "hi" \\ then left', "tab\there", "line one\nline two", "ends with a quote\"",
    "three quotes \"\"\" inside\nand a new line", "♦ ♠ é 漢字", "bell\x07 and del\x7f",
    "trailing backslash\\", "", "# not a comment", "carriage\r\nreturn",
])
def test_text_round_trips(text):
    data = {"notes": text, "inline": [text], "t": {"k": text}}
    assert tomllib.loads(to_text(data)) == data


def test_numbers_dates_and_odd_keys_round_trip():
    data = {"a b": 1, "": 2, "dotted.key": {"x": -0.5}, "ünï": True, "big": 2**62,
            "f": [1.0, 1e300, -2.5e-10, float("inf"), float("-inf")],
            "when": dt.datetime(2024, 5, 1, 12, 30, tzinfo=dt.timezone.utc),
            "day": dt.date(2024, 5, 1), "time": dt.time(7, 32, 0, 999000)}
    assert tomllib.loads(to_text(data)) == data
    assert math.isnan(tomllib.loads(to_text({"n": float("nan")}))["n"])


def test_values_toml_cannot_hold_are_refused_with_their_key_path():
    with pytest.raises(TomlWriteError, match=r"boxes\[1\]\.arc: TOML cannot hold an empty value"):
        to_text({"boxes": [{"id": "a"}, {"id": "b", "arc": None}]})
    with pytest.raises(TomlWriteError, match=r"suits\.spades: TOML cannot hold an empty value"):
        to_text({"suits": {"spades": None}})


def test_header_text_is_always_written_as_comments():
    out = to_text({"a": 1}, header=["no hash", "# with hash", "bell\x07 here", "two\nlines"])
    assert tomllib.loads(out) == {"a": 1}
    assert out.splitlines()[:4] == ["# no hash", "# with hash", "# bell  here", "# two lines"]


_text = st.text(max_size=12)
_scalar = st.one_of(st.integers(-2**63, 2**63 - 1), st.booleans(), _text, st.floats(allow_nan=False))
_value = st.recursive(_scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(_text, inner, max_size=4)),
                      max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_text, _value, max_size=6))
def test_any_plain_data_round_trips(data):
    assert tomllib.loads(to_text(data)) == data


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(_text, _value, max_size=6), st.dictionaries(_text, _value, max_size=6))
# Found by this test once: a table emptied in place, which held only a table, was not
# written at all (read back as nothing, not as an empty table).
@example(first={"": {"": {"": 0}}}, second={"": {}})
@example(first={"a": {"b": {"c": 1}}, "d": 2}, second={"a": {}, "d": 2})
def test_any_data_written_into_another_files_layout_reads_back(first, second):
    from shipsheet.model.toml_files import parse
    document = parse(to_text(first))
    assert tomllib.loads(to_text(second, document)) == second
