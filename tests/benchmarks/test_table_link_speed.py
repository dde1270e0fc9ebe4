"""Table Link under load: twelve phones on loopback (issue: Speed and scale)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from share.latency import measure  # noqa: E402
from share.stress import run  # noqa: E402


def test_twelve_phones_see_ten_changes_a_second(report, qapp):
    result = measure(phones=12, seconds=10, rate=10)
    p95, stall = result["p95"] * 1000, result["stall"] * 1000
    report.add("Table Link: 12 phones, the referee changing 10 times a second for 10 s: change to "
               "the phone having the new sheet",
               f"{result['changes']} changes, {result['missing']} missed; median "
               f"{result['median'] * 1000:.0f} ms, p95 {p95:.0f} ms", "p95 < 150 ms",
               result["missing"] == 0 and p95 < 150)
    report.add("Table Link: worst stall of the UI thread by the server (snapshots, requests) in that run",
               f"{stall:.1f} ms", "< 16 ms", stall < 16)
    biggest = max(result["sizes"])
    report.add("Table Link: a sheet's transfer (SVG, gzip), largest of the 12",
               f"{biggest / 1000:.1f} KB", "< 100 KB", biggest < 100_000)


def test_twelve_phones_five_hundred_requests_each(report, qapp):
    result = run(phones=12, requests=500, referee_rate=10)
    ok = result["share"] >= 0.95 and result["applied_once"] and result["replay_matches"]
    report.add("Table Link: 12 phones x 500 requests on their own ships, with the referee's clicks, "
               "undos and random reconnects",
               f"{result['accepted']}/{result['sent']} accepted ({result['share']:.1%}), "
               f"{result['stale']} stale; each applied once: {result['applied_once']}; replay gives "
               f"the final session: {result['replay_matches']}; referee {result['referee_steps']} "
               f"clicks, {result['undos']} undos",
               ">= 95 % accepted, exactly once, replay equal", ok)
