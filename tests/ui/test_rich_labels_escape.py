"""Every label whose markup is our own (``rich``) shows a file's text escaped: the paths the
window walk of ``test_plain_text.py`` does not reach.

That walk opens each game's hostile session and its dialogs as they first show. Here the
file's text is brought into each rich label by the path that puts it there: a refusal that
quotes a ship's name (a destroyed ship, orders not copied), the systems a class
file names (planned repairs, blank dice), the sums of several ships' strengths, the
recovery rows of damaged ships, and a designer's verdict quoting a typed file name.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from shipsheet.ui.plaintext import is_rich

from test_plain_text import HOSTILE, RAW, hostile_session

ESCAPED = "&lt;img"
#: For the fields a file keeps to 40 characters (box ids, system names).
SHORT = '<b>HOSTILE</b><img src="x.png">'
assert len(SHORT) <= 38
SHIP_ROLE = Qt.ItemDataRole.UserRole


def assert_escaped(label: QLabel) -> None:
    """``label`` is our markup, carries the file's text, and that text only escaped."""
    text = label.text()
    assert is_rich(label), text
    assert "HOSTILE" in text, text
    assert RAW not in text, text
    assert ESCAPED in text, text


def open_hostile(app, qtbot, path):
    window = app.new_window()
    qtbot.addWidget(window)
    assert window.open_path(path)
    return window


def close(window) -> None:
    window.doc.mark_clean()


# -- Federation Commander ------------------------------------------------------------------------

def test_volley_refusal_quoting_a_ship_name_is_escaped(app, qtbot, tmp_path):
    """"<name> is already destroyed." (a RuleViolation quoting the file's ship name)."""
    window = open_hostile(app, qtbot, hostile_session("fedcom", tmp_path))
    ship = window.doc.session.ships[0]
    ship.state["ship_destroyed"] = True
    window.doc.select(ship.id)
    dialog = window.panel.open_volley()
    dialog.set_inputs(ship_id=ship.id, damage=5)
    assert "is already destroyed" in dialog.message.text()
    assert_escaped(dialog.message)
    dialog.close()
    close(window)


def test_orders_refusal_quoting_a_ship_name_is_escaped(app, qtbot, tmp_path):
    """"<name>'s orders are not copied to the next turn." — the rules' refusal, shown in
    the editor (its copy box unticked after another window's change)."""
    window = open_hostile(app, qtbot, hostile_session("fedcom", tmp_path))
    ship = window.doc.session.ships[0]
    window.doc.select(ship.id)
    dialog = window.panel.open_orders()
    assert_escaped(dialog.intro)
    dialog._copy_toggled(False)
    assert "are not copied" in dialog.message.text()
    assert_escaped(dialog.message)
    dialog.close()
    close(window)


# -- War In Space --------------------------------------------------------------------------------

def hostile_wis(tmp_path):
    """The hostile War In Space session, its classes' systems named with markup too."""
    path = hostile_session("war-in-space", tmp_path)
    data = json.loads(path.read_text("utf-8"))
    for ship in data["ships"]:
        for i, system in enumerate(ship["class"]["systems"]):
            system["name"] = f"{SHORT}{i}"
    path.write_text(json.dumps(data), "utf-8")
    return path


def test_planned_repairs_name_the_files_systems_escaped(app, qtbot, tmp_path):
    """The sample's Vigilant has a Drive box repair planned: the planner names the system."""
    window = open_hostile(app, qtbot, hostile_wis(tmp_path))
    ship = window.doc.session.ships[0]
    window.doc.select(ship.id)
    planner = window.panel.repairs
    assert "Planned:" in planner.planned_label.text()
    assert_escaped(planner.planned_label)
    assert_escaped(window.panel.heading)
    close(window)


def test_the_budget_refusal_quoting_a_ship_name_is_escaped(app, qtbot, tmp_path):
    """Harrier has not committed its energy: the planner says so, naming it."""
    window = open_hostile(app, qtbot, hostile_wis(tmp_path))
    ship = window.doc.session.ships[-1]
    window.doc.select(ship.id)
    planner = window.panel.repairs
    assert "has not committed" in planner.budget_label.text()
    assert_escaped(planner.budget_label)
    close(window)


def test_energy_problem_naming_the_files_systems_is_escaped(app, qtbot, tmp_path):
    """A card chosen, the dice still blank: the message names the blank systems (from the
    class file)."""
    window = open_hostile(app, qtbot, hostile_wis(tmp_path))
    session = window.doc.session
    while session.phase != "Energy Allocation":  # the next turn: nothing committed yet
        window.next_phase()
    ship = session.ships[0]  # Vigilant: ♣ not locked out, every system has a die
    window.doc.select(ship.id)
    energy = window.panel.energy
    energy.rank.setCurrentText("7")
    qtbot.mouseClick(energy.suit_buttons["clubs"], Qt.MouseButton.LeftButton)
    assert "still blank" in energy.message.text()
    assert_escaped(energy.message)
    close(window)


# -- Triplanetary --------------------------------------------------------------------------------

def _tick(widget, ids) -> None:
    for i in range(widget.count()):
        item = widget.item(i)
        item.setCheckState(Qt.CheckState.Checked if item.data(SHIP_ROLE) in ids
                           else Qt.CheckState.Unchecked)


def test_attack_strength_sums_escape_each_ships_name(app, qtbot, tmp_path):
    """"Attack strength: 19 (<name> 15 + <name> 4)": the sum names each ship."""
    from shipsheet.rules import triplanetary as tp
    from shipsheet.model.trial import ship_refusal as refusal
    window = open_hostile(app, qtbot, hostile_session("triplanetary", tmp_path))
    session = window.doc.session
    while session.phase != "Combat":
        window.next_phase()
    able = [s.id for s in session.ships if refusal(s, tp.check_attacker) is None]
    others = [s.id for s in session.ships if s.id not in able[:2]]
    assert len(able) >= 2 and len(others) >= 2
    window.doc.select(able[0])
    dialog = window.panel.open_attack()
    _tick(dialog.attackers, set(able[:2]))
    _tick(dialog.targets, set(others[:2]))
    dialog.recompute()
    assert_escaped(dialog.attack_sum)
    assert_escaped(dialog.defense_sum)
    assert dialog.attack_sum.text().count(ESCAPED) == 2
    assert dialog.defense_sum.text().count(ESCAPED) == 2
    dialog.close()
    close(window)


def test_recovery_rows_escape_name_class_and_side(app, qtbot, tmp_path):
    from shipsheet.rules import triplanetary as tp
    window = open_hostile(app, qtbot, hostile_session("triplanetary", tmp_path))
    session = window.doc.session
    ship = session.ships[0]
    assert window.doc.do(tp.damage_action(ship, weapon=1))
    dialog = window.panel.open_recovery()
    qtbot.waitExposed(dialog)
    rows = [w for w in dialog.grid_host.findChildren(QLabel)
            if is_rich(w) and "HOSTILE" in w.text()]
    assert rows
    for label in rows:
        assert_escaped(label)
        assert label.text().count(ESCAPED) == 3  # name, class, side
    dialog.close()
    close(window)


# -- the designers -------------------------------------------------------------------------------

def test_designer_verdict_quoting_a_file_name_is_escaped(app, qtbot):
    """The footer's "file name: "<name>" is not a usable file name"."""
    from shipsheet.ui.designer import open_designer
    window = open_designer(game="war-in-space")
    qtbot.addWidget(window)
    window.stem.setText(HOSTILE)
    window.validate()
    assert window.problem is not None
    assert_escaped(window.status_text)
    window.close()
