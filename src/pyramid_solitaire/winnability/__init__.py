"""The winnability table (issue 6, ``docs/winnability.md``): a fixed plan of studies, run resumably, and
the Markdown table written from their results files.

**The plan** (:func:`default_plan`) is data: six headline rule sets of :data:`HEADLINE_TARGET` deals
each, the other games of the family (issue 8) of :data:`FAMILY_TARGET` each, then the grid over
``classic`` — passes × overlap × win condition × stock model — of :data:`GRID_TARGET` deals each.
Every row is one study of deals ``0 .. target-1`` of the documented
shuffle into its own results file in one folder, named by :func:`file_name` after the rule set's
canonical string.  A grid cell that plays exactly as a headline rule set (:func:`plays_the_same`:
equal options but for the preset's name, and the same deals) takes its figures from that rule set's
file instead of solving the same deals again: ``classic`` itself, and ``classic(stock_top=true)``,
which is ``msc``.

**Running** (:func:`run_plan`) goes through the rows in order, each up to its target or ``upto``
deals, and skips rows already done; every study resumes its file (:func:`.study.run_study`), so the
plan can be stopped at any moment and continued over many sessions.

**The table** (:func:`render_table`) is computed from the results files alone: for each row, the
deals ``0 .. n-1`` done without a gap (up to the target), their verdicts, the win rate with its 95%
Wilson interval and the seconds per deal; rows short of their target say so.

**The consistency check** (:func:`check_consistency`, shown on the page) compares the files with each
other.  Where one rule set allows every line of another and its goal is no harder
(:func:`at_least_as_free`: more passes, overlap pairs, a usable stock card, triples, free cells, more
waste uses, the pyramid alone to clear, on the same deals), it must win every deal the other wins, and
its best count can be no lower.  The files were solved one by one, so this checks the solver
against itself over hundreds of thousands of deals, at no cost; two files of the same game solved
apart (``overlap`` and ``classic(overlap=true)``) must agree deal for deal.
"""

from __future__ import annotations

from .plan import (
    FAMILY_RULES,
    FAMILY_TARGET,
    GRID_TARGET,
    HEADLINE_RULES,
    HEADLINE_TARGET,
    Breach,
    Consistency,
    PlanRow,
    RowStatus,
    WinnabilityError,
    at_least_as_free,
    build_plan,
    check_consistency,
    default_plan,
    file_name,
    grid_rules,
    pack_plan,
    plan_status,
    plays_the_same,
    run_plan,
)
from .table import render_table

__all__ = [
    "FAMILY_RULES",
    "FAMILY_TARGET",
    "GRID_TARGET",
    "HEADLINE_RULES",
    "HEADLINE_TARGET",
    "Breach",
    "Consistency",
    "PlanRow",
    "RowStatus",
    "WinnabilityError",
    "at_least_as_free",
    "build_plan",
    "check_consistency",
    "default_plan",
    "file_name",
    "grid_rules",
    "pack_plan",
    "plan_status",
    "plays_the_same",
    "render_table",
    "run_plan",
]
