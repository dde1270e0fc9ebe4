"""What the decisions tests (``test_decisions_*.py``) share: a game's forms read, filled and
applied as a phone or an orders file fills them, and a refusal that changes nothing.

Each test module binds the helpers to its game's ``decisions`` piece::

    FORMS = DecisionsHelpers(DECISIONS)
    kinds, spec, values_of, decide, refused = FORMS.functions()
"""

import copy
import json

import pytest

from shipsheet.model import RuleViolation


def log_lines(session, change):
    """The log lines of an applied change, its name first."""
    return [e.text for e in session.log[change.entries]]


class DecisionsHelpers:
    """The helpers for one game's ``decisions`` piece. ``dice``: a refusal must not roll the
    session's dice either (War In Space rolls them inside its energy action)."""

    def __init__(self, decisions, *, dice=False):
        self.decisions = decisions
        self.dice = dice

    def functions(self):
        """kinds, spec, values_of, decide, refused."""
        return self.kinds, self.spec, self.values_of, self.decide, self.refused

    def kinds(self, session, ship):
        """The kinds of the forms offered to ``ship`` now, in order."""
        return [f["kind"] for f in self.decisions.forms(session, ship)]

    def spec(self, session, ship, kind):
        """The form of ``kind`` offered to ``ship`` now."""
        return next(f for f in self.decisions.forms(session, ship) if f["kind"] == kind)

    def values_of(self, session, ship, kind, **changes):
        """The form as offered (current values), with some fields changed."""
        values = {f["name"]: f["value"] for f in self.spec(session, ship, kind)["fields"]}
        values.update(changes)
        return values

    def decide(self, session, ship, kind, values):
        """The filled form applied: the change (its name, its log entries)."""
        return session.apply(self.decisions.action(session, ship, kind, values))

    def _unchanged(self, session):
        what = [[copy.deepcopy(s.state) for s in session.ships], len(session.log),
                session.undo_status().undo]
        return what + [session.dice.count] if self.dice else what

    def refused(self, session, ship, kind, values, words=""):
        """The decision is refused with RuleViolation (containing ``words``) and changes
        nothing: no state, no log line, no undo step (no die rolled, with ``dice``)."""
        before = self._unchanged(session)
        with pytest.raises(RuleViolation) as info:
            self.decide(session, ship, kind, values)
        assert words in str(info.value)
        assert self._unchanged(session) == before
        return str(info.value)

    def assert_plain_json(self, session):
        """What a phone page shows: plain JSON; each field's value is one the field allows."""
        for ship in session.ships:
            forms = self.decisions.forms(session, ship)
            assert json.loads(json.dumps(forms)) == forms
            for form in forms:
                for field in form["fields"]:
                    if field["type"] == "choice" and field["value"] is not None:
                        assert field["value"] in [o["value"] for o in field["options"]]
                    if field["type"] == "int" and field["value"] is not None:
                        assert field["min"] <= field["value"] <= field["max"]
