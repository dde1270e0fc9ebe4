"""A decision in progress is the player's (issue 29): the real Table Link server on
127.0.0.1 sharing the War In Space sample at turn 3's Energy Allocation, and the players'
page in a real headless Chromium, phone-sized (the harness of test_browser_end_to_end.py).

A form being filled is never drawn again by someone else's change: a change to another
ship leaves its inputs, its very DOM and the focus as typed; a change to its own ship that
alters the form keeps what was typed and says in words what changed. A send refused as
stale (the referee's app restarted while the phone was offline) shows the values back with
the reason and Send again; a tap queued over the restart is shown as not applied, naming
the box. A reload keeps the typed values and the ship picked, in the tab's own storage
under the seat's id, cleared once the form is applied.

Qt's event loop runs in the test thread (the server hands each request to it): every
Selenium call is made on a helper thread while the test thread waits (``phone.wait``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from shipsheet.rules.war_in_space.actions import mark_system_box_action
from shipsheet.rules.war_in_space.damage import marked_boxes
from shipsheet.rules.war_in_space.energy import committed_allocation
from shipsheet.share.seats import PLAYER, REFEREE

from .phone import sample, share
from .test_browser_end_to_end import Page

RESTARTED = ("The referee's ShipSheet has restarted since your phone drew this sheet: "
             "here is the current one.")
#: The visible form of a kind: each field's value as the player sees it (a choice's text).
VALUES = """const f = document.querySelector('.ship:not([hidden]) form.decision[data-kind="' +
    arguments[0] + '"]');
  if (!f) return null;
  const out = {};
  for (const e of f.elements) {
    if (!e.name) continue;
    out[e.name] = e.type === 'checkbox' ? e.checked
      : e.tagName === 'SELECT' ? (e.selectedOptions[0] ? e.selectedOptions[0].text : null) : e.value;
  }
  return out;"""
#: What the tab keeps: {key: text}.
KEPT = """const out = {};
  for (let i = 0; i < sessionStorage.length; i++) {
    const k = sessionStorage.key(i);
    out[k] = sessionStorage.getItem(k);
  }
  return out;"""


@pytest.fixture
def wis(qtbot):
    """The War In Space sample at turn 3's Energy Allocation (no ship has committed yet),
    shared with a Concord player (Vigilant, Kestrel, Resolute) and the referee."""
    session = sample("war-in-space")
    session.next_turn()
    link, (concord, referee) = share(session, seats=[("Concord", PLAYER, ("Concord",), ()),
                                                     ("Referee", REFEREE, (), ())])
    yield SimpleNamespace(session=session, link=link, concord=concord, referee=referee)
    link.stop()


@pytest.fixture
def page(browser, qtbot, wis):
    return Page(browser, qtbot, wis)


def pick(page, ship_name):
    """Tap the ship's tab; its sheet shown (a ship on a hidden tab is fetched when picked:
    its boxes, drawing and forms come a moment after its name)."""
    page._call(lambda: next(t for t in page.driver.find_elements(By.CSS_SELECTOR, "#picker [role=tab]")
                            if t.text == ship_name).click())
    page.until(lambda: page.js("return document.querySelector('.ship:not([hidden]) .ship-name').textContent")
               == ship_name and ready(page)
               and page.js("return document.querySelector('.ship:not([hidden]) .sheet-status').textContent") == "")


def fill_energy(page, card, dice, *, damage_control=False):
    """Type into the shown ship's Energy Allocation form as a player does; the focus is left
    in the last die."""
    form = page.form("energy")

    def fill():
        Select(form.find_element(By.NAME, "card")).select_by_visible_text(card)
        if damage_control:
            form.find_element(By.NAME, "damage_control").click()
        for n, die in enumerate(dice, start=1):
            box = form.find_element(By.NAME, f"die{n}")
            page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
            box.send_keys(str(die))
    page._call(fill)
    return form


def seen_revision(page, link, ship):
    """True once the page has fetched the ship's boxes at its current revision."""
    address = f"/api/boxes/{ship.id}/{link.host.epoch}-{link.host.revs[ship.id]}.json"
    return any(address in e for e in page.js("return performance.getEntriesByType('resource').map(e => e.name)"))


def ready(page):
    return (page.js("return document.querySelectorAll('.ship:not([hidden]) .area').length") > 0
            and page.js("return !!document.querySelector('.ship:not([hidden]) svg.sheet-svg')")
            and page.text("conn") == "Live")


def restart(link):
    """The referee's app stops sharing and starts again on the same port (a new epoch)."""
    port = link.port
    link.stop()
    return port


def test_a_form_being_filled_is_kept_through_another_ships_change(page, wis, qtbot):
    """Typed into Resolute's Energy Allocation; the referee marks Kestrel's Drive box: the
    form is the same DOM, holding what was typed, focus where it was. Then the referee marks
    Resolute's own Drive box (its die steps d6 → d4): what was typed stays, and the form says
    what changed, in words. Sent, it is what the player typed."""
    session, link = wis.session, wis.link
    resolute, kestrel = session.ship("Resolute"), session.ship("Kestrel")
    page.open(wis.concord)
    pick(page, "Resolute")
    fill_energy(page, "7♠", (9, 4, 5), damage_control=True)
    typed = {"card": "7♠", "damage_control": True, "die1": "9", "die2": "4", "die3": "5",
             "joker1": "—", "joker2": "—", "joker3": "—"}
    assert page.js(VALUES, "energy") == typed
    page.js("window.__form = document.querySelector('.ship:not([hidden]) form.decision[data-kind=energy]')")

    session.apply(mark_system_box_action(kestrel, "Drive"))  # another ship of the same seat
    # Its tab is hidden: the page has its new revision when the view's log names the change
    # (the ship shown is the one whose sheet and boxes are fetched).
    line = next(e.text for e in reversed(session.log) if e.kind == "action")
    page.until(lambda: line in page.js("return document.getElementById('log').textContent"), timeout=10)
    qtbot.wait(300)  # were the form drawn again, it would have been by now
    assert page.js("return window.__form === document.querySelector("
                   "'.ship:not([hidden]) form.decision[data-kind=energy]')"), "the form was drawn again"
    assert page.js(VALUES, "energy") == typed
    assert page.js("return document.activeElement.name") == "die3"
    assert page.js("return document.querySelectorAll('.decision-changed').length") == 0

    # A change to what the form decides: kept as typed (the Drive die's 4 still fits a d4),
    # and said.
    session.apply(mark_system_box_action(resolute, "Drive"))
    page.until(lambda: seen_revision(page, link, resolute)
               and "(d4)" in page.js("return document.querySelector('.ship:not([hidden]) "
                                     "form[data-kind=energy]').textContent"), timeout=10)
    assert page.js(VALUES, "energy") == typed
    note = page.js("return document.querySelector('.ship:not([hidden]) form[data-kind=energy] "
                   ".decision-changed').textContent")
    assert note == ("Resolute changed since you began: “Drive die (d6)” is now “Drive die (d4)”; "
                    "Drive die (d4): from 1 to 4 now. Check and send."), note
    assert page.js("return document.activeElement.name") == "die3"  # the focus kept

    page.submit(page.form("energy"))
    qtbot.waitUntil(lambda: committed_allocation(resolute) is not None, timeout=5000)
    energy = committed_allocation(resolute)
    assert energy.card == "7S" and energy.damage_control_announced
    page.until(lambda: page.js(VALUES, "energy") is None)  # committed: the form is closed
    assert not any(k.startswith(f"shipsheet.{wis.concord.id}.form.") for k in page.js(KEPT))
    page.assert_clean()


def test_a_stale_send_is_shown_back_with_the_reason_and_sent_again(page, wis, qtbot):
    """Vigilant's Energy Allocation sent while the referee's app is down is "not sent yet";
    the app starts again (a new epoch) and the send is refused as stale: the form shows the
    values back, the reason and Send again, which one tap applies."""
    session, link = wis.session, wis.link
    vigilant = session.ship("Vigilant")
    page.open(wis.concord)
    fill_energy(page, "9♣", (7, 5, 3))
    typed = page.js(VALUES, "energy")
    assert typed["card"] == "9♣" and (typed["die1"], typed["die2"], typed["die3"]) == ("7", "5", "3")

    port = restart(link)
    page.until(lambda: page.text("conn") == "Reconnecting…", timeout=10)
    page.submit(page.form("energy"))
    page.toast("Not sent yet — it will be sent again when the connection is back.")
    link.start(["127.0.0.1"], port)
    page.until(lambda: page.js("return document.querySelector('.ship:not([hidden]) "
                               "form[data-kind=energy] .decision-problem')") is not None, timeout=15)
    assert committed_allocation(vigilant) is None  # not applied
    problem = page.js("""const p = document.querySelector('.ship:not([hidden]) form[data-kind=energy] .decision-problem');
        return {text: p.querySelector('p').textContent, role: p.getAttribute('role'),
                buttons: Array.from(p.querySelectorAll('button')).map(b => b.textContent)}""")
    assert problem == {"text": f"Not applied: {RESTARTED} What you sent is in the form: check it and send again.",
                       "role": "alert", "buttons": ["Send again"]}, problem
    assert page.js(VALUES, "energy") == typed

    def send_again():
        button = page.driver.find_element(By.CSS_SELECTOR, ".ship:not([hidden]) .decision-problem button")
        page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
    page.until(lambda: ready(page), timeout=10)
    page._call(send_again)
    qtbot.waitUntil(lambda: committed_allocation(vigilant) is not None, timeout=5000)
    energy = committed_allocation(vigilant)
    assert energy.card == "9C" and not energy.damage_control_announced
    page.until(lambda: page.js(VALUES, "energy") is None)  # committed: the form is closed
    assert page.js("return document.querySelectorAll('.decision-problem, .ship-note').length") == 0
    page.assert_clean()


def test_a_tap_queued_over_a_restart_is_shown_as_not_applied(page, wis, qtbot):
    """The referee's phone taps Vigilant's Reactor box 1 while the app is down; the app
    starts again and the tap is refused as stale: the sheet says so, naming the box, until
    dismissed, and nothing was marked."""
    session, link = wis.session, wis.link
    vigilant = session.ship("Vigilant")
    page.open(wis.referee)
    assert page.js("return document.querySelector('.ship:not([hidden]) .ship-name').textContent") == "Vigilant"
    before = marked_boxes(vigilant, 0)
    port = restart(link)
    page.until(lambda: page.text("conn") == "Reconnecting…", timeout=10)
    page.tap("box:0:0")
    page.toast("Not sent yet — it will be sent again when the connection is back.")
    link.start(["127.0.0.1"], port)
    page.until(lambda: page.js("return document.querySelector('.ship:not([hidden]) .ship-note')") is not None,
               timeout=15)
    note = page.js("""const n = document.querySelector('.ship:not([hidden]) .ship-note');
        return {text: n.querySelector('p').textContent, role: n.getAttribute('role'),
                button: n.querySelector('button').textContent}""")
    assert note == {"text": f"Not applied: tap on Reactor box 1 of 4 — {RESTARTED}", "role": "alert",
                    "button": "OK"}, note
    assert marked_boxes(session.ship("Vigilant"), 0) == before
    # Above the sheet, in sight; dismissed with its button.
    assert page.js("""const n = document.querySelector('.ship:not([hidden]) .ship-notes');
        return n.compareDocumentPosition(document.querySelector('.ship:not([hidden]) .sheet-frame'))
               & Node.DOCUMENT_POSITION_FOLLOWING""")
    page.until(lambda: ready(page), timeout=10)
    page._call(lambda: page.driver.find_element(By.CSS_SELECTOR, ".ship:not([hidden]) .ship-note button").click())
    page.until(lambda: page.js("return document.querySelectorAll('.ship-note').length") == 0)
    page.assert_clean()


def test_a_reload_keeps_the_typed_values_and_the_ship_picked(page, wis, qtbot):
    """Resolute picked and its Energy Allocation half typed; the page reloads: Resolute is
    shown, the form holds what was typed (kept in the tab under the seat's id, no secret in
    it); applied, it is kept no more."""
    session = wis.session
    resolute = session.ship("Resolute")
    page.open(wis.concord)
    pick(page, "Resolute")
    fill_energy(page, "5♠", (11, 2))
    typed = page.js(VALUES, "energy")
    assert (typed["card"], typed["die1"], typed["die2"], typed["die3"]) == ("5♠", "11", "2", "")

    page._call(lambda: page.driver.refresh())
    page.until(lambda: ready(page) and page.js(VALUES, "energy") is not None, timeout=10)
    assert page.js("return document.querySelector('#picker [aria-selected=true]').textContent") == "Resolute"
    assert page.js("return document.querySelector('.ship:not([hidden]) .ship-name').textContent") == "Resolute"
    assert page.js(VALUES, "energy") == typed
    assert page.js("return document.querySelectorAll('.decision-changed').length") == 0
    kept = page.js(KEPT)
    mine = f"shipsheet.{wis.concord.id}."
    assert f"{mine}form.{resolute.id}.energy" in kept and f"{mine}ship" in kept
    assert all(k.startswith(mine) for k in kept), kept
    for secret in (wis.concord.secret, wis.referee.secret):
        assert not any(secret in k or secret in v for k, v in kept.items())

    def last_die():
        box = page.form("energy").find_element(By.NAME, "die3")
        page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.send_keys("6")
    page._call(last_die)
    page.submit(page.form("energy"))
    qtbot.waitUntil(lambda: committed_allocation(resolute) is not None, timeout=5000)
    assert committed_allocation(resolute).card == "5S"
    page.until(lambda: f"{mine}form.{resolute.id}.energy" not in page.js(KEPT))
    page.assert_clean()
