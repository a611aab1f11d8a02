"""What every answer shares: the JSON :class:`Answer` (compressed for a browser that accepts it), the
security headers put on every answer, the methods that change nothing, and the language a request's
answer is written in."""

from __future__ import annotations

import json
from typing import Final

import orjson
from fastapi import Request
from fastapi.responses import Response
from isal import isal_zlib

from .play import LANGS

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})

#: Answers at least this long (bytes of JSON) are compressed for a browser that accepts gzip.
COMPRESS_FROM: Final = 1024
#: ISA-L's fastest level but one (0 is faster still but makes answers a tenth larger), and the gzip format.
GZIP_LEVEL: Final = 1
GZIP_WBITS: Final = 31
#: Headers on every answer: nothing from other origins, no framing, no sniffing.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


def lang_of(request: Request) -> str:
    """The language the request asks its answer in: ``?lang=``, else HTTP's own ``Accept-Language``, else
    Japanese (:func:`negotiated`)."""
    return negotiated(request.query_params.get("lang"), request.headers.get("accept-language", ""))


def negotiated(asked: str | None, accept_language: str) -> str:
    """``ja`` or ``en``: the one ``?lang=`` names, else the one ``Accept-Language`` prefers (by its
    q-values, then its order; ``en-GB`` counts as ``en``).  A header that names only other languages
    (``de, fr``) gets English, which a reader of neither is likelier to read than Japanese, as the
    command line does for such a locale (:func:`..cli.locale_lang`); no header, or only ``*``, gets
    Japanese, the app's first language."""
    if asked in LANGS:
        return str(asked)
    best, best_q, others = "ja", 0.0, False
    for part in accept_language.split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if code in LANGS and quality > best_q:
            best, best_q = code, quality
        others = others or (code.isalpha() and quality > 0)
    return best if best_q > 0 or not others else "en"


class Answer(Response):
    """A JSON answer encoded straight with orjson, gzip-compressed for a request that accepts it.

    A handler that returns a dict has FastAPI walk it with ``jsonable_encoder`` first, which for a game's
    state (every card's pairs and refusals) cost about 1 ms of the 2.8 ms a move took; the states are
    plain JSON already.  A state is 5-13 KB (a median of 9 KB); compressed it is a fifth of that —
    done here rather than by a middleware, whose wrapping of every request cost more than the
    compression.  The compression is ISA-L's (the ``isal`` package, the same gzip format): zlib's
    fastest level took 66 µs for a state of 11 KB, a tenth of a move's processor time; ISA-L's level 1
    takes 20 µs and compresses as well (docs/performance.md, issue 24).  orjson rather than
    :func:`json.dumps`: the state's encoding was a tenth of a move's processor time with the standard
    library, about a hundredth with orjson (docs/performance.md)."""

    media_type = "application/json"

    def __init__(self, content: object, status_code: int = 200, request: Request | None = None) -> None:
        self.gzip = request is not None and "gzip" in request.headers.get("accept-encoding", "")
        self.compressed = False
        super().__init__(content, status_code=status_code)
        if self.compressed:
            self.headers["Content-Encoding"] = "gzip"
        if request is not None:
            self.headers["Vary"] = "Accept-Encoding"

    def render(self, content: object) -> bytes:
        try:
            body = orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:  # an integer beyond 64 bits (a rule option may be written that long): JSON has it
            body = json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()
        if self.gzip and len(body) >= COMPRESS_FROM:
            self.compressed = True
            return isal_zlib.compress(body, GZIP_LEVEL, GZIP_WBITS)
        return body
