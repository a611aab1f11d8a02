"""Routes for the machines that watch the app: ``/healthz`` (is this process up, and does its database
answer?) for a load balancer or a process manager, and ``/metrics`` for Prometheus.  Neither is in the
API's schema; docs/deploy.md says how to keep ``/metrics`` to the monitoring network."""

from __future__ import annotations

import os

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from ...store import StoreError
from ..deps import GamesDep
from ..metrics import DATABASE_ERRORS, exposition

router = APIRouter(include_in_schema=False)

#: Health and metrics are always current: no cache may keep them.
NO_STORE = {"Cache-Control": "no-store"}


@router.get("/healthz")
def healthz(games: GamesDep) -> JSONResponse:
    """200 ``{"status": "ok", "pid": …, "database": true}`` when the database answers; 503 with
    ``"database": false`` when it does not.  ``pid`` is the answering process's id (several workers share
    one port)."""
    try:
        games.store.ping()
    except StoreError:
        DATABASE_ERRORS.labels("healthz").inc()
        return JSONResponse(
            {"status": "database-unavailable", "pid": os.getpid(), "database": False}, 503, headers=NO_STORE
        )
    return JSONResponse({"status": "ok", "pid": os.getpid(), "database": True}, headers=NO_STORE)


@router.get("/metrics")
def metrics() -> Response:
    """Every metric in Prometheus's text format (summed over the workers of ``serve --workers N``)."""
    body, content_type = exposition()
    return Response(body, media_type=content_type, headers=NO_STORE)
