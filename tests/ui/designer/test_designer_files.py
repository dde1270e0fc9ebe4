"""Saving into the library, editing one's own class in place, import and export of class files."""

from __future__ import annotations

import tomllib

from PySide6.QtWidgets import QMessageBox

from shipsheet.model.library import get_class, list_classes
from shipsheet.model.paths import resources_dir, user_ships_dir
from shipsheet.ui.designer import open_designer
from shipsheet.model.classfiles import split_message


def test_a_saved_class_is_in_the_library_at_once_and_a_resave_is_seen(qtbot):
    designer = open_designer(game="triplanetary")
    qtbot.addWidget(designer)
    designer.name.setText("Patrol Boat")
    designer.name.textEdited.emit("Patrol Boat")
    assert designer.stem_text == "patrol-boat"
    designer.editor.combat.setValue(3)
    designer.editor.fuel.number.setValue(12)
    assert designer.save()
    cls = get_class("triplanetary/patrol-boat")
    assert (cls.name, cls.spec.combat, cls.spec.fuel) == ("Patrol Boat", 3, 12)
    assert "triplanetary/patrol-boat" in [c.id for c in list_classes("triplanetary")]
    # Same size, saved again at once: the library still sees the change.
    designer.editor.combat.setValue(4)
    assert designer.save()
    assert get_class("triplanetary/patrol-boat").spec.combat == 4
    assert not designer.isWindowModified()


def test_editing_ones_own_class_in_place_keeps_its_comments(qtbot):
    folder = user_ships_dir() / "war-in-space"
    folder.mkdir(parents=True)
    source = (resources_dir() / "ships" / "war-in-space" / "cruiser.toml").read_text("utf-8")
    (folder / "my-cruiser.toml").write_text(source.replace("Vigilant-class Cruiser", "Mine"), "utf-8")
    designer = open_designer(class_id="war-in-space/my-cruiser")
    qtbot.addWidget(designer)
    assert designer.name.text() == "Mine" and designer.stem_text == "my-cruiser"
    assert not designer.dirty
    designer.editor.boxes[0].setValue(3)
    assert designer.save()
    text = (folder / "my-cruiser.toml").read_text("utf-8")
    assert text.startswith("# A sample ship of our own design for ShipSheet")
    assert "[suits]   # [primary, secondary]; the third action is the tertiary" in text  # as written
    assert tomllib.loads(text)["systems"][0] == {"name": "Reactor", "die": "d10", "boxes": 3}


def test_a_bundled_class_is_copied_never_overwritten(qtbot, dialogs):
    bundled = resources_dir() / "ships" / "war-in-space" / "escort.toml"
    original = bundled.read_bytes()
    designer = open_designer(class_id="war-in-space/escort")
    qtbot.addWidget(designer)
    assert designer.name.text() == "Kestrel-class Escort (copy)"
    assert designer.stem_text == "kestrel-class-escort-copy"
    assert not designer.sample.isChecked()
    # Saved under the bundled file's name, it goes to the user's folder and takes the
    # bundled class's place in this user's library (library.py: "the user's folder ... overrides").
    designer.stem.setText("escort")
    designer.stem.textEdited.emit("escort")
    assert designer.save()
    assert (user_ships_dir() / "war-in-space" / "escort.toml").is_file()
    assert bundled.read_bytes() == original
    assert get_class("war-in-space/escort").name == "Kestrel-class Escort (copy)"
    # A second class saved under a name the user already has: asked first.
    other = open_designer(game="war-in-space")
    qtbot.addWidget(other)
    other.stem.setText("escort")
    other.stem.textEdited.emit("escort")
    dialogs.answer = QMessageBox.StandardButton.Cancel
    assert not other.save()
    assert dialogs.shown[-1][:2] == ("question", "Replace Class?")


def test_export_then_import_round_trips_a_class(qtbot, dialogs, tmp_path):
    designer = open_designer(class_id="fedcom/sample-dreadnought")
    qtbot.addWidget(designer)
    dialogs.path = str(tmp_path / "for-the-table")
    assert designer.export_file()
    exported = tmp_path / "for-the-table.toml"
    data = tomllib.loads(exported.read_text("utf-8"))
    assert data["extra_kinds"] == {"fighter-bay": "systems"}
    assert {"id": "fighter-bay", "kind": "fighter-bay", "count": 2} in data["boxes"]

    friend = open_designer(game="triplanetary")
    qtbot.addWidget(friend)
    dialogs.path = str(exported)
    assert friend.import_file()
    assert friend.game == "fedcom" and friend.stem_text == "for-the-table"
    assert friend.current_data() == designer.current_data()
    assert friend.isWindowModified()  # not in the library until saved
    assert friend.save()
    assert get_class("fedcom/for-the-table").spec.heavy_weapon_order == (
        "plasma-S", "photon", "disruptor")


def test_importing_a_broken_file_shows_where_it_is_broken(qtbot, dialogs, tmp_path):
    broken = tmp_path / "ca.toml"
    text = (resources_dir() / "ships" / "fedcom" / "sample-frigate.toml").read_text("utf-8")
    broken.write_text(text.replace('arc = "FA"', 'arc = "FQ"', 1), "utf-8")
    designer = open_designer(game="fedcom")
    qtbot.addWidget(designer)
    assert designer.import_file(broken)
    assert designer.problem.message.startswith("ca.toml: boxes[")
    assert '.arc: unknown arc "FQ"' in designer.problem.message
    assert designer.editor.model.error is not None
    nonsense = tmp_path / "junk.toml"
    nonsense.write_text("this is = = not toml", "utf-8")
    assert not designer.import_file(nonsense)
    assert dialogs.shown[-1][1] == "Cannot Import"
    assert dialogs.shown[-1][2].startswith("junk.toml: not valid TOML")


def test_split_message_finds_the_key_path():
    p = split_message('ca.toml: boxes[12].arc: unknown arc "FQ"', "ca.toml")
    assert (p.path, p.text) == ("boxes[12].arc", 'unknown arc "FQ"')
    p = split_message("ca.toml: suits.hearts[1]: expected text, found a whole number", "ca.toml")
    assert p.path == "suits.hearts[1]"
    p = split_message("ca.toml: expected a table, found text", "ca.toml")
    assert (p.path, p.text) == ("", "expected a table, found text")


def test_start_from_menu_and_switching_games(qtbot, dialogs):
    designer = open_designer(game="fedcom")
    qtbot.addWidget(designer)
    designer._fill_start_menu()
    labels = [a.text() for a in designer.start_menu.actions() if a.text()]
    assert labels[0] == "Blank Federation Commander Class"
    frigate = next(a for a in designer.start_menu.actions() if a.text().startswith("Sample Frigate"))
    assert frigate.text().endswith("(sample)")
    frigate.trigger()
    assert designer.name.text() == "Sample Frigate (copy)"
    assert designer.origin_id == "fedcom/sample-frigate"
    # Unsaved changes: switching game asks first; Cancel keeps everything.
    designer.editor.frame.setValue(9)
    dialogs.answer = QMessageBox.StandardButton.Cancel
    designer.game_box.activated.emit(designer.game_box.findData("war-in-space"))
    assert designer.game == "fedcom" and designer.editor.frame.value() == 9
    assert dialogs.shown[-1][:2] == ("question", "Unsaved Class")
    dialogs.answer = QMessageBox.StandardButton.Discard
    designer.game_box.activated.emit(designer.game_box.findData("war-in-space"))
    assert designer.game == "war-in-space" and designer.name.text() == "New ship class"


def test_the_heavy_weapon_order_follows_the_card_and_can_be_reordered(qtbot):
    """[seed 8FC4] "In the case of multiple types of weapons on one ship, the owner will need to
    specify which will be hit first." """
    designer = open_designer(class_id="fedcom/sample-heavy-cruiser")
    qtbot.addWidget(designer)
    ed = designer.editor
    assert ed.order_types() == ["photon", "disruptor"]
    ed.order.setCurrentRow(1)
    ed._move_order(-1)
    assert designer.current_data()["heavy_weapon_order"] == ["disruptor", "photon"]
    ed.add_kind.setCurrentText("torpedo")
    ed.add_type.setCurrentText("plasma-F")
    ed.add_arc.setCurrentText("FA")
    ed.add_from_bar()
    assert ed.order_types() == ["disruptor", "photon", "plasma-F"]
    assert designer.problem is None
    assert designer.save()
    assert get_class(designer.class_id).spec.heavy_weapon_order == ("disruptor", "photon",
                                                                    "plasma-F")
