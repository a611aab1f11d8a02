"""The API speaks the caller's language by HTTP's own negotiation (issue 38): ``?lang=`` first, else the
``Accept-Language`` header (by its q-values; English when it names only other languages), else Japanese;
every text in an answer is in that one language, and the facts of a refusal are JSON values of their own
types. On SQLite and on PostgreSQL, where plain moves take the shortcut past FastAPI (web/shortcut.py)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

NO_GAME = {"ja": "そのゲームは見つかりません", "en": "No such game"}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("en", "en"),
        ("en-GB,en;q=0.9", "en"),
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("fr, ja;q=0.2, en;q=0.8", "en"),
        ("de, fr", "en"),  # only other languages: English, the likelier read, as the CLI's locale
        ("ja;q=0, fr-FR", "en"),
        ("", "ja"),
        ("*", "ja"),
        ("en;q=nonsense, ja;q=0.1", "ja"),
    ],
)
def test_without_lang_the_answer_follows_accept_language(client: TestClient, header: str, lang: str) -> None:
    answer = client.get("/api/games/nope", headers={"Accept-Language": header})
    assert answer.status_code == 404 and answer.json()["message"] == NO_GAME[lang]


def test_the_lang_query_wins_over_the_header(client: TestClient) -> None:
    answer = client.get("/api/games/nope?lang=ja", headers={"Accept-Language": "en"})
    assert answer.json()["message"] == NO_GAME["ja"]
    assert client.get("/api/games/nope?lang=fr").status_code == 422


def test_a_game_and_its_refusals_come_in_the_headers_language(client: TestClient) -> None:
    english = {"Accept-Language": "en-US,en;q=0.9"}
    game = client.post("/api/games", json={"code": "CL1-N-AAAAAAB"}, headers=english).json()["game"]
    assert game["lang"] == "en" and all(name.isascii() for name in game["names"].values())
    # a move the rules refuse, answered 409 (on PostgreSQL through the shortcut)
    refused = client.post(f"/api/games/{game['id']}/move", json={"move": "Ad+Qs"}, headers=english)
    assert refused.status_code in (200, 409)
    if refused.status_code == 409:
        assert refused.json()["message"].isascii()
    stale = client.post(f"/api/games/{game['id']}/move?version=99", json={"move": "draw"}, headers=english)
    assert stale.status_code == 409 and stale.json()["message"].isascii()
    japanese = client.post(f"/api/games/{game['id']}/move?version=99", json={"move": "draw"})
    assert not japanese.json()["message"].isascii()


def test_a_refusals_facts_are_json_of_their_own_types_in_the_answers_language(client: TestClient) -> None:
    unknown = client.post("/api/games?lang=en", json={"rules": "nosuch"}).json()
    facts = unknown["details"]["facts"]
    assert facts["name"] == "nosuch" and isinstance(facts["known"], list) and "classic" in facts["known"]
    game = client.post("/api/games", json={"rules": "classic"}).json()["game"]
    for lang, ascii_words in (("ja", False), ("en", True)):
        bad = client.post(f"/api/games/{game['id']}/move?lang={lang}", json={"move": "Zq+1"}).json()
        assert bad["details"]["reason"] == "move.bad-card"
        assert bad["details"]["facts"]["move"] == "Zq+1"
        assert bad["details"]["facts"]["problem"].isascii() is ascii_words
        assert bad["message"].isascii() is ascii_words
