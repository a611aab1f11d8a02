"""What every part of the ``pyramid-solitaire`` command shares (:mod:`.cli`, :mod:`.cli_study`): its
name, its exit statuses and :class:`UsageError`.
"""

from __future__ import annotations

from .messages import Problem

EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
#: What a shell reports for a process ended by SIGPIPE (128 + 13); ``head`` closing early is not an error.
EXIT_BROKEN_PIPE = 141
PROG = "pyramid-solitaire"


class UsageError(Problem):
    """Bad input from the command line; printed as one line in the chosen language, exit status 2."""
