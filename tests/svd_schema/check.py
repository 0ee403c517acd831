"""Every generated SVD against the CMSIS-SVD schema, with cmsis-svd's validator.

The schema is named, 1.3.9 (the last ARM released) and the newest cmsis-svd ships: the files
say schemaVersion="1.3", the only 1.3 value the schema's xs:decimal type admits, and
cmsis-svd's detection maps a version to a file name and has no CMSIS-SVD_1_3.xsd. One of
them also gets schemaVersion="1.3.9", which must fail (the check can fail).

Run from the repository root: `python tests/svd_schema/check.py` (needs cmsis-svd).
"""

from __future__ import annotations

import sys
from pathlib import Path

from cmsis_svd.parser import SVD_SCHEMA_VERSIONS, SVDParser
from lxml import etree

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    files = sorted((ROOT / "generated" / "svd").glob("*.svd"))
    newest = max(SVD_SCHEMA_VERSIONS, key=lambda v: [int(p) for p in v.split(".")])
    problems = []
    for svd in files:
        for version in ("1.3.9", newest):
            ok, why = SVDParser.validate_xml_file(
                svd, schema_version=version, schema_version_detection=False
            )
            if not ok:
                problems.append(f"{svd.name}: {why}")
    tree = etree.parse(str(files[0]))
    tree.getroot().set("schemaVersion", "1.3.9")
    ok, _ = SVDParser.validate_xml_tree(tree, "1.3.9", schema_version_detection=False)
    if ok:
        problems.append('schemaVersion="1.3.9" passed the schema: is it no longer xs:decimal?')
    for p in problems:
        print(p, file=sys.stderr)
    print(
        f"svd schema: {len(files)} files against CMSIS-SVD 1.3.9 and {newest}, "
        f"{len(problems)} problems"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
