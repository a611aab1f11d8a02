"""The player cookie's attributes and the refusal of state-changing requests from other sites."""

from __future__ import annotations

import warnings

from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_the_player_cookie_is_signed_http_only_and_same_site() -> None:
    client = TestClient(create_app())
    answer = client.post("/api/games", json={"code": "CL1-R-AAAAAAB"})
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("pyramid_player=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    value = client.cookies["pyramid_player"]
    player, signature = value.rsplit(".", 1)
    assert len(player) >= 24 and len(signature) == 32
    # a second game keeps the same player: no new cookie
    assert "set-cookie" not in client.post("/api/games", json={"code": "CL1-R-AAAAAAB"}).headers


def test_a_request_from_another_site_cannot_change_a_game() -> None:
    client = TestClient(create_app())
    game = client.post("/api/games", json={"code": "CL1-R-AAAAAAB"}).json()["game"]
    evil = {"Origin": "https://evil.example"}
    for answer in (client.post(f"/api/games/{game['id']}/stock", headers=evil),
                   client.post("/api/games", json={"code": "CL1-R-AAAAAAB"}, headers=evil),
                   client.put("/api/me", json={"name": "pwned"}, headers=evil),
                   client.post("/api/stats/reset", headers=evil)):
        assert answer.status_code == 403
        assert answer.json()["code"] == "cross-site"
        assert "content-security-policy" in answer.headers
    assert client.get(f"/api/games/{game['id']}").json()["game"]["version"] == 0
    assert client.get("/api/me").json()["player"]["name"] is None
    same = client.post(f"/api/games/{game['id']}/stock", headers={"Origin": "http://testserver"})
    assert same.status_code == 200  # the page's own requests carry its own origin
    assert client.get(f"/api/games/{game['id']}", headers=evil).status_code == 200  # reading is not changing


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_client_past_its_rate_is_slowed_with_429_and_nothing_changes() -> None:
    from pyramid_solitaire.web.limits import Limit, RateLimiter

    clock = Clock()
    limiter = RateLimiter(player=Limit(rate=2, burst=5), address=Limit(rate=1, burst=3), clock=clock)
    client = TestClient(create_app(limiter=limiter))
    game = client.post("/api/games", json={"code": "CL1-R-AAAAAAB"}).json()["game"]  # address bucket: 1 of 3
    answers = [client.post(f"/api/games/{game['id']}/stock") for _ in range(7)]
    assert [a.status_code for a in answers] == [200] * 5 + [429, 429]  # the player's burst of 5, then slowed
    refused = answers[5]
    assert refused.json()["code"] == "rate-limited"
    assert refused.json()["message"] == "操作が速すぎます。少し待ってからもう一度どうぞ"
    assert refused.headers["retry-after"] == "1"
    assert client.get(f"/api/games/{game['id']}").json()["game"]["moves"] == 5  # reading is not limited
    clock.now += 1.0  # two more tokens a second later
    assert [client.post(f"/api/games/{game['id']}/stock").status_code for _ in range(3)] == [200, 200, 429]
    # another player is not slowed by this one
    other = TestClient(client.app)
    assert other.post("/api/games", json={"code": "CL1-R-AAAAAAB"}).status_code == 201
