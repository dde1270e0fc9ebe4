"""The boxes of a Triplanetary ship sheet: their keys, and what each is and does.

The sheet (``sheets/triplanetary.py``) places these boxes, each key named here once:

- ``counter`` (:data:`COUNTER_KEY`): the counter, its combat strength as printed ("8",
  "1D": [2018] "D" after the strength, defensive only). Hover only.
- ``damage-roll`` (:data:`DAMAGE_ROLL_KEY`): the Advanced Combat System's damage roll, one
  d6 per hit [seed]; ``standard-note`` (:data:`STANDARD_NOTE_KEY`): under the standard
  combat option, how its results mark the single track [2018]. Hover only, one or the other.
- ``<track>:<step>`` (:func:`ladder_key`): D``step`` (0–6, :data:`LADDER_TOP`) of a track
  ladder — weapons, drive, structure [seed], or standard combat's disabled track [2018].
  A click marks damage up to it, or one lower recovers 1 D in the Recovery phase
  ([TRI-H1], [TRI-H11]: ``actions.mark_level``); its menu chooses the track for the end of
  the turn, recovers now, or maintains at a base, as the rules allow. A damage mark (MARK).
- ``standard:E`` (:data:`E_BOX_KEY`): standard combat's E box, an eliminating result
  [2018]. A damage mark (MARK).
- ``out-of-play`` (:data:`OUT_OF_PLAY_KEY`): "DESTROYED" or "LOST" for a ship out of play
  [TRI-H7]. Hover only.
- ``choice:<track>``, ``choice:default`` (:func:`choice_key`): the owner's recovery choice
  under the Advanced Combat System ([seed] "The ship's owner chooses what kind of damage to
  recover from"; [TRI-H13] the default, [TRI-H14] the choice stands). The owner's (DECIDE).
- ``fuel:<box>`` (:func:`fuel_box_key`): a fuel box, 1 to the type's fuel [2018]. A box left
  burns fuel down to it (the owner's, DECIDE); a box burnt takes fuel on up to it, which is
  the referee's (MARK, [TRI-H29]).
- ``cargo:<tons>`` (:func:`cargo_mark_key`): a mark of the cargo scale, every
  :data:`CARGO_STEP` t up to the hold [2018]; a click loads or unloads to it (DECIDE).
- ``fuel``, ``cargo`` (:data:`FUEL_KEY`, :data:`CARGO_KEY`): fuel a type does not track
  (unlimited, or none of its own), a type with no hold, or the written-in number of fuel or
  cargo too big for boxes (hover only); ``fuel:-10`` … ``cargo:+10`` (:func:`step_key`):
  that number's −/+ steps. Burning fuel, and cargo, are the owner's (DECIDE); the fuel
  counter's + steps take fuel on, the referee's (MARK, [TRI-H29]).

:class:`TriplanetaryBoxes` answers for any of them (``model.boxes``) with the rules' own
words and action builders (``actions.py``), refusals tried on a scratch copy
(``model.trial``); any other string — a phone may send anything — and a box the sheet does
not draw for the ship now have no answer (None). Pure Python, no Qt.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from shipsheet.model.boxes import BoxAnswer, GameBoxes, MenuEntries, key_number
from shipsheet.model.decisions import DECIDE, MARK
from shipsheet.model.errors import RuleViolation
from shipsheet.model.trial import ship_refusal, trial_ship

from . import combat
from .actions import (cargo_action, choose_recovery_action, fuel_action, maintain_action,
                      mark_level, mark_level_action, recover_action, standard_result_action)
from .game import GAME
from .house import house_rule
from .recovery import choose_recovery, recovery_choice
from .state import ALL_TRACKS, RECOVERY_PHASE, STANDARD_TRACK, TRACKS, track_title
from .tracks import (Status, apply_standard, is_destroyed, maintain, out_of_play, recover,
                     recover_one, set_cargo, set_fuel, status, track_level)

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

#: The ladders are drawn D0…D6; a level above 6 is written beside D6.
LADDER_TOP = 6
#: More fuel than this is tracked as a counter (a number with −/+ steps).
FUEL_BOXES_MAX = 60
#: The cargo scale is marked every 5 t.
CARGO_STEP = 5
#: A bigger hold (or an unlimited one) is tracked as a counter.
CARGO_SCALE_MAX = 60
#: A counter's steps, in the order drawn.
COUNTER_STEPS = (-10, -1, 1, 10)
#: The tracks whose D6 destroys the ship (marked with a full X then) [seed]/[2018].
DESTROYING = ("structure", "standard")

# -- the keys -----------------------------------------------------------------------------
_SEP = ":"
COUNTER_KEY = "counter"
DAMAGE_ROLL_KEY = "damage-roll"
STANDARD_NOTE_KEY = "standard-note"
OUT_OF_PLAY_KEY = "out-of-play"
FUEL_KEY = "fuel"
CARGO_KEY = "cargo"
_CHOICE = "choice"
_DEFAULT = "default"
_E = "E"
E_BOX_KEY = f"{STANDARD_TRACK}{_SEP}{_E}"

#: The sorts of box :func:`parse_key` tells apart (the first item of what it returns).
COUNTER, DAMAGE_ROLL, STANDARD_NOTE, OUT_OF_PLAY = "counter", "damage-roll", "standard-note", "out-of-play"
LADDER, E_BOX, CHOICE = "ladder", "e-box", "choice"
FUEL, FUEL_BOX, CARGO, CARGO_MARK, STEP = "fuel", "fuel-box", "cargo", "cargo-mark", "step"
_PLAIN = {COUNTER_KEY: COUNTER, DAMAGE_ROLL_KEY: DAMAGE_ROLL, STANDARD_NOTE_KEY: STANDARD_NOTE,
          OUT_OF_PLAY_KEY: OUT_OF_PLAY, FUEL_KEY: FUEL, CARGO_KEY: CARGO}
_STEP_WORDS = {f"{step:+d}": step for step in COUNTER_STEPS}
#: The most digits a number of a key may have (fuel and cargo stop at 100,000 [TRI-H12]).
_DIGITS = 6


def ladder_key(track: str, step: int) -> str:
    """The key of D``step`` of ``track``'s ladder: ``weapon:3``, ``standard:0``."""
    return f"{track}{_SEP}{step}"


def choice_key(track: str | None) -> str:
    """The key of the recovery choice's box for ``track`` (None: "Default"): ``choice:drive``,
    ``choice:default``."""
    return f"{_CHOICE}{_SEP}{track or _DEFAULT}"


def fuel_box_key(box: int) -> str:
    """The key of fuel box ``box`` (from 1): ``fuel:7``."""
    return f"{FUEL_KEY}{_SEP}{box}"


def cargo_mark_key(tons: int) -> str:
    """The key of the cargo scale's mark at ``tons``: ``cargo:20``."""
    return f"{CARGO_KEY}{_SEP}{tons}"


def step_key(tracker: str, step: int) -> str:
    """The key of a counter's step (``tracker``: :data:`FUEL_KEY` or :data:`CARGO_KEY`):
    ``fuel:+1``, ``cargo:-10``."""
    return f"{tracker}{_SEP}{step:+d}"


def parse_key(key: object) -> tuple | None:
    """What a key names, by its form alone (not checked against a ship): ``(COUNTER,)``,
    ``(DAMAGE_ROLL,)``, ``(STANDARD_NOTE,)``, ``(OUT_OF_PLAY,)``, ``(FUEL,)``, ``(CARGO,)``,
    ``(LADDER, track, step)``, ``(E_BOX,)``, ``(CHOICE, track or None)``, ``(FUEL_BOX, box)``,
    ``(CARGO_MARK, tons)``, ``(STEP, FUEL_KEY or CARGO_KEY, step)``; None for anything else."""
    if not isinstance(key, str):
        return None
    if key in _PLAIN:
        return (_PLAIN[key],)
    sort, sep, rest = key.partition(_SEP)
    if not sep:
        return None
    if sort in ALL_TRACKS:
        if sort == STANDARD_TRACK and rest == _E:
            return (E_BOX,)
        step = key_number(rest, _DIGITS)
        return None if step is None or step > LADDER_TOP else (LADDER, sort, step)
    if sort == _CHOICE:
        if rest == _DEFAULT:
            return (CHOICE, None)
        return (CHOICE, rest) if rest in TRACKS else None
    if sort in (FUEL_KEY, CARGO_KEY):
        if rest in _STEP_WORDS:
            return (STEP, sort, _STEP_WORDS[rest])
        n = key_number(rest, _DIGITS)
        if n is None:
            return None
        if sort == FUEL_KEY:
            return (FUEL_BOX, n) if n >= 1 else None
        return (CARGO_MARK, n)
    return None


# -- what the sheet draws (the rules decide; the sheet and the answers ask) ----------------

def combat_system(session: "Session | None") -> str:
    """The session's combat system ("advanced" unless the session chose "standard"; an
    unknown option reads as the default)."""
    try:
        return combat.combat_system(session)
    except RuleViolation:
        return combat.ADVANCED


def advanced_tracks_drawn(ship: "Ship", session: "Session | None") -> bool:
    """The Advanced Combat System's ladders: its combat, or kept from before a switch to
    standard combat while any of them is marked [TRI-H10]."""
    return (combat_system(session) != combat.STANDARD
            or any(ship.state.get(t, 0) for t in TRACKS))


def standard_track_drawn(ship: "Ship", session: "Session | None") -> bool:
    """Standard combat's disabled ladder and its E box: the session's option, or kept from
    before a switch to the Advanced Combat System while marked [TRI-H10]."""
    return (combat_system(session) == combat.STANDARD
            or bool(ship.state.get(STANDARD_TRACK, 0) or ship.state.get("eliminated")))


def choice_drawn(ship: "Ship", session: "Session | None") -> bool:
    """The recovery choice row: under the Advanced Combat System, for a ship in play
    ([TRI-H9] standard combat's single track needs no choice; [TRI-H7])."""
    return not out_of_play(ship) and combat_system(session) != combat.STANDARD


def fuel_counted(spec) -> bool:
    """Fuel too big for boxes, kept as a number with −/+ steps."""
    return spec.fuel is not None and spec.fuel > FUEL_BOXES_MAX


def cargo_counted(spec) -> bool:
    """A hold too big for the scale (or unlimited), kept as a number with −/+ steps."""
    return spec.cargo is None or spec.cargo > CARGO_SCALE_MAX


def cargo_steps(cap: int) -> list[int]:
    """The cargo scale's marks: every :data:`CARGO_STEP` t, and the hold."""
    steps = list(range(0, cap + 1, CARGO_STEP))
    if steps[-1] != cap:
        steps.append(cap)
    return steps


def fuel_store_words(spec) -> str:
    """The fuel a type holds for other ships, in words ([2018] the base's "unlimited store")."""
    return ("an unlimited store" if spec.fuel_store is None
            else f"a store of {spec.fuel_store}" if spec.fuel_store else "no store")


def out_of_play_words(st: Status) -> tuple[str, str]:
    """(word, why) for a ship out of play ([TRI-H7])."""
    if st.destroyed:
        return "DESTROYED", "The ship exploded or fell apart: it can do nothing more."
    return "LOST", "Lost at the map edge: the ship is out of play."


def _flips(before: Status, after: Status) -> list[str]:
    """What a ship loses between two statuses, in a few words."""
    if after.destroyed and not before.destroyed:
        return ["destroyed"]
    words = []
    fire = before.can_fire and not after.can_fire
    ordnance = before.can_drop_ordnance and not after.can_drop_ordnance
    if fire and ordnance:
        words.append("can't fire or drop ordnance")
    elif fire:
        words.append("can't fire")
    elif ordnance:
        words.append("no ordnance")
    if before.can_launch_mines and not after.can_launch_mines and not ordnance:
        words.append("no mines")
    if before.can_maneuver and not after.can_maneuver:
        words.append("can't maneuver")
    if after.disabled and not before.disabled:
        words.append("disabled (lootable)")
    if before.weapons_repairable and not after.weapons_repairable:
        words.append("repaired at a base only")
    if before.drive_repairable and not after.drive_repairable:
        words.append("no repair")
    if after.lost_at_map_edge and not before.lost_at_map_edge:
        words.append("lost at map edge")
    return words


def thresholds(ship: "Ship", track: str, top: int = LADDER_TOP) -> list[tuple[int, str]]:
    """The levels of ``track`` where the ship (otherwise undamaged) loses something, found by
    asking the rules for the status of a scratch copy at each level.

    E.g. a frigate's weapons: ``[(1, "can't fire or drop ordnance"), (6, "repaired at a
    base only")]``; a dreadnaught's: D1 no ordnance, D4 can't fire [seed].
    """
    pristine = GAME.initial_state(ship.ship_class)
    previous = status(trial_ship(ship, pristine))
    found = []
    for level in range(1, top + 1):
        state = dict(pristine)
        state[track] = level
        now = status(trial_ship(ship, state))
        words = _flips(previous, now)
        if words:
            found.append((level, ", ".join(words)))
        previous = now
    return found


def _phase(session: "Session | None") -> str:
    """The session's phase (the Recovery phase without a session: nothing is applied then)."""
    return session.phase if session is not None else RECOVERY_PHASE


# -- the answers ---------------------------------------------------------------------------

class TriplanetaryBoxes(GameBoxes):
    """The answers for the sheet's boxes (see the module's docstring)."""

    def answer(self, session: "Session | None", ship: "Ship", key: str) -> BoxAnswer | None:
        parsed = parse_key(key)
        if parsed is None:
            return None
        sort = parsed[0]
        spec = ship.ship_class.spec
        standard = combat_system(session) == combat.STANDARD
        if sort == COUNTER:
            return _counter_answer(ship)
        if sort == DAMAGE_ROLL:
            return None if standard else _DAMAGE_ROLL
        if sort == STANDARD_NOTE:
            return _STANDARD_NOTE if standard else None
        if sort == LADDER:
            _, track, step = parsed
            drawn = (standard_track_drawn(ship, session) if track == STANDARD_TRACK
                     else advanced_tracks_drawn(ship, session))
            return _ladder_answer(session, ship, track, step) if drawn else None
        if sort == E_BOX:
            return _e_answer(ship) if standard_track_drawn(ship, session) else None
        if sort == OUT_OF_PLAY:
            return _out_of_play_answer(ship) if out_of_play(ship) else None
        if sort == CHOICE:
            return _choice_answer(session, ship, parsed[1]) if choice_drawn(ship, session) else None
        if sort == FUEL:
            if spec.fuel is None or spec.fuel == 0:
                return _no_fuel_answer(ship)
            return _tally_answer(ship, FUEL_KEY) if fuel_counted(spec) else None
        if sort == FUEL_BOX:
            box = parsed[1]
            drawn = spec.fuel is not None and not fuel_counted(spec) and box <= spec.fuel
            return _fuel_box_answer(ship, box) if drawn else None
        if sort == CARGO:
            if spec.cargo == 0:
                return _no_hold_answer(ship)
            return _tally_answer(ship, CARGO_KEY) if cargo_counted(spec) else None
        if sort == CARGO_MARK:
            tons = parsed[1]
            drawn = spec.cargo and not cargo_counted(spec) and tons in cargo_steps(spec.cargo)
            return _cargo_answer(ship, tons) if drawn else None
        # STEP: a counter's −/+ step.
        _, tracker, step = parsed
        counted = fuel_counted(spec) if tracker == FUEL_KEY else (spec.cargo != 0
                                                                  and cargo_counted(spec))
        return _step_answer(ship, tracker, step) if counted else None


BOXES = TriplanetaryBoxes()


# -- the counter and the explanations ------------------------------------------------------

def _counter_answer(ship: "Ship") -> BoxAnswer:
    """[2018] the combat strength as printed; "D" after it: defensive only, never attacks."""
    spec = ship.ship_class.spec
    if spec.defensive_only:
        tip = (f"Combat strength {spec.combat}, marked D: defensive only. "
               "It defends at this strength but may never attack or counterattack.")
    else:
        tip = (f"Combat strength {spec.combat}: it attacks and defends at this "
               "strength (it may attack at less than its full strength).")
    return BoxAnswer(f"Counter: combat strength {spec.strength_label}",
                     state=spec.strength_label, tooltip=tip)


_DAMAGE_ROLL = BoxAnswer(
    "Damage roll: 1 d6 per hit",
    tooltip="The Advanced Combat System's damage roll: one d6 per hit. "
            "The attack dialog (Actions panel) rolls or takes typed dice.")
_STANDARD_NOTE = BoxAnswer(
    "Standard combat",
    tooltip="The standard combat table (a session option): one result per "
            "attack, D1–D5 or E, on the single disabled track.")


def _out_of_play_answer(ship: "Ship") -> BoxAnswer:
    """[TRI-H7] a ship out of play can do nothing."""
    st = status(ship)
    word, why = out_of_play_words(st)
    return BoxAnswer(word.capitalize(), state=word.lower(),
                     tooltip=f"{ship.name}: {why}\n\n" + house_rule("TRI-H7"))


# -- the ladders ---------------------------------------------------------------------------

def _ladder_answer(session: "Session | None", ship: "Ship", track: str,
                   step: int) -> BoxAnswer:
    """What a ladder step is, what clicking it does (the rules' mark_level), or why not."""
    title = track_title(track)
    lower = title.lower()
    level = track_level(ship, track)
    label = f"{title} D{step}" + ("+" if step == LADDER_TOP else "")
    if (step == LADDER_TOP and level >= LADDER_TOP and track in DESTROYING
            and is_destroyed(ship)):
        state = "destroyed"  # the track that destroyed the ship: a full X
    elif step == min(level, LADDER_TOP):
        state = "now"  # circled
    else:
        state = "marked" if 0 < step <= level else ""

    def what() -> str:
        meaning = [words for lv, words in thresholds(ship, track) if lv <= step]
        text = f"{title} track, D{step}" + (" or worse" if step == LADDER_TOP else "")
        return text + ((": " + "; ".join(meaning)) if meaning
                       else (": undamaged" if step == 0 else ""))

    # The context menu offers what the rules allow now (worked out on right-click).
    menu = partial(_ladder_menu, session, ship, track, level)
    if step == level:
        refusal = (f"The {lower} track is at D{level} now: click a higher level to mark "
                   f"damage, or D{level - 1} to recover 1 D." if level else
                   f"The {lower} track is undamaged (D0): click a higher level to mark damage.")
        return BoxAnswer(label, state=state, right=MARK, refusal=refusal, menu=menu,
                         tooltip=lambda: f"{what()}\nThe ship is at D{level} now (circled).")
    phase = _phase(session)
    why = ship_refusal(ship, lambda s: mark_level(s, track, step, phase=phase))
    if step > level:
        does = f"Click: mark {step - level} {lower} D (D{level} → D{step})."
    elif step == level - 1 and phase != RECOVERY_PHASE:  # [TRI-H1] recovery closes the turn
        does = (f"Recovering now waits for the Recovery phase (house rule TRI-H1); "
                f"right-click to choose {lower} for the end of the turn.")
    elif step == level - 1:
        does = (f"Click: recover 1 D, {lower} D{level} → D{step} (the ship's one recovery "
                "this turn).")
    else:
        does = f"Below D{level - 1}: a ship recovers 1 D per turn."
    return BoxAnswer(label, state=state, right=MARK, refusal=why, menu=menu,
                     click=None if why else partial(mark_level_action, ship, track, step),
                     tooltip=lambda: f"{what()}\n{does}")


def _ladder_menu(session: "Session | None", ship: "Ship", track: str,
                 level: int) -> MenuEntries:
    """A ladder's context menu: choose this track for the end of the turn, recover 1 D on
    it now (Recovery phase), maintenance ([seed] "A ship which reaches a base and undergoes
    maintenance is immediately restored to full operating status"), as the rules allow."""
    menu: MenuEntries = []
    title = track_title(track).lower()
    if (track in TRACKS and recovery_choice(ship)[:1] != (track,)
            and ship_refusal(ship, lambda s: (choose_recovery(s, track),
                                              recover_one(s, track))) is None):
        menu.append((f"Choose: recover 1 {title} D when the turn ends "
                     f"(D{level} → D{level - 1})", partial(choose_recovery_action, ship, track)))
    phase = _phase(session)
    if ship_refusal(ship, lambda s: recover(s, track, phase=phase)) is None:
        menu.append((f"Recover 1 {title} D now (D{level} → D{level - 1})",
                     partial(recover_action, ship, track)))
    if ship_refusal(ship, maintain) is None:
        menu.append(("Maintenance at a base (every track to D0)", partial(maintain_action, ship)))
    return menu


def _e_answer(ship: "Ship") -> BoxAnswer:
    """[2018] standard combat: "D6 or more, or E, destroys the ship"."""
    eliminated = bool(ship.state.get("eliminated"))
    why = ship_refusal(ship, lambda s: apply_standard(s, "E"))
    tip = ("E: eliminated — a standard combat E result destroys the ship.\n"
           + ("Marked." if eliminated else "Click: mark an E result (the ship is destroyed)."))
    return BoxAnswer("E: eliminated", state="marked" if eliminated else "", right=MARK,
                     tooltip=tip, refusal=why,
                     click=None if why else partial(standard_result_action, ship, "E"))


# -- the recovery choice -------------------------------------------------------------------

def _choice_answer(session: "Session | None", ship: "Ship", track: str | None) -> BoxAnswer:
    """The owner's recovery choice: a click chooses (one undo step); "Default" clears it."""
    chosen = recovery_choice(ship)
    blank = session is None  # a blank sheet: boxes to tick, nothing ticked
    name = track_title(track) if track else "Default"
    picked = (chosen[:1] == (track,)) if track else (not chosen and not blank)
    if track is None:
        why = None if chosen else "No track is chosen: the default applies."
        click = None if why else partial(choose_recovery_action, ship, None)
        tip = ("Default: no choice; when the turn ends the ship recovers the track with "
               "the highest D-level.\n\n" + house_rule("TRI-H13"))
    else:
        why = ship_refusal(ship, lambda s: choose_recovery(s, track))
        click = None if why else partial(choose_recovery_action, ship, track)
        tip = (f"Choose {name.lower()}: the ship recovers 1 {name.lower()} D when the "
               "turn ends (one undo step).\n\n" + house_rule("TRI-H14"))
    return BoxAnswer(f"Recovery choice: {name}", state="chosen" if picked else "",
                     right=DECIDE, tooltip=tip, click=click, refusal=why)


# -- fuel and cargo ------------------------------------------------------------------------

def _no_fuel_answer(ship: "Ship") -> BoxAnswer:
    """[2018] the torch's unlimited fuel; the orbital base's none of its own."""
    spec = ship.ship_class.spec
    name = ship.ship_class.name
    if spec.fuel is None:
        return BoxAnswer("Fuel: unlimited", state="unlimited", right=DECIDE,
                         tooltip=f"Fuel: unlimited (a {name} never runs dry). There is "
                                 "nothing to track.")
    return BoxAnswer("Fuel: none of its own", state="none", right=DECIDE,
                     tooltip=f"Fuel: a {name} has no fuel of its own and "
                             f"{fuel_store_words(spec)} to refuel other ships.")


def _fuel_box_answer(ship: "Ship", i: int) -> BoxAnswer:
    """Fuel box ``i``: one left burns fuel down to it (the owner's); one burnt takes fuel
    on up to it (the referee's, [TRI-H29])."""
    spec = ship.ship_class.spec
    fuel = ship.state.get("fuel")
    spent = spec.fuel - fuel
    if i > spent:
        target = spec.fuel - i
        does = (f"Click: burn {i - spent} fuel ({fuel} → {target} left)."
                if i - spent > 1 else f"Click: burn 1 fuel ({fuel} → {target} left).")
    else:
        target = spec.fuel - i + 1
        does = f"Click: take on fuel up to this box ({fuel} → {target} left)."
    why = ship_refusal(ship, lambda s: set_fuel(s, target))
    burnt = i <= spent
    return BoxAnswer(f"Fuel box {i} of {spec.fuel}", state="burnt" if burnt else "left",
                     right=MARK if burnt else DECIDE,
                     tooltip=f"Fuel box {i} of {spec.fuel} ({'burnt' if burnt else 'left'}).\n{does}",
                     click=None if why else partial(fuel_action, ship, target), refusal=why)


def _no_hold_answer(ship: "Ship") -> BoxAnswer:
    return BoxAnswer("Cargo: no hold", state="none", right=DECIDE,
                     tooltip=f"Cargo: a {ship.ship_class.name} carries no cargo.")


def _cargo_answer(ship: "Ship", tons: int) -> BoxAnswer:
    """The scale's mark at ``tons``: the load circled; a click loads or unloads to it."""
    cargo = track_level(ship, "cargo")
    why = ship_refusal(ship, lambda s: set_cargo(s, tons))
    if tons == cargo:
        tip = f"Cargo {tons} t (circled: the load now)."
        click = None
        why = why or f"The ship carries {tons} t now."
    else:
        verb = "load" if tons > cargo else "unload"
        tip = f"Cargo {tons} t.\nClick: {verb} to {tons} t (now {cargo} t)."
        click = None if why else partial(cargo_action, ship, tons)
    return BoxAnswer(f"Cargo {tons} t", state="now" if tons == cargo else "", right=DECIDE,
                     tooltip=tip, click=click, refusal=why)


#: A counter's tracker: (its unit, the rule that sets it, the action that sets it).
_TALLIES = {FUEL_KEY: ("", set_fuel, fuel_action), CARGO_KEY: (" t", set_cargo, cargo_action)}


def _tally(ship: "Ship", tracker: str) -> tuple[int, int | None, str]:
    """(value, cap, unit) of a counter."""
    spec = ship.ship_class.spec
    if tracker == FUEL_KEY:
        return ship.state.get("fuel"), spec.fuel, ""
    return track_level(ship, "cargo"), spec.cargo, " t"


def _tally_answer(ship: "Ship", tracker: str) -> BoxAnswer:
    """The written-in number of fuel or cargo too big for boxes (hover only)."""
    value, cap, unit = _tally(ship, tracker)
    name = tracker.capitalize()
    return BoxAnswer(name, state=f"{value}{unit}", right=DECIDE,
                     tooltip=f"{name}: {value}{unit}" + (f" of {cap}{unit}" if cap is not None
                                                          else "")
                     + ". Set an exact amount in the Actions panel.")


def _step_answer(ship: "Ship", tracker: str, step: int) -> BoxAnswer:
    """A counter's −/+ step. Taking fuel on (+) is the referee's [TRI-H29]."""
    value, cap, unit = _tally(ship, tracker)
    _, rule, build = _TALLIES[tracker]
    name = tracker.capitalize()
    target = max(0, value + step)
    if cap is not None:
        target = min(cap, target)
    why = (f"{name} is already {value}{unit}." if target == value
           else ship_refusal(ship, lambda s: rule(s, target)))
    right = MARK if tracker == FUEL_KEY and step > 0 else DECIDE
    return BoxAnswer(f"{name} {step:+d}{unit}", right=right,
                     tooltip=f"{name} {step:+d}{unit}.\nClick: {value}{unit} → {target}{unit}.",
                     click=None if why else partial(build, ship, target), refusal=why)


__all__ = ["BOXES", "CARGO_KEY", "CARGO_SCALE_MAX", "CARGO_STEP", "COUNTER_KEY",
           "COUNTER_STEPS", "DAMAGE_ROLL_KEY", "DESTROYING", "E_BOX_KEY", "FUEL_BOXES_MAX",
           "FUEL_KEY", "LADDER_TOP", "OUT_OF_PLAY_KEY", "STANDARD_NOTE_KEY",
           "TriplanetaryBoxes", "advanced_tracks_drawn", "cargo_counted", "cargo_mark_key",
           "cargo_steps", "choice_drawn", "choice_key", "combat_system", "fuel_box_key",
           "fuel_counted", "fuel_store_words", "ladder_key", "out_of_play_words", "parse_key",
           "standard_track_drawn", "step_key", "thresholds"]
