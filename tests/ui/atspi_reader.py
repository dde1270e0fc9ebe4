"""Read a running ShipSheet's sheet from outside, as a screen reader does: through AT-SPI.

Run by ``test_sheet_atspi.py`` with Debian's ``python3`` (its ``python3-pyatspi``; the
venv's Python cannot import Debian's ``gi``), inside the test's own D-Bus session and X
server. Finds the application whose window title holds ``argv[1]``, the sheet named
``argv[2]``, prints its boxes (role, name, description, states, actions) as JSON lines,
activates the box whose name starts with ``argv[3]`` through its Press action, and prints
that box again once its name has changed (or after 10 s)."""

import json
import sys
import time

import pyatspi


def states(acc):
    return sorted(pyatspi.stateToString(s) for s in acc.getState().getStates())


def actions(acc):
    try:
        act = acc.queryAction()
    except NotImplementedError:
        return []
    return [[act.getName(i), act.getDescription(i)] for i in range(act.nActions)]


def row(acc):
    return {"role": acc.getRoleName(), "name": acc.name, "description": acc.description,
            "states": states(acc), "actions": actions(acc)}


def find(acc, name, depth=0):
    if acc is None or depth > 30:
        return None
    if acc.name == name:
        return acc
    for i in range(acc.childCount):
        found = find(acc.getChildAtIndex(i), name, depth + 1)
        if found is not None:
            return found
    return None


def main():
    title, sheet_name, box_start = sys.argv[1:4]
    deadline = time.monotonic() + 60
    sheet = None
    while sheet is None and time.monotonic() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                windows = [app.getChildAtIndex(j) for j in range(app.childCount)]
            except Exception:
                continue
            if any(title in (w.name or "") for w in windows if w is not None):
                sheet = find(app, sheet_name)
                if sheet is not None:
                    break
        if sheet is None:
            time.sleep(0.25)
    if sheet is None:
        print(json.dumps({"error": f"no sheet named {sheet_name!r} in a window titled {title!r}"}))
        return 1
    print(json.dumps({"sheet": row(sheet), "children": sheet.childCount}), flush=True)
    target = None
    for i in range(sheet.childCount):
        box = sheet.getChildAtIndex(i)
        print(json.dumps({"box": row(box)}), flush=True)
        if target is None and box.name.startswith(box_start):
            target = box
    if target is None:
        print(json.dumps({"error": f"no box named {box_start}…"}))
        return 1
    before = target.name
    act = target.queryAction()
    press = next(i for i in range(act.nActions) if act.getName(i) == "Press")
    act.doAction(press)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for i in range(sheet.childCount):
            box = sheet.getChildAtIndex(i)
            if box.name.startswith(box_start) and box.name != before:
                print(json.dumps({"after": row(box)}), flush=True)
                return 0
        time.sleep(0.2)
    print(json.dumps({"after": row(target)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
