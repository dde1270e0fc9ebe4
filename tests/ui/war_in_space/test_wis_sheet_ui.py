"""The War In Space SDS on screen: what it shows, what a click does, what a refused click says."""

from __future__ import annotations

import re

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from shipsheet.model import new_ship, get_class
from shipsheet.printing import PrintJob, export_pdf
from shipsheet.rules.war_in_space import current_die, locked_suits
from shipsheet.sheets import Theme, painter_for
from shipsheet.sheets.war_in_space import WarInSpaceSheet


def test_the_sheet_is_the_war_in_space_sds_with_a_box_per_system_box(table):
    """[product]: each system has "a row of system boxes"; the cruiser's are 4, 3 and 3; one
    critical box per suit."""
    assert isinstance(table.canvas.painter, WarInSpaceSheet)
    keys = {a.key for a in table.canvas.painter.areas}
    assert {f"box:0:{k}" for k in range(4)} <= keys and "box:0:4" not in keys
    assert {f"box:1:{k}" for k in range(3)} <= keys and "box:1:3" not in keys
    assert {f"box:2:{k}" for k in range(3)} <= keys
    assert {f"crit:{s}" for s in ("spades", "hearts", "diamonds", "clubs")} <= keys
    # Boxes of one size, aligned in rows.
    boxes = [a.rect for a in table.canvas.painter.areas if a.key.startswith("box:")]
    assert {(r.width(), r.height()) for r in boxes} == {(16.0, 16.0)}
    assert len({round(a.rect.top()) for a in table.canvas.painter.areas
                if a.key.startswith("box:1:")}) == 1


def test_clicking_an_unmarked_box_marks_damage_in_one_undo_step(table):
    """[product]: "click a system box to mark it (the die steps down)": Reactor d10 -> d8."""
    assert current_die(table.ship, "Reactor") == 10
    table.click("box:0:2")
    assert table.ship.state["marks"][0] == 1
    assert current_die(table.ship, "Reactor") == 8
    assert table.undo_text() == "Mark Reactor box"
    assert "Reactor: box 1 of 4 marked; die d10 -> d8" in table.session.log_text()
    assert "box 1 of 4: marked" in table.area("box:0:0").tooltip
    table.undo()
    assert table.ship.state["marks"][0] == 0 and table.doc.session.undo_step() is None


def test_hover_explains_every_box(table):
    """Every clickable box says what it is and what clicking does."""
    for area in table.canvas.painter.areas:
        if area.key.startswith(("box:", "crit:")):
            assert area.tooltip and (area.click is not None or area.refusal), area.key
    assert "steps from d6 to d4" in table.area("box:1:1").tooltip  # Drive is at d6 (1 mark)
    assert "Click to mark it" in table.area("crit:spades").tooltip


def test_a_click_on_a_marked_box_is_refused_with_the_reason(table):
    """Seed: repairs happen by Damage Control ("By spending 4 energy points a ship may repair
    one system box"); a click does not erase a mark."""
    table.click("box:1:0")  # the marked Drive box
    assert table.ship.state["marks"][1] == 1
    assert table.doc.session.undo_step() is None
    status = table.status()
    assert "Drive box 1 of 3 is already marked" in status
    assert "repaired only by Damage Control (4 energy a box" in status
    assert "Correct mark" in table.area("box:1:0").refusal


def test_correct_mark_takes_a_mistake_back_and_is_logged_as_a_correction(table):
    """House rule: a mistaken mark is taken back with "Correct mark", logged as a correction."""
    table.menu("box:1:0", "Correct mark")
    assert table.ship.state["marks"][1] == 0
    assert table.undo_text() == "Correct mark: Drive box"
    assert any("Correction: Drive box 1 unmarked (a mistaken mark, not a repair)" in line
               for line in table.log_lines())
    table.undo()
    assert table.ship.state["marks"][1] == 1


def test_clicking_a_critical_box_locks_the_suit_and_the_roster_says_so(table):
    """Seed: a critical hit takes away "the ability" to play cards of a suit; roster chip."""
    assert table.chips("Vigilant") == ["♦ locked"]
    table.click("crit:clubs")
    assert locked_suits(table.ship) == ["diamonds", "clubs"]
    assert table.undo_text() == "Mark ♣ critical"
    assert table.chips("Vigilant") == ["♦ locked", "♣ locked"]
    assert "♣ critical hit: marked" in table.area("crit:clubs").tooltip
    table.click("crit:clubs")  # a second click is refused, with the reason
    assert "already marked" in table.status() and table.undo_text() == "Mark ♣ critical"
    table.undo()
    assert table.chips("Vigilant") == ["♦ locked"]


def test_critical_correction_from_the_menu(table):
    table.menu("crit:diamonds", "Correct mark")
    assert locked_suits(table.ship) == []
    assert "Correction: ♦ critical hit unmarked" in table.session.log_text()


def test_dead_in_space_in_words_on_sheet_and_roster(table):
    """House rule: "A ship whose three systems all produce 0 is shown as Dead in space"; the
    escort has 2 + 3 + 1 boxes."""
    table.select("Harrier")
    for system, boxes in ((0, 2), (1, 3), (2, 1)):
        for _ in range(boxes):
            table.click(f"box:{system}:{boxes - 1}")
    assert table.ship.state["marks"] == [2, 3, 1]
    assert table.chips("Harrier") == ["Dead in space"]
    assert "House rule WIS-H11 (Dead in space):" in table.area("dead").tooltip
    assert "Dead in space" in table.canvas.painter.status_words()
    assert "Dead in space" in table.panel.heading.text()


def test_house_rules_are_labelled_on_the_sheet(table):
    """[product]: "House rules must be visible in the UI (a "House rule" tooltip ...)"."""
    for key in ("tertiary", "ladder:0", "lost", "energy"):
        assert re.search(r"House rule WIS-H\d+ \(", table.area(key).tooltip), key
    assert "House rule WIS-H4 (Jokers are never locked): A critical hit locks out" in \
        table.area("crit:spades").tooltip


def test_committed_energy_and_planned_repairs_are_on_the_sheet(table):
    """The turn's committed energy and planned repairs are drawn on the sheet (4♥ with Damage
    Control on dice 7, 5, 2: highest 7 to Damage Control, middle 5 to ♥ Primary Defense,
    lowest 2 to Secondary Attack)."""
    from shipsheet.rules.war_in_space import commit_energy_action, plan_repairs_action
    ship = table.ship
    table.doc.do(commit_energy_action(ship, "4H", [7, 5, 2], damage_control=True))
    table.doc.do(plan_repairs_action(ship, boxes={"Drive": 1}))
    assert "Damage Control 7" in table.area("energy").tooltip
    assert "Defense 5" in table.area("energy").tooltip
    assert "Repair planned" in table.area("box:1:0").tooltip
    assert "Drive: 1 box (4 energy)" in table.area("repairs").tooltip
    assert "rolled this turn: 7" in table.area("rolled:0").tooltip


def test_sheet_paints_in_every_theme_and_fits_one_page(table):
    """The screen is the paper: the same drawing in light, dark and print, A4 width."""
    for name in ("Vigilant", "Harrier"):
        ship = table.session.ship(name)
        sheet = painter_for(ship, table.session)
        size = sheet.size()
        assert size.width() == 595
        # A4 printable height at full width (842 pt less 2 x 36 pt margins and the footer).
        assert size.height() * (595 - 72) / 595 < 842 - 72 - 18
        for theme in (Theme.light(), Theme.dark(), Theme.print_theme()):
            image = QImage(int(size.width()), int(size.height()), QImage.Format.Format_ARGB32)
            painter = QPainter(image)
            sheet.paint(painter, theme)
            painter.end()
            assert image.pixelColor(2, 2) == theme.paper


def test_printed_pdf_has_one_page_per_ship(table, tmp_path):
    path = tmp_path / "fleet.pdf"
    pages = export_pdf(PrintJob(table.session, list(table.session.ships)), path)
    assert pages == 2 and path.read_bytes().startswith(b"%PDF")


def test_sheet_without_a_session_draws_headless(qapp):
    """A painter for a ship alone (no session) still lays the SDS out."""
    ship = new_ship(get_class("war-in-space/battleship"), "Resolute")
    sheet = painter_for(ship)
    sheet.size()
    assert len([a for a in sheet.areas if a.key.startswith("box:0:")]) == 5  # d12: 5 boxes
    assert isinstance(sheet.areas[0].rect, QRectF)
