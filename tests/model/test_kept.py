"""Kept tables (model/kept.py): bounded, and answers kept by identity only for that object."""

from shipsheet.model.kept import by_identity, keep


def test_a_table_at_its_limit_starts_afresh_and_never_grows_past_it():
    table: dict = {}
    for n in range(10):
        keep(table, n, n * n, 4)
        assert len(table) <= 4
    assert table == {8: 64, 9: 81}  # emptied at 4 entries: 8 and 9 came after
    keep(table, 9, "again", 2)  # a key it holds is replaced, nothing emptied
    assert table == {8: 64, 9: "again"}


def test_an_answer_kept_by_identity_is_for_that_object_alone():
    table: dict = {}
    made = []
    a, b = [1], [1]  # equal, not the same

    def answer(tag):
        return lambda: made.append(tag) or tag

    assert by_identity(table, a, answer("a"), 10) == "a"
    assert by_identity(table, a, answer("a again"), 10) == "a"  # kept
    assert by_identity(table, b, answer("b"), 10) == "b"  # equal is not enough
    assert by_identity(table, a, answer("a tapped"), 10, True) == "a tapped"  # other values
    assert made == ["a", "b", "a tapped"]
