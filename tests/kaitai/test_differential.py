"""The Kaitai Struct parsers against dmaspec's own decoder.

Random words of every kind, per architecture, and random records of every record kind are
decoded twice: by the Python parsers kaitai-struct-compiler made from generated/kaitai/
(target/kaitai/python, written by tests/kaitai/compile.mjs; runtime: PyPI's kaitaistruct)
and by `dmaspec decode --json`; a stream of them is also read by dmaspec_stream.ksy, which
must pick the word decode picks. Every leaf the CLI prints (integers, enumerators by value
and name, flag sets, text, the union arm it took, joined values) must read the same through
the Kaitai object, and every leaf of the dictionary's word (of the arms taken) must have
been compared.

Usage: DMASPEC_CLI=target/debug/dmaspec python -m pytest tests/kaitai/test_differential.py
(SEED and KAITAI_WORDS, words per kind and architecture, change the run.)
"""

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("DMASPEC_CLI", str(ROOT / "target/debug/dmaspec"))
PARSERS = ROOT / "target/kaitai/python"
SPEC = json.loads((ROOT / "generated/dmaspec.json").read_text())
PER_KIND = int(os.environ.get("KAITAI_WORDS", "40"))
SEED = int(os.environ.get("SEED", "0x5eed1e55"), 0)
ARCHS = [a["name"] for a in SPEC["archs"]]


class XorShift32:
    """The viewer test's generator (tests/viewer/run.mjs), so a seed means the same there."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF or 1

    def __call__(self):
        s = self.state
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.state = s
        return s

    def bytes(self, n):
        """Random bytes, half the time with about half of them zero (small values, zero
        arms and NUL-padded text occur too)."""
        sparse = self() % 2 == 0
        return bytearray(0 if sparse and self() % 2 else self() & 0xFF for _ in range(n))


def kaitai_id(name):
    return name.lower()


def class_name(ksy_id):
    """kaitai-struct-compiler's Python class name for a type id."""
    return "".join(p[:1].upper() + p[1:] for p in ksy_id.split("_"))


def load_parsers():
    """Every compiled module, by id. Some ids are also standard modules (`opcode.ksy` is
    opcode.py): those are set aside while the parsers import each other, then restored."""
    if not PARSERS.is_dir():
        pytest.fail(f"{PARSERS} is missing: run `node tests/kaitai/compile.mjs` first")
    ids = [p.stem for p in PARSERS.glob("*.py")]
    saved = {i: sys.modules.pop(i) for i in ids if i in sys.modules}
    sys.path.insert(0, str(PARSERS))
    try:
        modules = {i: importlib.import_module(i) for i in ids}
    finally:
        sys.path.remove(str(PARSERS))
        for i in ids:
            sys.modules.pop(i, None)
        sys.modules.update(saved)
    return {i: getattr(m, class_name(i)) for i, m in modules.items()}


PARSER = load_parsers()
WORDS = {w["name"]: w for w in SPEC["words"]}
OPCODES = {w["opcode"]["value"] for w in SPEC["words"]}
# The top-level fields of each word or record whose stored 0 means another value.
CODECS = {
    t["name"]: [(f["name"], f["codec"]["zero_means"]) for f in t["fields"] if f["codec"]]
    for t in SPEC["types"]
    if t["kind"] == "struct" and t["name"] in {x["name"] for x in SPEC["words"] + SPEC["records"]}
}
TOP = {t["name"]: t for t in SPEC["words"] + SPEC["records"]}
FLAGS = {
    class_name(kaitai_id(t["name"])): t for t in SPEC["types"] if t["kind"] == "flags"
}
# (enumerator id, value) pairs an architecture does not have: decode names them null there,
# a Kaitai enum (one for every architecture) still names them.
OFF_ARCH = {
    arch: {
        (e["name"].lower(), e["value"])
        for t in SPEC["types"]
        if t["kind"] == "enum"
        for e in t["values"]
        if e["arch"] and arch not in e["arch"]
    }
    for arch in ARCHS
}


class Comparison:
    """One word's comparison: where it differs, and the leaf paths it compared."""

    def __init__(self, arch):
        self.arch = arch
        self.leaves = set()
        self.problems = []

    def fail(self, path, cli, ours):
        self.problems.append(f"{path}: decode --json {cli!r}, Kaitai {ours!r}")

    def leaf(self, path, ok, cli, ours):
        self.leaves.add(re.sub(r"\[\d+\]", "", path))
        if not ok:
            self.fail(path, cli, ours)

    def value(self, path, cli, ks):
        if isinstance(cli, dict) and set(cli) == {"raw", "name"}:
            self.enumerator(path, cli, ks)
        elif isinstance(cli, dict) and set(cli) == {"raw", "flags"}:
            self.flags(path, cli, ks)
        elif isinstance(cli, dict) and set(cli) == {"text", "raw_hex"}:
            self.leaf(path, ks.hex() == cli["raw_hex"], cli, ks)
        elif isinstance(cli, dict) and hasattr(ks, "variant") and hasattr(ks, "arm"):
            self.union(path, cli, ks)
        elif isinstance(cli, dict):
            for key, v in cli.items():
                self.value(f"{path}.{key}" if path else key, v, getattr(ks, key))
        elif isinstance(cli, list) and cli and isinstance(cli[0], (dict, list)):
            if len(cli) != len(ks):
                self.fail(path, len(cli), len(ks))
            for i, (c, k) in enumerate(zip(cli, ks)):
                self.value(f"{path}[{i}]", c, k)
        elif isinstance(cli, list):
            self.leaf(path, [int(k) for k in ks] == cli, cli, ks)
        elif isinstance(cli, str):
            text = cli.encode("ascii")
            self.leaf(path, ks == text + bytes(len(ks) - len(text)), cli, ks)
        else:
            self.leaf(path, not isinstance(ks, (bytes, list)) and int(ks) == cli, cli, ks)

    def enumerator(self, path, cli, ks):
        name = getattr(ks, "name", None)
        if cli["name"] is not None:
            ok = name == cli["name"].lower()
        else:
            ok = name is None or (name, cli["raw"]) in OFF_ARCH[self.arch]
        self.leaf(path, int(ks) == cli["raw"] and ok, cli, ks)

    def flags(self, path, cli, ks):
        bits = FLAGS[type(ks).__name__]["bits"]
        named = [b["name"] for b in bits if getattr(ks, b["name"].lower())]
        self.leaf(path, ks.raw == cli["raw"] and named == cli["flags"], cli, (ks.raw, named))

    def union(self, path, cli, ks):
        arm = ks.variant.name
        if arm not in cli:
            self.fail(f"{path} (arm)", sorted(cli), arm)
            return
        self.leaves.add(re.sub(r"\[\d+\]", "", f"{path}.{arm}"))
        for key, v in cli.items():
            self.value(f"{path}.{key}", v, ks.arm if key == arm else getattr(ks, key))


def at(ks, path):
    """The member at a dotted path (`timestamp.ps`, `a[1].b`; a union's arm by name)."""
    for part in path.split("."):
        name, _, index = part.partition("[")
        is_union = hasattr(ks, "variant") and hasattr(ks, "arm")
        ks = ks.arm if is_union and ks.variant.name == name else getattr(ks, name)
        if index:
            ks = ks[int(index.rstrip("]"))]
    return ks


def expected_leaves(top, taken):
    """The dictionary's leaf paths of `top` (array indices dropped) in the arms taken."""
    out = set()
    for leaf in top["leaves"]:
        variant = leaf["variant"] and re.sub(r"\[\d+\]", "", leaf["variant"])
        if variant is None or variant in taken:
            out.add(re.sub(r"\[\d+\]", "", leaf["path"]))
    return out


def compare(obj, arch, data, counts):
    """Decodes `data` (the bytes decode --json's object `obj` is about) with the Kaitai
    parser of the struct decode chose and compares; returns the problems."""
    name = obj["struct"]
    ks = PARSER[kaitai_id(name)].from_bytes(bytes(data))
    c = Comparison(arch)
    c.value("", obj["fields"], ks)
    for path, joined in (obj.get("joined") or {}).items():
        ours = at(ks, path)
        c.leaf(path, ours == joined["value"], joined, ours)
    # A stored 0 that means another value: the `_value` instance beside the stored field.
    for field, means in CODECS.get(name, []):
        stored = obj["fields"][field]
        ours = getattr(ks, f"{field}_value")
        c.leaf(f"{field}_value", ours == (stored or means), stored, ours)
    want = expected_leaves(TOP[name], c.leaves)
    missing = sorted(want - c.leaves)
    if missing:
        c.problems.append(f"leaves of {name} never compared: {missing[:5]}")
    counts["leaves"] += len(c.leaves)
    counts["items"] += 1
    return [f"{name} at offset {obj['offset']} ({arch}): {p}" for p in c.problems]


def decode(arch, data, record=None):
    args = [CLI, "decode", "--json", "--arch", arch, "-q"]
    if record:
        args += ["--struct", record]
    run = subprocess.run(args, input=bytes(data), capture_output=True, check=True)
    return json.loads(run.stdout)["records" if record else "instructions"]


def word_of(rand, w):
    b = rand.bytes(64)
    b[0] = w["opcode"]["value"]
    sub = w["opcode"].get("sub_opcode")
    if sub:
        b[sub["offset"] : sub["offset"] + sub["size"]] = sub["value"].to_bytes(sub["size"], "little")
    return b


def report(problems):
    assert not problems, f"{len(problems)} differences, the first:\n" + "\n".join(problems[:10])


@pytest.mark.parametrize("arch", ARCHS)
def test_random_words_read_the_same(arch):
    rand = XorShift32(SEED ^ ARCHS.index(arch))
    kinds = [w for w in SPEC["words"] if arch in w["arch"]]
    words = []
    for _ in range(PER_KIND):
        for w in kinds:
            # An extension is decoded only right after one of its leads.
            if w["follows"]:
                words.append(word_of(rand, WORDS[w["follows"][rand() % len(w["follows"])]]))
            words.append(word_of(rand, w))
        # An opcode no word has, on any architecture.
        b = rand.bytes(64)
        b[0] = next(op for op in range(rand() & 0xFF, 0x200) if op & 0xFF not in OPCODES) & 0xFF
        words.append(b)
    objs = decode(arch, b"".join(words))
    assert len(objs) == len(words)
    counts = {"leaves": 0, "items": 0}
    problems = []
    stream = PARSER["dmaspec_stream"].from_bytes(b"".join(words)).words
    assert len(stream) == len(words)
    for obj, data, ks in zip(objs, words, stream):
        if obj["struct"] is not None:
            problems += compare(obj, arch, data, counts)
        # The stream file picks the word decode picks (none for an opcode no word has).
        kind = getattr(ks.kind, "name", None)
        if kind != (obj["struct"] and kaitai_id(obj["struct"])):
            problems.append(f"offset {obj['offset']} ({arch}): decode read {obj['struct']}, the stream {kind}")
    report(problems)
    decoded = {o["struct"] for o in objs}
    assert {w["name"] for w in kinds} <= decoded, "a kind was never decoded"
    print(f"{arch}: {counts['items']} words of {len(kinds)} kinds, {counts['leaves']} leaves compared")


@pytest.mark.parametrize("record", [r["name"] for r in SPEC["records"]])
def test_random_records_read_the_same(record):
    size = TOP[record]["size"]
    counts = {"leaves": 0, "items": 0}
    problems = []
    for arch in ARCHS:
        rand = XorShift32(SEED ^ ARCHS.index(arch) ^ size)
        records = [rand.bytes(size) for _ in range(PER_KIND * 4)]
        objs = decode(arch, b"".join(records), record)
        assert len(objs) == len(records)
        for obj, data in zip(objs, records):
            problems += compare(obj, arch, data, counts)
    report(problems)
    print(f"{record}: {counts['items']} records, {counts['leaves']} leaves compared")
