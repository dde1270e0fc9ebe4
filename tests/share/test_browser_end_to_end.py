"""Table Link end to end: the real server on 127.0.0.1, the referee's real window (a
MainWindow showing the Federation Commander sample) and the player's page in a real
headless Chromium, phone-sized.

A player's tap and form change the referee's session, log, sheet and Edit ▸ Undo; a box
the seat may not tap says why and changes nothing; the referee's seat marks damage and
undoes from the phone, steps the phase and gives Blue a new link (Blue's phone is closed
out); a change made in the window reaches the phone live. The page runs
without a console error or a Content-Security-Policy violation.

Qt's event loop runs in the test thread throughout (the server hands each request to it
through queued signals): every Selenium call is made on a helper thread while the test
thread waits in ``qtbot.waitUntil`` (``phone.wait``)."""

from __future__ import annotations

import functools
import threading
from types import SimpleNamespace

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.games import piece
from shipsheet.rules.fedcom.actions import set_turn_state_action
from shipsheet.rules.fedcom.overrides import orders_of
from shipsheet.rules.fedcom.state import shield_left, turn_state
from shipsheet.share import SeatBook, TableLink
from shipsheet.share.authority import QtAuthority

from .browser import Console
from .phone import wait

NOT_YOURS = "Your seat may not mark damage; the referee does."


@pytest.fixture(scope="module")
def table(qapp, tmp_path_factory):
    """The referee's window on the FedCom sample, shared on 127.0.0.1 with a Blue player
    seat and a referee seat, as the window's sharing does (its doc's apply and undo)."""
    base = tmp_path_factory.mktemp("table")
    with pytest.MonkeyPatch.context() as mp:
        # Module scope runs before the autouse private-folders fixture: private folders here.
        for var in ("SHIPSHEET_DATA_DIR", "SHIPSHEET_STATE_DIR", "SHIPSHEET_CONFIG_DIR"):
            mp.setenv(var, str(base / var.lower()))
        from shipsheet.ui.main_window import MainWindow

        window = MainWindow(AutosaveStore(base / "autosave"))
        doc = window.open_session(piece("fedcom", "sample")())
        window.show()
        session = doc.session
        book = SeatBook(session.uid)
        blue = book.add("Blue", "player", sides=("Blue",), ships=())
        referee = book.add("Referee", "referee", sides=(), ships=())
        watcher = book.add("Watcher", "spectator", sides=(), ships=())
        authority = QtAuthority(gate=doc)
        link = TableLink(session, book, authority, doc.apply, functools.partial(doc.undo, ask=False))
        link.start(["127.0.0.1"], 0)
        try:
            yield SimpleNamespace(window=window, doc=doc, session=session, link=link,
                                  blue=blue, referee=referee, watcher=watcher,
                                  authority=authority,
                                  resolute=session.ship("Resolute"))
        finally:
            link.stop()
            doc.mark_clean()  # closing asks nothing
            window.close()
            window.deleteLater()
            qapp.processEvents()


class Page:
    """The phone's page. Called from the test thread, each call runs on a helper thread
    while Qt's loop runs here; called from a helper thread (inside ``until``), directly."""

    def __init__(self, driver, qtbot, table):
        self.driver = driver
        self.qtbot = qtbot
        self.table = table
        self.console = Console(driver)
        self.console.read()  # what an earlier test left

    def _call(self, fn, timeout=15000):
        if threading.current_thread() is threading.main_thread():
            return wait(self.qtbot, fn, timeout)
        return fn()

    def open(self, seat):
        url = self.table.link.url(seat)

        def go():
            self.driver.get("about:blank")  # a fresh page, not a same-document hash change
            self.driver.get(url)
        self._call(go)
        self.until(lambda: self.js("return document.querySelectorAll('.ship:not([hidden]) .area').length") > 0
                   and self.js("return !!document.querySelector('.ship:not([hidden]) svg.sheet-svg')")
                   and self.text("conn") == "Live", timeout=10)
        return self

    def js(self, script, *args):
        return self._call(lambda: self.driver.execute_script(script, *args))

    def text(self, element_id):
        return self.js("var e = document.getElementById(arguments[0]); return e ? e.textContent : null;",
                       element_id)

    def until(self, predicate, timeout=6.0, message=""):
        def run():
            return WebDriverWait(self.driver, timeout, poll_frequency=0.03).until(
                lambda d: predicate(), message)
        return self._call(run, int(timeout * 1000) + 5000)

    def label(self, key):
        return self.js("var b = document.querySelector('.ship:not([hidden]) button.area[data-key=\"' + "
                       "arguments[0] + '\"]'); return b ? b.getAttribute('aria-label') : null;", key)

    def tap(self, key):
        """A real click on the box's button (scrolled clear of the sticky header first)."""
        def click():
            button = self.driver.find_element(
                By.CSS_SELECTOR, f'.ship:not([hidden]) button.area[data-key="{key}"]')
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        self._call(click)

    def open_menu(self):
        """Open the header's menu (the seat, the referee's controls) with a real tap."""
        def tap():
            if not self.driver.execute_script("return document.getElementById('more').open"):
                self.driver.find_element(By.ID, "more-summary").click()
        self._call(tap)
        self.until(lambda: self.js("return document.getElementById('more').open"))

    def toast(self, expected, timeout=6.0):
        self.until(lambda: self.text("toast") == expected, timeout,
                   f"the live region never said {expected!r}")

    def form(self, kind):
        return self._call(lambda: self.driver.find_element(
            By.CSS_SELECTOR, f'.ship:not([hidden]) form.decision[data-kind="{kind}"]'))

    def submit(self, form):
        """Click the form's button (scrolled to the middle: clear of the header and the toast)."""
        def click():
            button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        self._call(click)

    def assert_clean(self):
        errors = self._call(lambda: (self.console.csp_violations(), self.console.script_errors()))
        assert errors == ([], []), errors


@pytest.fixture
def page(browser, qtbot, table):
    return Page(browser, qtbot, table)


def undo_button(session):
    """What the referee's Undo button says."""
    name = session.undo_status().undo
    return f"Undo {name}" if name else "Nothing to undo"


def last_log(session):
    """The headline of the last change (its detail lines follow it)."""
    return next(e.text for e in reversed(session.log) if e.kind == "action")


def test_a_player_sees_their_sheets_and_a_tap_decides_in_the_referees_window(page, table, qtbot):
    session, doc, window, ship = table.session, table.doc, table.window, table.resolute
    page.open(table.blue)
    assert page.text("session-title") == session.title
    assert page.text("game") == "Federation Commander"
    assert page.text("turn") == f"Turn {session.turn} · {session.phase}"
    assert page.text("seat-name") == "Blue" and page.text("seat-role") == ""
    assert page.js("return document.getElementById('undo-row').hidden")  # a player does not undo
    # Blue's ships only, Resolute first; its sheet drawn inline, a labelled button per box.
    tabs = page.js("return Array.from(document.querySelectorAll('#picker [role=tab]')).map(t => t.textContent)")
    assert tabs == [s.name for s in session.ships if s.side == "Blue"]
    svg = page.js("""const svg = document.querySelector('.ship:not([hidden]) svg.sheet-svg');
        return {inPage: svg.ownerDocument === document, label: svg.getAttribute('aria-label'),
                width: svg.getBoundingClientRect().width, shapes: svg.querySelectorAll('rect, path, text').length}""")
    assert svg["inPage"] and svg["label"] == "Sheet of Resolute"
    assert 300 <= svg["width"] <= 390 and svg["shapes"] > 100
    areas = page.js("""return Array.from(document.querySelectorAll('.ship:not([hidden]) button.area')).map(b =>
        [b.dataset.key, b.getAttribute('aria-label'), b.getAttribute('aria-disabled')])""")
    keys = {k for k, _, _ in areas}
    assert {"box:ph-1", "shield:1:1", "frame:1"} <= keys and all(label for _, label, _ in areas)
    by_key = {k: (label, disabled) for k, label, disabled in areas}
    assert by_key["box:ph-1"][1] is None and by_key["shield:1:1"][1] == "true"
    assert "Intact; unfired this turn" in by_key["box:ph-1"][0]

    steps = doc.session.undo_status().steps
    page.tap("box:ph-1")
    qtbot.waitUntil(lambda: turn_state(ship, "ph-1") == "fired", timeout=5000)
    # The referee's session, log, undo stack and window show the player's step, named.
    name = session.undo_status().undo
    assert name.endswith("— Blue's phone") and last_log(session).endswith("— Blue's phone")
    assert doc.session.undo_status().steps == steps + 1 and doc.session.undo_status().undo == name
    assert window.act_undo.text() == f"&Undo {name}"
    canvas = window.sheet_view.canvas
    assert canvas.painter.ship is ship
    assert "Intact; fired this turn" in next(a.tooltip for a in canvas.painter.areas if a.key == "box:ph-1")
    log_list = window.log_view.list
    assert any(name in log_list.item(i).text() for i in range(log_list.count()))
    # The phone shows the answer and its sheet drawn again from it.
    page.toast(name)
    page.until(lambda: "Intact; fired this turn" in page.label("box:ph-1"))
    page.assert_clean()


def test_a_box_the_player_may_not_tap_says_why_and_changes_nothing(page, table, qtbot):
    session, doc, ship = table.session, table.doc, table.resolute
    page.open(table.blue)
    steps, lines, rev = doc.session.undo_status().steps, len(session.log), table.link.host.revs[ship.id]
    up = shield_left(ship, 1)
    page.tap("shield:1:1")
    page.toast(NOT_YOURS)
    assert page.js("return document.getElementById('toast').dataset.kind") == "error"
    assert page.js("return document.getElementById('toast').getAttribute('aria-live')") == "polite"
    qtbot.wait(200)  # were anything sent, it would have been applied by now
    assert shield_left(ship, 1) == up
    assert (doc.session.undo_status().steps, len(session.log), table.link.host.revs[ship.id]) == (steps, lines, rev)
    page.assert_clean()


def test_a_change_made_in_the_window_reaches_the_phone_live(page, table, qtbot):
    """Pushed on the page's open WebSocket: the page asks again only when told (or when it
    connects anew, which it must not have done). How soon is timed in ``make bench``
    (tests/benchmarks/test_table_link_speed.py), not here."""
    doc, ship, host = table.doc, table.resolute, table.link.host
    page.open(table.blue)
    page.until(lambda: "Intact; unfired this turn" in page.label("box:ph-2"))
    seen = table.link.server._seen[table.blue.id]
    qtbot.waitUntil(lambda: len(seen.sockets) == 1, timeout=10_000)  # the last page's has closed
    socket = next(iter(seen.sockets))
    requests_before = page.js("return performance.getEntriesByType('resource').length")
    doc.apply(set_turn_state_action(ship, "ph-2", "fired"))
    page.until(lambda: "Intact; fired this turn" in page.label("box:ph-2"))  # generous: at all
    # Live: told on the connection it had, not found on a reconnect.
    assert seen.sockets == {socket} and page.text("conn") == "Live"
    # The new revision's sheet was fetched (no reload: the same page asked for it).
    sheet = f"/api/sheet/{ship.id}/{host.epoch}-{host.revs[ship.id]}.svg"
    page.until(lambda: any(sheet in e for e in page.js(
        "return performance.getEntriesByType('resource').map(e => e.name)")))
    assert page.js("return performance.getEntriesByType('resource').length") > requests_before
    assert page.js("return performance.getEntriesByType('navigation').length") == 1
    page.assert_clean()


def test_forms_sent_from_the_page_apply_in_the_window(page, table, qtbot):
    session, doc, ship = table.session, table.doc, table.resolute
    page.open(table.blue)
    # Turn state of a box: two choices.
    form = page.form("turn_state")
    page._call(lambda: Select(form.find_element(By.NAME, "box")).select_by_visible_text("ph-3 (phaser: unfired)"))
    page._call(lambda: Select(form.find_element(By.NAME, "state")).select_by_visible_text("fired"))
    page.submit(form)
    qtbot.waitUntil(lambda: turn_state(ship, "ph-3") == "fired", timeout=5000)
    assert last_log(session).endswith("— Blue's phone")
    assert doc.session.undo_status().undo.endswith("— Blue's phone")
    page.until(lambda: "Intact; fired this turn" in page.label("box:ph-3"))

    # Standing orders: text, checkboxes and optional heavy-weapon ranks left blank (null).
    assert orders_of(ship).heavy_weapon_order is None
    form = page.form("orders")
    heavy = page._call(lambda: [[o.text for o in Select(s).options] + [Select(s).first_selected_option.text]
                                for s in form.find_elements(By.CSS_SELECTOR, "select")])
    assert heavy and all(h[0] == "—" and h[-1] == "—" for h in heavy)

    def fill():
        first = form.find_element(By.NAME, "first")
        first.clear()
        first.send_keys("ph-2")
    steps = doc.session.undo_status().steps
    page._call(fill)
    page.submit(form)
    qtbot.waitUntil(lambda: orders_of(ship).first == ("ph-2",), timeout=5000)
    assert orders_of(ship).heavy_weapon_order is None and orders_of(ship).last == ("ph-5",)
    assert doc.session.undo_status().steps == steps + 1
    assert last_log(session).endswith("— Blue's phone")
    page.toast(session.undo_status().undo)
    page.assert_clean()


def test_a_spectators_page_shows_none_of_a_players_decisions(page, table, qtbot):
    """What a spectator's browser holds — the page, its sheets' SVG, the log it drew — after
    Blue gives standing orders from Blue's phone: the sheets, and no order (model/privacy.py;
    the README's promise that spectators see nobody's decisions)."""
    ship = table.resolute
    page.open(table.blue)
    form = page.form("orders")

    def fill():
        first = form.find_element(By.NAME, "first")
        first.clear()
        first.send_keys("ph-6, ph-4")
    page._call(fill)
    page.submit(form)
    qtbot.waitUntil(lambda: orders_of(ship).first == ("ph-6", "ph-4"), timeout=5000)
    everything = ("return document.documentElement.outerHTML + ' ' + "
                  "Array.from(document.querySelectorAll('input')).map(i => i.value).join(' ')")
    page.until(lambda: "hit first: ph-6, ph-4" in page.js(everything))  # Blue's own log
    page.open(table.watcher)
    page.until(lambda: "Resolute" in page.js("return document.body.innerText"))
    seen = page.js(everything)
    assert "Set standing orders" in seen or "Resolute" in seen  # the spectator sees the sheets
    for secret in ("ph-6, ph-4", "hit first", "form class=\"decision"):
        assert secret not in seen, secret
    page.assert_clean()


def test_the_referee_seat_marks_damage_and_undoes_from_the_phone(page, table, qtbot):
    session, doc, ship = table.session, table.doc, table.resolute
    page.open(table.referee)
    assert page.text("seat-name") == "Referee" and page.text("seat-role") == " (referee)"
    tabs = page.js("return Array.from(document.querySelectorAll('#picker [role=tab]')).map(t => t.textContent)")
    assert tabs == [s.name for s in session.ships]
    assert page.text("undo") == undo_button(session)
    assert page.js("return document.querySelector('.ship:not([hidden]) button.area[data-key=\"shield:1:1\"]')"
                   ".getAttribute('aria-disabled')") is None

    up = shield_left(ship, 1)
    steps = doc.session.undo_status().steps
    page.tap("shield:1:1")
    qtbot.waitUntil(lambda: shield_left(ship, 1) == up - 1, timeout=5000)
    name = session.undo_status().undo
    assert name.endswith("— Referee's phone") and last_log(session).endswith("— Referee's phone")
    assert doc.session.undo_status().steps == steps + 1 and doc.session.undo_status().undo == name
    assert table.window.act_undo.text() == f"&Undo {name}"
    page.until(lambda: page.text("undo") == f"Undo {name}")

    # Undo from the phone (in the header's menu): the window's undo stack steps back, as
    # Edit ▸ Undo would.
    page.open_menu()
    page._call(lambda: page.driver.find_element(By.ID, "undo").click())
    qtbot.waitUntil(lambda: shield_left(ship, 1) == up, timeout=5000)
    assert doc.session.undo_status().steps == steps and doc.session.undo_status().redo == name
    assert session.log[-1].undone and last_log(session) == name
    page.toast(f"Undone: {name}")
    page.until(lambda: page.text("undo") == undo_button(session))
    page.assert_clean()


def test_a_seat_that_sees_every_ship_fetches_the_sheet_of_the_ship_it_shows(page, table, qtbot):
    """The referee's seat sees all five ships, one tab each: its page fetches the drawing
    and boxes of the ship shown, not the others' at every change of any; picking another
    tab fetches that ship's, at its newest revision."""
    session, doc, host = table.session, table.doc, table.link.host
    page.open(table.referee)
    shown = page.js("return document.querySelector('#picker [aria-selected=true]').dataset.ship")
    other = next(s for s in session.ships if s.id != shown and s.name != "Lance")

    def fetched(kind):
        """The ship ids whose drawings ("sheet") or boxes ("boxes") the page fetched."""
        return {name.split(f"/api/{kind}/")[1].split("/")[0] for name in page.js(
            "return performance.getEntriesByType('resource').map(e => e.name)")
            if f"/api/{kind}/" in name}
    assert fetched("sheet") == {shown} and fetched("boxes") == {shown}

    # A change to a ship on a hidden tab: the view names its new revision, nothing of it
    # is fetched.
    doc.apply(set_turn_state_action(other, "ph-1", "fired"))
    line = last_log(session)
    page.until(lambda: line in page.js("return document.body.textContent"))
    assert fetched("sheet") == {shown} and fetched("boxes") == {shown}

    # Its tab picked (a real tap): its drawing and boxes come, at its newest revision.
    page._call(lambda: page.driver.find_element(
        By.CSS_SELECTOR, f'#picker [data-ship="{other.id}"]').click())
    page.until(lambda: "Intact; fired this turn" in (page.label("box:ph-1") or ""))
    version = f"{host.epoch}-{host.revs[other.id]}"
    page.until(lambda: page.js("return !!document.querySelector('.ship:not([hidden]) svg.sheet-svg')"))
    names = page.js("return performance.getEntriesByType('resource').map(e => e.name)")
    assert any(f"/api/sheet/{other.id}/{version}.svg" in n for n in names)
    assert any(f"/api/boxes/{other.id}/{version}.json" in n for n in names)
    assert page.js("return document.querySelector('.ship:not([hidden]) .sheet-status').textContent") == ""
    page.assert_clean()


def test_the_referee_seat_steps_the_phase_and_gives_blue_a_new_link_from_the_phone(page, table, qtbot):
    """Last in the file: Blue's link is renewed here (``table.blue`` holds the new secret)."""
    session, doc, window = table.session, table.doc, table.window
    driver = page.driver
    # Blue's phone in one tab, the referee's in another (the same browser: each seat's
    # cookie has its own path).
    page.open(table.blue)
    assert page.js("return document.getElementById('referee').hidden")  # a player is no referee
    blue_tab = page._call(lambda: driver.current_window_handle)
    page._call(lambda: driver.switch_to.new_window("tab"))
    referee_tab = page._call(lambda: driver.current_window_handle)
    try:
        page.open(table.referee)
        assert page.js("return !document.getElementById('referee').hidden")
        assert page.text("referee-title") == "Referee"

        # Next Phase (in the header's menu): the window's session steps, one undo step named
        # for the phone.
        phase, turn, steps = session.phase, session.turn, doc.session.undo_status().steps
        page.open_menu()
        page._call(lambda: driver.find_element(By.ID, "next-phase").click())
        qtbot.waitUntil(lambda: (session.turn, session.phase) != (turn, phase), timeout=5000)
        name = "Next phase — Referee's phone"
        assert session.undo_status().undo == name
        assert doc.session.undo_status().steps == steps + 1 and doc.session.undo_status().undo == name
        assert window.act_undo.text() == f"&Undo {name}"
        page.toast(name)
        page.until(lambda: page.text("turn") == f"Turn {session.turn} · {session.phase}")
        page.until(lambda: page.text("undo") == f"Undo {name}")

        # The seats, less the referee's own; Blue's phone is on.
        page._call(lambda: driver.find_element(By.ID, "seats-summary").click())
        page.until(lambda: page.js("""return Array.from(document.querySelectorAll('#seat-list li')).map(li =>
            [li.querySelector('.seat-name').textContent, li.querySelector('.seat-meta').textContent])""")
                   [:2] in ([["Blue", "player · 1 phone"], ["Watcher", "spectator · 0 phones"]],
                            [["Blue", "player · 1 phone"], ["Watcher", "spectator · 1 phone"]]))

        # New Link for Blue, after the referee says yes (a native confirm).
        old = table.blue.secret

        def new_link():
            driver.find_element(By.CSS_SELECTOR, f'#seat-list button[data-seat="{table.blue.id}"]').click()
            alert = WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert)
            text = alert.text
            alert.accept()
            return text
        assert page._call(new_link) == "Give Blue a new link? Their phones are closed out."
        qtbot.waitUntil(lambda: table.blue.secret != old, timeout=5000)
        page.toast("New link for Blue: their phones are closed out.")
        # The new link and its QR code, on the referee's phone at once.
        page.until(lambda: page.js("return !document.getElementById('new-link').hidden"))
        url = table.link.url(table.blue)
        assert table.blue.secret in url and old not in url
        assert page.text("new-link-url") == url
        assert page.text("new-link-title") == "New link for Blue"
        from shipsheet.share.host import qr_rows
        drawn = page.js("return document.querySelector('#new-link-qr path.qr-dark').getAttribute('d')")
        assert drawn.count("M") == sum(row.count("1") for row in qr_rows(url))
        box = page.js("const r = document.querySelector('#new-link-qr svg').getBoundingClientRect();"
                      "return [r.width, r.height]")
        assert min(box) >= 150  # big enough for a camera across the table
        page._call(lambda: driver.find_element(By.ID, "new-link-close").click())
        page.until(lambda: page.js("return document.getElementById('new-link').hidden"))
        page.open_menu()
        page.until(lambda: page.js("return document.querySelector('#seat-list .seat-meta').textContent")
                   == "player · 0 phones")
        page.assert_clean()
    finally:
        def back():
            if driver.current_window_handle == referee_tab:
                driver.close()
            driver.switch_to.window(blue_tab)
        page._call(back)

    # Blue's phone is closed out.
    closed = ("The referee has closed this seat.",
              "This link is no longer valid. Ask the referee for a new one.")
    page.until(lambda: page.text("notice") in closed)
    assert page.js("return document.getElementById('main').hidden")
    page.assert_clean()

