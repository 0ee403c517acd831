"""The DMA-family instruction words of the AWS Neuron TPB ISA, from Python.

Built from the Rust library with PyO3: every call gives what the ``dmaspec`` command line
prints, made by the same code (``decode`` is ``decode --json``'s ``instructions``,
``encode`` is ``encode``'s bytes, and so on). The words and their fields are the spec's;
``spec()`` is its JSON dictionary.
"""

from __future__ import annotations

import array
import collections.abc
import contextlib
import io
import json as _json
import os
import re
import sys
import warnings
from importlib import metadata as _metadata
from typing import (
    IO,
    TYPE_CHECKING,
    Any,
    Callable,
    Iterable,
    Iterator,
    Literal,
    Mapping,
    Protocol,
    Sequence,
    Tuple,
    Union,
    cast,
    get_args,
    overload,
)

from . import _native
from ._native import Bundle as Bundle
from ._native import Field as Field
from ._native import Register as Register
from ._native import RegisterFile as RegisterFile
from ._native import RegisterReading as RegisterReading
from ._native import Word as Word
from .errors import DmaspecWarning as DmaspecWarning
from .errors import EncodeError as EncodeError
from .errors import Error as Error
from .errors import InputError as InputError
from .errors import LowerError as LowerError
from .errors import UsageError as UsageError

if TYPE_CHECKING:
    import numpy
    import numpy.typing
    import pandas  # type: ignore[import-untyped,unused-ignore]

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
elif TYPE_CHECKING:
    from typing_extensions import Buffer
else:

    class Buffer(Protocol):
        """Anything with the buffer protocol (``collections.abc.Buffer`` from 3.12 on)."""

        def __buffer__(self, flags: int, /) -> memoryview: ...


__all__ = ["ARCHS", "Arch", "Data", "Word", "decode", "decode_file", "iter_decode", "encode"]
__all__ += ["validate", "lower", "explain", "spec", "column", "columns", "Columns", "assemble"]
__all__ += ["regs", "register_files", "register_file", "addr"]
__all__ += ["RegisterFile", "Bundle", "Register", "Field", "RegisterReading"]
# Spelled out (not `errors.__all__`): mypy --strict sees only a literal list as exports.
__all__ += ["Error", "InputError", "UsageError", "EncodeError", "LowerError", "DmaspecWarning"]

#: An architecture's name: as ``--arch`` takes it, capitalised, or in capitals (``"cayman"``,
#: ``"Cayman"``, ``"CAYMAN"``). The calls take these spellings and no other.
Arch = Literal[
    "sunda", "Sunda", "SUNDA",
    "cayman", "Cayman", "CAYMAN",
    "mariana", "Mariana", "MARIANA",
    "maverick", "Maverick", "MAVERICK",
]  # fmt: skip

#: The architectures' names, as ``--arch`` takes them.
ARCHS: tuple[str, ...] = tuple(_native.archs())

# Each spelling `Arch` allows, to the name the library takes.
_SPELLINGS: dict[str, str] = {spelled: spelled.lower() for spelled in get_args(Arch)}

#: Raw words (``bytes``, ``bytearray``, or any buffer of bytes: ``memoryview``, a NumPy
#: array, ``mmap``) or hex text (``str``, the syntax of ``decode --hex``: hex digits,
#: whitespace, ``#`` comments). Before 3.12 the stubs of NumPy and ``mmap`` give them no
#: ``__buffer__``, so they are named too.
if TYPE_CHECKING:
    import mmap

    Data = Union[str, Buffer, bytes, bytearray, memoryview, mmap.mmap, "array.array[Any]", "numpy.ndarray[Any, Any]"]
else:
    Data = Union[str, Buffer]

#: One instruction (or record): ``decode --json``'s object (a :class:`Word` as decoded), or a
#: dict.
Instruction = Mapping[str, Any]

collections.abc.Mapping.register(Word)

_ACCEPTED = "bytes, bytearray or another buffer (memoryview, NumPy array, mmap) of raw words, or a str of hex text"
# Hex text as the reader takes it: digits, whitespace and `#` comments to the end of a line.
_HEX_TEXT = re.compile(rb"(?:[0-9A-Fa-f \t\r\n\f\v]+|#[^\n]*)+")
# A str that names a file rather than holding hex text: a separator, or a name with a suffix.
_PATH_LIKE = re.compile(r"\A[^\n#]*(?:[/\\][^\n#]*|\.[A-Za-z][A-Za-z0-9]{0,7})\Z")


def _arch(arch: object) -> str:
    """The architecture's name as the library spells it, from a spelling ``Arch`` lists."""
    if not isinstance(arch, str):
        raise TypeError(f"arch: expected a str, one of {', '.join(ARCHS)}; not {type(arch).__name__}")
    # Any other spelling goes on as it is: the library's error names it and the valid ones.
    return _SPELLINGS.get(arch, arch)


def _looks_like_hex(raw: bytes | bytearray) -> bool:
    return bool(raw) and _HEX_TEXT.fullmatch(raw) is not None and re.search(rb"[0-9A-Fa-f]", raw) is not None


def _data(data: Data, hex: bool | None = None) -> bytes | bytearray | str:
    """``data`` as the native module reads it: ``bytes``/``bytearray`` of raw words or a
    ``str`` of hex text. Bytes are raw words; bytes that are all hex text (digits,
    whitespace, ``#`` comments) are an :class:`InputError` unless ``hex`` says which they
    are (``hex=True``: read them as hex text; ``hex=False``: as raw words)."""
    if isinstance(data, str):
        if hex is False:
            raise TypeError("hex=False, but data is a str (raw words are bytes)")
        return data
    if isinstance(data, (bytes, bytearray)):
        raw: bytes | bytearray = data
    else:
        try:
            view = memoryview(data)  # type: ignore[arg-type]
        except TypeError:
            raise TypeError(f"data: expected {_ACCEPTED}; not {type(data).__name__}") from None
        raw = view.tobytes()
    if hex is True:
        return raw.decode("utf-8", errors="surrogateescape")
    if hex is None and _looks_like_hex(raw):
        raise InputError(
            "data: bytes are raw words, and these are hex text: pass hex as a str "
            "(data.decode()), or hex=True to read the bytes as hex, hex=False to read them as raw words"
        )
    return raw


@contextlib.contextmanager
def _path_hint(data: object) -> Iterator[None]:
    """An :class:`InputError` for a ``str`` that is a file's name, not hex text, says so."""
    try:
        yield
    except InputError as e:
        if isinstance(data, str) and (_PATH_LIKE.match(data.strip()) or os.path.isfile(data.strip())):
            raise InputError(
                f"{e}; `{data}` looks like a path: a str is hex text, so pass the file's "
                f"contents (open(path, 'rb').read()) or use dmaspec.decode_file(path)"
            ) from None
        raise


def _plain(value: object) -> dict[str, Any]:
    """A :class:`Word` (decode's record or word, nested in a document) as JSON writes it."""
    if isinstance(value, Word):
        return value.to_dict()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _dumps(value: Any, what: str, fail: Callable[[str], Error] = InputError) -> str:
    """``value`` as the JSON text the CLI would read from a file; ``fail(message)`` is the
    exception when it has no such text."""
    try:
        return _json.dumps(value, default=_plain)
    except (TypeError, ValueError) as e:
        raise fail(f"{what}: {e}") from e


def decode(
    data: Data, arch: Arch = "cayman", *, hex: bool | None = None, struct: str | None = None
) -> list[Word]:
    """Decode a stream of 64-byte words (or, with ``struct``, of records of that top-level
    struct): ``decode --json``'s ``instructions`` (``records``), with the alternatives,
    joined values and violations of each.

    Each word (record) is a :class:`Word`: a read-only mapping equal to the CLI's object,
    which it builds when first read beyond ``index``, ``offset``, ``opcode`` (a word's) and
    ``struct`` (``w.to_dict()`` is a plain ``dict``).

    ``data`` as bytes is raw words; bytes that are all hex text raise :class:`InputError`
    unless ``hex=True`` (read them as hex) or ``hex=False`` (raw words all the same). Raises
    :class:`InputError` for a word cut short or bad hex, :class:`UsageError` for an
    unknown architecture or struct, ``TypeError`` for data that is no buffer nor ``str``.
    """
    with _path_hint(data):
        return _native.decode(_data(data, hex), _arch(arch), struct)


def decode_file(
    path: str | os.PathLike[str], arch: Arch = "cayman", *, hex: bool | None = None, struct: str | None = None
) -> list[Word]:
    """:func:`decode` of a file's contents: raw words, or hex text when the file is all hex
    text (digits, whitespace, ``#`` comments) or ``hex=True``."""
    with open(path, "rb") as f:
        raw = f.read()
    if hex is None:
        hex = _looks_like_hex(raw)
    return decode(raw, arch, hex=hex, struct=struct)


def iter_decode(
    source: IO[bytes] | IO[str] | Data,
    arch: Arch = "cayman",
    *,
    hex: bool | None = None,
    struct: str | None = None,
) -> Iterator[Word]:
    """Decode a stream read from ``source`` (anything with ``read(n)``: a binary or text
    file) one word at a time, in constant memory: the same objects as :func:`decode`. A
    file object that reads ``str`` is hex text; one that reads ``bytes`` is raw words
    unless ``hex=True``. ``source`` may also be data as :func:`decode` takes it (bytes, a
    buffer, a ``str`` of hex text). An exception of the file object's ``read`` propagates
    unchanged.
    """
    fileobj: Any = source
    if not callable(getattr(source, "read", None)):
        if not isinstance(source, str):
            try:
                memoryview(source)  # type: ignore[arg-type]
            except TypeError:
                raise TypeError(
                    f"iter_decode: expected a file object (with read(n)) or {_ACCEPTED}; "
                    f"not {type(source).__name__}"
                ) from None
        data = _data(cast(Data, source), hex)
        fileobj = io.StringIO(data) if isinstance(data, str) else io.BytesIO(data)
        hex = None
    return _native.DecodeStream(fileobj, _arch(arch), hex, struct)


def encode(
    instructions: Iterable[Instruction] | Mapping[str, Any],
    arch: Arch = "cayman",
    *,
    validate: bool = True,
    struct: str | None = None,
) -> bytes:
    """Encode instructions (decode's :class:`Word` objects, dicts, or hand-written
    ``{"struct": ..., "fields": {...}}`` with enumerators by name or number) from a list or
    any iterable, or a document holding them under ``instructions`` (``records`` with
    ``struct``): ``encode``'s bytes. The iterable is read once, as it goes: a word
    ``decode`` gave whose object was never built is written as the bytes it was read from.

    Unless ``validate`` is false, the words must pass :func:`validate`, but for the faults
    the instructions record themselves (decode's output of an invalid word), which are
    warned of (:class:`DmaspecWarning`). Every problem is found at once and raised as one
    :class:`EncodeError` carrying them all in ``errors``.
    """
    arch_name = _arch(arch)
    items: Any = instructions
    if isinstance(items, Mapping) and not isinstance(items, Word) and struct is None:
        items = items.get("instructions", items)
    if struct is not None or isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        # Records, or no list: the whole document as the CLI reads a file (its messages).
        text = _dumps(instructions, "instructions", lambda m: EncodeError(m, [m]))
        words, notes = _native.encode(text, arch_name, validate, struct)
    else:
        encoder = _native.Encoder(arch_name, validate)
        pending: list[Any] = []

        def flush() -> None:
            if pending:
                encoder.json(_dumps(pending, "instructions", lambda m: EncodeError(m, [m])))
                pending.clear()

        for item in items:
            if type(item) is Word and not pending and encoder.word(item):
                continue
            if type(item) is Word and pending:
                flush()
                if encoder.word(item):
                    continue
            pending.append(dict(item) if type(item) is Word else item)
            if len(pending) >= 4096:
                flush()
        flush()
        words, notes = encoder.finish()
    for note in notes:
        warnings.warn(note, DmaspecWarning, stacklevel=2)
    return words


def validate(
    data: Data, arch: Arch = "cayman", *, hex: bool | None = None, struct: str | None = None
) -> list[dict[str, Any]]:
    """Check every word (record) against the spec's validity rules: one dict per finding,
    ``{"index", "offset", "severity", "message"}``, where ``severity`` is ``"error"`` (the
    word is invalid), ``"undecided"`` (a rule holds only through an alternative the sources
    name without a body: not known to be invalid), ``"warning"`` (it breaks a compiler
    rule: valid, but not what neuronx-cc writes) or ``"not checked"`` (its operation, a
    compute or SP/SEQ control op, is outside the spec's family: not invalid, unless the
    caller treats it so, as ``dmaspec validate --strict`` does). ``validate``'s lines are ``offset
    {offset} {message}`` and ``offset {offset} {severity}: {message}``. An empty list:
    every word holds.
    """
    return [
        {
            "index": index,
            "offset": offset,
            "severity": severity,
            "message": text,
        }
        for index, offset, severity, text in _validate(data, arch, hex, struct)
    ]


def _validate(data: Data, arch: Arch, hex: bool | None, struct: str | None) -> list[tuple[int, int, str, str]]:
    with _path_hint(data):
        return _native.validate(_data(data, hex), _arch(arch), struct)


Vars = Union[Mapping[int, int], str, "os.PathLike[str]"]


@overload
def lower(
    data: Data,
    arch: Arch = ...,
    *,
    vars: Vars | None = ...,
    abi: str | None = ...,
    json: Literal[False] = ...,
) -> bytes: ...
@overload
def lower(
    data: Data,
    arch: Arch = ...,
    *,
    vars: Vars | None = ...,
    abi: str | None = ...,
    json: Literal[True],
) -> list[Instruction]: ...
def lower(
    data: Data,
    arch: Arch = "cayman",
    *,
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
    arch_name = _arch(arch)
    with _path_hint(data):
        raw = _data(data)
        if vars is None or isinstance(vars, Mapping):
            # The CLI's own reading of a JSON table: ids and addresses as ints or as decimal /
            # 0x strings, its messages for anything else.
            text = None if vars is None else _dumps({str(k): v for k, v in vars.items()}, "vars")
            out = _native.lower(raw, arch_name, text, None, abi, json)
        else:
            out = _native.lower(raw, arch_name, None, os.fspath(vars), abi, json)
    if json:
        produced: list[Instruction] = _json.loads(out)["instructions"]
        return produced
    return out


def explain(what: str) -> str:
    """Everything the spec knows about a word, type or field (``dmaspec explain``): an
    opcode (``"0xd4"``), a word (``"DMA_INDIRECT1D"``), a type (``"DTYPE"``) or a field path
    (``"DMA_INDIRECT1D.src_num_elem[0]"``)."""
    return _native.explain(what)


def assemble(text: str, arch: Arch = "cayman") -> bytes:
    """Words from lines in ``decode --asm``'s syntax (``Word.asm()`` gives one), as
    ``encode --asm`` reads them: one 64-byte word per line, ``#`` comments and blank lines
    skipped, each written as it says (no validation). Every bad line is raised at once as
    one :class:`EncodeError` whose ``errors`` name its line and column."""
    return _native.assemble(text, _arch(arch))


def regs(
    data: Data,
    file: str | None = None,
    arch: Arch = "cayman",
    *,
    bundle: str | None = None,
    base: int | None = None,
    hex: bool | None = None,
) -> list[RegisterReading]:
    """A dump of a register file's window decoded register by register, as ``dmaspec regs``
    decodes it: ``data`` is raw little-endian bytes (or hex text, as :func:`decode` reads
    it) from the window's start, or with ``bundle`` (``"M2S_Q[3]"``) from that element's,
    or with ``base`` from that absolute MMIO address, whose register file (and so
    ``file``, which may be left out) the address map names. Each :class:`RegisterReading`
    has its file, bundle, index, name, offset, ``address`` (with ``base``), raw ``value``,
    ``fields`` (name → value) and ``unknown`` bits. Bytes past the window of a dump at a
    base are left undecoded, with a :class:`DmaspecWarning` saying how many; a bad name,
    base or bundle is a :class:`UsageError`, a dump that is empty or longer than the
    window (without ``base``) an :class:`InputError`."""
    if base is not None and (isinstance(base, bool) or not isinstance(base, int) or not 0 <= base < 1 << 64):
        raise UsageError(f"base: expected an address, an int from 0 below 2**58; not {base!r}")
    readings, left = _native.regs(_data(data, hex), _arch(arch), file, bundle, base)
    if left is not None:
        warnings.warn(left, DmaspecWarning, stacklevel=2)
    return readings


def register_files(arch: Arch | None = None) -> list[RegisterFile]:
    """Every register file the spec holds (those on ``arch``, when given), as read-only
    objects: bundles, registers (offset, access, reset, doc) and fields (bits, access,
    reset, enumerators)."""
    return _native.register_files(None if arch is None else _arch(arch))


def register_file(name: str) -> RegisterFile:
    """The register file ``name`` (``"UDMA_M2S"``; letter case aside), or a
    :class:`UsageError` that suggests the nearest name."""
    return _native.register_file(name)


def addr(address: int | str, arch: Arch = "cayman") -> dict[str, Any]:
    """What an absolute MMIO address names, as ``dmaspec addr --json`` gives it: the
    ``address``, ``arch`` and ``found`` — the instance, the part (register file) and
    offset in it, and the bundle element, register and fields there; or the hole it is in,
    with what lies either side. ``address`` is an int or the CLI's text (``"0x1002506038"``);
    one out of the address space, or an architecture no map places, is a :class:`UsageError`."""
    if isinstance(address, bool) or not isinstance(address, (int, str)):
        raise TypeError(f"address: expected an int or a str, not {type(address).__name__}")
    return _native.addr(address if isinstance(address, str) else str(address), _arch(arch))


def spec() -> dict[str, Any]:
    """The spec's JSON dictionary (``generated/dmaspec.json``, format ``dmaspec/5``) as the
    package was built from it: a new copy at each call."""
    dictionary: dict[str, Any] = _json.loads(_native.dictionary())
    return dictionary


def _array_code(signed: bool, size: int) -> str:
    for code in "bhilq" if signed else "BHILQ":
        if array.array(code).itemsize == size:
            return code
    raise Error(f"this platform's array module has no {size}-byte integer")


if TYPE_CHECKING:
    #: A column's values (or indices): a NumPy array, or an ``array.array`` without NumPy.
    NDArray = numpy.typing.NDArray[Any]
    Column = Union[NDArray, "array.array[int]"]


def _want_numpy(numpy: bool | None) -> bool:
    if numpy is False:
        return False
    try:
        import numpy as _np  # noqa: F401
    except ImportError:
        if numpy:
            raise
        return False
    return True


def _packed(raw: bytes, signed: bool, size: int, as_numpy: bool) -> Any:
    if not as_numpy:
        values = array.array(_array_code(signed, size))
        values.frombytes(raw)
        if sys.byteorder == "big":
            values.byteswap()
        return values
    import numpy as np

    kind = "i" if signed else "u"
    return np.frombuffer(raw, dtype=f"<{kind}{size}").astype(f"={kind}{size}")


@overload
def column(
    data: Data, path: str, arch: Arch = ..., *, with_index: Literal[False] = ..., numpy: Literal[True]
) -> NDArray: ...
@overload
def column(
    data: Data, path: str, arch: Arch = ..., *, with_index: Literal[False] = ..., numpy: Literal[False]
) -> array.array[int]: ...
@overload
def column(
    data: Data, path: str, arch: Arch = ..., *, with_index: Literal[False] = ..., numpy: None = ...
) -> Column: ...
@overload
def column(
    data: Data, path: str, arch: Arch = ..., *, with_index: Literal[True], numpy: Literal[True]
) -> tuple[NDArray, NDArray]: ...
@overload
def column(
    data: Data, path: str, arch: Arch = ..., *, with_index: Literal[True], numpy: Literal[False]
) -> tuple[array.array[int], array.array[int]]: ...
@overload
def column(
    data: Data, path: str, arch: Arch = ..., *, with_index: Literal[True], numpy: None = ...
) -> tuple[Column, Column]: ...
def column(
    data: Data, path: str, arch: Arch = "cayman", *, with_index: bool = False, numpy: bool | None = None
) -> Column | tuple[Column, Column]:
    """One field of every word of one struct across a stream, for trace analysis:
    ``column(data, "DMA_DIRECT2D.src_num_elem[0]")``. ``path`` is ``WORD.field`` as rules
    and decode's JSON write it. The values (what decode shows for the field; an enum's or a
    flag set's ``raw``) of each word that decodes as ``WORD`` and shows the field (a union
    arm's field only where that arm is chosen), in stream order, as a NumPy array of the
    field's width (``uint8`` … ``int64``), or an ``array.array`` when NumPy is not
    installed or ``numpy=False``. With ``with_index=True``: ``(indices, values)``, the word
    index of each. A record's field (``"NOTIFICATION.timestamp.low"``) reads ``data`` as a
    stream of those records (as ``decode(data, struct="NOTIFICATION")``), every record
    showing it.
    """
    with _path_hint(data):
        signed, size, values, indices = _native.column(_data(data), path, _arch(arch))
    as_numpy = _want_numpy(numpy)
    out = _packed(values, signed, size, as_numpy)
    if with_index:
        return _packed(indices, False, 8, as_numpy), out
    return cast("Column", out)


class Columns(Mapping[str, "Column"]):
    """Fields read by :func:`columns`: ``cols[path]`` is a path's values, ``cols.index(path)``
    the word indices they are of (both as :func:`column` gives them), ``to_pandas()`` one
    table of them all."""

    def __init__(self, paths: Sequence[str], arch: str, packed: list[tuple[bool, int, bytes, bytes]], as_numpy: bool):
        self.arch = arch
        self._values: dict[str, Column] = {}
        self._index: dict[str, Column] = {}
        for path, (signed, size, values, indices) in zip(paths, packed):
            self._values[path] = _packed(values, signed, size, as_numpy)
            self._index[path] = _packed(indices, False, 8, as_numpy)

    def __getitem__(self, path: str) -> Column:
        return self._values[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def index(self, path: str) -> Column:
        """The word (record) index of each of ``path``'s values."""
        return self._index[path]

    def __repr__(self) -> str:
        shown = ", ".join(f"{p}: {len(v)}" for p, v in self._values.items())
        return f"<dmaspec.Columns {self.arch} {{{shown}}}>"

    def to_pandas(self) -> pandas.DataFrame:
        """A ``pandas.DataFrame`` with a row per word that shows any of the fields, indexed
        by word index (``index``), a ``struct`` column (categorical) naming each word, and a
        column per path: integers (a nullable ``UInt16`` … where some rows lack the field),
        an enum as a categorical of its enumerators' names (a value no enumerator has: its
        number, as text)."""
        try:
            import numpy as np
            import pandas as pd
        except ImportError as e:
            raise ImportError(
                f"to_pandas needs NumPy and pandas ({e}): pip install 'dmaspec[pandas]' installs both"
            ) from e

        spec_ = _spec_cached()
        words = {w["name"]: w for w in [*spec_["words"], *spec_["records"]]}
        types = {t["name"]: t for t in spec_["types"]}
        at = {p: np.asarray(self._index[p], dtype=np.uint64) for p in self._values}
        longest = max(at.values(), key=len, default=np.zeros(0, np.uint64))
        index: Any = longest
        if any(len(a) != len(longest) or not np.array_equal(a, longest) for a in at.values()):
            # Each path's indices ascend (stream order): their union is a sort and a dedupe.
            index = np.sort(np.concatenate(list(at.values())))
            index = index[np.concatenate(([True], index[1:] != index[:-1]))]

        def rows_of(path: str) -> Any:
            # A path shown in every row needs no search.
            return slice(None) if len(at[path]) == len(index) else np.searchsorted(index, at[path])

        frame: dict[str, Any] = {}
        # Categoricals from codes, integers with a mask: no Python object per row.
        structs = list(dict.fromkeys(p.split(".", 1)[0] for p in self._values))
        struct = np.full(len(index), -1, dtype=np.int32)
        for path in self._values:
            struct[rows_of(path)] = structs.index(path.split(".", 1)[0])
        frame["struct"] = pd.Categorical.from_codes(struct, categories=structs)
        for path, values in self._values.items():
            vals = np.asarray(values)
            rows = rows_of(path)
            word, leaf_path = path.split(".", 1)
            leaf = next((l for l in words[word]["leaves"] if l["path"] == re.sub(r"\[\d+\]$", "", leaf_path)), None)
            t = types.get(leaf["type"]) if leaf else None
            if t is not None and t.get("kind") == "enum":
                names = {e["value"]: e["name"] for e in t["values"] if not e["arch"] or self.arch in e["arch"]}
                cats = list(dict.fromkeys(names.values()))
                seen = np.unique(vals)
                extra = [str(int(v)) for v in seen if int(v) not in names]
                code_of = {n: i for i, n in enumerate(cats + extra)}
                lut = np.array([code_of[names.get(int(v), str(int(v)))] for v in seen], dtype=np.int32)
                codes = np.full(len(index), -1, dtype=np.int32)
                codes[rows] = lut[np.searchsorted(seen, vals)]
                frame[path] = pd.Categorical.from_codes(codes, categories=cats + extra)
            elif isinstance(rows, slice):
                frame[path] = vals
            else:
                full = np.zeros(len(index), dtype=vals.dtype)
                full[rows] = vals
                missing = np.ones(len(index), dtype=bool)
                missing[rows] = False
                frame[path] = pd.arrays.IntegerArray(full, missing)
        return pd.DataFrame(frame, index=pd.Index(index, name="index"))


_SPEC: dict[str, Any] | None = None


def _spec_cached() -> dict[str, Any]:
    global _SPEC
    if _SPEC is None:
        _SPEC = spec()
    return _SPEC


def columns(data: Data, paths: Iterable[str], arch: Arch = "cayman", *, numpy: bool | None = None) -> Columns:
    """Several fields (paths as :func:`column` takes them, of one word kind or of several, or
    of one record) read in one pass over the stream: a :class:`Columns` mapping each path to its values,
    with ``index(path)`` and ``to_pandas()``. A ``str`` is one path (not its letters)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    with _path_hint(data):
        packed = _native.columns(_data(data), paths, _arch(arch))
    return Columns(paths, _arch(arch), packed, _want_numpy(numpy))


__version__: str = _metadata.version("dmaspec")
