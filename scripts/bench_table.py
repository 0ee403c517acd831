#!/usr/bin/env python3
"""Prints the benchmark tables (Markdown) from criterion's output of
`cargo bench -p dmaspec-benches --bench decode`.

    python3 scripts/bench_table.py [target/criterion]

Reads every `<group>/<bench>/new/estimates.json` (median) and `benchmark.json`
(throughput in words) and prints, per group, ns per word, words per second and the ratios
the issues set targets on, then the targets themselves (issue 25's) with PASS/FAIL,
stamped with today's date and the commit checked out.
"""
import datetime
import json
import pathlib
import subprocess
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
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    print(f"Tables by `scripts/bench_table.py` from the criterion results in {ROOT}, "
          f"printed on {datetime.date.today().isoformat()} at commit `{commit}`.\n")
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
            checks.append(("owned decode ÷ hand-written ≤ 1.1×", owned / hand, owned / hand <= 1.1))
        if owned and "binrw" in d2d:
            r = d2d["binrw"] / owned
            checks.append(("binrw ÷ owned decode ≥ 3×", r, r >= 3))
        if owned and "deku_bits" in d2d:
            r = d2d["deku_bits"] / owned
            checks.append(("owned decode ≥ 50× faster than deku (bit fields)", r, r >= 50))

    structs = {g.split("/", 1)[1]: v for g, v in data.items() if g.startswith("struct/")}
    if structs:
        rows = []
        worst = 0.0
        worst_validate = (0.0, "")
        for name, v in sorted(structs.items()):
            dec, enc = v.get("decode"), v.get("encode")
            ratio = enc / dec if dec and enc else None
            if ratio:
                worst = max(worst, ratio)
            if dec and v.get("validate"):
                worst_validate = max(worst_validate, (v["validate"] / dec, name))
            rows.append([f"`{name}`"] + [f"{v[k]:.1f}" if k in v else "—"
                                         for k in ("decode", "encode", "validate", "validate_view")]
                        + [f"{ratio:.2f}×" if ratio else "—"])
        print("**Per struct, 100,000 random words each** (ns per word)\n")
        table(rows, ["struct", "decode", "encode", "validate (owned)", "validate (view)",
                     "encode ÷ decode"])
        checks.append(("encode ≤ 1.2× decode (worst struct)", worst, worst <= 1.2))
        r, name = worst_validate
        checks.append((f"validate (owned) ÷ decode ≤ 1×, worst struct ({name})", r, r <= 1))
        base, pseudo = structs.get("DMA_DIRECT2D", {}), structs.get("PSEUDO_DMA_DIRECT2D", {})
        if base.get("decode") and pseudo.get("decode"):
            r = pseudo["decode"] / base["decode"]
            checks.append(("PSEUDO_DMA_DIRECT2D decode ÷ DMA_DIRECT2D decode ≤ 1.2×", r, r <= 1.2))

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
            checks.append(("mixed stream: validate through views ÷ scan ≤ 3×", r, r <= 3))
        if "decode_owned" in mixed and memcpy:
            r = mixed["decode_owned"] / memcpy
            checks.append(("mixed stream: owned decode ÷ memcpy ≤ 3×", r, r <= 3))

    if checks:
        print("**Targets (issue 25)**\n")
        table([[c, f"{r:.2f}", "PASS" if ok else "FAIL"] for c, r, ok in checks],
              ["target", "measured", ""])


if __name__ == "__main__":
    main()
