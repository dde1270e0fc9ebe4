

def test_a_fresh_chart_editor_asks_nothing(qtbot, dialogs):
    """Opening the editor is not a change: no "save the changes first?" question."""
    from shipsheet.ui.games.fedcom.tools import open_chart_editor
    editor = open_chart_editor(None)
    qtbot.addWidget(editor)
    assert dialogs.shown == [] and not editor.dirty
    editor.close()
