# Stubs of the Rust module (python/src/); the public API is dmaspec/__init__.py.
from typing import IO, Any, Iterator, final

__all__ = [
    "DecodeStream",
    "archs",
    "column",
    "decode",
    "dictionary",
    "encode",
    "explain",
    "lower",
    "validate",
]

def archs() -> list[str]: ...
def dictionary() -> str: ...
def decode(data: bytes | bytearray | str, arch_name: str, record: str | None = None) -> list[dict[str, Any]]: ...
def validate(
    data: bytes | bytearray | str, arch_name: str, record: str | None = None
) -> list[tuple[int, int, bool, str]]: ...
def encode(text: str, arch_name: str, validate: bool, record: str | None = None) -> tuple[bytes, list[str]]: ...
def lower(
    data: bytes | bytearray | str,
    arch_name: str,
    vars: str | None = None,
    vars_file: str | None = None,
    abi: str | None = None,
    as_json: bool = False,
) -> bytes: ...
def explain(what: str) -> str: ...
def column(data: bytes | bytearray | str, path: str, arch_name: str) -> tuple[bool, int, bytes, bytes]: ...

@final
class DecodeStream(Iterator[dict[str, Any]]):
    def __new__(
        cls,
        fileobj: IO[bytes] | IO[str],
        arch_name: str,
        hex: bool | None = None,
        record: str | None = None,
    ) -> DecodeStream: ...
    def __iter__(self) -> DecodeStream: ...
    def __next__(self) -> dict[str, Any]: ...
