#!/usr/bin/env python3
"""Prints the size figures of the spec and the generated code (Markdown), with the date and
commit they were taken at.

    python3 scripts/size_table.py                   # print the table
    python3 scripts/size_table.py --time 11         # also time `dmaspec gen --check` (median of 11)
    python3 scripts/size_table.py --write docs/guide/performance.md # replace the table
    python3 scripts/size_table.py --check docs/guide/performance.md # fail if stale

The table in docs/guide/performance.md (the book's Performance chapter; `dmaspec gen`
copies it into generated/docs/guide/, so run gen after --write) sits between `<!-- size_table:begin -->` and `<!-- size_table:end -->`.
`--check` compares the counted rows only (lines, bytes, words): timings and the stamp move
from run to run and are never checked. `--time` uses `target/release/dmaspec` (build it with
`cargo build --release` first).
"""
import argparse
import datetime
import json
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- size_table:begin -->", "<!-- size_table:end -->"
RUST = ROOT / "generated/rust/dmaspec.rs"
WIDTH = 100  # rustfmt's max_width


def commit():
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                         capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def counted_rows():
    """(figure, value) rows that a file of the tree determines."""
    dictionary = json.loads((ROOT / "generated/dmaspec.json").read_text())
    words, records = len(dictionary["words"]), len(dictionary["records"])
    text = RUST.read_text()
    lines = text.splitlines()
    # A code line over the width that holds no string literal is one rustfmt could have
    # wrapped; rustfmt leaves comments as they are.
    wide = [l for l in lines if len(l) > WIDTH and '"' not in l]
    wide_docs = sum(1 for l in wide if l.lstrip().startswith("//"))
    spec = sorted((ROOT / "spec").rglob("*.toml"))
    generated = [p for p in (ROOT / "generated").rglob("*") if p.is_file()]
    return [
        ("`generated/rust/dmaspec.rs`", f"{len(lines):,} lines, {len(text.encode()) // 1024:,} KiB"),
        ("words + records", f"{words} + {records}"),
        ("generated Rust lines per word or record", f"{len(lines) / (words + records):,.0f}"),
        (f"code lines over {WIDTH} columns without a string literal", f"{len(wide) - wide_docs:,}"),
        (f"doc comment lines over {WIDTH} columns", f"{wide_docs:,}"),
        ("spec", f"{len(spec)} files, {sum(p.stat().st_size for p in spec) // 1024:,} KiB"),
        ("`generated/` (every artifact)",
         f"{len(generated)} files, {sum(p.stat().st_size for p in generated) // 1024:,} KiB"),
    ]


def gen_time(runs):
    exe = ROOT / "target/release/dmaspec"
    if not exe.exists():
        sys.exit("--time needs target/release/dmaspec: run `cargo build --release` first")
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([str(exe), "gen", "--check"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return f"{statistics.median(times) * 1e3:.0f} ms (median of {runs})"


def table(rows):
    out = ["| figure | value |", "|---|---:|"]
    out += [f"| {k} | {v} |" for k, v in rows]
    return "\n".join(out)


def render(runs):
    rows = counted_rows()
    if runs:
        rows.append(("`dmaspec gen --check`, whole process, nothing to write", gen_time(runs)))
    stamp = (f"Measured by `scripts/size_table.py{f' --time {runs}' if runs else ''}` on "
             f"{datetime.date.today().isoformat()} at commit `{commit()}`.")
    return f"{stamp}\n\n{table(rows)}"


def between(text, path):
    if BEGIN not in text or END not in text:
        sys.exit(f"{path}: no {BEGIN} … {END} markers")
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    return head, body, tail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time", type=int, default=0, metavar="N",
                    help="time `dmaspec gen --check` N times")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--write", metavar="FILE", help="replace the table in FILE")
    group.add_argument("--check", metavar="FILE", help="fail if FILE's counted rows are stale")
    args = ap.parse_args()
    if args.check:
        path = pathlib.Path(args.check)
        _, body, _ = between(path.read_text(), path)
        stale = [f"{k}: the table says {body_value(body, k)!r}, the tree has {v!r}"
                 for k, v in counted_rows() if body_value(body, k) != v]
        if stale:
            sys.exit(f"{path}: the size table is stale (run `python3 scripts/size_table.py "
                     f"--time 11 --write {path}`):\n  " + "\n  ".join(stale))
        return
    out = render(args.time)
    if args.write:
        path = pathlib.Path(args.write)
        head, _, tail = between(path.read_text(), path)
        path.write_text(f"{head}{BEGIN}\n{out}\n{END}{tail}")
    else:
        print(out)


def body_value(body, figure):
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] == figure:
            return cells[1]
    return None


if __name__ == "__main__":
    main()
