"""Our own readings where the rule texts are silent, each with its stable id.

The code cites the id where it applies the reading (``[TRI-H13]``); Help ▸ Rules and House
Rules lists them, and tooltips quote them (:func:`house_rule`).
"""

from __future__ import annotations

from shipsheet.model.house import HouseRule as H, check_house_rules, find_house_rule

#: Every house reading this package implements. Ids are never reused.
HOUSE_RULES: tuple[H, ...] = check_house_rules("TRI", (
    H("TRI-H1", "Turn and phases",
      "One session turn is one game turn, in the phases Movement, Ordnance, Combat, Recovery. "
      "Recovery closes the turn: a ship recovers now only in the Recovery phase; at any other "
      "time its owner sets a recovery choice, carried out when the turn ends."),
    H("TRI-H2", "Recovery limit",
      "A ship recovers at most 1 D between two ends of turn, on the track its owner picks. "
      "The app refuses a track at D0, weapons at D6 or worse (base only), a drive at D6 or "
      "worse, and a second recovery in the same turn."),
    H("TRI-H3", "Several targets",
      "Targets attacked together add their strengths (2018 rules). By default every damage "
      "roll applies to each of them, as one combat result applies to every ship attacked "
      "together; the referee may instead deal the damage rolls out one per target in turn, "
      "first target first. Under standard combat the result applies to each target."),
    H("TRI-H4", "No target strength",
      "An attack on targets whose strength is 0 is at 4:1."),
    H("TRI-H5", "Other damage modifiers",
      "Torpedoes, mines, asteroids and rams have no odds and no range or velocity modifiers; "
      "the referee may add a die modifier, with the same limits as guns (below 1: no effect, "
      "above 6: counts as 6)."),
    H("TRI-H6", "Ordnance of defensive-only ships",
      "A defensive-only (D) ship drops no ordnance, except that a transport, whose weapon hits "
      "only stop it launching mines, launches mines."),
    H("TRI-H7", "Ships out of play",
      "A destroyed ship, or one lost at the map edge, can do nothing: it cannot fire, launch, "
      "maneuver, recover, be maintained, looted or captured, or take further damage, and it "
      "is not \"disabled\"."),
    H("TRI-H8", "Maintenance",
      "Maintenance needs a damaged ship: an undamaged one has nothing to repair. It restores "
      "every track to D0, a drive or weapons at D6 or worse included."),
    H("TRI-H9", "Standard combat recovery",
      "Under standard combat the single disabled track needs no choice: a ship that did not "
      "recover during the turn recovers 1 D of it at the end of the turn."),
    H("TRI-H10", "Both systems in one session",
      "Switching the combat system mid-session keeps every track: a ship's status reads the "
      "advanced tracks and the standard disabled track together."),
    H("TRI-H11", "Track ladder clicks",
      "Clicking a higher D-level on a track marks that much damage; clicking the level just "
      "below the current one recovers 1 D (in the Recovery phase); anything else is refused."),
    H("TRI-H12", "Ceilings",
      "A track stops at D10000 and cargo at 100,000 t (past D6 nothing more changes); "
      "larger numbers are refused so that every session saves and opens again."),
    H("TRI-H13", "Default recovery choice",
      "Recovery is not optional: when the turn ends, a damaged ship that has not recovered "
      "recovers 1 D. With one track it can recover there is nothing to choose; with several, "
      "its owner's choice decides; with no choice, the track with the highest D-level, ties "
      "in the order drive, weapons, structure. The log says \"default choice\"."),
    H("TRI-H14", "A recovery choice stands",
      "The owner's recovery choice (a track, or tracks in order of preference) stands from "
      "turn to turn until it is changed or cleared; the first chosen track the ship can "
      "recover is used."),
    H("TRI-H15", "Gun attacks in the Combat phase",
      "Gun attacks are made in the Combat phase. The referee may allow one at another time by "
      "ticking \"out of phase\"; the log says so."),
    H("TRI-H16", "One gun attack a Combat phase",
      "A ship that has fired in a Combat phase cannot fire again in it. A counter-attack is "
      "the attacked ship's own attack in the same Combat phase, entered as a gun attack with "
      "it as the attacker. The referee may allow another by ticking \"second attack\"; the "
      "log says so."),
    H("TRI-H17", "Which ordnance a ship launches",
      "Warships and the orbital base launch torpedoes, mines and nukes; transports and packets "
      "launch mines only; tankers and liners launch none. The texts do not list which types "
      "carry which ordnance."),
    H("TRI-H18", "Launching ordnance",
      "Ordnance is launched in the Ordnance phase, one launch a ship a turn; the referee may "
      "rule \"out of phase\" or \"second launch\" (logged). How many a ship carries is not "
      "counted: the texts give no number."),
    H("TRI-H19", "The source of an ordnance attack",
      "A torpedo or mine attack names its launch (which it then spends) or the ship that "
      "launched it, checked as if it launched now. An attack with no source (a minefield "
      "from before the session) needs the referee's \"no source\" ruling, logged."),
    H("TRI-H20", "Nukes",
      "A nuke is launched and checked like other ordnance; the Advanced Combat System has no "
      "table for it, so the referee marks its effect by hand."),
    H("TRI-H21", "Packet and transport weapon hits",
      "Weapon hits on a packet or transport only stop it launching mines, at any D-level: a "
      "packet with weapons at D6 or worse still fires (the text names no exception)."),
    H("TRI-H22", "An orbital base with weapon damage",
      "An orbital base never maneuvers, so any weapon damage leaves it able neither to "
      "maneuver nor to fire: disabled, lootable and capturable."),
    H("TRI-H23", "Defensive-only ships with drive damage",
      "A defensive-only ship (transport, tanker, liner) never fires, so any drive damage "
      "leaves it disabled, lootable and capturable."),
    H("TRI-H24", "Dreadnaught ordnance",
      "A dreadnaught at weapons D1 to D3 still fires but drops no ordnance: the text's "
      "exception names firing only."),
    H("TRI-H25", "Lost at the map edge",
      "A ship is marked lost at the map edge when its drive is at D6 or worse, or by the "
      "referee's ruling (logged as such); an orbital base never is. A lost ship is out of "
      "play."),
    H("TRI-H26", "Looting",
      "Looting moves cargo from a disabled ship to the looter, up to the cargo carried and "
      "the looter's free hold. A disabled or out-of-play ship loots nothing."),
    H("TRI-H27", "Capture",
      "A captured ship joins its captor's side and keeps its damage; the sheet notes the side "
      "it came from. A disabled or out-of-play ship captures nothing."),
    H("TRI-H28", "Defense strength override",
      "The referee may set the targets' defense strength for an attack instead of the sum of "
      "their printed strengths."),
    H("TRI-H29", "Refuelling belongs to the referee",
      "A ship's owner burns its fuel (from a phone or an orders file); taking fuel on, at a "
      "base or from a tanker, is the referee's, who knows where the ship is. The rules leave "
      "who records it to the players."),
))


def house_rule(key: str) -> str:
    """The house rule with id or topic ``key`` as a tooltip line ("House rule TRI-H13 (…): …")."""
    return find_house_rule(HOUSE_RULES, key).tip()
