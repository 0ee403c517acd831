"""Random streams of every word kind (and random records), per architecture, against the CLI:
decode equals `decode --json`, encode gives the bytes back and equals `encode`'s bytes, validate
equals `validate`'s lines."""

import json
from collections.abc import Mapping
import random
import warnings

import pytest

from conftest import ROOT, WORD, random_records, random_words, to_hex, warnings_of

WORDS = 1000  # per architecture: every kind about 40 times


def first_difference(got, expected):
    assert len(got) == len(expected), f"{len(got)} entries, the CLI {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        if g != e:
            keys = sorted(set(g) | set(e))
            bad = [k for k in keys if g.get(k) != e.get(k)]
            return f"entry #{i} ({e.get('struct')}): keys {bad} differ: {[(k, g.get(k), e.get(k)) for k in bad[:2]]}"
    return None


def validate_lines(problems):
    """validate()'s dicts written as the CLI writes them."""
    out = []
    for p in problems:
        assert set(p) == {"index", "offset", "severity", "message"}, p
        assert p["severity"] in ("error", "undecided", "warning", "not checked"), p
        label = "" if p["severity"] == "error" else p["severity"] + ": "
        out.append(f"offset {p['offset']} {label}{p['message']}")
    return out


@pytest.fixture(scope="module", params=["sunda", "cayman", "mariana", "maverick"])
def stream(request, spec, cli):
    arch = request.param
    words = random_words(spec, arch, WORDS, random.Random(f"roundtrip-{arch}"))
    data = b"".join(words)
    return arch, words, data, cli.decode(data, arch)


def test_archs_are_the_dictionarys(dm, spec):
    assert dm.ARCHS == tuple(a["name"] for a in spec["archs"]) == ("sunda", "cayman", "mariana", "maverick")
    assert isinstance(dm.__version__, str) and dm.__version__


def test_stream_covers_every_kind(stream, spec):
    arch, _, _, expected = stream
    kinds = {e["struct"] for e in expected}
    assert kinds - {None} == {w["name"] for w in spec["words"] if arch in w["arch"]}
    assert None in kinds  # the words with an opcode no word has


def test_decode_equals_cli(dm, stream):
    arch, words, data, expected = stream
    got = dm.decode(data, arch)
    assert isinstance(got, list) and all(isinstance(d, Mapping) for d in got)
    assert all(type(d) is dm.Word for d in got)  # lazy words, equal to the CLI's dicts
    assert got == expected, first_difference(got, expected)
    assert [d.to_dict() for d in got] == expected
    assert all(type(d.to_dict()) is dict for d in got)
    assert json.dumps([d.to_dict() for d in got]) == json.dumps(expected)  # the keys in the CLI's order too
    assert json.dumps(got, default=dict) == json.dumps(expected)
    # every bytes-like input reads the same, and so does the hex text of the same words
    assert dm.decode(bytearray(data), arch) == expected
    assert dm.decode(memoryview(data), arch) == expected
    assert dm.decode(to_hex(words), arch) == expected


def test_encode_of_decode_gives_the_bytes(dm, stream):
    arch, _, data, expected = stream
    got = dm.encode(dm.decode(data, arch), arch, validate=False)
    assert isinstance(got, bytes)
    assert got == data
    assert dm.encode({"instructions": expected}, arch, validate=False) == data


def test_encode_equals_cli_bytes_and_warnings(dm, cli, stream):
    arch, _, data, expected = stream
    rc, out, err = cli.encode({"instructions": expected}, arch)
    assert rc == 0, err
    assert out == data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = dm.encode(expected, arch)
    assert got == out
    cli_warnings = warnings_of(err)
    assert cli_warnings, "a random stream has words with violations: the CLI warns"
    assert [str(w.message) for w in caught if issubclass(w.category, dm.DmaspecWarning)] == cli_warnings
    assert issubclass(dm.DmaspecWarning, Warning)


def test_validate_equals_cli(dm, cli, stream):
    arch, _, data, _ = stream
    lines, rc = cli.validate(data, arch)
    got = dm.validate(data, arch)
    assert validate_lines(got) == lines
    assert rc == 1 and any(p["severity"] == "error" for p in got)
    assert any(p["severity"] == "warning" for p in got)  # compiler rules broken too
    for p in got:
        assert p["offset"] == p["index"] * WORD


def test_validate_of_a_valid_word_is_empty(dm, cli):
    # tests/vectors/dma_direct2d_xpose.hex: a valid cayman word (supp-field-tables §2.3)
    text = (ROOT / "tests/vectors/dma_direct2d_xpose.hex").read_text()
    data = dm.encode(dm.decode(text, "cayman"), "cayman")
    assert len(data) == WORD
    assert cli.validate(data, "cayman") == ([], 0)
    assert dm.validate(data, "cayman") == []
    assert dm.validate(text, "cayman") == []


def test_a_word_outside_the_family_is_not_checked(dm, cli):
    # The carved NEFF's pool.bin (wiki-seq-microcode §7.2): its third slot is EVENT_SEMAPHORE
    # 0xA0, an SP control op the spec names but lays out no word for.
    text = (ROOT / "tests/vectors/neff_c08220/pool.hex").read_text()
    data = dm.encode(dm.decode(text, "cayman"), "cayman")
    got = dm.validate(data, "cayman")
    assert [(p["offset"], p["severity"]) for p in got] == [(128, "not checked")]
    assert "0xa0 EVENT_SEMAPHORE" in got[0]["message"]
    assert cli.validate(data, "cayman") == (validate_lines(got), 0)


@pytest.mark.parametrize("arch", ["cayman", "maverick"])
def test_records_round_trip(dm, cli, spec, arch):
    for record in spec["records"]:
        name = record["name"]
        recs = random_records(record, 300, random.Random(f"records-{name}-{arch}"))
        data = b"".join(recs)
        expected = cli.decode(data, arch, struct=name)
        got = dm.decode(data, arch, struct=name)
        assert got == expected, first_difference(got, expected)
        assert dm.decode(to_hex(recs), arch, struct=name) == expected
        assert dm.encode(got, arch, validate=False, struct=name) == data
        assert dm.encode({"records": got}, arch, struct=name) == data
        rc, out, err = cli.encode({"records": expected}, arch, struct=name)
        assert rc == 0 and out == data, err
        lines, _ = cli.validate(data, arch, struct=name)
        assert validate_lines(dm.validate(data, arch, struct=name)) == lines
