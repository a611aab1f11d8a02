"""The inner loops of the shortest search and of the verdict in C (``_astar.c``; see there,
``search.shortest_win`` and ``search.find_win``)."""

def shortest(params: dict[str, object], start: int) -> list[int] | None: ...
def verdict(
    params: dict[str, object], start: int, best: int, want_best: bool
) -> tuple[list[int] | None, int, list[int]]: ...
