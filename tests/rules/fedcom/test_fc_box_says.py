"""What a Federation Commander box's words are worked out from (``FedComBoxes.says``,
``model.boxes.GameBoxes.says``): a phone's sheet keeps a box's words while its ``says`` has
not moved, so two answers of one key with equal ``says`` must say the same — label, state,
right, refusal, tooltip, menu labels, and whether a click does anything.

The sample session is played at random: clicks and menu entries of every sort of box
(turn states, drones, shuttle occupants, corrections by hand), shields and frame marked and
regenerated, volleys with typed dice, repairs, and standing orders that move the DDAP hit
order; after each step every box of every ship is asked again."""

from __future__ import annotations

import random

from shipsheet.model.errors import RuleViolation
from shipsheet.model.games import piece
from shipsheet.rules.fedcom.actions import repair_action, set_orders_action, volley_action
from shipsheet.rules.fedcom.boxes import BOXES

from fc_helpers import card_keys

STEPS = 300


def _words(answer) -> tuple:
    return (answer.label, answer.state, answer.right, answer.refusal, answer.tooltip,
            tuple(text for text, _factory in answer.menu) if answer.has_menu() else None,
            answer.click is None)


def _random_step(session, rng: random.Random) -> None:
    """One change a player or the referee could make, chosen at random; refused ones are
    left (the rules' refusals are not what is tested here)."""
    ship = rng.choice(session.ships)
    spec = ship.ship_class.spec
    what = rng.random()
    try:
        if what < 0.55:  # a click or a menu entry of a box: the card's own boxes most often
            keys = sorted(card_keys(ship))
            sort = rng.choices(["box:", "shield:", "frame:"], [6, 3, 1])[0]
            key = rng.choice([k for k in keys if k.startswith(sort)])
            answer = BOXES.answer(session, ship, key)
            entries = answer.menu if answer.has_menu() else []
            if entries and rng.random() < 0.5:
                session.apply(rng.choice(entries)[1]())
            elif answer.click is not None:
                session.apply(answer.click())
        elif what < 0.7:
            session.apply(volley_action(ship, rng.randint(1, 12), shield=rng.choice([None, 1, 2, 3]),
                                        rolls=[rng.randint(1, 6) for _ in range(12)]))
        elif what < 0.8:
            gone = list(ship.state["destroyed"])
            if gone:
                session.apply(repair_action(ship, rng.sample(gone, min(len(gone), 2))))
        else:
            ids = [b.id for b in spec.boxes]
            orders = {"first": rng.sample(ids, rng.randint(0, 2)),
                      "last": rng.sample(ids, rng.randint(0, 2))}
            session.apply(set_orders_action(ship, orders if rng.random() < 0.8 else None))
    except RuleViolation:
        pass


def test_equal_says_mean_equal_words_however_the_ships_change():
    session = piece("fedcom", "sample")()
    rng = random.Random(51)
    words_of: dict = {}  # (key, says) -> the words first seen with it
    again = 0
    for _ in range(STEPS):
        _random_step(session, rng)
        for ship in session.ships:
            keys = sorted(card_keys(ship))
            said = BOXES.says(session, ship, keys)
            answers = BOXES.answers(session, ship, keys)
            for key, says, answer in zip(keys, said, answers):
                assert says is not None, key  # every box of the card is named
                hash(says)
                words = _words(answer)
                first = words_of.setdefault((key, says), words)
                again += first is not words
                assert first == words, (ship.name, key, says)
    # The walk went somewhere: many boxes said something new, and most said it again.
    assert len(words_of) > 2_000 and again > 20_000, (len(words_of), again)


def test_a_key_the_card_has_no_box_for_says_nothing():
    session = piece("fedcom", "sample")()
    ship = session.ships[0]
    assert BOXES.says(session, ship, ["box:nope", "shield:1:999", "frame:999", "shield:7:1",
                                      "hull", ""]) == [None] * 6
