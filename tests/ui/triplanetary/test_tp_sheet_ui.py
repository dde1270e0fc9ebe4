"""The Triplanetary sheet: D-track ladders with their thresholds, clicks, refusals, fuel, printing.

The sample (resources/samples/triplanetary.shipsheet): Ajax, a frigate at weapons D1,
drive D1, structure D1 that has recovered this turn, fuel 14 of 20; Raven, a frigate at
weapons D1, drive D1; Vigilant, a dreadnaught at weapons D2; Ceres Mule, a transport at
weapons D1, drive D1, 50 t of cargo; Kite, a corsair; Phobos Station, an orbital base.
"""

from __future__ import annotations

from shipsheet.rules import triplanetary as tp

from shipsheet.model import Session, get_class, new_ship
from shipsheet.printing import PrintJob, export_pdf
from shipsheet.sheets import Theme, painter_for
from shipsheet.ui.roster import CHIPS_ROLE


def test_clicking_a_higher_level_marks_damage_in_one_undo_step(table):
    """[seed] "Keep track of damage to each ship"; "if structure reaches D6 or below, the ship
    explodes". Raven's structure ladder: a click on D2 marks 2 structure D."""
    raven = table.select("Raven")
    area = table.area("structure:2")
    assert "Click: mark 2 structure D (D0 → D2)." in area.tooltip
    table.click("structure:2")
    assert raven.state["structure"] == 2
    assert table.sheet.circled["structure"] == 2
    assert "Structure D2" in table.chips("Raven")
    assert table.undo_text() == "&Undo Set Structure D2"
    table.window.act_undo.trigger()
    assert raven.state["structure"] == 0
    assert "Structure D2" not in table.chips("Raven")
    assert table.sheet.circled["structure"] == 0


def test_structure_d6_destroys_and_the_sheet_says_so(table):
    """[seed] "if structure reaches D6 or below, the ship explodes or falls apart, and is lost"."""
    table.select("Kite")
    table.click("structure:6")
    assert table.chips("Kite") == ["Destroyed"]
    assert table.sheet.circled["structure"] == 6
    # A destroyed ship takes no more damage: every ladder step explains it.
    area = table.area("weapon:3")
    assert area.click is None and "destroyed" in area.refusal


def test_a_refused_click_is_explained_and_changes_nothing(table):
    """Recovery closes the turn [TRI-H1]: in the Movement phase a click on weapons D0 (one
    below D1) is refused with the reason, on hover and in the status bar."""
    ajax = table.select("Ajax")
    before = dict(ajax.state)
    area = table.area("weapon:0")
    assert "Recovery phase, which closes the turn" in area.refusal
    assert "right-click to choose weapons" in area.tooltip
    depth = len(table.session.log)
    steps = table.doc.session.undo_status().steps
    table.click("weapon:0")
    assert ajax.state == before
    assert "Recovery phase" in table.status_bar()
    assert len(table.session.log) == depth and table.doc.session.undo_status().steps == steps


def test_one_level_below_recovers_one_d_in_the_recovery_phase(table):
    """[seed] "The ship's owner chooses what kind of damage to recover from": in the Recovery
    phase the Ceres Mule (drive D1) recovers by a click on drive D0; a second click in the
    turn is refused."""
    table.to_phase("Recovery")
    mule = table.select("Ceres Mule")
    assert "Click: recover 1 D, drive D1 → D0" in table.area("drive:0").tooltip
    table.click("drive:0")
    assert mule.state["drive"] == 0
    assert "already recovered" in table.area("weapon:0").refusal


def test_the_recovery_choice_row_takes_a_click(table):
    """The owner's choice on the sheet: tick a track, it is circled as the one recovered at the
    turn's end; "Default" clears it [TRI-H13, TRI-H14]."""
    mule = table.select("Ceres Mule")
    assert table.sheet.areas and "TRI-H14" in table.area("choice:weapon").tooltip
    table.click("choice:weapon")
    assert tp.recovery_choice(mule) == ("weapon",)
    assert table.undo_text() == "&Undo Recovery choice: weapons"
    assert table.area("choice:weapon").refusal and "already weapons" in table.area("choice:weapon").refusal
    table.click("choice:default")
    assert tp.recovery_choice(mule) == ()


def test_thresholds_are_drawn_on_the_ladders(table):
    """The seed's thresholds, as the rules give them for each type:
    "A ship with any weapon damage cannot fire any weapon or drop ordnance. Exception: A
    dreadnaught can still fire if its weapon damage status is D1 through D3." /
    "Weapon hits on transports and packets have no effect except to prevent their launching
    mines." / "whose weapons reach D6 or below can no longer repair them" / "A ship with any
    drive damage cannot maneuver." / "drive reaches D6 or below may not be repaired; it will be
    lost when it reaches the edge of the map." / "if structure reaches D6 ... the ship explodes"."""
    table.select("Raven")
    frigate = table.sheet.drawn_thresholds
    assert frigate["weapon"] == [(1, "can't fire or drop ordnance"), (6, "repaired at a base only")]
    assert frigate["drive"] == [(1, "can't maneuver"), (6, "no repair, lost at map edge")]
    assert frigate["structure"] == [(6, "destroyed")]
    table.select("Vigilant")
    assert table.sheet.drawn_thresholds["weapon"] == [
        (1, "no ordnance"), (4, "can't fire"), (6, "repaired at a base only")]
    table.select("Ceres Mule")
    # A transport is defensive only: a drive hit leaves it unable to maneuver or fire: disabled.
    assert table.sheet.drawn_thresholds["weapon"] == [(1, "no mines"), (6, "repaired at a base only")]
    assert table.sheet.drawn_thresholds["drive"][0] == (1, "can't maneuver, disabled (lootable)")
    table.select("Phobos Station")
    # An orbital base never maneuvers and is never lost at a map edge.
    assert table.sheet.drawn_thresholds["drive"] == [(6, "no repair")]


def test_fuel_boxes_are_crossed_off_and_clicks_burn_or_refuel(table):
    """Fuel as trackable boxes [product]: Ajax has 14 of 20 left, so 6 boxes are crossed off."""
    ajax = table.select("Ajax")
    assert "(burnt)" in table.area("fuel:6").tooltip and "(left)" in table.area("fuel:7").tooltip
    table.click("fuel:7")
    assert ajax.state["fuel"] == 13
    assert table.log_of("Ajax")[-1] == "fuel 14 → 13"
    table.click("fuel:3")  # a crossed-off box: take on fuel up to it
    assert ajax.state["fuel"] == 18


def test_cargo_scale_circles_the_load_and_clicks_set_it(table):
    mule = table.select("Ceres Mule")
    assert "circled" in table.area("cargo:40").tooltip  # Kite looted 10 t of its 50
    table.click("cargo:20")
    assert mule.state["cargo"] == 20
    assert table.undo_text() == "&Undo Set cargo to 20 t"


def test_torch_fuel_is_unlimited_and_base_has_no_fuel_boxes(table):
    """[2018] Torch: fuel unlimited; Orbital Base: 0 (unlimited store)."""
    doc = table.doc
    from shipsheet.model import AddShip
    torch = new_ship(get_class("triplanetary/torch"), "Helios")
    assert doc.do(AddShip(torch, "Mars Patrol"))
    doc.select(torch.id)
    assert "unlimited" in table.area("fuel").tooltip.lower()
    assert not any(a.key.startswith("fuel:") for a in table.sheet.areas)
    table.select("Phobos Station")
    assert "unlimited store" in table.area("fuel").tooltip


def test_defensive_only_counter_says_so(table):
    """[2018] "D" after the combat strength: defensive only, never attacks."""
    table.select("Ceres Mule")
    assert "never attack" in table.area("counter").tooltip


def test_sheet_draws_in_every_theme_and_prints_one_page(table, tmp_path):
    """The screen is the paper: the same painter in light, dark and print themes, and a PDF."""
    ship = table.ship("Ajax")
    for theme in (Theme.light(), Theme.dark(), Theme.print_theme()):
        from PySide6.QtGui import QImage, QPainter
        sheet = painter_for(ship, table.session)
        size = sheet.size()
        image = QImage(int(size.width()), int(size.height()), QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        sheet.paint(painter, theme)
        painter.end()
        assert size.height() < 842  # one A4 page
    out = tmp_path / "ajax.pdf"
    assert export_pdf(PrintJob(table.session, ships=[ship]), out) == 1
    assert out.stat().st_size > 2000


def test_standard_combat_shows_the_single_disabled_track(window, qtbot):
    """[2018] standard combat: "D-results accumulate on one track; D6 or more, or E, destroys"."""
    session = Session("triplanetary", name="Standard", seed=1)
    session.options["combat"] = "standard"
    session.add_ship(new_ship(get_class("triplanetary/frigate"), "Nike"), "Inner Planets")
    session.clear_history()
    window.open_session(session)
    sheet = window.sheet_view.canvas.painter
    keys = {a.key for a in sheet.areas}
    assert {"standard:0", "standard:6", "standard:E"} <= keys
    assert "weapon:1" not in keys  # the advanced tracks are not used
    assert sheet.drawn_thresholds["standard"][-1] == (6, "destroyed")
    area = next(a for a in sheet.areas if a.key == "standard:E")
    assert window.doc.do(area.click())
    assert window.roster.item_for(session.ships[0].id).data(2, CHIPS_ROLE) == ["Destroyed"]


def test_context_menu_offers_only_what_the_rules_allow(table):
    """[seed] recovery 1 D a turn, the owner's choice; "A ship which reaches a base and
    undergoes maintenance is immediately restored to full operating status"."""
    table.select("Ajax")  # weapons D1, drive D1, structure D1; its choice is structure
    assert [label for label, _ in table.area("structure:3").menu] == [
        "Maintenance at a base (every track to D0)"]
    assert [label for label, _ in table.area("weapon:3").menu] == [
        "Choose: recover 1 weapons D when the turn ends (D1 → D0)",
        "Maintenance at a base (every track to D0)"]
    table.to_phase("Recovery")
    raven = table.select("Raven")
    menu = dict(table.area("weapon:3").menu)
    assert list(menu) == ["Choose: recover 1 weapons D when the turn ends (D1 → D0)",
                          "Recover 1 weapons D now (D1 → D0)",
                          "Maintenance at a base (every track to D0)"]
    assert table.doc.do(menu["Maintenance at a base (every track to D0)"]())
    assert raven.state["weapon"] == 0
    assert table.chips("Raven") == []


def test_right_click_on_an_undamaged_ship_says_there_is_nothing_to_do(table):
    """Before: a right-click on a ladder step of an undamaged ship did nothing visible."""
    table.select("Kite")  # undamaged
    menu = table.canvas.build_menu(table.area("weapon:2"))
    assert [(act.text(), act.isEnabled()) for act in menu.actions()] == [
        ("Nothing to do here now", False)]
