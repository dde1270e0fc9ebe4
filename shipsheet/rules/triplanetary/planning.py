"""An attack being planned: the choices so far, what they give, and what is still missing.

The attack dialog is a form over an :class:`AttackPlan`: it reads its fields into one,
asks :meth:`AttackPlan.work_out` what the attack would do with the session's dice, and
shows the answer (the odds, each modifier with its reason, the hits, each target's tracks
after, or why it cannot be applied yet). The same plan gives the action to apply
(:meth:`AttackPlan.action`). No Qt here.
"""

from __future__ import annotations

from typing import Any, Sequence

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .actions import attack, other_damage
from .combat import (GUNS, STANDARD, AttackResult, check_gun_timing, combat_system,
                     resolve_attack, resolve_other)


class Die:
    """One die of the plan: a value typed from physical dice, or "roll it" (the session's
    dice will), or neither yet."""

    __slots__ = ("typed", "rolled")

    def __init__(self, typed: int | None = None, rolled: bool = False):
        self.typed = typed
        self.rolled = rolled

    @property
    def known(self) -> bool:
        return self.typed is not None or self.rolled


class WorkedOut:
    """What a plan gives now: ``first`` (the odds, with the to-hit die as given), ``rolls``
    (the attack with the damage rolls so far, to show them), ``result`` (complete: ready to
    apply) and ``problem`` (why not yet, in words; "" when ready), ``damage_dice`` (how many
    damage rolls the hits call for)."""

    __slots__ = ("first", "rolls", "result", "problem", "damage_dice")

    def __init__(self):
        self.first: AttackResult | None = None
        self.rolls: AttackResult | None = None
        self.result: AttackResult | None = None
        self.problem = ""
        self.damage_dice = 0


class AttackPlan:
    """Guns (attackers against targets, their strengths adding up, range, relative velocity,
    heroic, less than full strength; the referee's "out of phase" and "second attack"
    rulings [TRI-H15, TRI-H16]) or other damage (a kind; a torpedo's or mine's source and
    launch, or the referee's "no source" [TRI-H19]; a referee's modifier), against targets;
    the to-hit die and the damage dice."""

    def __init__(self, kind: str = GUNS, attackers: Sequence[Ship] = (), targets: Sequence[Ship] = (),
                 *, range: int = 0, relative_velocity: int = 0, heroic: bool = False,
                 strength: int | None = None, modifier: int = 0, distribute: str = "each",
                 to_hit: Die | None = None, damage: Sequence[Die] = (),
                 out_of_phase: bool = False, second_attack: bool = False,
                 launch: int | None = None, no_source: bool = False):
        self.kind = kind
        self.attackers = list(attackers)
        self.targets = list(targets)
        self.range = range
        self.relative_velocity = relative_velocity
        self.heroic = heroic
        self.strength = strength
        self.modifier = modifier
        self.distribute = distribute
        self.to_hit = to_hit or Die()
        self.damage = list(damage)
        self.out_of_phase = out_of_phase
        self.second_attack = second_attack
        self.launch = launch
        self.no_source = no_source

    @property
    def guns(self) -> bool:
        return self.kind == GUNS

    @property
    def full_strength(self) -> int:
        """The attackers' strengths added up [2018] (the most the plan may attack at)."""
        return sum(s.ship_class.spec.combat for s in self.attackers)

    def typed_damage(self, dice: int | None = None) -> tuple[list[int], bool]:
        """The damage rolls typed so far (of the first ``dice``), first to last, and whether
        one was typed after one left to the dice (the dice roll those after the last typed)."""
        typed, gap = [], False
        for die in self.damage[:dice]:
            if die.typed is not None:
                if gap:
                    return typed, True
                typed.append(die.typed)
            else:
                gap = True
        return typed, False

    def _options(self, damage: list[int]) -> dict[str, Any]:
        options: dict[str, Any] = dict(to_hit_roll=self.to_hit.typed, damage_rolls=damage or None,
                                       distribute=self.distribute)
        if self.guns:
            options.update(range=self.range, relative_velocity=self.relative_velocity,
                           heroic=self.heroic, strength=self.strength,
                           out_of_phase=self.out_of_phase, second_attack=self.second_attack)
        else:
            options.update(modifier=self.modifier, launch=self.launch, no_source=self.no_source)
        return options

    def resolve(self, session, damage: list[int], *, timing: bool = True) -> AttackResult:
        """The attack with the session's next dice (a copy: nothing is rolled). ``timing``
        False: whatever the phase and whoever has fired (to show the odds all the same)."""
        # Verifiable dice roll for a purpose: the copy stands for the attack this previews.
        rng, combat = session.dice.copy(self.action()), combat_system(session)
        if self.guns:
            options = self._options(damage)
            if not timing:
                options.update(out_of_phase=True, second_attack=True)
            return resolve_attack(self.attackers, self.targets, rng=rng, combat=combat,
                                  session=session, **options)
        return resolve_other(self.kind, self.targets, sources=self.attackers, rng=rng,
                             combat=combat, session=session, **self._options(damage))

    def work_out(self, session) -> WorkedOut:
        """What the plan gives with the session's dice now, and what is still missing."""
        out = WorkedOut()
        if (self.guns and not self.attackers) or not self.targets:
            need = (["at least one attacker"] if self.guns and not self.attackers else []) + \
                   (["at least one target"] if not self.targets else [])
            out.problem = "Pick " + " and ".join(need) + "."
            return out
        try:
            first = self.resolve(session, [], timing=False)
        except RuleViolation as exc:
            out.problem = f"Can't attack: {exc}"
            return out
        out.first = first
        if self.guns:
            try:  # [TRI-H15, TRI-H16] when guns fire: said after the odds, which still show
                check_gun_timing(session.phase, self.attackers, out_of_phase=self.out_of_phase,
                                 second_attack=self.second_attack)
            except RuleViolation as exc:
                out.problem = f"Can't attack now: {exc}"
                return out
        if self.guns and first.column is None:
            out.problem = (f"Odds worse than 1:4 ({first.attack} against {first.defense}): the "
                           "attack can have no effect. Add attackers or attack fewer targets.")
            return out
        if not self.to_hit.known:
            out.problem = "Roll or type the to-hit die."
            return out
        out.damage_dice = 0 if combat_system(session) == STANDARD else first.hits
        typed, out_of_order = self.typed_damage(out.damage_dice)
        try:
            out.rolls = self.resolve(session, typed)
        except RuleViolation as exc:
            out.problem = f"Can't attack: {exc}"
            return out
        if out_of_order:
            out.problem = ("Type the damage rolls first to last: the session dice roll the ones "
                           "after the last typed roll.")
            return out
        missing = [i + 1 for i, die in enumerate(self.damage[:out.damage_dice]) if not die.known]
        missing += list(range(len(self.damage) + 1, out.damage_dice + 1))
        if missing:
            out.problem = "Roll or type damage roll " + ", ".join(map(str, missing)) + "."
            return out
        out.result = out.rolls
        return out

    def action(self):
        """The action that applies the planned attack (the dice rolled inside it)."""
        options = self._options(self.typed_damage(len(self.damage))[0])
        if self.guns:
            return attack(self.attackers, self.targets, **options)
        return other_damage(self.kind, self.targets, sources=self.attackers, **options)


__all__ = ["AttackPlan", "Die", "WorkedOut"]
