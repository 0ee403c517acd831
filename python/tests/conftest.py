"""Shared fixtures of the dmaspec Python suite.

The oracle is the CLI (`dmaspec decode --json`, `encode`, `validate`, `lower`, `explain`): every
test compares the package with what the binary prints for the same input. The binary is
`$DMASPEC_CLI`, else `<repo>/target/debug/dmaspec`; without it the whole suite fails (build it
with `cargo build --bin dmaspec` from the repository root).
"""

import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("DMASPEC_CLI", ROOT / "target" / "debug" / "dmaspec"))
WORD = 64


def pytest_sessionstart(session):
    if not (CLI.is_file() and os.access(CLI, os.X_OK)):
        pytest.exit(
            f"the dmaspec CLI, the oracle of these tests, is missing: {CLI}\n"
            f"build it with `cargo build --bin dmaspec` in {ROOT} "
            "(or point DMASPEC_CLI at a dmaspec binary)",
            returncode=1,
        )


class Cli:
    """Runs the dmaspec binary; file arguments are written under a temporary directory."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.n = 0

    def file(self, content, name=None) -> Path:
        self.n += 1
        path = self.tmp / (name or f"in{self.n}")
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(bytes(content))
        return path

    def run(self, *args, stdin=None):
        return subprocess.run(
            [str(CLI), *map(str, args)], input=stdin, capture_output=True, timeout=300
        )

    def ok(self, *args, stdin=None) -> bytes:
        p = self.run(*args, stdin=stdin)
        assert p.returncode == 0, f"dmaspec {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr.decode()}"
        return p.stdout

    def decode(self, data, arch="cayman", struct=None, hex=False):
        """`decode --json`'s `instructions` (or, with struct, `records`) list."""
        path = self.file(data)
        args = ["decode", "--json", "--arch", arch]
        if hex:
            args.append("--hex")
        if struct:
            args += ["--struct", struct]
        doc = json.loads(self.ok(*args, path))
        return doc["records" if struct else "instructions"]

    def encode(self, doc, arch="cayman", validate=True, struct=None):
        """`encode FILE.json`: (exit code, stdout bytes, stderr message lines without `dmaspec: `)."""
        path = self.file(json.dumps(doc), name=f"enc{self.n}.json")
        args = ["encode", "--arch", arch]
        if not validate:
            args.append("--no-validate")
        if struct:
            args += ["--struct", struct]
        p = self.run(*args, path)
        return p.returncode, p.stdout, p.stderr.decode()

    def validate(self, data, arch="cayman", struct=None):
        """`validate`'s stdout lines (one a finding: `--wide`) and its exit code."""
        path = self.file(data)
        args = ["validate", "--wide", "--arch", arch]
        if struct:
            args += ["--struct", struct]
        p = self.run(*args, path)
        assert p.returncode in (0, 1), p.stderr.decode()
        return p.stdout.decode().splitlines(), p.returncode


def message(stderr: str) -> str:
    """The CLI's message: its stderr after `dmaspec: `, without the newline that ends the line."""
    assert stderr.startswith("dmaspec: "), stderr
    assert stderr.endswith("\n"), stderr
    return stderr[len("dmaspec: ") : -1]


def after_name(msg: str, name: str) -> str:
    """The text of a message after the input's name (`x.bin: incomplete word …` → `incomplete word …`)."""
    assert msg.startswith(name + ": "), (msg, name)
    return msg[len(name) + 2 :]


def warnings_of(stderr: str):
    """The CLI's warning texts (after `dmaspec: warning: `), in order."""
    return [l[len("dmaspec: warning: ") :] for l in stderr.splitlines() if l.startswith("dmaspec: warning: ")]


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    return Cli(tmp_path_factory.mktemp("cli"))


@pytest.fixture(scope="session")
def dm():
    import dmaspec

    return dmaspec


@pytest.fixture(scope="session")
def spec(dm):
    return dm.spec()


# ---- random streams: every word kind of an architecture, built as tests/viewer/run.mjs does ----


def word_of(w, rng: random.Random) -> bytearray:
    """One word of kind `w` (a `words` entry of the dictionary): random bytes (half the time
    with about half of them zero, so small values, zero arms and NUL-padded text occur too),
    then its opcode and sub-opcode."""
    b = bytearray(w["size"])
    sparse = rng.random() < 0.5
    for i in range(len(b)):
        b[i] = 0 if sparse and rng.random() < 0.5 else rng.randrange(256)
    for leaf in w["leaves"]:
        if leaf["type"].startswith("ascii") and rng.random() < 0.5:
            n = rng.randrange(leaf["size"])
            for i in range(leaf["size"]):
                b[leaf["offset"] + i] = 0x61 + rng.randrange(26) if i < n else 0
    b[0] = w["opcode"]["value"]
    sub = w["opcode"].get("sub_opcode")
    if sub:
        b[sub["offset"] : sub["offset"] + sub["size"]] = sub["value"].to_bytes(sub["size"], "little")
    return b


def random_words(spec, arch: str, n: int, rng: random.Random):
    """`n` words cycling through every word kind of `arch`; an extension follows one of its
    leads two times in three (else it stands alone), every tenth word has an opcode no word
    of `arch` has."""
    kinds = [w for w in spec["words"] if arch in w["arch"]]
    by_name = {w["name"]: w for w in spec["words"]}
    taken = {w["opcode"]["value"] for w in kinds}
    out = []
    i = 0
    while len(out) < n:
        if i % 10 == 9:
            b = word_of(kinds[0], rng)
            b[0] = rng.choice([op for op in range(256) if op not in taken])
            out.append(bytes(b))
        else:
            # Count only the kinds' turns: with i itself, a multiple of 10 kinds would never
            # reach the kinds whose turn falls on every tenth word (30 on maverick).
            w = kinds[(i - i // 10) % len(kinds)]
            if w["follows"] and rng.randrange(3):
                lead = by_name[rng.choice(w["follows"])]
                if arch in lead["arch"]:
                    out.append(bytes(word_of(lead, rng)))
            out.append(bytes(word_of(w, rng)))
        i += 1
    return out[:n]


def random_records(record, n: int, rng: random.Random):
    out = []
    for _ in range(n):
        sparse = rng.random() < 0.5
        out.append(bytes(0 if sparse and rng.random() < 0.5 else rng.randrange(256) for _ in range(record["size"])))
    return out


def to_hex(chunks) -> str:
    return "".join(c.hex() + "\n" for c in chunks)


# ---- reading one leaf out of decode's JSON ----

_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def leaf_value(fields, path: str):
    """The value decode's JSON shows at `path` (`src_num_elem[0]`, `src_start_addr.marker`),
    an enum's or flag set's `raw`; `KeyError` when the word does not show it (another union arm)."""
    node = fields
    for name, index in _STEP.findall(path):
        if name:
            if not isinstance(node, dict) or name not in node:
                raise KeyError(path)
            node = node[name]
        else:
            node = node[int(index)]
    if isinstance(node, dict) and "raw" in node:
        return node["raw"]
    assert isinstance(node, int), (path, node)
    return node
