"""A page made for thumbs (issue 29): on a phone 360 or 390 CSS px wide, every box of every
sample ship's sheet, and every button of the page, is at least 44 × 44 CSS px (WCAG 2.5.5),
and the header — one row, sticky — takes at most a tenth of the screen's height and names
the ship shown, for a player's seat and the referee's alike.

The sheets are the phone layout of each game's one drawing routine (``sheets.base.PHONE``):
first checked without a browser (every box of every sample ship, as its owner and as others
see it: at least ``PHONE.touch`` units square, none over another, the same keys as the
window's sheet), then in Debian's Chromium against the real Table Link server, at 360×640
and 390×844 (device scale 2, touch), as ``test_browser_end_to_end.py`` drives it.

The header's bound is a tenth of the viewport's height with no tolerance: 64 px at 640,
84.4 px at 844 (the page's header is 53 px: a row of 44 px, 4 px above and below, a 1 px rule).
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from shipsheet.model import load_session
from shipsheet.model.paths import resources_dir
from shipsheet.model.privacy import public_state
from shipsheet.model.trial import trial_ship
from shipsheet.sheets import PHONE, painter_for
from shipsheet.sheets.base import PHONE_SHOWN_PX

from .phone import share, wait

SAMPLES = sorted((resources_dir() / "samples").glob("*.shipsheet"))
GAMES = [path.stem for path in SAMPLES]
#: (width, height) of the phones, CSS px.
SIZES = ((360, 640), (390, 844))
MIN_PX = 44.0


def _ship_views(session):
    """Each sample ship as its owner sees it and as a spectator does (the public sheet)."""
    for ship in session.ships:
        yield ship, False, ship
        yield ship, True, trial_ship(ship, public_state(session, ship))


@pytest.mark.parametrize("game", GAMES)
def test_the_phone_layout_gives_every_box_a_thumbs_room(qapp, game):
    """The layout step of every sample ship's phone sheet, owner's and public: each box at
    least ``touch`` units square (44 CSS px where the sheet is 342 px wide), inside the
    sheet, over no other box, and the same keys as the paper's (a tap's key is the
    window's)."""
    assert PHONE.touch * PHONE_SHOWN_PX / PHONE.width >= MIN_PX
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    for ship, public, seen in _ship_views(session):
        where = f"{ship.name} ({'public' if public else 'owner'})"
        paper = painter_for(seen, session).layout()
        painter = painter_for(seen, session, layout=PHONE)
        areas = painter.layout()
        height = painter.drawn_size().height()
        assert sorted(a.key for a in areas) == sorted(a.key for a in paper), where
        for a in areas:
            r = a.rect
            assert r.width() >= PHONE.touch - 1e-6 and r.height() >= PHONE.touch - 1e-6, (where, a.key)
            assert -0.01 <= r.left() and r.right() <= PHONE.width + 0.01, (where, a.key)
            assert 0 <= r.top() and r.bottom() <= height, (where, a.key)
        for i, a in enumerate(areas):
            for b in areas[i + 1:]:
                both = a.rect.intersected(b.rect)
                assert both.width() < 0.01 or both.height() < 0.01, (where, a.key, b.key)


# -- in the browser ---------------------------------------------------------------------------

MEASURE = """
const vw = innerWidth, vh = innerHeight;
const size = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
const section = document.querySelector('#ships .ship:not([hidden])');
const sheet = section.querySelector('.sheet');
const svg = sheet.querySelector('svg.sheet-svg');
const header = document.querySelector('header.top');
const tab = header.querySelector('#picker [role=tab][aria-selected="true"]');
const now = document.getElementById('ship-now');
const named = tab && tab.getClientRects().length ? tab : (now && !now.hidden ? now : null);
return {
  vw: vw, vh: vh, scrollWidth: document.documentElement.scrollWidth,
  header: size(header),
  named: named ? {text: named.textContent, rect: size(named), current: named === now ||
                  named.getAttribute('aria-selected') === 'true'} : null,
  sheet: size(sheet), viewBox: svg ? svg.getAttribute('viewBox') : null,
  areas: Array.from(section.querySelectorAll('button.area')).map(b => [b.dataset.key].concat(size(b))),
  buttons: Array.from(document.querySelectorAll('button, summary')).filter(b =>
      !b.classList.contains('area') && b.getClientRects().length).map(b =>
      [b.id || b.className || b.textContent].concat(size(b)))
};
"""

AT_HAND = """
scrollTo(0, document.documentElement.scrollHeight);
const header = document.querySelector('header.top').getBoundingClientRect();
const tab = document.querySelector('#picker [aria-selected="true"]');
const now = document.getElementById('ship-now');
const shown = tab && tab.getClientRects().length ? tab : now;
const r = shown.getBoundingClientRect();
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
const out = {scrolled: scrollY > 0, top: header.top, reached: !!hit && shown.contains(hit)};
scrollTo(0, 0);
return out;
"""


class Phone:
    """The browser, driven from a helper thread while Qt's loop runs here (``phone.wait``)."""

    def __init__(self, driver, qtbot):
        self.driver, self.qtbot = driver, qtbot

    def call(self, fn, timeout=20000):
        return wait(self.qtbot, fn, timeout)

    def js(self, script, *args):
        return self.call(lambda: self.driver.execute_script(script, *args))

    def until(self, predicate, timeout=10.0, message=""):
        return self.call(lambda: WebDriverWait(self.driver, timeout, poll_frequency=0.03).until(
            lambda d: predicate(), message), int(timeout * 1000) + 5000)

    def size(self, width, height):
        self.call(lambda: self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 2, "mobile": True}))
        self.until(lambda: self.driver.execute_script("return [innerWidth, innerHeight]")
                   == [width, height])

    def open(self, url):
        def go():
            self.driver.get("about:blank")
            self.driver.get(url)
        self.call(go)
        self.until(lambda: self.driver.execute_script(
            "return document.getElementById('conn').textContent") == "Live"
            and self.driver.execute_script(
                "return document.querySelectorAll('#ships .ship:not([hidden]) button.area').length") > 0)

    def show(self, ship, keys: int):
        """Pick the ship with a real tap on its tab (when the seat has several); wait for
        its sheet and its ``keys`` boxes."""
        def tap():
            tabs = self.driver.find_elements(By.CSS_SELECTOR, f'#picker [data-ship="{ship.id}"]')
            if tabs:
                tabs[0].click()
        self.call(tap)
        self.until(lambda: self.driver.execute_script(
            """const s = document.querySelector('#ships .ship:not([hidden])');
               return s && s.querySelector('.ship-name').textContent === arguments[0]
                 && !!s.querySelector('svg.sheet-svg')
                 && s.querySelectorAll('button.area').length === arguments[1]""", ship.name, keys),
            message=f"{ship.name}'s sheet and {keys} boxes never showed")


def _small(rows):
    return [(name, round(w, 1), round(h, 1)) for name, _x, _y, w, h in rows
            if w < MIN_PX or h < MIN_PX]


#: Opens the header's menu and its list of seats (the referee's controls), or says why not.
OPEN_MENU = """
const more = document.getElementById('more'), seats = document.getElementById('seats');
if (!more) return 'the page has no menu in its header';
if (!more.open) document.getElementById('more-summary').click();
if (!seats.open) document.getElementById('seats-summary').click();
return more.open && seats.open ? '' : 'the menu did not open';
"""


@pytest.mark.parametrize("game", GAMES)
def test_every_box_and_button_takes_a_thumb_and_the_header_a_tenth(qapp, qtbot, browser, game):
    """Every sample ship, at 360×640 and 390×844, on the referee's phone and a player's: the
    sheet's boxes and the page's buttons (the referee's menu opened) are 44 × 44 CSS px or
    more; the sheet and its boxes are the phone layout's; the header is a tenth of the
    screen's height or less, names the ship shown, and is still there, its ship's name
    tappable, at the foot of the sheet. Every problem is listed, not only the first."""
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    side = session.ships[0].side
    link, (referee, player) = share(session, seats=[("Referee", "referee", (), ()),
                                                    ("Player", "player", (side,), ())])
    phone = Phone(browser, qtbot)
    problems: list[str] = []
    smallest: dict[int, float] = {}  # width -> the least side of a box, CSS px
    tallest: dict[int, float] = {}  # width -> the tallest header, CSS px
    try:
        for seat, ships in ((referee, session.ships),
                            (player, [s for s in session.ships if s.side == side])):
            phone.open(link.url(seat))
            for width, height in SIZES:
                phone.size(width, height)
                for ship in ships:
                    expected = painter_for(ship, session, layout=PHONE).layout()
                    phone.show(ship, len(expected))
                    problems += _check_view(phone.js(MEASURE), expected, width, height, ship,
                                            f"{seat.name}'s phone, {ship.name}, {width}×{height}",
                                            smallest, tallest)
                    at_hand = phone.js(AT_HAND)
                    if at_hand != {"scrolled": True, "top": 0, "reached": True}:
                        problems.append(f"{seat.name}'s phone, {ship.name}, {width}×{height}: at "
                                        f"the foot of the sheet the ship's name is not at hand "
                                        f"({at_hand})")
                if seat is referee:
                    closed = phone.js(MEASURE)["header"][3]
                    why = phone.js(OPEN_MENU)
                    if why:
                        problems.append(f"the referee's phone, {width}: {why}")
                    got = phone.js(MEASURE)
                    shown = {name for name, *_ in got["buttons"]}
                    missing = {"undo", "next-phase", "next-turn", "seats-summary", "new-link"} - shown
                    if missing:
                        problems.append(f"the referee's menu at {width} shows no {sorted(missing)}")
                    if _small(got["buttons"]):
                        problems.append(f"the referee's menu at {width}: buttons under 44 px: "
                                        f"{_small(got['buttons'])}")
                    if got["header"][3] != closed:
                        problems.append(f"the referee's menu at {width} makes the header "
                                        f"{got['header'][3]} px tall (it opens over the page)")
                    phone.js("const more = document.getElementById('more');"
                             "if (more && more.open) document.getElementById('more-summary').click();")
        print(f"\n{game}: the smallest box, the tallest header (CSS px): " + "; ".join(
            f"{w}×{h}: {smallest.get(w, 0):.1f}, {tallest.get(w, 0):.1f}" for w, h in SIZES))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        link.stop()
        link._keep.deleteLater()
        qapp.processEvents()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def _check_view(got: dict, expected, width: int, height: int, ship, where: str,
                smallest: dict, tallest: dict) -> list[str]:
    """What is wrong with one ship's page at one size (MEASURE's reading)."""
    problems = []
    if [got["vw"], got["vh"]] != [width, height]:
        problems.append(f"{where}: the viewport is {got['vw']}×{got['vh']}")
    if got["scrollWidth"] > width:
        problems.append(f"{where}: the page scrolls sideways ({got['scrollWidth']} px)")
    # The header: a tenth of the screen at most, naming the ship shown, in sight.
    hx, hy, hw, hh = got["header"]
    tallest[width] = max(tallest.get(width, 0.0), hh)
    if hh > 0.10 * height:
        problems.append(f"{where}: the header is {hh:g} px tall, over {0.10 * height:g}")
    named = got["named"]
    if not (named and named["current"] and named["text"] == ship.name):
        problems.append(f"{where}: the header does not name the ship shown ({named})")
    else:
        nx, ny, nw, nh = named["rect"]
        if not (0 <= nx and nx + nw <= width and hy <= ny and ny + nh <= hy + hh):
            problems.append(f"{where}: the ship's name is out of sight in the header ({named})")
    # The sheet and its boxes are the phone layout's, one drawing: the SVG's width, and each
    # box where the layout step put it.
    if (got["viewBox"] or "").split()[2:3] != [f"{PHONE.width:g}"]:
        problems.append(f"{where}: the sheet is not the phone layout (viewBox {got['viewBox']})")
    sx, sy, sw, _sh = got["sheet"]
    scale = sw / PHONE.width
    if [a[0] for a in got["areas"]] != [a.key for a in expected]:
        problems.append(f"{where}: the page's boxes are not the phone layout's")
    else:
        for (key, x, y, w, h), area in zip(got["areas"], expected):
            r = area.rect
            if max(abs((x - sx) / scale - r.x()), abs((y - sy) / scale - r.y()),
                   abs(w / scale - r.width()), abs(h / scale - r.height())) > 0.5:
                problems.append(f"{where}: box {key} is not where the phone layout drew it")
                break
    small = _small(got["areas"])
    if small:
        problems.append(f"{where}: {len(small)} of {len(got['areas'])} boxes under 44 px, "
                        f"the least {min(small, key=lambda s: min(s[1:]))}")
    if _small(got["buttons"]):
        problems.append(f"{where}: buttons under 44 px: {_small(got['buttons'])}")
    if got["areas"]:
        least = min(min(w, h) for _k, _x, _y, w, h in got["areas"])
        smallest[width] = min(smallest.get(width, least), least)
    return problems
