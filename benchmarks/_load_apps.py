"""The app processes of the load benchmark (``load.py``): real ``pyramid-solitaire serve`` processes on
loopback ports, started side by side on one database (or one ``serve --workers N`` whose workers share a
port), and killed or stopped by it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field

import httpx

#: An app process must answer within this many seconds of being started.
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class App:
    """One ``pyramid-solitaire serve`` process on a fixed port."""

    db: str
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    #: Worker processes of this ``serve`` (``--workers``), all answering on its port.
    workers: int = 1

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pyramid_solitaire.cli",
                "serve",
                "--no-browser",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--workers",
                str(self.workers),
            ],
            stdout=subprocess.DEVNULL,
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
            if self.process is not None and self.process.poll() is not None:
                raise SystemExit(f"an app process exited with code {self.process.returncode}")
        raise SystemExit("an app process did not start")

    def worker_pids(self, tries: int = 200) -> set[int]:
        """The ids of the processes answering on the port, as ``/healthz`` gives them (each request on a new
        connection, which any worker may take); stops once every worker has been seen."""
        seen: set[int] = set()
        for _ in range(tries):
            try:
                seen.add(int(httpx.get(f"{self.url}/healthz", timeout=5).json()["pid"]))
            except httpx.TransportError:
                continue
            if len(seen) >= self.workers:
                break
        return seen

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing, connections cut."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def start_apps(db: str, count: int, workers: int = 1) -> list[App]:
    """``count`` app processes (each ``serve --workers workers``) on one database, started side by side."""
    apps = [App(db, workers=workers) for _ in range(count)]
    for app in apps:
        app.launch()
    try:
        for app in apps:
            app.wait_ready()
    except BaseException:
        for app in apps:
            app.stop()
        raise
    return apps
