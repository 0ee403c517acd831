#!/usr/bin/env python3
"""Prints the benchmark tables (Markdown) from criterion's output of
`cargo bench -p dmaspec-benches --bench decode`.

    python3 scripts/bench_table.py [target/criterion]

Reads every `<group>/<bench>/new/estimates.json` (median) and `benchmark.json`
(throughput in words) and prints, per group, ns per word, words per second and the ratios
the issue sets targets on, then the targets themselves with PASS/FAIL.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")


def load():
    """{group: {bench: ns per word}}"""
    out = {}
    for est in sorted(ROOT.glob("**/new/estimates.json")):
        bench_dir = est.parent.parent
        meta_path = est.parent / "benchmark.json"
        if not meta_path.exists():
            continue
        meta = json.loads(meta_path.read_text())
        ns = json.loads(est.read_text())["median"]["point_estimate"]
        tp = meta.get("throughput") or {}
        n = tp.get("Elements") or tp.get("Bytes") or 1
        out.setdefault(meta["group_id"], {})[meta["function_id"]] = ns / n
    return out


def fmt_rate(ns):
    wps = 1e9 / ns
    return f"{wps / 1e6:.1f} M" if wps >= 1e6 else f"{wps / 1e3:.0f} k"


def table(rows, header):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


def main():
    data = load()
    if not data:
        sys.exit(f"no criterion results under {ROOT}; run `cargo bench -p dmaspec-benches --bench decode` first")
    checks = []

    d2d = data.get("d2d", {})
    if d2d:
        order = ["memcpy", "scan", "owned_decode", "view_all_fields", "view_two_fields",
                 "hand_written", "binrw", "deku_bytes", "deku_bits"]
        memcpy, hand = d2d.get("memcpy"), d2d.get("hand_written")
        rows = []
        for k in order + sorted(set(d2d) - set(order)):
            if k not in d2d:
                continue
            ns = d2d[k]
            rows.append([f"`{k}`", f"{ns:.1f}", fmt_rate(ns),
                         f"{ns / memcpy:.2f}×" if memcpy else "",
                         f"{ns / hand:.2f}×" if hand else ""])
        print("**DMA_DIRECT2D, 1,000,000 words** (time per word; ratios are time over the "
              "baseline's time, lower is faster)\n")
        table(rows, ["benchmark", "ns/word", "words/s", "÷ memcpy", "÷ hand-written"])
        owned = d2d.get("owned_decode")
        if owned and hand:
            checks.append(("owned decode ≤ 1.2× hand-written", owned / hand, owned / hand <= 1.2))
        if owned and "binrw" in d2d:
            r = d2d["binrw"] / owned
            checks.append(("owned decode ≥ 2.5× faster than binrw", r, r >= 2.5))
        if owned and "deku_bits" in d2d:
            r = d2d["deku_bits"] / owned
            checks.append(("owned decode ≥ 50× faster than deku (bit fields)", r, r >= 50))

    structs = {g.split("/", 1)[1]: v for g, v in data.items() if g.startswith("struct/")}
    if structs:
        rows = []
        worst = 0.0
        for name, v in sorted(structs.items()):
            dec, enc = v.get("decode"), v.get("encode")
            ratio = enc / dec if dec and enc else None
            if ratio:
                worst = max(worst, ratio)
            rows.append([f"`{name}`"] + [f"{v[k]:.1f}" if k in v else "—"
                                         for k in ("decode", "encode", "validate", "validate_view")]
                        + [f"{ratio:.2f}×" if ratio else "—"])
        print("**Per struct, 100,000 random words each** (ns per word)\n")
        table(rows, ["struct", "decode", "encode", "validate (owned)", "validate (view)",
                     "encode ÷ decode"])
        checks.append(("encode ≤ 1.2× decode (worst struct)", worst, worst <= 1.2))

    mixed = data.get("mixed", {})
    if mixed:
        memcpy, scan = mixed.get("memcpy"), mixed.get("scan")
        hand = d2d.get("hand_written")
        rows = []
        for k in ["memcpy", "scan", "views", "decode_owned", "validate_views", "validate_owned"]:
            if k not in mixed:
                continue
            ns = mixed[k]
            rows.append([f"`{k}`", f"{ns:.1f}", fmt_rate(ns),
                         f"{ns / memcpy:.2f}×" if memcpy else "",
                         f"{ns / scan:.2f}×" if scan else "",
                         f"{ns / hand:.2f}×" if hand else ""])
        print("**Mixed stream, 1,000,000 words** (pairs, every word kind, unknown opcodes, "
              "orphans)\n")
        table(rows, ["benchmark", "ns/word", "words/s", "÷ memcpy", "÷ scan",
                     "÷ hand-written DMA_DIRECT2D"])
        if "validate_views" in mixed and scan:
            r = mixed["validate_views"] / scan
            checks.append(("validate of the mixed stream through views ≤ 3× the scan", r, r <= 3))

    if checks:
        print("**Targets (issue 7)**\n")
        table([[c, f"{r:.2f}", "PASS" if ok else "FAIL"] for c, r, ok in checks],
              ["target", "measured", ""])


if __name__ == "__main__":
    main()
