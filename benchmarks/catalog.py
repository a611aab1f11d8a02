"""How fast a new verified deal reaches a player: ``pick_deal`` alone, and a whole ``POST /api/games``
with a difficulty (new game recorded in SQLite, state answered), per preset.

    .venv/bin/python benchmarks/catalog.py            # 300 picks per preset and difficulty
    .venv/bin/python benchmarks/catalog.py --picks 1000

A preset with a catalogue (data/catalog/<preset>.json) draws from it; one without searches on demand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings

from figures import percentile, unlimited

from pyramid_solitaire.catalog import EASY, NORMAL, catalogue, pick_deal
from pyramid_solitaire.rules import PRESETS
from pyramid_solitaire.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def figures(seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"median {statistics.median(ms):.2f} ms, p90 {percentile(ms, 0.9):.2f} ms, "
        f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--picks", type=int, default=300)
    args = parser.parse_args()
    client = TestClient(create_app(limiter=unlimited()))
    rng = random.Random(1)
    for preset in PRESETS:
        source = "catalogue" if catalogue(preset) else "search on demand"
        for difficulty in (EASY, NORMAL):
            picks = []
            for _ in range(args.picks if catalogue(preset) else max(1, args.picks // 30)):
                started = time.perf_counter()
                pick_deal(preset, difficulty, rng)
                picks.append(time.perf_counter() - started)
            requests = []
            for _ in range(args.picks if catalogue(preset) else max(1, args.picks // 30)):
                started = time.perf_counter()
                answer = client.post("/api/games", json={"rules": preset, "difficulty": difficulty})
                requests.append(time.perf_counter() - started)
                assert answer.status_code == 201, answer.text
            print(f"{preset:12} {difficulty} ({source}): pick {figures(picks)}")
            print(f"{'':12}   new game over HTTP: {figures(requests)}  (n={len(requests)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
