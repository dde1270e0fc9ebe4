"""Helpers for the Federation Commander tests: small cards and charts built to order."""

from __future__ import annotations

from shipsheet.model.library import parse_ship_class
from shipsheet.model.ship import Ship
from shipsheet.rules.fedcom import GAME, parse_chart
from shipsheet.rules.fedcom.boxes import box_key, frame_key, shield_key


def make_class(boxes, *, frame=4, shields=(20, 20, 20, 20, 20, 20), damage_control=4,
               name="Test Card", **extra):
    data = {"game": "fedcom", "class": name, "damage_control": damage_control,
            "frame": frame, "shields": list(shields), "boxes": boxes, **extra}
    return parse_ship_class(data, "test.toml")


def make_ship(boxes, name="Test", **kw) -> Ship:
    cls = make_class(boxes, **kw)
    return Ship(name=name, ship_class=cls, state=GAME.initial_state(cls), id=f"id-{name}")


def chart(rows, name="Test chart"):
    """A chart from six rows of ten cell strings."""
    return parse_chart({"name": name, "rows": rows}, "test-chart.toml")


def uniform_chart(cells, last=None):
    """Every row the same ten cells (``cells`` a list of ten, or one cell repeated;
    ``last`` replaces column 10)."""
    row = list(cells) if isinstance(cells, list) else [cells] * 10
    if last is not None:
        row[9] = last
    return chart([row] * 6)


def phaser(box_id, type_, arc="360", **kw):
    return {"id": box_id, "kind": "phaser", "type": type_, "arc": arc, **kw}


def heavy(box_id, type_, size=1, arc="FA", **kw):
    return {"id": box_id, "kind": "torpedo", "type": type_, "size": size, "arc": arc, **kw}


def box(box_id, kind, **kw):
    return {"id": box_id, "kind": kind, **kw}


def card_keys(ship) -> set[str]:
    """Every box a card has: its boxes, each shield's boxes, the frame's."""
    spec = ship.ship_class.spec
    return ({box_key(b.id) for b in spec.boxes}
            | {shield_key(n, k) for n in range(1, 7) for k in range(1, spec.shields[n - 1] + 1)}
            | {frame_key(k) for k in range(1, spec.frame + 1)})
