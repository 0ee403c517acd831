"""The edges of the API: what each input type does (hex as bytes, a path as a str, a number,
a buffer), arch names (lowercase, capitalised or in capitals) in one place of every call, lazy words (their repr,
size, equality, encode of them), streaming encode, and columns / to_pandas. Values are
those of the golden vector tests/vectors/dma_copy2d.hex (supp-field-tables §3.2, maverick)."""

import array
import io
import mmap
import subprocess
import sys
from collections.abc import Mapping

import pytest

from conftest import ROOT, random_words

VECTOR = ROOT / "tests" / "vectors" / "dma_copy2d.hex"
SAMPLE_BIN = ROOT / "samples" / "dge_stream.bin"


@pytest.fixture(scope="module")
def text():
    return VECTOR.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def raw(dm, text):
    return dm.encode(dm.decode(text, "maverick"), "maverick", validate=False)


def test_golden_word_through_every_input(dm, text, raw):
    # §3.2: opcode 0xb9, src_num_elem [256, 8], src_elem_size 2, dst_step_elem [1, -256]
    w = dm.decode(raw, "maverick")[0]
    assert (w["opcode"], w["struct"]) == (0xB9, "DMA_COPY2D")
    assert w["fields"]["src_num_elem"] == [256, 8]
    assert w["fields"]["src_elem_size"] == 2
    assert w["fields"]["dst_step_elem"] == [1, -256]
    for data in (raw, bytearray(raw), memoryview(raw), array.array("B", raw), text):
        assert dm.decode(data, "maverick") == [w]
    np = pytest.importorskip("numpy")
    assert dm.decode(np.frombuffer(raw, dtype=np.uint8), "maverick") == [w]
    assert dm.decode(np.frombuffer(raw, dtype=np.uint64), "maverick") == [w]  # any item size
    with open(VECTOR.with_suffix(".tmpbin") if False else SAMPLE_BIN, "rb") as f, mmap.mmap(
        f.fileno(), 0, access=mmap.ACCESS_READ
    ) as m:
        assert dm.decode(m) == dm.decode(SAMPLE_BIN.read_bytes())


def test_hex_as_bytes_is_an_error_naming_the_fix(dm, text):
    with pytest.raises(dm.InputError) as e:
        dm.decode(text.encode())
    assert "bytes are raw words" in str(e.value) and "pass hex as a str" in str(e.value)
    with pytest.raises(dm.InputError, match="bytes are raw words"):
        dm.decode(b"b8 00 00 00\n")
    # hex=True reads the bytes as hex text; the same word
    assert dm.decode(text.encode(), "maverick", hex=True) == dm.decode(text, "maverick")
    # hex=False: raw words all the same (here: 1 byte too many for whole words)
    with pytest.raises(dm.InputError, match="incomplete word"):
        dm.decode(b"b8 00 00 00\n", hex=False)
    with pytest.raises(TypeError, match="hex=False"):
        dm.decode(text, hex=False)
    # raw words are never taken for hex
    assert len(dm.decode(SAMPLE_BIN.read_bytes())) == len(SAMPLE_BIN.read_bytes()) // 64


def test_a_path_as_data_says_to_read_the_file(dm):
    for path in (str(SAMPLE_BIN), "samples/dge_stream.bin", "trace.bin"):
        with pytest.raises(dm.InputError) as e:
            dm.decode(path)
        msg = str(e.value)
        assert msg.startswith("data: hex input line 1, column 1: "), msg  # the reader's message first
        assert "looks like a path" in msg and "open(path, 'rb').read()" in msg and "decode_file" in msg
    got = dm.decode_file(SAMPLE_BIN)
    assert got == dm.decode(SAMPLE_BIN.read_bytes())
    assert dm.decode_file(VECTOR, "maverick") == dm.decode(VECTOR.read_text(), "maverick")  # hex file
    # a bad hex str that is no path: the reader's message alone
    with pytest.raises(dm.InputError) as e:
        dm.decode("b8 zz")
    assert "path" not in str(e.value)


@pytest.mark.parametrize("bad", [123, 1.5, None, [b"\x00" * 64], object()])
def test_data_of_no_accepted_type_is_a_type_error(dm, bad):
    for call in (dm.decode, dm.validate, lambda d: dm.column(d, "DMA_DIRECT2D.semaphore"), dm.lower):
        with pytest.raises(TypeError) as e:
            call(bad)
        msg = str(e.value)
        assert msg.startswith("data: expected bytes, bytearray or another buffer"), msg
        assert type(bad).__name__ in msg and "memoryview" not in msg.split(";")[1]


def test_iter_decode_takes_data_too(dm, text, raw):
    expected = dm.decode(raw, "maverick")
    for source in (raw, bytearray(raw), memoryview(raw), text, io.BytesIO(raw), io.StringIO(text)):
        assert list(dm.iter_decode(source, "maverick")) == expected
    with open(VECTOR, "rb") as f:  # a binary file of hex text: hex=True
        assert list(dm.iter_decode(f, "maverick", hex=True)) == expected
    with pytest.raises(TypeError, match="iter_decode: expected a file object"):
        dm.iter_decode(42)
    with pytest.raises(dm.InputError, match="bytes are raw words"):
        dm.iter_decode(text.encode())


def test_arch_spelled_three_ways_and_second_everywhere(dm, text, raw):
    expected = dm.decode(raw, "maverick")
    assert dm.decode(raw, "MAVERICK") == dm.decode(raw, "Maverick") == dm.decode(raw, arch="maverick") == expected
    assert expected[0].arch == "maverick"
    assert dm.validate(raw, "Maverick") == dm.validate(raw, arch="maverick")
    assert dm.encode(expected, "MAVERICK", validate=False) == raw
    assert list(dm.iter_decode(raw, "Maverick")) == expected
    sample = SAMPLE_BIN.read_bytes()
    # lower: arch positional as in every other call, and by keyword as before
    assert dm.lower(sample, "CAYMAN", vars={0: 0x2000_0000}) == dm.lower(sample, arch="cayman", vars={0: 0x2000_0000})
    with pytest.raises(dm.UsageError) as e:
        dm.decode(raw, "trainium")
    assert str(e.value) == "unknown architecture `trainium` (one of: sunda, cayman, mariana, maverick)"
    with pytest.raises(TypeError, match="arch: expected a str, one of sunda, cayman, mariana, maverick"):
        dm.decode(raw, 3)


def test_lazy_word(dm, raw, text):
    ws = dm.decode(raw + bytes(64), "maverick")
    w, unknown = ws
    r = repr(w)
    assert len(r) < 120 and r.startswith("<dmaspec.Word #0 at 0x0 maverick: DMA_COPY2D, opcode 0xb9"), r
    assert "no word" in repr(unknown) and "#1 at 0x40" in repr(unknown)
    assert isinstance(w, Mapping) and w.raw == raw
    assert w["index"] == 0 and w["offset"] == 0 and w["opcode"] == 0xB9
    assert unknown["struct"] is None and unknown["raw_hex"] == "00" * 64
    d = w.to_dict()
    assert type(d) is dict and list(w) == list(d) and len(w) == len(d) and w == d and d == w
    assert w.get("extension_of") is None and w.get("nope", 5) == 5 and "fields" in w
    assert dict(w.items()) == d and list(w.keys()) == list(d)
    with pytest.raises(KeyError):
        w["nope"]
    with pytest.raises(TypeError):
        hash(w)
    assert w != unknown and w == dm.decode(text, "maverick")[0] and w != 5
    d["fields"]["src_elem_size"] = 4  # a copy: the word is unchanged
    assert w["fields"]["src_elem_size"] == 2


def test_encode_streams_and_reuses_unbuilt_words(dm, spec):
    words = random_words(spec, "cayman", 300, __import__("random").Random("friendly-encode"))
    data = b"".join(words)
    decoded = dm.decode(data)
    # an iterator (a generator), read once, of lazy words: the bytes as read
    with pytest.warns(dm.DmaspecWarning):
        assert dm.encode(w for w in decoded) == data
    assert dm.encode(iter(dm.decode(data)), validate=False) == data
    assert dm.encode(dm.iter_decode(io.BytesIO(data)), validate=False) == data
    # a mix of words, their dicts and built words; a change to a built word is encoded
    mixed = [w.to_dict() if i % 3 == 0 else w for i, w in enumerate(dm.decode(data))]
    assert dm.encode(mixed, validate=False) == data
    d2 = next(w for w in dm.decode(data) if w["struct"] == "DMA_DIRECT2D")
    d2["fields"]["semaphore"] = 7
    out = dm.encode([d2], validate=False)
    assert out[13] == 7 and dm.decode(out)[0]["fields"]["semaphore"] == 7
    # errors name the instruction's place in the whole iterable, across batches
    bad = list(dm.decode(data)[:5]) + [{"struct": "DMA_DIRECT2D", "fields": {"bogus": 1}}]
    with pytest.raises(dm.EncodeError) as e:
        dm.encode(iter(bad))
    assert e.value.errors == ["instruction 5 (DMA_DIRECT2D): unknown field `bogus`"]


def test_encode_of_an_extension_without_its_lead_is_checked_here(dm, spec):
    # PSEUDO_DMA_EXT read after its lead, then encoded alone: an orphan, an error as for its dict
    words = random_words(spec, "cayman", 400, __import__("random").Random("friendly-orphan"))
    ws = dm.decode(b"".join(words))
    ext = next(w for w in ws if w.get("extension_of") is not None)
    with pytest.raises(dm.EncodeError) as e:
        dm.encode([ext])
    with pytest.raises(dm.EncodeError) as e2:
        dm.encode([ext.to_dict()])
    assert e.value.errors == e2.value.errors and "must immediately follow" in e.value.errors[0]


def test_columns_one_pass(dm, raw):
    np = pytest.importorskip("numpy")
    sample = SAMPLE_BIN.read_bytes()
    data = sample + raw * 3
    paths = ["DMA_COPY2D.src_num_elem[0]", "DMA_COPY2D.src_elem_size", "PSEUDO_DMA_DIRECT2D.dge_op"]
    cols = dm.columns(data, paths, "maverick")
    assert list(cols) == paths and len(cols) == 3
    n = len(sample) // 64
    assert cols["DMA_COPY2D.src_num_elem[0]"].tolist() == [256] * 3
    assert cols["DMA_COPY2D.src_elem_size"].dtype == np.uint16
    assert cols.index("DMA_COPY2D.src_elem_size").tolist() == [n, n + 1, n + 2]
    for p in paths:
        i, v = dm.column(data, p, "maverick", with_index=True)
        assert cols[p].tolist() == v.tolist() and cols.index(p).tolist() == i.tolist()
    arr = dm.columns(data, paths[:1], "maverick", numpy=False)
    assert isinstance(arr[paths[0]], array.array) and arr[paths[0]].tolist() == [256] * 3
    with pytest.raises(dm.UsageError):
        dm.columns(data, ["DMA_COPY2D.nope"], "maverick")



def test_columns_of_one_path_as_a_str(dm, raw):
    """A str is one path, not a list of its letters."""
    one = dm.columns(raw, "DMA_COPY2D.src_elem_size", "maverick")
    assert list(one) == ["DMA_COPY2D.src_elem_size"]
    assert one["DMA_COPY2D.src_elem_size"].tolist() == dm.columns(raw, ["DMA_COPY2D.src_elem_size"], "maverick")["DMA_COPY2D.src_elem_size"].tolist()

def test_columns_to_pandas(dm, text):
    pd = pytest.importorskip("pandas")
    sample = SAMPLE_BIN.read_bytes()
    cols = dm.columns(sample, ["PSEUDO_DMA_DIRECT2D.dge_op", "PSEUDO_DMA_DIRECT2D.src_num_elem[0]", "PSEUDO_DMA_EXT.compute_op"])
    df = cols.to_pandas()
    words = dm.decode(sample)
    shown = [w for w in words if w["struct"] in ("PSEUDO_DMA_DIRECT2D", "PSEUDO_DMA_EXT")]
    assert df.index.name == "index" and df.index.tolist() == [w["index"] for w in shown]
    assert isinstance(df["struct"].dtype, pd.CategoricalDtype)
    assert df["struct"].tolist() == [w["struct"] for w in shown]
    assert isinstance(df["PSEUDO_DMA_DIRECT2D.dge_op"].dtype, pd.CategoricalDtype)
    first = shown[0]
    assert df["PSEUDO_DMA_DIRECT2D.dge_op"].iloc[0] == first["fields"]["dge_op"]["name"] == "DMA_INDIRECT1D"
    assert df["PSEUDO_DMA_DIRECT2D.src_num_elem[0]"].iloc[0] == first["fields"]["src_num_elem"][0] == 256
    # a field some rows lack: a nullable integer column with <NA> there
    ext_rows = [i for i, w in enumerate(shown) if w["struct"] == "PSEUDO_DMA_EXT"]
    assert ext_rows and str(df["PSEUDO_DMA_DIRECT2D.src_num_elem[0]"].dtype) == "UInt16"
    assert df["PSEUDO_DMA_DIRECT2D.src_num_elem[0]"].isna().tolist() == [i in ext_rows for i in range(len(shown))]



def test_to_pandas_enum_values_no_enumerator_has(dm):
    """dge_op (PSEUDO_DMA_DIRECT2D byte 15, DGE_OPCODE: 0 DMA_DIRECT2D, 1 DMA_INDIRECT1D, and
    in cayman 2 DMA_TRANSPOSE, 3 DMA_GATHER_TRANSPOSE; seed-004 §5.1) set to 0x77 in the
    sample's first word: that row's category is the number, as text, after the names."""
    pd = pytest.importorskip("pandas")
    sample = bytearray(SAMPLE_BIN.read_bytes())
    sample[15] = 0x77
    df = dm.columns(bytes(sample), ["PSEUDO_DMA_DIRECT2D.dge_op"]).to_pandas()
    col = df["PSEUDO_DMA_DIRECT2D.dge_op"]
    assert list(col.cat.categories) == ["DMA_DIRECT2D", "DMA_INDIRECT1D", "DMA_TRANSPOSE", "DMA_GATHER_TRANSPOSE", "119"]
    assert col.iloc[0] == "119"
    sunda = dm.columns(SAMPLE_BIN.read_bytes(), ["PSEUDO_DMA_DIRECT2D.dge_op"], "sunda").to_pandas()
    assert "DMA_TRANSPOSE" not in list(sunda["PSEUDO_DMA_DIRECT2D.dge_op"].cat.categories)

def test_mypy_accepts_buffers(tmp_path):
    """mypy --strict takes NumPy arrays, mmap and memoryview as data, and column's
    overloads give NumPy arrays or array.array by `numpy=`."""
    pytest.importorskip("mypy")
    src = tmp_path / "user.py"
    src.write_text(
        "import array, mmap\n"
        "import numpy as np\n"
        "import numpy.typing as npt\n"
        "import dmaspec\n"
        "def f(a: npt.NDArray[np.uint8], m: mmap.mmap, v: memoryview) -> None:\n"
        "    dmaspec.decode(a)\n"
        "    dmaspec.decode(m, 'maverick')\n"
        "    dmaspec.validate(v)\n"
        "    x: npt.NDArray[np.integer] = dmaspec.column(a, 'DMA_DIRECT2D.semaphore', numpy=True)\n"
        "    y: array.array[int] = dmaspec.column(a, 'DMA_DIRECT2D.semaphore', numpy=False)\n"
        "    i, z = dmaspec.column(a, 'DMA_DIRECT2D.semaphore', with_index=True, numpy=True)\n"
        "    w = dmaspec.decode(a)[0]\n"
        "    s: str | None = w['struct']\n"
        "    dmaspec.encode(dmaspec.iter_decode(a))\n"
    )
    bad = tmp_path / "bad.py"
    bad.write_text("import dmaspec\ndmaspec.decode(b'', 'trainium')\n")
    run = lambda p: subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "c"), str(p)],
        capture_output=True,
        text=True,
    )
    ok = run(src)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    no = run(bad)
    assert no.returncode == 1 and "trainium" in no.stdout, no.stdout


def test_lazy_records(dm, spec):
    """Records are `Word`s as words are: the bytes and where they were read, the object
    (decode --struct's) built on first read of a field; encode takes them back."""
    rec = next(r for r in spec["records"] if r["name"] == "NOTIFICATION")
    data = bytes(range(16)) + bytes(range(100, 116))
    a, b = dm.decode(data, struct="NOTIFICATION")
    assert isinstance(a, dm.Word) and a.raw == data[:16] and b.raw == data[16:]
    assert repr(b).startswith("<dmaspec.Word #1 at 0x10 cayman: NOTIFICATION record, 6465666768696a6b"), repr(b)
    assert (b["index"], b["offset"], b["struct"]) == (1, 16, "NOTIFICATION")
    with pytest.raises(KeyError):
        a["opcode"]  # a record has none
    assert a.to_dict() == a and set(a) >= {"index", "offset", "struct", "fields"}
    # timestamp.low: bytes 8-11 (rec leaves), little-endian
    assert a["fields"]["timestamp"]["low"] == int.from_bytes(data[8:12], "little")
    assert rec["size"] == 16
    assert list(dm.iter_decode(data, struct="NOTIFICATION")) == [a, b]
    assert dm.encode([a, b], struct="NOTIFICATION", validate=False) == data
    big = next(r for r in spec["records"] if r["size"] > 64)  # held whole, not cut at 64 bytes
    one = dm.decode(bytes(big["size"]), struct=big["name"])[0]
    assert len(one.raw) == big["size"] and one["struct"] == big["name"]
