"""The TOML writer: every file it writes reads back (tomllib) to the data it was given."""

from __future__ import annotations

import datetime as dt
import math
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shipsheet.model.paths import resources_dir
from shipsheet.model.toml_writer import TomlWriteError, dumps, extract_comments

BUNDLED = sorted((resources_dir() / "ships").glob("*/*.toml")) + \
    sorted((resources_dir() / "charts").glob("*/*.toml"))


def test_there_are_bundled_files_to_check():
    games = {p.parent.name for p in BUNDLED}
    assert {"war-in-space", "triplanetary", "fedcom"} <= games
    assert any(p.parent.parent.name == "charts" for p in BUNDLED)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_file_round_trips(path: Path):
    text = path.read_text("utf-8")
    data = tomllib.loads(text)
    assert tomllib.loads(dumps(data)) == data
    kept = dumps(data, comments=extract_comments(text))
    assert tomllib.loads(kept) == data
    # The file's own header comment survives a rewrite.
    first = text.splitlines()[0]
    assert first.startswith("#") and kept.splitlines()[0] == first


def test_comments_stay_beside_their_keys():
    text = (resources_dir() / "ships" / "triplanetary" / "orbital-base.toml").read_text("utf-8")
    out = dumps(tomllib.loads(text), comments=extract_comments(text)).splitlines()
    i = out.index("fixed = true")
    assert out[i - 1] == "# [2018] fixed: an orbital base never maneuvers"
    text = (resources_dir() / "ships" / "war-in-space" / "cruiser.toml").read_text("utf-8")
    out = dumps(tomllib.loads(text), comments=extract_comments(text))
    assert "[suits]  # [primary, secondary]; the third action is the tertiary" in out


def test_a_card_reads_like_the_bundled_ones():
    """Boxes one inline table per line, [tables] after the simple keys, chart rows aligned."""
    data = {"game": "fedcom", "class": "X", "suits": {"spades": ["attack", "movement"]},
            "shields": [30, 24, 24, 20, 24, 24],
            "boxes": [{"id": "ph-1", "kind": "phaser", "type": "Ph-1", "arc": "FA"},
                      {"id": "lab", "kind": "lab", "count": 4}]}
    out = dumps(data)
    assert out.splitlines() == [
        'game = "fedcom"', 'class = "X"', "shields = [30, 24, 24, 20, 24, 24]", "boxes = [",
        '  { id = "ph-1", kind = "phaser", type = "Ph-1", arc = "FA" },',
        '  { id = "lab", kind = "lab", count = 4 },', "]", "", "[suits]",
        'spades = ["attack", "movement"]']
    rows = dumps({"rows": [["bridge", "lab/frame"], ["forward-hull", "x"]]}).splitlines()
    assert rows[1] == '  ["bridge",       "lab/frame"],'
    assert rows[2] == '  ["forward-hull", "x"],'


@pytest.mark.parametrize("text", [
    'He said "hi" \\ then left', "tab\there", "line one\nline two", "ends with a quote\"",
    "three quotes \"\"\" inside\nand a new line", "♦ ♠ é 漢字", "bell\x07 and del\x7f",
    "trailing backslash\\", "", "# not a comment", "carriage\r\nreturn",
])
def test_text_round_trips(text):
    data = {"notes": text, "inline": [text], "t": {"k": text}}
    assert tomllib.loads(dumps(data)) == data


def test_numbers_dates_and_odd_keys_round_trip():
    data = {"a b": 1, "": 2, "dotted.key": {"x": -0.5}, "ünï": True, "big": 2**62,
            "f": [1.0, 1e300, -2.5e-10, float("inf"), float("-inf")],
            "when": dt.datetime(2024, 5, 1, 12, 30, tzinfo=dt.timezone.utc),
            "day": dt.date(2024, 5, 1), "time": dt.time(7, 32, 0, 999000)}
    assert tomllib.loads(dumps(data)) == data
    assert math.isnan(tomllib.loads(dumps({"n": float("nan")}))["n"])


def test_nested_tables_and_arrays_of_tables():
    data = {"a": {"b": {"c": {"d": 1, "e": [1, 2]}}},
            "list": [{"x": {"deep": {"er": 1}}}, {"x": {"deep": {"er": 2}}, "y": 3}],
            "empty": {}, "none": [], "mixed": [1, "two", [3.0], {"four": 4}]}
    assert tomllib.loads(dumps(data)) == data


def test_values_toml_cannot_hold_are_refused_with_their_key_path():
    with pytest.raises(TomlWriteError, match=r"boxes\[1\]\.arc: TOML cannot hold an empty value"):
        dumps({"boxes": [{"id": "a"}, {"id": "b", "arc": None}]})
    with pytest.raises(TomlWriteError, match=r"suits\.spades: TOML cannot hold an empty value"):
        dumps({"suits": {"spades": None}})
    with pytest.raises(TomlWriteError, match="a TOML document is a table"):
        dumps(["not", "a", "table"])


def test_comments_are_found_beside_keys_not_inside_values_or_strings():
    text = ('# header line\n# second\n\ngame = "fedcom"  # the game\n'
            'name = "A # not a comment"\n# about rows\nrows = [\n  ["a"],  # inside\n]\n'
            'notes = """\n# inside a string\n"""\n\n[suits]  # suit table\n# about spades\n'
            'spades = ["attack", "movement"]\n')
    c = extract_comments(text)
    assert c.header == ["# header line", "# second"]
    assert c.trailing == {"game": "# the game", "suits": "# suit table"}
    assert c.before == {"rows": ["# about rows"], "suits.spades": ["# about spades"]}
    out = dumps(tomllib.loads(text), comments=c)
    assert tomllib.loads(out) == tomllib.loads(text)
    assert "# inside" not in out.replace("# inside a string", "")


# -- any data the format can hold ---------------------------------------------------------

_text = st.text(max_size=12)
_scalar = st.one_of(st.integers(-2**63, 2**63 - 1), st.booleans(), _text,
                    st.floats(allow_nan=False))
_value = st.recursive(
    _scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(_text, inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_text, _value, max_size=6))
def test_any_plain_data_round_trips(data):
    assert tomllib.loads(dumps(data)) == data


def test_keys_with_line_breaks_are_quoted():
    """Found by hypothesis: a key ending in a line break must not be written bare."""
    for data in ({"0\n": []}, {"a\n": {"b\n": {"c": [1]}}}, {"x\ny": 1}):
        assert tomllib.loads(dumps(data)) == data


def test_comment_text_is_always_written_as_comments():
    from shipsheet.model.toml_writer import Comments
    c = Comments(header=["no hash", "# with hash"], before={"a": ["two\nlines"]},
                 trailing={"a": "bell\x07 here"})
    out = dumps({"a": 1}, comments=c)
    assert out == "# no hash\n# with hash\n\n# two\n# lines\na = 1  # bell  here\n"
    assert tomllib.loads(out) == {"a": 1}
