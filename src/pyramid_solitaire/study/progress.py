"""The progress of a study as it runs: a plain-text bar (:class:`Progress`) of deals done, deals per
second and time left."""

from __future__ import annotations

import math
import time
from typing import Final, TextIO

from ..messages import text

#: Seconds between progress lines when standard error is not a terminal, and between redraws when it is.
PROGRESS_LINE_SECONDS: Final = 5.0
PROGRESS_REDRAW_SECONDS: Final = 0.2


class Progress:
    """A progress bar in plain text on ``stream``, in ``lang``: done/total, deals per second, time left.
    Redrawn in place on a terminal; otherwise a line every few seconds.  ``label`` goes before it."""

    def __init__(self, total: int, done: int, stream: TextIO, label: str = "", lang: str = "en") -> None:
        self.total = total
        self.first = done
        self.done = done
        self.stream = stream
        self.label = label
        self.lang = lang
        self.tty = stream.isatty()
        self.started = time.monotonic()
        self.shown_at = -math.inf
        self.width = 0

    def text(self) -> str:
        """The bar's current text."""
        elapsed = time.monotonic() - self.started
        rate = (self.done - self.first) / elapsed if elapsed > 0 else 0.0
        left = _duration((self.total - self.done) / rate) if rate > 0 else "?"
        share = 100 * self.done / self.total if self.total else 100.0
        return text(
            self.lang,
            "study.progress",
            label=self.label,
            done=self.done,
            total=self.total,
            share=f"{share:.1f}",
            rate=f"{rate:.2f}",
            left=left,
        )

    def update(self, done: int, *, force: bool = False) -> None:
        """Record ``done`` deals and show the bar if it is time to."""
        self.done = done
        now = time.monotonic()
        if not force and now - self.shown_at < (PROGRESS_REDRAW_SECONDS if self.tty else PROGRESS_LINE_SECONDS):
            return
        self.shown_at = now
        bar = self.text()
        if self.tty:
            self.stream.write("\r" + bar.ljust(self.width))
            self.width = len(bar)
        else:
            self.stream.write(bar + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Show the final state and end the line."""
        self.update(self.done, force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


__all__ = ["PROGRESS_LINE_SECONDS", "PROGRESS_REDRAW_SECONDS", "Progress"]
