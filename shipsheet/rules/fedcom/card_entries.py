"""Federation Commander card entries as the designer edits them: one row per box.

A card file may write a run of alike boxes once, with ``count`` (``{ id =
"lab", kind = "lab", count = 4 }`` is ``lab-1`` … ``lab-4``). The designer
shows every box as its own row (:func:`expand_entries`), and when it writes
the file it folds runs of alike ship-system boxes back into ``count``
entries (:func:`compact_entries`), so the file stays short and readable while
every box keeps its id.

A row is a plain dict with the editor's fields, all present::

    {"id": "ph-1", "kind": "phaser", "type": "Ph-1", "size": 1, "arc": "FA",
     "drones": 0, "occupant": "", "label": ""}

``arc`` is what the user typed: an arc name (``FA``, ``LF+L``) or a width in
degrees (``120`` or ``120°``, written as ``arc_degrees``). ``occupant`` is a
shuttle bay's occupant or a tractor's starting state.

A field a kind does not use (:func:`applies`: an arc on a warp box, drones on a
phaser) holds its blank value and is never written: a new box starts with its
kind's defaults (:func:`add_boxes`), a box whose kind changes drops what the new
kind does not use (:func:`change_kind`), and an arc a file gives a box without a
firing arc is not read (the loader ignores it too; ``card.unused_fields`` names it).
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

from .card import MAX_COUNT, OCCUPANTS, counted_ids, has_firing_arc
from .state import turn_states

#: Kinds whose boxes carry their own details; they are never folded into ``count``.
DETAIL_KINDS = ("phaser", "torpedo", "drone", "shuttle", "tractor")
#: Which editor fields apply to which kinds (``id``, ``kind``, ``label``: all; ``arc``:
#: the kinds with a firing arc, ``card.has_firing_arc``).
TYPE_KINDS = ("phaser", "torpedo", "drone")
SIZE_KINDS = ("torpedo",)
DRONE_KINDS = ("drone",)
OCCUPANT_KINDS = ("shuttle", "tractor")
#: The id prefix the designer numbers boxes of a kind with (``ph-1``, ``ph-2`` …).
ID_PREFIXES = {"phaser": "ph"}

_DEGREES = re.compile(r"^\s*(\d{1,4})\s*(°|deg|degrees)?\s*$")
_NUMBERED = re.compile(r"^(.*)-(\d+)$")
_SLUG = re.compile(r"[^a-z0-9]+")


#: The blank value of each field: what a field a kind does not use holds.
BLANK = {"type": "", "size": 1, "arc": "", "drones": 0, "occupant": "", "label": ""}


def blank_row(kind: str = "bridge", box_id: str = "") -> dict:
    """A new row with every field at its starting value."""
    return {"id": box_id, "kind": kind, **BLANK, "occupant": default_occupant(kind)}


def default_occupant(kind: str) -> str:
    """A shuttle bay starts empty; a tractor in its kind's default turn state, unused
    (``state.TURN_STATES``: the first state is the default)."""
    choices = occupant_choices(kind)
    return choices[0] if choices else ""


def applies(field: str, kind: str) -> bool:
    """Does ``field`` mean anything for a box of ``kind``?"""
    if field == "type":
        return kind in TYPE_KINDS
    if field == "size":
        return kind in SIZE_KINDS
    if field == "drones":
        return kind in DRONE_KINDS
    if field == "occupant":
        return kind in OCCUPANT_KINDS
    if field == "arc":
        return has_firing_arc(kind)
    return True


def occupant_choices(kind: str) -> tuple[str, ...]:
    """The starting states offered for a shuttle bay or a tractor, the default first:
    empty for a bay, unused for a tractor (its turn states, ``state.TURN_STATES``)."""
    if kind == "shuttle":
        return OCCUPANTS
    if kind == "tractor":
        return turn_states("tractor")
    return ()


def change_kind(row: Mapping, kind: str) -> dict:
    """The row with a new kind: what the new kind does not use is dropped (blank), and so is
    the type (a phaser's type, a heavy weapon's and a drone rack's are different things);
    a starting state the new kind cannot have goes back to its default. The id, the label
    and an arc both kinds have are kept."""
    if row.get("kind") == kind:
        return dict(row)
    new = _only_used(dict(row, kind=kind, type=BLANK["type"]))
    if new["occupant"] not in occupant_choices(kind):
        new["occupant"] = default_occupant(kind)
    return new


# -- rows <-> file entries -------------------------------------------------------------

def row_to_entry(row: Mapping) -> dict:
    """The card-file entry of one row (only the keys its kind uses, in the usual order)."""
    kind = str(row.get("kind", "")).strip()
    entry: dict = {"id": str(row.get("id", "")).strip(), "kind": kind}
    if kind in TYPE_KINDS:
        text = str(row.get("type", "")).strip()
        if text or kind != "drone":
            entry["type"] = text
    if kind in SIZE_KINDS:
        entry["size"] = row.get("size", 1)
    arc = str(row.get("arc", "")).strip() if applies("arc", kind) else ""
    if arc:
        match = _DEGREES.match(arc)
        if match and arc != "360":
            entry["arc_degrees"] = int(match.group(1))
        else:
            entry["arc"] = arc
    if kind in DRONE_KINDS:
        entry["drones"] = row.get("drones", 0)
    if kind == "shuttle":
        occupant = str(row.get("occupant", "")).strip() or OCCUPANTS[0]
        if occupant != OCCUPANTS[0]:
            entry["occupant"] = occupant
    if kind == "tractor":
        default = default_occupant(kind)
        state = str(row.get("occupant", "")).strip() or default
        if state != default:
            entry["state"] = state
    label = str(row.get("label", "")).strip()
    if label:
        entry["label"] = label
    return entry


def entry_to_row(entry: Mapping) -> dict:
    """One row from a (single-box) card entry."""
    kind = str(entry.get("kind", ""))
    row = blank_row(kind, str(entry.get("id", "")))
    row["type"] = str(entry.get("type", ""))
    size = entry.get("size", 1)
    row["size"] = size if isinstance(size, int) and not isinstance(size, bool) else 1
    if applies("arc", kind):  # an arc on a box without one is not read, so not written back
        if "arc" in entry:
            row["arc"] = str(entry["arc"])
        elif "arc_degrees" in entry:
            row["arc"] = f"{entry['arc_degrees']}°"
    drones = entry.get("drones", 0)
    row["drones"] = drones if isinstance(drones, int) and not isinstance(drones, bool) else 0
    if kind == "shuttle":
        row["occupant"] = str(entry.get("occupant", OCCUPANTS[0]))
    elif kind == "tractor":
        row["occupant"] = str(entry.get("state", default_occupant(kind)))
    row["label"] = str(entry.get("label", ""))
    return _only_used(row)


def _only_used(row: dict) -> dict:
    """The row with the fields its kind does not use at their blank values."""
    for field, blank in BLANK.items():
        if not applies(field, row["kind"]):
            row[field] = blank
    return row


def expand_entries(entries: Iterable) -> list[dict]:
    """Card entries (``count`` allowed) as one row per box, ids as the loader makes them."""
    rows: list[dict] = []
    for entry in entries:
        if not isinstance(entry, Mapping):
            continue
        count = entry.get("count", 1)
        if isinstance(count, int) and not isinstance(count, bool) and count > 1:
            rows += [entry_to_row(dict(entry, id=box_id))
                     for box_id in counted_ids(str(entry.get("id", "")), count)]
        else:
            rows.append(entry_to_row(entry))
    return rows


def compact_entries(entries: list[dict]) -> list[dict]:
    """Fold runs of alike system boxes (``base-1``, ``base-2`` … in order) into ``count``.

    Only boxes without details of their own (not weapons, shuttles, tractors)
    are folded, and only runs of two or more numbered from 1; every box keeps
    its id, so the card reads back exactly the same.
    """
    out: list[dict] = []
    i = 0
    while i < len(entries):
        entry = entries[i]
        match = _NUMBERED.match(entry.get("id", ""))
        if entry.get("kind") in DETAIL_KINDS or not match or match.group(2) != "1" or not match.group(1):
            out.append(entry)
            i += 1
            continue
        base = match.group(1)
        rest = {k: v for k, v in entry.items() if k != "id"}
        j = i + 1
        while (j < len(entries) and j - i < MAX_COUNT
               and entries[j].get("id") == f"{base}-{j - i + 1}"
               and {k: v for k, v in entries[j].items() if k != "id"} == rest):
            j += 1
        if j - i >= 2:
            out.append({"id": base, **rest, "count": j - i})
        else:
            out.append(entry)
        i = j
    return out


# -- numbering ----------------------------------------------------------------------------

def id_prefix(kind: str, type_: str = "") -> str:
    """The prefix new boxes of a kind are numbered with: ``ph``, ``photon``, ``left-warp``."""
    if kind == "torpedo" and type_.strip():
        slug = _SLUG.sub("-", type_.strip().lower()).strip("-")
        if slug:
            return slug
    return ID_PREFIXES.get(kind, kind)


def next_ids(existing: Iterable[str], prefix: str, count: int) -> list[str]:
    """``count`` new ids ``prefix-N`` after the highest number the prefix has, none taken."""
    taken = set(existing)
    top = 0
    for box_id in taken:
        match = _NUMBERED.match(box_id)
        if match and match.group(1) == prefix:
            top = max(top, int(match.group(2)))
    ids: list[str] = []
    n = top
    while len(ids) < count:
        n += 1
        candidate = f"{prefix}-{n}"
        if candidate not in taken:
            ids.append(candidate)
    return ids


def add_boxes(rows: list[dict], kind: str, count: int, *, type_: str = "", size: int = 1,
              arc: str = "", drones: int = 0, occupant: str = "", at: int | None = None,
              ) -> list[int]:
    """Insert ``count`` new boxes of ``kind`` numbered for you; returns their row numbers.

    They go after the last box of the same kind (so a card stays grouped), or at
    ``at``, or at the end. Only the fields the kind uses are taken (an arc given for a
    warp box is not); the others keep their blank values.
    """
    if count < 1:
        return []
    ids = next_ids((r["id"] for r in rows), id_prefix(kind, type_), count)
    if at is None:
        same = [i for i, r in enumerate(rows) if r["kind"] == kind
                and (kind != "torpedo" or not type_ or r["type"] == type_)]
        at = same[-1] + 1 if same else len(rows)
    given = {"type": type_, "size": size, "arc": arc, "drones": drones,
             "occupant": occupant or default_occupant(kind)}
    given = {field: value for field, value in given.items() if applies(field, kind)}
    new = [dict(blank_row(kind, box_id), **given) for box_id in ids]
    rows[at:at] = new
    return list(range(at, at + count))


def duplicate_rows(rows: list[dict], indices: Iterable[int]) -> list[int]:
    """Copy the given rows, each copy right after the last one selected, with fresh ids."""
    picked = sorted(set(i for i in indices if 0 <= i < len(rows)))
    if not picked:
        return []
    copies = []
    taken = [r["id"] for r in rows]
    for i in picked:
        row = dict(rows[i])
        match = _NUMBERED.match(row["id"])
        prefix = match.group(1) if match else (row["id"] or id_prefix(row["kind"], row["type"]))
        row["id"] = next_ids(taken, prefix, 1)[0]
        taken.append(row["id"])
        copies.append(row)
    at = picked[-1] + 1
    rows[at:at] = copies
    return list(range(at, at + len(copies)))


def move_rows(rows: list[dict], indices: Iterable[int], to: int) -> list[int]:
    """Move the given rows (kept in order) to before row ``to``; returns their new rows."""
    picked = sorted(set(i for i in indices if 0 <= i < len(rows)))
    if not picked:
        return []
    moving = [rows[i] for i in picked]
    to = max(0, min(to, len(rows)))
    before = sum(1 for i in picked if i < to)
    for i in reversed(picked):
        del rows[i]
    at = to - before
    rows[at:at] = moving
    return list(range(at, at + len(moving)))


def heavy_types(rows: Iterable[Mapping]) -> list[str]:
    """The heavy-weapon types on the card, in card order."""
    seen: list[str] = []
    for row in rows:
        if row.get("kind") == "torpedo":
            t = str(row.get("type", "")).strip()
            if t and t not in seen:
                seen.append(t)
    return seen


def sync_order(order: Iterable[str], types: Iterable[str]) -> list[str]:
    """The stated heavy-weapon order kept for types still on the card, new types appended."""
    types = list(types)
    kept = [t for t in order if t in types]
    return kept + [t for t in types if t not in kept]
