"""The study's error: :class:`StudyError`, which every part of the package raises for a study that
cannot run as asked (the results file's :class:`.results.RowError` is one kind of it)."""

from __future__ import annotations

from ..messages import Problem


class StudyError(Problem, ValueError):
    """A study that cannot run as asked: a bad range or worker count, a results file of another kind or
    another rule set, an unreachable Dask scheduler.  Its message is the catalogue's ``study.*`` key (or,
    for a file that cannot be read or written, the ``file.*`` one of :func:`.messages.file_problem`)."""

    @classmethod
    def of(cls, problem: Problem) -> StudyError:
        """``problem`` (a file that cannot be read, say) as a study's error: the same key and details."""
        return cls(problem.key, **problem.details)


__all__ = ["StudyError"]
