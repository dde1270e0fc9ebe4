"""Small versions of the Table Link benchmarks (``make bench`` runs the full ones)."""

from __future__ import annotations

from .latency import measure


def test_phones_see_each_referee_change(qapp):
    """Fifteen changes, each reaching its phone. How soon, and how long the server held the
    referee's thread, is judged in ``make bench`` (tests/benchmarks/test_table_link_speed.py),
    not here: no clock in ``make test``."""
    result = measure(phones=4, seconds=1.5, rate=10, count=15)  # 1.5 s at 10 a second, counted
    assert result["changes"] == 15 and result["missing"] == 0, result
    assert max(result["sizes"]) < 100_000


def test_phones_requests_are_accepted_once_and_replay_to_the_same_session(qapp):
    from .stress import run
    result = run(phones=3, requests=40, referee_rate=20)
    assert result["sent"] == 120, result
    assert result["share"] >= 0.95, result
    assert result["applied_once"] and result["replay_matches"], result
    assert result["referee_steps"] > 0, result


def test_one_phones_taps_reach_the_other_phones(qapp):
    """Each tap a phone was told was applied reaches every other phone (how soon is judged
    in ``make bench``)."""
    from .phone_to_phones import measure_phone_to_phones
    result = measure_phone_to_phones(3, seconds=2, tap_rate=2)
    assert result["taps"] >= 3 and result["missing"] == 0, result
