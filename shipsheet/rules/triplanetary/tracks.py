"""The D-tracks of one ship: damage, recovery, maintenance, end of turn, status.

Rule functions act on a :class:`~shipsheet.model.Ship` directly and need no
session. Each checks everything first and raises :class:`RuleViolation`
(nothing changed) when the rules forbid the change.

Sources: the seed (``triplanetary-advanced-combat.txt``) for the tracks and
their thresholds, the [2018] lines for ship types and standard combat,
and our readings listed in :mod:`.house` (cited by id, e.g. [TRI-H7]).
"""

from __future__ import annotations

from ...model.code_cache import dataclass

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .definitions import MAX_AMOUNT, TriplanetaryClass
from .state import ALL_TRACKS, MAX_LEVEL, RECOVERY_PHASE, STANDARD_TRACK, TRACK_TITLES, TRACKS
from .tables import Damage, standard_levels

#: [seed] "D6 or below" (a D-level of 6 or more): structure destroys, weapons and drive
#: can no longer be repaired by recovery. Standard combat: "D6 or more ... destroys".
D6 = 6
#: [seed] "A dreadnaught can still fire if its weapon damage status is D1 through D3."
DREADNAUGHT_FIRES_UP_TO = 3


@dataclass(frozen=True)
class Status:
    """What a ship can do now, from its tracks and its type (see :func:`status`)."""

    can_fire: bool
    can_drop_ordnance: bool
    can_launch_mines: bool
    can_maneuver: bool
    destroyed: bool
    disabled: bool
    weapons_repairable: bool
    drive_repairable: bool
    lost_at_map_edge: bool
    weapon: int
    drive: int
    structure: int
    #: Lost at the map edge (an event, :func:`.events.lose_at_map_edge`): out of play.
    lost: bool = False


def _spec(ship: Ship) -> TriplanetaryClass:
    return ship.ship_class.spec


def track_level(ship: Ship, track: str) -> int:
    """The D-level of one track (0: undamaged), as the ship's state holds it."""
    return int(ship.state.get(track, 0) or 0)


def is_lost(ship: Ship) -> bool:
    """Marked lost at the map edge ([seed] "it will be lost when it reaches the edge of the
    map"; the event is :func:`.events.lose_at_map_edge`)."""
    return bool(ship.state.get("lost", False))


def out_of_play(ship: Ship) -> str | None:
    """Why the ship is out of play, in words ("destroyed", "lost at the map edge"), or None.

    [TRI-H7] a ship out of play can do nothing and takes no further damage."""
    if is_destroyed(ship):
        return "destroyed"
    if is_lost(ship):
        return "lost at the map edge"
    return None


def is_destroyed(ship: Ship) -> bool:
    """[seed] "if structure reaches D6 or below, the ship explodes"; standard [2018]:
    "D6 or more, or E, destroys the ship"."""
    return (track_level(ship, "structure") >= D6 or track_level(ship, STANDARD_TRACK) >= D6
            or bool(ship.state.get("eliminated", False)))


def status(ship: Ship) -> Status:
    """The ship's status, row by row from the table of the three damage tracks [seed].

    - [seed] "A ship with any weapon damage cannot fire any weapon or drop ordnance.
      Exception: A dreadnaught can still fire if its weapon damage status is D1 through D3."
    - [seed] "Weapon hits on transports and packets have no effect except to prevent their
      launching mines." (the ``mine_layer`` flag)
    - [seed] "A ship whose weapons reach D6 or below can no longer repair them; it must get
      back to a base ... It still defends normally."
    - [seed] "A ship with any drive damage cannot maneuver." / "drive reaches D6 or below
      may not be repaired; it will be lost when it reaches the edge of the map."
    - [seed] "disabled and lootable/capturable only if it can neither maneuver nor fire.
      Structure damage does not make a ship any more or less lootable."
    - [2018] defensive-only ("D") ships never attack; [2018] the orbital base is fixed.
    - [2018] standard combat: "A disabled ship cannot maneuver, launch ordnance or attack
      (dreadnaughts may still fire guns)."
    - [TRI-H7] a destroyed (or lost) ship can do nothing and is not "disabled"; [TRI-H6] a
      defensive-only ship drops no ordnance, but a mine layer (the transport) launches mines;
      [TRI-H21] a packet's or transport's weapon hits, at any D-level, only stop its mines;
      [TRI-H24] a dreadnaught at weapons D1–D3 fires but drops no ordnance; [TRI-H22] an
      orbital base never maneuvers, so a weapon hit leaves it disabled; [TRI-H23] a
      defensive-only ship never fires, so a drive hit leaves it disabled.
    """
    spec = _spec(ship)
    weapon, drive, structure = (track_level(ship, t) for t in TRACKS)
    if is_destroyed(ship) or is_lost(ship):
        return Status(False, False, False, False, is_destroyed(ship), False, False, False,
                      False, weapon, drive, structure, lost=not is_destroyed(ship))
    standard_disabled = track_level(ship, STANDARD_TRACK) > 0
    if spec.mine_layer:
        fire_blocked = ordnance_blocked = False
    elif spec.dreadnaught:
        fire_blocked = weapon > DREADNAUGHT_FIRES_UP_TO
        ordnance_blocked = weapon > 0
    else:
        fire_blocked = ordnance_blocked = weapon > 0
    if standard_disabled:
        fire_blocked = fire_blocked or not spec.dreadnaught
        ordnance_blocked = True
    can_fire = not spec.defensive_only and not fire_blocked
    can_drop_ordnance = not spec.defensive_only and not ordnance_blocked
    if spec.mine_layer:
        can_launch_mines = weapon == 0 and not standard_disabled
    else:
        can_launch_mines = can_drop_ordnance
    can_maneuver = not spec.fixed and drive == 0 and not standard_disabled
    return Status(
        can_fire=can_fire,
        can_drop_ordnance=can_drop_ordnance,
        can_launch_mines=can_launch_mines,
        can_maneuver=can_maneuver,
        destroyed=False,
        disabled=not can_fire and not can_maneuver,
        weapons_repairable=weapon < D6,
        drive_repairable=drive < D6,
        lost_at_map_edge=drive >= D6 and not spec.fixed,
        weapon=weapon,
        drive=drive,
        structure=structure,
    )


def standard_level(ship: Ship) -> int:
    """The standard-combat D-level (the single disabled track) [2018]."""
    return track_level(ship, STANDARD_TRACK)


def recovered_this_turn(ship: Ship) -> bool:
    """True once the ship has recovered 1 D since its last :func:`end_turn`."""
    return bool(ship.state.get("recovered", False))


def _refuse_destroyed(ship: Ship, doing: str) -> None:
    """[TRI-H7] A ship out of play (destroyed, or lost at the map edge) can do nothing."""
    why = out_of_play(ship)
    if why:
        raise RuleViolation(f"{ship.name} is {why}: it cannot {doing}.")


def _amount(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleViolation(f"{what} must be a whole number of at least 0, not {value!r}.")
    return value


def apply_damage(ship: Ship, *, weapon: int = 0, drive: int = 0, structure: int = 0) -> Status:
    """Add D-levels to the ship's tracks [seed] "Hits add to them"; returns the new status.

    Refused: damage to a destroyed ship, negative amounts, no damage at all.
    """
    add = Damage(_amount(weapon, "Weapon damage"), _amount(drive, "Drive damage"),
                 _amount(structure, "Structure damage"))
    _refuse_destroyed(ship, "take further damage")
    if not add:
        raise RuleViolation("There is no damage to apply (all three amounts are 0).")
    new = {track: track_level(ship, track) + n for track, n in zip(TRACKS, (add.weapon, add.drive, add.structure))}
    for track, level in new.items():
        _check_ceiling(ship, track, level)
    ship.state.update(new)
    return status(ship)


def _check_ceiling(ship: Ship, track: str, level: int) -> None:
    """[TRI-H12] A track stops at D10000 (past D6 nothing changes; a session file keeps no more)."""
    if level > MAX_LEVEL:
        raise RuleViolation(f"{ship.name}'s {TRACK_TITLES[track].lower()} track would reach D{level}; "
                            f"ShipSheet keeps D-levels up to D{MAX_LEVEL}.")


def apply_standard(ship: Ship, result: str) -> Status:
    """Apply a standard-combat result ("D1"…"D5" or "E") to the single disabled track.

    [2018] "D-results accumulate on one track; D6 or more, or E, destroys the ship."
    """
    try:
        levels = standard_levels(result)
    except ValueError as exc:
        raise RuleViolation(f"{exc}.") from None
    if result is None:
        raise RuleViolation("There is no standard combat result to apply.")
    _refuse_destroyed(ship, "take further damage")
    if result == "E":
        ship.state["eliminated"] = True
        return status(ship)
    return add_standard(ship, levels)


def add_standard(ship: Ship, levels: int) -> Status:
    """Add D-levels to the standard-combat disabled track [2018] "D-results accumulate"."""
    levels = _amount(levels, "Standard combat damage")
    _refuse_destroyed(ship, "take further damage")
    if not levels:
        raise RuleViolation("There is no damage to apply (0 D).")
    _check_ceiling(ship, STANDARD_TRACK, track_level(ship, STANDARD_TRACK) + levels)
    ship.state[STANDARD_TRACK] = track_level(ship, STANDARD_TRACK) + levels
    return status(ship)


def recoverable_tracks(ship: Ship) -> list[str]:
    """The tracks the owner may recover now (empty when none may be): the choices of
    :func:`recover` ([seed] "The ship's owner chooses what kind of damage to recover from";
    [TRI-H2] the refusals listed there)."""
    if out_of_play(ship) or recovered_this_turn(ship):
        return []
    return [t for t in ALL_TRACKS if _recover_refusal(ship, t) is None]


def _recover_refusal(ship: Ship, track: str) -> str | None:
    level = track_level(ship, track)
    title = TRACK_TITLES[track]
    if level == 0:
        return f"{ship.name}'s {title.lower()} track is at D0: there is nothing to recover."
    if track == "weapon" and level >= D6:
        return (f"{ship.name}'s weapons are at D{level}: weapons at D6 or worse are repaired "
                "only by maintenance at a base.")
    if track == "drive" and level >= D6:
        return f"{ship.name}'s drive is at D{level}: a drive at D6 or worse cannot be repaired."
    return None


def recover(ship: Ship, track: str, *, phase: str) -> int:
    """Recover 1 D on ``track`` now; returns the track's new D-level.

    [seed] "A ship recovers from 1 D a turn ... The ship's owner chooses what kind of
    damage to recover from." [TRI-H1] recovery closes the turn: recovering *now* is
    allowed in the Recovery phase only (``phase`` is the session's phase); at any other
    time the owner sets a choice (:func:`.recovery.choose_recovery`) and the ship recovers
    by it when the turn ends. [TRI-H2] at most once between two ends of turn; refused on a
    track at D0, weapons D6+ (base only), drive D6+ (never), a ship out of play.
    ``track`` is ``"weapon"``, ``"drive"``, ``"structure"`` or, under standard combat,
    ``"standard"`` (the disabled track).
    """
    if track not in ALL_TRACKS:
        raise RuleViolation(f'Unknown track "{track}" (expected one of: {", ".join(ALL_TRACKS)}).')
    _refuse_destroyed(ship, "recover")
    if recovered_this_turn(ship):
        raise RuleViolation(f"{ship.name} has already recovered 1 D this turn "
                            "(a ship recovers 1 D per turn).")
    refusal = _recover_refusal(ship, track)
    if refusal:  # what the track itself forbids comes before the phase
        raise RuleViolation(refusal)
    if phase != RECOVERY_PHASE:
        raise RuleViolation(
            f"A ship recovers in the {RECOVERY_PHASE} phase, which closes the turn; this is the "
            f"{phase} phase (house rule TRI-H1). Choose the track now and {ship.name} "
            "recovers it when the turn ends.")
    return recover_one(ship, track)


def recover_one(ship: Ship, track: str) -> int:
    """The recovery itself, wherever the turn is (the Recovery phase, or the end of the turn
    carrying out the owner's choice): 1 D off ``track``, the ship's one recovery this turn.
    Refused as :func:`recover` refuses it, except for the phase."""
    _refuse_destroyed(ship, "recover")
    if recovered_this_turn(ship):
        raise RuleViolation(f"{ship.name} has already recovered 1 D this turn "
                            "(a ship recovers 1 D per turn).")
    refusal = _recover_refusal(ship, track)
    if refusal:
        raise RuleViolation(refusal)
    ship.state[track] = track_level(ship, track) - 1
    ship.state["recovered"] = True
    return ship.state[track]


def is_damaged(ship: Ship) -> bool:
    """True when any track is above D0."""
    return any(track_level(ship, t) for t in ALL_TRACKS)


def maintain(ship: Ship) -> Status:
    """Maintenance at a base: every track back to D0, drive and weapons D6+ included.

    [seed] "A ship which reaches a base and undergoes maintenance is immediately restored
    to full operating status." [2018] "... unless destroyed". Refused for a destroyed ship
    and, [TRI-H8], for an undamaged one (nothing to repair).
    """
    _refuse_destroyed(ship, "undergo maintenance")
    if not is_damaged(ship):
        raise RuleViolation(f"{ship.name} is undamaged: maintenance has nothing to repair.")
    for track in ALL_TRACKS:
        ship.state[track] = 0
    return status(ship)


def set_fuel(ship: Ship, fuel: int) -> int:
    """Set the fuel left (0 to the type's fuel); refused for unlimited fuel or a destroyed ship.

    [2018] the ship types' fuel ("Torch ... unlimited"); [product]: "The sheet shows fuel and
    cargo as trackable boxes or counters"; [TRI-H7] a ship out of play can do nothing.
    """
    spec = _spec(ship)
    _refuse_destroyed(ship, "take on or burn fuel")
    if spec.fuel is None:
        raise RuleViolation(f"{ship.name} has unlimited fuel: there is nothing to track.")
    fuel = _amount(fuel, "Fuel")
    if fuel > spec.fuel:
        raise RuleViolation(f"A {ship.ship_class.name} holds at most {spec.fuel} fuel, not {fuel}.")
    ship.state["fuel"] = fuel
    return fuel


def set_cargo(ship: Ship, cargo: int) -> int:
    """Set the cargo carried in tons (0 to the type's capacity); refused for a destroyed ship.

    [2018] the ship types' cargo (t) ("Orbital Base ... unlimited"); [product]: "trackable boxes
    or counters"; [TRI-H7] a ship out of play can do nothing; [TRI-H12] cargo stops at
    100,000 t.
    """
    spec = _spec(ship)
    _refuse_destroyed(ship, "load or unload cargo")
    cargo = _amount(cargo, "Cargo")
    if spec.cargo is not None and cargo > spec.cargo:
        raise RuleViolation(f"A {ship.ship_class.name} carries at most {spec.cargo} t, not {cargo} t.")
    if cargo > MAX_AMOUNT:  # [TRI-H12] "unlimited" cargo is still kept as a number
        raise RuleViolation(f"ShipSheet records cargo up to {MAX_AMOUNT} t, not {cargo} t.")
    ship.state["cargo"] = cargo
    return cargo


def levels(ship: Ship) -> dict[str, int]:
    """The D-level of every track, e.g. ``{"weapon": 2, "drive": 0, ...}``."""
    return {t: track_level(ship, t) for t in ALL_TRACKS}


def describe_levels(ship: Ship) -> str:
    """The tracks in words: ``"weapons D2, drive D0, structure D1"`` (+ standard if used)."""
    parts = [f"{TRACK_TITLES[t].lower()} D{track_level(ship, t)}" for t in TRACKS]
    if track_level(ship, STANDARD_TRACK):
        parts.append(f"disabled D{track_level(ship, STANDARD_TRACK)}")
    if ship.state.get("eliminated"):
        parts.append("eliminated (E)")
    return ", ".join(parts)
