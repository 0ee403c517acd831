"""The API benchmark: every operation against a plain `struct.unpack_from` loop and
hand-written NumPy (np.frombuffer with a structured dtype) on the same streams, in one run.

Streams (cayman, random bytes with each kind's opcode and sub-opcode):
  direct  - every word a DMA_DIRECT2D
  mixed   - DMA_DIRECT2D, DMA_INDIRECT1D, DMA_DIRECT2D_XPOSE and PSEUDO_DMA_DIRECT2D (+ its
            PSEUDO_DMA_EXT) in turn, and words no cayman word has

Rows: decode (list of lazy words), decode + reading one field of every word, iter_decode,
encode of decode's words, column, columns (3 fields of 2 kinds on mixed), against
  struct loop - for each word: check the opcode, struct.unpack_from the fields at their
                offsets (the dictionary's), append to lists
  NumPy       - np.frombuffer(data, structured dtype) then a mask on the opcode
Reported as ratios (the struct loop of the same stream = 1x; above 1 is faster) and µs or
bytes per word; prints a Markdown table (headed by its date and commit) to paste into docs/guide/python.md. Memory is
tracemalloc's peak over the call.

    python python/bench/api_bench.py [--words N] [--repeat R]
"""

import argparse
import datetime
import io
import json
import platform
import random
import re
import struct
import subprocess
import time
import tracemalloc

import numpy as np

import dmaspec

WORD = 64
FORMATS = {("u", 1): "B", ("u", 2): "H", ("u", 4): "I", ("u", 8): "Q", ("i", 1): "b", ("i", 2): "h", ("i", 4): "i", ("i", 8): "q"}
DIRECT = ["DMA_DIRECT2D.src_num_elem[0]"]
MIXED = ["DMA_DIRECT2D.src_num_elem[0]", "DMA_DIRECT2D.semaphore", "DMA_INDIRECT1D.semaphore"]


def leaf_of(spec, path):
    """(opcode, byte offset, struct format char) of a whole-byte integer leaf."""
    struct_name, leaf_path = path.split(".", 1)
    word = next(w for w in spec["words"] if w["name"] == struct_name)
    m = re.fullmatch(r"(.*?)(?:\[(\d+)\])?", leaf_path)
    name, index = m.group(1), int(m.group(2) or 0)
    leaf = next(l for l in word["leaves"] if l["path"] == name)
    t = re.fullmatch(r"([ui])(\d+)(?:\[(\d+)\])?", leaf["type"])
    assert t and leaf["bits"] is None, f"{path}: not a whole-byte integer leaf"
    size = int(t.group(2)) // 8
    return word["opcode"]["value"], leaf["offset"] + index * size, FORMATS[(t.group(1), size)]


def build(spec, kinds, n, rng):
    words = {w["name"]: w for w in spec["words"] if "cayman" in w["arch"]}
    taken = {w["opcode"]["value"] for w in words.values()}
    free = [op for op in range(256) if op not in taken]

    def word(name):
        w = words[name]
        b = bytearray(rng.randbytes(WORD))
        b[0] = w["opcode"]["value"]
        sub = w["opcode"].get("sub_opcode")
        if sub:
            b[sub["offset"] : sub["offset"] + sub["size"]] = sub["value"].to_bytes(sub["size"], "little")
        return bytes(b)

    pool = []
    while len(pool) < 4096:
        for k in kinds:
            if k is None:
                b = bytearray(rng.randbytes(WORD))
                b[0] = rng.choice(free)
                pool.append(bytes(b))
            else:
                pool.append(word(k))
                if k == "PSEUDO_DMA_DIRECT2D":
                    pool.append(word("PSEUDO_DMA_EXT"))
    return b"".join(pool[i % len(pool)] for i in range(n))


def struct_loop(data, leaves):
    """The fields of `leaves` [(opcode, offset, fmt)] from every word with that opcode."""
    readers = [(op, off, struct.Struct("<" + fmt).unpack_from) for op, off, fmt in leaves]
    out = [[] for _ in leaves]
    for base in range(0, len(data), WORD):
        op = data[base]
        for (want, off, unpack), col in zip(readers, out):
            if op == want:
                col.append(unpack(data, base + off)[0])
    return out


def numpy_columns(data, leaves):
    """The same with a structured dtype per field and a mask on the opcode."""
    out = []
    for op, off, fmt in leaves:
        dt = np.dtype({"names": ["op", "v"], "formats": ["u1", "<" + fmt.lower().replace("b", "i1").replace("h", "i2").replace("q", "i8") if fmt.islower() else "<" + {"B": "u1", "H": "u2", "I": "u4", "Q": "u8"}[fmt]], "offsets": [0, off], "itemsize": WORD})
        a = np.frombuffer(data, dtype=dt)
        out.append(a["v"][a["op"] == op])
    return out


def measure(f, repeat):
    """(best seconds, peak traced bytes of one run, result)."""
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
        del out
    tracemalloc.start()
    out = f()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    spec = dmaspec.spec()
    try:
        import pandas

        pandas_version = pandas.__version__
    except ImportError:
        pandas_version = None
    rng = random.Random(28)
    streams = {
        "direct": (build(spec, ["DMA_DIRECT2D"], args.words, rng), DIRECT),
        "mixed": (
            build(spec, ["DMA_DIRECT2D", "DMA_INDIRECT1D", "DMA_DIRECT2D_XPOSE", "PSEUDO_DMA_DIRECT2D", None], args.words, rng),
            MIXED,
        ),
    }
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    if commit and subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout:
        commit += " (with uncommitted changes)"
    print(
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit or 'unknown'}; "
        f"dmaspec {dmaspec.__version__}, Python {platform.python_version()}, numpy {np.__version__}, pandas {pandas_version}, "
        f"{platform.machine()}; {args.words:,} words per stream, best of {args.repeat}"
    )
    print()
    print("| stream | what | µs/word | bytes/word (peak) | vs struct loop |")
    print("|---|---|---:|---:|---:|")
    for name, (data, paths) in streams.items():
        n = len(data) // WORD
        leaves = [leaf_of(spec, p) for p in paths]
        t_ref, m_ref, ref = measure(lambda: struct_loop(data, leaves), args.repeat)
        rows = [(f"struct loop ({len(paths)} field(s))", t_ref, m_ref)]
        t, m, got = measure(lambda: numpy_columns(data, leaves), args.repeat)
        assert [g.tolist() for g in got] == ref
        rows.append(("NumPy structured dtype", t, m))
        t, m, got = measure(lambda: dmaspec.columns(data, paths), args.repeat)
        assert [got[p].tolist() for p in paths] == ref, "columns and the struct loop disagree"
        rows.append((f"`columns(data, [{len(paths)} paths])`", t, m))
        if pandas_version:
            cols = dmaspec.columns(data, paths)
            t, m, _ = measure(cols.to_pandas, args.repeat)
            rows.append(("`columns(...).to_pandas()` (the DataFrame alone)", t, m))
        for p in paths[:1]:
            t, m, got = measure(lambda: dmaspec.column(data, p), args.repeat)
            rows.append((f"`column(data, \"{p}\")`", t, m))
        t, m, words = measure(lambda: dmaspec.decode(data), args.repeat)
        rows.append(("`decode(data)` (lazy words)", t, m))
        t, m, _ = measure(lambda: [w["struct"] for w in dmaspec.decode(data)], args.repeat)
        rows.append(("`decode` + `w[\"struct\"]` of each", t, m))
        few = max(1, n // 20)
        t, m, _ = measure(lambda: [w.get("fields") for w in dmaspec.decode(data[: few * WORD])], 1)
        rows.append((f"`decode` + `w[\"fields\"]` of each ({few:,} words)", t * n / few, m * n / few))
        texts = [json.dumps(w.to_dict()) for w in dmaspec.decode(data[: few * WORD])]
        t, m, _ = measure(lambda: [json.loads(x) for x in texts], 1)
        rows.append((f"for scale: `json.loads` of those words' JSON text", t * n / few, m * n / few))
        t, m, _ = measure(lambda: sum(1 for _ in dmaspec.iter_decode(io.BytesIO(data))), args.repeat)
        rows.append(("`iter_decode(file)`", t, m))
        t, m, out = measure(lambda: dmaspec.encode(words, validate=False), args.repeat)
        assert out == data
        rows.append(("`encode(decode(data), validate=False)`", t, m))
        t, m, _ = measure(lambda: dmaspec.encode(words), 1)
        rows.append(("`encode(decode(data))` (validated)", t, m))
        del words
        for what, t, m in rows:
            print(f"| {name} | {what} | {t / n * 1e6:.3g} | {m / n:,.0f} | {t_ref / t:.3g}x |")


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore", dmaspec.DmaspecWarning)
    main()
