"""What a Triplanetary player decides for a ship (from a phone or an orders file): the
recovery choice, the fuel left and the cargo carried.

Each filled form becomes the action the sheet's boxes and the Actions panel apply
(:func:`.actions.choose_recovery_action`, :func:`.actions.fuel_action`,
:func:`.actions.cargo_action`), so the rules, the refusals and the log are the same.
See ``shipsheet/model/decisions.py``. Which right a tap on a sheet's box needs (the
recovery choice, cargo and burning fuel are the owner's; taking on fuel is the referee's
[TRI-H29]; the ladders are damage marks) is the box's answer, ``boxes.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.decisions import GameDecisions, choice, form, integer
from shipsheet.model.errors import RuleViolation

from .actions import cargo_action, choose_recovery_action, fuel_action
from .combat import STANDARD, combat_system
from .definitions import MAX_AMOUNT
from .privacy import RECOVERY as PRIVATE_RECOVERY
from .recovery import describe_choice, planned_recovery, recovery_choice
from .state import TRACK_TITLES, TRACKS
from .tracks import levels, out_of_play, recovered_this_turn

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Action
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

#: The kinds of form (a form's ``kind``; fuel and cargo are also the state's keys they set).
RECOVERY, FUEL, CARGO = "recovery", "fuel", "cargo"
NONE = "none"
#: The amounts a form sets: the action that sets each, and its unit in words.
_AMOUNTS = {FUEL: (fuel_action, ""), CARGO: (cargo_action, " t")}


_REFUEL_WORDS = ("A player burns fuel but does not take it on: refuelling, at a base or from "
                 "a tanker, is the referee's (house rule TRI-H29).")


def _track_options(ship: "Ship") -> list[tuple[str, str]]:
    level = levels(ship)
    return [(t, f"{TRACK_TITLES[t]} (D{level[t]})") for t in TRACKS]


class TriplanetaryDecisions(GameDecisions):
    """Nothing for a ship out of play ([TRI-H7]); the recovery choice under the Advanced
    Combat System only ([TRI-H9]: standard combat's single track needs none); fuel and cargo
    within the type's fuel and hold [2018], as :func:`.tracks.set_fuel` and
    :func:`.tracks.set_cargo` allow them."""

    def forms(self, session: "Session", ship: "Ship") -> list[dict]:
        if out_of_play(ship):
            return []
        spec = ship.ship_class.spec
        forms = []
        if combat_system(session) != STANDARD:
            forms.append(self._recovery_form(ship))
        if spec.fuel:  # None: unlimited, 0: none of its own; nothing to track either way
            # A player spends fuel; taking it on (at a base, from a tanker) is the
            # referee's [TRI-H29]: the form goes no higher than the fuel left.
            left = ship.state.get("fuel")
            left = spec.fuel if left is None else left
            forms.append(form(FUEL, "Fuel", [integer("fuel", "Fuel left", 0, left, left,
                                                      over=_REFUEL_WORDS)],
                              text=(f"{ship.name} has {left} of {spec.fuel} fuel left. Burn fuel "
                                    f"here; refuelling (at a base or from a tanker) is the "
                                    f"referee's."), submit="Set"))
        if spec.cargo != 0:
            # [TRI-H12] an unlimited hold is still kept as a number, up to MAX_AMOUNT t.
            cap = MAX_AMOUNT if spec.cargo is None else spec.cargo
            hold = "an unlimited hold" if spec.cargo is None else f"a hold of {spec.cargo} t"
            forms.append(form(CARGO, "Cargo", [integer("cargo", "Cargo carried (t)", 0, cap,
                                                       int(ship.state.get("cargo") or 0))],
                              text=f"{ship.name} has {hold}.", submit="Set"))
        return forms

    def _recovery_form(self, ship: "Ship") -> dict:
        chosen = recovery_choice(ship)
        tracks = _track_options(ship)
        planned = planned_recovery(ship)
        if recovered_this_turn(ship):
            now = f"{ship.name} has already recovered 1 D this turn."
        elif planned is None:
            now = f"{ship.name} has nothing to recover when this turn ends."
        else:
            now = (f"When this turn ends {ship.name} recovers 1 "
                   f"{TRACK_TITLES[planned[0]].lower()} D ({planned[1]}).")
        # [seed] "The ship's owner chooses what kind of damage to recover from."; no choice:
        # the default, the highest D-level [TRI-H13]; the choice stands [TRI-H14].
        return form(RECOVERY, "Recovery", private=PRIVATE_RECOVERY, fields=[
            choice("track", "Recover from", [(NONE, "No choice: the default applies "
                                                    "(highest D-level)")] + tracks,
                   chosen[0] if chosen else NONE),
            choice("then", "Then, when that track cannot recover", [(NONE, "—")] + tracks,
                   chosen[1] if len(chosen) > 1 else NONE),
        ], submit="Choose", text=(
            f"A ship recovers 1 D a turn; its owner chooses the kind of damage. The choice "
            f"stands from turn to turn until it is changed (house rule TRI-H14). {now}"))

    # -- the GameDecisions API -----------------------------------------------------------
    def build(self, session: "Session", ship: "Ship", kind: str, values: dict) -> "Action":
        if kind == RECOVERY:
            first, then = values["track"], values["then"]
            if first == NONE and then != NONE:
                raise RuleViolation("Choose the track to recover first, then the one after it.")
            tracks = [t for t in (first, then) if t != NONE]
            return choose_recovery_action(ship, tracks or None)
        if kind in _AMOUNTS:
            value = values[kind]
            make, unit = _AMOUNTS[kind]
            if value == ship.state.get(kind):
                raise RuleViolation(f"{ship.name}'s {kind} is already {value}{unit}.")
            return make(ship, value)
        return super().build(session, ship, kind, values)

    def in_force(self, session: "Session", ship: "Ship") -> list[str]:
        """The recovery choice (it stands from turn to turn, TRI-H14) and what it recovers
        when this turn ends."""
        if out_of_play(ship) or combat_system(session) == STANDARD:
            return []
        line = f"Recovery choice: {describe_choice(recovery_choice(ship))}"
        planned = planned_recovery(ship)
        if planned is not None:
            line += (f"; when turn {session.turn} ends {ship.name} recovers 1 "
                     f"{TRACK_TITLES[planned[0]].lower()} D ({planned[1]})")
        return [line]


DECISIONS = TriplanetaryDecisions()
