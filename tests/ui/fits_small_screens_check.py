"""Run by test_fits_small_screens.py in a process of its own, on an offscreen screen of a
given size (``QT_QPA_PLATFORM=offscreen:configfile=…``) and scale factor (fixed at start-up).

Opens every top-level window and dialog ShipSheet has: the main window and a second one
(File ▸ New Window), and each dialog (the modal ones shown as ``exec`` would show them, then
answered). Prints one line per window: its name, its frame and the screen's available area;
then "OK" when every frame lies within the area, else the ones that do not.
"""

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QDialog

from shipsheet.model.autosave import AutosaveStore
from shipsheet.ui.app import Application, make_qapp

qapp = make_qapp()
application = Application(qapp, AutosaveStore(sys.argv[1]))
seen: list[tuple[str, QRect, QRect]] = []


def settle() -> None:
    for _ in range(3):
        qapp.processEvents()


def record(name: str, widget) -> None:
    settle()
    screen = widget.screen() or QApplication.primaryScreen()
    seen.append((name, QRect(widget.frameGeometry()), screen.availableGeometry()))


def fake_exec(dialog) -> int:
    """``exec`` for a test: shown, measured, answered (Accepted for the print options, so
    that Print Preview follows them; Rejected for the rest)."""
    dialog.show()
    record(type(dialog).__name__, dialog)
    dialog.hide()
    return 1 if type(dialog).__name__ == "PrintOptionsDialog" else 0


QDialog.exec = fake_exec
from PySide6.QtWidgets import QMessageBox  # noqa: E402
for kind in ("warning", "information", "question", "critical"):
    setattr(QMessageBox, kind, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))

window = application.new_window()
record("first window", window)
window.act_new_window.trigger()
second = application.windows[-1]
record("second window", second)
second.close()

window.open_sample("triplanetary")
settle()
record("first window, Triplanetary sample", window)
from shipsheet.ui import dialogs, print_actions  # noqa: E402
for make in (lambda: dialogs.NewSessionDialog(window), lambda: dialogs.NewShipDialog(window),
             lambda: print_actions.BlankSheetDialog(window, "war-in-space")):
    d = make()
    d.exec()
print_actions.print_preview(window)  # the options, then the preview
from shipsheet.ui.rules_help import RulesHelp  # noqa: E402
RulesHelp(window, "triplanetary").exec()
panel = window.panel
session = window.doc.session
window.doc.select(session.ship("Vigilant").id)
while session.phase != "Combat":
    window.next_phase()
d = panel.open_attack() if hasattr(panel, "open_attack") else None
if d is not None:
    record("AttackDialog", d)
    d.close()
d = panel.open_recovery()
record("RecoveryDialog", d)
d.close()

window.doc.mark_clean()
window.open_sample("fedcom")
settle()
panel = window.panel
d = panel.open_volley()
record("VolleyDialog", d)
d.close()
d = panel.open_orders()
record("OrdersDialog", d)
d.close()
from shipsheet.ui.table_share import ShareDialog, make_link  # noqa: E402
from shipsheet.share.addresses import Candidate  # noqa: E402
d = ShareDialog(window.doc, make_link(window.doc), window, candidates=[Candidate("203.0.113.7", "nowhere")])
d.show()
record("ShareDialog", d)
d.close()

from shipsheet.ui import pbem_desk, pbem_dialogs  # noqa: E402
pbem_desk.run_dialog = lambda dialog: bool(fake_exec(dialog))
desk = window.pbem
desk.players()
sides = window.doc.session.sides
assert desk.set_players([{"name": n, "sides": [n], "ships": []} for n in sides], False, True) is None
folder = Path(tempfile.mkdtemp())
odd = folder / "x.orders.json"
odd.write_text("{}", "utf-8")
for name, d in (("ImportReportDialog", desk.import_orders([odd])),
                ("TurnReportsDialog", desk.export_turn_reports(str(folder / "reports"), with_pdf=False)),
                ("VerifyDiceDialog", desk.verify_dice())):
    record(name, d)
    d.close()
d = pbem_dialogs.OrdersWarningsDialog(2, ["Swift: orders"], ["Swift: would be refused"] * 12, window)
d.exec()
from shipsheet.ui.designer.file_window import FileWindow  # noqa: E402,F401
window.open_designer()
settle()
for w in QApplication.topLevelWidgets():
    if w.isVisible() and w is not window and type(w).__name__ not in ("QMenu",):
        record(type(w).__name__, w)
window.doc.mark_clean()

problems = []
first, second = seen[0][1], seen[1][1]
if first.topLeft() == second.topLeft():  # a window manager cascades it; so do we, within the area
    problems.append("second window opened exactly over the first one")
for name, frame, area in seen:
    print(f"{name}: frame {frame.x()},{frame.y()} {frame.width()}x{frame.height()} "
          f"in {area.width()}x{area.height()}", flush=True)
    if not area.contains(frame):
        problems.append(f"{name} ({frame.width()}x{frame.height()} at {frame.x()},{frame.y()}) "
                        f"is not within the available {area.width()}x{area.height()}")
print("OK" if not problems else "\n".join(problems), flush=True)
