"""Export and import of a player's records as JSON.

The file holds every game of the player — deal code, rules, difficulty, start and end, result, and
every action in order.  Import checks each game by replaying its actions through the engine: the code
must deal under the stated rules, no action may be refused, and the replay must end with the stated
result and move count; otherwise the whole file is refused with a message naming the game and what is
wrong, and nothing is added.  Imported games get new ids and count in statistics like any other.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from ..deal import Deal, DealError
from ..game import Game
from ..reasons import IllegalMoveError
from ..store import RESULTS, Action, GameRow, Store, unrecordable
from .play import BadTap, Session

FORMAT: Final = "pyramid-solitaire-records"
FORMAT_VERSION: Final = 1
#: Games and actions one file may hold.
MAX_GAMES: Final = 5_000
MAX_ACTIONS: Final = 5_000
ACTION_KINDS: Final = frozenset({"tap", "stock", "move", "undo", "redo", "rewind", "hint", "coach", "deselect",
                                 "resign", "cell"})
#: The kinds whose action names a card, a slot, a move or a free cell (a cell tap may name none); the others
#: are recorded without an argument.
ARGUMENT_KINDS: Final = frozenset({"tap", "move", "cell"})
#: Times are milliseconds since 1970, kept in a signed 64-bit column.
MAX_MS: Final = 2**63 - 1


class RecordsImportError(ValueError):
    """Records that cannot be imported; the message names the game and the problem."""


def export_records(store: Store, player_id: str) -> dict[str, Any]:
    """Every game of the player, oldest first, with its actions."""
    player = store.player(player_id) or {}
    rows = sorted(store.games_of(player_id, finished=True, limit=MAX_GAMES)
                  + store.games_of(player_id, finished=False, limit=MAX_GAMES), key=lambda r: (r.started_ms, r.id))
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "name": player.get("name"),
        "games": [{
            "code": row.code, "rules": row.rules, "difficulty": row.difficulty,
            "started_ms": row.started_ms, "ended_ms": row.ended_ms, "result": row.result, "moves": row.moves,
            "actions": [[a.kind, a.arg, a.at_ms] for a in store.actions(row.id)],
        } for row in rows],
    }


def _field(game: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = game.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordsImportError(f"{where}: '{key}' is missing or of the wrong type")
    return value


def _is_time(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_MS


def check_records(data: Any, player_id: str) -> list[tuple[GameRow, list[Action]]]:
    """The games of an export file, each replayed and checked (see the module docstring)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordsImportError(f"not a records file (its 'format' must be {FORMAT!r})")
    if data.get("version") != FORMAT_VERSION:
        version = data.get("version")
        raise RecordsImportError(f"records version {version!r} is not supported (expected {FORMAT_VERSION})")
    listed = data.get("games")
    if not isinstance(listed, list) or len(listed) > MAX_GAMES:
        raise RecordsImportError(f"'games' must be a list of at most {MAX_GAMES} games")
    out = []
    for number, game in enumerate(listed, start=1):
        where = f"game {number}"
        if not isinstance(game, dict):
            raise RecordsImportError(f"{where}: not an object")
        out.append(_check_game(game, where, player_id))
    return out


def _check_game(game: dict[str, Any], where: str, player_id: str) -> tuple[GameRow, list[Action]]:
    code = _field(game, "code", str, where)
    try:
        deal = Deal.from_code(code)
    except DealError as exc:
        raise RecordsImportError(f"{where}: bad deal code {code[:60]!r}: {exc}") from None
    if _field(game, "rules", str, where) != str(deal.rules):
        raise RecordsImportError(f"{where}: the rules {game['rules'][:60]!r} are not those of code {code}")
    too_long = unrecordable(str(deal.rules), deal.code)
    if too_long is not None:
        raise RecordsImportError(f"{where}: {too_long}")
    if _field(game, "difficulty", str, where) != deal.difficulty:
        raise RecordsImportError(f"{where}: difficulty {game['difficulty'][:4]!r} is not the one code {code} carries")
    started = _field(game, "started_ms", int, where)
    if not _is_time(started):
        raise RecordsImportError(f"{where}: 'started_ms' must be a time in milliseconds (0 to {MAX_MS})")
    ended = game.get("ended_ms")
    result = game.get("result")
    if result is not None and result not in RESULTS:
        raise RecordsImportError(f"{where}: unknown result {str(result)[:20]!r}")
    if (result is None) != (ended is None) or (ended is not None and (not _is_time(ended) or ended < started)):
        raise RecordsImportError(f"{where}: 'ended_ms' must be given exactly for a finished game, not before its start")
    recorded = _field(game, "actions", list, where)
    if len(recorded) > MAX_ACTIONS:
        raise RecordsImportError(f"{where}: more than {MAX_ACTIONS} actions")
    session = Session(Game(deal), id=secrets.token_urlsafe(16), player_id=player_id)
    actions = []
    for seq, entry in enumerate(recorded, start=1):
        if (not isinstance(entry, list) or len(entry) != 3 or not isinstance(entry[0], str)
                or entry[0] not in ACTION_KINDS
                or not (entry[1] is None or (entry[0] in ARGUMENT_KINDS and isinstance(entry[1], str)
                                             and len(entry[1]) <= 64))
                or not _is_time(entry[2])):
            raise RecordsImportError(f"{where}, action {seq}: expected [kind, argument, time in ms]")
        kind, arg, at_ms = entry
        try:
            session.apply(kind, arg, replaying=True)
        except (IllegalMoveError, BadTap, ValueError) as exc:
            shown = kind if arg is None else f"{kind} {arg!r}"  # repr: one line whatever the argument holds
            raise RecordsImportError(f"{where}, action {seq} ({shown}): refused: {exc}") from None
        session.version += 1
        actions.append(Action(seq, kind, arg, at_ms))
    final = session.status if session.over else None
    if final != result:
        raise RecordsImportError(f"{where}: the actions end {final or 'unfinished'}, not {result or 'unfinished'}")
    if game.get("moves") not in (None, session.game.moves):
        raise RecordsImportError(f"{where}: the actions make {session.game.moves} moves, not {game.get('moves')}")
    summary = session.summary()
    row = GameRow(id=session.id, player_id=player_id, rules=str(deal.rules), preset=deal.rules.preset,
                  difficulty=deal.difficulty, code=deal.code, deal=deal.notation, started_ms=started, ended_ms=ended,
                  result=result, moves=summary["moves"], undos=summary["undos"], hints=summary["hints"],
                  pyramid_removed=summary["pyramid_removed"], version=len(actions), imported=1)
    return row, actions


def import_records(store: Store, player_id: str, data: Any) -> int:
    """Check and add the games of an export file; returns how many were added."""
    checked = check_records(data, player_id)
    store.import_games(checked)
    return len(checked)
