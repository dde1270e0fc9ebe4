"""Our own readings where the rule texts are silent ([house]); the UI can list them."""

from __future__ import annotations

#: (topic, text) for every [house] reading this module implements.
HOUSE_RULES: list[tuple[str, str]] = [
    ("Turn and phases",
     "One session turn is one game turn, in the phases Movement, Ordnance, Combat, Recovery. "
     "Recovery closes the turn (our reading: recovery happens at the end of the owner's turn)."),
    ("Recovery limit",
     "A ship recovers at most 1 D between two ends of turn, on the track its owner picks. "
     "The app refuses a track at D0, weapons at D6 or worse (base only), a drive at D6 or "
     "worse, and a second recovery in the same turn."),
    ("Several targets",
     "Targets attacked together add their strengths (2018 rules). By default every damage "
     "roll applies to each of them, as one combat result applies to every ship attacked "
     "together; the referee may instead deal the damage rolls out one per target in turn, "
     "first target first. Under standard combat the result applies to each target."),
    ("No target strength",
     "An attack on targets whose strength is 0 is at 4:1."),
    ("Other damage modifiers",
     "Torpedoes, mines, asteroids and rams have no odds and no range or velocity modifiers; "
     "the referee may add a die modifier, with the same limits as guns (below 1: no effect, "
     "above 6: counts as 6)."),
    ("Ordnance of defensive-only ships",
     "A defensive-only (D) ship drops no ordnance, except that a transport, whose weapon hits "
     "only stop it launching mines, launches mines."),
    ("Destroyed ships",
     "A destroyed ship can do nothing: it cannot fire, maneuver, recover, be maintained or "
     "take further damage, and it is not \"disabled\" (nothing is left to loot or capture)."),
    ("Maintenance",
     "Maintenance needs a damaged ship: an undamaged one has nothing to repair. It restores "
     "every track to D0, a drive or weapons at D6 or worse included."),
    ("Standard combat recovery",
     "Under standard combat the single disabled track needs no choice: a ship that did not "
     "recover during the turn recovers 1 D of it at the end of the turn."),
    ("Both systems in one session",
     "Switching the combat system mid-session keeps every track: a ship's status reads the "
     "advanced tracks and the standard disabled track together."),
    ("Track ladder clicks",
     "Clicking a higher D-level on a track marks that much damage; clicking the level just "
     "below the current one recovers 1 D; anything else is refused."),
    ("Ceilings",
     "A track stops at D10000 and cargo at 100,000 t (past D6 nothing more changes); "
     "larger numbers are refused so that every session saves and opens again."),
]
