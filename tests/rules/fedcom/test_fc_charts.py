"""Damage Allocation Charts: the training chart, malformed charts, the user's charts."""

from pathlib import Path

import pytest

from shipsheet.model import RuleViolation, Session, ShipDefinitionError
from shipsheet.model.paths import user_charts_dir
from shipsheet.rules.fedcom import (default_chart, get_chart, list_charts, load_chart,
                                    session_chart, set_chart_action)
from shipsheet.rules.fedcom.chart import chart_problems

ROW = '["bridge", "phaser", "torpedo/lab", "lab", "cargo", "impulse", "reactor", "battery", "probe", "lab/frame"]'


def chart_text(rows=None, name="My chart"):
    rows = rows if rows is not None else [ROW] * 6
    return f'name = "{name}"\nrows = [\n' + ",\n".join(rows) + "\n]\n"


def write(folder: Path, text: str, name: str = "chart.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_training_chart_loads_and_says_it_is_not_the_official_one():
    """[product]: "ShipSheet ships its own training chart ... clearly labelled"."""
    chart = default_chart()
    assert chart.id == "training" and chart.sample
    assert "not the official" in chart.name
    assert len(chart.rows) == 6 and all(len(r) == 10 for r in chart.rows)
    # [seed 8FC2] frame only ever as the alternate of column 10
    for row in chart.rows:
        for col, cell in enumerate(row, start=1):
            assert cell.primary != "frame"
            assert cell.alternate != "frame" or col == 10


def test_a_valid_chart_file_loads(tmp_path):
    chart = load_chart(write(tmp_path, chart_text()))
    assert chart.name == "My chart" and chart.cell(1, 3).text == "torpedo/lab"
    assert (chart.cell(6, 10).primary, chart.cell(6, 10).alternate) == ("lab", "frame")


@pytest.mark.parametrize("rows, message", [
    ([ROW] * 5, "chart.toml: rows: a chart has 6 rows (one per die roll), found 5"),
    ([ROW] * 2 + ['["bridge", "phaser"]'] + [ROW] * 3,
     "chart.toml: rows[2]: a row has 10 cells, found 2"),
    ([ROW] * 2 + [ROW.replace('"cargo"', '"frame/cargo"')] + [ROW] * 3,
     "chart.toml: rows[2][4]: frame is never a primary kind"),
    ([ROW] * 2 + [ROW.replace('"cargo"', '"cargo/frame"')] + [ROW] * 3,
     "chart.toml: rows[2][4]: frame is only the alternate of column 10 [8FC2], not of column 5"),
    ([ROW.replace('"probe"', '"probbe"')] + [ROW] * 5, 'chart.toml: rows[0][8]: unknown kind "probbe"'),
    ([ROW] * 5 + [ROW.replace('"lab"', '"lab/cargo/probe"', 1)],
     'chart.toml: rows[5][3]: "lab/cargo/probe": a cell names a primary kind and at most one'),
    ([ROW] * 5 + [ROW.replace('"lab"', '5', 1)], "chart.toml: rows[5][3]: expected text"),
])
def test_malformed_charts_name_the_file_and_the_first_bad_position(tmp_path, rows, message):
    with pytest.raises(ShipDefinitionError) as info:
        load_chart(write(tmp_path, chart_text(rows)))
    assert str(info.value).startswith(message)


def test_a_chart_without_a_name_or_not_toml(tmp_path):
    with pytest.raises(ShipDefinitionError, match=r"^chart\.toml: name: missing"):
        load_chart(write(tmp_path, "rows = []\n"))
    with pytest.raises(ShipDefinitionError, match=r"^chart\.toml: not valid TOML"):
        load_chart(write(tmp_path, "rows = [[\n"))


def test_a_chart_may_declare_its_own_kinds(tmp_path):
    text = chart_text([ROW.replace('"probe"', '"fighter-bay"')] + [ROW] * 5)
    with pytest.raises(ShipDefinitionError, match='unknown kind "fighter-bay"'):
        load_chart(write(tmp_path, text))
    chart = load_chart(write(tmp_path, 'extra_kinds = ["fighter-bay"]\n' + text))
    assert chart.cell(1, 9).primary == "fighter-bay"


def test_the_users_charts_are_listed_and_win_over_bundled_ones():
    """Issue 6: "a user can put their own chart file in their data folder and pick it"."""
    folder = user_charts_dir() / "fedcom"
    write(folder, chart_text(name="Official DAC (mine)"), "official.toml")
    write(folder, chart_text(rows=[ROW] * 4), "broken.toml")
    infos = {i.id: i for i in list_charts()}
    assert infos["official"].user and infos["official"].name == "Official DAC (mine)"
    assert not infos["training"].user and "broken" not in infos
    assert any(p.startswith("charts/fedcom/broken.toml: rows:") for p in chart_problems())
    assert get_chart("official").name == "Official DAC (mine)"
    write(folder, chart_text(name="My training"), "training.toml")
    assert get_chart("training").name == "My training"
    with pytest.raises(RuleViolation, match='no damage allocation chart "nope"'):
        get_chart("nope")


def test_the_session_chooses_its_chart_and_keeps_a_copy():
    folder = user_charts_dir() / "fedcom"
    path = write(folder, chart_text(name="House chart"), "house.toml")
    session = Session("fedcom", seed=1)
    assert session_chart(session.options).id == "training"
    session.apply(set_chart_action("house"))
    assert session.options["chart"] == "house"
    path.unlink()                      # the file is gone: the session still has its chart
    assert session_chart(session.options).name == "House chart"
    session.undo()
    assert session_chart(session.options).id == "training"


def test_a_chart_id_set_directly_is_read_from_its_file():
    """A plain ``options["chart"] = id`` (e.g. the generic SetOption) also works, and a kept
    copy of another chart is not used for it."""
    from shipsheet.model import SetOption
    write(user_charts_dir() / "fedcom", chart_text(name="Other chart"), "other.toml")
    session = Session("fedcom", seed=1)
    session.apply(set_chart_action("training"))
    session.apply(SetOption("chart", "other"))
    assert session_chart(session.options).name == "Other chart"
    session.apply(SetOption("chart", 7))
    with pytest.raises(RuleViolation, match="not a chart id"):
        session_chart(session.options)
