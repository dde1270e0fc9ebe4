"""Code compiled from text at every start, kept compiled between starts
(``shipsheet/model/code_cache.py``; issue 28, start-up): what is found is exactly what
compiling would give, and a file that is not ours, not this Python's or not whole is
never used."""

from __future__ import annotations

import __future__
import ast
import builtins
import dataclasses
import marshal
import re
import textwrap
from pathlib import Path

import pytest

from shipsheet.model import code_cache
from shipsheet.model.code_cache import HEADER, CodeCache, compiling_kept, read_kept
from shipsheet.model.portable import WINDOWS
from shipsheet.model.storage import write_atomic

SHIPSHEET = Path(code_cache.__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path, monkeypatch) -> CodeCache:
    """The process's cache, for this test: a file of its own, empty."""
    kept = CodeCache(tmp_path / "cache" / "compiled.bin")
    monkeypatch.setattr(code_cache, "_cache", kept)
    return kept


def _again(cache: CodeCache, monkeypatch) -> CodeCache:
    """The next start: the same file, read afresh."""
    again = CodeCache(cache.path)
    monkeypatch.setattr(code_cache, "_cache", again)
    return again


def _make_class():
    @code_cache.dataclass(frozen=True)
    class Box:
        """A box of a sheet."""
        name: str
        hits: int = 0
        marks: tuple = dataclasses.field(default=())
    return Box


def test_a_class_made_again_at_the_next_start_compiles_nothing(cache, monkeypatch):
    first = _make_class()
    made = cache.compiled
    assert made >= 3  # __init__, __repr__, __eq__, __hash__…
    assert cache.save(write_atomic) and cache.path.is_file()
    assert not cache.save(write_atomic)  # nothing new: the file is not written again

    again = _again(cache, monkeypatch)
    box = _make_class()
    assert (again.compiled, again.found) == (0, made)
    # The same class as the standard library's, with all it does.
    assert dataclasses.is_dataclass(box) and [f.name for f in dataclasses.fields(box)] == ["name", "hits", "marks"]
    assert box("ph-1", 2) == box("ph-1", 2) != box("ph-1")
    assert repr(box("ph-1")) == "_make_class.<locals>.Box(name='ph-1', hits=0, marks=())"
    assert hash(box("ph-1")) == hash(box("ph-1"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        box("ph-1").hits = 3
    assert dataclasses.replace(box("ph-1"), hits=1) == box("ph-1", 1)
    assert first("a") != box("a")  # two classes, as ever
    assert "exec" not in vars(dataclasses)  # the standard library is left as it was


def test_code_found_is_the_code_compiling_gives(cache, monkeypatch):
    texts = ["def f(x: 'int') -> list[Unknown]:\n    return [x]\n",
             "class A:\n    y: Later = 1\n",
             "import os\nz = os.sep\n"]
    annotations = __future__.annotations.compiler_flag
    for flags in (0, annotations):
        for text in texts:
            assert cache.code(text, "<string>", flags) == builtins.compile(text, "<string>", "exec", flags, True)
    cache.save(write_atomic)
    again = _again(cache, monkeypatch)
    for text in texts:
        assert again.code(text, "<string>", annotations) == builtins.compile(text, "<string>", "exec", annotations, True)
    assert again.compiled == 0


def test_the_flags_and_file_name_are_part_of_what_is_looked_up(cache):
    """``from __future__ import annotations`` leaves an annotation unevaluated: compiled with
    and without it, a text gives two codes, each kept on its own."""
    text = "def f(x: Missing):\n    return x\n"
    plain = cache.code(text, "<string>", 0)
    deferred = cache.code(text, "<string>", __future__.annotations.compiler_flag)
    named = cache.code(text, "other.py", 0)
    assert cache.compiled == 3 and plain != deferred and plain.co_filename != named.co_filename
    with pytest.raises(NameError):
        exec(plain, {})
    exec(deferred, {})  # the annotation stays a string


def test_inside_compiling_kept_only_the_named_files_are_kept(cache):
    taken = "shibokensupport/signature/parser.py"
    with compiling_kept(lambda name: name.startswith("shibokensupport/")):
        kept_code = compile(b"x = 1\n", taken, "exec")
        other = compile("y = 2\n", "mine.py", "exec")
        expression = compile("1 + 1", taken, "eval")
    assert builtins.compile is code_cache._compile  # put back
    assert cache.compiled == 1 and list(cache._asked)[0][0] == taken
    assert kept_code == builtins.compile(b"x = 1\n", taken, "exec")
    assert other.co_filename == "mine.py" and eval(expression) == 2


def test_compiling_kept_inherits_the_callers_future_flags_as_compile_does(cache):
    """This test module says ``from __future__ import annotations``: compile called here
    inherits it, and so does the kept code, as Python's own compile would."""
    text = "def f(x: Missing):\n    return x\n"
    with compiling_kept(lambda name: True):
        code = compile(text, "mod.py", "exec")
        not_inherited = compile(text, "mod.py", "exec", dont_inherit=True)
    exec(code, {})  # deferred: no NameError
    with pytest.raises(NameError):
        exec(not_inherited, {})
    assert code == builtins.compile(text, "mod.py", "exec")


@pytest.mark.parametrize("content", [
    b"",
    b"not ours\n" + marshal.dumps({}),
    HEADER.replace(b"ShipSheet", b"Another") + marshal.dumps({}),
    b"ShipSheet compiled code\n3.0.0 (another Python)\n" + marshal.dumps({}),
    HEADER + marshal.dumps({("<string>", 0, 0, "x = 1\n"): builtins.compile("x = 1\n", "<string>", "exec")})[:-7],
    HEADER + b"\xff\x00garbage",
    HEADER + marshal.dumps(["x = 1\n"]),
    HEADER + marshal.dumps({("<string>", 0, 0, "x = 1\n"): "print('not code')"}),
    HEADER + marshal.dumps({"x = 1\n": builtins.compile("x = 1\n", "<string>", "exec")}),
], ids=["empty", "not ours", "other header", "another Python", "truncated", "garbage",
        "not a table", "not code", "bad key"])
def test_a_file_not_ours_not_this_pythons_or_not_whole_is_not_used(cache, content):
    cache.path.parent.mkdir(parents=True)
    cache.path.write_bytes(content)
    assert read_kept(cache.path) == {}
    code = cache.code("x = 1\n", "<string>", 0)
    assert cache.compiled == 1 and code == builtins.compile("x = 1\n", "<string>", "exec", 0, True)


def test_a_file_too_large_or_a_folder_is_not_read(cache, monkeypatch):
    cache.code("x = 1\n", "<string>", 0)
    cache.save(write_atomic)
    assert read_kept(cache.path)  # whole, this Python's: read
    monkeypatch.setattr(code_cache, "MAX_BYTES", cache.path.stat().st_size - 1)
    assert read_kept(cache.path) == {}
    folder = cache.path.parent / "folder.bin"
    folder.mkdir()
    assert read_kept(folder) == {}


def test_the_file_keeps_what_was_looked_up_and_an_unwritable_folder_is_skipped(cache, monkeypatch, tmp_path):
    cache.code("old = 1\n", "<string>", 0)
    cache.save(write_atomic)
    again = _again(cache, monkeypatch)
    again.code("new = 2\n", "<string>", 0)
    assert again.save(write_atomic)
    assert [key[3] for key in read_kept(cache.path)] == ["new = 2\n"]  # what no one asks for goes

    blocked = tmp_path / "a file"
    blocked.write_text("in the way")
    stuck = CodeCache(blocked / "compiled.bin")
    stuck.code("x = 1\n", "<string>", 0)
    assert stuck.save(write_atomic) is False  # a cache only: nothing raised, the start goes on


def test_every_data_class_of_shipsheet_is_made_through_the_cache():
    """A class made with the standard library's decorator compiles its methods at every
    start: ShipSheet's are made with ``model.code_cache.dataclass``."""
    found = []
    for path in sorted(SHIPSHEET.rglob("*.py")):
        if path.name == "code_cache.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "dataclasses":
                found += [f"{path.name}: from dataclasses import dataclass"
                          for alias in node.names if alias.name == "dataclass"]
            if isinstance(node, ast.Attribute) and node.attr == "dataclass" \
                    and isinstance(node.value, ast.Name) and node.value.id == "dataclasses":
                found.append(f"{path.name}:{node.lineno}: dataclasses.dataclass")
    assert not found, found


def test_the_cache_is_in_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("SHIPSHEET_CACHE_DIR", str(tmp_path))
    path = code_cache.cache_file()
    assert path.parent == tmp_path and path.name.startswith("compiled-") and path.suffix == ".bin"


def test_the_dataclass_decorator_keeps_the_standard_librarys_signature():
    source = textwrap.dedent('''
        from shipsheet.model.code_cache import dataclass
        @dataclass(slots=True, order=True)
        class P:
            """A point."""
            x: int
            y: int = 0
    ''')
    namespace: dict = {}
    exec(builtins.compile(source, "<test>", "exec"), namespace)
    point = namespace["P"]
    assert point(1) < point(2) and point.__slots__ == ("x", "y") and point(1, 2).y == 2


def _fresh(pattern: str, flags: int = 0) -> re.Pattern:
    re.purge()  # re keeps the patterns it compiled: this one is compiled now
    return re.compile(pattern, flags)


PATTERNS = [(r"(?P<turn>T\d+) [^|\n]*\| *", 0), (r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$", 0),
            (r"(hit first|hit last|frame instead)\s*(?P<box>\w+)?", re.IGNORECASE | re.MULTILINE),
            (rb"[\x00-\x1f]+", 0)]


def test_a_regular_expression_made_from_its_kept_program_is_the_same_pattern(cache, monkeypatch):
    """The binding's support package compiles about 13 ms of regular expressions at each
    import. Inside ``compiling_kept`` their programs are kept; a pattern made from one is
    equal (same text, flags and program) to one compiled afresh, and finds the same."""
    with compiling_kept(lambda name: False):
        first = [_fresh(text, flags) for text, flags in PATTERNS]
    assert cache.compiled == len(PATTERNS) and cache.save(write_atomic)
    again = _again(cache, monkeypatch)
    with compiling_kept(lambda name: False):
        made = [_fresh(text, flags) for text, flags in PATTERNS]
    assert (again.compiled, again.found) == (0, len(PATTERNS))
    for pattern, before, (text, flags) in zip(made, first, PATTERNS):
        fresh = _fresh(text, flags)
        assert pattern == fresh == before and pattern.groupindex == fresh.groupindex
    assert made[0].match("T12 Combat | hit").group("turn") == "T12"
    assert made[2].search("Hit last  ph1").group("box") == "ph1"
    assert made[3].sub(b"", b"a\x00b") == b"ab"


def test_a_program_re_refuses_is_compiled_afresh(cache, monkeypatch):
    """A kept program is checked by ``_sre`` as it is made into a pattern; one it refuses is
    compiled afresh, and the start goes on."""
    text = r"ab+c"
    key = (code_cache.PATTERN, 0, 0, text)
    with compiling_kept(lambda name: False):
        _fresh(text)
    program = cache._asked[key]
    broken = (program[0], program[1], [999] * len(program[2]), *program[3:])
    cache._asked[key] = broken
    cache.save(write_atomic)
    again = _again(cache, monkeypatch)
    with compiling_kept(lambda name: False):
        pattern = _fresh(text)
    assert pattern == re.compile(text) and pattern.fullmatch("abbbc")
    assert (again.found, again.compiled) == (1, 1)  # found, refused, compiled
    with pytest.raises(RuntimeError):
        re._compiler._sre.compile(*broken)  # what _sre says of the broken program


def test_a_tree_asked_of_compile_is_a_tree_not_kept_code(cache):
    """``compile`` asked for a syntax tree (``ast.PyCF_ONLY_AST``) gives one, as ever."""
    with compiling_kept(lambda name: True):
        tree = compile("x = 1\n", "mod.py", "exec", ast.PyCF_ONLY_AST)
    assert isinstance(tree, ast.Module) and cache.compiled == 0




def test_a_making_of_patterns_not_as_expected_is_left_alone(cache, monkeypatch):
    """Should a Python's ``re`` make patterns with other arguments than the six Python
    3.11 gives ``_sre.compile``, every pattern is still made as that ``re`` asks, and
    none is kept."""
    compiler, text = re._compiler, r"x(?P<middle>y)z"
    sre, recorded = compiler._sre, code_cache._Recorder(compiler._sre)
    compiler._sre = recorded
    try:
        compiler.compile(text, 0)
    finally:
        compiler._sre = sre
    args = recorded.args
    # This re gives the last argument by name.
    monkeypatch.setattr(compiler, "compile",
                        lambda p, flags=0: compiler._sre.compile(*args[:5], indexgroup=args[5]))
    with compiling_kept():
        pattern = _fresh(text)
    assert pattern.fullmatch("xyz").group("middle") == "y"
    assert pattern == re.compile(text) and cache.compiled == 0


def test_a_file_others_may_write_is_not_read(cache):
    """Its code would run as this user's: a file another user may write is not read (POSIX:
    a group or other write bit; Windows keeps no such bits, and the file is read there).
    It is written for the user alone."""
    cache.code("x = 1\n", "<string>", 0)
    assert cache.save(write_atomic)
    if not WINDOWS:
        assert cache.path.stat().st_mode & 0o077 == 0
    assert read_kept(cache.path)
    cache.path.chmod(0o666)
    assert (read_kept(cache.path) != {}) is WINDOWS
