"""PySide6 is told up front which modules use it (``shipsheet/ui/pyside_import.py``), so it
does not read the source of every module the window imports, and its support package's
code is kept compiled between starts (``model/code_cache.py``; issue 28, start-up)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types

from shipsheet.model.paths import resources_dir
from shipsheet.ui import pyside_import

#: Run as the window's command, with PySide6's source reader counted from the moment
#: PySide6 installs it: the modules it read, and its table's answer for every module.
PROBE = r"""
import json, sys
read = []
class Watch:
    def find_spec(self, name, path=None, target=None):
        feature = sys.modules.get("shibokensupport.feature")
        if feature is not None and not hasattr(feature, "_probe_original"):
            feature._probe_original = feature._mod_uses_pyside
            def counted(module):
                read.append(module.__name__)
                return feature._probe_original(module)
            feature._mod_uses_pyside = counted
        return None
sys.meta_path.insert(0, Watch())
from shipsheet.cli import main
status = main(sys.argv[1:])
feature = sys.modules["shibokensupport.feature"]
uses = {name: bool(feature._probe_original(module)) for name, module in list(sys.modules.items())
        if name.startswith("shipsheet")}
print(json.dumps({"status": status, "read": read, "table": feature.pyside_feature_dict, "uses": uses}))
"""


def _start_window(tmp_path, probe: str = PROBE) -> dict:
    """The window's real start on the fedcom sample, in a process of its own running
    ``probe``, with user folders (and cache) of its own in ``tmp_path``: its last line."""
    sample = resources_dir() / "samples" / "fedcom.shipsheet"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               SHIPSHEET_STATE_DIR=str(tmp_path / "state"),
               SHIPSHEET_CONFIG_DIR=str(tmp_path / "config"),
               SHIPSHEET_DATA_DIR=str(tmp_path / "data"),
               SHIPSHEET_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", probe, "--quit-after-startup", str(sample)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_window_starts_without_pyside_reading_our_modules_or_the_standard_library(tmp_path):
    """Before, PySide6 read 67 sources as the window started (typing, pathlib, re, every
    module of ours imported after it): about 8 ms of the first paint."""
    report = _start_window(tmp_path)
    assert report["status"] == 0
    read = report["read"]
    assert not [name for name in read if name.startswith("shipsheet")], read
    for stdlib in ("typing", "pathlib", "re", "json", "functools", "contextlib", "os"):
        assert stdlib not in read
    # What is left is PySide6's own import, before its table exists to be written in.
    assert len(read) <= 5, read


def test_every_module_that_uses_pyside_is_answered_as_pyside_would(tmp_path):
    """The answers written for PySide6 are its own for every module of ours that uses it
    (0); a module that does not (the model, the rules) is left out of its switches (-1).
    Nothing of ours chooses a switch, so 0 for a Qt-layer module that happens not to name
    PySide6 changes nothing; -1 for a module that uses it would, were a switch chosen."""
    report = _start_window(tmp_path)
    table, uses = report["table"], report["uses"]
    assert uses["shipsheet.ui.main_window"] and not uses["shipsheet.model.session"]
    for name, used in uses.items():
        assert name in table, name
        if used:
            assert table[name] == 0, name
        if name.startswith(("shipsheet.model", "shipsheet.rules")):
            assert table[name] == -1, name


def test_a_pyside_without_the_table_is_left_to_read_the_sources(monkeypatch):
    """Where PySide6 keeps no table of answers, nothing is written and no finder is added:
    the window starts as it did, PySide6 reading each source itself."""
    monkeypatch.setitem(sys.modules, "shibokensupport.feature", types.ModuleType("feature"))
    finders = list(sys.meta_path)
    assert pyside_import.import_pyside() is False
    assert sys.meta_path == finders


#: The window's command, then what the process's kept code did (``model/code_cache.py``).
CACHE_PROBE = r"""
import json, sys
from shipsheet.cli import main
status = main(sys.argv[1:])
from shipsheet.model import code_cache
kept = code_cache.kept()
print(json.dumps({"status": status, "compiled": kept.compiled, "found": kept.found,
                  "files": sorted({key[0] for key in kept._asked})}))
"""


def test_the_second_start_compiles_nothing_the_first_compiled(tmp_path):
    """PySide6's support package, compiled from the text inside its library, and the
    methods of the data classes made on the way to the first paint are compiled at the
    first start only (about 23 ms of each start after it)."""
    first = _start_window(tmp_path, CACHE_PROBE)
    assert first["status"] == 0 and first["found"] == 0
    assert {"signature_bootstrap.py", "shibokensupport/signature/parser.py",
            "shibokensupport/signature/mapping.py", "<string>"} <= set(first["files"])
    assert first["compiled"] >= 40
    assert list((tmp_path / "cache").glob("compiled-*.bin"))

    second = _start_window(tmp_path, CACHE_PROBE)
    assert second["status"] == 0
    assert second["compiled"] == 0
    assert second["found"] == first["compiled"]
