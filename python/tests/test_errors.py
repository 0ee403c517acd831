"""Errors: every exception type, with the CLI's message for the same input, and garbage of
every kind either decodes or raises InputError (never a crash)."""

import io
import random

import pytest

from conftest import ROOT, after_name, message

ARCH_MSG = "unknown architecture `foo` (one of: sunda, cayman, mariana, maverick)"


def cli_input_error(cli, data, *args, verb="decode"):
    """The CLI's message for bad input `data`, the text after the file's name."""
    path = cli.file(data, name="bad-input")
    p = cli.run(verb, *args, path)
    assert p.returncode == 1, p.stderr
    return after_name(message(p.stderr.decode()), str(path))


def test_exception_hierarchy(dm):
    for name in ("InputError", "EncodeError", "LowerError", "UsageError"):
        cls = getattr(dm, name)
        assert issubclass(cls, dm.Error), name
        assert issubclass(cls, ValueError), name  # as docs/guide/python.md says
    assert issubclass(dm.Error, Exception)
    assert issubclass(dm.DmaspecWarning, Warning)
    assert not issubclass(dm.EncodeError, dm.UsageError)


@pytest.mark.parametrize("length", [63, 65, 64 * 3 + 10])
def test_truncated_input(dm, cli, length):
    data = bytes([0xB8, 0x10]) + bytes(length - 2)
    expected = cli_input_error(cli, data, "--json")
    assert expected.startswith("incomplete word at byte offset")
    for call in (
        lambda: dm.decode(data),
        lambda: dm.validate(data),
        lambda: dm.column(data, "DMA_DIRECT2D.semaphore"),
    ):
        with pytest.raises(dm.InputError) as e:
            call()
        assert str(e.value) == f"data: {expected}"
    check_lower_input_error(dm, cli, data)


def check_lower_input_error(dm, cli, data):
    """`lower` lists bad input among its problems, as the CLI does (`1 problem(s):` then
    `FILE: …`, after `nothing written; ` when no whole word came before the problem: the
    words before it are written); the input is named `data`."""
    path = cli.file(data, name="bad-lower-input")
    p = cli.run("lower", *(["--hex"] if isinstance(data, str) else []), path)
    assert p.returncode == 1
    if isinstance(data, bytes):
        assert p.stdout == data[: len(data) // 64 * 64]  # passed through unchanged
    head, problem = message(p.stderr.decode()).split("\n")
    assert head == ("1 problem(s):" if p.stdout else "nothing written; 1 problem(s):")
    with pytest.raises((dm.InputError, dm.LowerError)) as e:
        dm.lower(data)
    assert str(e.value) == f"{head}\ndata: {after_name(problem, str(path))}"


def test_truncated_record(dm, cli):
    data = bytes(40)
    expected = cli_input_error(cli, data, "--struct", "SDMA_CME_BD_DESC")
    assert expected == "incomplete SDMA_CME_BD_DESC at byte offset 32 (0x20): 8 of 16 bytes"
    with pytest.raises(dm.InputError) as e:
        dm.decode(data, struct="SDMA_CME_BD_DESC")
    assert str(e.value) == f"data: {expected}"


@pytest.mark.parametrize(
    "text",
    [
        "b8 1g\n",  # 'g' is not a hex digit
        "abc def0\n",  # a run of 3 digits
        "# comment\nb8 10 00\n" + "00" * 61 + "0\n",  # an odd run on line 3
        "b8 10 \u00e9\n",  # a non-ASCII character
    ],
)
def test_bad_hex(dm, cli, text):
    expected = cli_input_error(cli, text, "--hex", "--json")
    assert expected.startswith("hex input line"), expected
    for call in (lambda: dm.decode(text), lambda: dm.validate(text), lambda: dm.column(text, "DMA_DIRECT2D.semaphore")):
        with pytest.raises(dm.InputError) as e:
            call()
        assert str(e.value) == f"data: {expected}"
    check_lower_input_error(dm, cli, text)


def test_bad_hex_in_a_stream_names_the_file(dm, cli):
    text = "b8 10\n" + "0" * 125 + "\n"
    expected = cli_input_error(cli, text, "--hex", "--json")
    assert "a run of 125 hex digits" in expected

    class Named(io.StringIO):
        name = "ring.hex"

    with pytest.raises(dm.InputError) as e:
        list(dm.iter_decode(Named(text)))
    assert str(e.value) == f"ring.hex: {expected}"
    with pytest.raises(dm.InputError) as e:
        list(dm.iter_decode(io.BytesIO(text.encode()), hex=True))
    assert str(e.value) == f"stream: {expected}"
    with pytest.raises(dm.InputError) as e:
        list(dm.iter_decode(io.BytesIO(bytes(100))))
    assert str(e.value) == f"stream: {cli_input_error(cli, bytes(100), '--json')}"


def test_iter_decode_of_a_file_names_it_as_the_cli_does(dm, cli):
    path = cli.file(bytes([0xB8, 0x10]) + bytes(62 + 30), name="cut.bin")
    p = cli.run("decode", "--json", path)
    assert p.returncode == 1
    with open(path, "rb") as f:
        with pytest.raises(dm.InputError) as e:
            list(dm.iter_decode(f))
    assert str(e.value) == message(p.stderr.decode())
    assert str(e.value) == f"{path}: incomplete word at byte offset 64 (0x40): 30 of 64 bytes"


def test_unknown_arch(dm, cli):
    p = cli.run("decode", "--arch", "foo", cli.file(bytes(64)))
    assert p.returncode == 2
    # clap's message: `error: invalid value 'foo' for '--arch <ARCH>': <the parser's message>`
    assert f"'--arch <ARCH>': {ARCH_MSG}\n" in p.stderr.decode()
    word = bytes([0xB8, 0x10]) + bytes(62)
    for call in (
        lambda: dm.decode(word, "foo"),
        lambda: dm.validate(word, "foo"),
        lambda: dm.encode([], "foo"),
        lambda: dm.lower(word, arch="foo"),
        lambda: dm.column(word, "DMA_DIRECT2D.semaphore", "foo"),
        lambda: list(dm.iter_decode(io.BytesIO(word), "foo")),
    ):
        with pytest.raises(dm.UsageError) as e:
            call()
        assert str(e.value) == ARCH_MSG


def test_unknown_struct(dm, cli):
    p = cli.run("decode", "--struct", "FOO", cli.file(bytes(64)))
    assert p.returncode == 2
    expected = message(p.stderr.decode())
    assert expected.startswith("no record (top-level struct) named `FOO`")
    for call in (
        lambda: dm.decode(bytes(64), struct="FOO"),
        lambda: dm.validate(bytes(64), struct="FOO"),
        lambda: dm.encode([], struct="FOO"),
        lambda: list(dm.iter_decode(io.BytesIO(bytes(64)), struct="FOO")),
    ):
        with pytest.raises(dm.UsageError) as e:
            call()
        assert str(e.value) == expected


def encode_failure(cli, doc, **kw):
    rc, out, err = cli.encode(doc, **kw)
    assert rc == 1 and out == b"", err
    return message(err)


@pytest.mark.parametrize(
    "fields,problems",
    [
        ({"bogus": 1}, 1),  # unknown field
        ({"semaphore": 300}, 1),  # does not fit 8 bits
        ({"in_dtype": "NOPE_DT", "src_num_elem": [1, 2, 3]}, 2),  # two errors in one word
    ],
)
def test_encode_field_errors(dm, cli, fields, problems):
    doc = [{"struct": "DMA_DIRECT2D", "fields": fields}]
    expected = encode_failure(cli, {"instructions": doc})
    lines = expected.split("\n")
    assert lines[0] == "nothing written:" and len(lines) == 1 + problems
    with pytest.raises(dm.EncodeError) as e:
        dm.encode(doc)
    assert str(e.value) == expected
    assert e.value.errors == lines[1:]


def test_encode_every_error_at_once(dm, cli):
    doc = [
        {"struct": "DMA_DIRECT2D", "fields": {"semaphore": 300, "bogus": 1}},
        {"struct": "NOPE", "fields": {}},
    ]
    expected = encode_failure(cli, doc)
    with pytest.raises(dm.EncodeError) as e:
        dm.encode(doc)
    assert str(e.value) == expected
    assert e.value.errors[:2] == [
        "instruction 0 (DMA_DIRECT2D): field `semaphore`: 300 does not fit 8 bits (max 255)",
        "instruction 0 (DMA_DIRECT2D): unknown field `bogus`",
    ]
    # an unknown struct far from every name lists the words
    unknown = e.value.errors[2]
    assert unknown.startswith("instruction 1 (NOPE): unknown struct `NOPE` (words: DMA_DIRECT2D, ")
    assert unknown.endswith(", S3D3_COLLECTIVE)") and len(e.value.errors) == 3
    # the same list however the instructions are given
    with pytest.raises(dm.EncodeError) as e2:
        dm.encode({"instructions": doc})
    assert e2.value.errors == e.value.errors


@pytest.mark.parametrize(
    "doc,arch",
    [
        ([{"struct": "DMA_DIRECT2D", "fields": {"header": {"inst_word_len": 3}}}], "cayman"),
        ([{"struct": "PSEUDO_DMA_EXT", "fields": {}}], "cayman"),  # an extension on its own
        ([{"struct": "DMA_DIRECT2D_XPOSE", "fields": {}}], "sunda"),  # no such word in sunda
    ],
)
def test_encode_refuses_what_validate_rejects(dm, cli, doc, arch):
    expected = encode_failure(cli, doc, arch=arch)
    assert expected.startswith("nothing written:")
    with pytest.raises(dm.EncodeError) as e:
        dm.encode(doc, arch)
    assert str(e.value) == expected
    assert e.value.errors and all(l in expected.split("\n") for l in e.value.errors)
    # --no-validate writes what encodes
    rc, out, err = cli.encode(doc, arch=arch, validate=False)
    assert rc == 0 and len(out) == 64, err
    assert dm.encode(doc, arch, validate=False) == out


def test_lower_unknown_abi(dm, cli):
    p = cli.run("lower", "--abi", "v9", cli.file(bytes(64)))
    assert p.returncode == 2
    expected = message(p.stderr.decode())
    assert expected == "unknown --abi `v9` (one of: v2, v3)"
    with pytest.raises(dm.UsageError) as e:
        dm.lower(bytes(64), abi="v9")
    assert str(e.value) == expected


def test_lower_missing_variable(dm, cli):
    sample = (ROOT / "samples/dge_stream.hex").read_text()
    p = cli.run("lower", "--hex", ROOT / "samples/dge_stream.hex")
    assert p.returncode == 1 and p.stdout == b""
    expected = message(p.stderr.decode())
    lines = expected.split("\n")
    assert lines[0] == "nothing written; 1 problem(s):"
    assert "variable 0 (offset 0x2) is not in the variable table" in lines[1]
    for vars in (None, {}, {1: 0x1000}):
        with pytest.raises(dm.LowerError) as e:
            dm.lower(sample, vars=vars)
        assert str(e.value) == expected
        assert e.value.errors == lines[1:]


def test_explain_garbage(dm, cli):
    for what in ("garbage", "0x00", "DMA_DIRECT2D.nope", ""):
        p = cli.run("explain", what)
        assert p.returncode == 2, what
        with pytest.raises(dm.UsageError) as e:
            dm.explain(what)
        assert str(e.value) == message(p.stderr.decode()), what


def test_garbage_never_crashes(dm):
    rng = random.Random("garbage")
    decoded = 0
    for _ in range(400):
        n = rng.choice([0, 1, 17, 63, 64, 65, 127, 128, 200, 640, rng.randrange(2048)])
        data = rng.randbytes(n)
        for arch in ("sunda", "maverick"):
            try:
                got = dm.decode(data, arch)
            except dm.InputError:
                assert n % 64, n
            else:
                assert n % 64 == 0 and len(got) == n // 64
                decoded += 1
            try:
                dm.validate(data, arch)
            except dm.InputError:
                assert n % 64
        try:
            dm.decode(data, struct="SDMA_CCE_DESC")
        except dm.InputError:
            assert n % 16
    assert decoded > 50


def test_garbage_text_never_crashes(dm):
    rng = random.Random("garbage-text")
    alphabet = "0123456789abcdefABCDEF \n\t#xyz\u00e9\ufeff\x00-"
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(300)))
        try:
            got = dm.decode(text)
        except dm.InputError as e:
            assert str(e).startswith("data: "), str(e)
        else:
            assert isinstance(got, list)


def test_garbage_encode_equals_cli(dm, cli):
    """Hand-made garbage instructions: the package writes the CLI's bytes or raises the CLI's
    message (every problem of the list at once), never crashes."""
    rng = random.Random("garbage-encode")
    values = [0, -1, 255, 2**64, 2**70, "x", "FP32", None, [], [1, 2], {}, {"raw": 3}, 1.5, True, "00" * 64]
    names = ["header", "semaphore", "src_num_elem", "in_dtype", "src_start_addr", "bogus", "raw_hex", "word0"]
    structs = ["DMA_DIRECT2D", "PSEUDO_DMA_EXT", "SDMA_CCE_DESC", "NOPE", None, 5]
    outcomes = set()
    for case in range(40):
        doc = []
        for _ in range(rng.randrange(1, 4)):
            fields = {rng.choice(names): rng.choice(values) for _ in range(rng.randrange(3))}
            doc.append(rng.choice([{"struct": rng.choice(structs), "fields": fields}, fields, rng.choice(values)]))
        validate = rng.random() < 0.5
        rc, out, err = cli.encode(doc, validate=validate)
        try:
            got = dm.encode(doc, validate=validate)
        except dm.EncodeError as e:
            assert rc == 1, (doc, err)
            assert str(e) == message(err), doc
            outcomes.add("error")
        else:
            assert rc == 0 and got == out, (doc, err)
            outcomes.add("bytes")
    assert outcomes == {"error", "bytes"}


@pytest.mark.parametrize("doc", [{"foo": []}, "text", 42, {"records": []}])
def test_encode_of_no_instruction_list(dm, cli, doc):
    """Not a list nor a document with `instructions`: the CLI's message (after the name of
    what it read, the file for the CLI), raised as an EncodeError like every encode error."""
    rc, out, err = cli.encode(doc)
    assert rc == 1 and out == b""
    cli_name, text = message(err).split(": ", 1)
    assert cli_name.endswith(".json") and text == "expected an `instructions` list"
    with pytest.raises(dm.EncodeError) as e:
        dm.encode(doc)
    assert str(e.value).split(": ", 1)[1] == text
