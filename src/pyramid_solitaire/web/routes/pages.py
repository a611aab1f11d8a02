"""Routes for the page a person opens and its files: the page itself (``/``, a deal's link
``/play/{code}``, the daily deal ``/daily`` and a past day's ``/daily/{date}``), its texts
in each language, the favicon, the static files and the card art, all
served from memory by :class:`..assets.Assets`; none is in the API's schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...messages import text
from ..deps import AssetsDep
from ..errors import ApiError
from ..http import lang_of

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


#: The felt's darker shade (css/app.css ``--felt-dark``): the phone's bar above an installed app.
THEME: Final = "#124a34"
BACKGROUND: Final = "#1d6b47"


@router.get("/manifest.webmanifest")
def manifest(request: Request) -> Response:
    """The web app manifest, in the page's language (``?lang=``; the page points at its language's)."""
    lang = lang_of(request)
    icons = [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": "/static/icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ]
    body = {
        "id": "/",
        "name": text(lang, "manifest.name"),
        "short_name": text(lang, "manifest.short_name"),
        "description": text(lang, "manifest.description"),
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/sw.js")
def service_worker(request: Request, assets: AssetsDep) -> Response:
    """The service worker, at the top so that it keeps the whole site (docs/web.md, "Offline")."""
    found = assets.service_worker(request)
    if found is None:
        raise ApiError(404, "not-found")
    return found
