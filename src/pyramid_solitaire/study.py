"""Studies: solve many deals of the shuffle at once, on local processes or a Dask cluster.

A study solves deals ``S .. S+N-1`` of the documented shuffle under one rule set.  Every engine runs
the same function on each deal, :func:`study_deal`, so the results do not depend on the engine or on
the number of workers — except for deals whose answer is ``unknown``: the solver's time limit is CPU
time of the worker (so waiting for a core costs nothing), but a deal near the limit may still be
decided on one machine and not on a slower one.  ``retry_unknown`` solves such deals again.

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

import importlib
import lzma
import math
import multiprocessing
import os
import re
import statistics
import tempfile
import time
from collections.abc import Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, suppress
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Final, TextIO

from . import __version__
from .deal import MAX_NUMBER, NUMBER_LETTERS, Deal, number_letters
from .messages import Problem, file_problem, join, shown, text
from .rules import Rules, find_rules

#: The columns of the results file, in order.
FIELDS: Final = ("number", "code", "verdict", "length", "best", "difficulty", "seconds", "nodes")
HEADER: Final = ",".join(FIELDS)
#: Columns that differ from run to run even when the answer is the same.
TIMING_FIELDS: Final = ("seconds",)
WON, LOST, UNKNOWN = "won", "lost", "unknown"
VERDICTS: Final = {True: WON, False: LOST, None: UNKNOWN}
DEFAULT_DEALS: Final = 1000
#: Seconds the solver may spend on one deal before its answer is ``unknown``.
DEFAULT_TIME_LIMIT: Final = 30.0
#: Deals handed to each local worker ahead of time, and to a Dask cluster at most at once.
IN_FLIGHT_PER_WORKER: Final = 4
DASK_IN_FLIGHT: Final = 1000
#: Seconds to wait for a Dask scheduler to answer.
DASK_CONNECT_SECONDS: Final = 10.0
#: ``tcp://HOST:PORT`` or ``tls://``; HOST a name, an IPv4 address or an IPv6 one in brackets.
DASK_ADDRESS_RE: Final = re.compile(r"^(tcp|tls)://([^\s:/\[\]]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$")
#: z for a two-sided 95% interval.
Z95: Final = 1.959963984540054
#: Seconds between progress lines when standard error is not a terminal, and between redraws when it is.
PROGRESS_LINE_SECONDS: Final = 5.0
PROGRESS_REDRAW_SECONDS: Final = 0.2
SECONDS_DECIMALS: Final = 4
#: A results file's compressed snapshot is the file's name with this added (``classic.csv.xz``).
ARCHIVE_SUFFIX: Final = ".xz"
#: xz's preset for it: the 9 of ``xz -9``, about a sixth of the CSV's size.
ARCHIVE_PRESET: Final = 9


class StudyError(Problem, ValueError):
    """A study that cannot run as asked: a bad range or worker count, a results file of another kind or
    another rule set, an unreachable Dask scheduler.  Its message is the catalogue's ``study.*`` key (or,
    for a file that cannot be read or written, the ``file.*`` one of :func:`.messages.file_problem`)."""

    @classmethod
    def of(cls, problem: Problem) -> StudyError:
        """``problem`` (a file that cannot be read, say) as a study's error: the same key and details."""
        return cls(problem.key, **problem.details)


class RowError(StudyError):
    """A line of a results file that is not a row of one: the wrong number of fields, a field out of range."""


class _Listed(Problem):
    """Names written as a list of the language (``a and b`` / ``aとb``): a detail of another problem."""

    def __init__(self, items: Iterable[str]) -> None:
        self.items = list(items)
        super().__init__("and")

    def message(self, lang: str) -> str:
        return join(lang, [shown(item) for item in self.items])


def check_dask_address(address: str) -> None:
    """Raise :class:`StudyError` unless ``address`` is a scheduler address ``tcp://HOST:PORT`` (or
    ``tls://``) with a port of 1-65535 — checked before anything is read or solved."""
    match = DASK_ADDRESS_RE.match(address)
    if not match:
        raise StudyError("study.dask-address", address=address)
    if not 1 <= int(match.group(3)) <= 65535:
        raise StudyError("study.dask-port", address=address)


# --- one deal ----------------------------------------------------------------------------------------


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
        return ",".join([str(self.number), self.code, self.verdict, _blank(self.length), str(self.best),
                         _blank(self.difficulty), f"{self.seconds:.{SECONDS_DECIMALS}f}", str(self.nodes)])

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
        row = cls(_whole("number", number), code, verdict, None if length == "" else _whole("length", length),
                  _whole("best", best), None if difficulty == "" else _decimal("difficulty", difficulty),
                  _decimal("seconds", seconds), _whole("nodes", nodes))
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

    def result(self) -> tuple[Any, ...]:
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


def study_deal(number: int, rules: str, time_limit: float) -> Row:
    """Solve and rate deal ``number`` under ``rules`` (a rule-set string): the one job of every engine."""
    from .solver import solve
    from .solver.difficulty import rate

    started = time.monotonic()
    deal = Deal.from_number(number, find_rules(rules))
    # CPU seconds: a deal left unknown must be one the solver could not settle, not one whose worker
    # waited for a core (several workers, or other work, on a loaded machine)
    result = solve(deal, time_limit=time_limit, cpu_time=True)
    difficulty = rate(deal).rating if result.winnable else None
    return Row(number, deal.code, VERDICTS[result.winnable], result.length, result.max_pyramid_removed,
               difficulty, time.monotonic() - started, result.nodes)


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
                raise StudyError("study.other-rules", path=str(path), line=line_number, code=row.code,
                                 rules=str(self.rules))
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


# --- engines -----------------------------------------------------------------------------------------


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _process_context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def local_results(numbers: Iterable[int], rules: str, time_limit: float,
                  workers: int) -> Generator[Row, None, None]:
    """Rows of ``numbers`` as they finish, from ``workers`` processes (1: this process)."""
    if workers == 1:
        for number in numbers:
            yield study_deal(number, rules, time_limit)
        return
    todo = iter(numbers)
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(workers, mp_context=_process_context())
    try:
        pending: set[Future[Row]] = {pool.submit(study_deal, n, rules, time_limit)
                                     for n in islice(todo, workers * IN_FLIGHT_PER_WORKER)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    row = future.result()
                except BrokenProcessPool:
                    raise StudyError("study.worker-died") from None
                yield row
                for number in islice(todo, 1):
                    pending.add(pool.submit(study_deal, number, rules, time_limit))
    except BaseException:
        # Stopped early (Ctrl-C, SIGTERM, an error): the deals in flight would not be saved anyway, so
        # stop the workers now rather than wait up to a time limit for each.  (Ctrl-C in a terminal
        # reaches them too; SIGTERM sent to this process alone does not.)
        for process in set(multiprocessing.active_children()) - others:  # not the caller's own children
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def worker_version() -> str:
    """The project's version on a Dask worker (run there to check that it can run the study)."""
    return __version__


def dask_client(address: str, timeout: float | None = None) -> Any:
    """A ``distributed.Client`` for the scheduler at ``address`` whose workers run this version."""
    check_dask_address(address)
    security = dask_security(address)
    try:
        client = _distributed().Client(address, timeout=timeout or DASK_CONNECT_SECONDS, set_as_default=False,
                                       security=security)
    except (OSError, TimeoutError) as exc:
        raise StudyError("study.dask-unreachable", address=address, reason=_one_line(exc)) from None
    try:
        versions = client.run(worker_version)
    except Exception as exc:
        client.close()
        raise StudyError("study.dask-cannot-run", reason=_one_line(exc)) from None
    if not versions:
        client.close()
        raise StudyError("study.dask-no-workers", address=address)
    wrong = sorted(w for w, v in versions.items() if v != __version__)
    if wrong:
        client.close()
        raise StudyError("study.dask-version", workers=wrong, version=__version__)
    return client


#: Dask's settings for the client's side of TLS, with the catalogue key of what each is and the
#: environment variable that sets it.
DASK_TLS_SETTINGS: Final = (
    ("tls_ca_file", "study.tls.ca-file", "DASK_DISTRIBUTED__COMM__TLS__CA_FILE"),
    ("tls_client_cert", "study.tls.client-cert", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT"),
    ("tls_client_key", "study.tls.client-key", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY"),
)


def dask_security(address: str) -> Any:
    """The ``distributed.Security`` to reach ``address`` with: Dask's own TLS settings (its config files
    or the ``DASK_DISTRIBUTED__COMM__TLS__*`` variables) for ``tls://``, checked here because Dask would
    otherwise wait out the connect timeout and end in a ``TypeError``; ``None`` for ``tcp://``."""
    if not address.startswith("tls://"):
        return None
    security = _distributed().Security()
    *needed, (_, _, key_variable) = DASK_TLS_SETTINGS  # the key may be appended to the certificate file
    missing = [variable for field, _what, variable in needed if not getattr(security, field)]
    if missing:
        raise StudyError("study.dask-tls-needed", address=address, missing=_Listed(missing), key=key_variable)
    for field, what, variable in DASK_TLS_SETTINGS:
        value = getattr(security, field)
        # Dask also takes a certificate's text in place of its path (Security.temporary() does so).
        if value and "-----BEGIN" not in value and not os.path.isfile(value):
            raise StudyError("study.dask-tls-not-file", what=Problem(what), address=address, value=value,
                             variable=variable)
    return security


def _distributed() -> Any:
    """The ``distributed`` module (imported on first use: it is slow to import and untyped)."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise StudyError("study.no-distributed", command="pip install distributed") from None


def _one_line(exc: BaseException) -> str:
    said = " ".join(str(exc).split())
    return said or type(exc).__name__


def dask_results(numbers: Iterable[int], rules: str, time_limit: float,
                 client: Any) -> Generator[Row, None, None]:
    """Rows of ``numbers`` as they finish on the cluster of ``client``."""
    todo = iter(numbers)
    first = [client.submit(study_deal, n, rules, time_limit, pure=False) for n in islice(todo, DASK_IN_FLIGHT)]
    running = _distributed().as_completed(first, loop=client.loop, with_results=True)
    del first
    try:
        for _future, row in running:
            yield row
            for number in islice(todo, 1):
                running.add(client.submit(study_deal, number, rules, time_limit, pure=False))
    except _distributed().KilledWorker:
        raise StudyError("study.dask-worker-died") from None
    finally:
        running.clear()


# --- progress and summary ----------------------------------------------------------------------------


class Progress:
    """A progress bar in plain text on ``stream``, in ``lang``: done/total, deals per second, time left.
    Redrawn in place on a terminal; otherwise a line every few seconds.  ``label`` goes before it."""

    def __init__(self, total: int, done: int, stream: TextIO, label: str = "", lang: str = "en") -> None:
        self.total = total
        self.first = done
        self.done = done
        self.stream = stream
        self.label = label
        self.lang = lang
        self.tty = stream.isatty()
        self.started = time.monotonic()
        self.shown_at = -math.inf
        self.width = 0

    def text(self) -> str:
        """The bar's current text."""
        elapsed = time.monotonic() - self.started
        rate = (self.done - self.first) / elapsed if elapsed > 0 else 0.0
        left = _duration((self.total - self.done) / rate) if rate > 0 else "?"
        share = 100 * self.done / self.total if self.total else 100.0
        return text(self.lang, "study.progress", label=self.label, done=self.done, total=self.total,
                    share=f"{share:.1f}", rate=f"{rate:.2f}", left=left)

    def update(self, done: int, *, force: bool = False) -> None:
        """Record ``done`` deals and show the bar if it is time to."""
        self.done = done
        now = time.monotonic()
        if not force and now - self.shown_at < (PROGRESS_REDRAW_SECONDS if self.tty else PROGRESS_LINE_SECONDS):
            return
        self.shown_at = now
        bar = self.text()
        if self.tty:
            self.stream.write("\r" + bar.ljust(self.width))
            self.width = len(bar)
        else:
            self.stream.write(bar + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Show the final state and end the line."""
        self.update(self.done, force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default ``z``)."""
    if trials <= 0:
        raise ValueError("no trials")
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Iterable[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the values at or below."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True)
class Summary:
    """The figures of a study over deals ``start .. start+deals-1`` (``solved``: how many this run)."""

    rules: str
    start: int
    deals: int
    won: int
    lost: int
    unknown: int
    seconds: tuple[float, ...]
    solved: int = 0

    @classmethod
    def of(cls, rules: str, start: int, rows: Iterable[Row], solved: int = 0) -> Summary:
        """Count ``rows``."""
        rows = list(rows)
        verdicts = [row.verdict for row in rows]
        return cls(rules, start, len(rows), verdicts.count(WON), verdicts.count(LOST), verdicts.count(UNKNOWN),
                   tuple(row.seconds for row in rows), solved)

    @property
    def decided(self) -> int:
        """Deals with a known verdict."""
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        """Won among decided deals (unknowns excluded)."""
        return self.won / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.won, self.decided) if self.decided else None

    def lines(self, lang: str = "en") -> list[str]:
        """The summary as printed by ``pyramid-solitaire study``, in ``lang``."""
        out = [text(lang, "study.summary.deals", rules=self.rules, first=self.start,
                    last=self.start + self.deals - 1, deals=self.deals, solved=self.solved),
               text(lang, "study.summary.verdicts", won=self.won, lost=self.lost, unknown=self.unknown)]
        if self.win_rate is not None and self.interval is not None:
            low, high = self.interval
            out.append(text(lang, "study.summary.win-rate", rate=f"{100 * self.win_rate:.2f}",
                            low=f"{100 * low:.2f}", high=f"{100 * high:.2f}", decided=self.decided))
        if self.seconds:
            out.append(text(lang, "study.summary.seconds", median=f"{statistics.median(self.seconds):.4f}",
                            p90=f"{percentile(self.seconds, 0.9):.4f}", max=f"{max(self.seconds):.4f}"))
        return out


# --- the study ---------------------------------------------------------------------------------------


def run_study(rules: Rules | str, out: Path | str, *, start: int = 0, deals: int = DEFAULT_DEALS,
              workers: int | None = None, dask: str | None = None, time_limit: float = DEFAULT_TIME_LIMIT,
              progress: TextIO | None = None, dask_timeout: float | None = None,
              retry_unknown: bool = False, lang: str = "en") -> Summary:
    """Solve deals ``start .. start+deals-1`` under ``rules`` into the results file ``out`` (resuming it),
    on ``workers`` local processes (default: every core) or the Dask scheduler at ``dask``; show
    progress on ``progress`` when given, in ``lang``.  ``retry_unknown`` solves again the deals the file
    has as unknown (with a longer ``time_limit``, say); a decided answer replaces the unknown one.  Raises
    :class:`StudyError` (or ``RulesError``) for bad input."""
    rules = find_rules(rules)
    if deals <= 0:
        raise StudyError("study.deals", deals=deals)
    if not 0 <= start <= MAX_NUMBER - deals + 1:
        raise StudyError("study.range", most=MAX_NUMBER, deals=deals, start=start)
    if workers is not None and dask is not None:
        raise StudyError("study.workers-and-dask")
    if workers is not None and workers < 1:
        raise StudyError("study.workers", workers=workers)
    if not time_limit > 0:
        raise StudyError("study.time-limit", limit=time_limit)
    if dask is not None:
        check_dask_address(dask)
    results = ResultsFile(Path(out), rules)
    numbers = range(start, start + deals)

    def wanted(number: int) -> bool:
        held = results.rows.get(number)
        return held is None or (retry_unknown and held.verdict == UNKNOWN)

    # counted, not listed: a range of a billion deals is a long study, not a billion-entry list
    done_before = sum(1 for n in results.rows if start <= n < start + deals and not wanted(n))
    left = deals - done_before
    todo = (n for n in numbers if wanted(n))
    client = dask_client(dask, dask_timeout) if dask is not None and left else None
    if left:
        try:
            results.open()
        except BaseException:
            if client is not None:
                client.close()
            raise
    bar = (Progress(deals, done_before, progress, text(lang, "study.progress.label", rules=str(rules)), lang)
           if progress is not None else None)
    solved = 0
    if client is not None:
        rows = dask_results(todo, str(rules), time_limit, client)
    else:
        rows = local_results(todo, str(rules), time_limit, workers or min(default_workers(), left or 1))
    try:
        with closing(rows):
            for row in rows:
                results.append(row)
                solved += 1
                if bar is not None:
                    bar.update(done_before + solved)
        results.finish()
    finally:
        results.close()
        if bar is not None:
            bar.close()
        if client is not None:
            client.close()
    return Summary.of(str(rules), start, (results.rows[n] for n in numbers), solved)


__all__ = ["FIELDS", "ResultsFile", "Row", "RowError", "StudyError", "Summary", "read_results", "run_study",
           "study_deal", "wilson_interval"]

