"""A player's decisions, as forms anyone can fill: from a phone (Table Link) or an orders
file (the PBEM desk).

Each game's ``decisions`` piece (``model.games.GameEntry``) is a :class:`GameDecisions`.
It says which decisions a player may make for a ship now (:meth:`GameDecisions.forms`,
plain JSON-able dicts, described in ``shipsheet/share/PROTOCOL.md``), turns a filled form
into the game's own action (:meth:`GameDecisions.action`), says what the owner has
decided and is in force (:meth:`GameDecisions.in_force`). Which right a tap on a sheet's
box needs — deciding is the player's, marking damage the referee's — is the box's answer
(``model.boxes.BoxAnswer.right``).

The values come from outside (a phone, an e-mail): :func:`field_value` checks each against
its form before any action is built, and every refusal is a :class:`RuleViolation` in
plain words. Nothing here imports Qt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .errors import RuleViolation

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .session import Session
    from .ship import Ship

#: The rights a seat may hold (``shipsheet/share/seats.py``).
DECIDE, MARK = "decide", "mark"
#: The longest text a text field takes unless it says otherwise.
TEXT_LIMIT = 80


def choice(name: str, label: str, options: list[tuple[str, str]], value: str | None, *,
           optional: bool = False) -> dict:
    """A field choosing one of ``options`` ((value, label) pairs); ``optional``: it may be
    left empty (its value is then None)."""
    field = {"name": name, "label": label, "type": "choice",
             "options": [{"value": v, "label": text} for v, text in options], "value": value}
    if optional:
        field["optional"] = True
    return field


def integer(name: str, label: str, low: int, high: int, value: int | None = None, *,
            optional: bool = False, over: str | None = None) -> dict:
    """A whole number from ``low`` to ``high``; ``over``: the rule's words refusing a value
    above ``high`` (when the limit is a rule, not just the field's range)."""
    field = {"name": name, "label": label, "type": "int", "min": low, "max": high,
             "value": value, "optional": optional}
    if over:
        field["over"] = over
    return field


def boolean(name: str, label: str, value: bool = False) -> dict:
    return {"name": name, "label": label, "type": "bool", "value": bool(value)}


def text(name: str, label: str, value: str = "", limit: int = TEXT_LIMIT) -> dict:
    return {"name": name, "label": label, "type": "text", "max": limit, "value": value}


def form(kind: str, title: str, fields: list[dict], *, text: str = "", submit: str = "Set",
         private: str | None = None) -> dict:
    """A decision form. ``private``: the kind of private decision it is (the game's
    ``privacy`` piece, ``model/privacy.py``), or None when what it decides is public."""
    spec = {"kind": kind, "title": title, "text": text, "fields": fields, "submit": submit}
    if private:
        spec["private"] = private
    return spec


def field_name(prefix: str, key: object) -> str:
    """The name of one field of a series of like fields: ``field_name("repair", 2)`` is
    "repair2", ``field_name("frame:", "lab")`` is "frame:lab"."""
    return f"{prefix}{key}"


def numbered(count: int) -> range:
    """The keys of a numbered series of ``count`` fields: 1 to ``count`` (``repair1`` …)."""
    return range(1, count + 1)


def field_values(values: Mapping[str, Any], prefix: str, keys: Iterable[object]) -> list:
    """The values of the series of fields ``prefix`` + key (:func:`field_name`), in the
    order of ``keys``."""
    return [values[field_name(prefix, key)] for key in keys]


def all_or_none(values: Sequence[Any], refusal: str) -> bool:
    """Optional fields that are filled all together or left empty all together: True when
    every value is given, False when none is (or there is none); RuleViolation(``refusal``)
    when only some are."""
    if all(v is None for v in values):
        return False
    if any(v is None for v in values):
        raise RuleViolation(refusal)
    return True


def field_value(spec: dict, values: Mapping[str, Any]) -> Any:
    """The value of one field of a filled form, checked against the field; RuleViolation
    naming the field when it is missing or not one the form allows."""
    name, label, kind = spec["name"], spec.get("label", spec["name"]), spec["type"]
    value = values.get(name)
    if value is None or value == "":
        if kind == "bool":
            return False
        if kind == "text":
            return ""
        if spec.get("optional"):
            return None
        raise RuleViolation(f"{label}: a value is needed.")
    if kind == "choice":
        allowed = [o["value"] for o in spec["options"]]
        if not isinstance(value, str) or value not in allowed:
            raise RuleViolation(f"{label}: choose one of {', '.join(map(str, allowed))}.")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            value = _whole_number(value, label)
        if value > spec["max"] and spec.get("over"):
            raise RuleViolation(f"{label}: at most {spec['max']}. {spec['over']}")
        if not spec["min"] <= value <= spec["max"]:
            raise RuleViolation(f"{label}: from {spec['min']} to {spec['max']}.")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise RuleViolation(f"{label}: yes or no.")
        return value
    if kind == "text":
        limit = spec.get("max", TEXT_LIMIT)
        if not isinstance(value, str) or len(value) > limit:
            raise RuleViolation(f"{label}: at most {limit} characters of text.")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise RuleViolation(f"{label} contains a character that cannot be saved.") from None
        return value.strip()
    raise RuleViolation(f"{label}: this kind of field is unknown.")


def _whole_number(value: Any, label: str) -> int:
    """A whole number typed as text (" 7", "-3"); RuleViolation for anything else, "--5"
    and "²" included (``str.isdigit`` passes them, ``int`` does not)."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 10:
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise RuleViolation(f"{label}: a whole number is needed.")


def form_values(spec: dict, values: Any) -> dict[str, Any]:
    """Every field of ``spec`` checked (see :func:`field_value`); unknown names refused."""
    if not isinstance(values, Mapping):
        raise RuleViolation("The form's values must be a table of names and values.")
    known = {f["name"] for f in spec["fields"]}
    extra = [str(k)[:40] for k in values if k not in known]
    if extra:
        raise RuleViolation(f"{spec['title']}: no field named {', '.join(extra)}.")
    return {f["name"]: field_value(f, values) for f in spec["fields"]}


class GameDecisions:
    """What a player may decide for a ship, in one game. Subclass per game."""

    def forms(self, session: "Session", ship: "Ship") -> list[dict]:
        """The decisions open for ``ship`` now, as forms (``form(...)``); [] when none."""
        return []

    def action(self, session: "Session", ship: "Ship", kind: str, values: Any) -> "Action":
        """The action a filled form asks for. The form must be one :meth:`forms` offers now
        (refused otherwise); its values are checked with :func:`form_values`. Finding it
        builds every form open now: about 0.1 ms for the largest (a FedCom card), not worth
        a lookup by kind."""
        spec = next((f for f in self.forms(session, ship) if f["kind"] == kind), None)
        if spec is None:
            raise RuleViolation(f"{ship.name}: there is no decision \"{str(kind)[:40]}\" to make now.")
        return self.build(session, ship, kind, form_values(spec, values))

    def build(self, session: "Session", ship: "Ship", kind: str, values: dict) -> "Action":
        """Build the action of a checked form. Subclasses override this."""
        raise RuleViolation(f"{ship.name}: there is no decision \"{kind}\" in this game.")

    def in_force(self, session: "Session", ship: "Ship") -> list[str]:
        """The owner's decisions in force for ``ship`` now, in words, one line each (a turn
        report's "Orders in force": what the player has decided, to check or change). Private
        to the owner: only the owner's report gives them. [] when the game has none."""
        return []
