"""Code compiled from text at every start of the window, kept compiled between starts.

Python keeps each module's compiled code beside its source (``__pycache__``), but not code
compiled from text as a program runs. Two such compilers run at every start, and their
texts are the same each time:

- ``dataclasses`` writes each data class's methods (``__init__``, ``__repr__``, ``__eq__``…)
  as Python text and compiles it: 21 classes on the way to the window's first paint, about
  10 ms of it;
- the Qt binding carries its support package (``shibokensupport``: signatures, the
  ``__feature__`` switches) as source text inside its library, and compiles all of it
  whenever it is first imported: about 18 ms; that package and what it imports then
  compile regular expressions to ``re``'s programs: about 13 ms more.

ShipSheet's classes are made with :func:`dataclass` (the standard library's, looking its
methods' code up here first), and the window imports the binding inside
:func:`compiling_kept` (``ui/pyside_import.py``). A text is looked up by the whole of it,
with the file name, flags and optimisation it is compiled with: the code found is what
compiling that very text gives, or nothing is found. A regular expression is looked up by
its text and flags, and made from the program ``re`` compiled it to (``_sre`` checks a
program as it makes a pattern of it; one it refuses is compiled afresh). What was compiled
anew is written to the user's cache folder once the window has first painted
(:func:`save`, by ``ui/app.py``); the texts looked up then are all the file keeps, so what
a new binding or Python no longer asks for leaves it at the next write.

The file holds code that runs, like ``__pycache__``, and is trusted as far as that is:
it is read only from the user's own cache folder, written only by ShipSheet, readable
and writable by the user alone, and not read when another user owns it or may write it;
whoever can write it otherwise can already run code as the user. It is read bounded
(:data:`MAX_BYTES`), only under this very Python (its ``sys.version`` heads the file),
and only as a table of texts to code objects; anything else is ignored and the texts
compiled as before. A cache makes a start faster or not at all: it is never why one
fails (an unwritable folder is skipped).
"""

from __future__ import annotations

import __future__
import builtins
import dataclasses
import marshal
import os
import re
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from types import CodeType
from typing import Callable, Iterator, dataclass_transform

#: The file's first bytes: whose file it is and the Python that wrote it (its code objects
#: are this Python's own; another's are never read).
HEADER = b"ShipSheet compiled code\n" + sys.version.encode("utf-8", "replace") + b"\n"
#: The file is ignored above this size (a start's texts and code come to about 500 KB).
MAX_BYTES = 8 * 1024 * 1024
#: The compiler flags a ``from __future__`` import sets: compiling a text inherits those
#: of the code that asks (``compile`` without ``dont_inherit``, ``exec`` of a text).
FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag

_compile = builtins.compile  # Python's own, whatever is patched for a while
#: The file name under which a regular expression's program is kept.
PATTERN = "<regular expression>"


class CodeCache:
    """Texts and the code compiled from them: read from ``path`` when first asked."""

    def __init__(self, path: Path | None):
        self.path = path
        self._kept: dict | None = None  # read from the file, on the first lookup
        self._asked: dict = {}  # this process's lookups: what the next write keeps
        self._new = False  # something was compiled that the file did not hold
        self.compiled = 0  # texts compiled in this process (not found)
        self.found = 0  # texts found compiled

    def code(self, source: str | bytes, filename: str, flags: int, optimize: int = -1) -> CodeType:
        """The code compiling ``source`` as a module (``exec``) with exactly ``flags`` gives."""
        key = (filename, flags, sys.flags.optimize if optimize == -1 else optimize, source)
        code = self._lookup(key)
        if code is None:
            code = _compile(source, filename, "exec", flags, True, key[2])
            self._keep(key, code)
        return code

    def pattern(self, source: str | bytes, flags: int, compiler, compile_pattern: Callable) -> re.Pattern:
        """The regular expression ``compile_pattern`` (``re._compiler.compile``, of the
        module ``compiler``) makes of ``source`` and ``flags``, made from the program it
        compiled them to when that is kept: the arguments it gave ``_sre.compile``, which
        checks the program it is given."""
        key = (PATTERN, flags, 0, source)
        program = self._lookup(key)
        if program is not None:
            try:
                return compiler._sre.compile(*program)
            except Exception:  # noqa: BLE001  (a program _sre refuses: compiled afresh below)
                pass
        recorded = _Recorder(compiler._sre)
        with _swapped(vars(compiler), "_sre", recorded):
            made = compile_pattern(source, flags)
        if recorded.args is not None and recorded.args[0] == source:
            self._keep(key, recorded.args)
        return made

    def _lookup(self, key: tuple):
        found = self._asked.get(key)
        if found is None:
            if self._kept is None:
                self._kept = read_kept(self.path) if self.path is not None else {}
            found = self._kept.get(key)
            if found is not None:
                self.found += 1
                self._asked[key] = found
        return found

    def _keep(self, key: tuple, compiled) -> None:
        self.compiled += 1
        self._new = True
        self._asked[key] = compiled

    def save(self, write: Callable[..., object]) -> bool:
        """Write what was looked up with ``write`` (``storage.write_atomic``, handed down:
        the model's storage imports this module), the file the user's alone
        (:func:`read_kept` reads no other), if something had to be compiled; False if
        nothing was written (nothing new, no folder, or the write failed: it is only a
        cache)."""
        if not self._new or self.path is None:
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write(self.path, HEADER + marshal.dumps(self._asked), private=True)
        except (OSError, ValueError):
            return False
        self._new = False
        return True


class _Recorder:
    """``_sre`` for ``re._compiler`` while it compiles a pattern: the arguments of the
    pattern's making are recorded (the program is in them)."""

    def __init__(self, sre):
        self._sre = sre
        self.args: tuple | None = None

    def __getattr__(self, name: str):
        return getattr(self._sre, name)

    def compile(self, *args, **more):
        made = self._sre.compile(*args, **more)  # whatever this Python's re asks, as asked
        if len(args) == 6 and not more:  # (pattern, flags, code, groups, groupindex, indexgroup)
            pattern, flags, code, groups, groupindex, indexgroup = args
            # The opcodes are ints of a class of their own: kept as plain ints.
            self.args = (pattern, int(flags), [int(op) for op in code], int(groups),
                         dict(groupindex), tuple(indexgroup))
        return made


def read_kept(path: Path) -> dict:
    """The table in ``path``; empty for a missing, oversized, foreign or malformed file, and
    for one another user owns or may write (its code would run as this user's)."""
    from .files import read_regular
    from .portable import owned_by_someone_else, writable_by_others
    try:
        st = os.stat(path)
        if owned_by_someone_else(st) or writable_by_others(st):
            return {}
        data = read_regular(path, MAX_BYTES)
    except OSError:
        return {}
    if not data.startswith(HEADER):
        return {}
    try:
        kept = marshal.loads(memoryview(data)[len(HEADER):])
    except (ValueError, EOFError, TypeError):
        return {}
    if type(kept) is not dict or not all(_well_formed(key, code) for key, code in kept.items()):
        return {}
    return kept


def _well_formed(key, kept) -> bool:
    if not (type(key) is tuple and len(key) == 4 and type(key[0]) is str and type(key[1]) is int
            and type(key[2]) is int and type(key[3]) in (str, bytes)):
        return False
    if key[0] == PATTERN:  # the arguments of _sre.compile, which checks the program itself
        return (type(kept) is tuple and len(kept) == 6 and kept[0] == key[3]
                and [type(part) for part in kept[1:]] == [int, list, int, dict, tuple])
    return type(kept) is CodeType


def cache_file() -> Path | None:
    """Where this Python's kept code lives: the user's cache folder."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    from .paths import user_cache_dir
    try:
        return user_cache_dir() / f"compiled-{tag}.bin"
    except Exception:  # noqa: BLE001  (no home folder to be found: no cache, the start goes on)
        return None


_cache: CodeCache | None = None
_ABSENT = object()
_lock = threading.RLock()  # one class made, or one compiling_kept, at a time under a patch


@contextmanager
def _swapped(namespace: dict, name: str, value) -> Iterator[None]:
    """``namespace[name]`` is ``value`` while inside, then what it was (or absent again)."""
    before = namespace.get(name, _ABSENT)
    namespace[name] = value
    try:
        yield
    finally:
        if before is _ABSENT:
            namespace.pop(name, None)
        else:
            namespace[name] = before


def kept() -> CodeCache:
    """The process's cache (its file found on first use)."""
    global _cache
    if _cache is None:
        _cache = CodeCache(cache_file())
    return _cache


def save(write: Callable[..., object]) -> bool:
    """Write what this process had to compile (the window, once it has first painted)."""
    return _cache.save(write) if _cache is not None else False


def _inherited(flags: int, dont_inherit: bool, depth: int) -> int:
    """``flags`` and, unless ``dont_inherit``, the future flags of the code ``depth`` frames
    up, as Python's ``compile`` and ``exec`` take them."""
    return flags if dont_inherit else flags | (sys._getframe(depth + 1).f_code.co_flags & FUTURE_FLAGS)


def _exec_kept(source, globals=None, locals=None, /):  # noqa: A002  (exec's own names)
    """``exec`` as dataclasses calls it, a text's code looked up in the cache first."""
    if globals is None:  # exec's default: the caller's namespaces
        caller = sys._getframe(1)
        globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
    if type(source) is str:
        source = kept().code(source, "<string>", _inherited(0, False, 1))
    return builtins.exec(source, globals, locals)


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def dataclass(cls=None, /, **options):
    """``dataclasses.dataclass``, the same class made, its methods' code looked up in the
    cache first. ShipSheet's data classes are made with it (``tests/model/test_code_cache.py``)."""
    def make(cls):
        # dataclasses' own global ``exec`` shadows the builtin while the class is made.
        with _lock, _swapped(vars(dataclasses), "exec", _exec_kept):
            return dataclasses.dataclass(cls, **options)
    return make if cls is None else make(cls)


@contextmanager
def compiling_kept(takes: Callable[[str], bool] | None = None) -> Iterator[None]:
    """While inside, the program of every regular expression compiled is looked up in the
    cache first (``re.compile``: the binding's support package compiles about 13 ms of
    them), and so is ``compile`` of a whole module's text (``exec``) whose file name
    ``takes`` accepts; every other call compiles as ever. Not to be nested."""
    def compile_kept(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **more):
        if type(flags) is int:  # what the caller's code would have passed on (not this module's)
            flags, dont_inherit = _inherited(flags, dont_inherit, 1), True
        if (mode == "exec" and not more and type(source) in (str, bytes) and type(filename) is str
                and dont_inherit is True and not flags & ~FUTURE_FLAGS  # code, not a tree
                and takes is not None and takes(filename)):
            return kept().code(source, filename, flags, optimize)
        return _compile(source, filename, mode, flags, dont_inherit, optimize, **more)

    compiler = getattr(re, "_compiler", None)  # re's own compiler (Python 3.11 on)
    compile_pattern = getattr(compiler, "compile", None)  # or an enclosing compiling_kept's
    patterns = callable(compile_pattern) and hasattr(compiler, "_sre")

    def pattern_kept(p, flags=0):
        if type(p) in (str, bytes) and type(flags) is int and not flags & re.DEBUG:
            return kept().pattern(p, flags, compiler, compile_pattern)
        return compile_pattern(p, flags)

    with _lock, _swapped(vars(builtins), "compile", compile_kept), \
            _swapped(vars(compiler) if patterns else {}, "compile", pattern_kept):
        yield
