"""The column benchmark: one field out of 10**6 words.

Builds a stream of 10**6 words (half DMA_DIRECT2D, the rest random words of the other cayman
kinds), then times (time.perf_counter, best of 5) `dmaspec.column(data, FIELD)` against a
pure-Python loop doing the same with `struct.unpack_from` (the opcode check and the read at
the field's offset, both taken from `dmaspec.spec()`), checks that both give the same values,
and, for context, times `column` of a field inside a union arm and `dmaspec.decode` of 10**5
words. Prints a Markdown table.

    python python/bench/column_bench.py [--words N] [--repeat R]
"""

import argparse
import platform
import random
import re
import struct
import time

import dmaspec

FIELD = "DMA_DIRECT2D.src_num_elem[0]"
# for context: a field inside a union arm, which column finds by walking the word
ARM_FIELD = "DMA_DIRECT2D.src_start_addr.addr_immediate.address_lo"
WORD = 64
FORMATS = {("u", 1): "B", ("u", 2): "H", ("u", 4): "I", ("u", 8): "Q", ("i", 1): "b", ("i", 2): "h", ("i", 4): "i", ("i", 8): "q"}


def leaf_of(spec, path):
    """(opcode, byte offset, struct format) of a whole-byte integer leaf path such as
    `DMA_DIRECT2D.src_num_elem[0]`, from the dictionary."""
    struct_name, leaf_path = path.split(".", 1)
    word = next(w for w in spec["words"] if w["name"] == struct_name)
    m = re.fullmatch(r"(.*?)(?:\[(\d+)\])?", leaf_path)
    name, index = m.group(1), int(m.group(2) or 0)
    leaf = next(l for l in word["leaves"] if l["path"] == name)
    t = re.fullmatch(r"([ui])(\d+)(?:\[(\d+)\])?", leaf["type"])
    assert t and leaf["bits"] is None, f"{path}: not a whole-byte integer leaf ({leaf['type']})"
    size = int(t.group(2)) // 8
    return word["opcode"]["value"], leaf["offset"] + index * size, "<" + FORMATS[(t.group(1), size)]


def build_stream(spec, n, rng):
    """n words: every other one a DMA_DIRECT2D (random bytes, its opcode), the rest random
    words of the other kinds cayman has (their opcodes; sub-opcodes set)."""
    words = [w for w in spec["words"] if "cayman" in w["arch"]]
    direct = next(w for w in words if w["name"] == "DMA_DIRECT2D")
    others = [w for w in words if w is not direct]

    def word(w):
        b = bytearray(rng.randbytes(WORD))
        b[0] = w["opcode"]["value"]
        sub = w["opcode"].get("sub_opcode")
        if sub:
            b[sub["offset"] : sub["offset"] + sub["size"]] = sub["value"].to_bytes(sub["size"], "little")
        return bytes(b)

    # a pool of distinct words, laid out in a shuffled order, repeated to n words
    pool = [word(direct) if i % 2 == 0 else word(others[(i // 2) % len(others)]) for i in range(4096)]
    order = list(range(n))
    rng.shuffle(order)
    return b"".join(pool[i % len(pool)] for i in order)


def python_loop(data, opcode, offset, fmt):
    unpack = struct.Struct(fmt).unpack_from
    return [unpack(data, off + offset)[0] for off in range(0, len(data), WORD) if data[off] == opcode]


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=10**6)
    ap.add_argument("--decode-words", type=int, default=10**5)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    spec = dmaspec.spec()
    opcode, offset, fmt = leaf_of(spec, FIELD)
    data = build_stream(spec, args.words, random.Random(16))

    t_col, col = best(lambda: dmaspec.column(data, FIELD), args.repeat)
    t_py, ref = best(lambda: python_loop(data, opcode, offset, fmt), args.repeat)
    values = col.tolist()
    assert values == ref, "column and the struct.unpack_from loop disagree"
    t_arm, arm = best(lambda: dmaspec.column(data, ARM_FIELD), args.repeat)
    head = data[: args.decode_words * WORD]
    t_dec, decoded = best(lambda: dmaspec.decode(head), max(1, min(args.repeat, 3)))
    assert len(decoded) == args.decode_words

    print(f"dmaspec {dmaspec.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"{FIELD} (opcode {opcode:#x}, +{offset}, {fmt}); best of {args.repeat}")
    print()
    print("| what | words | values | seconds | words/s | vs the Python loop |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = [
        (f"`dmaspec.column(data, \"{FIELD}\")`", args.words, len(values), t_col),
        ("Python loop, `struct.unpack_from`", args.words, len(ref), t_py),
        (f"`dmaspec.column(data, \"{ARM_FIELD}\")` (a union arm's field)", args.words, len(arm), t_arm),
        ("`dmaspec.decode(data)` (every field, dicts)", args.decode_words, len(decoded), t_dec),
    ]
    for what, n, m, t in rows:
        print(f"| {what} | {n:,} | {m:,} | {t:.4f} | {n / t:,.0f} | {t_py / args.words * n / t:.2g}x |")


if __name__ == "__main__":
    main()
