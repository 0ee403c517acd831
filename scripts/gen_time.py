#!/usr/bin/env python3
"""Times `dmaspec gen` as a user runs it when nothing has changed: the release binary,
whole process (load the spec, resolve, render every target, compare with `generated/`,
write nothing). Prints the median, min and max of N runs, with the date and commit.

    python3 scripts/gen_time.py [-n 21]

Its table goes between the `gen_time` markers of docs/guide/performance.md (by hand).

Run it with nothing else building; it builds the release binary first, untimed.
"""
import argparse
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=21, help="runs (default 21)")
    n = ap.parse_args().n
    if n < 1:
        sys.exit("-n must be at least 1")
    subprocess.run(["cargo", "build", "-q", "--release"], cwd=ROOT, check=True)
    exe = ROOT / "target" / "release" / "dmaspec"
    times = []
    for _ in range(n):
        t = time.perf_counter()
        r = subprocess.run([exe, "gen"], cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            sys.exit(f"dmaspec gen failed:\n{r.stderr}")
        if "0 written, 0 removed" not in r.stdout + r.stderr:
            sys.exit(f"dmaspec gen wrote files (run it once first):\n{r.stdout}{r.stderr}")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    day = time.strftime("%Y-%m-%d", time.gmtime())
    ms = [t * 1000 for t in times]
    print(f"Measured by scripts/gen_time.py on {day} at commit {commit}, {n} runs.")
    print()
    print("| `dmaspec gen`, nothing to write | median | min | max |")
    print("|---|---:|---:|---:|")
    print(f"| whole process | {statistics.median(ms):.0f} ms | {min(ms):.0f} ms | {max(ms):.0f} ms |")


if __name__ == "__main__":
    main()
