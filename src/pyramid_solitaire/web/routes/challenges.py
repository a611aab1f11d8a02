"""Routes of the daily challenges: the day's set with the player's progress, and starting a
challenge's game (:mod:`..challenges`, :mod:`...challenges`; docs/challenges.md).

A challenge's game is an ordinary game that carries the challenge's id: it is played through the
ordinary move API, and the challenge's progress is read from such games, so a challenge completed by
moves shows ``"done": true`` at once.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from ...deal import Deal
from ..answers import BadgesAnswer, ChallengesAnswer, GameAnswer
from ..badges import badges_of
from ..challenges import challenges_of, find, games_played, next_code, shown
from ..deps import GamesDep, Lang, Player
from ..errors import ApiError
from ..http import Answer
from ..schema import answers
from .daily import desk_of
from .games import dealt, game_state

router = APIRouter()


@router.get("/api/challenges", response_class=Answer, responses=answers(ChallengesAnswer))
def get_challenges(request: Request, games: GamesDep, player: Player, lang: Lang) -> Answer:
    """Today's challenges (the daily deal's day), each with its goal and the player's progress."""
    day = desk_of(request).today()
    answer: ChallengesAnswer = {
        "date": day.isoformat(),
        "challenges": [shown(games.store, c, player, lang) for c in challenges_of(games.store, day)],
    }
    return Answer(answer, request=request)


@router.post(
    "/api/challenges/{challenge_id}/games",
    status_code=201,
    response_class=Answer,
    responses=answers(GameAnswer, 201, 200),
)
def play_challenge(challenge_id: str, request: Request, games: GamesDep, player: Player, lang: Lang) -> Answer:
    """Start today's challenge ``challenge_id``: the player's unfinished game of it if there is one (200),
    else a new game of the deal it needs next (201), answered as ``POST /api/games``.  Another day's
    challenge, or no such one, is 404 ``unknown-challenge``."""
    challenge = find(games.store, challenge_id[:64], desk_of(request).today())
    if challenge is None:
        raise ApiError(404, "unknown-challenge", details={"id": challenge_id[:64]})
    player_id = player or games.store.new_player()
    rows = games.store.challenge_games(player_id, [challenge.id])
    unfinished = [row for row in rows if row.result is None]
    if unfinished:
        with games.lock(unfinished[-1].id):
            session = games.load(unfinished[-1].id, player_id)
            shown_game: GameAnswer = {"game": game_state(games, session, lang), "event": {"kind": "state", "cards": []}}
        return Answer(shown_game, request=request)
    deal = Deal.from_code(next_code(challenge, games_played(games.store, rows)))
    session = games.create(deal, player_id, challenge=challenge.id)
    return dealt(games, session, made=player is None, lang=lang, request=request)


@router.get("/api/badges", response_class=Answer, responses=answers(BadgesAnswer))
def get_badges(request: Request, games: GamesDep, player: Player) -> Answer:
    """The player's monthly badges: each month's days of daily deals cleared, challenges completed, and
    the badge they earn (web/badges.py)."""
    answer: BadgesAnswer = {"months": badges_of(games.store, player)}
    return Answer(answer, request=request)
