"""Which ships a seat sees: the referee all; a player its own (listed, or of its sides); a
spectator those listed for it, all when none are; a seat without the right to view none.
``Seat.visible`` (the server asks it for every connected seat at every change) says the
same as ``Seat.sees`` asked ship by ship, in the session's order."""

from __future__ import annotations

from shipsheet.model import Session, list_classes, new_ship
from shipsheet.share.seats import PLAYER, REFEREE, SPECTATOR, Seat


def _session() -> Session:
    session = Session("fedcom", name="Visibility")
    cls = list_classes("fedcom")[0]
    for name, side in (("Able", "Federation"), ("Baker", "Federation"), ("Charlie", "Klingon"),
                       ("Dog", None), ("Easy", "Klingon")):
        ship = new_ship(cls, name)
        ship.side = side
        session.ships.append(ship)
    return session


def test_each_seat_sees_what_its_role_lists_in_the_sessions_order():
    session = _session()
    ids = {ship.name: ship.id for ship in session.ships}
    seats = {
        "referee": (Seat("r", "Ref", REFEREE), ["Able", "Baker", "Charlie", "Dog", "Easy"]),
        "player of one ship": (Seat("p1", "P1", PLAYER, ships=(ids["Baker"],)), ["Baker"]),
        "player of a side": (Seat("p2", "P2", PLAYER, sides=("Klingon",)), ["Charlie", "Easy"]),
        "player of a side and a ship": (
            Seat("p3", "P3", PLAYER, sides=("Federation",), ships=(ids["Dog"],)), ["Able", "Baker", "Dog"]),
        "spectator of all": (Seat("s1", "S1", SPECTATOR), ["Able", "Baker", "Charlie", "Dog", "Easy"]),
        "spectator of a side": (Seat("s2", "S2", SPECTATOR, sides=("Klingon",)), ["Charlie", "Easy"]),
        "spectator of a ship gone": (Seat("s3", "S3", SPECTATOR, ships=("no-such-ship",)), []),
        "player without the right to view": (
            Seat("p4", "P4", PLAYER, ships=(ids["Able"],), rights=frozenset({"mark"})), []),
        "referee without the right to view": (Seat("r2", "Ref 2", REFEREE, rights=frozenset({"admin"})), []),
        "spectator without the right to view": (Seat("s4", "S4", SPECTATOR, rights=frozenset()), []),
    }
    for what, (seat, names) in seats.items():
        visible = seat.visible(session)
        assert [ship.name for ship in visible] == names, what
        assert visible == [ship for ship in session.ships if seat.sees(ship)], what


def test_a_captured_ship_moves_to_the_seat_of_its_new_side_at_once():
    session = _session()
    klingons = Seat("k", "Klingons", PLAYER, sides=("Klingon",))
    federation = Seat("f", "Federation", PLAYER, sides=("Federation",))
    session.ships[0].side = "Klingon"  # Able, captured
    assert [s.name for s in klingons.visible(session)] == ["Able", "Charlie", "Easy"]
    assert [s.name for s in federation.visible(session)] == ["Baker"]
