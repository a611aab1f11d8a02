"""The page's files as a browser gets them: compressed, revalidated by ETag, the card art at an address
that holds its hash and is cached for a year, and the app's own page for an address that is none."""

from __future__ import annotations

import gzip
import json
import re
import warnings
from collections.abc import Iterator

import pytest

from pyramid_solitaire.web.app import STATIC, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def raw(client: TestClient, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """The answer as sent: status, headers and body bytes, not decompressed."""
    with client.stream("GET", path, headers=headers) as response:
        body = b"".join(response.iter_raw())
        return response.status_code, dict(response.headers), body


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/static/css/app.css",
        "/static/js/main.js",
        "/static/js/cards.js",
        "/locales/ja.json",
        "/static/art/cards.svg",
    ],
)
def test_text_goes_compressed_to_a_browser_that_accepts_it_and_plain_to_one_that_does_not(
    client: TestClient, path: str
) -> None:
    status, headers, body = raw(client, path, **{"accept-encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "gzip" and "accept-encoding" in headers["vary"].lower()
    plain_status, plain_headers, plain = raw(client, path, **{"accept-encoding": "identity"})
    assert plain_status == 200 and "content-encoding" not in plain_headers
    assert gzip.decompress(body) == plain
    assert len(body) < len(plain) / 2  # text compresses well
    if path.startswith("/static/") and not path.endswith("index.html"):
        assert plain == (STATIC / path.removeprefix("/static/")).read_bytes()


def test_a_file_the_browser_has_is_answered_304_and_a_changed_one_in_full(client: TestClient) -> None:
    first = client.get("/static/js/main.js")
    assert first.headers["cache-control"] == "no-cache"  # always asked again, so a new version shows at once
    tag = first.headers["etag"]
    again = client.get("/static/js/main.js", headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b""
    other = client.get("/static/js/main.js", headers={"if-none-match": '"something-else"'})
    assert other.status_code == 200 and other.content == first.content


def test_the_card_art_lives_at_an_address_with_its_hash_and_is_cached_for_a_year(client: TestClient) -> None:
    page = client.get("/").text
    found = re.search(r'href="(/art/([0-9a-f]+)/cards\.svg)"', page)
    assert found, "index.html names the card art's address"
    address, digest = found.groups()
    art = client.get(address)
    assert art.status_code == 200 and art.headers["content-type"] == "image/svg+xml"
    assert art.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert art.content == (STATIC / "art" / "cards.svg").read_bytes()
    assert digest in art.headers["etag"]
    # an old address is not answered with today's drawing under a year's cache
    stale = client.get("/art/0123456789abcdef0123/cards.svg")
    assert stale.status_code == 404 and stale.json()["code"] == "not-found"
    assert "{{ART}}" not in page


@pytest.mark.parametrize(
    ("path", "lang", "title"),
    [
        ("/play/CL1-R-AAAAAAB/extra", "ja", "ページが見つかりません"),
        ("/nothing-here", "ja", "ページが見つかりません"),
        ("/nothing-here?lang=en", "en", "Page not found"),
    ],
)
def test_an_address_that_is_no_page_gets_the_apps_own_page(
    client: TestClient, path: str, lang: str, title: str
) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in response.text and f"<h1>{title}</h1>" in response.text
    assert 'href="/"' in response.text  # the way back to the game
    assert "{" not in response.text.split("<body>")[1]  # no raw JSON, no unfilled placeholder
    english = client.get(path.split("?")[0], headers={"accept-language": "en-GB,en;q=0.9"})
    assert "<h1>Page not found</h1>" in english.text
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_data_addresses_that_are_missing_stay_json(client: TestClient) -> None:
    for path in ("/api/nothing", "/static/nothing.js", "/locales/fr.json"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["code"] == "not-found", path


def test_a_games_state_goes_compressed_as_gzip_any_client_reads_and_small_answers_plain(client: TestClient) -> None:
    game = client.post("/api/games", json={"code": "CL1-N-AAAAAAD"}).json()["game"]
    path = f"/api/games/{game['id']}"
    status, headers, body = raw(client, path, **{"accept-encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip" and "accept-encoding" in headers["vary"].lower()
    assert body[:2] == b"\x1f\x8b" and len(body) < 4_000  # a state of 5-13 KB, a fifth of it compressed
    state = json.loads(gzip.decompress(body))["game"]
    plain_status, plain_headers, plain = raw(client, path, **{"accept-encoding": "identity"})
    assert plain_status == 200 and "content-encoding" not in plain_headers and len(plain) > 4_000
    assert {k: v for k, v in state.items() if k != "elapsed"} == {
        k: v for k, v in json.loads(plain)["game"].items() if k != "elapsed"
    }
    # under COMPRESS_FROM bytes an answer is not worth compressing: an error, say
    small_status, small_headers, small = raw(client, "/api/games/nosuchgame", **{"accept-encoding": "gzip"})
    assert small_status == 404 and "content-encoding" not in small_headers and json.loads(small)["code"]


def test_a_one_move_step_shows_the_same_arrow_in_the_replay_and_the_solvers_line(client: TestClient) -> None:
    """The solver's line's "one move back/on" showed |◀ and ▶|, the replay's "to the start/end"."""
    page = client.get("/").text

    def icon(button: str) -> str:
        found = re.search(rf'id="{button}"[^>]*>\s*<svg[^>]*>\s*<use href="#([\w-]+)"', page)
        assert found, button
        return found.group(1)

    assert icon("watch-prev") == icon("replay-prev") == "i-prev"
    assert icon("watch-next") == icon("replay-next") == "i-next"
    assert icon("replay-first") == "i-first" and icon("replay-last") == "i-last"
