"""Issue 31: a session with no ships (File ▸ New Session…) showed a blank centre; now a hint
in the sheet's place says what to do, with the real menu names, as plain text."""

from __future__ import annotations

from PySide6.QtCore import Qt


def _menu_texts(window) -> set[str]:
    texts = set()
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        texts.add(menu_action.text().replace("&", ""))
        for a in menu.actions():
            texts.add(f"{menu_action.text()} ▸ {a.text()}".replace("&", ""))
    return texts


def test_an_empty_session_shows_a_centred_hint_naming_the_menus(window, qtbot):
    window.resize(1366, 768)
    window.show()
    assert window.new_session("triplanetary")
    qtbot.wait(1)
    hint = window.stack.currentWidget()
    assert hint is not window.sheet_view and hint.isVisible()
    assert hint.textFormat() == Qt.TextFormat.PlainText
    assert hint.alignment() & Qt.AlignmentFlag.AlignHCenter and hint.alignment() & Qt.AlignmentFlag.AlignVCenter
    text = hint.text()
    assert text.startswith("No ships yet")
    menus = _menu_texts(window)
    for named in ("Session ▸ Add Ship…", "File ▸ Open…"):
        assert named in text and named in menus, (named, sorted(menus))
    window.grab().save("/tmp/fit_empty_session.png")
    # A ship added: the sheet comes back; removed again: the hint.
    from shipsheet.model import get_class, new_ship
    from shipsheet.model.actions import AddShip
    from shipsheet.model.library import list_classes
    cls = list_classes("triplanetary")[0]
    assert window.doc.do(AddShip(new_ship(get_class(cls.id), "Ajax")))
    assert window.stack.currentWidget() is window.sheet_view
    window.doc.undo()
    assert window.stack.currentWidget() is hint
    window.doc.mark_clean()
