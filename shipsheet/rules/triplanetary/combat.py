"""Attack resolution: guns (:func:`resolve_attack`) and other damage (:func:`resolve_other`).

Both work out everything an attack does — odds column, to-hit roll, modified
roll, hits, each damage roll, and a preview of every target's tracks — and
change nothing. :func:`shipsheet.rules.triplanetary.actions.apply_attack`
turns the result into one undoable action.

Rolls are either given (physical dice, each checked to be 1–6) or drawn from
``rng`` (the session's :class:`~shipsheet.model.Dice`, or anything with
``randint``). [seed] "Two die rolls are made for each attack. The first roll
determines if any hits are scored ... Then a damage roll is made for each hit."

Several targets attacked together [TRI-H3]: their strengths add [2018]; by
default every damage roll applies to **each** target (``distribute="each"``),
the way one combat result applies to every ship attacked together; with
``distribute="in-turn"`` the damage rolls are dealt out one per target in the
order given, first target first. See :data:`.house.HOUSE_RULES`.

When [TRI-H15, TRI-H16]: gun attacks are made in the Combat phase, and a ship that has
fired in a Combat phase does not fire again in it (a counter-attack is the attacked ship's
own attack in the same phase); the referee may override either, and the log says so.
Torpedo and mine attacks name their launch or their source [TRI-H19] (:mod:`.ordnance`).
"""

from __future__ import annotations

from dataclasses import field
from ...model.code_cache import dataclass
from typing import Any, Iterable, Sequence

from shipsheet.model.dice import check_die
from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship
from shipsheet.model.trial import trial_ship

from .ordnance import ATTACKING_ORDNANCE, check_launch, find_launch
from .rulings import Rulings
from .state import COMBAT
from .tables import (OTHER_KINDS, Damage, damage_for_roll, gun_hits, gun_modifier_parts,
                     odds_column, other_hits, standard_gun_result, standard_other_result)
from .tracks import Status, apply_damage, apply_standard, out_of_play, status

ADVANCED = "advanced"
STANDARD = "standard"
COMBAT_SYSTEMS = (ADVANCED, STANDARD)
DISTRIBUTIONS = ("each", "in-turn")
GUNS = "guns"


@dataclass(frozen=True)
class DamageRoll:
    """One damage roll [seed] "Damage Roll": the die, what it does, and whom it hits."""

    roll: int
    damage: Damage
    targets: tuple[str, ...]  # ship ids
    rolled: bool  # True: drawn from the dice; False: typed in


@dataclass(frozen=True)
class TargetPreview:
    """One target: what the attack adds to it and its status before and after."""

    ship_id: str
    name: str
    damage: Damage  # advanced combat: D-levels added to weapon/drive/structure
    standard_result: str | None  # standard combat: "D1"…"D5", "E" or None
    before: Status
    after: Status
    standard_before: int = 0
    standard_after: int = 0
    #: The target's whole state after the attack (a copy; for previews such as the sheet's).
    state_after: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def affected(self) -> bool:
        return bool(self.damage) or self.standard_result is not None


@dataclass(frozen=True)
class AttackResult:
    """Everything one attack does; applies nothing by itself.

    ``kind`` is ``"guns"`` or one of ``torpedo``, ``mine``, ``asteroid``, ``ram``;
    ``combat`` is ``"advanced"`` (the seed's ACS) or ``"standard"`` (the session option).
    ``roll`` is the to-hit die (None when the odds are worse than 1:4 and nothing was
    rolled), ``modified_roll`` the roll after modifiers (before the 1–6 limits), ``hits``
    the advanced-combat hits, ``standard_result`` the standard-combat result.
    """

    kind: str
    combat: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    attack: int | None
    defense: int | None
    column: str | None
    roll: int | None
    roll_rolled: bool
    modifier: int
    modified_roll: int | None
    hits: int
    standard_result: str | None
    damage_rolls: tuple[DamageRoll, ...]
    targets: tuple[TargetPreview, ...]
    distribute: str = "each"
    full_strength: int | None = None
    #: The die modifiers with their reasons (they add up to ``modifier``).
    modifiers: tuple[tuple[str, int], ...] = ()
    #: The referee's rulings this attack needed ("out of phase", "second attack", "no
    #: source"), in words for the log [TRI-H15, TRI-H16, TRI-H19].
    rulings: tuple[str, ...] = ()
    #: Ordnance: the source's launch number this attack spends, or None.
    launch: int | None = None
    #: The options the attack was resolved with (timing overrides), for the action.
    out_of_phase: bool = False
    second_attack: bool = False
    no_source: bool = False

    @property
    def no_effect(self) -> bool:
        return not any(t.affected for t in self.targets)

    def headline(self) -> str:
        """One line: ``"Guns 8 vs 4 (2:1), roll 5 − 1 = 4: 1 hit"``."""
        if self.kind == GUNS:
            less = (f" of {self.full_strength}"
                    if self.full_strength is not None and self.attack != self.full_strength else "")
            text = f"Guns {self.attack}{less} vs {self.defense} ({self.column or 'worse than 1:4'})"
        else:
            text = self.kind.capitalize()
        if self.roll is not None:
            text += f", roll {self.roll}"
            if self.modifier:
                sign = "+" if self.modifier > 0 else "−"
                text += f" {sign} {abs(self.modifier)} = {self.modified_roll}"
        if self.combat == STANDARD:
            outcome = self.standard_result or "no effect"
        else:
            outcome = f"{self.hits} hit{'s' if self.hits != 1 else ''}" if self.hits else "no effect"
        return f"{text}: {outcome}"

    def lines_for(self, ship_id: str) -> list[str]:
        """Log lines for one target: the damage rolls that hit it and its tracks after."""
        target = next(t for t in self.targets if t.ship_id == ship_id)
        lines = []
        for i, d in enumerate(self.damage_rolls, 1):
            if ship_id in d.targets:
                how = "rolled" if d.rolled else "typed in"
                lines.append(f"damage roll {i}: {d.roll} ({how}) → {d.damage.describe()}")
        if self.combat == STANDARD and target.standard_result:
            lines.append(f"standard result {target.standard_result}")
        if not target.affected:
            lines.append("no effect")
        return lines


def _ships(value: Ship | Iterable[Ship], what: str) -> list[Ship]:
    ships = [value] if isinstance(value, Ship) else list(value)
    for ship in ships:
        if not isinstance(ship, Ship):
            raise RuleViolation(f"{what} must be ships, not {ship!r}.")
        if ship.game != "triplanetary":
            raise RuleViolation(f"{ship.name} is not a Triplanetary ship.")
    ids = [s.id for s in ships]
    if len(set(ids)) != len(ids):
        raise RuleViolation(f"The same ship is listed twice among the {what}.")
    return ships


def _check_defenders(defenders: list[Ship]) -> None:
    """Refuse an attack with no target or on a ship out of play ([TRI-H7] a destroyed or
    lost ship can do nothing and takes no further damage)."""
    if not defenders:
        raise RuleViolation("An attack needs at least one target.")
    for ship in defenders:
        why = out_of_play(ship)
        if why:
            raise RuleViolation(f"{ship.name} is already {why}: it cannot be attacked.")


def check_attacker(ship: Ship) -> None:
    """Refuse a gun attacker the rules forbid: defensive-only, destroyed, or unable to fire.

    [2018] "D" after the combat strength: "the ship may never attack or counterattack";
    [seed] "A ship with any weapon damage cannot fire any weapon" (the dreadnaught
    exception and standard combat's disabled ship come from :func:`.tracks.status`);
    [TRI-H7] a ship out of play can do nothing.
    """
    spec = ship.ship_class.spec
    why = out_of_play(ship)
    if why:
        raise RuleViolation(f"{ship.name} is {why}: it cannot attack.")
    if spec.defensive_only:
        raise RuleViolation(
            f"{ship.name} is a {ship.ship_class.name} ({spec.strength_label}), defensive only: "
            "it may never attack.")
    st = status(ship)
    if not st.can_fire:
        why = f"weapons D{st.weapon}" if st.weapon else "disabled"
        raise RuleViolation(f"{ship.name} cannot fire ({why}).")


def check_gun_timing(phase: str, attackers: Iterable[Ship], *, out_of_phase: bool = False,
                     second_attack: bool = False) -> tuple[str, ...]:
    """Refuse a gun attack out of its time; returns the referee's rulings that allowed it.

    [TRI-H15] gun attacks are made in the Combat phase (``phase`` is the session's);
    [TRI-H16] a ship that has fired in a Combat phase cannot fire again in it — a
    counter-attack is the attacked ship's own attack in the same phase, so it is allowed
    when that ship has not fired yet. ``out_of_phase`` / ``second_attack``: the referee's
    override, logged.
    """
    rulings = Rulings()
    rulings.require(phase == COMBAT, out_of_phase,
                    f"Gun attacks are made in the {COMBAT} phase; this is the {phase} phase "
                    "(house rule TRI-H15). The referee may tick “out of phase”.",
                    f"gun attack out of phase ({phase}): referee's ruling")
    fired = [s.name for s in attackers if s.state.get("fired")]
    names = ", ".join(fired)
    rulings.require(not fired, second_attack,
                    f"{names} {'has' if len(fired) == 1 else 'have'} fired in this Combat phase "
                    "already: a ship fires once per Combat phase (house rule TRI-H16). The "
                    "referee may tick “second attack”.",
                    f"second attack this Combat phase for {names}: referee's ruling")
    return tuple(rulings.words)


def _draw(rng: Any, reason: str) -> int:
    roll = getattr(rng, "roll", None)
    if callable(roll):
        return int(roll(6, reason))
    return int(rng.randint(1, 6))


def _to_hit(to_hit_roll: int | None, rng: Any) -> tuple[int, bool]:
    if to_hit_roll is not None:
        return check_die(to_hit_roll, 6, "the to-hit roll"), False
    if rng is None:
        raise RuleViolation("Give the to-hit roll (a d6), or dice to roll it with.")
    return _draw(rng, "the to-hit roll"), True


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _damage_rolls(hits: int, given: Sequence[int] | None, rng: Any) -> list[tuple[int, bool]]:
    given = list(given or [])
    if len(given) > hits:
        need = f"need {_count(hits, 'damage roll')}" if hits else "need no damage roll"
        raise RuleViolation(f"{_count(hits, 'hit')} {need}; {len(given)} "
                            f"{'was' if len(given) == 1 else 'were'} given.")
    rolls = [(check_die(v, 6, f"damage roll {i}"), False) for i, v in enumerate(given, 1)]
    while len(rolls) < hits:
        if rng is None:
            raise RuleViolation(f"{_count(hits, 'hit')}: give {_count(hits, 'damage roll')} "
                                "(d6), or dice to roll them with.")
        rolls.append((_draw(rng, f"damage roll {len(rolls) + 1}"), True))
    return rolls


def _preview(defenders: list[Ship], per_target: dict[str, Damage],
             standard: str | None) -> tuple[TargetPreview, ...]:
    previews = []
    for ship in defenders:
        damage = per_target.get(ship.id, Damage())
        before = status(ship)
        trial = trial_ship(ship)
        if damage:
            apply_damage(trial, weapon=damage.weapon, drive=damage.drive,
                         structure=damage.structure)
        if standard:
            apply_standard(trial, standard)
        previews.append(TargetPreview(ship.id, ship.name, damage, standard, before,
                                      status(trial), int(ship.state.get("standard", 0)),
                                      int(trial.state.get("standard", 0)), trial.state))
    return tuple(previews)


def _finish(kind: str, combat: str, attackers: list[Ship], defenders: list[Ship],
            attack: int | None, defense: int | None, column: str | None,
            roll: int | None, rolled: bool, modifier: int, hits: int, standard: str | None,
            damage_rolls: Sequence[int] | None, rng: Any, distribute: str,
            full: int | None, modifiers: tuple[tuple[str, int], ...] = (),
            **extra: Any) -> AttackResult:
    rolls = _damage_rolls(hits, damage_rolls, rng) if combat == ADVANCED else []
    if combat == STANDARD and damage_rolls:
        raise RuleViolation("Standard combat makes no damage rolls.")
    per_target: dict[str, Damage] = {}
    made = []
    for i, (value, was_rolled) in enumerate(rolls):
        damage = damage_for_roll(value)
        if distribute == "each":
            hit = tuple(s.id for s in defenders)
        else:
            hit = (defenders[i % len(defenders)].id,)
        for sid in hit:
            per_target[sid] = per_target.get(sid, Damage()) + damage
        made.append(DamageRoll(value, damage, hit, was_rolled))
    return AttackResult(
        kind=kind, combat=combat,
        attackers=tuple(s.id for s in attackers), defenders=tuple(s.id for s in defenders),
        attack=attack, defense=defense, column=column, roll=roll, roll_rolled=rolled,
        modifier=modifier, modified_roll=None if roll is None else roll + modifier,
        hits=hits if combat == ADVANCED else 0, standard_result=standard,
        damage_rolls=tuple(made), targets=_preview(defenders, per_target, standard),
        distribute=distribute, full_strength=full, modifiers=modifiers, **extra)


def combat_system(session: Any) -> str:
    """The session's combat system: ``session.options["combat"]``, ``"advanced"`` by default.

    [seed] the Advanced Combat System is the default; standard combat [2018] is the option.
    """
    value = session.options.get("combat", ADVANCED) if session is not None else ADVANCED
    if value not in COMBAT_SYSTEMS:
        raise RuleViolation(f'This session\'s combat option "{value}" is unknown '
                            f'(expected advanced or standard).')
    return value


def _from_session(session: Any, combat: str | None, rng: Any) -> tuple[str, Any]:
    if combat is None:
        combat = combat_system(session)
    if rng is None and session is not None:
        rng = session.dice
    return combat, rng


def _common(combat: str, distribute: str) -> None:
    if combat not in COMBAT_SYSTEMS:
        raise RuleViolation(f'Unknown combat system "{combat}" (expected advanced or standard).')
    if distribute not in DISTRIBUTIONS:
        raise RuleViolation(f'Unknown way to distribute hits "{distribute}" '
                            f'(expected one of: {", ".join(DISTRIBUTIONS)}).')


def combined_strength(ships: Iterable[Ship]) -> tuple[int, tuple[tuple[str, str], ...]]:
    """[2018] "Ships attacking or defending together add their strengths": the total, and
    each ship with its printed strength (``("Kite", "4")``, ``("Vigilant", "8 (D)")``)."""
    ships = list(ships)
    return (sum(s.ship_class.spec.combat for s in ships),
            tuple((s.name, s.ship_class.spec.strength_label) for s in ships))


def _whole(value: object, what: str, lo: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise RuleViolation(f"{what} must be a whole number of at least {lo}, not {value!r}.")
    return value


def resolve_attack(attackers: Ship | Iterable[Ship], defenders: Ship | Iterable[Ship], *,
                   range: int = 0, relative_velocity: int = 0, heroic: bool = False,
                   to_hit_roll: int | None = None, damage_rolls: Sequence[int] | None = None,
                   rng: Any = None, strength: int | None = None, defense: int | None = None,
                   combat: str | None = None, distribute: str = "each",
                   session: Any = None, out_of_phase: bool = False,
                   second_attack: bool = False) -> AttackResult:
    """Resolve a gun attack; changes nothing (apply it with ``actions.apply_attack``).

    ``strength``: attack at less than full strength [2018] "A ship may attack at less than
    its full strength" (1 up to the attackers' summed strength; default the sum).
    ``defense``: [TRI-H28] a referee's override of the targets' summed strength.
    Modifiers [2018]: −1 per hex of ``range``, −1 per hex of ``relative_velocity`` beyond
    2, +1 ``heroic``. ``combat="standard"`` uses the standard combat table [2018].
    ``session``: when given, ``combat`` defaults to its option (:func:`combat_system`) and
    ``rng`` to its dice, and the attack's time is checked (:func:`check_gun_timing`, with
    the referee's ``out_of_phase`` / ``second_attack`` overrides; the action checks it
    again when applied). Refused: an attack by a defensive-only ship or one that cannot
    fire, a target out of play, an impossible die, a ship on both sides.
    """
    combat, rng = _from_session(session, combat, rng)
    _common(combat, distribute)
    attackers = _ships(attackers, "attackers")
    defenders = _ships(defenders, "targets")
    if not attackers:
        raise RuleViolation("A gun attack needs at least one attacking ship.")
    if {s.id for s in attackers} & {s.id for s in defenders}:
        raise RuleViolation("A ship cannot attack itself.")
    for ship in attackers:
        check_attacker(ship)
    timing = dict(out_of_phase=bool(out_of_phase), second_attack=bool(second_attack))
    rulings = (check_gun_timing(session.phase, attackers, **timing)
               if session is not None else ())
    _check_defenders(defenders)
    _whole(range, "The range (hexes)")
    _whole(relative_velocity, "The relative velocity (hexes)")
    full = sum(s.ship_class.spec.combat for s in attackers)
    if strength is None:
        attack = full
    else:
        attack = _whole(strength, "The attack strength", 1)
        if attack > full:
            raise RuleViolation(f"The attackers' full strength is {full}; they cannot attack "
                                f"at {attack}.")
    if defense is None:
        defense = sum(s.ship_class.spec.combat for s in defenders)
    else:
        defense = _whole(defense, "The defense strength")
    column = odds_column(attack, defense)
    modifiers = gun_modifier_parts(range=range, relative_velocity=relative_velocity, heroic=bool(heroic))
    modifier = sum(value for _, value in modifiers)
    if column is None:
        # [2018] "worse than 1:4 has no effect": nothing to roll.
        roll = None if to_hit_roll is None else check_die(to_hit_roll, 6, "the to-hit roll")
        if damage_rolls:
            raise RuleViolation("The attack has no effect (worse than 1:4): no damage rolls.")
        return _finish(GUNS, combat, attackers, defenders, attack, defense, None, roll, False,
                       modifier, 0, None, None, None, distribute, full, modifiers,
                       rulings=rulings, **timing)
    roll, rolled = _to_hit(to_hit_roll, rng)
    hits = gun_hits(column, roll + modifier)
    standard = standard_gun_result(column, roll + modifier) if combat == STANDARD else None
    return _finish(GUNS, combat, attackers, defenders, attack, defense, column, roll, rolled,
                   modifier, hits, standard, damage_rolls, rng, distribute, full, modifiers,
                   rulings=rulings, **timing)


def resolve_other(kind: str, defenders: Ship | Iterable[Ship], *, modifier: int = 0,
                  to_hit_roll: int | None = None, damage_rolls: Sequence[int] | None = None,
                  rng: Any = None, combat: str | None = None, distribute: str = "each",
                  sources: Ship | Iterable[Ship] = (), session: Any = None,
                  launch: int | None = None, no_source: bool = False) -> AttackResult:
    """Resolve other damage — ``kind`` ``torpedo``, ``mine``, ``asteroid`` or ``ram``; changes nothing.

    [seed] "To-Hit Roll – Other Damage" (advanced) or [2018] standard other damage.
    No odds and no range or velocity modifiers apply; ``modifier`` is a referee's die
    modifier [TRI-H5] (default 0), with the same 1–6 limits as guns.

    A torpedo or mine attack [TRI-H19] names its source: ``sources`` (the one ship that
    launched it) and ``launch`` (that ship's launch number, still in flight: the attack
    spends it), or the source alone, checked as if it launched now (:func:`.ordnance.
    check_launch`: "cannot ... drop ordnance", "prevent their launching mines"); with no
    source at all only by the referee's ruling (``no_source``, logged). An asteroid or a
    ram records ``sources`` (the ship that rammed, say) without a check. ``session`` as for
    :func:`resolve_attack`.
    """
    combat, rng = _from_session(session, combat, rng)
    _common(combat, distribute)
    if kind not in OTHER_KINDS:
        raise RuleViolation(f'Unknown kind of damage "{kind}" (expected one of: '
                            f'{", ".join(OTHER_KINDS)}).')
    if isinstance(modifier, bool) or not isinstance(modifier, int):
        raise RuleViolation(f"The die modifier must be a whole number, not {modifier!r}.")
    defenders = _ships(defenders, "targets")
    sources = _ships(sources, "sources")
    if {s.id for s in sources} & {s.id for s in defenders}:
        raise RuleViolation("A ship cannot be both the source and a target.")
    rulings = _check_source(kind, sources, launch, no_source)
    _check_defenders(defenders)
    roll, rolled = _to_hit(to_hit_roll, rng)
    hits = other_hits(kind, roll + modifier)
    standard = standard_other_result(kind, roll + modifier) if combat == STANDARD else None
    parts = (("die modifier (house rule TRI-H5)", modifier),) if modifier else ()
    return _finish(kind, combat, sources, defenders, None, None, None, roll, rolled,
                   modifier, hits, standard, damage_rolls, rng, distribute, None, parts,
                   rulings=rulings, launch=launch, no_source=bool(no_source))


def _check_source(kind: str, sources: list[Ship], launch: int | None,
                  no_source: bool) -> tuple[str, ...]:
    """[TRI-H19] A torpedo or mine attack names its launch, or its source checked as at
    launch; none only by the referee's ruling. [TRI-H7] no source is out of play (a ram
    by a wreck, say)."""
    for ship in sources:
        why = out_of_play(ship)
        if why:
            raise RuleViolation(f"{ship.name} is {why}: it cannot be the source of an attack.")
    if kind not in ATTACKING_ORDNANCE:
        if launch is not None:
            raise RuleViolation(f"A {kind} is not launched: it has no launch to name.")
        return ()
    if len(sources) > 1:
        raise RuleViolation(f"A {kind} comes from one ship, not {len(sources)}.")
    if not sources:
        if launch is not None:
            raise RuleViolation(f"Name the ship whose {kind} {launch} this is.")
        if not no_source:
            raise RuleViolation(f"A {kind} attack names its launch or the ship that launched "
                                "it (house rule TRI-H19); the referee may rule it has "
                                "“no source” (a minefield from before the session, say).")
        return (f"{kind} with no source named: referee's ruling",)
    if launch is not None:
        if isinstance(launch, bool) or not isinstance(launch, int):
            raise RuleViolation(f"A launch is named by its number, not {launch!r}.")
        find_launch(sources[0], launch, kind)
        return ()
    check_launch(sources[0], kind)
    return ()
