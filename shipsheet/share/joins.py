"""New devices waiting for the referee's yes before they take a seat.

With a public address (``--public-url``, or ``--approve-joins``) a device that opens a
seat's link with the right secret is not paired at once: it asks, the referee is shown "A
new device wants Blue's seat — allow?" (the window, the referee's phone, ``serve``'s
terminal), and the device is paired only when the referee says yes. A link that leaked
(a forwarded message, a screenshot) then gets a stranger no further than the question.

Bounded: at most :data:`PER_SEAT` devices wait for one seat and :data:`WAITING` in all, one
per seat and source (asking again is the same question); a question not answered within
:data:`EXPIRES` seconds lapses.
"""

from __future__ import annotations

import re
import secrets
import time
from ..model.code_cache import dataclass
from typing import Callable

#: Devices waiting for one seat, and in all.
PER_SEAT, WAITING = 4, 16
#: How long a question waits for the referee (seconds).
EXPIRES = 600.0
WAITING_STATE, ALLOWED, REFUSED = "waiting", "allowed", "refused"

_BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"),
             ("CriOS", "Chrome"), ("SamsungBrowser", "Samsung Internet"), ("Chrome/", "Chrome"),
             ("Safari/", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("Mac OS X", "Mac"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))


def describe_device(user_agent: str) -> str:
    """A device in a few plain words from its ``User-Agent`` ("Chrome on Android"): what the
    referee needs to tell their player's phone from a stranger's (a User-Agent is the
    device's own claim, shown as such)."""
    text = str(user_agent)[:400]
    browser = next((name for mark, name in _BROWSERS if mark in text), "an unknown browser")
    system = next((name for mark, name in _SYSTEMS if mark in text), "")
    return re.sub(r"[^\w .-]", "", f"{browser} on {system}" if system else browser)


@dataclass
class JoinRequest:
    """One device asking for a seat: where it asks from, what it says it is, and the
    referee's answer (the device token once allowed, handed over at the device's next
    ask and then forgotten here)."""

    id: str
    seat_id: str
    source: str
    device: str
    made: float
    state: str = WAITING_STATE
    token: str | None = None

    def to_json(self, now: float) -> dict:
        return {"join": self.id, "from": self.source, "device": self.device,
                "waiting": max(0, round(now - self.made))}


class JoinBook:
    """The devices waiting for the referee's yes (on the server's loop)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._requests: dict[str, JoinRequest] = {}

    def _lapse(self) -> None:
        now = self._clock()
        for key in [k for k, r in self._requests.items() if r.made <= now - EXPIRES]:
            del self._requests[key]

    def ask(self, seat_id: str, source: str, device: str) -> JoinRequest | None:
        """The question of a device of ``source`` for ``seat_id`` (the same one when it asks
        again); None when too many wait already (the device is told to try later)."""
        self._lapse()
        for request in self._requests.values():
            if request.seat_id == seat_id and request.source == source and request.state == WAITING_STATE:
                return request
        waiting = [r for r in self._requests.values() if r.state == WAITING_STATE]
        if len(waiting) >= WAITING or sum(r.seat_id == seat_id for r in waiting) >= PER_SEAT:
            return None
        request = JoinRequest(secrets.token_urlsafe(12), seat_id, source, device, self._clock())
        self._requests[request.id] = request
        return request

    def get(self, join_id: str) -> JoinRequest | None:
        self._lapse()
        return self._requests.get(join_id) if isinstance(join_id, str) else None

    def decide(self, join_id: str, allow: bool, token: str | None = None) -> JoinRequest | None:
        """The referee's answer to a waiting question (``token``: the device token made for
        it when allowed); None when there is no such question waiting."""
        request = self.get(join_id)
        if request is None or request.state != WAITING_STATE:
            return None
        request.state = ALLOWED if allow else REFUSED
        request.token = token if allow else None
        return request

    def done(self, join_id: str) -> None:
        """The device was told the answer: forget the question."""
        self._requests.pop(join_id, None)

    def waiting(self, seat_id: str | None = None) -> list[JoinRequest]:
        self._lapse()
        return [r for r in self._requests.values() if r.state == WAITING_STATE
                and (seat_id is None or r.seat_id == seat_id)]

    def forget_seat(self, seat_id: str) -> None:
        """A seat given a new link or removed: its questions go with its old link."""
        for key in [k for k, r in self._requests.items() if r.seat_id == seat_id]:
            del self._requests[key]


__all__ = ["ALLOWED", "EXPIRES", "JoinBook", "JoinRequest", "PER_SEAT", "REFUSED", "WAITING",
           "WAITING_STATE", "describe_device"]
