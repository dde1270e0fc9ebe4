"""File ▸ PBEM in the window, as a moderator and a player use it: players set up in one
undo step, player files written, a player file that takes only its player's decisions,
orders written after their warnings, orders imported (picked or dropped) with a report of
each file, one undo step per accepted file, the turn desk, the turn reports with Open in
Mail, and Verify Dice. File dialogs and the mail program are replaced (conftest, below)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QDropEvent, QGuiApplication
from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QMessageBox, QSpinBox

from shipsheet.model import load_session
from shipsheet.model.actions import RenameShip, SessionAction, SetSide
from shipsheet.model.games import piece
from shipsheet.model.storage import save_session
from shipsheet.pbem import orders as O
from shipsheet.pbem import record as R
from shipsheet.pbem.players import Decision
from shipsheet.pbem.reports import report_subject
from shipsheet.ui import pbem_desk
from shipsheet.ui.pbem_dialogs import (ImportReportDialog, OrdersWarningsDialog, PlayersDialog,
                                       TurnReportsDialog, VerifyDiceDialog, parse_turn_hex)

HOSTILE = "<b>x</b>"


# -- helpers ------------------------------------------------------------------------------------

def answer(monkeypatch, fill):
    """Modal dialogs of the desk are answered by ``fill(dialog)`` (True: accepted)."""
    seen = []

    def run(dialog):
        seen.append(dialog)
        return bool(fill(dialog))
    monkeypatch.setattr(pbem_desk, "run_dialog", run)
    return seen


def _player_of(path) -> str:
    """The player whose file ``path`` is (its name is made from theirs: ``Mars_Patrol``)."""
    from shipsheet.model import load_session
    from shipsheet.pbem import record
    return record.own_player(load_session(path)).name


def players_of(side_names):
    return [{"name": n, "sides": [n], "ships": []} for n in side_names]


@pytest.fixture
def moderator(window, tmp_path):
    """The fedcom sample as a moderator's session, saved: Blue, Red and Green (Bastion)."""
    window.show()
    assert window.open_sample("fedcom")
    doc = window.doc
    assert doc.do(SetSide(doc.session.ship("Bastion"), "Green"))
    assert window.pbem.set_players(players_of(["Blue", "Red", "Green"]), False, False) is None
    assert window._save_to(tmp_path / "game.shipsheet")
    return window


def forms(session):
    return piece(session.game, "decisions")


def form_values(session, ship, kind, **changes):
    spec = next(f for f in forms(session).forms(session, ship) if f["kind"] == kind)
    values = {f["name"]: f["value"] for f in spec["fields"]}
    values.update(changes)
    return values


def player_orders(path: Path, ship: str, out: Path, **changes) -> Path:
    """A player (with no window) gives a standing order in their file and exports it."""
    ps = load_session(path)
    s = ps.ship(ship)
    ps.apply(forms(ps).action(ps, s, "orders", form_values(ps, s, "orders", **changes)))
    written = O.export_orders(ps, ps.turn, out)
    save_session(ps, path)
    return written


def tampered(path: Path) -> Path:
    raw = path.read_bytes()
    at = raw.index(b'"first": "') + len(b'"first": "')
    bad = path.with_name("tampered-" + path.name)
    bad.write_bytes(raw[:at] + b"x" + raw[at:])
    return bad


def desk_rows(window):
    return {row[0]: row[1:] for row in window.pbem.desk_view.rows()}


# -- the menu ---------------------------------------------------------------------------------

def entries(window):
    return {a.text().replace("&", ""): a.isEnabled() for a in window.pbem.menu.actions()
            if not a.isSeparator()}


def test_the_pbem_menu_and_its_entries_by_role(window, tmp_path):
    file_menu = window.file_menu
    assert "P&BEM" in [a.text() for a in file_menu.actions()]
    assert list(entries(window)) == ["Players…", "Export Player Files…", "Import Orders…",
                                     "Turn Desk", "Close Orders", "Close Turn…",
                                     "Set Deadline…", "Export Turn Reports…",
                                     "Export Orders for Turn…",
                                     "Verify Dice…"]
    assert not any(entries(window).values())  # no session
    window.open_sample("fedcom")
    on = entries(window)
    assert on["Players…"] and on["Verify Dice…"]
    assert not any(on[k] for k in ("Export Player Files…", "Import Orders…", "Turn Desk",
                                    "Export Turn Reports…", "Export Orders for Turn…"))
    window.pbem.set_players(players_of(["Blue", "Red"]), False, False)
    on = entries(window)
    assert all(on[k] for k in ("Players…", "Export Player Files…", "Import Orders…", "Turn Desk",
                               "Set Deadline…", "Export Turn Reports…", "Verify Dice…"))
    assert not on["Export Orders for Turn…"]
    assert not on["Close Orders"] and not on["Close Turn…"]  # no verifiable dice: no stages
    [blue, _red] = window.pbem.export_player_files(str(tmp_path / "files"))
    window.doc.mark_clean()
    assert window.open_path(blue)
    on = entries(window)
    assert on["Export Orders for Turn 2…"] and on["Verify Dice…"]
    assert not any(on[k] for k in ("Players…", "Export Player Files…", "Import Orders…",
                                    "Turn Desk", "Set Deadline…", "Export Turn Reports…"))
    assert window.pbem.decisions_dock is not None and window.pbem.desk_dock is None


def test_players_are_set_up_in_one_undo_step(window, monkeypatch):
    window.open_sample("fedcom")
    doc = window.doc
    steps = doc.session.undo_status().steps

    def fill(dialog: PlayersDialog):
        # One player per side is offered to start.
        assert [e["name"] for e in dialog.entries] == ["Blue", "Red"]
        dialog.set_commands(0, name="Blue", sides=["Blue"])
        dialog.add_player()
        dialog.set_commands(2, name="Green", ships=[doc.session.ship("Bastion").id])
        dialog.set_commands(0, sides=[], ships=[doc.session.ship(n).id for n in ("Resolute", "Swift")])
        dialog.show_others.setChecked(True)
        dialog.verifiable.setChecked(True)
        dialog.accept()
        return dialog.result() == QDialog.DialogCode.Accepted

    seen = answer(monkeypatch, fill)
    window.pbem.act_players.trigger()
    assert len(seen) == 1
    session = doc.session
    assert [(p.name, p.sides, [session.ship(i).name for i in p.ships]) for p in R.players(session)] \
        == [("Blue", (), ["Resolute", "Swift"]), ("Red", ("Red",), []), ("Green", (), ["Bastion"])]
    assert R.show_others(session) and session.pbem["dice"]["scheme"] == "turn-set-v2"
    assert doc.session.undo_status().steps == steps + 1
    assert window.pbem.desk_dock is not None and window.pbem.desk_dock.isVisibleTo(window)
    doc.undo()
    assert session.pbem == {} and entries(window)["Export Player Files…"] is False


def test_a_refused_setup_says_why_and_keeps_the_dialog_open(window, monkeypatch):
    window.open_sample("fedcom")
    problems = []

    def fill(dialog: PlayersDialog):
        dialog.set_commands(0, name=HOSTILE, sides=["Blue"])
        dialog.accept()
        problems.append(dialog.error.text())
        assert dialog.error.textFormat() == Qt.TextFormat.PlainText and dialog.error.isVisibleTo(dialog)
        dialog.set_commands(0, name="Blue", sides=[])
        dialog.accept()
        problems.append(dialog.error.text())
        return dialog.result() == QDialog.DialogCode.Accepted

    answer(monkeypatch, fill)
    window.pbem.players()
    assert HOSTILE in problems[0] and "cannot be a player's name" in problems[0]
    assert "Blue commands no ship" in problems[1]
    assert window.doc.session.pbem == {} and window.doc.session.undo_status().steps == 0


def test_export_player_files_writes_a_file_per_player(moderator, dialogs, monkeypatch, tmp_path):
    folder = tmp_path / "out"
    monkeypatch.setattr(pbem_desk, "pick_folder", lambda *a: str(folder))
    moderator.pbem.act_export_players.trigger()
    assert sorted(p.name for p in folder.iterdir()) == ["Blue.shipsheet", "Green.shipsheet",
                                                        "Red.shipsheet"]
    kind, title, text = dialogs.shown[-1]
    assert (kind, title) == ("information", "Player Files Written") and "Green.shipsheet" in text
    blue = load_session(folder / "Blue.shipsheet")
    assert R.role(blue) == "player" and R.player_name(blue) == "Blue"


# -- the player's side --------------------------------------------------------------------------

@pytest.fixture
def blue_file(moderator, tmp_path):
    """Blue's player file, open in the window (the moderator's session closed)."""
    paths = moderator.pbem.export_player_files(str(tmp_path / "files"))
    moderator.doc.mark_clean()
    blue = next(p for p in paths if p.stem == "Blue")
    assert moderator.open_path(blue)
    return moderator, blue


def test_a_player_file_refuses_damage_and_takes_the_players_decisions(blue_file):
    window, path = blue_file
    doc = window.doc
    assert doc.guard is not None
    swift = doc.session.ship("Swift")
    doc.select(swift.id)
    before = json.dumps(swift.state, sort_keys=True)
    canvas = window.sheet_view.canvas
    painter = canvas.painter
    painter.layout()
    area = next(a for a in painter.areas if a.click is not None and not a.refusal)
    assert not canvas.click_area(area)
    assert "Blue's player file: only Blue's decisions are made here" in window.status_text()
    assert "Decisions panel" in window.status_text()
    assert json.dumps(swift.state, sort_keys=True) == before and doc.session.undo_status().steps == 0
    assert not doc.do(SessionAction("Next", lambda s, ctx: s.next_turn(), ships=()))
    # A decision, through the Decisions dock: one undo step.
    view = window.pbem.decisions_view
    assert "Swift: Blue's decisions for turn 2" in view.title.text()
    view.fields["orders"]["last"].setText("ph-1")
    view.buttons["orders"].click()
    assert doc.session.undo_status().steps == 1 and doc.session.ship("Swift").state["orders"]["last"] == ["ph-1"]
    assert "1 order for turn 2" in view.summary.text()
    # Another player's ship is not the player's to decide (shown with show_others only).
    assert all(R.own_player(doc.session).owns(s) for s in doc.session.ships)


def test_export_orders_shows_the_warnings_then_writes_the_file(blue_file, monkeypatch, tmp_path):
    window, path = blue_file
    doc = window.doc
    swift = doc.session.ship("Swift")
    doc.select(swift.id)
    assert "ph-3" in swift.state["destroyed"]
    assert window.pbem.decisions_view.submit("orders", form_values(doc.session, swift, "orders",
                                                                   first="ph-3"))
    seen = answer(monkeypatch, lambda dialog: False)  # Cancel: nothing written
    out = tmp_path / "blue-t2"
    monkeypatch.setattr(pbem_desk, "pick_save", lambda *a: str(out))
    assert window.pbem.act_export_orders.text() == "Export &Orders for Turn 2…"
    window.pbem.act_export_orders.trigger()
    [dialog] = seen
    assert isinstance(dialog, OrdersWarningsDialog)
    assert any('"ph-3" not applied: that box is already destroyed' in w for w in dialog.lines())
    assert dialog.write_button.text() == "&Write Anyway"
    assert not list(tmp_path.glob("*.orders.json"))
    answer(monkeypatch, lambda dialog: True)  # Write Anyway
    written = window.pbem.export_orders()
    assert written == tmp_path / "blue-t2.orders.json" and written.exists()
    data = json.loads(written.read_text("utf-8"))
    assert (data["player"], data["turn"], data["seq"]) == ("Blue", 2, 1)
    assert not doc.dirty and R.sent(load_session(path)) == {2: 1}  # saved: the number is kept
    assert "number 1" in window.status_text()


def test_export_orders_with_no_warnings_goes_straight_to_the_file(blue_file, monkeypatch, tmp_path):
    window, _ = blue_file
    doc = window.doc
    swift = doc.session.ship("Swift")
    doc.select(swift.id)
    assert window.pbem.decisions_view.submit("orders", form_values(doc.session, swift, "orders",
                                                                   last="ph-1"))
    seen = answer(monkeypatch, lambda dialog: pytest.fail("no warnings: no dialog"))
    monkeypatch.setattr(pbem_desk, "pick_save", lambda *a: str(tmp_path / "o.orders.json"))
    assert window.pbem.export_orders() == tmp_path / "o.orders.json" and not seen


@pytest.mark.parametrize("game", ["fedcom", "war-in-space", "triplanetary"])
def test_every_games_decision_forms_in_a_player_file(window, game, tmp_path):
    window.show()
    window.open_sample(game)
    sides = window.doc.session.sides
    assert window.pbem.set_players(players_of(sides), False, False) is None
    first = window.pbem.export_player_files(str(tmp_path))[0]
    window.doc.mark_clean()
    assert window.open_path(first)
    doc, view = window.doc, window.pbem.decisions_view
    refusals = []
    doc.refused.connect(refusals.append)
    offered = 0
    for ship in doc.session.ships:
        doc.select(ship.id)
        offered += len(view.fields)
        for kind in list(view.fields):
            for widget in view.fields.get(kind, {}).values():  # change every field a little
                if isinstance(widget, QSpinBox):
                    widget.setValue(widget.value() - 1 if widget.value() > widget.minimum()
                                    else widget.maximum())
                elif isinstance(widget, QComboBox) and widget.count() > 1:
                    widget.setCurrentIndex((widget.currentIndex() + 1) % widget.count())
            view.submit(kind)  # applied, or refused in words
    assert offered and doc.session.undo_status().steps >= 1, refusals
    assert all(isinstance(step.action, Decision) for step in doc.session._undo)
    assert all(isinstance(m, str) and m for m in refusals)


# -- the moderator's side: importing ---------------------------------------------------------

@pytest.fixture
def sent(moderator, tmp_path):
    """Each player's orders for turn 2, written from their player files."""
    files = {_player_of(p): p for p in moderator.pbem.export_player_files(str(tmp_path / "files"))}
    return {
        "Blue": player_orders(files["Blue"], "Resolute", tmp_path / "Blue.orders.json",
                              first="ph-1, ph-2"),
        "Red": player_orders(files["Red"], "Hornet", tmp_path / "Red.orders.json",
                             first="drone-2"),
        "Green": player_orders(files["Green"], "Bastion", tmp_path / "Green.orders.json",
                               last="ph-1"),
        "files": files,
    }


def test_import_reports_each_file_and_applies_one_undo_step_per_accepted_file(
        moderator, sent, monkeypatch):
    doc = moderator.doc
    assert desk_rows(moderator) == {n: ("Missing", "", "") for n in ("Blue", "Red", "Green")}
    bad = tampered(sent["Blue"])
    steps = doc.session.undo_status().steps
    monkeypatch.setattr(pbem_desk, "pick_files", lambda *a: [str(bad), str(sent["Red"]),
                                                             str(sent["Green"])])
    moderator.pbem.act_import.trigger()
    dialog = moderator.pbem.report_dialog
    assert isinstance(dialog, ImportReportDialog) and dialog.isVisible()
    rows = dialog.rows()
    assert [r[:5] for r in rows] == [
        ("tampered-Blue.orders.json", "Blue", "2", "1", "Refused"),
        ("Red.orders.json", "Red", "2", "1", "Accepted"),
        ("Green.orders.json", "Green", "2", "1", "Accepted")]
    assert "not authentic" in rows[0][5] and rows[1][5].startswith("applied as one step")
    assert "1 refused" in dialog.summary.text() and "2 accepted" in dialog.summary.text()
    assert doc.session.undo_status().steps == steps + 2
    assert doc.session.undo_status().undo == "orders from Green for turn 2"
    assert doc.session.ship("Hornet").state["orders"]["first"] == ["drone-2"]
    rows = desk_rows(moderator)
    assert rows["Blue"][0] == "Missing" and rows["Red"][:2] == ("Applied", "1")
    # Undo takes back one file's orders; the desk follows.
    moderator.undo()
    assert desk_rows(moderator)["Green"][0] == "Missing"
    assert desk_rows(moderator)["Red"][0] == "Applied"
    assert "last" not in doc.session.ship("Bastion").state.get("orders", {})


def test_a_correction_after_orders_were_applied_is_applied_when_confirmed(
        moderator, sent, dialogs, tmp_path):
    doc = moderator.doc
    moderator.pbem.import_orders([sent["Red"]])
    correction = player_orders(sent["files"]["Red"], "Hornet", tmp_path / "Red-2.orders.json",
                               first="drone-1")
    dialogs.answer = QMessageBox.StandardButton.No
    dialog = moderator.pbem.import_orders([correction])
    assert dialog.rows()[0][4] == "Needs confirmation"
    assert desk_rows(moderator)["Red"][:2] == ("Arrived", "2")
    assert dialogs.shown[-1][:2] == ("question", "Apply Corrections?")
    dialogs.answer = QMessageBox.StandardButton.Yes
    steps = doc.session.undo_status().steps
    dialog = moderator.pbem.import_orders([correction])
    assert dialog.rows()[0][4] == "Accepted"
    assert doc.session.undo_status().steps == steps + 1
    assert doc.session.ship("Hornet").state["orders"]["first"] == ["drone-1"]
    assert desk_rows(moderator)["Red"][:2] == ("Applied", "2")


def test_orders_files_dropped_on_the_window_are_imported(moderator, sent):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sent["Blue"])), QUrl.fromLocalFile(str(sent["Red"]))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    moderator.dropEvent(event)
    dialog = moderator.pbem.report_dialog
    assert [r[4] for r in dialog.rows()] == ["Accepted", "Accepted"]
    rows = desk_rows(moderator)
    assert rows["Blue"][0] == rows["Red"][0] == "Applied" and rows["Green"][0] == "Missing"


def test_orders_dropped_on_a_session_without_players_are_not_imported(window, dialogs, tmp_path):
    window.open_sample("fedcom")
    assert window.pbem.drop([str(tmp_path / "x.orders.json")])
    assert dialogs.shown[-1][:2] == ("warning", "Cannot import orders")


# -- turn reports and dice ----------------------------------------------------------------------

def test_turn_reports_are_written_per_turn_and_open_in_the_mail_program(
        moderator, sent, monkeypatch, tmp_path):
    moderator.pbem.import_orders([sent["Blue"]])
    urls = []
    monkeypatch.setattr(QDesktopServices, "openUrl",
                        staticmethod(lambda url: urls.append(bytes(url.toEncoded()).decode()) or True))

    def options(dialog):
        dialog.folder.setText(str(tmp_path / "reports"))
        dialog.with_pdf.setChecked(True)
        return True
    answer(monkeypatch, options)
    moderator.pbem.act_reports.trigger()
    dialog = moderator.pbem.reports_dialog
    assert isinstance(dialog, TurnReportsDialog)
    folder = tmp_path / "reports" / "turn-2"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{n}.{ext}" for n in ("Blue", "Red", "Green") for ext in ("txt", "shipsheet", "pdf"))
    assert [dialog.view.item(r, 0).text() for r in range(3)] == ["Blue", "Red", "Green"]
    subject = report_subject(moderator.doc.session, "Blue", 2)
    assert dialog.subject.text() == f"Subject: {subject}"
    dialog.mail_buttons[0].click()
    [url] = urls
    assert url.startswith("mailto:") and f"subject={subject}" in unquote(url)
    assert "orders from Blue for turn 2" in unquote(url)
    dialog.copy_buttons[1].click()
    assert QGuiApplication.clipboard().text() == (folder / "Red.txt").read_text("utf-8")


def test_verify_dice_names_a_changed_roll(window, monkeypatch, tmp_path):
    window.open_sample("fedcom")
    doc = window.doc
    assert window.pbem.set_players(players_of(["Blue", "Red"]), False, True) is None
    assert not doc.do(SessionAction("Attack", lambda s, ctx: [ctx.dice.roll(6, "to hit")
                                                              for _ in range(3)], ships=()))
    assert window.pbem.close_orders()  # the Turn Desk's Close Orders: now the dice roll
    assert doc.do(SessionAction("Attack", lambda s, ctx: [ctx.dice.roll(6, "to hit")
                                                          for _ in range(3)], ships=()))
    dialog = window.pbem.verify_dice()
    assert isinstance(dialog, VerifyDiceDialog)
    assert dialog.last.status == "incomplete" and "Turn 2: not closed yet" in \
        dialog.result.toPlainText()
    assert window.pbem.close_turn(confirm=False)
    dialog = window.pbem.verify_dice()
    assert dialog.last.status == "verified" and dialog.headline.text().startswith("Verified")
    path = tmp_path / "game.shipsheet"
    assert window._save_to(path)
    data = json.loads(path.read_text("utf-8"))
    entry = next(e for e in reversed(data["log"]) if e.get("roll"))
    old = entry["roll"][3]
    entry["roll"][3] = old % 6 + 1
    entry["text"] = entry["text"].replace(f": {old}", f": {old % 6 + 1}", 1)
    bad = tmp_path / "bad.shipsheet"
    bad.write_text(json.dumps(data), "utf-8")
    doc.mark_clean()
    assert window.open_path(bad)
    dialog = window.pbem.verify_dice()
    assert dialog.last.status == "failed" and dialog.headline.text().startswith("FAILED")
    text = dialog.result.toPlainText()
    assert f"roll #{entry['roll'][1]}: d6 {old % 6 + 1}" in text
    assert f"logged {old % 6 + 1}, the seed gives {old}" in text
    # A seed line that cannot be read is named; nothing is verified with it.
    dialog.seeds.setPlainText("2=abc")
    assert dialog.run() is None and "seed line 1" in dialog.problems.text()


def test_verify_dice_says_an_old_session_cannot_be_verified(window):
    window.open_sample("fedcom")
    dialog = window.pbem.verify_dice()
    assert dialog.headline.text().startswith("These dice cannot be verified")


def test_seed_lines():
    seeds, problems = parse_turn_hex(f"# from the reports\n2={'ab' * 32}\n3: {'CD' * 32}\n", "seed")
    assert seeds == {2: "ab" * 32, 3: "cd" * 32} and problems == []
    _, problems = parse_turn_hex(f"x={'ab' * 32}\n2={'ab' * 32}\n2={'cd' * 32}", "seed")
    assert len(problems) == 2 and "line 1" in problems[0] and "two different" in problems[1]


# -- hostile text -------------------------------------------------------------------------------

def test_names_from_files_show_as_text(window, monkeypatch):
    window.show()
    window.open_sample("fedcom")
    doc = window.doc
    assert doc.do(RenameShip(doc.session.ship("Swift"), HOSTILE))
    seen = answer(monkeypatch, lambda dialog: False)
    window.pbem.players()
    [dialog] = seen
    dialog.show()
    texts = [dialog.items.item(i).text() for i in range(dialog.items.count())]
    assert any(HOSTILE in t for t in texts)
    for label in dialog.findChildren(QLabel):
        assert label.textFormat() == Qt.TextFormat.PlainText or label.text() == ""
    dialog.close()
    window.pbem.set_players([{"name": "Blue", "sides": [], "ships": [doc.session.ship(HOSTILE).id]},
                             {"name": "Red", "sides": ["Red"], "ships": []}], False, False)
    view = window.pbem.desk_view
    assert view.title.textFormat() == Qt.TextFormat.PlainText
    dialog = window.pbem.verify_dice()
    assert dialog.headline.textFormat() == Qt.TextFormat.PlainText


def test_every_desk_view_and_dialog_shows_file_text_as_text(window, monkeypatch, tmp_path):
    """The hostile session of ``test_plain_text`` (markup in the session's, the ships' and
    the sides' names) and an orders file named with markup, through the desk: every label
    of its docks and dialogs reads as text, every tooltip is escaped."""
    from test_plain_text import _labels_ok, _tooltips_ok, hostile_session
    window.show()
    assert window.open_path(hostile_session("fedcom", tmp_path))
    desk = window.pbem
    sides = window.doc.session.sides
    answer(monkeypatch, lambda dialog: dialog.show())  # Players…: left open, not accepted
    desk.players()
    players = [{"name": f"Player {i}", "sides": [side], "ships": []}
               for i, side in enumerate(sides, 1)]
    assert desk.set_players(players, False, True) is None
    odd = tmp_path / "<img src=HOSTILE>.orders.json"
    odd.write_text("{}", "utf-8")
    assert desk.import_orders([odd]).rows()[0][4] == "Refused"
    assert desk.export_turn_reports(str(tmp_path / "reports"), with_pdf=False) is not None
    assert desk.verify_dice() is not None
    found, tips = _tooltips_ok()
    assert not _labels_ok() and not found, found
    assert tips >= 2  # the orders file's name and the reports' subject reached a tooltip
    # The player's side: the Decisions dock, and the warnings before orders are written.
    first = desk.export_player_files(str(tmp_path / "files"))[0]
    window.doc.mark_clean()
    assert window.open_path(first)
    ship = window.doc.session.ships[0]
    window.doc.select(ship.id)
    assert ship.name in desk.decisions_view.title.text()
    warnings = OrdersWarningsDialog(2, [pbem_desk.order_label(window.doc.session, {
        "ship": ship.id, "form": "orders"})], [f"{ship.name}: would be refused"], window)
    warnings.show()
    found, _ = _tooltips_ok()
    assert not _labels_ok() and not found, found
    warnings.close()


def test_the_window_and_the_desk_agree_on_what_an_orders_file_is():
    from shipsheet.ui import main_window, pbem_desk
    assert main_window.ORDERS_SUFFIX == pbem_desk.ORDERS_SUFFIX


# -- turns with stages, keys, pins (fair play by e-mail) -----------------------------------------

@pytest.fixture
def staged(window, tmp_path):
    """The fedcom sample as a moderator's session with verifiable dice (turn 2, orders open)
    and the player files written."""
    window.show()
    assert window.open_sample("fedcom")
    doc = window.doc
    assert doc.do(SetSide(doc.session.ship("Bastion"), "Green"))
    assert window.pbem.set_players(players_of(["Blue", "Red", "Green"]), False, True) is None
    files = {_player_of(p): p for p in window.pbem.export_player_files(str(tmp_path / "files"))}
    return window, files


def test_the_turn_desk_shows_the_stage_and_closes_orders_and_turn(staged, dialogs, tmp_path):
    from shipsheet.pbem.joins import make_join, write_join
    window, files = staged
    doc, view = window.doc, window.pbem.desk_view
    assert view.stage.text().startswith("Orders open (0 queued)")
    assert view.close_orders_button.isEnabled() and not view.close_turn_button.isEnabled()
    ps = load_session(files["Blue"])
    join = write_join(make_join(ps)[0], tmp_path / "Blue.join.json")
    orders = player_orders(files["Blue"], "Resolute", tmp_path / "Blue.orders.json",
                           first="ph-1, ph-2")
    dialog = window.pbem.import_orders([orders, join])
    assert [r[4] for r in dialog.rows()] == ["Queued", "Accepted"]
    assert desk_rows(window)["Blue"][:2] == ("Queued", "1")
    assert doc.session.ship("Resolute").state["orders"].get("first") is None  # not yet
    steps = doc.session.undo_status().steps
    view.close_orders_button.click()
    assert doc.session.undo_status().steps == steps + 1
    assert doc.session.ship("Resolute").state["orders"]["first"] == ["ph-1", "ph-2"]
    assert view.stage.text().startswith("Orders closed, resolving")
    assert not view.close_orders_button.isEnabled() and view.close_turn_button.isEnabled()
    assert desk_rows(window)["Blue"][0] == "Applied"
    # Next Turn in the window is Close Turn here: it says what it does and asks.
    dialogs.answer = QMessageBox.StandardButton.No
    window.next_turn()
    assert dialogs.shown[-1][:2] == ("question", "Close Turn 2?") and doc.session.turn == 2
    dialogs.answer = QMessageBox.StandardButton.Yes
    window.next_turn()
    assert doc.session.turn == 3 and doc.session.pbem["dice"]["turns"]["2"]["stage"] == "closed"
    assert "Turn 2 closed" in window.status_text()
    assert view.stage.text().startswith("Orders open") and view.close_orders_button.isEnabled()
    window.undo()
    assert doc.session.turn == 2 and view.close_turn_button.isEnabled()


def test_the_deadline_is_set_from_the_menu_shown_on_the_desk_and_undone(staged, dialogs,
                                                                        monkeypatch):
    from PySide6.QtWidgets import QInputDialog
    window, _ = staged
    doc, view = window.doc, window.pbem.desk_view
    assert window.pbem.act_deadline.isEnabled()
    asked = []

    def answer(parent, title, label, echo, text):
        asked.append((title, text))
        return "Sunday 8 Dec, 20:00 UTC", True
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(answer))
    steps = doc.session.undo_status().steps
    window.pbem.act_deadline.trigger()
    assert asked == [("Set Deadline", "")]
    assert doc.session.undo_status().steps == steps + 1
    assert view.title.text().endswith("· due by Sunday 8 Dec, 20:00 UTC")
    assert "due by Sunday 8 Dec, 20:00 UTC" in window.status_text()
    # A control character is refused in words and changes nothing.
    assert not window.pbem.set_deadline("Sunday\x1b[2J")
    assert dialogs.shown[-1][:2] == ("warning", "Cannot set the deadline")
    assert doc.session.undo_status().steps == steps + 1
    window.undo()
    assert "due by" not in view.title.text()


def test_the_first_export_orders_makes_the_key_and_the_join_file(staged, dialogs, monkeypatch,
                                                                tmp_path):
    window, files = staged
    doc = window.doc
    doc.mark_clean()
    assert window.open_path(files["Red"])
    hornet = window.doc.session.ship("Hornet")
    window.doc.select(hornet.id)
    assert window.pbem.decisions_view.submit("orders", form_values(
        window.doc.session, hornet, "orders", first="drone-2"))
    monkeypatch.setattr(pbem_desk, "pick_save", lambda *a: str(tmp_path / "out" / "r.orders.json"))
    (tmp_path / "out").mkdir()
    written = window.pbem.export_orders()
    data = json.loads(written.read_text("utf-8"))
    assert data["version"] == 2 and data["contribution"]
    join = tmp_path / "out" / "Red.join.json"
    assert join.exists()
    kind, title, text = dialogs.shown[-1]
    assert (kind, title) == ("information", "Your Signing Key") and "Red.join.json" in text
    from shipsheet.pbem.keys import load_key, show_fingerprint
    assert show_fingerprint(load_key(data["session"], "Red").fingerprint) in text
    # Until the moderator lists the key, each export writes the join file again (same key).
    join.unlink()
    again = json.loads(window.pbem.export_orders().read_text("utf-8"))
    assert again["key"] == data["key"] and again["seq"] == 2 and join.exists()


def test_a_player_file_that_disagrees_with_what_was_shown_warns_as_it_opens(staged, dialogs,
                                                                          tmp_path):
    from shipsheet.pbem import players as P
    from shipsheet.pbem.public import seal
    window, files = staged
    moderator = window.doc.session
    window.doc.mark_clean()
    assert window.open_path(files["Blue"])  # pins what it shows
    assert not [d for d in dialogs.shown if d[1].startswith("This Player File Disagrees")]
    changed = P.player_session(moderator, "Blue")
    changed.pbem["dice"]["commitments"]["2"] = "cd" * 32
    changed.pbem["seal"] = seal(changed.pbem, changed.turn, R.own_player(changed).secret)
    path = tmp_path / "changed.shipsheet"
    save_session(changed, path)
    window.doc.mark_clean()
    assert window.open_path(path)
    kind, title, text = dialogs.shown[-1]
    assert kind == "warning" and title == "This Player File Disagrees With Earlier Ones"
    assert "Turn 2's commitment" in text


def test_the_players_dialog_names_the_moderators_own_player(window, monkeypatch):
    window.open_sample("fedcom")

    def fill(dialog: PlayersDialog):
        assert dialog.plays.currentData() is None
        dialog.set_commands(1, name="Crimson", sides=["Red"])  # named anew: the list follows
        dialog.set_moderator_plays("Crimson")
        assert dialog.plays.currentText() == "Crimson"
        dialog.verifiable.setChecked(True)
        dialog.accept()
        assert dialog.error.text() == ""
        return True
    answer(monkeypatch, fill)
    window.pbem.players()
    assert R.moderator_plays(window.doc.session) == "Crimson"
    assert "(the moderator's own player)" in window.doc.session.log_text()


def test_a_committed_energy_allocation_stays_in_its_form(window, tmp_path):
    """War In Space by e-mail: the player commits an Energy Allocation in their file; the
    form shows what was committed (it came back empty: the player could not see their own
    decision)."""
    from shipsheet.model.actions import NextTurn
    window.show()
    window.open_sample("war-in-space")
    session = window.doc.session
    window.doc.apply(NextTurn())
    assert session.phase == "Energy Allocation"
    assert window.pbem.set_players(players_of(session.sides), False, False) is None
    first = window.pbem.export_player_files(str(tmp_path))[0]
    window.doc.mark_clean()
    assert window.open_path(first)
    doc, view = window.doc, window.pbem.decisions_view
    ship = next(s for s in doc.session.ships if "energy" in
                [f["kind"] for f in piece(s.game, "decisions").forms(doc.session, s)]
                and R.own_player(doc.session).owns(s))
    doc.select(ship.id)
    card = view.fields["energy"]["card"]
    card.setCurrentIndex(2)
    chosen = card.currentText()
    view.fields["energy"]["damage_control"].setChecked(True)
    refusals = []
    doc.refused.connect(refusals.append)
    assert view.submit("energy"), refusals
    assert "energy" in view.fields, "the form is still offered until the orders are sent"
    assert view.fields["energy"]["card"].currentText() == chosen
    assert view.fields["energy"]["damage_control"].isChecked()
