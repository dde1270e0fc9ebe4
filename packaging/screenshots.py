"""Regenerate the README screenshots from the sample sessions (offscreen render).

Run: make screenshots   (or .venv/bin/python packaging/screenshots.py)
Writes docs/screenshots/*.png. Rerun whenever the UI changes.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT))


def triplanetary_dialogs(window, grab) -> None:
    """The attack dialog (Combat phase: Vigilant counter-attacks Kite with typed dice) and the
    question Next Turn asks about the ships whose owners have not chosen a track."""
    from PySide6.QtCore import Qt

    from shipsheet.model import NextPhase
    from shipsheet.rules import triplanetary as tp
    from shipsheet.ui.games.triplanetary.recovery import RecoveryDialog

    doc = window.doc
    while doc.session.phase != tp.COMBAT:
        doc.do(NextPhase())
    doc.select(doc.session.ship("Vigilant").id)
    dialog = window.panel.open_attack()
    kite = doc.session.ship("Kite").id
    for i in range(dialog.targets.count()):
        item = dialog.targets.item(i)
        if item.data(Qt.ItemDataRole.UserRole) == kite:
            item.setCheckState(Qt.CheckState.Checked)
    dialog.range.setValue(1)
    dialog.to_hit.spin.setValue(6)
    for box, value in zip(dialog.damage_boxes, (5, 3)):
        box.spin.setValue(value)
    dialog.resize(980, 720)
    grab(dialog, "triplanetary-attack.png")
    dialog.close()
    ships = [s.id for s in doc.session.rules.choices_before_turn_end(doc.session)]
    question = RecoveryDialog(doc, window, only=ships, asking=True)
    question.resize(900, 300)
    question.show()
    grab(question, "triplanetary-turn-end.png")
    question.reject()
    question.deleteLater()
    while (doc.session.undo_step() is not None):  # back to the sample as it opened
        doc.undo()


def table_share_dialog(window, grab, name: str = "table-share-dialog.png") -> None:
    """Session ▸ Share with the Table… on the Federation Commander sample: a seat per side and
    the referee's, Blue's code. The server listens on 127.0.0.1 only; the picture shows a
    made-up home-network address and made-up phones (no real address of this computer)."""
    import time

    from shipsheet.share import Candidate, SeatBook, TableLink
    from shipsheet.share.authority import QtAuthority
    from shipsheet.share.seats import REFEREE
    from shipsheet.share.server import Presence
    from shipsheet.ui.table_share import ShareDialog

    shown = "192.168.1.20"

    class ShownLink(TableLink):
        @property
        def addresses(self):
            return [shown] if self.running else []

        def presence(self):
            now, seats = time.time(), self.book.seats
            made = [Presence(2, now, True), Presence(0, now - 12, True), Presence(0, None, False)]
            return {seat.id: p for seat, p in zip(seats, made)}

    doc = window.doc
    link = ShownLink(doc.session, SeatBook(doc.session.uid), QtAuthority(gate=doc), doc.apply,
                     functools.partial(doc.undo, ask=False))
    link.start(["127.0.0.1"], 8765)
    try:
        dialog = ShareDialog(doc, link, window, candidates=[
            Candidate(shown, "wlan0"), Candidate("10.8.0.2", "tun0"), Candidate("127.0.0.1", "lo")])
        dialog.add_seat_per_side()
        dialog.add_seat("Referee", REFEREE)
        dialog.select_seat(link.book.seats[0].id)
        dialog.show()
        dialog.resize(960, 640)
        dialog.refresh_state()
        dialog.refresh_presence()
        grab(dialog, name)
        dialog.close()
        dialog.deleteLater()
    finally:
        link.stop()


def pbem_import_report(window, grab, name: str = "pbem-import-report.png") -> None:
    """File ▸ PBEM ▸ Import Orders… on the Federation Commander sample played by e-mail with
    verifiable dice (Blue, Red and Green): turn 3's join file and signed orders from Blue
    taken (the orders queued until the turn's orders close), Green's changed after it was
    written (refused: not authentic), and Red's file of turn 2 sent again (refused: a
    replay). Then the Turn Desk once the orders are closed and the turn is being resolved."""
    from shipsheet.model import SetSide, load_session
    from shipsheet.model.games import piece
    from shipsheet.model.storage import save_session
    from shipsheet.pbem.joins import make_join, write_join
    from shipsheet.pbem.orders import export_orders
    from shipsheet.pbem.players import export_player_files
    from shipsheet.rules.fedcom.actions import volley_action

    window.open_sample("fedcom")
    doc, desk = window.doc, window.pbem
    doc.do(SetSide(doc.session.ship("Bastion"), "Green"))
    desk.set_players([{"name": n, "sides": [n], "ships": []} for n in ("Blue", "Red", "Green")],
                     False, True)
    folder = Path(tempfile.mkdtemp(prefix="shipsheet-pbem-"))
    inbox = folder / "inbox"
    inbox.mkdir()

    def orders(player: str, ship: str, **values) -> Path:
        ps = load_session(folder / f"{player}.shipsheet")
        decisions = piece(ps.game, "decisions")
        s = ps.ship(ship)
        spec = next(f for f in decisions.forms(ps, s) if f["kind"] == "orders")
        filled = {f["name"]: f["value"] for f in spec["fields"]} | values
        ps.apply(decisions.action(ps, s, "orders", filled))
        out = export_orders(ps, ps.turn, inbox / f"{player}-turn-{ps.turn}.orders.json")
        save_session(ps, folder / f"{player}.shipsheet")
        return out

    export_player_files(doc.session, folder)
    red_t2 = orders("Red", "Hornet", first="drone-2")
    desk.import_orders([red_t2])
    desk.close_orders()
    desk.close_turn(confirm=False)
    export_player_files(doc.session, folder)
    join = write_join(make_join(load_session(folder / "Blue.shipsheet"))[0],
                      inbox / "Blue.join.json")
    blue = orders("Blue", "Resolute", first="ph-1, ph-2")
    green = orders("Green", "Bastion", last="ph-1")
    raw = green.read_bytes()
    green.write_bytes(raw.replace(b'"last": "ph-1"', b'"last": "ph-2"'))
    desk.set_deadline("Sunday 8 Dec, 20:00 UTC")  # said in the desk's title and the reports
    dialog = desk.import_orders([join, blue, green, red_t2])
    dialog.resize(1040, 290)
    grab(dialog, name)
    dialog.close()
    desk.close_orders()
    session = doc.session
    doc.do(volley_action(session.ship("Resolute"), 14, shield=1, attacker=session.ship("Hornet")))
    doc.select(session.ship("Resolute").id)
    desk.show_desk()
    grab(window, "pbem-turn-desk.png")
    while (doc.session.undo_step() is not None):  # back to the sample as it opened
        doc.undo()
    doc.mark_clean()
    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="shipsheet-shots-"))
    # A private, empty user environment: no recent files or autosaves of the user's in the pictures.
    for var in ("SHIPSHEET_DATA_DIR", "SHIPSHEET_STATE_DIR", "SHIPSHEET_CONFIG_DIR"):
        os.environ[var] = str(tmp / var.lower())
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QImage, QPainter

    from shipsheet.model import load_session
    from shipsheet.printing import PrintJob, export_pdf
    from shipsheet.sheets import Theme, painter_for
    from shipsheet.ui.app import Application, make_qapp
    from shipsheet.ui.designer import open_designer
    from shipsheet.ui.main_window import sample_path

    qapp = make_qapp()
    OUT.mkdir(parents=True, exist_ok=True)
    app = Application(qapp)
    window = app.new_window()
    window.resize(1440, 900)

    def grab(widget, name):
        qapp.processEvents()
        widget.grab().save(str(OUT / name))
        print(f"docs/screenshots/{name}")

    def sheet_png(ship, session, name, theme=None, scale=1.5):
        painter = painter_for(ship, session)
        size = painter.size()
        image = QImage(QSize(int(size.width() * scale), int(size.height() * scale)), QImage.Format.Format_ARGB32)
        image.fill(0)
        p = QPainter(image)
        p.scale(scale, scale)
        painter.paint(p, theme or Theme.light())
        p.end()
        image.save(str(OUT / name))
        print(f"docs/screenshots/{name}")

    grab(window, "welcome.png")
    window.open_sample("fedcom")
    fed = window.doc.session
    from shipsheet.rules import fedcom
    # The most damaged card that is still in the fight shows the most marks.
    damaged = max((s for s in fed.ships if not fedcom.status(s).crippled),
                  key=lambda s: fedcom.status(s).boxes_destroyed)
    window.doc.select(damaged.id)
    grab(window, "main-window.png")
    window.open_sample("war-in-space")
    grab(window, "war-in-space-window.png")
    window.open_sample("triplanetary")
    grab(window, "triplanetary-window.png")
    triplanetary_dialogs(window, grab)
    window.doc.mark_clean()
    window.open_sample("fedcom")
    table_share_dialog(window, grab)
    window.doc.mark_clean()
    pbem_import_report(window, grab)

    wis = load_session(sample_path("war-in-space"))
    sheet_png(wis.ships[0], wis, "war-in-space-sds.png")
    sheet_png(wis.ships[0], wis, "war-in-space-sds-dark.png", Theme.dark())
    tp = load_session(sample_path("triplanetary"))
    frigate = next((s for s in tp.ships if s.ship_class.name == "Frigate" and any(
        s.state.get(k) for k in ("weapon", "drive", "structure"))), tp.ships[0])
    sheet_png(frigate, tp, "triplanetary-frigate.png")
    sheet_png(damaged, fed, "fedcom-card.png")

    pdf = tmp / "print.pdf"
    export_pdf(PrintJob(fed, [damaged]), pdf)
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                        str(OUT / "printed-page")], check=True)
        print("docs/screenshots/printed-page.png")
    else:
        print("pdftoppm not found (Debian: poppler-utils): printed-page.png not regenerated")

    designer = open_designer(None, game="fedcom", class_id="fedcom/sample-heavy-cruiser")
    designer.resize(1400, 900)
    grab(designer, "designer.png")
    designer.close()
    for w in list(app.windows):
        if w.doc is not None:
            w.doc.mark_clean()
        w.close()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
