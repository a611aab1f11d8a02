"""The HTTP protocol ``serve`` runs (web/wire.py): an answer's head and body leave in one write, a streamed
answer still leaves as it is produced, and nothing written is lost when the connection closes."""

from __future__ import annotations

import asyncio
import http.client
import threading
from collections.abc import Coroutine, Iterator
from typing import Any

import pytest

from helpers import serving
from pyramid_solitaire.web.wire import _Gathering


class Recording:
    """Stands in for the socket's transport: keeps each write it is asked for."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        assert not self.closed, "written after close"
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5)}.get(name, default)


def gathering() -> tuple[Recording, _Gathering, asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    real = Recording()
    return real, _Gathering(real, loop), loop  # type: ignore[arg-type]


def run(loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, None]) -> None:
    """``work`` on ``loop``, on a thread of its own (the browser tests' Playwright keeps a loop running on
    the main thread, where another may not run), then the loop closed."""
    failed: list[BaseException] = []

    def target() -> None:
        try:
            loop.run_until_complete(work)
        except BaseException as exc:
            failed.append(exc)
        finally:
            loop.close()

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(timeout=20)
    assert not thread.is_alive(), "the loop did not finish"
    if failed:
        raise failed[0]


def test_writes_made_in_one_step_leave_as_one_write_after_it() -> None:
    real, transport, loop = gathering()

    async def answer() -> None:
        transport.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        transport.write(b"ok")
        assert real.writes == []  # held until the step ends
        assert transport.get_write_buffer_size() == len(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await asyncio.sleep(0)

    run(loop, answer())
    assert real.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"]


def test_writes_of_different_steps_leave_separately_in_order() -> None:
    real, transport, loop = gathering()

    async def stream() -> None:
        for part in (b"head", b"one", b"two"):
            transport.write(part)
            await asyncio.sleep(0.01)

    run(loop, stream())
    assert real.writes == [b"head", b"one", b"two"]


def test_closing_sends_what_was_gathered_first() -> None:
    real, transport, loop = gathering()
    transport.write(b"last words")
    transport.close()
    run(loop, asyncio.sleep(0))  # the send scheduled for the step's end finds nothing left
    assert real.writes == [b"last words"] and real.closed


def test_everything_else_is_the_real_transports() -> None:
    real, transport, loop = gathering()
    assert transport.get_extra_info("peername") == ("127.0.0.1", 5)
    assert not transport.is_closing()
    real.closed = True
    assert transport.is_closing()
    loop.close()


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A plain answer at ``/plain``, an answer streamed in three parts with pauses at ``/stream``."""
    assert scope["type"] == "http"
    if scope["path"] == "/stream":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        for part in (b"one ", b"two ", b"three"):
            await send({"type": "http.response.body", "body": part, "more_body": True})
            await asyncio.sleep(0.02)
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        return
    body = b"plain answer"
    headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with serving(app) as url:
        yield int(url.rsplit(":", 1)[1])


def test_plain_and_streamed_answers_arrive_whole_on_one_kept_connection(port: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        for path, expected in [("/plain", b"plain answer"), ("/stream", b"one two three"), ("/plain", b"plain answer")]:
            connection.request("GET", path)
            response = connection.getresponse()
            assert (response.status, response.read()) == (200, expected)
            assert not response.will_close  # the same connection serves the next request
    finally:
        connection.close()
