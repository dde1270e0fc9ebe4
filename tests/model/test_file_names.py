"""File names checked against every system's rules in one place (``model.files``): the
designer's class and chart names, the play-by-e-mail player files and the turn reports all
ask ``file_name_problem``, and every file that travels (a player's file, their orders and
join files, their reports) is named from its player by one maker, ``safe_file_name``. Before, a class could be saved as ``con.toml`` or ``nul.toml``
and a player named ``CON`` got ``CON.shipsheet``: files Windows cannot make or open (they
are its devices), and a name ending in a dot or space that Windows silently drops."""

from __future__ import annotations

import pytest

from shipsheet.model.classfiles import stem_problem
from shipsheet.model.files import file_name_problem, safe_file_name, safe_file_stem
from shipsheet.pbem.players import player_file_name

RESERVED = ["CON", "con", "Nul", "PRN", "AUX", "COM1", "com9", "LPT1", "lpt3", "CON.toml",
            "nul.txt", "COM1.shipsheet", "CONIN$", "COM\u00b9"]
REFUSED = RESERVED + ["a.", "a ", "bad.", "two  ", "a<b", "a>b", 'a"b', "a:b", "a/b", "a\\b",
                      "a|b", "a?b", "a*b", "tab\there", "nl\nhere", "del\x7f", "", ".", "..",
                      "x" * 256, "\u202egnp.exe", "a\u2066b"]
FINE = ["night", "Vigilant-class Cruiser", "con-trail", "console", "COM10", "LPT", "nullity",
        ".hidden", "Zoë", "船", "x" * 255, "a.b.c"]


@pytest.mark.parametrize("name", REFUSED)
def test_names_some_system_refuses_are_refused_with_a_reason(name):
    why = file_name_problem(name)
    assert why, name
    if name in RESERVED:
        assert "Windows reserves" in why


@pytest.mark.parametrize("name", FINE)
def test_names_every_system_takes_are_fine(name):
    assert file_name_problem(name) is None


@pytest.mark.parametrize("stem", ["con", "NUL", "com1", "lpt9", "aux", "prn", "ship."])
def test_the_designer_refuses_a_class_or_chart_named_for_a_device(stem):
    why = stem_problem(stem)
    assert why and ("Windows reserves" in why or "dot" in why)
    assert stem_problem("sample-heavy-cruiser") is None


@pytest.mark.parametrize("name", RESERVED + ["Bob.", "A:B", "tab\there", "Bob "])
def test_a_player_file_is_never_named_for_a_device(name):
    """A player's name may be any name (``Con`` is one); their file's name is made safe."""
    file = player_file_name(name)
    assert file.endswith(".shipsheet") and file_name_problem(file) is None
    assert file_name_problem(file[:-len(".shipsheet")]) is None
    assert safe_file_stem(file[:-len(".shipsheet")]) == file[:-len(".shipsheet")]


def test_a_player_file_is_named_as_the_players_reports_are():
    """A player's files travel (by e-mail, to any system): the first player file, each turn's
    report and updated file, the orders and join files all take the one name made from the
    player's (``safe_file_name``: ASCII, nothing that reorders or hides)."""
    assert player_file_name("Blue") == "Blue.shipsheet"
    assert player_file_name("Zoë") == "Zoe.shipsheet" == safe_file_name("Zoë") + ".shipsheet"
    assert player_file_name("Con man") == "Con_man.shipsheet"
    assert player_file_name("CON") == "_CON.shipsheet"
    assert player_file_name("\u202egnp.exe") == "gnp.exe.shipsheet"


def test_a_name_that_reorders_its_text_is_made_plain_for_a_local_file():
    assert file_name_problem("\u202egnp.exe") and "reorders" in file_name_problem("\u202egnp.exe")
    assert safe_file_stem("night\u202egnp") == "night_gnp"


@pytest.mark.parametrize("name", RESERVED)
def test_a_report_is_never_named_for_a_device(name):
    stem = safe_file_name(name)
    assert file_name_problem(stem) is None and file_name_problem(f"{stem}.txt") is None
