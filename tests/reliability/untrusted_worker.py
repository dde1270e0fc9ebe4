"""The hostile-input suite's worker: run in a process of its own, under a memory limit.

``python untrusted_worker.py WORKDIR`` makes (never reads from the repository's test
data: it generates) hostile inputs of every kind the audit found and puts each through
what a user would do with a received file — ``load_session``, ``shipsheet check``,
``shipsheet print``, opening it in the window, saving it and opening the save — then
prints one JSON report on its last line. Every case runs under ``signal.alarm`` (a hang
is a failure, not a stuck suite); the whole process under ``RLIMIT_AS``.

The kinds of input (see ``cases()``): values replaced at every key of the three sample
sessions and of a version-0 file by wrong types, markup, path-like and unencodable text,
non-finite and huge numbers; special files (pipes, devices, folders, huge sparse files,
deep nesting); hostile ship definitions; damaged autosave stores.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

CASE_SECONDS = 10
MEMORY_LIMIT = 3 * 1024 ** 3
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"

MARKUP = '<img src="/dev/zero"><b>x</b>'
VALUES = {
    "null": None, "zero": 0, "negative": -1, "huge int": 10 ** 30, "true": True,
    "float": 1.5, "big float": 1e308, "empty text": "", "markup": MARKUP,
    "path": "../../outside/canary", "glob": "*", "long text": "x" * 5000,
    "list": [], "table": {}, "deep list": [[[[[[[[[[[]]]]]]]]]]],
    "control": "a\x1b]0;title\x07\x1b[2Kb",
}
RAW_VALUES = {"infinity": "1e400", "lone surrogate": '"a\\ud800b"', "nan": "NaN"}


class Hang(Exception):
    pass


def _alarm(*_):
    raise Hang()


def key_paths(value, path=(), limit_lists=2):
    """Every key path of a JSON value (lists: their first entries only)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from key_paths(item, path + (key,), limit_lists)
    elif isinstance(value, list):
        for i, item in enumerate(value[:limit_lists]):
            yield from key_paths(item, path + (i,), limit_lists)


def replaced(data, path, value):
    data = json.loads(json.dumps(data))
    if not path:
        return value
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def session_cases():
    """(name, bytes) of session files: a hostile value at every key of each sample."""
    rng = random.Random(14)
    v0 = {"format": "shipsheet-session", "version": 0, "game": "triplanetary", "seed": 3,
          "ships": [{"id": "a", "name": "Nike", "definition": json.loads(
              json.dumps(json.loads((SAMPLES / "triplanetary.shipsheet").read_text())["ships"][0]["class"])),
              "damage": {}}]}
    bases = {game: json.loads((SAMPLES / f"{game}.shipsheet").read_text("utf-8"))
             for game in ("fedcom", "war-in-space", "triplanetary")}
    bases["version-0"] = v0
    for game, data in bases.items():
        paths = list(key_paths(data))
        for path in paths:
            where = ".".join(map(str, path)) or "(top)"
            for label, value in VALUES.items():
                if label in ("long text", "deep list") and rng.random() > 0.2:
                    continue  # the costliest, sampled
                yield f"{game}: {where} = {label}", json.dumps(replaced(data, path, value)).encode()
            if path and rng.random() < 0.15:
                text = json.dumps(replaced(data, path, "@@RAW@@"))
                for label, raw in RAW_VALUES.items():
                    yield f"{game}: {where} = {label}", text.replace('"@@RAW@@"', raw).encode()
        # every text of the file carries markup at once
        marked = json.loads(json.dumps(data))
        for path in paths:
            try:
                value = marked
                for key in path:
                    value = value[key]
            except (KeyError, IndexError, TypeError):
                continue
            if isinstance(value, str) and path[-1] in ("name", "side", "class", "text", "notes"):
                marked = replaced(marked, path, MARKUP + value)
        yield f"{game}: markup in every name", json.dumps(marked).encode()
    yield "deep nesting", b"[" * 200_000 + b"]" * 200_000
    yield "not utf-8", b'{"format": "shipsheet-session", "name": "\xff\xfe"}'
    yield "byte order mark", b"\xef\xbb\xbf" + (SAMPLES / "fedcom.shipsheet").read_bytes()


def special_files(folder: Path):
    """(name, path) of files that are not what their names say."""
    folder.mkdir(parents=True, exist_ok=True)
    fifo = folder / "pipe.shipsheet"
    os.mkfifo(fifo)
    zero = folder / "zero.shipsheet"
    zero.symlink_to("/dev/zero")
    (folder / "dir.shipsheet").mkdir()
    sparse = folder / "huge.shipsheet"
    with open(sparse, "wb") as fh:
        fh.truncate(300 * 1024 * 1024)
    toml_fifo = folder / "pipe.toml"
    os.mkfifo(toml_fifo)
    deep_toml = folder / "deep.toml"
    deep_toml.write_text('game = "fedcom"\nx = ' + "[" * 50_000 + "]" * 50_000 + "\n")
    huge_toml = folder / "huge.toml"
    with open(huge_toml, "wb") as fh:
        fh.truncate(200 * 1024 * 1024)
    markup_toml = folder / "markup.toml"
    markup_toml.write_text((ROOT / "resources/ships/triplanetary/frigate.toml").read_text()
                           .replace('class = "Frigate"', f"class = '{MARKUP}'"))
    return [(p.name, p) for p in (fifo, zero, folder / "dir.shipsheet", sparse, toml_fifo, deep_toml,
                                  huge_toml, markup_toml)]


def damaged_stores(folder: Path):
    """Autosave folders with every kind of damage; each must be read without failing."""
    base = (SAMPLES / "fedcom.shipsheet").read_bytes()
    kinds = {
        "counter 1e300": b'{"autosave": {"counter": 1e300},' + base[1:],
        "counter NaN": b'{"autosave": {"counter": NaN},' + base[1:],
        "counter text": b'{"autosave": {"counter": "1"},' + base[1:],
        "entry a list": b'{"autosave": [],' + base[1:],
        "not json": b"\x00\x01garbage",
        "empty": b"",
        "truncated": base[: len(base) // 2],
        "source path": b'{"autosave": {"counter": 1, "source": "/etc/passwd"},' + base[1:],
    }
    for i, (label, raw) in enumerate(kinds.items()):
        store = folder / f"store-{i}"
        store.mkdir(parents=True)
        (store / f"{i:016x}.0.shipsheet").write_bytes(raw)
        (store / f"{i:016x}.1.shipsheet").write_bytes(b'{"autosave": {"counter": 0},' + base[1:])
        yield label, store
    store = folder / "store-special"
    store.mkdir()
    os.mkfifo(store / "00000000000000aa.0.shipsheet")
    (store / "00000000000000bb.0.shipsheet").symlink_to("/dev/zero")
    (store / "00000000000000cc.0.shipsheet").mkdir()
    os.mkfifo(store / "00000000000000dd.lock")
    yield "special files", store


def snapshot(folder: Path) -> dict:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


def main() -> None:
    work = Path(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    signal.signal(signal.SIGALRM, _alarm)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    outside = work / "outside"
    outside.mkdir(parents=True)
    (outside / "canary").write_text("must stay")
    (outside / "canary.json").write_text("{}")
    before = snapshot(outside)
    cases_dir = work / "cases"
    cases_dir.mkdir()

    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from shipsheet.cli import main as cli_main
    from shipsheet.model import SessionFileError, ShipDefinitionError, load_session, load_ship_class
    from shipsheet.model.autosave import AutosaveStore
    from shipsheet.model.storage import parse_session_bytes, session_to_bytes
    from shipsheet.printing.render import PrintJob, export_pdf
    from shipsheet.ui.app import Application, make_qapp

    for kind in ("warning", "information", "question", "critical"):  # no modal dialog may block
        setattr(QMessageBox, kind, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))
    QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: ("", ""))
    qapp = make_qapp()
    app = Application(qapp, AutosaveStore(work / "autosave"))
    window = app.new_window()

    report = {"cases": 0, "accepted": 0, "refused": 0, "windows": 0, "prints": 0, "checks": 0,
              "failures": [], "slowest": [0.0, ""]}

    def run(name, fn):
        report["cases"] += 1
        started = time.monotonic()
        signal.alarm(CASE_SECONDS)
        try:
            return fn()
        except Hang:
            report["failures"].append(f"{name}: hung (over {CASE_SECONDS} s)")
        except Exception:  # noqa: BLE001 - every escape is a finding
            report["failures"].append(f"{name}: {traceback.format_exc(limit=6)}")
        finally:
            signal.alarm(0)
            took = time.monotonic() - started
            if took > report["slowest"][0]:
                report["slowest"] = [round(took, 2), name]
        return None

    rng = random.Random(2026)
    accepted_files = []
    for i, (name, raw) in enumerate(session_cases()):
        def load(raw=raw, name=name, i=i):
            try:
                session = parse_session_bytes(raw, "case.shipsheet")
            except SessionFileError as exc:
                assert str(exc).startswith("case.shipsheet: "), str(exc)
                report["refused"] += 1
                return
            report["accepted"] += 1
            saved = session_to_bytes(session)  # whatever loads, saves ...
            again = parse_session_bytes(saved, "again")  # ... and loads again, the same
            assert session_to_bytes(again) == saved, "the save does not read back the same"
            if rng.random() < 0.04 or "markup in every" in name:
                path = cases_dir / f"case-{i}.shipsheet"
                path.write_bytes(raw)
                accepted_files.append((name, path))
        run(name, load)

    def full(name, path):
        """What a user does with a received file: check, print, open, save, reopen."""
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert cli_main(["check", str(path)]) in (0, 1)
        report["checks"] += 1
        session = load_session(path)
        if report["prints"] < 12:
            export_pdf(PrintJob(session, list(session.ships), True), cases_dir / "out.pdf")
            report["prints"] += 1
        assert window.open_path(path, session), "the window did not open an accepted file"
        for ship in session.ships:
            window.doc.select(ship.id)
        window.doc.autosave_now()
        target = cases_dir / "saved.shipsheet"
        window.doc.save(target)
        assert session_to_bytes(load_session(target)) == session_to_bytes(window.doc.session)
        window.doc.mark_clean()
        report["windows"] += 1

    for name, path in accepted_files:
        run(f"{name} (check, print, window, save)", lambda name=name, path=path: full(name, path))

    for name, path in special_files(work / "special"):
        def special(path=path):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                assert cli_main(["check", str(path)]) == (0 if path.name == "markup.toml" else 1)
            if path.suffix == ".toml":
                try:
                    load_ship_class(path)
                except ShipDefinitionError:
                    pass
            else:
                try:
                    load_session(path)
                    raise AssertionError("a special file loaded")
                except SessionFileError:
                    pass
                assert window.open_path(path) is False
        run(f"special file {name}", special)

    for name, folder in damaged_stores(work / "stores"):
        def store(folder=folder):
            s = AutosaveStore(folder)
            for info in s.recoverable():
                assert info.source is None or str(info.source).endswith(".shipsheet")
                parse_session_bytes(session_to_bytes(info.load()), "again")
        run(f"damaged autosave store: {name}", store)

    window.close()
    if snapshot(outside) != before or sorted(os.listdir(outside)) != ["canary", "canary.json"]:
        report["failures"].append("files outside the chosen folders were touched")
    report["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps(report))


if __name__ == "__main__":
    main()
