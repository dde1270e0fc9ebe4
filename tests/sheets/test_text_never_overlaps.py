"""No text on a sheet overlaps other text, and none leaves the sheet (issue 31).

Every text a sheet draws is taken from its drawing calls (``sheets.display.RecordingPen``:
the one drawing routine, nothing painted) and measured as it is painted, with the font's
QFontMetricsF on the device it is drawn for: a label placed at a point (``drawStaticText``)
is its advance wide and its ascent plus descent high; a text laid out in a rectangle
(``drawText``) is where its alignment and wrapping put it in that rectangle, not the
rectangle. Then no two texts of different words may intersect (by more than half a unit
either way), none may reach past the sheet's width or height, and none may lie under a patch
of paper drawn after it (the DESTROYED stamp's).

Sheets: every ship of every sample session (``resources/samples``), as it is and as play
may leave it (every shield down, wrecked, everything fired; a ship at D5 or D6; standard
combat; captured; ordnance in flight; long names), and a blank sheet of every class in
``resources/ships``. Each on the screen (the window's theme, measured on its image), on
paper (``printing.page_sheet``, measured on a PDF at ``printing.render.PDF_DPI``) and on a
phone (``sheets.PHONE``, as Table Link draws it), the samples with this turn's marks shown
apart and not. The window's zoom only scales the drawing (the sheet is measured in sheet
units, and has no text size of its own), so one zoom stands for all.

Found so (before the fixes): FedCom's "#2  right front" and "#3  right rear" under their
"DOWN" when the shield was down (screen and paper); the title's status line past the
sheet's right edge on a FedCom card with its shields down and a Triplanetary ship badly
hit; the DESTROYED stamp over a phone's ship name and above its top, over a long name on
the paper, and its paper over the class line ("SAMPLE DESIGN"); the key to this turn's
marks past a phone's edge; a Triplanetary ship's "Ordnance in flight" note past the
paper's edge. And a blank sheet said "unfired"/"unused" under the weapons it leaves for a
pen.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QRectF
from PySide6.QtGui import QColor, QFontMetricsF, QPdfWriter

from shipsheet.model import load_session
from shipsheet.model.library import load_ship_class
from shipsheet.model.paths import resources_dir
from shipsheet.printing.render import PDF_DPI, blank_ship, page_layout, page_sheet
from shipsheet.sheets import PHONE, Theme, painter_for
from shipsheet.sheets.base import measure_device
from shipsheet.sheets.display import PAD, RecordingPen

#: How far two texts may touch (sheet units): the antialiasing's reach, no more.
TOLERANCE = 0.5
GAMES = ("fedcom", "war-in-space", "triplanetary")


# -- measuring ------------------------------------------------------------------------------
#: The drawing calls that can paint a patch over what was drawn before them.
SHAPES = ("drawRect", "drawRoundedRect", "drawEllipse", "drawPolygon")


def text_extents(sheet, theme, device):
    """What ``sheet`` draws in ``theme`` on ``device``, measured: each non-blank text with
    the rectangle it covers (sheet units); the sheet's width and height as drawn; and the
    patches of paper colour laid over earlier drawing (a stamp), each as (how many texts
    were drawn before it, its rectangle)."""
    pen = RecordingPen(device, sheet.width)
    sheet.paint(pen, theme, paper=False)
    metrics: dict = {}
    found, patches = [], []
    paper = theme.paper.rgba()
    for call in pen.calls:
        if call.name in SHAPES:
            brush = call.brush
            colour = brush if isinstance(brush, QColor) else getattr(brush, "color", None)
            if isinstance(colour, QColor) and colour.rgba() == paper:
                x0, y0, x1, y1 = call.bounds  # mapped through the transform, padded
                patches.append((len(found), QRectF(x0 + PAD, y0 + PAD, x1 - x0 - 2 * PAD,
                                                   y1 - y0 - 2 * PAD)))
            continue
        if call.name not in ("drawStaticText", "drawText"):
            continue
        fm = metrics.get(id(call.font))
        if fm is None:
            fm = metrics[id(call.font)] = QFontMetricsF(call.font, device)
        if call.name == "drawStaticText":
            point, static = call.args
            text = static.text()
            rect = QRectF(point.x(), point.y(), fm.horizontalAdvance(text),
                          fm.ascent() + fm.descent())
        else:
            box, flags, text = call.args
            rect = fm.boundingRect(box, flags, text)  # where alignment and wrapping put it
        if not text.strip():
            continue
        if call.transform is not None:
            rect = call.transform.mapRect(rect)
        found.append((text, rect))
    size = sheet.drawn_size()
    return found, size.width(), size.height(), patches


def _meet(ra: QRectF, rb: QRectF) -> bool:
    t = TOLERANCE
    return (min(ra.right(), rb.right()) - max(ra.left(), rb.left()) > t
            and min(ra.bottom(), rb.bottom()) - max(ra.top(), rb.top()) > t)


def _at(r: QRectF) -> str:
    return f"({r.left():.1f}, {r.top():.1f})–({r.right():.1f}, {r.bottom():.1f})"


def problems(extents, width: float, height: float, patches=()) -> list[str]:
    """What is wrong: texts that overlap, texts past the sheet's edges, texts hidden under a
    patch of paper drawn after them."""
    t = TOLERANCE
    said = []
    for text, r in extents:
        if r.left() < -t or r.top() < -t or r.right() > width + t or r.bottom() > height + t:
            said.append(f"{text!r} leaves the {width:g} x {height:g} sheet: "
                        f"x {r.left():.1f}..{r.right():.1f}, y {r.top():.1f}..{r.bottom():.1f}")
    # Sorted by their tops: only texts whose heights meet are compared.
    ordered = sorted(extents, key=lambda e: e[1].top())
    for i, (a, ra) in enumerate(ordered):
        bottom = ra.bottom() - t
        for b, rb in ordered[i + 1:]:
            if rb.top() >= bottom:
                break
            if a != b and _meet(ra, rb):
                said.append(f"{a!r} at {_at(ra)} overlaps {b!r} at {_at(rb)}")
    for before, patch in patches:
        said.extend(f"{text!r} at {_at(r)} is under a patch of paper at {_at(patch)}"
                    for text, r in extents[:before] if _meet(r, patch))
    return said


# -- the devices and themes ------------------------------------------------------------------
_PDF: list = []


def pdf_device() -> QPdfWriter:
    """A PDF writer as ``printing.export_pdf`` makes it (never written): paper's metrics."""
    if not _PDF:
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        writer = QPdfWriter(buffer)
        writer.setResolution(PDF_DPI)
        writer.setPageLayout(page_layout("A4"))
        _PDF.extend([buffer, writer])
    return _PDF[1]


def views(ship, session, turn_marks: bool):
    """(where, sheet, theme, device): the window's, the printed page's and a phone's."""
    from shipsheet.share.render import THEME as PHONE_THEME, _svg_measure
    yield "screen", painter_for(ship, session, turn_marks=turn_marks), Theme.light(), \
        measure_device()
    sheet, theme = page_sheet(ship, session, turn_marks)
    yield "paper", sheet, theme, pdf_device()
    yield "phone", painter_for(ship, session, turn_marks=turn_marks, layout=PHONE), \
        PHONE_THEME, _svg_measure()


def check(label: str, ship, session, failures: list[str], marks=(False, True)) -> None:
    for turn_marks in marks:
        for where, sheet, theme, device in views(ship, session, turn_marks):
            said = problems(*text_extents(sheet, theme, device))
            tag = f"{label} ({where}{', turn marks' if turn_marks else ''})"
            failures.extend(f"{tag}: {line}" for line in said)


# -- the ships as play may leave them ---------------------------------------------------------
def fc_shields_down(ship, session):
    ship.state["shield_damage"] = list(ship.ship_class.spec.shields)


def fc_wrecked(ship, session):
    spec, st = ship.ship_class.spec, ship.state
    st["shield_damage"] = list(spec.shields)
    st["destroyed"] = [b.id for b in spec.boxes]
    st["frame_hits"] = spec.frame
    st["ship_destroyed"] = True


def fc_everything_used(ship, session):
    from shipsheet.rules.fedcom.state import turn_states
    spec, st = ship.ship_class.spec, ship.state
    st["turn"] = {b.id: turn_states(b.kind)[-1] for b in spec.boxes}
    st["destroyed"] = [b.id for b in spec.boxes][:3]
    st["repair"] = {"box": st["destroyed"][0], "points": 1}
    st["repair_spent"] = spec.damage_control


def wis_worst(ship, session):
    ship.state["marks"] = [s.boxes for s in ship.ship_class.spec.systems]
    ship.state["criticals"] = {suit: True for suit in ship.state["criticals"]}


def tri_hard_hit(ship, session):
    st = ship.state
    st.update(weapon=6, drive=6, structure=5, fired=True, launches=2)


def tri_captured(ship, session):
    st = ship.state
    st.update(weapon=5, drive=5, structure=4, captured_from="Outer Colonies")


def tri_destroyed(ship, session):
    ship.state.update(weapon=6, drive=6, structure=6)


def tri_standard(ship, session):
    session.options["combat"] = "standard"
    ship.state["standard"] = 4


def tri_ordnance_in_flight(ship, session):
    ship.state["ordnance"] = [{"n": n, "kind": "torpedo", "turn": 1} for n in range(1, 12)]
    ship.state["standard"] = 3  # its track kept from before a switch to advanced combat


def long_names(ship, session):
    ship.name = "The Indefatigable Pride of the Outer Colonies Reserve Flotilla Two"
    ship.side = "The Grand Alliance of the Outer Colonies"


def fc_wrecked_long_name(ship, session):
    long_names(ship, session)
    fc_wrecked(ship, session)


VARIANTS = {"fedcom": (fc_shields_down, fc_wrecked, fc_everything_used, fc_wrecked_long_name),
            "war-in-space": (wis_worst, long_names),
            "triplanetary": (tri_hard_hit, tri_captured, tri_destroyed, tri_standard,
                             tri_ordnance_in_flight, long_names)}


def sample(game):
    return load_session(resources_dir() / "samples" / f"{game}.shipsheet")


@pytest.mark.parametrize("game", GAMES)
def test_no_text_of_a_sample_sheet_overlaps_another_or_leaves_the_sheet(qapp, game):
    failures: list[str] = []
    session = sample(game)
    for ship in session.ships:
        check(f"{game} sample, {ship.name}", ship, session, failures)
    for vary in VARIANTS[game]:
        session = sample(game)
        for ship in session.ships:
            vary(ship, session)
            check(f"{game} {vary.__name__}, {ship.name}", ship, session, failures, (False,))
    assert not failures, f"{len(failures)} texts overlap or leave the sheet:\n" + "\n".join(
        dict.fromkeys(failures))


def test_no_text_of_a_blank_sheet_overlaps_another_or_leaves_the_sheet(qapp):
    failures: list[str] = []
    paths = sorted((resources_dir() / "ships").glob("*/*.toml"))
    classes = [load_ship_class(path) for path in paths]
    assert {c.game for c in classes} == set(GAMES)
    for ship_class in classes:
        check(f"blank {ship_class.id}", blank_ship(ship_class), None, failures, (False,))
    assert not failures, "\n".join(dict.fromkeys(failures))


def test_the_check_finds_an_overlap_and_a_text_past_the_edge():
    """The checker itself: two words on one place, a line past the sheet's right edge."""
    one = ("DOWN", QRectF(447.3, 148.4, 29.0, 9.2))
    two = ("#2  right front", QRectF(387.3, 148.4, 64.9, 9.2))
    said = problems([one, two, ("#2  right front", QRectF(387.3, 160, 64.9, 9.2))], 595, 800)
    assert len(said) == 1 and "overlaps" in said[0]
    assert problems([("Status: …", QRectF(28, 80, 624, 11))], 595, 800)[0].count("leaves")
    # Touching within the antialiasing's reach is not an overlap.
    assert not problems([one, ("next", QRectF(476.0, 148.4, 20, 9.2))], 595, 800)
    # A patch of paper hides what was drawn before it, not what is drawn on it after.
    stamp = (1, QRectF(440, 140, 100, 30))
    said = problems([one, ("DESTROYED", QRectF(450, 145, 80, 20))], 595, 800, [stamp])
    assert len(said) == 2 and "under a patch" in said[1] and "'DOWN'" in said[1]


def test_a_blank_sheet_leaves_the_weapons_state_to_the_pen(qapp):
    """A blank FedCom card (printed for play on paper) says nothing of what a weapon, bay or
    tractor did this turn: no "unfired", "not launched" or "unused" under them — but what
    the class gives it (a heavy weapon's size, a rack's drones, a bay's shuttle) it keeps.
    A sheet in play says the state."""
    defaults = ("unfired", "not launched", "unused")
    for path in sorted((resources_dir() / "ships" / "fedcom").glob("*.toml")):
        cls = load_ship_class(path)
        sheet, theme = page_sheet(blank_ship(cls), None)
        texts = [text for text, _ in text_extents(sheet, theme, pdf_device())[0]]
        assert not [t for t in texts if any(word in t for word in defaults)], path.name
        if path.stem == "sample-heavy-cruiser":
            assert {"size 1", "4/4 drones", "admin shuttle"} <= set(texts)
    session = sample("fedcom")
    sheet, theme = page_sheet(session.ships[0], session)
    texts = [text for text, _ in text_extents(sheet, theme, pdf_device())[0]]
    assert {"unfired", "size 1 · unfired", "unused"} <= set(texts)
