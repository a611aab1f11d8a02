"""Type stub of the C extension built from ``_astar_wide.c`` (``_astar.c`` with positions of 128 bits,
for free cells): its shortest search alone."""

def shortest(params: dict[str, object], start: int, /) -> list[int] | None: ...
