"""The phone's SVG (``sheets/svg.py``) draws what Qt's SVG generator drew from the same
recording: the same text at the same baselines, the same shapes, the same picture. Every
sample sheet of every game, as its owner and as the others see it. Text from files is
escaped, and a change writes only the calls it changed."""

from __future__ import annotations

import collections
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator, QSvgRenderer

from shipsheet.model import load_session
from shipsheet.model.boxes import box_answer
from shipsheet.model.paths import resources_dir
from shipsheet.share import render
from shipsheet.share.snapshot import take
from shipsheet.sheets import svg as svg_module
from shipsheet.sheets.display import replay
from shipsheet.sheets.svg import svg_of

GAMES = ("fedcom", "triplanetary", "war-in-space")
NS = "{http://www.w3.org/2000/svg}"
#: Qt's generator writes a line as a polyline, a circle as a circle and a rounded
#: rectangle as a path; the writer writes line, ellipse and rect.
SAME_SHAPE = {"polyline": "line", "circle": "ellipse", "path": "rect"}


def _qt_svg(display) -> bytes:
    """The recording played into Qt's SVG generator, as the phone's sheet was drawn."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(int(display.width + 0.5), int(display.height + 0.5)))
    generator.setViewBox(QRectF(0, 0, display.width, display.height))
    generator.setResolution(render.SVG_DPI)
    painter = QPainter(generator)
    replay(painter, display)
    painter.end()
    return bytes(buffer.data())


def _texts(svg: bytes) -> list[tuple]:
    return [(round(float(t.get("x")), 2), round(float(t.get("y")), 2), "".join(t.itertext()).strip(),
             float(t.get("font-size")), t.get("font-weight"), t.get("fill"))
            for t in ET.fromstring(svg).iter(NS + "text")]


def _shapes(svg: bytes) -> collections.Counter:
    tags = (e.tag.replace(NS, "") for e in ET.fromstring(svg).iter())
    return collections.Counter(SAME_SHAPE.get(t, t) for t in tags
                               if t in ("rect", "line", "polyline", "ellipse", "circle", "polygon", "path"))


def _picture(svg: bytes, width: int, height: int) -> QImage:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    QSvgRenderer(QByteArray(svg)).render(painter, QRectF(0, 0, width, height))
    painter.end()
    return image


def _differing(a: QImage, b: QImage) -> float:
    """The share of pixels more than a quarter of the way apart (antialiasing aside)."""
    painter = QPainter(a)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Difference)
    painter.drawImage(0, 0, b)
    painter.end()
    grey = a.convertToFormat(QImage.Format.Format_Grayscale8)
    data = grey.constBits().tobytes()
    far = bytes(1 if level > 64 else 0 for level in range(256))
    return data.translate(far).count(1) / (grey.bytesPerLine() * grey.height())


def _sheets(game):
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    snapshot = take(session, "epoch", 1, {ship.id: 1 for ship in session.ships})
    for ship in session.ships:
        for public in (False, True):
            yield ship, public, render._recorded(snapshot, ship.id, public)


@pytest.mark.parametrize("game", GAMES)
def test_every_sample_sheet_is_the_svg_qts_generator_drew(qapp, game):
    for ship, public, (_ship, painter, display) in _sheets(game):
        painter.release()
        ours, qts = svg_of(display, ship.name, render._svg_measure())[0], _qt_svg(display)
        what = (ship.name, "public" if public else "the owner's")
        assert _texts(ours) == _texts(qts), what
        assert _shapes(ours) == _shapes(qts), what
        width, height = round(display.width * 2), round(display.height * 2)
        assert _differing(_picture(ours, width, height), _picture(qts, width, height)) < 0.001, what
        assert len(ours) < len(qts) * 0.7, what  # and smaller to gzip and send


def test_text_from_a_file_is_text_in_the_svg(qapp):
    session = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    ship = session.ships[0]
    hostile = 'Nox <script>alert(1)</script> & "]]> <!--'
    ship.name = hostile
    snapshot = take(session, "epoch", 1, {s.id: 1 for s in session.ships})
    sheet = render.render_sheet(snapshot, ship.id)
    root = ET.fromstring(sheet.svg)  # well-formed: nothing of the name is markup
    assert root.find(NS + "title").text == hostile
    shown = ["".join(t.itertext()) for t in root.iter(NS + "text")]
    assert shown[0] == "Nox <script>alert…"  # the title line, cut to its width
    assert not list(root.iter(NS + "script"))


def test_a_change_writes_only_the_calls_it_changed(qapp, monkeypatch):
    session = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    ship = session.ships[0]
    render._kept().clear()  # the recordings and their calls' texts
    written = []
    write = svg_module._written
    monkeypatch.setattr(svg_module, "_written", lambda kept, call, device: (
        written.append(call.name), write(kept, call, device))[1])
    first = render.render_sheet(take(session, "epoch", 1, {s.id: 1 for s in session.ships}), ship.id)
    whole = len(written)
    area = next(a for a in first.areas
                if (answer := box_answer(session, ship, a.key)) is not None and answer.click is not None
                and not answer.refusal)
    session.apply(box_answer(session, ship, area.key).click())
    written.clear()
    again = render.render_sheet(take(session, "epoch", 2, {s.id: 2 for s in session.ships}), ship.id)
    assert again.svg != first.svg
    assert 0 < len(written) < whole / 5, (len(written), whole)


def test_a_call_it_does_not_know_is_refused(qapp):
    session = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    snapshot = take(session, "epoch", 1, {s.id: 1 for s in session.ships})
    _ship, painter, display = render._recorded(snapshot, session.ships[0].id, False)
    painter.release()
    odd = display._replace(calls=[display.calls[0]._replace(name="drawPie")])
    with pytest.raises(ValueError, match="drawPie"):
        svg_of(odd, "x", render._svg_measure())
