"""The HTTP protocol ``serve`` runs: uvicorn's httptools protocol, with each answer sent in one write.

uvicorn writes an answer's status line and headers when the app starts it, then its body, each with its
own ``transport.write``: two ``send`` system calls, two TCP segments, and on the client two wake-ups, for
an answer the app produced in one go.  On loopback the kernel's work for a send is done by the sending
process, and under load (issue 24, ``benchmarks/cpu_split.py``) those writes were the largest single
item of a worker's processor time.  :class:`OneWrite` gives uvicorn's protocol a transport that gathers
what is written during one step of the event loop and sends it as one write at the end of that step;
an answer whose body comes in several steps (a stream) still goes out as it is produced.  Closing (or
ending) the transport first sends what is gathered, so nothing written is dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class _Gathering:
    """A transport in front of the real one: writes made in one step of the loop leave as one."""

    __slots__ = ("_loop", "_pending", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._pending is None:
            self._pending = [bytes(data)]
            self._loop.call_soon(self._send)
        else:
            self._pending.append(bytes(data))

    def writelines(self, lines: Iterable[bytes | bytearray | memoryview]) -> None:
        for data in lines:
            self.write(data)

    def _send(self) -> None:
        pending, self._pending = self._pending, None
        if pending and not self._transport.is_closing():
            self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        self._send()
        self._transport.close()

    def write_eof(self) -> None:
        self._send()
        self._transport.write_eof()

    def get_write_buffer_size(self) -> int:
        pending = sum(len(data) for data in self._pending) if self._pending else 0
        return pending + self._transport.get_write_buffer_size()

    # Any: everything else is the real transport's attribute, of whatever type asyncio gives it
    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWrite(HttpToolsProtocol):
    """uvicorn's httptools protocol over a :class:`_Gathering` transport (pass as ``uvicorn.run(http=…)``)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = _Gathering(transport, self.loop)  # type: ignore[assignment]
