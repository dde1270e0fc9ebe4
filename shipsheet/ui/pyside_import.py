"""PySide6, imported once for the window, told up front what it would read every module's
source to learn.

PySide6 offers opt-in switches (``from __feature__ import snake_case, true_property``). To
serve them, once ``PySide6.QtCore`` is imported it replaces Python's ``__import__``, and
after every import statement it asks of each module it has not seen before whether that
module "uses PySide": it reads the module's whole source (``inspect.getsource``) and looks
for the word ``PySide6``. It keeps the answer in a table, module name to a switch setting:
``0``, the module uses PySide6 (no switch chosen); ``-1``, it does not (leave the switches
alone while its code runs).

ShipSheet chooses no switch, anywhere, so the answers change nothing it does; but the reads
are paid as the window starts: 67 sources (``typing``, ``pathlib``, ``re``, our own modules…)
read and searched, about 8 ms of the 210 to the first paint. :func:`import_pyside` writes the
answers in first, by what we know: ShipSheet's layers below Qt (``shipsheet.model``,
``shipsheet.rules``, ``shipsheet.pbem``, ``shipsheet.version``) never import it
(``tests/model/test_no_qt.py``, ``tests/test_import_graph.py``), nor do the standard library
and our other dependencies; the rest of ShipSheet (the Qt layer and the command line above
it) and PySide6's own modules are answered as using it.

The table is PySide6's own, not a documented interface (``shibokensupport.feature``'s
``pyside_feature_dict``). Where a PySide6 has no such table the answers are not written and
PySide6 reads the sources as before: slower, never wrong. ``tests/ui/test_pyside_import.py``
fails when the PySide6 the project pins stops taking them.
"""

from __future__ import annotations

import sys

from ..model.code_cache import compiling_kept

#: ShipSheet's packages below the Qt layer: PySide6 would answer -1 for their modules.
BELOW_QT = ("shipsheet.model", "shipsheet.rules", "shipsheet.pbem", "shipsheet.version")


def _setting(name: str) -> int:
    """The answer written for module ``name``: PySide6's own wherever its source names
    PySide6 (0); -1 for the layers below Qt and everything not ours. A Qt-layer module whose
    source happens not to name PySide6 gets 0 where PySide6 would write -1: with no switch
    chosen, the two mean the same."""
    if name.startswith("PySide6") or (name.startswith("shipsheet") and not name.startswith(BELOW_QT)):
        return 0
    return -1


class _Answers:
    """A finder that finds nothing: it writes the answer for each module about to be
    imported, before PySide6 would read the module's source to find it."""

    def __init__(self, table: dict):
        self.table = table

    def find_spec(self, name, path=None, target=None):
        if name not in self.table:
            self.table[name] = _setting(name)
        return None  # the next finder imports it, as before


def pyside_support(filename: str) -> bool:
    """Is ``filename`` one PySide6 compiles from the text inside its library as it is first
    imported (its ``signature_bootstrap`` and the ``shibokensupport`` package)? Their code
    is kept compiled between starts (``model/code_cache.py``): about 18 ms of each start."""
    return filename == "signature_bootstrap.py" or filename.startswith("shibokensupport/")


def feature_table() -> dict | None:
    """PySide6's table of answers, or None where this PySide6 keeps none."""
    feature = sys.modules.get("shibokensupport.feature")
    table = getattr(feature, "pyside_feature_dict", None)
    return table if isinstance(table, dict) else None


def import_pyside() -> bool:
    """Import PySide6's core and write the answers for every module imported so far and
    from now on; False where PySide6 keeps no such table (nothing is written)."""
    with compiling_kept(pyside_support):  # its support package's code and patterns, kept compiled
        import PySide6.QtCore  # noqa: F401  (installs PySide6's import hook and its table)
    table = feature_table()
    if table is None:
        return False
    if any(isinstance(finder, _Answers) for finder in sys.meta_path):
        return True
    for name in list(sys.modules):
        table.setdefault(name, _setting(name))
    sys.meta_path.insert(0, _Answers(table))
    return True
