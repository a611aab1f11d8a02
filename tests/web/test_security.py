"""The player cookie's attributes, the refusal of state-changing requests from other sites, rate limits,
player-entered text shown only as text (in real Chromium), and internal failures answered without
stack traces or internals."""

from __future__ import annotations

import logging
import warnings
from typing import Any

import pytest
from browser import DESKTOP, Errors, open_context, screenshot
from pages import GamePage
from playwright.sync_api import Browser, Page

from pyramid_solitaire import Deal
from pyramid_solitaire.solver import solve
from pyramid_solitaire.web.app import SECURITY_HEADERS, create_app
from pyramid_solitaire.web.routes import games as game_routes

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
    for answer in (
        client.post(f"/api/games/{game['id']}/move", json={"move": "draw"}, headers=evil),
        client.post("/api/games", json={"code": "CL1-R-AAAAAAB"}, headers=evil),
        client.put("/api/me", json={"name": "pwned"}, headers=evil),
        client.post("/api/stats/reset", headers=evil),
    ):
        assert answer.status_code == 403
        assert answer.json()["code"] == "cross-site"
        assert "content-security-policy" in answer.headers
    assert client.get(f"/api/games/{game['id']}").json()["game"]["version"] == 0
    assert client.get("/api/me").json()["player"]["name"] is None
    same = client.post(f"/api/games/{game['id']}/move", json={"move": "draw"}, headers={"Origin": "http://testserver"})
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
    answers = [client.post(f"/api/games/{game['id']}/move", json={"move": "draw"}) for _ in range(7)]
    assert [a.status_code for a in answers] == [200] * 5 + [429, 429]  # the player's burst of 5, then slowed
    refused = answers[5]
    assert refused.json()["code"] == "rate-limited"
    assert refused.json()["message"] == "操作が速すぎます。少し待ってからもう一度どうぞ"
    assert refused.headers["retry-after"] == "1"
    assert client.get(f"/api/games/{game['id']}").json()["game"]["moves"] == 5  # reading is not limited
    clock.now += 1.0  # two more tokens a second later
    draws = [client.post(f"/api/games/{game['id']}/move", json={"move": "draw"}) for _ in range(3)]
    assert [answer.status_code for answer in draws] == [200, 200, 429]
    # another player is not slowed by this one
    other = TestClient(client.app)
    assert other.post("/api/games", json={"code": "CL1-R-AAAAAAB"}).status_code == 201


# --- player-entered text is always escaped ---------------------------------------------------------

#: Display names that would run code if a page put them into HTML (both fit the 40-character limit).
IMG_NAME = '<img src=x onerror="window.__pwned=1">'
SCRIPT_NAME = "<script>window.__pwned=2</script>"
#: A verified deal no other test wins, so its leaderboard holds only this test's two wins.
ESCAPE_CODE = "CL1-E-AAAAAAH"  # listed as easy, so it opens with this letter


def set_name_in_records(page: Page, name: str) -> None:
    """Save a display name the way a player does: the records dialog's name field and its button."""
    page.click("#btn-records")
    page.fill("#records-name", name)
    page.click("#records-save-name")
    page.wait_for_function("() => document.getElementById('live').textContent.includes('表示名')")
    page.click("#records-close")


def win_by_tapping(game: GamePage, code: str) -> None:
    """Tap the solver's solution of ``code`` on the page, to the result screen."""
    result = solve(Deal.from_code(code), time_limit=30)
    assert result.solution is not None
    for move in result.solution:
        game.play(move)
    game.page.locator("#dlg-result").wait_for(state="visible")


def nothing_ran(page: Page, errors: Errors, where: str) -> None:
    """No element was made from the names and no injected code ran (a blocked inline handler or a
    fetched ``x`` would also show up as a console error)."""
    made = ", ".join(f"{part} {tag}" for part in where.split(", ") for tag in ("img", "script", "svg", "iframe"))
    assert page.locator(made).count() == 0
    assert page.locator('img[src="x"], script:not([src])').count() == 0
    assert page.evaluate("() => window.__pwned === undefined")
    assert list(errors) == []


def test_display_names_are_shown_as_text_on_the_leaderboard_and_in_the_records(browser: Browser, server: str) -> None:
    first_context, first_errors = open_context(browser, **DESKTOP)
    second_context, second_errors = open_context(browser, **DESKTOP)
    try:
        first = first_context.new_page()
        first_game = GamePage(first, server).open(f"/play/{ESCAPE_CODE}")
        set_name_in_records(first, IMG_NAME)
        win_by_tapping(first_game, ESCAPE_CODE)
        mine = first.locator("#result-leaderboard li.you")
        assert mine.count() == 1 and mine.inner_text().startswith(f"{IMG_NAME} — ")
        assert "&lt;img" in first.inner_html("#result-leaderboard")  # the markup is text, escaped
        nothing_ran(first, first_errors, "#result-leaderboard")
        first.click("#dlg-result button[value=close]")
        first.click("#btn-records")  # the records dialog shows the name back in its field, as typed
        first.locator("#dlg-records").wait_for(state="visible")
        assert first.input_value("#records-name") == IMG_NAME
        # where the records dialog shows what players typed (its own icons and chart are the page's)
        nothing_ran(first, first_errors, "#records-stats, #records-unfinished, #records-finished")

        # another player, in another browser profile, wins the same deal and sees both names as text
        second = second_context.new_page()
        second_game = GamePage(second, server).open(f"/play/{ESCAPE_CODE}")
        set_name_in_records(second, SCRIPT_NAME)
        win_by_tapping(second_game, ESCAPE_CODE)
        entries = second.locator("#result-leaderboard li")
        texts = [entries.nth(i).inner_text() for i in range(entries.count())]
        assert len(texts) == 2 and sorted(t.split(" — ")[0] for t in texts) == sorted([IMG_NAME, SCRIPT_NAME])
        assert second.locator("#result-leaderboard li.you").inner_text().startswith(f"{SCRIPT_NAME} — ")
        assert second.locator("#result-leaderboard li:not(.you)").inner_text().startswith(f"{IMG_NAME} — ")
        nothing_ran(second, second_errors, "#result-leaderboard")
        screenshot(second, "security-names-as-text")
        # the server keeps and sends the names as typed; only the page decides how they are shown
        board = second.request.get(f"{server}/api/leaderboard/{ESCAPE_CODE}").json()["entries"]
        assert sorted(entry["name"] for entry in board) == sorted([IMG_NAME, SCRIPT_NAME])
    finally:
        first_context.close()
        second_context.close()


# --- no stack traces or internals in answers -------------------------------------------------------

SECRET = "secret internal detail /path/file.py"


def fail(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError(SECRET)


@pytest.mark.parametrize(
    ("method", "path", "lang", "breaks"),
    [
        ("GET", "/api/rules", "ja", "rules_catalogue"),
        ("POST", "/api/games?lang=en", "en", "_new_deal"),
        ("GET", "/api/leaderboard/CL1-N-AAAAAAB?lang=en", "en", "store.leaderboard"),
    ],
)
def test_an_internal_failure_answers_a_plain_500_without_internals(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, method: str, path: str, lang: str, breaks: str
) -> None:
    app = create_app()
    if breaks.startswith("store."):
        monkeypatch.setattr(app.state.games.store, breaks.removeprefix("store."), fail)
    else:
        monkeypatch.setattr(game_routes, breaks, fail)
    client = TestClient(app, raise_server_exceptions=False)
    with caplog.at_level(logging.ERROR, logger="pyramid_solitaire.web.app"):
        answer = client.request(method, path, json={"code": "CL1-R-AAAAAAB"} if method == "POST" else None)
    assert answer.status_code == 500
    assert answer.headers["content-type"] == "application/json"
    said = {
        "ja": "サーバーで問題が起きました。もう一度お試しください",
        "en": "Something went wrong on the server; please try again",
    }
    assert answer.json() == {"code": "internal-error", "message": said[lang], "details": {}}
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers[name] == value
    for leak in ("Traceback", "secret internal detail", ".py", "RuntimeError", "/path", 'File "'):
        assert leak not in answer.text
    # the failure is not lost: it is logged on the server
    assert any(path.split("?")[0] in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("path", ["/", "/sw.js", "/static/js/engine-worker.js", "/api/rules"])
def test_the_content_security_policy_allows_webassembly_and_nothing_broader(path: str) -> None:
    """The offline engine compiles WebAssembly ('wasm-unsafe-eval'); no script may be evaluated from text
    and no inline script or style runs, on the page, the service worker or the engine's worker."""
    with TestClient(create_app()) as client:
        answer = client.get(path)
    assert answer.status_code == 200
    policy = dict((part.split()[0], part.split()[1:]) for part in answer.headers["Content-Security-Policy"].split("; "))
    assert policy["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert policy["default-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert not [p for parts in policy.values() for p in parts if p in ("'unsafe-eval'", "'unsafe-inline'", "*")]
