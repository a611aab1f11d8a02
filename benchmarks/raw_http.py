"""A lean HTTP/1.1 client for the load generator: one keep-alive connection per player, requests written
by hand, answers read by their Content-Length, cookies kept, gzip accepted (as a browser does).

Why not httpx: the players' httpx clients took 1.3-1.9 ms of processor time per action — as much as
the app's own work — on the same 2 cores (benchmarks/cpu_split.py), so the generator capped what a run
could show.  This client does what the players need and nothing else (no redirects, proxies, TLS or
chunked answers: the app sends none of those to them) for a fraction of that (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import time
import zlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson

#: A connection idle this long is opened again before use: uvicorn closes idle ones after 5 s, and a
#: request written into a connection the server is closing would be lost (a browser retries those).
KEEPALIVE = 2.0


class TransportError(Exception):
    """No answer: the connection could not be made, or broke before the whole answer came."""


@dataclass
class Answer:
    status_code: int
    headers: dict[str, str]
    content: bytes

    def json(self) -> Any:
        return orjson.loads(self.content)

    @property
    def text(self) -> str:
        return self.content.decode(errors="replace")


class Client:
    """One player's connection(s): to whichever base URL each request names, one kept-alive connection each."""

    def __init__(self, headers: dict[str, str] | None = None, timeout: float = 30.0) -> None:
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.connections: dict[tuple[str, int], tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = {}
        #: Kept connections found closed by the server when about to be used again (a new one was opened).
        self.closed_by_server = 0

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        for _, writer, _ in self.connections.values():
            writer.close()
        self.connections.clear()

    async def get(self, url: str) -> Answer:
        return await self.request("GET", url, None)

    async def post(self, url: str, json: object | None = None) -> Answer:
        return await self.request("POST", url, json)

    async def request(self, method: str, url: str, body: object | None) -> Answer:
        parts = urlsplit(url)
        where = (parts.hostname or "127.0.0.1", parts.port or 80)
        path = parts.path + ("?" + parts.query if parts.query else "")
        payload = b"" if body is None else orjson.dumps(body)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {where[0]}:{where[1]}", "Accept-Encoding: gzip"]
        lines += [f"{name}: {value}" for name, value in self.headers.items()]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method != "GET":
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
        try:
            return await asyncio.wait_for(self._exchange(where, message), self.timeout)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ValueError) as exc:
            self._drop(where)
            raise TransportError(f"{type(exc).__name__}: {exc}") from None

    async def _exchange(self, where: tuple[str, int], message: bytes) -> Answer:
        reader, writer = await self._connection(where)
        writer.write(message)
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in header_lines:
            if not line:
                continue
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
            headers[name] = value
        if "chunked" in headers.get("transfer-encoding", ""):
            raise ValueError("chunked answers are not read by this client")
        content = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("content-encoding") == "gzip":
            content = zlib.decompress(content, 31)
        if headers.get("connection", "").lower() == "close":
            self._drop(where)
        else:
            self.connections[where] = (reader, writer, time.monotonic())
        return Answer(status, headers, content)

    async def _connection(self, where: tuple[str, int]) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        kept = self.connections.pop(where, None)
        if kept is not None:
            reader, writer, used = kept
            if reader.at_eof():
                self.closed_by_server += 1
            elif time.monotonic() - used < KEEPALIVE:
                return reader, writer
            writer.close()
        return await asyncio.open_connection(*where)

    def _drop(self, where: tuple[str, int]) -> None:
        kept = self.connections.pop(where, None)
        if kept is not None:
            kept[1].close()
