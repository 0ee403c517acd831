"""iter_decode: the same dicts as decode, one at a time, from binary or hex readers that return
short reads, and in constant memory over a long synthesised stream."""

import io
import random
import tracemalloc

import pytest

from conftest import WORD, random_records, random_words, to_hex

MB = 1 << 20


class ShortReader:
    """A file-like object whose read(n) returns between 1 and min(n, 300) items (random
    sizes: words, hex runs and pairs split anywhere)."""

    def __init__(self, content, seed):
        self.content = content
        self.pos = 0
        self.rng = random.Random(seed)
        self.calls = 0

    def read(self, n=-1):
        self.calls += 1
        if n is None or n < 0:
            n = len(self.content)
        take = self.rng.randint(1, min(n, 300)) if n else 0
        out = self.content[self.pos : self.pos + take]
        self.pos += len(out)
        return out


@pytest.fixture(scope="module")
def words(spec):
    return random_words(spec, "cayman", 600, random.Random("streaming"))


def test_binary_short_reads(dm, words):
    data = b"".join(words)
    expected = dm.decode(data)
    assert any(e.get("extension_of") is not None for e in expected)  # pairs across reads too
    for seed in range(3):
        reader = ShortReader(data, seed)
        it = dm.iter_decode(reader)
        assert iter(it) is it
        assert list(it) == expected
        assert reader.pos == len(data)
        assert reader.calls > 10


def test_hex_text_short_reads(dm, words):
    text = "# a dump\n" + to_hex(words)
    expected = dm.decode(text)
    assert expected == dm.decode(b"".join(words))
    # str from read(): hex, decided from what read returns
    assert list(dm.iter_decode(ShortReader(text, 1))) == expected
    assert list(dm.iter_decode(io.StringIO(text))) == expected
    # bytes of hex text with hex=True
    assert list(dm.iter_decode(ShortReader(text.encode(), 2), hex=True)) == expected
    # a real file, binary and text
    assert list(dm.iter_decode(io.BytesIO(b"".join(words)), hex=False)) == expected


def test_records(dm, spec):
    record = next(r for r in spec["records"] if r["name"] == "SDMA_CCE_DESC")
    recs = random_records(record, 200, random.Random("stream-records"))
    data = b"".join(recs)
    expected = dm.decode(data, "mariana", struct="SDMA_CCE_DESC")
    assert list(dm.iter_decode(ShortReader(data, 3), "mariana", struct="SDMA_CCE_DESC")) == expected
    assert list(dm.iter_decode(io.StringIO(to_hex(recs)), "mariana", struct="SDMA_CCE_DESC")) == expected


def test_other_arch(dm, spec):
    words = random_words(spec, "maverick", 200, random.Random("stream-maverick"))
    data = b"".join(words)
    assert list(dm.iter_decode(ShortReader(data, 4), "maverick")) == dm.decode(data, "maverick")


def test_empty(dm):
    assert list(dm.iter_decode(io.BytesIO(b""))) == []
    assert list(dm.iter_decode(io.StringIO("# nothing\n"))) == []


def test_truncated_stream_yields_the_whole_words_first(dm, cli, words):
    data = b"".join(words[:5]) + b"\xb8\x10\x00"
    got = []
    with pytest.raises(dm.InputError) as e:
        for d in dm.iter_decode(ShortReader(data, 5)):
            got.append(d)
    assert got == dm.decode(b"".join(words[:5]))
    assert str(e.value) == "stream: incomplete word at byte offset 320 (0x140): 3 of 64 bytes"


class Synthesised:
    """`count` words made on demand from a pool (never the whole stream in memory)."""

    def __init__(self, pool, count):
        self.pool = pool
        self.count = count
        self.served = 0
        self.size = count * WORD
        self.largest_read = 0

    def read(self, n=-1):
        if n is None or n < 0:
            raise AssertionError("iter_decode must read bounded chunks, not the whole stream")
        self.largest_read = max(self.largest_read, n)
        end = min(self.size, self.served + n)
        out = bytearray()
        pos = self.served
        while pos < end:
            word, within = divmod(pos, WORD)
            take = min(WORD - within, end - pos)
            out += self.pool[word % len(self.pool)][within : within + take]
            pos += take
        self.served = end
        return bytes(out)


def memory_pool(spec):
    """512 words: runs of 8 real words of every cayman kind (pairs kept), each run followed
    by 56 words with opcodes no cayman word has (decoded to small dicts, which keeps the
    traced run of 200,000 words short)."""
    rng = random.Random("memory")
    real = random_words(spec, "cayman", 64, rng)
    taken = {w["opcode"]["value"] for w in spec["words"] if "cayman" in w["arch"]}
    free = [op for op in range(256) if op not in taken]
    pool = []
    for run in range(8):
        pool += real[8 * run : 8 * run + 8]
        for _ in range(56):
            b = bytearray(rng.randbytes(WORD))
            b[0] = rng.choice(free)
            pool.append(bytes(b))
    return pool


def test_constant_memory(dm, spec):
    pool = memory_pool(spec)
    count = 200_000
    bound = 16 * MB

    # what the whole list would take with every word's object built: measured on 1,000
    # words of the same pool
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    sample = dm.decode(b"".join(pool[i % len(pool)] for i in range(1000)))
    lazy = (tracemalloc.get_traced_memory()[0] - base) / 1000
    for w in sample:
        len(w)  # builds the object
    per_word = (tracemalloc.get_traced_memory()[0] - base) / 1000
    del sample
    tracemalloc.stop()
    assert per_word * count > 8 * bound, f"{per_word:.0f} bytes per decoded word"
    # the lazy words themselves: the bytes and where they are, under 1 KB each
    assert lazy < 1024, f"{lazy:.0f} bytes per lazy word"

    reader = Synthesised(pool, count)
    seen = 0
    structs = set()
    tracemalloc.start()
    try:
        for d in dm.iter_decode(reader):
            assert d["index"] == seen
            assert len(d) >= 5  # the object is built, and let go with the word
            if seen % 20_000 == 0:
                structs.add(d["struct"])
                # the reader runs ahead of the consumer by a bounded chunk only
                assert reader.served - seen * WORD <= 4 * MB, (reader.served, seen)
            seen += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen == count
    assert reader.served == reader.size
    assert reader.largest_read <= 4 * MB
    assert peak < bound, f"peak traced memory {peak / MB:.1f} MB"
    assert len(structs) > 1


def test_a_read_error_propagates_after_the_words_before_it(dm, words):
    class Failing(ShortReader):
        def read(self, n=-1):
            if self.pos >= 3 * WORD:
                raise OSError("device gone")
            return super().read(min(n, 3 * WORD - self.pos))

    got = []
    with pytest.raises(OSError, match="device gone"):
        for d in dm.iter_decode(Failing(b"".join(words), 6)):
            got.append(d)
    assert got == dm.decode(b"".join(words[:3]))
