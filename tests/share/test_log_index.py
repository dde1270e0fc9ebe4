"""The log's index by ship (share/log_index.py): a seat's newest lines read from its ships'
lists are the lines a walk down the whole tail finds, however the log moved between
snapshots — lines added, the tail's front dropped, a failed change's lines taken back, a
session loaded anew."""

from __future__ import annotations

import random
from dataclasses import dataclass

from shipsheet.share.log_index import MAX_NEW, LogIndex

TAIL = 50  # a snapshot's tail, as LOG_TAIL is for the real log


@dataclass(eq=False)  # lines are told apart by identity, as the log's entries are
class Line:
    ship: str | None
    n: int


def walked(tail: list, ships: set[str]) -> list:
    """What the server read before the index: the whole tail, newest first."""
    return [e for e in reversed(tail) if (e.ship in ships if e.ship else True)]


def check(index: LogIndex, log: list, rng: random.Random) -> None:
    tail = log[-TAIL:]
    index.update(tail)
    for ships in ({"a"}, {"b", "c"}, set(), {"a", "b", "c", "d"}, {rng.choice("abcdx")}):
        assert list(index.newest(ships)) == walked(tail, ships)


def test_the_lines_of_a_few_ships_are_those_the_whole_tail_holds():
    rng = random.Random(7)
    log: list[Line] = []
    index = LogIndex()
    count = 0
    for step in range(400):
        what = rng.random()
        if what < 0.75:  # a change: a line or a few
            for _ in range(rng.choice((1, 1, 2, 5))):
                count += 1
                log.append(Line(rng.choice(["a", "b", "c", "d", None]), count))
        elif what < 0.9 and log:  # a failed change takes its lines back from the end
            del log[-rng.randint(1, min(3, len(log))):]
        elif what < 0.95:  # an imported turn: more new lines than are looked for
            for _ in range(MAX_NEW + 3):
                count += 1
                log.append(Line(rng.choice("ab"), count))
        else:  # a session loaded anew: another list, other lines
            log = [Line(rng.choice("abc"), -k) for k in range(rng.randint(0, 80))]
        check(index, log, rng)


def test_taken_back_lines_are_never_sent():
    index = LogIndex()
    kept = [Line("a", 1), Line("a", 2)]
    index.update(kept + [Line("a", 3)])
    again = kept + [Line("a", 4)]  # line 3 failed and was taken back; 4 came after
    index.update(again)
    assert [e.n for e in index.newest({"a"})] == [4, 2, 1]


def test_an_empty_log_has_no_lines():
    index = LogIndex()
    index.update([])
    assert list(index.newest({"a"})) == []
    index.update([Line(None, 1)])
    assert [e.n for e in index.newest(set())] == [1]


def test_a_log_ending_in_the_same_line_with_others_before_it_is_indexed_afresh():
    """A list that is not the log grown at its end (another session's log sharing its last
    line object) is not taken for new lines after the old ones."""
    index = LogIndex()
    last = Line("a", 3)
    index.update([Line("a", 1), Line("b", 2), last])
    other = [Line("b", 10), Line("a", 11), last]
    index.update(other)
    assert [e.n for e in index.newest({"a"})] == [3, 11]
