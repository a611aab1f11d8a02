"""The HTTP API fuzzed from its own OpenAPI description (schemathesis): whatever a client sends, the
answer is never a server error, its status, content type and body are what the description declares for
that route (schemathesis' own conformance checks), and every refusal is the documented
``{code, message, details}``."""

from __future__ import annotations

import warnings
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

APP = create_app()
schema = schemathesis.openapi.from_asgi("/api/openapi.json", APP)
# A real game for the game paths to hit besides the random ids the fuzzer makes up.
GAME = TestClient(APP).post("/api/games", json={"code": "CL1-R-AAAAAAB"}).json()["game"]["id"]


#: Schemathesis' checks of an answer against the description: no 5xx, a declared status, the declared
#: content type, and a body valid against the declared schema (every object of it closed).
CONFORMANCE = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def check(case: Any) -> None:
    response = case.call()
    case.validate_response(response, checks=CONFORMANCE)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"code", "message", "details"}, body
        assert isinstance(body["message"], str) and body["message"]


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_a_server_error(case: Any) -> None:
    check(case)


@schema.include(path_regex="/api/games/").parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_on_a_real_game_makes_a_server_error(case: Any) -> None:
    case.path_parameters["game_id"] = GAME  # the fuzzer's bodies and parameters against a game in play
    check(case)
