"""Our readings where the seed and the published game are silent: [house] rules, each with
its stable id (cited in the code where the reading is applied)."""

from shipsheet.model.house import HouseRule as H, check_house_rules, find_house_rule

#: Every [house] reading this package implements.
HOUSE_RULES: tuple[H, ...] = check_house_rules("FC", (
    H("FC-H1", "Arc restriction",
      "An arc's width in degrees from its name: F, L, R, A, LF, RF, LR, RR 60; FA, RA 120; "
      "FH, RH, LS, RS 180; FX, RX 240; 360 360; a combination such as LF+L adds its parts, "
      "capped at 360. A card may give arc_degrees instead. Narrower is more restricted and is "
      "hit first among boxes the DDAP cannot otherwise separate. A box with no arc counts as 360."),
    H("FC-H2", "Random tie-breaks",
      "Ties the arc cannot break are broken with the session's dice (logged) for weapons "
      "(phasers, heavy weapons, drone racks) and for any box with a firing arc, as 8FC4 "
      "speaks of 'two or more weapons'. Equal boxes of other kinds (hull, warp, labs, "
      "batteries ...) are interchangeable ('that choice can affect the battle', 8FC1, does "
      "not apply) and are taken in card order without a roll. Without dice, every tie falls "
      "in card order."),
    H("FC-H3", "Second skip",
      "A skipped point is re-allocated once after the volley's last point, in new groups of up "
      "to ten with fresh rolls; a point skipped a second time is lost."),
    H("FC-H4", "Kinds",
      "A box's kind is one of the standard kinds or one the card declares in extra_kinds "
      "(with its repair category); a chart's own kinds go in its extra_kinds. Anything else "
      "is refused at load, so a misspelt kind never silently goes unhit."),
    H("FC-H5", "Turn states",
      "Phasers are fired or unfired; heavy weapons fired, charging or unfired; drone racks "
      "launched or not; tractors used-dropped, unused or holding; other systems used or unused. "
      "At end of turn every state returns to its default except charging (a weapon keeps its "
      "charge) and holding (a tractor still holds its object)."),
    H("FC-H6", "Frame as the last resort",
      "Frame is always available as column 10's alternate: with no frame box left that hit "
      "destroys the ship, and the rest of the volley is lost. Standing orders to take frame "
      "instead of a last box or instead of skipping are not applied when no frame box is "
      "left (they would destroy the ship); the log says so."),
    H("FC-H7", "Vague orders",
      "A box named in more than one of first, last and order is a vague order: none of its "
      "mentions applies. A box named twice in one list keeps its first place. A heavy-weapon "
      "order must rank every heavy-weapon type of the ship exactly once, else the card's order "
      "is used. Orders naming a destroyed box are noted and ignored."),
    H("FC-H8", "Order composition",
      "Within a kind: the boxes of 'first' (in the order listed), then those of 'order', then "
      "the DDAP order, then the boxes of 'last' (the last listed is hit last)."),
    H("FC-H9", "Crippled",
      "The frame boxes count among the non-shield boxes when deciding whether half of them "
      "are destroyed."),
    H("FC-H10", "Repair",
      "Repair points are spent in the order the player lists boxes. Points short of a box's "
      "cost go toward it and carry to the next turn; putting points into another unfinished "
      "box drops the earlier carry. Frame is not repaired in the repair phase. Kinds outside "
      "the standard list cost by the category the card gives them; flag, emergency bridge and "
      "auxiliary control are control; center warp is power; center hull is hull; probe is a "
      "ship system."),
    H("FC-H11", "Phases",
      "A turn is Energy, Movement, Combat, Repair; standing orders lapse and turn states reset "
      "when the turn ends."),
    H("FC-H12", "Burn-through",
      "A volley of ten or more that does not penetrate the shield puts all but one point on "
      "the shield and scores one internal point (a published rules answer: 20 points on a "
      "20-box shield is 19 to the shield and 1 burn-through)."),
    H("FC-H13", "Heavy-weapon type order",
      "The text (8FC4): smallest fired, smallest charging, smallest unfired; with several "
      "types of heavy weapon on one ship \"the owner will need to specify which will be hit "
      "first\". Our reading of how the two combine: the owner's type order ranks first, so "
      "every weapon of the first type (fired, then charging, then unfired, smallest first in "
      "each) is hit before any weapon of the next type."),
    H("FC-H14", "Drone racks: the least spaces of available drones",
      "The text (8FC4) hits, within launched or not launched, \"the one with the least spaces "
      "of available drones\" first. ShipSheet reads that as the rack with the fewest drones "
      "left."),
    H("FC-H15", "Standing orders are private",
      "Standing orders go to the moderator alone (8FC3) and no rule makes them public: other "
      "players (their player files, their reports, a phone at the table) never see them. A "
      "point an order placed reads, for them, as hit by \"the owner's standing order\"."),
))


def house_rule(key: str) -> str:
    """The house rule with id or topic ``key`` as a tooltip line ("House rule FC-H13 (…): …")."""
    return find_house_rule(HOUSE_RULES, key).tip()
