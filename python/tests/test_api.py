"""spec, explain and lower against the dictionary and the CLI."""

import json
import random
import re
from pathlib import Path

import pytest

from conftest import ROOT, message, random_words

SAMPLE = ROOT / "samples" / "dge_stream.hex"
VARS = ROOT / "samples" / "dge_vars.toml"


def test_spec_is_the_dictionary(dm):
    with open(ROOT / "generated" / "dmaspec.json", encoding="utf-8") as f:
        expected = json.load(f)
    got = dm.spec()
    assert got == expected
    assert got["format"].startswith("dmaspec/")
    # a fresh object each time: changing one does not change the next
    got["words"].clear()
    assert dm.spec() == expected


@pytest.mark.parametrize(
    "what",
    [
        "0xd4",
        "DMA_INDIRECT1D",
        "DMAMEMCPY",
        "DTYPE",
        "DMA_INDIRECT1D.flags.gather_dim",
        "DMA_DIRECT2D.src_num_elem[0]",
        "SDMA_CME_BD_DESC.meta_ctrl.op",
        "0xc7",  # a gap: known but not specified
        "INDIRECT_BOUND_CHECK",  # an older spec name
    ],
)
def test_explain_equals_cli(dm, cli, what):
    expected = cli.ok("explain", what).decode("utf-8")
    got = dm.explain(what)
    assert isinstance(got, str)
    assert got == expected


def binary(hex_path: Path) -> bytes:
    return bytes.fromhex("".join(l.split("#", 1)[0] for l in hex_path.read_text().splitlines()))


def test_lower_sample(dm, cli, tmp_path):
    data = binary(SAMPLE)
    expected = cli.ok("lower", "--vars", VARS, cli.file(data))
    assert len(expected) % 64 == 0 and expected != data
    assert dm.lower(data, vars={0: 0x2000_0000}) == expected
    assert dm.lower(SAMPLE.read_text(), vars={0: 0x2000_0000}) == expected  # hex text in
    assert dm.lower(data, vars={"0": "0x20000000"}) == expected  # as a --vars JSON file writes it
    assert dm.lower(data, vars=str(VARS)) == expected
    assert dm.lower(data, vars=VARS) == expected  # a PathLike
    js = tmp_path / "vars.json"
    js.write_text(json.dumps({"vars": {"0": "0x20000000"}}))
    assert cli.ok("lower", "--vars", js, cli.file(data)) == expected
    assert dm.lower(data, vars=js) == expected
    doc = json.loads(cli.ok("lower", "--json", "--vars", VARS, cli.file(data)))
    assert dm.lower(data, vars={0: 0x2000_0000}, json=True) == doc["instructions"]
    assert all("from" in w for w in doc["instructions"])
    for abi in ("v2", "v3"):
        assert dm.lower(data, vars={0: 0x2000_0000}, abi=abi) == cli.ok(
            "lower", "--abi", abi, "--vars", VARS, cli.file(data)
        )


def test_lower_vars_file_errors_are_the_clis(dm, cli, tmp_path):
    data = binary(SAMPLE)
    bad = tmp_path / "bad_vars.toml"
    bad.write_text("0 = \n")
    p = cli.run("lower", "--vars", bad, cli.file(data))
    assert p.returncode == 1
    with pytest.raises(dm.Error) as e:
        dm.lower(data, vars=bad)
    assert str(e.value) == message(p.stderr.decode())
    missing = tmp_path / "missing.toml"
    p = cli.run("lower", "--vars", missing, cli.file(data))
    with pytest.raises(dm.Error) as e:
        dm.lower(data, vars=missing)
    assert str(e.value) == message(p.stderr.decode())


def test_lower_random_streams_equal_cli(dm, cli, spec):
    """Random pseudo words (every dge_op, with and without their extension) among the other
    kinds: the same bytes, or the same error list, as the CLI."""
    rng = random.Random("lower")
    outcomes = set()
    for arch in ("sunda", "cayman"):
        for case in range(12):
            words = random_words(spec, arch, 12, rng)
            # a few well-formed pseudo words: dge_op 0..3 with an immediate source
            pseudo = next(w for w in spec["words"] if w["name"] == "PSEUDO_DMA_DIRECT2D")
            for _ in range(case % 3):
                w = bytearray(64)
                w[0], w[1], w[15] = pseudo["opcode"]["value"], 0x10, rng.randrange(4)
                words.insert(rng.randrange(len(words) + 1), bytes(w))
            data = b"".join(words)
            vars = {v: 0x1000 * (v + 1) for v in range(0, 256, 3)}
            vfile = cli.file(json.dumps({str(k): v for k, v in vars.items()}), name=f"vars{case}.json")
            p = cli.run("lower", "--arch", arch, "--vars", vfile, cli.file(data))
            try:
                got = dm.lower(data, arch=arch, vars=vars)
            except dm.LowerError as e:
                assert p.returncode == 1, p.stderr
                assert str(e) == message(p.stderr.decode())
                # "[nothing written; ]N problem(s):": the words before the first failure
                # are written, so the head is there only when it is the first word.
                counted = re.match(r"(?:nothing written; )?(\d+) problem\(s\):", str(e))
                assert counted, str(e)
                assert len(e.errors) == int(counted[1])
                outcomes.add("error")
            else:
                assert p.returncode == 0, p.stderr
                assert got == p.stdout
                outcomes.add("lowered")
    assert outcomes == {"error", "lowered"}
