"""Routes of the offline bundle (:mod:`..bundle`): its listing, the engine's zip and Pyodide's files,
served from the app's own origin so that the service worker can keep them; none is in the API's schema."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..bundle import IMMUTABLE, Bundle
from ..errors import ApiError
from ..http import Answer

router = APIRouter(include_in_schema=False)


def bundle_of(request: Request) -> Bundle:
    """The app's bundle (put on ``app.state`` by :func:`..app.create_app`)."""
    bundle: Bundle = request.app.state.bundle
    return bundle


@router.get("/offline/files.json")
def files(request: Request) -> Response:
    """The addresses the offline worker loads (404 on a machine without Pyodide: no offline play)."""
    bundle = bundle_of(request)
    if not bundle.available:
        raise ApiError(404, "not-found")
    answer = Answer(bundle.listing(), request=request)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@router.get("/offline/{digest}/engine.zip")
def engine(digest: str, request: Request) -> Response:
    bundle = bundle_of(request)
    if digest != bundle.engine_hash():
        raise ApiError(404, "not-found")
    return bundle.engine().response(request, IMMUTABLE)


@router.get("/pyodide/{version}/{name}")
def pyodide(version: str, name: str, request: Request) -> Response:
    found = bundle_of(request).pyodide_file(version, name)
    if found is None:
        raise ApiError(404, "not-found")
    return found.response(request, IMMUTABLE)
