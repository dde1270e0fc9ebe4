"""A sheet a screen reader can read: every box of the painted sheet is an accessible element.

The sheet is one painted widget (``SheetCanvas``): a widget per box would cost start-up
and memory on a 500-box card. Instead the canvas's accessible interface has one child
interface per box the layout step placed (``painter.areas``), made when an assistive
technology first asks for it. Each child says what the box is and its state (its name),
what the rules say of it in a screen reader's words (its description:
``model.words.for_device(…, READER)``, from the same answer the tooltip and the phone
use), and what activating it does (its actions: Press, as a click or Space does; ShowMenu,
as a right-click or the menu key does). Focus moving among the boxes, a box's state
changing, a refusal and each change made or undone are announced.

How it is built, and why so (a trial on PySide6 6.11 through AT-SPI, Xvfb and Debian's
pyatspi, kept as ``tests/ui/test_sheet_atspi.py``):

- A Python ``QAccessibleInterface`` subclass is exposed to AT-SPI with its children,
  names, roles and states; but overriding ``interface_cast`` from Python crashes the
  process (its ``void *`` result), so a plain ``QAccessibleInterface`` cannot offer
  actions. Each box's interface is therefore a ``QAccessibleWidget`` of the canvas, whose
  C++ ``interface_cast`` hands out its action interface and calls the Python overrides
  of ``actionNames``/``doAction`` — with ``object()`` answering None, so Qt's cache never
  takes a box for the canvas itself.
- Qt's accessibility cache holds the box interfaces by id and does not drop them with the
  canvas (they have no object): they are dropped here, by id, when their box leaves the
  sheet shown or the canvas goes.
- An action an assistive technology asks for is run after its request is answered (a
  menu's event loop would hold the request; a dialog could too).

Nothing here runs unless an assistive technology asks: Qt calls the factory only then,
and ``QAccessible.updateAccessibility`` does nothing while none listens. The module is
loaded, and the factory installed, once a canvas has first been painted (``install``):
the first frame needs none of it.
"""

from __future__ import annotations

import re
import weakref
from collections import deque

from PySide6.QtCore import QPointF, QRect, QRectF, QTimer
from PySide6.QtGui import (QAccessible, QAccessibleActionInterface, QAccessibleAnnouncementEvent,
                           QAccessibleEvent)
from PySide6.QtWidgets import QAccessibleWidget

from ..model.words import READER, for_device

PRESS = QAccessibleActionInterface.pressAction()
SHOW_MENU = QAccessibleActionInterface.showMenuAction()

_installed = False
#: A tooltip's sentence on what a click does (to the end of its line).
_CLICK = re.compile(r"\bClick\b[^\n]*")


def install(canvas=None) -> None:
    """Give every sheet canvas its accessible interface (once; cheap: nothing is asked of
    Python until an assistive technology asks Qt). Done as ``canvas`` first shows: when an
    assistive technology already asked Qt for it, the plain widget's interface Qt made and
    keeps is dropped, so its next question finds the sheet's boxes."""
    global _installed
    if not _installed:
        QAccessible.installFactory(_factory)
        _installed = True
    if canvas is not None and QAccessible.isActive():
        made = QAccessible.queryAccessibleInterface(canvas)
        if made is not None and not isinstance(made, SheetAccessible):
            QAccessible.deleteAccessibleInterface(QAccessible.uniqueId(made))


def _factory(class_name: str, obj):
    if class_name != "SheetCanvas":
        return None
    if not hasattr(obj, "reading_order"):  # another class of the same name
        return None
    found = getattr(obj, "_accessible", None)
    if found is None or not found.isValid():
        found = SheetAccessible(obj)
        obj._accessible = found  # Qt's cache owns it; the canvas keeps the Python side
    return found


def box_name(area) -> str:
    """What a screen reader says first: the box and its state ("Reactor box 1 of 4: unmarked")."""
    label, state = area.label, area.state
    return f"{label}: {state}" if state and not label.endswith(state) else label


def box_description(area) -> str:
    """The rest of what the rules say of the box (the tooltip's other lines, and why a
    click would be refused), in a screen reader's words."""
    name, label = box_name(area), area.label
    lines = [line.strip() for line in area.tooltip.splitlines() if line.strip()]
    kept = []
    for line in lines:
        for said in (name, label):  # what the name says already is not said again
            if line.startswith(said) and line[len(said):len(said) + 1] in ("", ".", ":", ";"):
                line = line[len(said) + 1:].strip()
                break
        if line:
            kept.append(line)
    if area.refusal:
        kept.append(f"Can't: {area.refusal}")
    return for_device("\n".join(kept), READER)


def press_description(area) -> str:
    """What activating the box does, from the tooltip's "Click…" line, in a reader's words."""
    if area.refusal:
        return for_device(f"Can't: {area.refusal}", READER)
    found = _CLICK.search(area.tooltip)
    return for_device(found.group(0).strip(), READER) if found else "Activate this box"


class BoxAccessible(QAccessibleWidget):
    """One box of the sheet shown, found again by its key at every question."""

    def __init__(self, sheet: "SheetAccessible", key: str):
        super().__init__(sheet.canvas, QAccessible.Role.Button, "")
        self._sheet = weakref.ref(sheet)
        self._canvas = weakref.ref(sheet.canvas)
        self.key = key
        self.uid = 0  # Qt's cache id, once registered

    # -- what it is --------------------------------------------------------------
    def area(self):
        sheet = self._sheet()
        return sheet.area_for_key(self.key) if sheet is not None else None

    def isValid(self) -> bool:
        return self.area() is not None

    def object(self):
        return None

    def window(self):
        canvas = self._canvas()
        return canvas.window().windowHandle() if canvas is not None else None

    def parent(self):
        return self._sheet()

    def child(self, _index):
        return None

    def childCount(self) -> int:
        return 0

    def indexOfChild(self, _child) -> int:
        return -1

    def childAt(self, _x, _y):
        return None

    def focusChild(self):
        return None

    def relations(self, _match=None):
        return []

    def text(self, kind):
        area = self.area()
        if area is None:
            return ""
        if kind == QAccessible.Text.Name:
            return for_device(box_name(area), READER)
        if kind == QAccessible.Text.Description:
            return box_description(area)
        if kind == QAccessible.Text.Value:
            return area.state
        return ""

    def setText(self, _kind, _text) -> None:
        pass

    def role(self):
        area = self.area()
        if area is not None and (area.click is not None or area.refusal or area.has_menu()):
            return QAccessible.Role.Button
        return QAccessible.Role.StaticText

    def state(self):
        state = QAccessible.State()
        canvas, area = self._canvas(), self.area()
        if canvas is None or area is None:
            state.invalid = True
            return state
        state.focusable = True
        focused = canvas.focused_area()
        state.focused = canvas.hasFocus() and focused is not None and focused.key == self.key
        state.hasPopup = area.has_menu()
        if not canvas.visibleRegion().intersects(widget_rect(canvas, area)):
            state.offscreen = True
        if not canvas.isVisible():
            state.invisible = True
        return state

    def rect(self) -> QRect:
        canvas, area = self._canvas(), self.area()
        if canvas is None or area is None:
            return QRect()
        local = widget_rect(canvas, area)
        return QRect(canvas.mapToGlobal(local.topLeft()), local.size())

    # -- what it does ------------------------------------------------------------
    def actionNames(self) -> list[str]:
        area = self.area()
        if area is None:
            return []
        names = []
        if area.click is not None or area.refusal:
            names.append(PRESS)
        if area.has_menu():
            names.append(SHOW_MENU)
        return names

    def localizedActionName(self, name: str) -> str:
        return {PRESS: "Activate", SHOW_MENU: "Open menu"}.get(name, name)

    def localizedActionDescription(self, name: str) -> str:
        area = self.area()
        if area is None:
            return ""
        if name == PRESS:
            return press_description(area)
        if name == SHOW_MENU:
            entries = [for_device(text, READER) for text, _f in area.menu] if area.has_menu() else []
            return "Open its menu: " + "; ".join(entries) if entries else "Open its menu"
        return ""

    def keyBindingsForAction(self, name: str) -> list[str]:
        return {PRESS: ["Space"], SHOW_MENU: ["Menu"]}.get(name, [])

    def doAction(self, name: str) -> None:
        canvas, key = self._canvas(), self.key
        if canvas is None or name not in (PRESS, SHOW_MENU):
            return
        # After the assistive technology's request is answered (a menu would hold it).
        QTimer.singleShot(0, canvas, lambda: activate(canvas, key, menu=name == SHOW_MENU))


class SheetAccessible(QAccessibleWidget):
    """The painted sheet: a graphic whose children are its boxes, in reading order."""

    def __init__(self, canvas):
        super().__init__(canvas, QAccessible.Role.Graphic, "")
        self.canvas = canvas
        self._boxes: dict[str, BoxAccessible] = {}
        self._said: dict[str, str] = {}  # each box's name when last asked or announced
        self._ship_id = None
        #: The areas list last read, its boxes by key, and in reading order.
        self._cache: tuple[list | None, dict, list] = (None, {}, [])
        #: What was announced lately, newest last (what a screen reader was told to say).
        self.announced: deque[str] = deque(maxlen=20)
        me = weakref.ref(self)
        doc = canvas.doc
        canvas.focus_moved.connect(lambda area, me=me: me() and me()._focus_moved(area))
        doc.changed.connect(lambda me=me: me() and me()._changed())
        doc.refused.connect(lambda text, me=me: me() and me()._announce(text, assertive=True))
        canvas.note_shown.connect(lambda text, me=me: me() and me()._announce(text, assertive=True))
        canvas.destroyed.connect(lambda *_a, boxes=self._boxes: _forget(boxes))

    # -- the sheet ---------------------------------------------------------------
    def _areas(self) -> list:
        """The boxes of the sheet shown, in reading order (read again after each redraw)."""
        painter = self.canvas.painter
        if painter is None:
            return []
        areas = painter.areas
        cached, by_key, order = self._cache
        if cached is areas and len(by_key) == len(areas):
            return order
        by_key = {a.key: a for a in areas}
        self._cache = (areas, by_key, self.canvas.reading_order())
        if painter.ship.id != self._ship_id:  # another ship's sheet: its boxes are others
            self._ship_id = painter.ship.id
            gone = {k: b for k, b in self._boxes.items() if k not in by_key}
            _forget(gone)
            for k in gone:
                del self._boxes[k]
            self._said.clear()
        return self._cache[2]

    def text(self, kind):
        painter = self.canvas.painter
        if kind == QAccessible.Text.Name:
            return f"Sheet of {painter.ship.name}" if painter is not None else "No ship shown"
        if kind == QAccessible.Text.Description:
            return ("Arrow keys move from box to box; Space activates the box; "
                    "the menu key opens its menu.")
        return super().text(kind)

    def childCount(self) -> int:
        return len(self._areas())

    def child(self, index: int):
        areas = self._areas()
        if not 0 <= index < len(areas):
            return None
        return self._box(areas[index].key)

    def indexOfChild(self, child) -> int:
        key = getattr(child, "key", None)
        for i, area in enumerate(self._areas()):
            if area.key == key:
                return i
        return -1

    def childAt(self, x: int, y: int):
        local = self.canvas.mapFromGlobal(QPointF(x, y))
        area = self.canvas.area_at(local)
        return self._box(area.key) if area is not None else None

    def focusChild(self):
        area = self.canvas.focused_area() if self.canvas.hasFocus() else None
        return self._box(area.key) if area is not None else None

    def area_for_key(self, key: str):
        """The box ``key`` of the sheet shown now, or None (a redraw makes new areas)."""
        self._areas()
        return self._cache[1].get(key)

    def _box(self, key: str) -> BoxAccessible:
        box = self._boxes.get(key)
        if box is None:
            box = self._boxes[key] = BoxAccessible(self, key)
            box.uid = QAccessible.registerAccessibleInterface(box)
        return box

    # -- what it says unasked ----------------------------------------------------
    def _focus_moved(self, area) -> None:
        if area is None or not self.canvas.hasFocus():
            return
        self._areas()
        box = self._box(area.key)
        self._said[area.key] = box.text(QAccessible.Text.Name)
        QAccessible.updateAccessibility(QAccessibleEvent(box, QAccessible.Event.Focus))

    def _changed(self) -> None:
        """A change made or undone: each box a reader has heard of that now reads otherwise
        says so, and the change is announced in the log's words."""
        if self.canvas.painter is None:
            return
        self._areas()
        for key, box in list(self._boxes.items()):
            if not box.isValid():
                continue
            name = box.text(QAccessible.Text.Name)
            if self._said.get(key) not in (None, name):
                QAccessible.updateAccessibility(QAccessibleEvent(box, QAccessible.Event.NameChanged))
            self._said[key] = name
        said = change_words(self.canvas.doc)
        if said:
            self._announce(said)

    def _announce(self, text: str, *, assertive: bool = False) -> None:
        if not text:
            return
        event = QAccessibleAnnouncementEvent(self.canvas, for_device(text, READER))
        if assertive:
            event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
        QAccessible.updateAccessibility(event)
        self.announced.append(text)


def change_words(doc) -> str:
    """The last change in the log's words: its headline, or "Undone: …"."""
    change = getattr(doc, "last_change", None)
    if change is None:
        return ""
    entries = doc.session.log[change.entries]
    if entries and all(e.undone for e in entries):
        return f"Undone: {change.name}"
    headline = next((e.text for e in entries if e.kind == "action"), change.name)
    return headline


def widget_rect(canvas, area) -> QRect:
    """Where ``area`` is on the canvas, in widget pixels."""
    r, zoom = area.rect, canvas.zoom
    return QRectF(r.x() * zoom, r.y() * zoom, r.width() * zoom, r.height() * zoom).toAlignedRect()


def activate(canvas, key: str, *, menu: bool = False) -> None:
    """What Space (or the menu key) does on the box ``key``, as an assistive technology asks:
    the box takes the focus, then is clicked or opens its menu."""
    area = next((a for a in canvas.reading_order() if a.key == key), None)
    if area is None:
        return
    canvas.focus_area(area)
    if menu:
        centre = widget_rect(canvas, area).center()
        canvas.show_menu(area, canvas.mapToGlobal(centre))
    else:
        canvas.click_area(area)


def _forget(boxes: dict) -> None:
    """Drop boxes from Qt's accessibility cache (they have no object to go with)."""
    for box in list(boxes.values()):
        if box.uid:
            uid, box.uid = box.uid, 0
            QAccessible.deleteAccessibleInterface(uid)
