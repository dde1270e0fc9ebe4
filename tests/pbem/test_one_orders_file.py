"""One orders file per player per turn, and a player decides only what the rules give them.

War In Space's Energy Allocation travels with the repair plan it pays for, as a priority
list: the moderator's dice set the Damage Control energy when the orders close, and what
it does not pay is dropped and said. Triplanetary fuel is burnt by its player and never
raised (house rule TRI-H29): an orders file that raises it is refused in the rule's words.
Reports give each player their own orders in force and what is due, and none of another
player's."""

from __future__ import annotations

import json

from shipsheet.cli import main
from shipsheet.model.storage import load_session, save_session
from shipsheet.pbem import players as P
from shipsheet.pbem.inbox import import_files
from shipsheet.pbem.reports import turn_report
from shipsheet.rules.war_in_space.repairs import BOX_COST, planned_order

from pbem_helpers import form_of, verifiable_game


def _run(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _flat(text: str) -> str:
    return " ".join(text.split())


# -- War In Space: energy and repairs in one file ------------------------------------------------

def test_a_war_in_space_turn_by_e_mail_takes_energy_and_repairs_in_one_file(tmp_path, capsys):
    s, files = verifiable_game("war-in-space", tmp_path / "files")
    moderator = tmp_path / "moderator.shipsheet"
    save_session(s, moderator)
    turn = s.turn
    # Hegemony decides in their own ShipSheet: the Harrier (2, 3 and 1 boxes marked) plays
    # the K♦ with Damage Control and lists six repairs, first paid first, before any die
    # of the turn is rolled (the session's verifiable dice roll when the orders close).
    ps = load_session(files["Hegemony"])
    P.decide(ps, "Harrier", "energy", {"card": "KD", "damage_control": True})
    wanted = ["box:2", "box:2", "box:1", "box:3", "box:2", "box:1"]
    repairs = form_of(ps, ps.ship("Harrier"), "repairs")
    assert len(repairs["fields"]) == 6 and repairs["private"] == "repairs"
    P.decide(ps, "Harrier", "repairs", {f"repair{n}": v for n, v in enumerate(wanted, 1)})
    P.decide(ps, "Lancer", "energy", {"card": "9D"})
    save_session(ps, files["Hegemony"])
    ps = load_session(files["Concord"])
    P.decide(ps, "Vigilant", "energy", {"card": "QH", "damage_control": True})
    save_session(ps, files["Concord"])
    sent = {}
    for name, path in files.items():
        sent[name] = tmp_path / f"{name}.orders.json"
        code, out = _run(capsys, "pbem", "export-orders", path, "-o", sent[name])
        assert code == 0, out
    kinds = [o["form"] for o in json.loads(sent["Hegemony"].read_text())["orders"]]
    assert kinds.count("energy") == 2 and kinds.count("repairs") == 1  # one file holds both

    code, out = _run(capsys, "pbem", "import", moderator, *sent.values())
    assert code == 0 and out.count(": queued:") == 2, out
    code, out = _run(capsys, "pbem", "close-orders", moderator)
    assert code == 0, out
    m = load_session(moderator)
    harrier = m.ship("Harrier")
    energy = harrier.state["energy"]
    assert energy is not None and energy["damage_control_announced"]
    budget = energy["damage_control"]
    kept = planned_order(harrier)
    # Paid in the list's order: each box 4 energy; the first repair the energy does not pay
    # is dropped, and so is every later one it cannot pay.
    assert len(kept) == min(len(wanted), budget // BOX_COST)
    assert [f"box:{i + 1}" for _, i in kept] == wanted[:len(kept)]
    log = [e.text for e in m.log if e.ship == harrier.id and not e.undone]
    if len(kept) < len(wanted):
        assert any(t.startswith("Dropped: ") and f"({budget}) does not pay" in t for t in log), log
    # The desk took one file a player: nothing held, nothing called a correction.
    code, out = _run(capsys, "pbem", "desk", moderator)
    assert "correction" not in out.lower() and "confirm" not in out.lower(), out
    # The turn goes on: the plan is carried out in the Damage Control phase.
    marks = list(harrier.state["marks"])
    while m.phase != "Damage Control":
        m.next_phase()
    repaired = [b - a for a, b in zip(harrier.state["marks"], marks)]
    assert repaired == [sum(1 for _, i in kept if i == n) for n in range(3)]
    # Hegemony's report gives the plan as it went in force; Concord's gives none of it.
    own = _flat(turn_report(m, "Hegemony", turn).body)
    other = _flat(turn_report(m, "Concord", turn).body)
    assert "ORDERS IN FORCE" in own and "Energy Allocation, turn 3: K♦, Damage Control " \
        "announced" in own
    assert "K♦" not in other and "Harrier box" not in other and "Dropped" not in other


# -- Triplanetary: fuel is burnt, never raised -----------------------------------------------------

def test_an_orders_file_that_raises_fuel_is_refused_in_the_rules_words(tmp_path, capsys):
    s, files = verifiable_game("triplanetary", tmp_path / "files")
    moderator = tmp_path / "moderator.shipsheet"
    save_session(s, moderator)
    ajax = s.ship("Ajax")
    assert ajax.state["fuel"] == 14
    # The attacker is the player: their own file edited to give the Ajax 20 fuel, then their
    # orders exported and signed as usual.
    path = files["Mars Patrol"]
    data = json.loads(path.read_text("utf-8"))
    ship = next(x for x in data["ships"] if x["name"] == "Ajax")
    ship["state"]["fuel"] = 20
    path.write_text(json.dumps(data), "utf-8")
    out_file = tmp_path / "mars.orders.json"
    code, out = _run(capsys, "pbem", "export-orders", path, "-o", out_file)
    assert code == 0, out
    order = next(o for o in json.loads(out_file.read_text())["orders"] if o["form"] == "fuel")
    assert order["ship"] == ajax.id and order["values"] == {"fuel": 20}
    code, out = _run(capsys, "pbem", "import", moderator, out_file)
    assert code == 1 and "mars.orders.json: REFUSED: order 1 (Ajax, Fuel): Fuel left: at " \
        "most 14. A player burns fuel but does not take it on" in _flat(out), out
    code, out = _run(capsys, "pbem", "close-orders", moderator)
    m = load_session(moderator)
    assert m.ship("Ajax").state["fuel"] == 14
    code, out = _run(capsys, "pbem", "desk", moderator)
    words = _flat(out)
    assert "refuelling, at a base or from a tanker, is the referee's" in words, out
    assert "TRI-H29" in words


def test_burning_fuel_by_orders_file_is_applied(tmp_path):
    s, files = verifiable_game("triplanetary", tmp_path / "files")
    ps = load_session(files["Mars Patrol"])
    P.decide(ps, "Ajax", "fuel", {"fuel": 11})
    save_session(ps, files["Mars Patrol"])
    from shipsheet.pbem.orders import export_orders
    export_orders(ps, ps.turn, tmp_path / "o.json")
    results = import_files(s, [tmp_path / "o.json"])
    assert [r.status for r in results] == ["queued"], [r.line() for r in results]
    from shipsheet.pbem.turns import close_orders
    close_orders(s)
    assert s.ship("Ajax").state["fuel"] == 11


# -- reports a player can act on -------------------------------------------------------------------

def _alice_and_carol():
    from shipsheet.model import Session, get_class, new_ship
    from shipsheet.model.actions import NextPhase
    from shipsheet.rules.fedcom import Overrides, set_chart_action, set_orders_action, volley_action
    from shipsheet.rules.fedcom.actions import copy_orders_action
    s = Session("fedcom", name="Alice v Carol", seed=26)
    s.apply(set_chart_action("training"))
    resolute = s.add_ship(new_ship(get_class("fedcom/sample-heavy-cruiser"), "Resolute"), "Blue")
    hornet = s.add_ship(new_ship(get_class("fedcom/sample-drone-cruiser"), "Hornet"), "Red")
    s.apply(P.set_players_action(s, [{"name": "Alice", "sides": ["Blue"]},
                                     {"name": "Carol", "sides": ["Red"]}]))
    # Alice's standing orders: her phasers first and the lab last, copied to next turn.
    s.apply(set_orders_action(resolute, Overrides(first=("ph-1", "ph-2"), last=("lab-1",))))
    s.apply(copy_orders_action(resolute))
    s.apply(set_orders_action(hornet, Overrides(first=("drone-4",))))
    s.apply(NextPhase())
    s.apply(NextPhase())
    for rolls in ([2, 5, 3, 1, 4, 6], [6, 1, 4, 2, 5, 3]):  # typed rolls are never topped up (issue 31)
        s.apply(volley_action(resolute, 40, shield=1, rolls=rolls, attacker=hornet))
        s.apply(volley_action(hornet, 30, shield=1, rolls=rolls, attacker=resolute))
    return s


def test_carols_report_has_none_of_alices_orders_and_each_lists_its_own_in_force():
    s = _alice_and_carol()
    alice = turn_report(s, "Alice", 1).body
    carol = turn_report(s, "Carol", 1).body
    # Alice's orders decided her hits: her report explains them by her orders; Carol's
    # says only that the owner ordered it (house rule FC-H15).
    assert "ph-1 hit (standing order: 1st phaser to hit)" in _flat(alice)
    section = _flat(alice.split("ORDERS IN FORCE (turn 1)")[1].split("DUE (turn 1)")[0])
    assert "Resolute Standing orders, turn 1: hit first: ph-1, ph-2; hit last: lab-1" in section
    assert "Copied to turn 2: the same orders" in section
    assert "Hornet" not in section
    own = _flat(carol.split("ORDERS IN FORCE (turn 1)")[1].split("DUE (turn 1)")[0])
    assert "Hornet Standing orders, turn 1: hit first: drone-4" in own and "Resolute" not in own
    # Carol saw the volleys on the Resolute (her own ship fired them), not why they hit.
    flat = _flat(carol)
    assert "Volley of 40 from Hornet at Resolute" in flat
    assert "ph-1 hit (the owner's standing order)" in flat
    for secret in ("phaser to hit", "lab to hit", "hit first: ph-1", "hit last: lab-1",
                   "Copied to turn 2", "Resolute: Set standing orders", "Resolute Standing orders"):
        assert secret not in flat, secret
    # Volleys are numbered within the turn: the Resolute's two are volleys 1 and 2.
    assert "Volley 1, point 1" in flat and "Volley 2, point 1" in flat
    assert "Volley 3, point" not in flat


def test_the_deadline_is_said_in_each_report_and_lapses_with_the_turn(tmp_path, capsys):
    s, files = verifiable_game("fedcom", tmp_path / "files")
    moderator = tmp_path / "moderator.shipsheet"
    save_session(s, moderator)
    turn = s.turn
    code, out = _run(capsys, "pbem", "deadline", moderator, "Sunday 8 Dec, 20:00 UTC")
    assert code == 0 and f"Turn {turn}'s orders are due by Sunday 8 Dec, 20:00 UTC" in out, out
    m = load_session(moderator)
    for name in ("Blue", "Red", "Green"):
        body = _flat(turn_report(m, name, turn).body)
        assert f"DUE (turn {turn}) ------------ Your orders for turn {turn} are due by Sunday " \
               f"8 Dec, 20:00 UTC." in body, body
    assert "Resolute: Standing orders" in _flat(turn_report(m, "Blue", turn).body)
    # A player file cannot set it; markup and control characters are refused.
    code, out = _run(capsys, "pbem", "deadline", files["Blue"], "tomorrow")
    assert code == 1 and "player file" in out, out
    code, out = _run(capsys, "pbem", "deadline", moderator, "Sunday\x1b[31m")
    assert code == 1 and "plain text" in out, out
    code, out = _run(capsys, "pbem", "deadline", moderator)
    assert code == 2 and "--clear" in out
    # The turn closes: its deadline lapses; the next turn has none until one is set.
    for command in ("close-orders", "close-turn"):
        code, out = _run(capsys, "pbem", command, moderator)
        assert code == 0, out
    m = load_session(moderator)
    body = _flat(turn_report(m, "Blue", turn).body)
    assert f"Your orders for turn {turn + 1}: the moderator has set no deadline." in body
    assert "Sunday 8 Dec" not in body


def test_a_triplanetary_recovery_choice_is_in_force_in_its_owners_report_only(tmp_path):
    from pbem_helpers import give
    s, files = verifiable_game("triplanetary", tmp_path / "files")
    give(s, "Vigilant", "recovery", track="weapon", then="drive")
    give(s, "Raven", "recovery", track="structure")
    mars = _flat(turn_report(s, "Mars Patrol", s.turn).body)
    pirates = _flat(turn_report(s, "Pirates", s.turn).body)
    assert "Vigilant Recovery choice: weapons, then drive" in mars
    assert "Raven Recovery choice: structure" in pirates
    assert "weapons, then drive" not in pirates and "Raven Recovery" not in mars
