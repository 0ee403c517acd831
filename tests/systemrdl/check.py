"""Every generated SystemRDL file against dmaspec's own C register headers.

Each `generated/systemrdl/*.rdl` is compiled and elaborated by systemrdl-compiler (any
warning fails), PeakRDL-cheader writes its C header, and one C program per file includes
that header beside dmaspec's `generated/c/regs/<file>.h` and prints, for every register
of every architecture the `.rdl` stands for, both sides of:

* the register's address (element 0 and the last element of an array): PeakRDL's
  `offsetof` in its packed struct against dmaspec's `_addr(0[, i])` helper;
* each field's `_bp`, `_bw`, `_bm`, and reset: PeakRDL's field `_reset` against dmaspec's
  field `_reset`, else its bits of the register `_RESET` when that covers every bit (no
  `_RESET_MASK`), else none on both sides;
* each field's software access: readable in the .rdl where dmaspec's header has its `_get`,
  writable where it has its `_set`.

A register dmaspec's header gives no field stands in the `.rdl` as one field named after it
over all its bits; that field must be exactly that. Every register and field macro of the
dmaspec header's architecture sections must be reached, so neither side can drop one.

Beside that comparison with our own headers, the EVT_SEM file and NOTIFIC_10_QUEUE's queue
descriptors are held to tables read by hand from their source pages (`EVT_SEM` and
`NOTIFIC_NQ` below).

Run from the repository root: `python tests/systemrdl/check.py` (needs gcc,
systemrdl-compiler and peakrdl-cheader). Writes under target/systemrdl/.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from peakrdl_cheader.exporter import CHeaderExporter
from systemrdl import RDLCompileError, RDLCompiler
from systemrdl.messages import MessagePrinter, Severity
from systemrdl.node import AddrmapNode, FieldNode, RegfileNode, RegNode

ROOT = Path(__file__).resolve().parents[2]
RDL_DIR = ROOT / "generated" / "systemrdl"
REGS_DIR = ROOT / "generated" / "c" / "regs"
OUT = ROOT / "target" / "systemrdl"


class Strict(MessagePrinter):
    """Prints as usual, and remembers whether anything at warning level or worse came."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = False

    def print_message(self, severity, text, src_ref) -> None:  # type: ignore[no-untyped-def]
        if severity >= Severity.WARNING:
            self.failed = True
        super().print_message(severity, text, src_ref)


@dataclass
class Target:
    """The dmaspec header an addrmap is compared with, and the architectures it covers."""

    header: Path
    archs: list[str]


def target_of(addrmap: str) -> Target:
    """`udma_m2s_cayman` -> regs/udma_m2s.h on cayman; `udma_gen_ex` -> regs/udma_gen_ex.h on
    every architecture that header has a section for."""
    direct = REGS_DIR / f"{addrmap}.h"
    if direct.exists():
        text = direct.read_text()
        archs = re.findall(r"^/\* ---- \w+ on (\w+): ", text, re.M)
        return Target(direct, archs)
    stem, _, arch = addrmap.rpartition("_")
    header = REGS_DIR / f"{stem}.h"
    if not header.exists():
        raise SystemExit(f"{addrmap}: no dmaspec header regs/{addrmap}.h or regs/{stem}.h")
    return Target(header, [arch])


@dataclass
class Program:
    """The C program for one addrmap, and what it must print."""

    lines: list[str] = field(default_factory=list)
    reached: set[str] = field(default_factory=set)
    registers: int = 0
    fields: int = 0
    # Compared here rather than in C: (label, SystemRDL, dmaspec).
    direct: list[tuple[str, str, str]] = field(default_factory=list)

    def pair(self, label: str, rdl: str, ours: str) -> None:
        self.lines.append(
            f'    printf("%s\\t%llu\\t%llu\\n", "{label}", '
            f"(unsigned long long)({rdl}), (unsigned long long)({ours}));"
        )

    def maybe(self, label: str, rdl: str, ours: list[tuple[str, str]]) -> None:
        """Prints `label`, macro `rdl` (or `none` when undefined) and the first of `ours`
        (a preprocessor condition, the expression to print when it holds) whose condition
        holds, or `none`."""
        self.lines.append(f'    printf("%s\\t", "{label}");')
        self.lines.append("#ifdef " + rdl)
        self.lines.append(f'    printf("%llu\\t", (unsigned long long)({rdl}));')
        self.lines.append("#else")
        self.lines.append('    printf("none\\t");')
        self.lines.append("#endif")
        first = True
        for cond, expr in ours:
            self.lines.append(("#if " if first else "#elif ") + cond)
            self.lines.append(f'    printf("%llu\\n", (unsigned long long)({expr}));')
            first = False
        self.lines.append("#else")
        self.lines.append('    printf("none\\n");')
        self.lines.append("#endif")


def dmaspec_names(header: str, prefix: str) -> set[str]:
    """The bundle and register offset and field mask macros of one architecture section."""
    return set(re.findall(rf"^#define ({prefix}_\w+?_(?:OFFSET|bm)) ", header, re.M))


def empty_bundles_named(top: AddrmapNode, header: str, prefix: str, reached: set[str]) -> set[str]:
    """The offset macros of the bundles dmaspec's header has and the .rdl does not
    instantiate (no register there), each of which the addrmap's desc must name."""
    desc = (top.get_property("desc") or "").upper()
    named = set()
    for bundle in re.findall(rf"^#define {prefix}_(\w+)_COUNT ", header, re.M):
        macro = f"{prefix}_{bundle}_OFFSET"
        if macro not in reached and f"BUNDLE {bundle} (" in desc:
            named.add(macro)
    return named


def build(top: AddrmapNode, target: Target, header_text: str) -> Program:
    prog = Program()
    struct = f"{top.inst_name}_t"
    rdl_prefix = top.inst_name.upper()
    for arch in target.archs:
        file = target.header.stem
        mp = f"{file}_{arch}".upper()
        fp = f"{file}_{arch}".lower()
        for bundle in top.children():
            if not isinstance(bundle, RegfileNode):
                raise SystemExit(f"{top.inst_name}: {bundle.inst_name} is not a regfile")
            b = bundle.inst_name
            count = bundle.array_dimensions[0] if bundle.is_array else 1
            for reg in bundle.children():
                assert isinstance(reg, RegNode)
                r = reg.inst_name
                prog.registers += 1
                ours_reg = f"{mp}_{b.upper()}_{r.upper()}"
                prog.reached.add(f"{ours_reg}_OFFSET")
                for i in sorted({0, count - 1}):
                    member = f"{b}[{i}].{r}" if bundle.is_array else f"{b}.{r}"
                    helper = f"{fp}_{b.lower()}_{r.lower()}_addr"
                    call = f"{helper}(0, {i})" if bundle.is_array else f"{helper}(0)"
                    prog.pair(f"{arch} {member} address", f"offsetof({struct}, {member})", call)
                for f in reg.fields():
                    assert isinstance(f, FieldNode)
                    prog.fields += 1
                    theirs = f"{rdl_prefix}__{b.upper()}__{r.upper()}__{f.inst_name.upper()}"
                    ours = f"{ours_reg}_{f.inst_name.upper()}"
                    label = f"{arch} {b}.{r}.{f.inst_name}"
                    if f"#define {ours}_bm " not in header_text:
                        # Only the .rdl's stand-in for a register with no fields: one field
                        # named after the register.
                        if f.inst_name != r or len(reg.fields()) != 1:
                            raise SystemExit(f"{label}: a field dmaspec's header does not have")
                        # dmaspec's header states no register width: PeakRDL's member size.
                        first = f"{b}[0]" if bundle.is_array else b
                        width = f"(8 * sizeof((({struct} *)0)->{first}.{r}))"
                        prog.pair(f"{label} bp", f"{theirs}_bp", "0")
                        prog.pair(f"{label} bw", f"{theirs}_bw", width)
                        prog.pair(
                            f"{label} bm",
                            f"{theirs}_bm",
                            f"({width} == 64 ? ~0ull : (1ull << {width}) - 1)",
                        )
                        reset = f"{ours_reg}_RESET"
                        prog.maybe(
                            f"{label} reset", f"{theirs}_reset", [(f"defined({reset})", reset)]
                        )
                        continue
                    prog.reached.add(f"{ours}_bm")
                    # dmaspec's header has a getter for a readable field, a setter for a
                    # writable one.
                    fn = f"{fp}_{b.lower()}_{r.lower()}_{f.inst_name.lower()}"
                    for what, rdl_says in (("get", f.is_sw_readable), ("set", f.is_sw_writable)):
                        has = re.search(rf" {fn}_{what}\(", header_text) is not None
                        prog.direct.append((f"{label} sw {what}", str(rdl_says), str(has)))
                    for what in ("bp", "bw", "bm"):
                        prog.pair(f"{label} {what}", f"{theirs}_{what}", f"{ours}_{what}")
                    prog.maybe(
                        f"{label} reset",
                        f"{theirs}_reset",
                        [
                            (f"defined({ours}_reset)", f"{ours}_reset"),
                            # The register's reset speaks for the field only where its
                            # `_RESET_MASK`, when it has one, covers the field.
                            (
                                f"defined({ours_reg}_RESET) && !defined({ours_reg}_RESET_MASK)",
                                f"({ours_reg}_RESET & {ours}_bm) >> {ours}_bp",
                            ),
                        ],
                    )
            prog.reached.add(f"{mp}_{b.upper()}_OFFSET")
    return prog


def shown(value: str) -> str:
    return hex(int(value)) if value.isdigit() else value


# A golden table read by hand from the source, not from dmaspec's output: the EVT_SEM
# windows, "Events & Semaphores" (wiki-evt-sem) §2.2, one row per window: (bundle, address
# of element N = base + 4*N for N < 256, software access of its register).
EVT_SEM = [
    ("tpb_events", 0x0000, "rw"),  # | **event** `evt[N]` | `+0x0000 + 4·N` | `RW` (bit 0) |
    ("tpb_semaphores_read", 0x1000, "r"),  # | **read** `sem[N]` | `+0x1000 + 4·N` | `RO` |
    ("tpb_semaphores_set", 0x1400, "w"),  # | **set** `sem[N] := V` | `+0x1400 + 4·N` | `WO` |
    ("tpb_semaphores_inc", 0x1800, "w"),  # | **inc** `sem[N] += D` | `+0x1800 + 4·N` | `WO` |
    ("tpb_semaphores_dec", 0x1C00, "w"),  # | **dec** `sem[N] -= D` | `+0x1C00 + 4·N` | `WO` |
]


def elaborated(name: str) -> AddrmapNode | None:
    """The top of `name`.rdl, or None when it does not compile (check() reports that)."""
    compiler = RDLCompiler()
    try:
        compiler.compile_file(str(RDL_DIR / f"{name}.rdl"))
        return compiler.elaborate().top
    except RDLCompileError:
        return None


def evt_sem_golden() -> list[str]:
    """The EVT_SEM .rdl against the source's table, through systemrdl-compiler's addresses."""
    top = elaborated("tpb_events_semaphores_axi")
    if top is None:
        return []
    problems = []
    for bundle, base, sw in EVT_SEM:
        node = top.get_child_by_name(bundle)
        if node is None or node.array_dimensions != [256] or node.array_stride != 4:
            problems.append(f"EVT_SEM golden: {bundle} is not an array of 256, 4 apart")
            continue
        elements = list(node.unrolled())
        for n in (0, 255):
            reg = elements[n].get_child_by_name(bundle)
            got = (reg.absolute_address, [f.get_property("sw").name for f in reg.fields()])
            want = (base + 4 * n, [sw])
            if got != want:
                problems.append(f"EVT_SEM golden: {bundle}[{n}]: {got}, the source {want}")
    return problems


# A golden table read by hand from "CSR — NOTIFIC Queue" (wiki-csr-notific) §3 and §3.1: the
# per-queue descriptor's registers, queue 9's absolute address (the §3.1 row "| 9 | `0x268`
# | `0x26c` | `0x270` | `0x274` | `0x278` | `0x27c` |") and whether the SpecialAccess
# column says `PulseOnW`, which the .rdl writes as `swmod`.
NOTIFIC_NQ = [
    ("base_addr_lo", 0x268, True),  # | `+0x00` | `base_addr_lo` | RW | ... | `PulseOnW` |
    ("base_addr_hi", 0x26C, True),  # | `+0x04` | `base_addr_hi` | RW | ... | `PulseOnW` |
    ("size", 0x270, False),  # | `+0x08` | `size` | RW | `bits[31:0]` | `0` | None |
    ("head_ptr", 0x274, True),  # | `+0x0c` | `head_ptr` | RW | ... | `PulseOnW` |
    ("tail_ptr", 0x278, False),  # | `+0x10` | `tail_ptr` | RO | `tp[31:0]` | `0x0` | None |
    ("threshold", 0x27C, False),  # | `+0x14` | `threshold` | RW | `val[31:0]` | `0x0` | None |
]


def notific_golden() -> list[str]:
    """The NOTIFIC_10_QUEUE .rdl's queue descriptors against the page's §3 table."""
    top = elaborated("notific_10_queue")
    if top is None:
        return []
    nq = top.get_child_by_name("notific_nq")
    if nq is None or nq.array_dimensions != [10]:
        return ["NOTIFIC golden: notific_nq is not an array of 10"]
    last = list(nq.unrolled())[9]
    problems = []
    for name, address, pulse in NOTIFIC_NQ:
        reg = last.get_child_by_name(name)
        got = (reg.absolute_address, [f.get_property("swmod") for f in reg.fields()])
        want = (address, [pulse])
        if got != want:
            problems.append(f"NOTIFIC golden: notific_nq[9].{name}: {got}, the source {want}")
    return problems


def check(rdl: Path) -> tuple[int, int, int, list[str]]:
    """(registers, fields, values compared, problems) for one file."""
    printer = Strict()
    compiler = RDLCompiler(message_printer=printer)
    try:
        compiler.compile_file(str(rdl))
        root = compiler.elaborate()
    except RDLCompileError:
        printer.failed = True
    if printer.failed:
        return 0, 0, 0, [f"{rdl.name}: systemrdl-compiler reported warnings or errors"]
    top = root.top
    OUT.mkdir(parents=True, exist_ok=True)
    theirs = OUT / f"{top.inst_name}.h"
    CHeaderExporter().export(top, str(theirs))
    target = target_of(top.inst_name)
    header_text = target.header.read_text()
    prog = build(top, target, header_text)
    problems = []
    for arch in target.archs:
        mp = f"{target.header.stem}_{arch}".upper()
        named = empty_bundles_named(top, header_text, mp, prog.reached)
        for name in sorted(dmaspec_names(header_text, mp) - prog.reached - named):
            problems.append(f"{rdl.name}: {name} of {target.header.name} has no counterpart")
    source = OUT / f"{top.inst_name}_check.c"
    source.write_text(
        "#include <stddef.h>\n#include <stdio.h>\n"
        f'#include "{theirs.resolve()}"\n#include "{target.header.resolve()}"\n\n'
        "int main(void) {\n" + "\n".join(prog.lines) + "\n    return 0;\n}\n"
    )
    exe = OUT / f"{top.inst_name}_check"
    subprocess.run(
        ["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", str(exe), str(source)],
        check=True,
    )
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    compared = 0
    rows = [row.split("\t") for row in out.splitlines()] + [list(d) for d in prog.direct]
    for label, rdl_value, ours in rows:
        compared += 1
        if rdl_value != ours:
            problems.append(
                f"{rdl.name}: {label}: SystemRDL {shown(rdl_value)}, dmaspec {shown(ours)}"
            )
    return prog.registers, prog.fields, compared, problems


def main() -> int:
    files = sorted(RDL_DIR.glob("*.rdl"))
    if not files:
        print(f"no .rdl files in {RDL_DIR}", file=sys.stderr)
        return 1
    totals = [0, 0, 0]
    problems: list[str] = []
    for rdl in files:
        regs, fields, compared, found = check(rdl)
        totals = [totals[0] + regs, totals[1] + fields, totals[2] + compared]
        problems += found
    problems += evt_sem_golden()
    problems += notific_golden()
    for p in problems:
        print(p, file=sys.stderr)
    print(
        f"systemrdl: {len(files)} files; {totals[0]} registers and {totals[1]} fields "
        f"(per architecture) compared with generated/c/regs: {totals[2]} values, "
        f"{len(problems)} problems"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
