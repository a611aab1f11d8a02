"""Database URLs as messages show them: never with a password, always on one line."""

from __future__ import annotations

import os
import re
from typing import Final

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

_PASSWORD_RE: Final = re.compile(r"(://[^:/@]*:)[^@]*@")


def hide_password(url: str) -> str:
    """``url`` with the password of ``scheme://user:password@host`` shown as ``***`` (nothing else changed)."""
    return _PASSWORD_RE.sub(r"\1***@", url)


def _unsecret_url(url: str) -> str:
    """The URL without its password (a message quotes it as a detail, which keeps it on one line)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # not a URL SQLAlchemy reads, but it may still hold a password
        return hide_password(url)


def _safe_url(url: str) -> str:
    """The URL as messages show it: without its password, and on one line."""
    shown = _unsecret_url(url)
    return shown if shown.isprintable() else repr(shown)


def sqlite_file(url: str) -> str | None:
    """The file a ``sqlite:///`` URL names (``~`` expanded), or None for any other URL or one that is no URL."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return None
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return os.path.expanduser(parsed.database)
