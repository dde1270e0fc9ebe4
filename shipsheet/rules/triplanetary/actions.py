"""Action builders: each user click on a Triplanetary sheet or dialog is one of these.

Each returns a :class:`~shipsheet.model.ShipAction` or
:class:`~shipsheet.model.SessionAction` for ``session.apply``: one action is
one undo step, and its log lines say what happened.
"""

from __future__ import annotations

from typing import Any, Iterable

from shipsheet.model.actions import SessionAction, ShipAction
from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from . import events, ordnance
from .combat import (ADVANCED, COMBAT_SYSTEMS, GUNS, STANDARD, AttackResult, _check_defenders,
                     _check_source, check_attacker, check_gun_timing, resolve_attack,
                     resolve_other)
from .privacy import RECOVERY
from .recovery import choose_recovery, describe_choice
from .state import ALL_TRACKS, TRACK_TITLES
from .tables import Damage
from .tracks import (add_standard, apply_damage, apply_standard, describe_levels, is_destroyed,
                     maintain, recover, set_cargo, set_fuel)


def _apply_result(result: AttackResult, session, ctx) -> None:
    """Check every target and attacker first (and the attack's time [TRI-H15, TRI-H16], or
    its ordnance's source [TRI-H19]), then apply; one log line per target."""
    targets = [session.ship(t.ship_id) for t in result.targets]
    attackers = [session.ship(sid) for sid in result.attackers]
    _check_defenders(targets)
    if result.kind == GUNS:
        for ship in attackers:
            check_attacker(ship)
        rulings = check_gun_timing(session.phase, attackers, out_of_phase=result.out_of_phase,
                                   second_attack=result.second_attack)
    else:
        rulings = _check_source(result.kind, attackers, result.launch, result.no_source)
    dice = [result.roll_rolled] if result.roll is not None else []
    dice += [d.rolled for d in result.damage_rolls]
    how = "" if not dice else (" (dice rolled)" if all(dice) else
                               " (dice typed in)" if not any(dice) else " (dice rolled and typed in)")
    ctx.log(result.headline() + how)
    for ruling in rulings:
        ctx.log(f"Referee: {ruling}")
    if result.kind == GUNS:
        for ship in attackers:
            ship.state["fired"] = True
    elif attackers and result.launch is not None:
        entry = ordnance.spend(attackers[0], result.launch)
        ctx.log(f"{ordnance.describe_launch(attackers[0], entry)} is spent", ship=attackers[0].id)
    by = attackers[0].id if attackers else None
    if len(attackers) > 1:
        # Each attacker of a joint attack gets a line of its own (``by`` names one ship).
        names = ", ".join(t.name for t in targets)
        for ship in attackers:
            others = ", ".join(a.name for a in attackers if a is not ship)
            ctx.log(f"attacks {names} together with {others}", ship=ship.id)
    for preview, ship in zip(result.targets, targets):
        if preview.damage:
            apply_damage(ship, weapon=preview.damage.weapon, drive=preview.damage.drive,
                         structure=preview.damage.structure)
        if preview.standard_result:
            apply_standard(ship, preview.standard_result)
        # [LogEntry.by] the attacker (the first, when several attack together), so a
        # play-by-e-mail turn report gives each player the attacks their ships made or took.
        ctx.log(_target_line(result, ship), ship=ship.id, by=by)


def _target_line(result: AttackResult, ship: Ship) -> str:
    """The one log line of one target: what hit it and its tracks now."""
    preview = next(t for t in result.targets if t.ship_id == ship.id)
    if not preview.affected:
        return "no effect"
    if result.combat == STANDARD:
        what = f"standard result {preview.standard_result}"
    else:
        rolls = [f"{d.roll} → {d.damage.describe()}" for d in result.damage_rolls
                 if ship.id in d.targets]
        what = f"damage roll{'s' if len(rolls) > 1 else ''} " + "; ".join(rolls)
    now = "DESTROYED" if is_destroyed(ship) else f"now {describe_levels(ship)}"
    return f"{what}. {now[0].upper()}{now[1:]}."


def _attack_name(kind: str, names: str, by: Iterable[Ship] = ()) -> str:
    """"Gun attack by Kite on Ajax": the headline names the attackers when they are known
    (a turn report reads every attack with who made it)."""
    who = ", ".join(s.name for s in by)
    return (f"{'Gun' if kind == GUNS else kind.capitalize()} attack"
            + (f" by {who}" if who else "") + f" on {names}")


def apply_attack(result: AttackResult) -> SessionAction:
    """One action applying a resolved attack to all its targets (one undo step).

    Logs the attack's headline and one line per target (filed under that ship). Refused
    at apply time if a target was destroyed or an attacker can no longer fire meanwhile.
    """
    names = ", ".join(t.name for t in result.targets)
    return SessionAction(_attack_name(result.kind, names),
                         lambda s, ctx: _apply_result(result, s, ctx),
                         ships=[t.ship_id for t in result.targets] + list(result.attackers))


def attack(attackers: Ship | Iterable[Ship], defenders: Ship | Iterable[Ship],
           **options: Any) -> SessionAction:
    """One action that resolves a gun attack with the session's dice and applies it.

    ``options`` are those of :func:`resolve_attack` (``out_of_phase``, ``second_attack``:
    the referee's overrides [TRI-H15, TRI-H16]); rolls not given are rolled inside the
    action (so they are logged, and undo rewinds the dice); the combat system is the
    session's option unless ``combat`` is given.
    """
    attackers = [attackers] if isinstance(attackers, Ship) else list(attackers)
    defenders = [defenders] if isinstance(defenders, Ship) else list(defenders)
    a_ids = [s.id for s in attackers]
    d_ids = [s.id for s in defenders]

    def fn(session, ctx):
        result = resolve_attack([session.ship(i) for i in a_ids],
                                [session.ship(i) for i in d_ids], session=session, **options)
        _apply_result(result, session, ctx)

    return SessionAction(_attack_name(GUNS, ", ".join(s.name for s in defenders), attackers),
                         fn, ships=d_ids + a_ids)


def other_damage(kind: str, defenders: Ship | Iterable[Ship], *,
                 sources: Ship | Iterable[Ship] = (), **options: Any) -> SessionAction:
    """One action that resolves other damage (torpedo, mine, asteroid, ram) and applies it.

    ``sources`` and ``options`` are those of :func:`resolve_other` (a torpedo or mine names
    its ``launch`` or its source [TRI-H19])."""
    defenders = [defenders] if isinstance(defenders, Ship) else list(defenders)
    sources = [sources] if isinstance(sources, Ship) else list(sources)
    d_ids = [s.id for s in defenders]
    s_ids = [s.id for s in sources]

    def fn(session, ctx):
        result = resolve_other(kind, [session.ship(i) for i in d_ids], session=session,
                               sources=[session.ship(i) for i in s_ids], **options)
        _apply_result(result, session, ctx)

    return SessionAction(_attack_name(kind, ", ".join(s.name for s in defenders), sources),
                         fn, ships=d_ids + s_ids)


def _attacker_id(attacker: Ship | str | None) -> str | None:
    """The attacking ship's id (a ship or its id), or None when it is not known."""
    if attacker is None:
        return None
    return attacker if isinstance(attacker, str) else attacker.id


def _check_attacker(session, attacker_id: str | None, target: Ship) -> str | None:
    """The attacker's id, checked to be another ship of the session (refused otherwise)."""
    if attacker_id is None:
        return None
    attacker = session.ship(attacker_id)  # refuses a ship not in the session
    if attacker.id == target.id:
        raise RuleViolation(f"{target.name} cannot be its own attacker.")
    return attacker.id


def damage_action(ship: Ship, *, weapon: int = 0, drive: int = 0,
                  structure: int = 0, attacker: Ship | str | None = None) -> ShipAction:
    """Mark damage by hand (e.g. a click on a D-track ladder). ``attacker`` (a ship or its
    id; None: not known): the ship that did it, recorded as the log line's ``by``."""
    damage = Damage(weapon, drive, structure)
    attacker_id = _attacker_id(attacker)

    def fn(s: Ship, ctx):
        by = _check_attacker(ctx.session, attacker_id, s)
        apply_damage(s, weapon=weapon, drive=drive, structure=structure)
        ctx.log(f"{damage.describe()} → {'DESTROYED' if is_destroyed(s) else describe_levels(s)}",
                by=by)

    return ShipAction(f"Mark {damage.describe()}", ship, fn)


def recover_action(ship: Ship, track: str) -> ShipAction:
    """Recover 1 D on ``track`` now: in the Recovery phase only [TRI-H1] (at any other time
    the owner chooses, :func:`choose_recovery_action`, and the turn's end carries it out)."""
    title = TRACK_TITLES.get(track, track).lower()

    def fn(s: Ship, ctx):
        before = int(s.state.get(track, 0))
        after = recover(s, track, phase=ctx.session.phase)
        return f"{title} D{before} → D{after}"

    return ShipAction(f"Recover 1 {title} D", ship, fn)


def choose_recovery_action(ship: Ship, tracks: str | Iterable[str] | None) -> ShipAction:
    """The owner's recovery choice: a track, tracks in order of preference, or None to clear
    it (the default then applies [TRI-H13]); may be set at any time in the turn, and stands
    until changed [TRI-H14]. One logged, undoable action."""
    chosen = [tracks] if isinstance(tracks, str) else list(tracks or [])
    label = (f"Recovery choice: {describe_choice(chosen)}" if all(t in TRACK_TITLES for t in chosen)
             else "Recovery choice")
    return ShipAction(label, ship, lambda s, ctx: choose_recovery(s, chosen or None),
                      private=RECOVERY)  # the owner's, never shown to others


def mark_level(ship: Ship, track: str, level: int, *, phase: str) -> str:
    """A click on D``level`` of a track ladder: higher marks damage, one lower recovers 1 D
    (in the Recovery phase only, [TRI-H1]; ``phase`` is the session's phase).

    Returns what was done in words. Anything else is refused with the reason
    ([seed] recovery is 1 D a turn; [seed] maintenance at a base clears every track;
    [TRI-H11] the ladder's clicks).
    """
    if track not in ALL_TRACKS:
        raise RuleViolation(f'Unknown track "{track}" (expected one of: {", ".join(ALL_TRACKS)}).')
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise RuleViolation(f"A D-level is a whole number of at least 0, not {level!r}.")
    current = int(ship.state.get(track, 0))
    title = TRACK_TITLES[track].lower()
    if level == current:
        raise RuleViolation(f"{ship.name}'s {title} track is already at D{level}.")
    if level > current:
        if track == "standard":
            add_standard(ship, level - current)
        else:
            apply_damage(ship, **{track: level - current})
        return f"{title} D{current} → D{level}"
    if level == current - 1:
        recover(ship, track, phase=phase)
        return f"recovers 1 D: {title} D{current} → D{level}"
    raise RuleViolation(f"A ship recovers 1 D per turn: {ship.name}'s {title} can go from "
                        f"D{current} to D{current - 1} only (maintenance at a base clears "
                        "every track).")


def mark_level_action(ship: Ship, track: str, level: int) -> ShipAction:
    """The action for a click on D``level`` of a track ladder (see :func:`mark_level`)."""
    title = TRACK_TITLES.get(track, track)
    return ShipAction(f"Set {title} D{level}", ship,
                      lambda s, ctx: mark_level(s, track, level, phase=ctx.session.phase))


def standard_result_action(ship: Ship, result: str, *,
                           attacker: Ship | str | None = None) -> ShipAction:
    """A standard-combat result ("D1"…"D5" or "E") marked by hand on the disabled track
    ([2018] "D-results accumulate on one track; D6 or more, or E, destroys the ship").
    ``attacker``: as for :func:`damage_action`."""
    attacker_id = _attacker_id(attacker)

    def fn(s: Ship, ctx):
        by = _check_attacker(ctx.session, attacker_id, s)
        apply_standard(s, result)
        ctx.log(f"standard result {result}: {describe_levels(s)}"
                + ("; destroyed" if is_destroyed(s) else ""), by=by)

    return ShipAction(f"Mark {result}" + (" (eliminated)" if result == "E" else ""), ship, fn)


def maintain_action(ship: Ship) -> ShipAction:
    """Maintenance at a base: every track back to D0."""
    def fn(s: Ship, ctx):
        before = describe_levels(s)
        maintain(s)
        return f"maintenance at a base: {before} → all tracks D0"

    return ShipAction("Maintenance at a base", ship, fn)


def fuel_action(ship: Ship, fuel: int) -> ShipAction:
    """Set the fuel left."""
    def fn(s: Ship, ctx):
        before = s.state.get("fuel")
        set_fuel(s, fuel)
        return f"fuel {before} → {fuel}"

    return ShipAction(f"Set fuel to {fuel}", ship, fn)


def cargo_action(ship: Ship, cargo: int) -> ShipAction:
    """Set the cargo carried (tons)."""
    def fn(s: Ship, ctx):
        before = s.state.get("cargo")
        set_cargo(s, cargo)
        return f"cargo {before} t → {cargo} t"

    return ShipAction(f"Set cargo to {cargo} t", ship, fn)


def launch_ordnance_action(ship: Ship, kind: str, *, out_of_phase: bool = False,
                           second_launch: bool = False) -> ShipAction:
    """Launch a torpedo, a mine or a nuke: checked at launch (:func:`.ordnance.check_launch`,
    the seed's words), in the Ordnance phase, one a turn [TRI-H18] unless the referee rules
    ``out_of_phase`` / ``second_launch`` (logged). The launch is numbered and stays in
    flight until an attack spends it or it is removed."""
    def fn(s: Ship, ctx):
        rulings = ordnance.check_launch_timing(s, ctx.session.phase, out_of_phase=out_of_phase,
                                               second_launch=second_launch)
        entry = ordnance.launch(s, kind, ctx.session.turn)
        lines = [f"launches {kind} {entry['n']}"
                 + (" (its effect is marked by hand: house rule TRI-H20)" if kind == "nuke" else "")]
        return lines + [f"Referee: {r}" for r in rulings]

    return ShipAction(f"Launch {kind}", ship, fn)


def remove_ordnance_action(ship: Ship, n: int) -> ShipAction:
    """Take launch ``n`` off the map (it missed, left the map, or was used by hand)."""
    def fn(s: Ship, ctx):
        entry = ordnance.spend(s, n)
        return f"{entry['kind']} {n} (turn {entry['turn']}) removed from the map"

    return ShipAction(f"Remove launch {n}", ship, fn)


def lose_at_map_edge_action(ship: Ship, *, referee: bool = False) -> ShipAction:
    """The ship leaves the map: lost (drive D6 or worse [seed], or the referee's ruling
    [TRI-H25])."""
    return ShipAction("Lost at the map edge" + (" (referee)" if referee else ""), ship,
                      lambda s, ctx: events.lose_at_map_edge(s, referee=referee))


def loot_action(looter: Ship, target: Ship, tons: int) -> SessionAction:
    """``looter`` takes ``tons`` of cargo from a disabled ``target`` [seed] "lootable";
    [TRI-H26]. One undo step; a log line under each ship."""
    lid, tid = looter.id, target.id

    def fn(session, ctx):
        a, b = session.ship(lid), session.ship(tid)
        events.loot(a, b, tons)
        ctx.log(f"loots {tons} t from {b.name}; hold now {a.state['cargo']} t", ship=lid)
        ctx.log(f"looted by {a.name}: {tons} t taken; {b.state['cargo']} t left", ship=tid)

    return SessionAction(f"{looter.name} loots {target.name}", fn, ships=[lid, tid])


def capture_action(captor: Ship, target: Ship) -> SessionAction:
    """A disabled ``target`` is captured and joins ``captor``'s side [seed] "capturable";
    [TRI-H27]. One undo step; a log line under each ship."""
    cid, tid = captor.id, target.id

    def fn(session, ctx):
        a, b = session.ship(cid), session.ship(tid)
        line = events.capture(a, b)
        ctx.log(line, ship=tid)
        ctx.log(f"captures {b.name}", ship=cid)

    return SessionAction(f"{captor.name} captures {target.name}", fn, ships=[cid, tid])


def combat_option_action(system: str) -> SessionAction:
    """Choose the session's combat system: ``"advanced"`` (the seed's ACS) or ``"standard"``."""
    if system not in COMBAT_SYSTEMS:
        raise RuleViolation(f'Unknown combat system "{system}" (expected advanced or standard).')

    def fn(session, ctx):
        if session.options.get("combat", ADVANCED) == system:
            raise RuleViolation(f"This session already uses {system} combat.")
        session.options["combat"] = system
        ctx.log("standard combat table (D1–D5/E, one disabled track)" if system == STANDARD
                else "Advanced Combat System (weapon, drive and structure tracks)")

    label = "standard" if system == STANDARD else "advanced"
    return SessionAction(f"Use {label} combat", fn, ships=())


__all__ = ["apply_attack", "attack", "capture_action", "cargo_action", "choose_recovery_action",
           "combat_option_action", "damage_action", "fuel_action", "launch_ordnance_action",
           "lose_at_map_edge_action", "loot_action", "maintain_action", "mark_level",
           "mark_level_action", "other_damage", "recover_action", "remove_ordnance_action",
           "standard_result_action"]
