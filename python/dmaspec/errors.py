"""The exceptions and warnings of ``dmaspec``: the CLI's errors, with its messages."""

from __future__ import annotations

from typing import Iterable

__all__ = [
    "Error",
    "InputError",
    "UsageError",
    "EncodeError",
    "LowerError",
    "DmaspecWarning",
]


class Error(Exception):
    """Any failure of a dmaspec call; ``str(e)`` is what the CLI prints after ``dmaspec:``."""


class InputError(Error, ValueError):
    """The input is not what the call reads: a word cut short, a byte of hex text that is
    not a hex digit, an odd run of digits, an instruction list that is not JSON."""


class UsageError(Error, ValueError):
    """A name that does not exist: an architecture, a struct, an ABI, an explain query, a
    column's field."""


class _ListError(Error, ValueError):
    def __init__(self, message: str, errors: Iterable[str]) -> None:
        super().__init__(message)
        #: Every problem found, one line each, as the CLI lists them.
        self.errors: list[str] = list(errors)


class EncodeError(_ListError):
    """``encode`` found problems (all of them, in ``errors``); nothing was encoded."""


class LowerError(_ListError):
    """``lower`` could not lower some words (each in ``errors``)."""


class DmaspecWarning(UserWarning):
    """What the CLI prints after ``dmaspec: warning:`` (words written that break a compiler
    rule, or whose input already records a fault)."""
