"""Export and import of a player's records as JSON.

The file holds every game of the player — deal code, rules, difficulty, start and end, result — with
its ``record``: the ``Key: value`` + moves text of :mod:`pyramid_solitaire.record`, the same that
``/api/games/{id}/record`` gives and ``pyramid-solitaire replay`` reads, and the time of each entry.
Import checks each game by playing its record through the engine: the code must deal under the stated
rules, no entry may be refused, and the game must end with the stated result and move count; otherwise
the whole file is refused with a message naming the game and what is wrong, and nothing is added.
Imported games get new ids and count in statistics like any other — once: a game the player already
has (same deal code, same start) is not added again (:meth:`.Store.import_games`).

Files of version 1, written before games were kept as moves, held the page's taps; they are still read,
through the conversion the database migration uses (:mod:`pyramid_solitaire.store.taps`).
"""

from __future__ import annotations

import re
import secrets
from typing import Final, TypeVar, cast

from ..daily import DailyError, daily_deal, parse_day
from ..deal import Deal, DealError
from ..game import Game
from ..messages import Problem
from ..moves import MoveError
from ..reasons import IllegalMoveError, Refusal
from ..record import Entry, RecordError, format_record, play_entry, read_record
from ..store import FROM_FILE, PLAYED_OFFLINE, RESULTS, Action, GameRow, Store, unrecordable
from ..store.taps import entries_of
from .answering import record_headers
from .answers import ExportedGame, RecordsExport, SyncAnswer
from .badges import badges_of
from .games import entry_of, rebuild
from .play import Session

FORMAT: Final = "pyramid-solitaire-records"
FORMAT_VERSION: Final = 2
#: Versions of the file this program reads: 1 (taps, converted) and 2 (records).
READS: Final = (1, 2)
#: Games and actions one file may hold.
MAX_GAMES: Final = 5_000
MAX_ACTIONS: Final = 5_000
#: The action kinds of a version-1 file.
ACTION_KINDS: Final = frozenset(
    {"tap", "stock", "move", "undo", "redo", "rewind", "hint", "coach", "deselect", "resign", "cell"}
)
#: The kinds whose action names a card, a slot, a move or a free cell (a cell tap may name none); the others
#: are recorded without an argument.
ARGUMENT_KINDS: Final = frozenset({"tap", "move", "cell"})
#: Times are milliseconds since 1970, kept in a signed 64-bit column.
MAX_MS: Final = 2**63 - 1
#: Games one sync may send (a browser sends what it finished offline since it last reached the server).
MAX_SYNC: Final = 200
#: A daily challenge's id (challenges.Challenge).
CHALLENGE_ID: Final = re.compile(r"^\d{4}-\d{2}-\d{2}-[a-z_]{1,29}$", re.ASCII)
#: The id the browser's engine gives a game it dealt (web/offline.py).
OFFLINE_ID: Final = re.compile(r"^off-[0-9a-f]{8,64}$")


class RecordsImportError(Problem, ValueError):
    """Records that cannot be imported; the message names the game (its number from 1, ``game``) and the
    problem (``import.*``)."""


class _Refused(Problem):
    """A move or event the rules refuse, as part of a message: the refusal in the message's language."""

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        super().__init__(refusal.key, **refusal.details)

    def message(self, lang: str) -> str:
        return self.refusal.message(lang)


def _why(exc: Exception) -> Problem:
    """The problem an entry or action of a game was refused with, to be said in the message's language."""
    if isinstance(exc, Problem):
        return exc
    if isinstance(exc, IllegalMoveError):
        return _Refused(exc.refusal)
    return Problem("import.unexpected", reason=str(exc))


def _outcome(result: str | None) -> Problem:
    """How a game ends (``won``…, or ``unfinished``), as a word of the message's language."""
    return Problem(f"import.outcome.{result or 'unfinished'}")


def export_records(store: Store, player_id: str) -> RecordsExport:
    """Every game of the player, oldest first, with its actions."""
    player = store.player(player_id)
    rows = sorted(
        store.games_of(player_id, finished=True, limit=MAX_GAMES)
        + store.games_of(player_id, finished=False, limit=MAX_GAMES),
        key=lambda r: (r.started_ms, r.id),
    )
    out: list[ExportedGame] = []
    for row in rows:
        recorded = store.actions(row.id)
        session = rebuild(row, store)
        out.append(
            {
                "code": row.code,
                "rules": row.rules,
                "difficulty": row.difficulty,
                "started_ms": row.started_ms,
                "ended_ms": row.ended_ms,
                "result": row.result,
                "moves": row.moves,
                "record": format_record(record_headers(session), [entry_of(a) for a in recorded]),
                "times": [a.at_ms for a in recorded],
                "daily": row.daily,
                "daily_counted": bool(row.daily_counted),
                "challenge": row.challenge,
            }
        )
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "name": player["name"] if player else None,
        "games": out,
        # read again from the games on import (never taken from the file): here for a reader of the file
        "badges": badges_of(store, player_id),
    }


#: A game of an import or sync file: JSON's object, its fields checked one by one as they are read.
Fields = dict[str, object]
#: A field's JSON type, as an import reads it.
T = TypeVar("T", str, int, list[object])


def _field(game: Fields, key: str, kind: type[T], nth: int) -> T:
    value = game.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordsImportError("import.field", game=nth, key=key)
    return value


def _is_time(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_MS


def check_records(data: object, player_id: str) -> list[tuple[GameRow, list[Action]]]:
    """The games of an export file, each replayed and checked (see the module docstring)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordsImportError("import.not-records", format=FORMAT)
    version = data.get("version")
    if version not in READS or isinstance(version, bool):
        raise RecordsImportError("import.version", version=str(version)[:40], latest=FORMAT_VERSION)
    listed = data.get("games")
    if not isinstance(listed, list) or len(listed) > MAX_GAMES:
        raise RecordsImportError("import.games", most=MAX_GAMES)
    out = []
    for number, game in enumerate(listed, start=1):
        if not isinstance(game, dict):
            raise RecordsImportError("import.not-object", game=number)
        out.append(_check_game(game, number, player_id, int(version)))
    return out


def _entries_v2(game: Fields, nth: int, deal: Deal, started: int, session: Session) -> list[tuple[Entry, int]]:
    """A version-2 game: its record, played through the engine, and the time of each entry."""
    text = _field(game, "record", str, nth)
    try:
        record = read_record(text)
    except RecordError as exc:
        raise RecordsImportError("import.record", game=nth, problem=exc) from None
    if record.headers["Deal"] != deal.code or record.headers["Rules"] != str(deal.rules):
        raise RecordsImportError("import.other-deal", game=nth, code=deal.code)
    if len(record.entries) > MAX_ACTIONS:
        raise RecordsImportError("import.too-many-entries", game=nth, most=MAX_ACTIONS)
    times = game.get("times", [started] * len(record.entries))
    if not isinstance(times, list) or len(times) != len(record.entries) or not all(_is_time(t) for t in times):
        raise RecordsImportError("import.times", game=nth)
    for number, entry in enumerate(record.entries, start=1):
        try:
            session.check_cell(entry)
            play_entry(session.game, entry)
        except (IllegalMoveError, ValueError) as exc:
            raise RecordsImportError(
                "import.entry-refused", game=nth, entry=number, move=str(entry), problem=_why(exc)
            ) from None
        session.version += 1
    return list(zip(record.entries, times, strict=True))


def _entries_v1(game: Fields, nth: int, session: Session) -> list[tuple[Entry, int]]:
    """A version-1 game: its taps, checked for form, then turned into moves and events as the database
    migration does, and the time of the tap that made each."""
    recorded = cast(list[list[object]], _field(game, "actions", list, nth))  # each checked below
    if len(recorded) > MAX_ACTIONS:
        raise RecordsImportError("import.too-many-actions", game=nth, most=MAX_ACTIONS)
    for seq, entry in enumerate(recorded, start=1):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not isinstance(entry[0], str)
            or entry[0] not in ACTION_KINDS
            or not (
                entry[1] is None or (entry[0] in ARGUMENT_KINDS and isinstance(entry[1], str) and len(entry[1]) <= 64)
            )
            or not _is_time(entry[2])
        ):
            raise RecordsImportError("import.action-form", game=nth, action=seq)
    try:
        made = entries_of(session.game, [(str(kind), cast(str | None, arg)) for kind, arg, _ in recorded], strict=True)
    except (IllegalMoveError, MoveError) as exc:
        raise RecordsImportError("import.action-refused", game=nth, problem=_why(exc)) from None
    session.version = len(made)
    return [(entry, cast(int, recorded[index][2])) for index, entry in made]


def _check_game(
    game: Fields, nth: int, player_id: str, version: int, origin: int = FROM_FILE
) -> tuple[GameRow, list[Action]]:
    code = _field(game, "code", str, nth)
    try:
        deal = Deal.from_code(code)
    except DealError as exc:
        raise RecordsImportError("import.bad-code", game=nth, code=code[:60], problem=exc) from None
    rules = _field(game, "rules", str, nth)
    if rules != str(deal.rules):
        raise RecordsImportError("import.rules", game=nth, rules=rules[:60], code=code)
    too_long = unrecordable(str(deal.rules), deal.code)
    if too_long is not None:
        raise RecordsImportError("import.unrecordable", game=nth, problem=too_long)
    difficulty = _field(game, "difficulty", str, nth)
    if difficulty != deal.difficulty:
        raise RecordsImportError("import.difficulty", game=nth, difficulty=difficulty[:4], code=code)
    started = _field(game, "started_ms", int, nth)
    if not _is_time(started):
        raise RecordsImportError("import.started", game=nth, most=MAX_MS)
    ended = game.get("ended_ms")
    result = game.get("result")
    if result is not None and result not in RESULTS:
        raise RecordsImportError("import.result", game=nth, result=str(result)[:20])
    if (result is None) != (ended is None) or (
        ended is not None and (not isinstance(ended, int) or not _is_time(ended) or ended < started)
    ):
        raise RecordsImportError("import.ended", game=nth)
    ended_ms = ended if isinstance(ended, int) else None
    session = Session(Game(deal), id=secrets.token_urlsafe(16), player_id=player_id)
    timed = _entries_v1(game, nth, session) if version == 1 else _entries_v2(game, nth, deal, started, session)
    actions = [
        Action(seq, entry if isinstance(entry, str) else "move", None if isinstance(entry, str) else str(entry), at_ms)
        for seq, (entry, at_ms) in enumerate(timed, start=1)
    ]
    final = session.status if session.over else None
    if final != result:
        raise RecordsImportError("import.end", game=nth, final=_outcome(final), result=_outcome(result))
    if game.get("moves") not in (None, session.game.moves):
        raise RecordsImportError("import.moves", game=nth, made=session.game.moves, moves=str(game.get("moves")))
    daily, counted, challenge = _daily_fields(game, nth, deal)
    summary = session.summary()
    row = GameRow(
        id=session.id,
        player_id=player_id,
        rules=str(deal.rules),
        preset=deal.rules.preset,
        difficulty=deal.difficulty,
        code=deal.code,
        deal=deal.notation,
        started_ms=started,
        ended_ms=ended_ms,
        result=result,
        moves=summary["moves"],
        undos=summary["undos"],
        hints=summary["hints"],
        pyramid_removed=summary["pyramid_removed"],
        version=len(actions),
        imported=origin,
        daily=daily,
        daily_counted=counted,
        challenge=challenge,
    )
    return row, actions


def _daily_code(day: object, deal: Deal) -> str | None:
    """The code of the daily deal of ``day`` under ``deal``'s preset, or None (no such day or preset)."""
    try:
        return daily_deal(deal.rules.preset, parse_day(day)).code if isinstance(day, str) else None
    except DailyError:
        return None


def _daily_fields(game: Fields, nth: int, deal: Deal) -> tuple[str | None, int, str | None]:
    """A game's daily deal day (which must be the day whose deal it is), whether it counted for that day,
    and the daily challenge it was started for (files written before these fields have none)."""
    day = game.get("daily")
    counted = game.get("daily_counted", False)
    challenge = game.get("challenge")
    if day is not None and _daily_code(day, deal) != deal.code:
        raise RecordsImportError("import.daily", game=nth, day=str(day)[:20], code=deal.code)
    if not isinstance(counted, bool) or (counted and day is None):
        raise RecordsImportError("import.field", game=nth, key="daily_counted")
    if challenge is not None and (not isinstance(challenge, str) or not CHALLENGE_ID.match(challenge)):
        raise RecordsImportError("import.field", game=nth, key="challenge")
    return (day if isinstance(day, str) else None), int(counted), challenge


def import_records(store: Store, player_id: str, data: object) -> tuple[int, int]:
    """Check and add the games of an export file; returns how many were added and how many the player
    already had (not added again)."""
    checked = check_records(data, player_id)
    added = store.import_games(checked)
    return added, len(checked) - added


def sync_games(store: Store, player_id: str, data: object, lang: str) -> SyncAnswer:
    """The games a browser played offline, each replayed and checked on its own as an import's are: the
    honest ones land (``landed``, by the browser's id), a game the player already has — the same deal
    started at the same millisecond — is not added again (``known``), and a record that does not replay
    is ``refused`` with its reason in ``lang`` while the rest land.  Raises RecordsImportError for a body
    that is not a list of games."""
    listed = data.get("games") if isinstance(data, dict) else None
    if not isinstance(listed, list) or len(listed) > MAX_SYNC:
        raise RecordsImportError("sync.games", most=MAX_SYNC)
    answer: SyncAnswer = {"landed": [], "known": [], "refused": []}
    seen: set[str] = set()
    for number, game in enumerate(listed, start=1):
        game_id = game.get("id") if isinstance(game, dict) else None
        if not isinstance(game_id, str) or not OFFLINE_ID.match(game_id) or game_id in seen:
            raise RecordsImportError("sync.id", game=number)
        seen.add(game_id)
        try:
            row, recorded = _check_game(game, number, player_id, FORMAT_VERSION, PLAYED_OFFLINE)
        except RecordsImportError as exc:
            answer["refused"].append({"id": game_id, "code": exc.key, "message": exc.message(lang)})
            continue
        answer["landed" if store.import_games([(row, recorded)]) else "known"].append(game_id)
    return answer
