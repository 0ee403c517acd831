#!/usr/bin/env python3
"""Rebuilds the fuzz seed corpora (fuzz/corpus/*/seed-*) from the golden vectors and spec/.

stream_decode: every tests/vectors/*.hex word alone, the sample stream, and the sample
stream cut mid-word. spec_loader: every spec file outside klr/ as the one extra file
(mode byte 0x00) and three word files as a replacement inside the real spec (mode 0xff +
the file's index among the spec files outside klr/, as the target counts them), and eight
fixed pseudo-random inputs for the structure-aware mode (0xfe), which renders a spec tree.
lower: every vector alone, the pseudo + extension pair, the sample stream, and the sample
stream with 8 trailing bytes (which seed the target's variable table).
encode_text: `dmaspec decode --json` of every vector and of the sample stream, and
`dmaspec lower --json` of the sample stream (its `from` keys are read past). The binary is
run with `cargo run`, or taken from $DMASPEC.
"""
import os
import pathlib
import random
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def hex_bytes(path):
    text = "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())
    return bytes.fromhex(re.sub(r"\s+", "", text))


def write(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / f"seed-{name}").write_bytes(data)


def dmaspec(*args, stdin):
    cmd = [os.environ["DMASPEC"]] if "DMASPEC" in os.environ else ["cargo", "run", "-q", "--"]
    return subprocess.run(cmd + list(args), input=stdin, cwd=ROOT, capture_output=True, check=True).stdout


def main():
    for old in CORPUS.glob("*/seed-*"):
        old.unlink()
    vectors = ROOT / "tests" / "vectors"
    for vec in sorted(vectors.glob("*.hex")):
        write("stream_decode", vec.stem, hex_bytes(vec))
        write("lower", vec.stem, hex_bytes(vec))
        write("encode_text", vec.stem, dmaspec("decode", "--json", "--hex", stdin=vec.read_bytes()))
    pair = hex_bytes(vectors / "pseudo_dma_direct2d.hex") + hex_bytes(vectors / "pseudo_dma_ext.hex")
    write("lower", "pseudo_with_ext", pair)
    sample = hex_bytes(ROOT / "samples" / "dge_stream.hex")
    write("stream_decode", "sample_stream", sample)
    write("stream_decode", "sample_stream_truncated", sample[: len(sample) - 23])
    write("lower", "sample_stream", sample)
    write("lower", "sample_stream_vars", sample + bytes(range(1, 9)))
    write("encode_text", "sample_stream", dmaspec("decode", "--json", stdin=sample))
    vars_file = str(ROOT / "samples" / "dge_vars.toml")
    write("encode_text", "sample_lowered", dmaspec("lower", "--json", "--vars", vars_file, stdin=sample))

    spec = ROOT / "spec"
    files = sorted(p for p in spec.rglob("*.toml") if not p.relative_to(spec).as_posix().startswith("klr/"))
    deep = {"words/dma_direct2d.toml", "words/pseudo_dma_ext.toml", "words/pseudo_dma_trigger.toml"}
    for i, f in enumerate(files):
        rel = f.relative_to(spec).as_posix()
        name = rel.replace("/", "_").removesuffix(".toml")
        text = f.read_bytes()
        write("spec_loader", name, b"\x00" + text)
        if rel in deep:
            write("spec_loader", "replace_" + name, bytes([0xFF, i]) + text)
    # The structure-aware mode (0xfe): the bytes only steer the tree generator, so fixed
    # pseudo-random ones are as good a start as any.
    rng = random.Random(11)
    for i in range(8):
        write("spec_loader", f"tree_{i}", b"\xfe" + bytes(rng.randrange(256) for _ in range(4096)))


if __name__ == "__main__":
    main()
