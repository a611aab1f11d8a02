"""Routes for the page a person opens and its files: the page itself (``/``, a deal's link
``/play/{code}``, the daily deal ``/daily`` and a past day's ``/daily/{date}``), its texts
in each language, the favicon, the static files and the card art, all
served from memory by :class:`..assets.Assets`; none is in the API's schema."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..deps import AssetsDep
from ..errors import ApiError

#: The web package's folder: the page's files are in ``static/``, its texts in ``locales/`` beside it.
WEB: Final = Path(__file__).parent.parent
STATIC: Final = WEB / "static"
LOCALES: Final = WEB.parent / "locales"

router = APIRouter(include_in_schema=False)


@router.get("/locales/{lang}.json")
def locale(lang: str, request: Request, assets: AssetsDep) -> Response:
    """The page's texts in one language."""
    found = assets.locale(request, lang)
    if found is None:
        raise ApiError(404, "not-found")
    return found


@router.get("/")
def home(request: Request, assets: AssetsDep) -> Response:
    return assets.page(request)


@router.get("/play/{code}")
def play_link(code: str, request: Request, assets: AssetsDep) -> Response:
    return assets.page(request)


@router.get("/daily")
@router.get("/daily/{day}")
def daily_page(request: Request, assets: AssetsDep) -> Response:
    """Today's daily deal, or a past day's (``/daily/YYYY-MM-DD?rules=…``: played, not counted); the page
    reads which from its address and starts or resumes it."""
    return assets.page(request)


@router.get("/favicon.ico")
def favicon(request: Request, assets: AssetsDep) -> Response:
    return static_file("favicon.svg", request, assets)


@router.get("/static/{path:path}")
def static_file(path: str, request: Request, assets: AssetsDep) -> Response:
    found = assets.static(request, path)
    if found is None:
        raise ApiError(404, "not-found")
    return found


@router.get("/art/{digest}/{name}")
def art(digest: str, name: str, request: Request, assets: AssetsDep) -> Response:
    found = assets.art_file(request, digest, name)
    if found is None:
        raise ApiError(404, "not-found")
    return found
