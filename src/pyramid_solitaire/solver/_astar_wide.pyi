"""Type stub of the C extension built from ``_astar_wide.c`` (``_astar.c`` with positions of 128 bits,
for free cells; see there)."""

def shortest(params: dict[str, object], start: int) -> list[int] | None: ...
def verdict(
    params: dict[str, object], start: int, best: int, want_best: bool
) -> tuple[list[int] | None, int, list[int]]: ...
