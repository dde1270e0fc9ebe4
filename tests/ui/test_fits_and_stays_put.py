"""Things fit the screen and stay put (issue 17, rough edges): the window within the
screen's available area, the sheet within its pane, the toolbar's buttons where they were."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication


def test_the_first_window_fits_the_screens_available_area(window):
    area = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    assert window.width() <= area.width() and window.height() <= area.height()


def test_the_sheet_opens_fitting_the_width_of_its_pane(window, qtbot):
    """War In Space's "Die this turn" column hid behind a sideways scroll bar at 1280 px."""
    window.resize(1000, 600)
    window.show()
    assert window.open_sample("war-in-space")
    qtbot.wait(20)
    view = window.sheet_view
    assert view.canvas.width() <= view.viewport().width()
    assert not view.horizontalScrollBar().isVisible()
    zoom = view.canvas.zoom
    assert zoom < 1.0  # the sheet is wider than this pane at 100 %
    window.resize(1600, 600)
    qtbot.wait(20)
    assert view.canvas.zoom > zoom  # it keeps fitting as the pane grows, up to 100 %
    window.zoom(1)  # the user's own zoom: fitting stops
    chosen = view.canvas.zoom
    window.resize(900, 600)
    qtbot.wait(20)
    assert view.canvas.zoom == chosen


def test_toolbar_undo_and_redo_keep_short_labels_and_the_buttons_stay_put(window, qtbot):
    """Before: "Undo Set cargo to 50 t" on the toolbar pushed Add Ship aside after every
    action, and a user clicked Redo aiming for Add Ship."""
    window.show()
    assert window.open_sample("triplanetary")
    bar = window.toolbar
    undo, add = bar.widgetForAction(window.act_undo), bar.widgetForAction(window.act_add_ship)
    x = add.geometry().x()
    window.doc.select(window.doc.session.ship("Ajax").id)
    window.panel.cargo_spin.setValue(30)
    window.panel.set_cargo()
    qtbot.wait(10)
    assert undo.text() == "Undo" and bar.widgetForAction(window.act_redo).text() == "Redo"
    assert add.geometry().x() == x
    assert window.act_undo.text() == "&Undo Set cargo to 30 t"  # the Edit menu names it
    assert window.act_undo.toolTip().startswith("Undo Set cargo to 30 t")


def test_a_long_refusal_is_shortened_to_fit_and_whole_in_reach(window, qtbot):
    """At 1280 px a refusal was cut off mid-word ("A mistaken…"): now the status bar shows
    what fits, ending "…", and its tooltip (and the sheet, beside the box) the whole."""
    window.resize(700, 500)
    window.show()
    qtbot.wait(10)
    message = "A ship recovers in the Recovery phase, which closes the turn; " * 4
    window.show_status(message)
    bar = window.statusBar()
    assert bar.currentMessage().endswith("…") and len(bar.currentMessage()) < len(message)
    assert bar.fontMetrics().horizontalAdvance(bar.currentMessage()) <= bar.width()
    assert bar.toolTip() == message and window.status_text() == message
    window.show_status("Saved")
    assert bar.toolTip() == "" and window.status_text() == "Saved"


def test_a_message_given_before_the_window_shows_is_not_cut_short(app, qtbot):
    """A file opened at start-up says "Opened …" before the window is shown, when the status
    bar has no width yet: it was cut to "Opened m…" on a 1280 px window."""
    window = app.new_window(show=False)  # as run_app opens a file given on the command line
    qtbot.addWidget(window)
    window.resize(1280, 720)
    assert window.statusBar().width() < 300  # not laid out before the window shows
    window.show_status("Opened moderator-of-the-long-campaign.shipsheet")
    assert window.statusBar().currentMessage() == "Opened moderator-of-the-long-campaign.shipsheet"
