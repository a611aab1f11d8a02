"""Where the processor time of a load goes: the load generator, the app's workers, PostgreSQL — each
read from Linux's /proc before and after a run of ``load.py``'s players and divided by the actions
answered, with the part spent in the kernel (system calls: sockets, the log's syncs).

    .venv/bin/python benchmarks/cpu_split.py                          # 100 players, 20 s, serve --workers 2
    .venv/bin/python benchmarks/cpu_split.py --players 200 --seconds 30 --workers 4
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import load
import uvloop

from pyramid_solitaire.store import CONNECTIONS_PER_PROCESS

ROOT = Path(__file__).resolve().parents[1]


def ticks(pid: int) -> tuple[int, int]:
    """The clock ticks a process has used, in all and in the kernel ((0, 0) once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0, 0
    return int(fields[11]) + int(fields[12]), int(fields[12])


def summed(pids: list[int]) -> tuple[int, int]:
    pairs = [ticks(pid) for pid in pids]
    return sum(total for total, _ in pairs), sum(kernel for _, kernel in pairs)


def machine_ticks() -> tuple[int, int]:
    """Clock ticks every processor of the machine has been busy (not idle nor waiting), in all and in
    the kernel (system time and interrupts), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields) - fields[3] - fields[4], fields[2] + fields[5] + fields[6]


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def postgres_pids(folder: str, database: str) -> list[int]:
    """The private server's postmaster (named by its folder) and the backends serving ``database``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_text()
        except OSError:
            continue
        if folder in command or command.startswith(f"postgres: postgres {database} "):
            pids.append(int(entry.name))
    return pids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--think", type=float, default=load.THINK, help="mean pause of a player between actions, s")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from pg_server import PostgresServer

    # syncing its log at each commit, as a real one; with room for every worker's connections (load.py)
    server = PostgresServer(durable=True, max_connections=max(100, args.workers * CONNECTIONS_PER_PROCESS + 10))
    server.start()
    try:
        db = server.create_database("split")
        deals = load.verified_deals(10)
        apps = load.start_apps(db, 1, args.workers)
        try:
            assert apps[0].process is not None
            workers = [
                pid for pid in children(apps[0].process.pid) if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()
            ]
            parts = {
                "load generator": lambda: ticks(os.getpid()),
                "app workers": lambda: summed(workers),
                "PostgreSQL": lambda: summed(postgres_pids(str(server.root), "split")),
                # backends that came and went between the two readings escape the line above; this does not
                "the whole machine": machine_ticks,
            }
            before = {name: read() for name, read in parts.items()}
            began = time.perf_counter()
            seen = uvloop.run(load.run([apps[0].url], deals, args.players, args.seconds, think=args.think))
            elapsed = time.perf_counter() - began
            after = {name: read() for name, read in parts.items()}
        finally:
            for app in apps:
                app.stop()
    finally:
        server.stop()
    answered = sum(len(log) for log in seen.games.values())
    hertz = os.sysconf("SC_CLK_TCK")
    print(
        f"cpu split: {args.players} players, {elapsed:.0f} s, serve --workers {args.workers}: "
        f"{answered} actions ({answered / elapsed:.0f}/s), errors {len(seen.errors)}"
    )
    for name in parts:
        seconds, kernel = ((a - b) / hertz for a, b in zip(after[name], before[name], strict=True))
        print(
            f"  {name}: {seconds:.1f} s of processor time, {seconds / max(answered, 1) * 1000:.2f} ms per action"
            f" ({kernel / max(seconds, 1e-9):.0%} in the kernel)"
        )
    return 0 if not seen.errors else 1


if __name__ == "__main__":
    sys.exit(main())
