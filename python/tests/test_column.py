"""column: one field across a stream, equal to what decode shows for it, in a NumPy array whose
width follows the leaf (or an array.array without NumPy)."""

import array
import random
import sys

import numpy as np
import pytest

from conftest import leaf_value, random_records, random_words

# (arch, path, NumPy dtype): each kind of leaf
LEAVES = [
    ("cayman", "DMA_DIRECT2D.events.semaphore_value", "uint32"),  # a plain u32
    ("cayman", "DMA_DIRECT2D.semaphore", "uint8"),  # a plain u8
    ("cayman", "DMA_DIRECT2D.src_elem_size", "uint16"),  # a u16 with a codec (0 means 65536; decode shows 0)
    ("cayman", "DMA_DIRECT2D.src_num_elem[0]", "uint16"),  # an element of u16[2]
    ("cayman", "DMA_DIRECT2D.src_num_elem[1]", "uint16"),
    ("cayman", "DMA_DIRECT2D.in_dtype", "uint8"),  # an enum (DTYPE): its raw value
    ("cayman", "DMA_DIRECT2D.src_step_elem[1]", "int32"),  # a signed element of i32[2]
    ("cayman", "DMA_DIRECT2D.src_start_addr.addr_immediate.address_lo", "uint32"),  # a union arm's leaf
    ("cayman", "DMA_DIRECT2D.src_start_addr.marker", "uint8"),  # a flag set (ADDR8_MARKER): raw
    ("cayman", "DMA_DIRECT2D.dma_configs.priority_class", "uint8"),  # a 3-bit bitfield
    ("cayman", "PSEUDO_DMA_EXT.idx_num_active_channels", "uint8"),  # an extension: only after its lead
    ("cayman", "PSEUDO_DMA_EXT.tile_src_row_step", "int32"),  # a signed i32
    ("cayman", "DROPOUT.src_mem_pattern.step_elem[2]", "int16"),  # i16[3] inside a nested struct
    ("cayman", "DROPOUT.src_mem_pattern.start_addr.address", "uint32"),  # a 29-bit bitfield
    ("maverick", "DMA_COPY2D.src_start_addr", "uint64"),  # a u64
    ("maverick", "DMA_COPY2D.dst_step_elem[0]", "int32"),
]


def numeric_columns(word):
    """Every column path of `word`: each numeric leaf, each element of an array leaf."""
    for leaf in word["leaves"]:
        kind = leaf["type"]
        if kind.startswith("ascii"):
            continue
        if kind.endswith("]"):
            n = int(kind[kind.rindex("[") + 1 : -1])
            yield from (f"{word['name']}.{leaf['path']}[{i}]" for i in range(n))
        else:
            yield f"{word['name']}.{leaf['path']}"


@pytest.mark.parametrize("arch", ["sunda", "cayman", "mariana", "maverick"])
def test_every_leaf_of_every_word_agrees_with_decode(dm, spec, arch):
    # The fast path (bits read straight from the word) and the walk (union arms) against
    # decode's dicts, for every leaf the spec has: 1,200 random words of every kind.
    data = b"".join(random_words(spec, arch, 1200, random.Random(f"every-leaf-{arch}")))
    decoded = dm.decode(data, arch)
    checked = 0
    for word in spec["words"]:
        if arch not in word["arch"]:
            continue
        for path in numeric_columns(word):
            idx, vals = dm.column(data, path, arch, with_index=True)
            assert (list(idx), list(vals)) == expected_column(decoded, path), path
            checked += 1
    assert checked > 900, checked


@pytest.mark.parametrize("arch", ["cayman", "maverick"])
def test_every_leaf_of_every_record_agrees_with_decode(dm, spec, arch):
    # A record's path reads the stream as records of it, as decode(struct=...) does; its
    # union arms (NOTIFICATION's body) only where their selector picks them.
    checked = 0
    for record in spec["records"]:
        rng = random.Random(f"every-record-leaf-{record['name']}-{arch}")
        data = b"".join(random_records(record, 600, rng))
        decoded = dm.decode(data, arch, struct=record["name"])
        paths = list(numeric_columns(record))
        cols = dm.columns(data, paths, arch)
        for path in paths:
            want = expected_column(decoded, path)
            assert (cols.index(path).tolist(), cols[path].tolist()) == want, path
            idx, vals = dm.column(data, path, arch, with_index=True)
            assert (idx.tolist(), vals.tolist()) == want, path
            checked += 1
    assert checked > 100, checked
    notification = dm.column(data[:0], "NOTIFICATION.timestamp.low")
    assert len(notification) == 0 and notification.dtype == np.uint32


def test_record_column_reads_records_only(dm):
    # NOTIFICATION: 16 bytes; timestamp.low at bytes 8-11
    two = bytes(range(16)) + bytes(range(100, 116))
    assert dm.column(two, "NOTIFICATION.timestamp.low").tolist() == [0x0B0A0908, 0x6F6E6D6C]
    assert dm.column(two.hex(), "NOTIFICATION.timestamp.low").tolist() == [0x0B0A0908, 0x6F6E6D6C]
    with pytest.raises(dm.InputError, match=r"incomplete NOTIFICATION at byte offset 32 \(0x20\): 4 of 16 bytes"):
        dm.column(two + bytes(4), "NOTIFICATION.timestamp.low")
    with pytest.raises(dm.UsageError, match="a stream holds words or records of one struct"):
        dm.columns(two, ["NOTIFICATION.timestamp.low", "DMA_DIRECT2D.semaphore"])
    with pytest.raises(dm.UsageError, match="a stream holds words or records of one struct"):
        dm.columns(two, ["NOTIFICATION.timestamp.low", "SDMA_CME_BD_DESC.buf_ptr"])


@pytest.fixture(scope="module")
def streams(dm, spec):
    out = {}
    for arch in ("cayman", "maverick"):
        data = b"".join(random_words(spec, arch, 3000, random.Random(f"column-{arch}")))
        out[arch] = (data, dm.decode(data, arch))
    return out


def expected_column(decoded, path):
    struct, leaf = path.split(".", 1)
    idx, vals = [], []
    for d in decoded:
        if d["struct"] != struct:
            continue
        try:
            v = leaf_value(d["fields"], leaf)
        except KeyError:
            continue  # another union arm: decode does not show the leaf
        idx.append(d["index"])
        vals.append(v)
    return idx, vals


@pytest.mark.parametrize("arch,path,dtype", LEAVES)
def test_column_agrees_with_decode(dm, streams, arch, path, dtype):
    data, decoded = streams[arch]
    idx, vals = expected_column(decoded, path)
    assert len(vals) >= 10, "the stream has words of this kind"
    col = dm.column(data, path, arch)
    assert isinstance(col, np.ndarray)
    assert col.dtype == np.dtype(dtype), col.dtype
    assert col.ndim == 1
    assert col.tolist() == vals
    i, v = dm.column(data, path, arch, with_index=True)
    assert i.tolist() == idx
    assert v.tolist() == vals
    assert v.dtype == np.dtype(dtype)


def test_union_arm_column_skips_other_arms(dm, streams):
    data, decoded = streams["cayman"]
    words = sum(d["struct"] == "DMA_DIRECT2D" for d in decoded)
    shown = len(dm.column(data, "DMA_DIRECT2D.src_start_addr.addr_immediate.address_lo"))
    assert 0 < shown < words


def test_extension_column_skips_lone_extensions(dm, streams):
    data, decoded = streams["cayman"]
    opcode_da = sum(data[i] == 0xDA for i in range(0, len(data), 64))
    decoded_ext = sum(d["struct"] == "PSEUDO_DMA_EXT" for d in decoded)
    assert decoded_ext < opcode_da  # some 0xda stand alone and do not decode
    assert len(dm.column(data, "PSEUDO_DMA_EXT.compute_op")) == decoded_ext


def test_column_of_hex_text_and_empty(dm, streams):
    data, _ = streams["cayman"]
    path = "DMA_DIRECT2D.src_num_elem[0]"
    assert dm.column(data[: 64 * 200].hex(), path).tolist() == dm.column(data[: 64 * 200], path).tolist()
    empty = dm.column(b"", path)
    assert len(empty) == 0 and empty.dtype == np.uint16


@pytest.mark.parametrize("arch,path,dtype", LEAVES)
def test_array_fallback_without_numpy(dm, streams, monkeypatch, arch, path, dtype):
    data, decoded = streams[arch]
    idx, vals = expected_column(decoded, path)
    monkeypatch.setitem(sys.modules, "numpy", None)
    col = dm.column(data, path, arch)
    assert isinstance(col, array.array)
    want = np.dtype(dtype)
    assert col.itemsize == want.itemsize, (col.typecode, dtype)
    assert (col.typecode in "bhilq") == (want.kind == "i"), (col.typecode, dtype)
    assert col.tolist() == vals
    i, v = dm.column(data, path, arch, with_index=True)
    assert isinstance(i, array.array) and isinstance(v, array.array)
    assert i.tolist() == idx and v.tolist() == vals


@pytest.mark.parametrize(
    "path",
    [
        "NOPE.semaphore",  # unknown struct (neither a word nor a record)
        "DMA_DIRECT2D.nope",  # unknown field
        "DMA_DIRECT2D.src_num_elem[2]",  # past the array's end
        "DMA_DIRECT2D.header",  # a struct, not a leaf
        "DMA_DIRECT2D",  # no field at all
        "PSEUDO_DMA_REARM.dma_queue_name",  # a text field (ascii[32])
    ],
)
def test_column_usage_errors(dm, path):
    with pytest.raises(dm.UsageError) as e:
        dm.column(bytes(64), path)
    assert isinstance(e.value, ValueError)
    assert str(e.value)


def test_million_words(dm, spec):
    pool = random_words(spec, "cayman", 1000, random.Random("column-million"))
    data = b"".join(pool) * 1000
    assert len(data) == 64 * 10**6
    path = "DMA_DIRECT2D.src_num_elem[0]"
    idx, vals = expected_column(dm.decode(b"".join(pool)), path)
    col = dm.column(data, path)
    assert len(col) == 1000 * len(vals)
    assert np.array_equal(col, np.tile(np.array(vals, dtype=np.uint16), 1000))
    i, v = dm.column(data, path, with_index=True)
    want = (np.arange(1000, dtype=np.int64)[:, None] * 1000 + np.array(idx, dtype=np.int64)[None, :]).ravel()
    assert np.array_equal(i, want)
    assert np.array_equal(v, col)
