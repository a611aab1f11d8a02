"""The page's files: served from memory, compressed, cached the right way, and the app's own not-found page.

Every file under ``static/`` is read once when the app starts.  Text (HTML, CSS, JavaScript, JSON,
SVG) is kept gzip-compressed as well, and sent compressed to a browser that accepts it: the first
visit is about a quarter of its size on the wire (docs/performance.md).  Each file has an ETag (a hash
of its bytes), so a browser asks again with ``If-None-Match`` and gets a 304 when nothing changed;
the code is served ``no-cache`` (always checked, so a new version is never hidden behind an old one).

The card art (``static/art/cards.svg``, one file of SVG symbols) changes rarely and is large next to
the rest, so it is also served at an address that holds its hash, ``/art/<hash>/cards.svg``, cached
for a year and never checked again: a new drawing gets a new hash and so a new address.  The page
learns the address from ``index.html``, where the server writes it in place of ``{{ART}}``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from .http import lang_of

#: Media types kept compressed too.
TEXT_TYPES: Final = ("text/", "application/javascript", "application/json", "image/svg+xml")
#: Media types by file suffix, named here so that every machine serves them alike.
KNOWN_TYPES: Final = {
    ".js": "application/javascript",
    ".mjs": "application/javascript",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".css": "text/css",
    ".html": "text/html",
}
#: The files whose address carries their hash, with a year's cache.
ART: Final = ("art/cards.svg",)
ART_CACHE: Final = "public, max-age=31536000, immutable"
CODE_CACHE: Final = "no-cache"
ART_PLACEHOLDER: Final = "{{ART}}"
#: The service worker (``static/sw.js``, served at ``/sw.js`` for the whole site's scope): the server writes
#: the release's name and the app shell's addresses in place of these.
WORKER: Final = "sw.js"
RELEASE_PLACEHOLDER: Final = "{{RELEASE}}"
SHELL_PLACEHOLDER: Final = "{{SHELL}}"
#: Files of ``static/`` the app shell leaves out: the worker itself, and the page (kept as ``/``).
NOT_SHELL: Final = (WORKER, "index.html")
#: gzip level: 9 squeezes little more out of these files and takes longer; this is done once at start.
LEVEL: Final = 9


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, compressed bytes (text only), media type and ETag."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str

    @classmethod
    def of(cls, body: bytes, media_type: str) -> Asset:
        text = media_type.startswith(TEXT_TYPES)
        # mtime=0: the same bytes give the same compressed bytes, run after run
        gzipped = gzip.compress(body, compresslevel=LEVEL, mtime=0) if text else None
        return cls(body, gzipped, media_type, f'"{hashlib.sha256(body).hexdigest()[:20]}"')

    def response(self, request: Request, cache: str) -> Response:
        """The file, compressed when the browser accepts gzip, or 304 when it has this version."""
        headers = {"ETag": self.etag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
        if self.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        accepts = "gzip" in request.headers.get("accept-encoding", "")
        if self.gzipped is not None and accepts and len(self.gzipped) < len(self.body):
            return Response(self.gzipped, media_type=self.media_type, headers={**headers, "Content-Encoding": "gzip"})
        return Response(self.body, media_type=self.media_type, headers=headers)


def media_type_of(path: Path) -> str:
    """The media type a file is served as (JavaScript modules and SVG named explicitly)."""
    suffix = path.suffix.lower()
    media = KNOWN_TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return f"{media}; charset=utf-8" if media.startswith(TEXT_TYPES) and media != "image/svg+xml" else media


def page_texts(path: Path) -> bytes:
    """The page's part of one language's catalogue: its keys are plain words (``new_game``); the keys
    with a dot (``cli.stats.empty``, ``refusal.covered``) are for Python, which sends the page its
    refusals and errors already written, so the browser is not sent them (about half the file)."""
    catalogue = json.loads(path.read_text(encoding="utf-8"))
    page = {key: value for key, value in catalogue.items() if "." not in key}
    return json.dumps(page, ensure_ascii=False, separators=(",", ":")).encode()


class Assets:
    """Every file of ``static/`` (and the locales), in memory."""

    def __init__(self, static: Path, locales: Path) -> None:
        self.files: dict[str, Asset] = {}
        for path in sorted(static.rglob("*")):
            if path.is_file():
                self.files[path.relative_to(static).as_posix()] = Asset.of(path.read_bytes(), media_type_of(path))
        self.art = {name: self.files[name].etag.strip('"') for name in ART if name in self.files}
        page = (static / "index.html").read_text(encoding="utf-8")
        self.index = Asset.of(
            page.replace(ART_PLACEHOLDER, self.art_url("art/cards.svg")).encode(), "text/html; charset=utf-8"
        )
        self.locales = {
            path.stem: Asset.of(page_texts(path), "application/json") for path in sorted(locales.glob("*.json"))
        }
        self.release = self._release()
        self.worker = self._worker()

    def shell(self) -> list[str]:
        """The app shell's addresses: what a device keeps to open the app with no network."""
        files = [f"/static/{name}" for name in self.files if name not in NOT_SHELL and name not in ART]
        locales = [f"/locales/{lang}.json" for lang in self.locales]
        manifests = [f"/manifest.webmanifest?lang={lang}" for lang in self.locales]
        return ["/", *files, *locales, *manifests, *(self.art_url(name) for name in self.art)]

    def _release(self) -> str:
        """This release's name: a hash of every file the shell holds, so that a change to any of them
        makes a new service worker, with caches of its own."""
        digest = hashlib.sha256()
        for name in sorted(self.files):
            digest.update(f"{name}={self.files[name].etag}".encode())
        for lang, asset in sorted(self.locales.items()):
            digest.update(f"{lang}={asset.etag}".encode())
        digest.update(self.index.etag.encode())
        return digest.hexdigest()[:16]

    def _worker(self) -> Asset | None:
        source = self.files.get(WORKER)
        if source is None:
            return None
        shell = json.dumps(self.shell(), separators=(",", ":"))
        assert "'" not in shell and "\\" not in shell  # written inside a JavaScript string in quotes
        text = source.body.decode().replace(RELEASE_PLACEHOLDER, self.release)
        return Asset.of(text.replace(SHELL_PLACEHOLDER, shell).encode(), source.media_type)

    def service_worker(self, request: Request) -> Response | None:
        """The service worker, always checked (a new release must replace the old at once)."""
        if self.worker is None:
            return None
        response = self.worker.response(request, CODE_CACHE)
        response.headers["Service-Worker-Allowed"] = "/"
        return response

    def art_url(self, name: str) -> str:
        """The address of an art file, with its hash in it."""
        return f"/art/{self.art[name]}/{name.removeprefix('art/')}"

    def static(self, request: Request, path: str) -> Response | None:
        """A file of ``static/``, or None if there is none of that name."""
        asset = self.files.get(path)
        return None if asset is None or path in NOT_SHELL else asset.response(request, CODE_CACHE)

    def art_file(self, request: Request, digest: str, name: str) -> Response | None:
        """An art file at its hashed address; None for any other hash (an old address is not served
        with new bytes under a year's cache)."""
        key = f"art/{name}"
        if self.art.get(key) != digest:
            return None
        return self.files[key].response(request, ART_CACHE)

    def page(self, request: Request) -> Response:
        """The game page."""
        return self.index.response(request, CODE_CACHE)

    def locale(self, request: Request, lang: str) -> Response | None:
        """The page's texts in one language."""
        asset = self.locales.get(lang)
        return None if asset is None else asset.response(request, CODE_CACHE)


NOT_FOUND_PAGE: Final = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/notfound.css">
</head>
<body>
<main>
<svg class="mark" viewBox="0 0 120 90" aria-hidden="true"><path d="M60 8 112 82H8z" fill="none" stroke="currentColor"
stroke-width="4" stroke-linejoin="round"/><text x="60" y="70" text-anchor="middle" font-size="30"
font-weight="700" fill="currentColor">?</text></svg>
<h1>{title}</h1>
<p>{text}</p>
<p><a href="/">{home}</a></p>
</main>
</body>
</html>
"""

#: The not-found page's words.
NOT_FOUND_TEXTS: Final = {
    "ja": {
        "title": "ページが見つかりません",
        "text": "このアドレスにはページがありません。配札のリンクなら、コードが正しいか確かめてください。",
        "home": "ゲームに戻る",
    },
    "en": {
        "title": "Page not found",
        "text": "There is no page at this address. If it was a link to a deal, check that its code is complete.",
        "home": "Back to the game",
    },
}


def not_found_page(lang: str) -> Response:
    """The app's own 404 page for a browser, in ``lang``."""
    html = NOT_FOUND_PAGE.format(lang=lang, **NOT_FOUND_TEXTS[lang])
    return Response(html, status_code=404, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-store"})


def browser_lang(request: Request) -> str:
    """``ja`` or ``en``: the ``lang`` query, else the browser's first choice of the two (English when it
    names only other languages, Japanese when it names none: :func:`.http.negotiated`)."""
    return lang_of(request)


__all__ = ["ART_CACHE", "CODE_CACHE", "Asset", "Assets", "browser_lang", "not_found_page"]
