"""Records against words: `decode(data, struct=NAME)` per record (time, tracemalloc's peak
bytes), reading one field of each through the decoded objects, and `column` of the same
field, next to `decode(data)` per word. Random bytes (records) and random DMA_DIRECT2D words.

    python python/bench/record_bench.py [--n N] [--repeat R]
"""

import argparse
import random

import dmaspec
from api_bench import build, measure

RECORDS = {"NOTIFICATION": "NOTIFICATION.timestamp.low", "SDMA_CME_BD_DESC": "SDMA_CME_BD_DESC.len_ctrl.length"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(41)
    sizes = {r["name"]: r["size"] for r in dmaspec.spec()["records"]}
    print(f"dmaspec {dmaspec.__version__}; {args.n:,} items per stream, best of {args.repeat}")
    print()
    print("| stream | what | µs/item | bytes/item (peak) |")
    print("|---|---|---:|---:|")
    rows = []
    words = build(dmaspec.spec(), ["DMA_DIRECT2D"], args.n, rng)
    t, m, _ = measure(lambda: dmaspec.decode(words), args.repeat)
    rows.append(("DMA_DIRECT2D words", "`decode(data)`", t, m))
    for name, path in RECORDS.items():
        data = rng.randbytes(sizes[name] * args.n)
        t, m, _ = measure(lambda: dmaspec.decode(data, struct=name), args.repeat)
        rows.append((f"{name} records", f"`decode(data, struct=\"{name}\")`", t, m))
        few = max(1, args.n // 20)
        part = data[: few * sizes[name]]
        t, m, _ = measure(lambda: [r["fields"] for r in dmaspec.decode(part, struct=name)], 1)
        rows.append((f"{name} records", f"`decode` + `r[\"fields\"]` of each ({few:,})", t * args.n / few, m * args.n / few))
        try:
            t, m, _ = measure(lambda: dmaspec.column(data, path), args.repeat)
            rows.append((f"{name} records", f"`column(data, \"{path}\")`", t, m))
        except dmaspec.UsageError as e:
            rows.append((f"{name} records", f"`column(data, \"{path}\")`: {e}"[:90], None, None))
    for stream, what, t, m in rows:
        if t is None:
            print(f"| {stream} | {what} | – | – |")
        else:
            print(f"| {stream} | {what} | {t / args.n * 1e6:.3g} | {m / args.n:,.0f} |")


if __name__ == "__main__":
    main()
