"""Prometheus metrics (prometheus-client): requests by route, method and status, their latency, games
started and finished, and database errors.

The metrics are module-level, made once per process.  With ``serve --workers N`` every worker writes its
figures to files in ``$PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess mode, chosen by the
library when that variable is set before it is imported), and ``GET /metrics`` sums every worker's files,
so whichever worker answers, the figures are the server's.  A worker that dies keeps its counts in the sum.

:class:`Metered` is the outermost middleware: it sees every answer, the guard's refusals included, and
labels a request with its route's template (``/api/games/{game_id}/move``), never the raw path, so a
scan of random addresses adds one label (``unmatched``), not thousands.
"""

from __future__ import annotations

import os
import time
from typing import Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# No ``*_created`` series: a scrape is about counts, and without them the text is half as long.
disable_created_metrics()  # type: ignore[no-untyped-call]

#: Latency buckets, in seconds: a move takes a few milliseconds on a quiet machine, hundreds under overload.
LATENCY_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: The route label of a request no route matched.
UNMATCHED: Final = "unmatched"

REQUESTS: Final = Counter(
    "pyramid_http_requests", "HTTP requests answered, by route, method and status", ["route", "method", "status"]
)
LATENCY: Final = Histogram(
    "pyramid_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by route and method",
    ["route", "method"],
    buckets=LATENCY_BUCKETS,
)
GAMES_STARTED: Final = Counter("pyramid_games_started", "Games started, by preset", ["preset"])
GAMES_FINISHED: Final = Counter("pyramid_games_finished", "Games finished, by result", ["result"])
DATABASE_ERRORS: Final = Counter(
    "pyramid_database_errors", "Requests the records database could not serve (answered 503), by where", ["where"]
)


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, summed over every worker in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


class Metered:
    """Pure ASGI middleware counting every HTTP answer and timing it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers if the app fails before starting an answer

        async def send_counted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_counted)
        finally:
            route = scope.get("route")
            label = str(getattr(route, "path", UNMATCHED)) if route is not None else UNMATCHED
            method = str(scope.get("method", ""))
            REQUESTS.labels(label, method, str(status)).inc()
            LATENCY.labels(label, method).observe(time.perf_counter() - started)
