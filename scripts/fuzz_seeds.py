#!/usr/bin/env python3
"""Rebuilds the fuzz seed corpora (fuzz/corpus/*/seed-*) from the golden vectors and spec/.

stream_decode: every tests/vectors/*.hex word alone, the sample stream, and the sample
stream cut mid-word. spec_loader: every spec file as the one extra file (mode byte 0x00)
and, for the word files, as a replacement inside the whole real spec (mode 0xe0 + index).
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def hex_bytes(path):
    text = "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())
    return bytes.fromhex(re.sub(r"\s+", "", text))


def write(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / f"seed-{name}").write_bytes(data)


def main():
    for old in CORPUS.glob("*/seed-*"):
        old.unlink()
    for vec in sorted((ROOT / "tests" / "vectors").glob("*.hex")):
        write("stream_decode", vec.stem, hex_bytes(vec))
    sample = hex_bytes(ROOT / "samples" / "dge_stream.hex")
    write("stream_decode", "sample_stream", sample)
    write("stream_decode", "sample_stream_truncated", sample[: len(sample) - 23])

    spec = ROOT / "spec"
    files = sorted(p for p in spec.rglob("*.toml"))
    for i, f in enumerate(files):
        rel = f.relative_to(spec).as_posix()
        name = rel.replace("/", "_").removesuffix(".toml")
        text = f.read_bytes()
        write("spec_loader", name, b"\x00" + text)
        if rel.startswith("words/"):
            write("spec_loader", "replace_" + name, bytes([0xE0, i]) + text)


if __name__ == "__main__":
    main()
