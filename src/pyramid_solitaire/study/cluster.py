"""The Dask engine: a study's deals solved on a Dask distributed cluster (:func:`dask_results`), and
the client that reaches it (:func:`dask_client`): the scheduler's address checked, Dask's TLS settings
checked (:func:`dask_security`), and every worker asked for its version of the project.

It is ``cluster``, not ``dask``, so that no module of the package goes by the name of Dask's own.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import islice
from types import ModuleType
from typing import Final, Protocol

from .. import __version__
from ..messages import Problem, join, shown
from .errors import StudyError
from .results import Job, Row

#: Deals handed to a Dask cluster at most at once.
DASK_IN_FLIGHT: Final = 1000
#: Seconds to wait for a Dask scheduler to answer.
DASK_CONNECT_SECONDS: Final = 10.0
#: ``tcp://HOST:PORT`` or ``tls://``; HOST a name, an IPv4 address or an IPv6 one in brackets.
DASK_ADDRESS_RE: Final = re.compile(r"^(tcp|tls)://([^\s:/\[\]]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$")


class DaskClient(Protocol):
    """What a study uses of a ``distributed.Client`` (Dask is imported on first use, so it is described
    here rather than imported for its types)."""

    @property
    def loop(self) -> object: ...
    def run(self, function: Callable[[], str], /) -> dict[str, str]: ...
    def submit(self, job: Job, number: int, rules: str, time_limit: float, /, *, pure: bool) -> object: ...
    def close(self) -> None: ...


class _Completed(Protocol):
    """What a study uses of ``distributed.as_completed``: the futures' ``(future, row)`` pairs as they
    finish, more futures added as they go."""

    def __iter__(self) -> Iterator[tuple[object, Row]]: ...
    def add(self, future: object) -> None: ...
    def clear(self) -> None: ...


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


def dask_client(address: str, timeout: float | None = None) -> DaskClient:
    """A ``distributed.Client`` for the scheduler at ``address`` whose workers run this version."""
    # Run on the workers by reference, so it is defined at the package's own path, pyramid_solitaire.study,
    # which every version of the project has: a worker of another version answers with its version.
    from . import worker_version

    check_dask_address(address)
    security = dask_security(address)
    try:
        client: DaskClient = _distributed().Client(
            address, timeout=timeout or DASK_CONNECT_SECONDS, set_as_default=False, security=security
        )
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


def dask_security(address: str) -> object:
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
            raise StudyError(
                "study.dask-tls-not-file", what=Problem(what), address=address, value=value, variable=variable
            )
    return security


def _distributed() -> ModuleType:
    """The ``distributed`` module (imported on first use: it is slow to import and untyped)."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise StudyError("study.no-distributed", command="pip install distributed") from None


def _one_line(exc: BaseException) -> str:
    said = " ".join(str(exc).split())
    return said or type(exc).__name__


def dask_results(
    job: Job, numbers: Iterable[int], rules: str, time_limit: float, client: DaskClient
) -> Generator[Row, None, None]:
    """Rows of ``numbers`` as they finish, each from ``job``, on the cluster of ``client``."""
    todo = iter(numbers)
    first = [client.submit(job, n, rules, time_limit, pure=False) for n in islice(todo, DASK_IN_FLIGHT)]
    running: _Completed = _distributed().as_completed(first, loop=client.loop, with_results=True)
    del first
    try:
        for _future, row in running:
            yield row
            for number in islice(todo, 1):
                running.add(client.submit(job, number, rules, time_limit, pure=False))
    except _distributed().KilledWorker:
        raise StudyError("study.dask-worker-died") from None
    finally:
        running.clear()


__all__ = [
    "DASK_ADDRESS_RE",
    "DASK_CONNECT_SECONDS",
    "DASK_IN_FLIGHT",
    "DASK_TLS_SETTINGS",
    "check_dask_address",
    "dask_client",
    "dask_results",
    "dask_security",
]
