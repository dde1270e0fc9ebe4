"""The Federation Commander ship card, used as a player or referee would: hover, click, undo.

Numbers come from the sample cards (``resources/ships/fedcom/*.toml``) and the rule
texts quoted in each test.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from fc_ui_helpers import CRUISER, FRIGATE, area, click, log_lines, open_fc
from sheet_pixels import near, sheet_image
from shipsheet.rules.fedcom import mark_box_action, mark_frame_action
from shipsheet.sheets import Theme


def chips(window, ship):
    return window.roster.item_for(ship.id).data(2, Qt.ItemDataRole.UserRole + 1)


def test_every_box_of_the_card_is_drawn_grouped_with_a_tooltip(window):
    """The card shows every box by category, the shields #1-#6 with their boxes, the frame."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    spec = ship.ship_class.spec
    keys = {a.key for a in window.sheet_view.canvas.painter.areas}
    assert {f"box:{b.id}" for b in spec.boxes} <= keys
    # shields = [30, 24, 24, 20, 24, 24], frame = 6 on the card
    for n, size in enumerate((30, 24, 24, 20, 24, 24), start=1):
        assert f"shield:{n}:{size}" in keys and f"shield:{n}:{size + 1}" not in keys
    assert "frame:6" in keys and "frame:7" not in keys
    tip = area(window, "box:ph-5").tooltip
    # the card: { id = "ph-5", kind = "phaser", type = "Ph-3", arc = "360" }
    assert tip.splitlines()[0] == "ph-5 · phaser · Ph-3 · arc 360 (360°)"
    assert "Intact; unfired this turn" in tip
    # [seed 8FC4] "Fired Ph-3, unfired Ph-3, ..." then "hit the one with the most restricted
    # arc first": the unfired Ph-3 in RA (ph-6, 120°) comes before ph-5 (360°).
    assert "DDAP: 2nd of 9 phasers to be hit (DDAP phasers: unfired Ph-3)" in tip
    assert "Click: set fired" in tip
    photon = area(window, "box:photon-1").tooltip
    assert photon.splitlines()[0] == "photon-1 · torpedo · photon · size 1 · arc FA (120°)"
    assert "Destroy photon-1 by hand (correction)" in [label for label, _ in area(window, "box:photon-1").menu]


def test_clicking_sets_turn_states_one_undo_step_each_and_end_of_turn_resets_them(window, qtbot):
    """Turn state: "each weapon is fired, charging or unfired this turn; drone racks launched
    this turn or not; other systems used this turn or not. It resets at end of turn
    (charging persists)." """
    session = open_fc(window, CRUISER)
    window.confirm_skip_phases = lambda turn, skipped: True  # Next Turn's question (issue 31): yes
    ship = session.ships[0]
    click(qtbot, window, "box:ph-1")
    assert ship.state["turn"] == {"ph-1": "fired"}
    assert window.act_undo.text() == "&Undo Set ph-1 fired"
    click(qtbot, window, "box:photon-1")
    click(qtbot, window, "box:photon-1")
    click(qtbot, window, "box:drone-1")
    click(qtbot, window, "box:lab-1")
    click(qtbot, window, "box:tractor-1")
    assert ship.state["turn"] == {"ph-1": "fired", "photon-1": "charging", "drone-1": "launched",
                                  "lab-1": "used", "tractor-1": "used-dropped"}
    assert window.doc.session.undo_status().steps == 6
    assert "Intact; charging this turn" in area(window, "box:photon-1").tooltip
    assert "Click: set unfired" in area(window, "box:photon-1").tooltip
    assert any(line.endswith("Resolute: Set lab-1 used") for line in log_lines(window))
    window.act_undo.trigger()
    assert "tractor-1" not in ship.state["turn"]
    window.act_next_turn.trigger()
    assert session.turn == 2
    assert ship.state["turn"] == {"photon-1": "charging"}
    assert "Intact; unfired this turn" in area(window, "box:ph-1").tooltip
    assert "Intact; not launched this turn" in area(window, "box:drone-1").tooltip


def test_a_destroyed_box_is_struck_with_an_x_and_a_click_explains_why_nothing_happens(window, qtbot):
    """Marks look like pen marks: destroyed is a full X; a refused click explains itself."""
    session = open_fc(window, FRIGATE)
    ship = session.ships[0]
    assert window.doc.do(mark_box_action(ship, "ph-1"))
    before = window.doc.session.undo_status().steps
    click(qtbot, window, "box:ph-1")
    assert window.doc.session.undo_status().steps == before and "ph-1" not in ship.state["turn"]
    assert "ph-1 is destroyed, so it has no turn state" in window.status_text()
    tip = area(window, "box:ph-1").tooltip
    assert "Destroyed; repair costs 4 points" in tip  # [FC] "a box costs weapons 4"
    assert window.doc.do(mark_box_action(ship, "left-warp-1"))

    image, rects = sheet_image(session, ship)

    def at(key, fx, fy):
        r = rects[key]
        return image.pixelColor(round((r.left() + fx * r.width()) * 2),
                                round((r.top() + fy * r.height()) * 2))

    def is_mark(colour):
        return near(colour, Theme.light().mark)

    # A full X: both diagonals are inked, not only the centre (a slash would leave one bare).
    for fx, fy in ((0.5, 0.5), (0.3, 0.3), (0.7, 0.7), (0.3, 0.7), (0.7, 0.3)):
        assert is_mark(at("box:left-warp-1", fx, fy)), (fx, fy)
        assert not is_mark(at("box:left-warp-2", fx, fy)), (fx, fy)


def test_right_click_corrections_drones_and_shuttle_occupant(window):
    """Drone racks carry "drones left", shuttle bays an occupant; the referee corrects by hand."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    menu = dict(area(window, "box:drone-1").menu)
    assert window.doc.do(menu["2 drones left"]())  # { id = "drone-1", ..., drones = 4 }
    assert ship.state["drones"]["drone-1"] == 2
    assert "2 of 4 drones left" in area(window, "box:drone-1").tooltip
    menu = dict(area(window, "box:shuttle-1").menu)  # occupant = "admin"
    assert window.doc.do(menu["Holds: empty"]())
    assert ship.state["occupant"]["shuttle-1"] == "empty"
    menu = dict(area(window, "box:photon-2").menu)
    assert window.doc.do(menu["Destroy photon-2 by hand (correction)"]())
    assert "photon-2" in ship.state["destroyed"]
    assert window.act_undo.text() == "&Undo Destroy photon-2"
    restore = dict(area(window, "box:photon-2").menu)["Restore photon-2 by hand (correction)"]
    assert window.doc.do(restore())
    assert "photon-2" not in ship.state["destroyed"]


def test_shield_and_frame_boxes_are_marked_like_a_tally(window, qtbot):
    """Shields #1-#6 with their boxes [FC]; "Shields regenerate ... (entered by hand)"."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    click(qtbot, window, "shield:3:5")
    assert ship.state["shield_damage"] == [0, 0, 5, 0, 0, 0]
    assert window.act_undo.text() == "&Undo Set shield #3 damage to 5"
    assert "box 5 of 24: down" in area(window, "shield:3:5").tooltip
    assert "19 of 24 boxes up" in area(window, "shield:3:5").tooltip
    click(qtbot, window, "shield:3:3")  # regenerate boxes 3-5
    assert ship.state["shield_damage"][2] == 2
    click(qtbot, window, "frame:2")
    assert ship.state["frame_hits"] == 2
    assert "Frame 4/6" in chips(window, ship)
    assert "Frame box 2 of 6: destroyed" in area(window, "frame:2").tooltip


def test_status_in_words_crippled_at_half_the_non_shield_boxes(window):
    """[FC] "Crippled: internal damage to at least half of all non-shield boxes" ([house]: the
    frame counts). The sample frigate has 24 boxes and 3 frame boxes: 27; 14 is half or more."""
    session = open_fc(window, FRIGATE)
    ship = session.ships[0]
    ids = [b.id for b in ship.ship_class.spec.boxes]
    assert len(ids) == 24
    for box_id in ids[:12]:
        window.doc.do(mark_box_action(ship, box_id))
    window.doc.do(mark_frame_action(ship, 1))
    assert "Crippled" not in window.sheet_view.canvas.painter.status_words()  # 13 of 27
    window.doc.do(mark_box_action(ship, ids[12]))                          # 14 of 27
    assert "Crippled" in window.sheet_view.canvas.painter.status_words()
    assert "Crippled" in chips(window, ship)
    assert "Frame 2/3" in chips(window, ship)


def test_the_keyboard_reaches_and_clicks_the_boxes(window, qtbot):
    """Keyboard access to every action: arrows move among the boxes, Space clicks."""
    open_fc(window, CRUISER)
    canvas = window.sheet_view.canvas
    canvas.setFocus()
    QTest.keyClick(canvas, Qt.Key.Key_Right)
    focused = canvas.focused_area()
    assert focused is not None and focused.click is not None
    name = focused.click().name
    QTest.keyClick(canvas, Qt.Key.Key_Space)
    assert window.doc.session.undo_status().undo == name


def test_the_sample_session_opens_with_its_damaged_ships(window):
    """The bundled sample opens on the card; a damaged ship's card shows its Xs."""
    assert window.open_sample("fedcom")
    session = window.doc.session
    damaged = max(session.ships, key=lambda s: len(s.state["destroyed"]))
    window.doc.select(damaged.id)
    painter = window.sheet_view.canvas.painter
    assert painter.ship is damaged
    struck = [a for a in painter.areas if a.key.startswith("box:") and a.refusal]
    assert len(struck) == len(damaged.state["destroyed"]) > 0
