#!/usr/bin/env python3
"""The per-page tally of `dmaspec audit` over a directory of saved source pages.

    scripts/register_tally.py /work/pages [--rows] [--dmaspec target/debug/dmaspec]

Each page is a Markdown file named as its source's `file` in spec/sources.toml
(`udma-m2s.md`), so the audit finds its source. Prints one line per page: rows checked
(exact + explained + unexplained + missing), the four verdicts and the tables the audit read
but matched to no spec item; then the totals. `--rows` lists every unexplained and missing
row with what the spec holds there. The figures of the register-coverage note
(docs/guide/registers.md) are this script's output.
"""

import argparse
import json
import pathlib
import subprocess
import sys

VERDICTS = ["exact", "explained", "unexplained", "missing", "unmatched_tables"]


def audit(dmaspec, spec, page):
    run = subprocess.run(
        [dmaspec, "audit", "--spec", spec, "--format", "json", str(page)], capture_output=True, text=True
    )
    if run.returncode != 0:
        sys.exit(f"{page}: dmaspec audit failed: {run.stderr.strip()}")
    return json.loads(run.stdout)["pages"][0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", type=pathlib.Path, help="directory of saved pages (*.md)")
    parser.add_argument("--rows", action="store_true", help="list every unexplained and missing row")
    parser.add_argument("--dmaspec", default="target/debug/dmaspec")
    parser.add_argument("--spec", default="spec")
    args = parser.parse_args()
    pages = sorted(args.pages.glob("*.md"))
    if not pages:
        sys.exit(f"{args.pages}: no *.md pages")
    header = f"{'page':<28} {'source':<22} {'checked':>7} {'exact':>5} {'explained':>9} {'unexpl.':>7} {'missing':>7} {'unmatched':>9}"
    print(header)
    totals = dict.fromkeys(VERDICTS, 0)
    details = []
    for page in pages:
        report = audit(args.dmaspec, args.spec, page)
        c = report["counts"]
        for v in VERDICTS:
            totals[v] += c[v]
        checked = sum(c[v] for v in VERDICTS[:4])
        print(f"{page.name:<28} {report['source'] or '(none)':<22} {checked:>7} {c['exact']:>5} {c['explained']:>9} "
              f"{c['unexplained']:>7} {c['missing']:>7} {c['unmatched_tables']:>9}")
        for table in report["tables"]:
            for row in table.get("rows", []):
                if row["verdict"] in ("unexplained", "missing"):
                    spec = row.get("spec") or {}
                    held = f"{table.get('item')}.{spec['path']}" if spec else "nothing there"
                    differs = ", ".join(row.get("differs") or [])
                    details.append(f"{page.name}:{row['line']} {row['verdict']} {row.get('offset') or ''} "
                                   f"{row.get('name') or ''} ({table.get('arch') or 'any arch'}); spec: {held}"
                                   + (f"; differs: {differs}" if differs else ""))
    checked = sum(totals[v] for v in VERDICTS[:4])
    print(f"{'total':<28} {'':<22} {checked:>7} {totals['exact']:>5} {totals['explained']:>9} "
          f"{totals['unexplained']:>7} {totals['missing']:>7} {totals['unmatched_tables']:>9}")
    if args.rows:
        print("\n".join(details))


if __name__ == "__main__":
    main()
