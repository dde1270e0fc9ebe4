"""The ship library: bundled and user TOML definitions, ids, validation messages."""

from pathlib import Path

import pytest

from shipsheet.model import ShipDefinitionError, get_class, list_classes, load_ship_class, new_ship
from shipsheet.model.library import UnknownClassError, library_problems
from shipsheet.model.paths import resources_dir, user_ships_dir


def test_every_game_has_bundled_classes_with_ids_from_file_stems():
    for game in ("war-in-space", "triplanetary", "fedcom"):
        classes = list_classes(game)
        assert classes, game
        for cls in classes:
            assert cls.game == game
            assert (resources_dir() / "ships" / game / (cls.id.split("/")[1] + ".toml")).is_file()
    assert get_class("triplanetary/frigate").name == "Frigate"
    assert not library_problems()


def test_unknown_class_id():
    with pytest.raises(UnknownClassError, match='no ship class "triplanetary/battlestar"'):
        get_class("triplanetary/battlestar")


def test_user_folder_classes_join_the_library_and_override():
    folder = user_ships_dir() / "triplanetary"
    folder.mkdir(parents=True)
    source = (resources_dir() / "ships/triplanetary/frigate.toml").read_text()
    (folder / "heavy-frigate.toml").write_text(source.replace('class = "Frigate"', 'class = "Heavy Frigate"'))
    (folder / "frigate.toml").write_text(source.replace('class = "Frigate"', 'class = "House Frigate"'))
    (folder / "broken.toml").write_text('game = "triplanetary"\nclass = 5\n')
    assert get_class("triplanetary/heavy-frigate").name == "Heavy Frigate"
    assert get_class("triplanetary/frigate").name == "House Frigate"
    assert any("broken.toml: class: expected text" in p for p in library_problems())


def test_new_ship_is_undamaged_and_named():
    cls = get_class("war-in-space/cruiser")
    ship = new_ship(cls, "  Vigilant  ")
    assert ship.name == "Vigilant" and ship.ship_class is cls
    other = new_ship(cls, "Resolute")
    assert other.state == ship.state and other.state is not ship.state
    assert other.id != ship.id


BAD_DEFINITIONS = [
    # (file name, text, expected message)
    ("nogame.toml", 'class = "X"\n', "nogame.toml: game: missing"),
    ("badgame.toml", 'game = "chess"\nclass = "X"\n', 'badgame.toml: game: unknown value "chess"'),
    ("noclass.toml", 'game = "triplanetary"\ncombat = 2\n', "noclass.toml: class: missing"),
    ("notoml.toml", 'game = "triplanetary\n', "notoml.toml: not valid TOML"),
    ("binary.toml", b"\xff\xfe\x00\x01", "binary.toml: not a text file"),
    ("typo.toml", None, "typo.toml: cmobat: unknown key"),
    ("strength.toml", None, "strength.toml: combat: expected a whole number, found text"),
    ("die.toml", None, "die.toml: systems[1].die"),
    ("boxes.toml", None, "boxes.toml: systems[0].boxes"),
    ("suits.toml", None, "suits.toml: suits.hearts"),
    ("arc.toml", None, 'arc.toml: boxes[3].arc: unknown arc "FQ"'),
    ("order.toml", None, "order.toml: heavy_weapon_order"),
    ("sample.toml", 'game = "triplanetary"\nclass = "X"\nsample = "yes"\n', "sample.toml: sample: expected true or false"),
]


def _variant(name: str) -> str:
    ships = resources_dir() / "ships"
    frigate = (ships / "triplanetary/frigate.toml").read_text()
    cruiser = (ships / "war-in-space/cruiser.toml").read_text()
    heavy = (ships / "fedcom/sample-heavy-cruiser.toml").read_text()
    return {
        "typo.toml": frigate.replace("combat =", "cmobat ="),
        "strength.toml": frigate.replace("combat = 8", 'combat = "eight"'),
        "die.toml": cruiser.replace('name = "Drive", die = "d8"', 'name = "Drive", die = "d7"'),
        "boxes.toml": cruiser.replace('die = "d10", boxes = 4', 'die = "d10", boxes = 5'),
        "suits.toml": cruiser.replace('hearts = ["defense", "attack"]', 'hearts = ["defense", "defense"]'),
        "arc.toml": heavy.replace('arc = "FA" },\n  { id = "ph-2"', 'arc = "FQ" },\n  { id = "ph-2"', 1),
        "order.toml": heavy.replace('heavy_weapon_order = ["photon", "disruptor"]\n', ""),
    }[name]


@pytest.mark.parametrize("name,text,message", BAD_DEFINITIONS, ids=[b[0] for b in BAD_DEFINITIONS])
def test_malformed_definitions_name_file_and_key_path(tmp_path: Path, name, text, message):
    path = tmp_path / name
    if text is None:
        text = _variant(name)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(ShipDefinitionError) as info:
        load_ship_class(path)
    assert str(info.value).startswith(message), str(info.value)


def test_missing_and_oversized_files(tmp_path):
    with pytest.raises(ShipDefinitionError, match="nothere.toml: cannot read"):
        load_ship_class(tmp_path / "nothere.toml")
    big = tmp_path / "big.toml"
    big.write_text('notes = "' + "x" * 1_100_000 + '"\n')
    with pytest.raises(ShipDefinitionError, match="big.toml: the file is too large"):
        load_ship_class(big)
