"""One line per word: ``Word.asm()`` is ``decode --asm``'s line and ``dmaspec.assemble`` is
``encode --asm``. The real pool.bin and pe.bin (tests/vectors/neff_c08220, written by hand from
the page "Per-Engine TPB-Sequencer Microcode (64-byte word)" §7.1 and §7.2) give the producer's
pool.asm and pe.asm lines; random words of every kind come back as the same bytes."""

import random

import pytest

from conftest import ROOT, random_words, to_hex

VECTORS = ROOT / "tests" / "vectors" / "neff_c08220"

# §7.1 and §7.2: "This reproduces `pe.asm` / `pool.asm` **exactly**".
PE_ASM = [
    "PSEUDO_TRIGGER_COLLECTIVE $S[10]>0 $S[22]++@complete ctype=ALL_REDUCE input_tensor_id=3 "
    "output_tensor_id=4 num_elements=32 dtype=fp32 op=ADD group_id=0;"
]
POOL_ASM = [
    "PSEUDO_DMA_TRIGGER q_gradient_in block_id=0;",
    "PSEUDO_DMA_TRIGGER $S[22]>0 q_gradient_out block_id=0;",
    "EVENT_SEMAPHORE $S[11]>0;",
]


@pytest.mark.parametrize(("name", "lines"), [("pe.hex", PE_ASM), ("pool.hex", POOL_ASM)])
def test_the_real_streams_print_the_producers_lines(dm, cli, name, lines):
    text = (VECTORS / name).read_text(encoding="utf-8")
    words = dm.decode(text)
    assert [w.asm() for w in words] == lines
    assert dm.assemble("\n".join(lines)) == b"".join(w.raw for w in words)
    # The CLI prints the same lines.
    assert cli.ok("decode", "--hex", "--asm", cli.file(text)).decode().splitlines() == lines


def test_random_words_of_every_kind_round_trip(dm, spec):
    rng = random.Random(40)
    for arch in dm.ARCHS:
        stream = b"".join(random_words(spec, arch, 200, rng))
        lines = [w.asm() for w in dm.decode(stream, arch)]
        assert dm.assemble("\n".join(lines), arch) == stream


def test_a_bad_line_is_an_encode_error_naming_line_and_column(dm):
    with pytest.raises(dm.EncodeError) as e:
        dm.assemble("# pool\nEVENT_SEMAPHORE $S[11]>0;\nPSEUDO_DMA_TRIGGER q block_id=x;\n")
    assert e.value.errors == ["line 3, column 31: expected a number for u32, got `x`"]


def test_a_record_has_no_line(dm):
    (record,) = dm.decode(to_hex([bytes(16)]), struct="SDMA_CME_BD_DESC")
    with pytest.raises(ValueError, match="no line"):
        record.asm()
