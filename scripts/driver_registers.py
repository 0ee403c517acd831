#!/usr/bin/env python3
"""Extract the kernel driver's UDMA register facts into tests/driver/udma_regs.json.

Reads the GPL driver aws-neuron/aws-neuron-driver from a bare git directory (`git show
COMMIT:path`, the commit pinned in spec/sources.toml) and writes facts only: register names
with the offsets gcc's `offsetof` gives over the `udma/udma_regs.h` structs, the field
`*_MASK` / `*_SHIFT` / `(1 << n)` defines of that header, the queue reset values of
`udma/udma_main.c`, and the NOTIFIC queue registers of `v2/notific.h` / `v3/notific.h`.
Every fact carries its file:line. tests/driver_registers.rs holds the spec to the JSON, so
CI needs neither the driver nor gcc.

    scripts/driver_registers.py --driver /work/.mirror/aws-neuron+aws-neuron-driver/repo
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HEADER = "udma/udma_regs.h"
# unit_regs_v4 composes the four structs; each is one spec register file.
ROOTS = [
    ("udma_m2s_regs_v4", "UDMA_M2S", "m2s"),
    ("udma_s2m_regs_v4", "UDMA_S2M", "s2m"),
    ("udma_gen_regs_v4", "UDMA_GEN", "gen"),
    ("udma_gen_ex_regs", "UDMA_GEN_EX", "gen_ex"),
]
MEMBER = re.compile(r"^\s*(?:(struct|union)\s+(\w+)|(u32|uint32_t))\s+(\w+)\s*(?:\[([^\]]+)\])?\s*;")
AGGREGATE = re.compile(r"^\s*(struct|union)\s+(\w+)\s*\{")
# Field defines of a register the structs leave as padding (tcrhp_internal at 0x50 is
# udma_m2s_q.reserved1): kept under its own name, with no offset.
UNDECLARED = [("UDMA_M2S_Q_TCRHP_INTERNAL_", "UDMA_M2S", "m2s_q[].tcrhp_internal")]
DEFINE = re.compile(r"^#define\s+(\w+)\s+(.+?)\s*(?://.*|/\*.*)?$")


def git_show(driver, commit, path):
    return subprocess.run(
        ["git", "-C", driver, "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
    ).stdout


def pinned_commit(spec_dir):
    with open(os.path.join(spec_dir, "sources.toml"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'id = "aws-neuron-driver"\n[^\n]*\nfile = "github:aws-neuron/aws-neuron-driver@([0-9a-f]{40})"', text)
    if not m:
        sys.exit("spec/sources.toml: no aws-neuron-driver source with a pinned commit")
    return m.group(1)


def aggregates(text):
    """struct/union name -> its members (kind, type, name, count or None, line)."""
    found, current = {}, None
    for number, line in enumerate(text.splitlines(), 1):
        if current is None:
            m = AGGREGATE.match(line)
            if m:
                current = found.setdefault((m.group(2)), [])
            continue
        if line.strip().startswith("};"):
            current = None
            continue
        m = MEMBER.match(line)
        if m:
            kind = m.group(1) or "u32"
            current.append((kind, m.group(2), m.group(4), m.group(5), number))
    return found


def leaves(structs, name, path, chain):
    """Every named 32-bit member under `name`: (C designator, driver path, line, arrays)."""
    for kind, ty, member, count, line in structs[name]:
        if re.match(r"(reserved|rsrvd)", member):
            continue
        here = f"{path}.{member}" if path else member
        if kind == "u32":
            if count:
                for i in range(int(count, 0)):
                    yield f"{here}[{i}]", f"{here}[{i}]", line, chain
            else:
                yield here, here, line, chain
        else:
            first = f"{here}[0]" if count else here
            sub = chain + [(first, int(count, 0), ty)] if count else chain
            yield from leaves(structs, ty, first, sub)


def offsets(header, queries):
    """Ask gcc: offsetof / sizeof for each (root struct, designator) in `queries`."""
    body = header.replace("#include <linux/types.h>", "#include <stdint.h>\ntypedef uint32_t u32;")
    lines = [body, "#include <stddef.h>", "#include <stdio.h>", "int main(void) {"]
    for root, expr, kind in queries:
        what = f"offsetof(struct {root}, {expr})" if kind == "off" else f"sizeof(struct {expr})"
        lines.append(f'  printf("%zu\\n", (size_t){what});')
    lines += ["  return 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "offsets.c"), os.path.join(tmp, "offsets")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        subprocess.run(["gcc", "-std=gnu11", "-o", exe, src], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout.split()
    return [int(v) for v in out]


def registers(header, structs):
    queries, rows = [], []
    for root, regfile, unit in ROOTS:
        queries.append(("unit_regs_v4", unit, "off"))
        for expr, path, line, chain in leaves(structs, root, "", []):
            queries.append((root, expr, "off"))
            for _, _, ty in chain:
                queries.append((None, ty, "size"))
            rows.append((root, regfile, expr, path, line, chain))
    values = iter(offsets(header, queries))
    out, bases = [], {}
    for root, regfile, _unit in ROOTS:
        bases[regfile] = next(values)
        for r in [r for r in rows if r[0] == root]:
            _, _, _, path, line, chain = r
            offset = next(values)
            arrays = [{"count": count, "stride": next(values)} for _, count, _ in chain]
            out.append({
                "file": regfile,
                "path": re.sub(r"\[0\]", "[]", path, count=len(chain)) if chain else path,
                "name": path.rsplit(".", 1)[-1],
                "offset": offset,
                "arrays": arrays,
                "cite": f"{HEADER}:{line}",
            })
    return bases, out


def parse_value(text):
    text = text.strip()
    m = re.fullmatch(r"\(?\s*(0x[0-9a-fA-F]+|\d+)\s*<<\s*(\d+)\s*\)?", text)
    if m:
        return int(m.group(1), 0) << int(m.group(2))
    m = re.fullmatch(r"(0x[0-9a-fA-F]+|0b[01]+|\d+)", text)
    return int(m.group(1), 0) if m else None


def fields(header):
    """The header's field defines: NAME_MASK + NAME_SHIFT pairs, lone shifts, 1 << n bits."""
    masks, shifts, bits = {}, {}, {}
    for number, line in enumerate(header.splitlines(), 1):
        m = DEFINE.match(line)
        if not m or not m.group(1).startswith(("UDMA_", "INT_CONTROL_GRP_")):
            continue
        name, value = m.group(1), parse_value(m.group(2))
        if value is None or name.endswith("_RESET_VALUE"):
            continue
        if name.endswith("_MASK"):
            masks[name[:-5]] = (value, number)
        elif name.endswith("_SHIFT"):
            shifts[name[:-6]] = (value, number)
        elif value and value & (value - 1) == 0:
            bits[name] = (value.bit_length() - 1, number)
    out = []
    for define in sorted(set(masks) | set(shifts) | set(bits)):
        if define in masks:
            mask, line = masks[define]
            lsb = (mask & -mask).bit_length() - 1
            width = mask.bit_length() - lsb
            cites = [f"{HEADER}:{line}"] + ([f"{HEADER}:{shifts[define][1]}"] if define in shifts else [])
            if define in shifts and shifts[define][0] != lsb:
                sys.exit(f"{HEADER}:{line}: {define}_MASK and _SHIFT disagree")
        elif define in shifts:
            (lsb, line), width = shifts[define], None
            cites = [f"{HEADER}:{line}"]
        else:
            (lsb, line), width = bits[define], 1
            cites = [f"{HEADER}:{line}"]
        out.append({"define": define, "lsb": lsb, "width": width, "cite": ", ".join(cites)})
    return out


def place(defines, regs):
    """Name each field define's register: `UDMA_` + top struct member + register, longest first.

    The queue bank's `q_sw_ctrl` is spelled `..._Q_SW_CTRL_`. A define no register prefix
    fits (the header's `int_control_grp` bits name no group, `UDMA_S2M_DMA_RING_DISABLE` no
    register) keeps `register: null`."""
    keys = list(UNDECLARED)
    for r in regs:
        top = r["path"].split(".")[0].replace("[]", "")
        key = f"UDMA_{top}_{r['name']}_".upper()
        keys += [(k, r["file"], r["path"]) for k in {key, key.replace("_Q_Q_", "_Q_")}]
    keys.sort(key=lambda k: -len(k[0]))
    for d in defines:
        hit = next((k for k in keys if d["define"].startswith(k[0])), None)
        d["file"], d["register"] = (hit[1], hit[2]) if hit else (None, None)
        d["name"] = d["define"][len(hit[0]):].lower() if hit else None
    return defines


def resets(main_c, regs):
    """The queue reset words udma_cache_defaults() caches ("hardware reset value (from
    datasheet)"): each `q->FIELD = *_RESET_VALUE;` of an M2S or S2M queue, placed on the
    queue register that field shadows (q->cfg on m2s_q/s2m_q .cfg, q->rlimit_mask on
    m2s_q .rlimit.mask)."""
    lines = main_c.splitlines()
    values = {}
    for number, line in enumerate(lines, 1):
        m = DEFINE.match(line)
        if m and m.group(1).endswith("_RESET_VALUE") and parse_value(m.group(2)) is not None:
            values[m.group(1)] = (parse_value(m.group(2)), number)
    shadows = {"cfg": "cfg", "rlimit_mask": "rlimit.mask"}
    paths = {r["path"] for r in regs}
    out = []
    for number, line in enumerate(lines, 1):
        m = re.match(r"\s*q->(\w+) = ((M2S|S2M)_\w+_RESET_VALUE);", line)
        if m and m.group(2) in values:
            path = f"{m.group(3).lower()}_q[].{shadows[m.group(1)]}"
            if path not in paths:
                sys.exit(f"udma/udma_main.c:{number}: {path} is no register of the structs")
            value, defined = values[m.group(2)]
            out.append({
                "define": m.group(2), "value": value, "file": f"UDMA_{m.group(3)}", "register": path,
                "cite": f"udma/udma_main.c:{defined}, assigned at :{number}",
            })
    return out


def notific(driver, commit):
    """NOTIFIC_NQ_*_OFFSET_START + index * NOTIFIC_NQ_SIZE, per generation's notific.h."""
    out = []
    for gen in ("v2", "v3"):
        path = f"{gen}/notific.h"
        text = git_show(driver, commit, path)
        size = re.search(r"#define NOTIFIC_NQ_SIZE (0x[0-9a-fA-F]+)", text)
        for number, line in enumerate(text.splitlines(), 1):
            m = re.match(r"#define NOTIFIC_NQ_(\w+)_OFFSET_START (0x[0-9a-fA-F]+)", line)
            if m:
                out.append({
                    "header": path, "name": m.group(1).lower(), "offset": int(m.group(2), 16),
                    "stride": int(size.group(1), 16), "cite": f"{path}:{number}",
                })
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--driver", required=True, help="bare git dir of aws-neuron/aws-neuron-driver")
    parser.add_argument("--spec", default="spec")
    parser.add_argument("--out", default="tests/driver/udma_regs.json")
    args = parser.parse_args()
    commit = pinned_commit(args.spec)
    header = git_show(args.driver, commit, HEADER)
    bases, regs = registers(header, aggregates(header))
    facts = {
        "source": "aws-neuron-driver",
        "commit": commit,
        "note": "Facts read from the GPL kernel driver by scripts/driver_registers.py: offsets are gcc's offsetof "
        "over the udma_regs.h structs (element 0 of each array, with every enclosing array's count and stride).",
        "bases": bases,
        "registers": regs,
        "fields": place(fields(header), regs),
        "resets": resets(git_show(args.driver, commit, "udma/udma_main.c"), regs),
        "notific": notific(args.driver, commit),
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(facts, f, indent=1)
        f.write("\n")
    print(f"{args.out}: {len(regs)} registers, {len(facts['fields'])} fields, {len(facts['resets'])} resets, "
          f"{len(facts['notific'])} NOTIFIC registers (commit {commit[:8]})")


if __name__ == "__main__":
    main()
