"""The results file of a study: its rows (:class:`Row`), the CSV file (:class:`ResultsFile`) and its
xz archive.

**Results file** (CSV, one row per deal, header once): ``number, code, verdict, length, best,
difficulty, seconds, nodes`` — see :data:`FIELDS` and ``docs/study.md``.  Rows are appended (and
flushed) as deals finish, in the order they finish; a rerun reads the file, skips the numbers already
there and drops a half-written last line.  When every deal of the range is done, the file is rewritten
sorted by number (a temporary file renamed over it), so an interrupted and resumed study ends with the
same file as an uninterrupted one, apart from the ``seconds`` column of the deals solved again.

**Archive**: :meth:`ResultsFile.pack` writes every row, sorted, to ``FILE.xz`` beside the file (about a
sixth of its size), and a results file is read together with its archive when one is there.  That is
how the winnability plan's results travel in the repository (``results/winnability/*.csv.xz``): a fresh
clone's studies resume from them, and its table is computed from them, without solving a deal again.
"""

from __future__ import annotations

import lzma
import math
import os
import tempfile
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TextIO

from ..deal import MAX_NUMBER, NUMBER_LETTERS, Deal, number_letters
from ..messages import file_problem
from ..rule_strings import find_rules
from ..rules import Rules
from ..vocabulary import Verdict
from .errors import StudyError

#: The columns of the results file, in order.
FIELDS: Final = ("number", "code", "verdict", "length", "best", "difficulty", "seconds", "nodes")
HEADER: Final = ",".join(FIELDS)
#: Columns that differ from run to run even when the answer is the same.
TIMING_FIELDS: Final = ("seconds",)
WON, LOST, UNKNOWN = Verdict.WON, Verdict.LOST, Verdict.UNKNOWN
VERDICTS: Final = {True: WON, False: LOST, None: UNKNOWN}
SECONDS_DECIMALS: Final = 4
#: A results file's compressed snapshot is the file's name with this added (``classic.csv.xz``).
ARCHIVE_SUFFIX: Final = ".xz"
#: xz's preset for it: the 9 of ``xz -9``, about a sixth of the CSV's size.
ARCHIVE_PRESET: Final = 9


class RowError(StudyError):
    """A line of a results file that is not a row of one: the wrong number of fields, a field out of range."""


@dataclass(frozen=True)
class Row:
    """The result of one deal: a row of the results file.

    ``length`` is the steps of the solution the solver found (not necessarily the fewest) and
    ``difficulty`` the sensible-player rating (:func:`.solver.difficulty.rate`), both only for won deals.
    ``best`` is the most pyramid cards any line removes (a lower bound when the verdict is unknown).
    ``seconds`` is the time the deal took (solving and rating), ``nodes`` the positions the solver visited.
    """

    number: int
    code: str
    verdict: str
    length: int | None
    best: int
    difficulty: float | None
    seconds: float
    nodes: int

    def to_line(self) -> str:
        """The row as a CSV line, without the line end."""
        return ",".join(
            [
                str(self.number),
                self.code,
                self.verdict,
                _blank(self.length),
                str(self.best),
                _blank(self.difficulty),
                f"{self.seconds:.{SECONDS_DECIMALS}f}",
                str(self.nodes),
            ]
        )

    @classmethod
    def from_line(cls, line: str) -> Row:
        """Parse a CSV line written by :meth:`to_line`; raise :class:`RowError` (a ``ValueError``) if it is
        not one."""
        cells = line.split(",")
        if len(cells) != len(FIELDS):
            raise RowError("study.row.fields", expected=len(FIELDS), got=len(cells))
        number, code, verdict, length, best, difficulty, seconds, nodes = cells
        if verdict not in VERDICTS.values():
            raise RowError("study.row.verdict", verdict=verdict)
        row = cls(
            _whole("number", number),
            code,
            verdict,
            None if length == "" else _whole("length", length),
            _whole("best", best),
            None if difficulty == "" else _decimal("difficulty", difficulty),
            _decimal("seconds", seconds),
            _whole("nodes", nodes),
        )
        if not 0 <= row.number <= MAX_NUMBER:
            raise RowError("study.row.number", number=row.number, most=MAX_NUMBER)
        if not code.endswith(number_letters(row.number)):
            raise RowError("study.row.code", code=code, number=row.number)
        if (row.length is not None) != (verdict == WON):
            raise RowError("study.row.length")
        if min(row.length or 0, row.best, row.nodes) < 0:
            raise RowError("study.row.negative")
        if not (math.isfinite(row.seconds) and row.seconds >= 0):
            raise RowError("study.row.seconds", seconds=row.seconds)
        if row.difficulty is not None and not 0.0 <= row.difficulty <= 1.0:
            raise RowError("study.row.difficulty", difficulty=row.difficulty)
        return row

    def result(self) -> tuple[object, ...]:
        """Every field but the timing ones: what must be equal whatever the engine."""
        return tuple(getattr(self, name) for name in FIELDS if name not in TIMING_FIELDS)


def _blank(value: object) -> str:
    return "" if value is None else str(value)


def _whole(field: str, cell: str) -> int:
    """The whole number in ``cell`` of the column ``field``."""
    try:
        return int(cell)
    except ValueError:  # not digits, or more of them than int() converts
        raise RowError("study.row.not-number", field=field, value=cell) from None


def _decimal(field: str, cell: str) -> float:
    """The number in ``cell`` of the column ``field``."""
    try:
        return float(cell)
    except ValueError:
        raise RowError("study.row.not-number", field=field, value=cell) from None


#: The one job of every engine: deal number, rule-set string and time limit to the deal's row
#: (:func:`pyramid_solitaire.study.study_deal`; the engines are handed it, so that they run any such job).
Job = Callable[[int, str, float], Row]


# --- the results file --------------------------------------------------------------------------------


class ResultsFile:
    """The CSV file of a study: read (dropping a half-written last line), appended to, sorted at the end."""

    def __init__(self, path: Path, rules: Rules) -> None:
        self.path = path
        self.rules = rules
        self.prefix = Deal.from_number(0, rules).code[:-NUMBER_LETTERS]  # e.g. CL1-R-: rules and letter
        self.rows: dict[int, Row] = {}
        self._keep_bytes = 0  # bytes of complete lines, header included (0: no header yet)
        self._handle: TextIO | None = None
        self._read()

    @property
    def archive(self) -> Path:
        """The file's compressed snapshot beside it (``classic.csv.xz``), read with it when present."""
        return self.path.with_name(self.path.name + ARCHIVE_SUFFIX)

    def _read(self) -> None:
        if self.path.is_dir():
            raise StudyError("study.is-folder", path=str(self.path))
        if not self.path.parent.is_dir():
            raise StudyError("study.no-folder", folder=str(self.path.parent), name=self.path.name)
        if self.path.exists() and not self.path.is_file():  # a device or a pipe: never read to its end
            raise StudyError("study.not-regular", path=str(self.path))
        packed = _read_bytes(self.archive)
        if packed is not None:
            unpacker = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
            try:
                unpacked = unpacker.decompress(packed)
            except lzma.LZMAError:
                raise StudyError("study.archive.not-xz", path=str(self.archive)) from None
            if not unpacker.eof:  # an xz stream that stops before its end: a copy or download cut short
                raise StudyError("study.archive.ends-early", path=str(self.archive))
            if unpacker.unused_data:
                raise StudyError("study.archive.trailing-data", path=str(self.archive))
            if not unpacked.endswith(b"\n"):
                raise StudyError("study.archive.no-line-end", path=str(self.archive))
            self._parse(self.archive, unpacked)
        data = _read_bytes(self.path)
        if data is None:
            return
        complete = data[: data.rfind(b"\n") + 1]  # an unterminated last line was cut short: drop it
        if not complete:
            if data and not HEADER.encode().startswith(data):
                raise StudyError("study.not-csv.header", path=str(self.path), header=HEADER)
            return
        self._parse(self.path, complete)
        self._keep_bytes = len(complete)

    def _parse(self, path: Path, data: bytes) -> None:
        """Keep the rows of ``data``, the complete lines of ``path``."""
        try:
            lines = data.decode("utf-8").splitlines()
        except UnicodeDecodeError:
            raise StudyError("study.not-csv.text", path=str(path)) from None
        if not lines or lines[0] != HEADER:
            raise StudyError("study.not-csv.header", path=str(path), header=HEADER)
        for line_number, line in enumerate(lines[1:], start=2):
            try:
                row = Row.from_line(line)
            except RowError as exc:
                raise StudyError("study.bad-row", path=str(path), line=line_number, problem=exc) from None
            if not row.code.startswith(self.prefix):
                raise StudyError(
                    "study.other-rules", path=str(path), line=line_number, code=row.code, rules=str(self.rules)
                )
            self._keep(row)

    def _keep(self, row: Row) -> None:
        """The first row of a deal stands, unless it is unknown: then a later one (a retry, with a longer
        time limit as a rule) replaces it, decided or not."""
        held = self.rows.get(row.number)
        if held is None or held.verdict == UNKNOWN:
            self.rows[row.number] = row

    def open(self) -> None:
        """Open the file for appending (creating it with its header, dropping a half-written last line);
        done before the first deal is solved, so that a file that cannot be written says so at once."""
        if self._handle is not None:
            return
        try:
            with open(self.path, "ab") as handle:
                handle.truncate(self._keep_bytes)
            self._handle = open(self.path, "a", encoding="utf-8", newline="")  # noqa: SIM115 (closed by close)
            if self._keep_bytes == 0:
                self._handle.write(HEADER + "\n")
                self._handle.flush()
        except OSError as exc:
            self.close()
            raise StudyError.of(file_problem("write", str(self.path), exc)) from None

    def append(self, row: Row) -> None:
        """Add a row at the end of the file and flush it."""
        self.open()
        assert self._handle is not None
        try:
            self._handle.write(row.to_line() + "\n")
            self._handle.flush()
        except OSError as exc:  # a full disk, say: the rows written before this one are whole and kept
            raise StudyError("study.cannot-append", problem=file_problem("write", str(self.path), exc)) from None
        self._keep(row)

    def close(self) -> None:
        """Close the file (rows written so far stay)."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            with suppress(OSError):  # a last write that failed already said so; the rows before it are whole
                handle.close()

    def _sorted_text(self) -> str:
        return HEADER + "\n" + "".join(row.to_line() + "\n" for _, row in sorted(self.rows.items()))

    def finish(self) -> None:
        """Rewrite the file sorted by number, atomically (a temporary file renamed over it)."""
        appended = self._handle is not None
        self.close()
        if not appended and self._keep_bytes == 0:
            return  # no CSV rows and none new: nothing to sort (the archive, if any, is sorted)
        try:
            replace_file(self.path, self._sorted_text().encode("utf-8"))
        except OSError as exc:  # the file is as it was: every row in it, unsorted
            raise StudyError("study.cannot-sort", problem=file_problem("write", str(self.path), exc)) from None

    def pack(self) -> int:
        """Write :attr:`archive`: every row held (the archive's and the file's), sorted by number, as xz
        (the same rows always give the same bytes); return its size in bytes.  The CSV file stays."""
        data = lzma.compress(self._sorted_text().encode("utf-8"), format=lzma.FORMAT_XZ, preset=ARCHIVE_PRESET)
        replace_file(self.archive, data)
        return len(data)


def _read_bytes(path: Path) -> bytes | None:
    """The bytes of ``path``, or None if there is no such file; raises StudyError if it cannot be read."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StudyError.of(file_problem("read", str(path), exc)) from None


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed over it: a stop at any moment leaves
    the old file or the new one, never half of one."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_results(path: Path | str, rules: Rules | str) -> dict[int, Row]:
    """The rows of a results file by deal number (for reports such as docs/winnability.md)."""
    results = ResultsFile(Path(path), find_rules(rules))
    return results.rows


__all__ = [
    "ARCHIVE_PRESET",
    "ARCHIVE_SUFFIX",
    "FIELDS",
    "HEADER",
    "LOST",
    "SECONDS_DECIMALS",
    "TIMING_FIELDS",
    "UNKNOWN",
    "VERDICTS",
    "WON",
    "Job",
    "ResultsFile",
    "Row",
    "RowError",
    "read_results",
    "replace_file",
]
