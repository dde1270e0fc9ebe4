"""A real crash: the app process is killed (SIGKILL) after a change; the next start restores it."""

from __future__ import annotations


APP = r"""
import sys
from PySide6.QtCore import QTimer
from shipsheet.model import RenameShip
from shipsheet.model.autosave import AutosaveStore
from shipsheet.ui.app import Application, make_qapp
qapp = make_qapp()
application = Application(qapp, AutosaveStore(sys.argv[2]))
window = application.new_window()
window.open_path(sys.argv[1])
window.doc.do(RenameShip(window.doc.current_ship, "Nike (damaged)"))
# Report once the autosave timer has had its time; then keep running until killed.
QTimer.singleShot(1500, lambda: print("changed", flush=True))
qapp.exec()
"""


def test_killed_app_is_offered_back_on_next_start(app, start_app_process, monkeypatch, qtbot):
    proc, path = start_app_process(APP)
    try:
        assert proc.stdout.readline().strip() == "changed"
    finally:
        proc.kill()  # SIGKILL; TerminateProcess on Windows
        proc.wait()

    offered = []
    import shipsheet.ui.app as app_module
    monkeypatch.setattr(app_module, "ask_recover", lambda parent, infos: offered.append(infos) or infos[0])
    window = app.new_window()
    qtbot.addWidget(window)
    assert app.recover(window)
    info = offered[0][0]
    assert info.source == path.resolve() and info.time_text.count(":") == 2
    assert window.doc.session.ships[0].name == "Nike (damaged)"
    assert window.isWindowModified()
