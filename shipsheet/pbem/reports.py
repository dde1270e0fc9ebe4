"""Turn reports: per player, per turn, a plain-text e-mail body (DESK.md, "Turn reports").

:func:`turn_report` writes one player's report of one turn: a fixed-width text of at most
:data:`WIDTH` columns (a long line wraps with a hanging indent, cutting no word unless the
word alone is longer than the line), in sections:

- a header: the session, the game, the turn, the player, the date;
- "This turn": the turn's log lines that concern the player's ships, under each phase's
  heading. A line concerns a player when its ship is theirs; an attack (an action one of
  whose lines records an attacker, ``LogEntry.by``) that one of their ships made or took is
  given whole: its die rolls, and for Federation Commander each point of the DDAP with its
  reason. Undone changes are left out;
- "Your ships": each ship's damage in a few lines (the game's status words, and a short
  summary per game);
- "Orders in force": what the player has decided for their ships and still stands
  (standing orders, a recovery choice, a repair plan: the game's ``decisions`` piece);
- "Due": the decisions open for the session's turn per ship, and by when, if the moderator
  set a deadline (``pbem/deadline.py``);
- "Dice", when the session rolls verifiable dice (``pbem.dice``): for a closed turn its
  seed, revealed, its rolls' count and transcript hash and who added to its dice; for a
  turn not closed yet its commitment only; then the commitment to the next turn's seed;
- "Keys": every player's key fingerprint (or "not joined").

:func:`export_turn_reports` writes a turn's reports into ``turn-<N>/`` of a folder: per
player ``<name>.txt`` (the subject line, a blank line, the body), ``<name>.shipsheet`` (the
player's updated player file) and, when a PDF maker is given, ``<name>.pdf``. File names are
made from player names by :func:`safe_file_name`: no id or name becomes a path.

No Qt here: the PDF maker is a callable the printing layer provides
(``shipsheet.printing.pbem_pdf.ships_pdf``).
"""

from __future__ import annotations

from ..model.code_cache import dataclass
from datetime import date as _date
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence
from urllib.parse import quote

from shipsheet.model.errors import RuleViolation
from shipsheet.model.files import MAX_FILE_STEM, safe_file_name
from shipsheet.model.games import GAME_TITLES, piece
from shipsheet.model.privacy import seen_text
from shipsheet.model.storage import write_atomic
from shipsheet.model.text import MAIL_COLUMNS, columns, terminal_safe, wrap_columns

from . import record
from .players import player_session, save_player_file
from .record import Player

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Apply
    from shipsheet.model.log import LogEntry
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

#: The widest line of a report, in columns (a wide character counts two).
WIDTH = MAIL_COLUMNS
RULE = "=" * WIDTH
_HEAD = 2    # where a headline starts
_DETAIL = 6  # where a headline's further lines start
_HANG = 2    # how much further a wrapped line's continuation starts

PdfMaker = Callable[["Session", list, Path], object]
PlayerFileMaker = Callable[["Session", str], "Session"]


@dataclass(frozen=True)
class Report:
    """One player's report of one turn: the suggested subject line and the body."""

    subject: str
    body: str

    @property
    def text(self) -> str:
        """The report as its ``.txt`` file holds it: ``Subject: …``, a blank line, the body.

        A subject too long for one line is folded the way a mail header is (its further
        lines start with a space), so no line of the file is wider than :data:`WIDTH`."""
        return "\n".join(_fold_subject(self.subject)) + "\n\n" + self.body


# -- text of a fixed width ---------------------------------------------------------------------

def clean(text: object) -> str:
    """Text from a file, safe in a plain-text mail: control and format characters escaped
    (no line break, tab or bidirectional override gets into the layout)."""
    return terminal_safe(str(text))


def wrap(text: str, indent: int = 0, hang: int = _HANG, width: int = WIDTH) -> list[str]:
    """``text`` (cleaned first) as lines of at most ``width`` columns, the first starting at
    ``indent``, the rest at ``indent + hang``. Words are cut only when longer than a line
    (``model.text.wrap_columns``, the one wrapper)."""
    return wrap_columns(clean(text), width, " " * indent, " " * (indent + hang))


def _fold_subject(subject: str) -> list[str]:
    return wrap("Subject: " + subject, 0, 1)


def _field(label: str, value: object, at: int = 9) -> list[str]:
    """``Label:  value``, the value's lines (wrapped) all starting at column ``at``."""
    lines = wrap(str(value), at, 0)
    lines[0] = f"{label + ':':<{at}}" + lines[0][at:]
    return lines


def _section(title: str) -> list[str]:
    return ["", title, "-" * len(title)]


# -- who sees what -------------------------------------------------------------------------------

def _player(session: "Session", player: "str | Player") -> Player:
    if isinstance(player, Player):
        return player
    found = record.find_player(session, player)
    if found is None:
        known = ", ".join(p.name for p in record.players(session)) or "none"
        raise RuleViolation(f'There is no player "{clean(player)}" in this session\'s '
                            f"play-by-e-mail record (players: {clean(known)}).")
    return found


def _check_turn(session: "Session", turn: object) -> int:
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= session.turn:
        raise RuleViolation(f"There is no turn {turn!r} to report: this session is at turn "
                            f"{session.turn}.")
    return turn


def _groups(entries: Iterable["LogEntry"]) -> list[list["LogEntry"]]:
    """The entries in runs of one change each (its ``action`` number), in log order."""
    groups: list[list] = []
    for entry in entries:
        if groups and groups[-1][0].action == entry.action and entry.action:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def turn_lines(session: "Session", player: "str | Player", turn: int) -> list[tuple[str, str, int]]:
    """The turn's log, as one player's report gives it: (phase, text, indent) per line.

    ``text`` is ``""`` for a phase heading. See the module's docstring for what is given."""
    me = _player(session, player)
    turn = _check_turn(session, turn)
    mine = {s.id for s in me.own_ships(session)}
    mine.update(me.ships)  # a ship removed from the session still names its attacks
    names = session.ship_names()

    def name(ship_id: str | None) -> str:
        return names.get(ship_id, "a ship no longer in the session") if ship_id else ""

    out: list[tuple[str, str, int]] = []
    phase = None
    for whole in _groups(e for e in session.log if not e.undone):
        # A change that moved to another phase (the turn's end) gives no headline of its own.
        changes_phase = any(e.kind == "phase" for e in whole)
        group = [e for e in whole if e.turn == turn]
        if not group:
            continue
        attack = any(e.by is not None for e in group)
        given = attack and any(e.ship in mine or e.by in mine for e in group)
        # (entries compare by value: two alike lines are still two lines, so by identity)
        shown = {id(e) for e in group if e.kind != "phase" and (given or e.ship in mine)}
        head = group[0] if group[0].kind == "action" else None
        if head is not None and shown and head.ship is None and not changes_phase:
            shown.add(id(head))  # the headline of a change that touched the player's ship
        with_head = head is not None and id(head) in shown
        for e in group:
            if e.phase != phase:
                phase = e.phase
                out.append((phase, "", 0))
            if id(e) not in shown:
                continue
            # A line about another player's ship, as they may read it (model/privacy.py).
            text = seen_text(session, e, owner=e.ship is None or e.ship in mine)
            if text is None:
                continue
            if e is head:
                prefix = f"{name(e.ship)}: " if e.ship and name(e.ship) not in text else ""
                out.append((phase, prefix + text, _HEAD))
            else:
                other = e.ship is not None and (not with_head or e.ship != head.ship)
                prefix = f"{name(e.ship)}: " if other else ""
                out.append((phase, prefix + text, _DETAIL if with_head else _HEAD))
    return out


# -- each ship's damage --------------------------------------------------------------------------

def ship_summary(session: "Session", ship: "Ship") -> list[str]:
    """A ship's damage in a few lines of plain text (not wrapped): its status words from the
    game's rules, then the game's summary (its ``summary`` piece)."""
    chips = [clean(c) for c in session.rules.status_chips(ship)]
    lines = [f"Status: {', '.join(chips)}"] if chips else []
    lines.extend(piece(session.game, "summary")(ship))
    return lines


# -- the report -----------------------------------------------------------------------------------

def _dice_lines(session: "Session", turn: int) -> list[str]:
    """The "Dice" section: for a closed turn its seed revealed, its rolls' count and
    transcript hash, and who added to its dice; for a turn still open its commitment only
    (its seed stays secret until it closes); then the next turn's commitment. [] when the
    session's dice are not verifiable."""
    from shipsheet.model.dice import TURN_SET

    from . import dice, stages
    if not dice.is_verifiable(session):
        return []
    out = _section("DICE")
    found = session.pbem["dice"]  # a dice record: is_verifiable says so
    since = found.get("since_turn")
    if isinstance(since, int) and not isinstance(since, bool) and turn < since:
        return out + wrap(f"Turn {turn} was played before the dice became verifiable (from "
                          f"turn {since}): it has no seed to reveal.")
    commitments = found.get("commitments") if isinstance(found.get("commitments"), dict) else {}
    if turn not in stages.revealable(session):
        now = stages.WORDS.get(stages.stage(session, turn), "")
        out += wrap(f"Turn {turn} is not closed yet ({now}): its seed stays secret until it "
                    f"is. Commitment to turn {turn}'s seed (SHA-256; check it when the seed "
                    f"is revealed):")
        out += wrap(str(commitments.get(str(turn), "none")), _HEAD)
        return out
    seed, following = dice.reveal(session, turn)
    out += wrap(f"Seed of turn {turn}, revealed (check the rolls: shipsheet verify-dice with "
                f"your player file):")
    out += wrap(seed, _HEAD)
    if stages.scheme_of(session, turn) == TURN_SET:
        about = stages.info(session, turn)
        fixed = about.transcript or {}
        out += wrap(f"Turn {turn}'s rolls: {fixed.get('count', 0)}, transcript (SHA-256):")
        out += wrap(str(fixed.get("hash", "none")), _HEAD)
        words = stages.mix_words(about.contributions, about.unsigned, about.missing,
                                about.excluded)
        out += wrap(words[0].upper() + words[1:] + ".")
    else:
        out += wrap(f"Turn {turn} rolled turn-hmac-v1 (begun before turns had stages): the "
                    f"moderator chose the order orders were mixed in.")
    out += wrap(f"Commitment to turn {turn + 1}'s seed (SHA-256; revealed when it closes):")
    out += wrap(following, _HEAD)
    return out


def _in_force_lines(session: "Session", ships: Sequence["Ship"]) -> list[str]:
    """"Orders in force": per ship of the player's, what they have decided and still stands
    (the game's ``decisions`` piece, :meth:`GameDecisions.in_force`): their own, so only
    their report gives it. [] when no ship has any."""
    decisions = piece(session.game, "decisions")
    per_ship = [(ship, decisions.in_force(session, ship)) for ship in ships]
    if not any(lines for _, lines in per_ship):
        return []
    out = _section(f"ORDERS IN FORCE (turn {session.turn})")
    for ship, lines in per_ship:
        if lines:
            out += wrap(ship.name)
            for line in lines:
                out += wrap(line, _HEAD)
    return out


def _due_lines(session: "Session", ships: Sequence["Ship"]) -> list[str]:
    """"Due": the decisions open for turn ``session.turn`` per ship of the player's (the
    forms their player file or phone offers), and the moderator's deadline when one is set
    (``pbem/deadline.py``); once the turn's orders are closed, that they are."""
    from shipsheet.model.dice import OPEN

    from .deadline import deadline
    from .stages import stage
    now = session.turn
    out = _section(f"DUE (turn {now})")
    when = deadline(session)
    at = stage(session)
    if at is not None and at != OPEN:
        return out + wrap(f"Turn {now}'s orders are closed; orders for turn {now + 1} are "
                          f"due once it opens.")
    decisions = piece(session.game, "decisions")
    out += wrap(f"Your orders for turn {now} are due by {when}." if when is not None else
                f"Your orders for turn {now}: the moderator has set no deadline.")
    for ship in ships:
        titles = [f["title"] for f in decisions.forms(session, ship)]
        out += wrap(f"{ship.name}: " + (", ".join(titles) if titles else "nothing to decide"),
                    _HEAD)
    return out


def _key_lines(session: "Session") -> list[str]:
    """The "Keys" section: every player's key fingerprint (a player checks their own is
    theirs: a moderator cannot sign in their name unseen)."""
    from .keys import fingerprint, show_fingerprint
    out = _section("KEYS")
    out += wrap("The key each player's orders are signed with (compare yours with shipsheet "
                "pbem pins; ShipSheet warns when a file lists another):")
    for player in record.players(session):
        if not player.keys:
            out += wrap(f"{player.name}: not joined (orders not signed yet)", _HEAD)
            continue
        latest = player.keys[-1]
        out += wrap(f"{player.name}: {show_fingerprint(fingerprint(latest.public))} (from turn "
                    f"{latest.since})", _HEAD)
        for older in player.keys[:-1]:
            out += wrap(f"replaced: {show_fingerprint(fingerprint(older.public))} (from turn "
                        f"{older.since})", _DETAIL)
    return out


def report_subject(session: "Session", player: "str | Player", turn: int) -> str:
    """``<game name> T<turn> SITREP <player>``: the session's title (its name, else the
    game's) as the game's name."""
    me = _player(session, player)
    return clean(f"{session.title} T{turn} SITREP {me.name}")


def turn_report(session: "Session", player: "str | Player", turn: int, *,
                date: "str | _date | None" = None) -> Report:
    """``player``'s report of ``turn``: the subject line and a body of at most :data:`WIDTH`
    columns a line. ``date``: the report's date (today when None). Refused
    (RuleViolation) for an unknown player or a turn the session has not reached."""
    me = _player(session, player)
    turn = _check_turn(session, turn)
    when = date.isoformat() if isinstance(date, _date) else (date or _date.today().isoformat())
    title = GAME_TITLES.get(session.game, session.game)
    body: list[str] = wrap(f"SITREP: {session.title}")
    body.append(RULE)
    for label, value in (("Game", title), ("Session", session.title), ("Turn", turn),
                         ("Player", me.name), ("Date", when)):
        body += _field(label, value)

    body += _section(f"THIS TURN (turn {turn})")
    lines = turn_lines(session, me, turn)
    if not any(text for _, text, _ in lines):
        body.append("(nothing that concerns your ships)")
    for phase, text, indent in lines:
        if text:
            body += wrap(text, indent)
        else:
            body += wrap(f"[{phase}]" if phase else "[no phase]")

    body += _section("YOUR SHIPS")
    ships = me.own_ships(session)
    if not ships:
        body.append("(no ships)")
    for ship in ships:
        cls = ship.ship_class.name
        side = f", side {ship.side}" if ship.side else ""
        body += wrap(f"{ship.name} ({cls}{side})")
        for line in ship_summary(session, ship):
            body += wrap(line, _HEAD)

    body += _in_force_lines(session, ships)
    body += _due_lines(session, ships)
    if session.pbem.get("dice"):
        body += _dice_lines(session, turn)
    if record.players(session):
        body += _key_lines(session)
    body += ["", RULE, "Made by ShipSheet."]
    return Report(report_subject(session, me, turn), "\n".join(body) + "\n")


def mailto_url(report: Report, to: str = "") -> str:
    """A ``mailto:`` URL that opens the user's mail program with the report's subject and
    body filled in. Every part is percent-encoded (RFC 6068); the body's line breaks are
    sent as CRLF (``%0D%0A``), as RFC 6068 asks. A long report may be more than some mail
    programs take through a link: the ``.txt`` file holds the same text."""
    body = report.body.replace("\r\n", "\n").replace("\n", "\r\n")
    return (f"mailto:{quote(to, safe='@,')}?subject={quote(report.subject, safe='')}"
            f"&body={quote(body, safe='')}")


# -- the files ------------------------------------------------------------------------------------

def _unique_stems(names: Sequence[str]) -> list[str]:
    """Each name's safe file stem, made unique (ignoring case, as some file systems do)."""
    used: set[str] = set()
    stems = []
    for name in names:
        base = safe_file_name(name)
        stem, n = base, 1
        while stem.casefold() in used:
            n += 1
            stem = f"{base[:MAX_FILE_STEM - len(str(n)) - 1]}-{n}"
        used.add(stem.casefold())
        stems.append(stem)
    return stems


def export_turn_reports(session: "Session", turn: int, folder: str | Path, *,
                        player_file: PlayerFileMaker | None = None,
                        pdf: PdfMaker | None = None, players: Iterable[str] | None = None,
                        date: "str | _date | None" = None,
                        apply: "Apply | None" = None) -> list[Path]:
    """Write ``turn``'s reports into ``folder/turn-<N>/``; return the files written.

    Per player: ``<name>.txt`` (``Subject: …``, a blank line, the body), ``<name>.shipsheet``
    (``player_file(session, name)``, by default :func:`shipsheet.pbem.players.player_session`,
    saved readable by its owner only, as it holds the player's secret:
    :func:`~shipsheet.pbem.players.save_player_file`) and, when ``pdf`` is given
    and the player has ships, ``<name>.pdf`` (``pdf(session, ship_ids, path)``).
    ``players``: only these players (by name; default every player). File names come
    from :func:`safe_file_name`. Refused (RuleViolation) when the session has no players,
    for an unknown player, or a turn the session has not reached. The seeds of closed turns
    go out in the reports: the ledger marks them revealed first (a change of the session,
    one undo step, to save after: no orders for those turns are taken from then on), applied
    with ``apply`` (``session.apply`` when None)."""
    from .public import dice_readings
    from .stages import mark_revealed
    turn = _check_turn(session, turn)
    everyone = record.players(session)
    if not everyone:
        raise RuleViolation("This session has no play-by-e-mail players: there is no one to "
                            "report to.")
    mark_revealed(session, "turn reports", apply)  # the closed turns' seeds go out in them
    chosen = everyone if players is None else [_player(session, n) for n in players]
    if player_file is not None:
        make_file = player_file
    else:
        readings = dice_readings(session)  # the closed turns' transcripts, read once

        def make_file(s: "Session", name: str) -> "Session":
            return player_session(s, name, readings)
    out_dir = Path(folder) / f"turn-{turn}"
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for me, stem in zip(chosen, _unique_stems([p.name for p in chosen])):
        report = turn_report(session, me, turn, date=date)
        path = out_dir / f"{stem}.txt"
        write_atomic(path, report.text.encode("utf-8"))
        written.append(path)
        path = out_dir / f"{stem}.shipsheet"
        save_player_file(make_file(session, me.name), path)
        written.append(path)
        ships = [s.id for s in me.own_ships(session)]
        if pdf is not None and ships:
            path = out_dir / f"{stem}.pdf"
            pdf(session, ships, path)
            written.append(path)
    return written


__all__ = ["MAX_FILE_STEM", "Report", "WIDTH", "clean", "columns",
           "export_turn_reports", "mailto_url", "report_subject", "safe_file_name",
           "ship_summary", "turn_lines", "turn_report", "wrap"]
