#!/usr/bin/env python3
"""Times the spec edit loop: `cargo build --release` after (a) a bare `touch` of one spec
file, which changes nothing, and (b) a real edit of one field's doc text in it, which
changes the generated Rust. Prints the median of N runs of each (wall clock, and the CPU
time cargo and rustc used, which a busy machine inflates less) and what cargo redid.

    python3 scripts/edit_loop.py [-n N] [--file spec/words/dma_direct2d.toml]
                                 [--line 'doc = "Priority class (§6.1)."']

The spec file is restored byte for byte when the script ends, however it ends (Ctrl-C
included), and `git status` must read the same after the run as before. Run it with
nothing else building: it times whole builds, and a first release build takes minutes (it
builds that first, untimed).
"""
import argparse
import os
import pathlib
import re
import resource
import signal
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def cpu():
    """CPU seconds (user + system) used so far by finished child processes."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build():
    """One `cargo build --release -v`: (wall s, CPU s, build.rs ran, library compiled)."""
    start, cpu_start = time.monotonic(), cpu()
    out = subprocess.run(["cargo", "build", "--release", "-v"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    took, cpu_took = time.monotonic() - start, cpu() - cpu_start
    if out.returncode != 0:
        sys.exit(f"cargo build --release failed:\n{out.stdout}")
    ran = re.search(r"Running `[^`]*/build/dmaspec-[0-9a-f]+/build-script-build`", out.stdout)
    lib = re.search(r"Running `[^`]*rustc --crate-name dmaspec [^`]*src/lib\.rs", out.stdout)
    return took, cpu_took, bool(ran), bool(lib)


def status():
    """`git status --porcelain`: the run must leave it as it found it."""
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT,
                          stdout=subprocess.PIPE, text=True, check=True).stdout


def runs(n, change):
    """`change(i)` then a timed build, `n` times: (median wall s, min, max, median CPU s,
    build.rs ran, library compiled)."""
    times, cpus, ran, lib = [], [], set(), set()
    for i in range(n):
        change(i)
        t, c, r, compiled = build()
        times.append(t)
        cpus.append(c)
        ran.add(r)
        lib.add(compiled)
        print(f"  run {i + 1}: {t:.2f} s ({c:.2f} s CPU)", file=sys.stderr)
    yes = lambda s: "yes" if s == {True} else "no" if s == {False} else "sometimes"
    return (statistics.median(times), min(times), max(times), statistics.median(cpus),
            yes(ran), yes(lib))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=3, help="runs of each change (default 3)")
    ap.add_argument("--file", default="spec/words/dma_direct2d.toml")
    ap.add_argument("--line", default='doc = "Priority class (§6.1)."',
                    help="the line whose text the real edit changes (must end in `\"`)")
    args = ap.parse_args()

    spec = ROOT / args.file
    before = status()
    original = spec.read_bytes()
    text = original.decode()
    if text.count(args.line) != 1 or not args.line.endswith('"'):
        sys.exit(f"{args.file}: `{args.line}` must occur exactly once and end in `\"`")

    def restore(*_):
        if spec.read_bytes() != original:
            spec.write_bytes(original)
        if _:
            sys.exit(1)

    signal.signal(signal.SIGTERM, restore)
    signal.signal(signal.SIGHUP, restore)
    try:
        print("warming up: cargo build --release (untimed)", file=sys.stderr)
        build()

        def touch(_):
            os.utime(spec)

        def edit(i):
            spec.write_text(text.replace(args.line, args.line[:-1] + f' Edit-loop probe {i}."'))

        print(f"touch {args.file}", file=sys.stderr)
        touched = runs(args.n, touch)
        print(f"edit one field's doc in {args.file}", file=sys.stderr)
        edited = runs(args.n, edit)
    finally:
        restore()
    if status() != before:
        sys.exit(f"the tree changed during the run:\n{status()}")

    print(f"| `cargo build --release` after | median of {args.n} | min | max | CPU (median) "
          "| build.rs ran | library compiled |")
    print("|---|---:|---:|---:|---:|---|---|")
    for what, (med, lo, hi, cpu_med, ran, lib) in [
        (f"`touch {args.file}`", touched),
        (f"editing one field's `doc` in `{args.file}`", edited),
    ]:
        print(f"| {what} | {med:.1f} s | {lo:.1f} s | {hi:.1f} s | {cpu_med:.1f} s | {ran} "
              f"| {lib} |")


if __name__ == "__main__":
    main()
