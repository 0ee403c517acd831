"""The DMA-family instruction words of the AWS Neuron TPB ISA, from Python.

Built from the Rust library with PyO3: every call gives what the ``dmaspec`` command line
prints, made by the same code (``decode`` is ``decode --json``'s ``instructions``,
``encode`` is ``encode``'s bytes, and so on). The words and their fields are the spec's;
``spec()`` is its JSON dictionary.
"""

from __future__ import annotations

import array
import contextlib
import gc
import json as _json
import os
import sys
import warnings
from importlib import metadata as _metadata
from typing import IO, Any, Callable, Iterator, Literal, Mapping, Union, overload

from . import _native, errors
from .errors import DmaspecWarning, EncodeError, Error, InputError, LowerError, UsageError

__all__ = ["ARCHS", "decode", "iter_decode", "encode", "validate", "lower", "explain"]
__all__ += ["spec", "column", *errors.__all__]

#: The architectures' names, as ``--arch`` takes them.
ARCHS: tuple[str, ...] = tuple(_native.archs())

#: Raw words (``bytes``, ``bytearray``, or any buffer of bytes) or hex text (``str``, the
#: syntax of ``decode --hex``: hex digits, whitespace, ``#`` comments).
Data = Union[bytes, bytearray, memoryview, str]

#: One instruction (or record): ``decode --json``'s object.
Instruction = dict[str, Any]


def _data(data: Data) -> bytes | bytearray | str:
    if isinstance(data, (bytes, bytearray, str)):
        return data
    return bytes(memoryview(data).cast("B"))


def _dumps(value: Any, what: str, fail: Callable[[str], Error] = InputError) -> str:
    """``value`` as the JSON text the CLI would read from a file; ``fail(message)`` is the
    exception when it has no such text."""
    try:
        return _json.dumps(value)
    except (TypeError, ValueError) as e:
        raise fail(f"{what}: {e}") from e


def decode(data: Data, arch: str = "cayman", *, struct: str | None = None) -> list[Instruction]:
    """Decode a stream of 64-byte words (or, with ``struct``, of records of that top-level
    struct): ``decode --json``'s ``instructions`` (``records``), with the alternatives,
    joined values and violations of each.

    Raises :class:`InputError` for a word cut short or bad hex, :class:`UsageError` for an
    unknown architecture or struct.
    """
    with _collector_paused():
        return _native.decode(_data(data), arch, struct)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    # Building ~100 dicts a word, the cyclic collector would run over the growing list
    # again and again (half the time of a large decode); nothing built here is a cycle.
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def iter_decode(
    fileobj: IO[bytes] | IO[str],
    arch: str = "cayman",
    *,
    hex: bool | None = None,
    struct: str | None = None,
) -> Iterator[Instruction]:
    """Decode a stream read from ``fileobj`` (anything with ``read(n)``) one word at a time,
    in constant memory: the same objects as :func:`decode`. A file object that reads
    ``str`` is hex text; one that reads ``bytes`` is raw words unless ``hex=True``.
    An exception of the file object's ``read`` propagates unchanged.
    """
    return _native.DecodeStream(fileobj, arch, hex, struct)


def encode(
    instructions: list[Instruction] | Mapping[str, Any],
    arch: str = "cayman",
    *,
    validate: bool = True,
    struct: str | None = None,
) -> bytes:
    """Encode a list of instructions (decode's objects, or hand-written ``{"struct": ...,
    "fields": {...}}`` with enumerators by name or number), or a document holding one under
    ``instructions`` (``records`` with ``struct``): ``encode``'s bytes.

    Unless ``validate`` is false, the words must pass :func:`validate`, but for the faults
    the instructions record themselves (decode's output of an invalid word), which are
    warned of (:class:`DmaspecWarning`). Every problem is found at once and raised as one
    :class:`EncodeError` carrying them all in ``errors``.
    """
    text = _dumps(instructions, "instructions", lambda m: EncodeError(m, [m]))
    words, notes = _native.encode(text, arch, validate, struct)
    for note in notes:
        warnings.warn(note, DmaspecWarning, stacklevel=2)
    return words


def validate(data: Data, arch: str = "cayman", *, struct: str | None = None) -> list[dict[str, Any]]:
    """Check every word (record) against the spec's validity rules: one dict per finding,
    ``{"index", "offset", "severity", "message"}``, where ``severity`` is ``"error"`` (the
    word is invalid) or ``"warning"`` (it breaks a compiler rule: valid, but not what
    neuronx-cc writes). ``validate``'s lines are ``offset {offset} {message}`` and
    ``offset {offset} warning: {message}``. An empty list: every word is valid.
    """
    return [
        {
            "index": index,
            "offset": offset,
            "severity": "warning" if warning else "error",
            "message": text,
        }
        for index, offset, warning, text in _native.validate(_data(data), arch, struct)
    ]


Vars = Union[Mapping[int, int], str, "os.PathLike[str]"]


@overload
def lower(
    data: Data,
    *,
    arch: str = ...,
    vars: Vars | None = ...,
    abi: str | None = ...,
    json: Literal[False] = ...,
) -> bytes: ...
@overload
def lower(
    data: Data,
    *,
    arch: str = ...,
    vars: Vars | None = ...,
    abi: str | None = ...,
    json: Literal[True],
) -> list[Instruction]: ...
def lower(
    data: Data,
    *,
    arch: str = "cayman",
    vars: Vars | None = None,
    abi: str | None = None,
    json: bool = False,
) -> bytes | list[Instruction]:
    """Lower the compiler's pseudo words as the host runtime does (``dmaspec lower``): the
    real words, as bytes; with ``json=True``, ``lower --json``'s ``instructions`` (decode's
    objects plus ``from`` and ``lowered_by``).

    ``vars`` gives VAR_ID addresses their base: a mapping of variable id to address (ints,
    or decimal / ``0x`` strings as in a ``--vars`` file), or the path of a TOML or JSON
    file as ``--vars`` reads. ``abi`` picks the dispatcher version
    (the spec's default when absent). Words that cannot be lowered raise one
    :class:`LowerError` listing each.
    """
    if vars is None or isinstance(vars, Mapping):
        # The CLI's own reading of a JSON table: ids and addresses as ints or as decimal /
        # 0x strings, its messages for anything else.
        text = None if vars is None else _dumps({str(k): v for k, v in vars.items()}, "vars")
        out = _native.lower(_data(data), arch, text, None, abi, json)
    else:
        out = _native.lower(_data(data), arch, None, os.fspath(vars), abi, json)
    if json:
        produced: list[Instruction] = _json.loads(out)["instructions"]
        return produced
    return out


def explain(what: str) -> str:
    """Everything the spec knows about a word, type or field (``dmaspec explain``): an
    opcode (``"0xd4"``), a word (``"DMA_INDIRECT1D"``), a type (``"DTYPE"``) or a field path
    (``"DMA_INDIRECT1D.src_num_elem[0]"``)."""
    return _native.explain(what)


def spec() -> dict[str, Any]:
    """The spec's JSON dictionary (``generated/dmaspec.json``, format ``dmaspec/4``) as the
    package was built from it: a new copy at each call."""
    dictionary: dict[str, Any] = _json.loads(_native.dictionary())
    return dictionary


def _array_code(signed: bool, size: int) -> str:
    for code in "bhilq" if signed else "BHILQ":
        if array.array(code).itemsize == size:
            return code
    raise Error(f"this platform's array module has no {size}-byte integer")


def _packed(raw: bytes, signed: bool, size: int) -> Any:
    try:
        import numpy
    except ImportError:
        values = array.array(_array_code(signed, size))
        values.frombytes(raw)
        if sys.byteorder == "big":
            values.byteswap()
        return values
    kind = "i" if signed else "u"
    return numpy.frombuffer(raw, dtype=f"<{kind}{size}").astype(f"={kind}{size}")


def column(data: Data, path: str, arch: str = "cayman", *, with_index: bool = False) -> Any:
    """One field of every word of one struct across a stream, for trace analysis:
    ``column(data, "DMA_DIRECT2D.src_num_elem[0]")``. ``path`` is ``WORD.field`` as rules
    and decode's JSON write it. The values (what decode shows for the field; an enum's or a
    flag set's ``raw``) of each word that decodes as ``WORD`` and shows the field (a union
    arm's field only where that arm is chosen), in stream order, as a NumPy array of the
    field's width (``uint8`` … ``int64``), or an ``array.array`` when NumPy is not
    installed. With ``with_index=True``: ``(indices, values)``, the word index of each.
    """
    signed, size, values, indices = _native.column(_data(data), path, arch)
    out = _packed(values, signed, size)
    if with_index:
        return _packed(indices, False, 8), out
    return out


__version__: str = _metadata.version("dmaspec")
