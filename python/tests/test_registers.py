"""Register files from Python: `regs` decodes a dump as `dmaspec regs --json` does (the CLI is
the oracle), the metadata objects hold what the pages give (cited), and bad input raises the
package's errors with the CLI's messages."""

import json
import struct

import pytest

from conftest import message

# "SDMA Address Windows + APB Chain" §4 (a): SE_0's channel 5 at 0x1002000000 + 5*0x100000,
# its M2S file at +0x0; M2S_Q[5] at 0x1000 + 5*0x1000 = 0x6000.
QUEUE5 = 0x1002506000


def queue_dump(slots):
    """0x1000 bytes of one M2S_Q element, zero but for `slots` {offset: value}."""
    data = bytearray(0x1000)
    for offset, value in slots.items():
        data[offset : offset + 4] = struct.pack("<I", value)
    return bytes(data)


def test_regs_matches_the_cli(cli, dm):
    # CSR — UDMA M2S §4.1: TDRTP_inc at +0x38 (`val[23:0]`); cfg at +0x20 with
    # en_scheduling at bit 17; bit 31 set as well, so the unknown bits are compared too.
    data = queue_dump({0x38: 0x40, 0x20: 0x0002_0000 | 0x8000_0000})
    readings = dm.regs(data, "UDMA_M2S", bundle="M2S_Q[5]")
    doc = json.loads(cli.ok("regs", "UDMA_M2S", "--bundle", "M2S_Q[5]", "--json", cli.file(data)))
    assert [(r.offset, r.bundle, r.index, r.name, r.value, r.unknown) for r in readings] == [
        (x["offset"], "M2S_Q", 5, x["register"], x["value"], x["unknown_bits"]) for x in doc["registers"]
    ]
    for r, x in zip(readings, doc["registers"]):
        assert dict(r.fields) == {f["name"]: f["value"] for f in x["fields"]}
        assert r.address is None and r.file == "UDMA_M2S"


def test_regs_at_a_base(cli, dm):
    data = queue_dump({0x38: 0x40})
    readings = dm.regs(data, base=QUEUE5)
    doorbell = next(r for r in readings if r.name == "TDRTP_inc")
    assert (doorbell.file, doorbell.bundle, doorbell.index) == ("UDMA_M2S", "M2S_Q", 5)
    assert (doorbell.offset, doorbell.address) == (0x6038, 0x1002506038)
    assert doorbell.fields == {"val": 0x40}
    assert doorbell.register.access == "RW"
    doc = json.loads(cli.ok("regs", "--base", hex(QUEUE5), "--json", cli.file(data)))
    assert [r.address for r in readings] == [x["address"] for x in doc["registers"]]
    # The same dump named by file and element agrees with the map.
    assert [r.value for r in dm.regs(data, "udma_m2s", base=QUEUE5, bundle="M2S_Q[5]")] == [
        r.value for r in readings
    ]


def test_a_dump_past_the_window_warns(dm):
    # The M2S window is 0x20000 bytes: from +0x1F000, 0x1000 of 0x2000 bytes are in it, and
    # §1 places UDMA_S2M at 0x1002500000 + 0x20000.
    with pytest.warns(dm.DmaspecWarning, match=r"4096 bytes past the window's end at 0x1002520000 \(APB_SE_0_SDMA_5's UDMA_S2M\)"):
        assert dm.regs(bytes(0x2000), base=0x100251F000) == []


def test_bad_input_raises_the_clis_errors(cli, dm):
    cases = [
        (dict(base=0x1003F80000), ["--base", "0x1003F80000"]),
        (dict(base=0x1002506002), ["--base", "0x1002506002"]),
        (dict(file="UDMA_S2M", base=0x1002500000), ["UDMA_S2M", "--base", "0x1002500000"]),
        (dict(file="UDMA_M2X"), ["UDMA_M2X"]),
        (dict(file="UDMA_M2S", bundle="M2S_Q"), ["UDMA_M2S", "--bundle", "M2S_Q"]),
    ]
    path = cli.file(bytes(8))
    for kwargs, args in cases:
        with pytest.raises(dm.UsageError) as e:
            dm.regs(bytes(8), **kwargs)
        p = cli.run("regs", *args, path)
        assert p.returncode == 2, p.stderr
        assert str(e.value) == message(p.stderr.decode()), args
    with pytest.raises(dm.UsageError, match="expected an address"):
        dm.regs(bytes(8), base=-1)
    with pytest.raises(dm.InputError, match="the dump is empty"):
        dm.regs(b"", "UDMA_M2S")
    with pytest.raises(dm.InputError, match="holds more than the 0x1000 bytes"):
        dm.regs(bytes(0x1004), "UDMA_M2S", bundle="M2S_Q[0]")


def test_register_metadata(dm):
    m2s = dm.register_file("udma_m2s")
    assert m2s.name == "UDMA_M2S"
    # CSR — UDMA M2S: the Cayman window is 0x20000 bytes (AddrWidth 17), Maverick's 0x40000.
    assert (m2s.size("cayman"), m2s.size("maverick")) == (0x20000, 0x40000)
    # §2 Bundle map: `0x01000` `M2S_Q[16]`, stride 0x1000.
    q = next(b for b in m2s.bundles if b.name == "M2S_Q")
    assert (q.offset, q.count, q.stride) == (0x1000, 16, 0x1000)
    # Descriptor + Ring Field-Table Reference §6.1: "| `0x34` | 4 | RO | `TDRHP` |"; CSR — UDMA
    # M2S §4.1: `TDRHP_RESET_VALUE = 0x40000000`.
    tdrhp = next(r for r in q.registers if r.name == "TDRHP")
    assert (tdrhp.offset, tdrhp.access, tdrhp.reset) == (0x34, "RO", 0x40000000)
    # CSR Field-Table Index §3.5: M2S_Q/cfg +0x20, en_scheduling bit 17, RW, reset 0x0.
    cfg = next(r for r in q.registers if r.name == "cfg" and "cayman" in r.archs)
    en = next(f for f in cfg.fields if f.name == "en_scheduling")
    assert (en.bits, en.lsb, en.width, en.mask, en.access, en.reset) == ("[17]", 17, 1, 0x20000, "RW", 0)
    assert en.enum_values is None
    names = [f.name for f in dm.register_files()]
    assert "UDMA_M2S" in names and "UDMA_GEN" in names
    assert all("sunda" in f.archs for f in dm.register_files("sunda"))
    with pytest.raises(dm.UsageError, match=r"no register file `UDMA_M2X` \(did you mean `UDMA_M2S`\?\)"):
        dm.register_file("UDMA_M2X")
    with pytest.raises(dm.UsageError, match="unknown architecture"):
        dm.register_files("foo")


def test_addr_is_the_clis(cli, dm):
    # §4 (a): 0x1002506038 is APB_SE_0_SDMA_5, UDMA_M2S, M2S_Q[5].TDRTP_inc; §4 (c):
    # 0x100203A104 is SDMA_0's UDMA_GEN DMA_misc.revision; 0x1003F80000 is the hole after
    # SE_0's SDMA_31.
    for address in (0x1002506038, 0x100203A104, 0x1003F80000):
        assert dm.addr(address) == json.loads(cli.ok("addr", hex(address), "--json"))
    found = dm.addr("0x1002506038")["found"]
    assert (found["instance"]["name"], found["part"]["name"], found["offset"]) == ("APB_SE_0_SDMA_5", "UDMA_M2S", 0x6038)
    assert (found["register"]["bundle"], found["register"]["index"]) == ("M2S_Q", 5)
    assert found["register"]["register"]["name"] == "TDRTP_inc"
    for bad, args in (("zz", ["zz"]), (1 << 58, [str(1 << 58)])):
        with pytest.raises(dm.UsageError) as e:
            dm.addr(bad)
        p = cli.run("addr", *args)
        assert str(e.value) == message(p.stderr.decode())
    with pytest.raises(dm.UsageError, match="no source places sunda's register files"):
        dm.addr(0x1002506038, "sunda")
