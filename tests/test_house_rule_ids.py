"""Every house reading has a stable id ("TRI-H7"), cited in the code where it is applied,
listed in the game's house rules (Help ▸ Rules and House Rules) and in its RULES.md.

[product]: house rules "must be visible in the UI ..., never silent". This test keeps the
three places in step: an id the code cites must be listed, a listed id must be cited (else
the reading is applied nowhere, or applied without its label), and RULES.md names them all.
"""

from pathlib import Path

import pytest

from shipsheet.model.games import GAME_IDS, MODEL, piece
from shipsheet.model.house import HOUSE_ID, HouseRule

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "shipsheet"


def _prefix_and_folder(game: str) -> tuple[str, Path]:
    """The game's house-rule id prefix ("FC" of "FC-H5") and its rules package's folder,
    from its registration: every registered game, no table of our own to forget."""
    import importlib
    prefixes = {r.id.rsplit("-H", 1)[0] for r in piece(game, "house_rules")}
    assert len(prefixes) == 1, f"{game}: its house rules' ids have one prefix"
    return prefixes.pop(), Path(importlib.import_module(MODEL.module(game)).__file__).parent


GAMES = {game: _prefix_and_folder(game) for game in GAME_IDS}
#: The modules that list the readings (they name every id, so they are not citations).
LISTS = {"house.py", "house_rules.py"}


def cited_ids() -> dict[str, set[str]]:
    """id -> the files citing it, over every Python file of the application."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name in LISTS and path.parent.parent.name == "rules":
            continue
        for match in HOUSE_ID.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(match.group(0), set()).add(str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_listed_id_is_cited_and_every_cited_id_is_listed(game):
    prefix, _folder = GAMES[game]
    rules = piece(game, "house_rules")
    assert all(isinstance(r, HouseRule) for r in rules)
    listed = {r.id for r in rules}
    cited = {i for i in cited_ids() if i.startswith(prefix + "-H")}
    assert sorted(cited - listed) == [], "cited in the code but not listed"
    assert sorted(listed - cited) == [], "listed but applied nowhere in the code"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_md_names_every_id(game):
    prefix, folder = GAMES[game]
    text = (folder / "RULES.md").read_text(encoding="utf-8")
    listed = {r.id for r in piece(game, "house_rules")}
    named = {m.group(0) for m in HOUSE_ID.finditer(text) if m.group(0).startswith(prefix + "-H")}
    assert sorted(listed - named) == [], "missing from RULES.md"
    assert sorted(named - listed) == [], "RULES.md names ids that are not listed"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_help_page_shows_every_id_with_its_reading(game):
    from shipsheet.ui.rules_help import rules_html
    page = rules_html(game)
    for rule in piece(game, "house_rules"):
        assert rule.id in page and rule.topic in page


def test_ids_are_unique_across_games():
    ids = [r.id for game in GAMES for r in piece(game, "house_rules")]
    assert len(ids) == len(set(ids))
