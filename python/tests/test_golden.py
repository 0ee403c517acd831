"""The golden vectors of tests/vectors/ (written by hand from the source tables; each comment
cites its row) through the Python API: specific field values against the cited rows, as
tests/golden_*.rs do, and the same document as the CLI."""

import pytest

from conftest import ROOT

VECTORS = ROOT / "tests" / "vectors"


def vector(name: str) -> str:
    return (VECTORS / name).read_text(encoding="utf-8")


def one(dm, name, arch, struct=None):
    got = dm.decode(vector(name), arch, struct=struct)
    assert len(got) == 1, got
    return got[0]


def test_dma_copy2d(dm):
    # tests/vectors/dma_copy2d.hex: supp-field-tables §3.2 (maverick)
    w = one(dm, "dma_copy2d.hex", "maverick")
    f = w["fields"]
    assert (w["index"], w["offset"], w["opcode"], w["struct"]) == (0, 0, 0xB9, "DMA_COPY2D")
    # row "0 4 header opcode=0xb9": opcode 0xb9 DMA_MEMCPY2, inst_word_len 0x10
    assert f["header"]["opcode"] == {"raw": 0xB9, "name": "DMA_MEMCPY2"}
    assert f["header"]["inst_word_len"] == 0x10
    # row "4 4 wait_sema_value u32": 2; row "8 1 wait_sema_idx u8": 3
    assert (f["wait_sema_value"], f["wait_sema_idx"]) == (2, 3)
    # row "9 1 wait_sema_mode WAIT_MODE" (Table 4.13): 0x05 WAIT_FOR_SEM_GE_IMM
    assert f["wait_sema_mode"] == {"raw": 5, "name": "WAIT_FOR_SEM_GE_IMM"}
    # row "10 1 dma_engines {start_id:5, engine_count:2, rsvd:1}" (Table 4.8): 0x24
    assert f["dma_engines"] == {"start_id": 4, "engine_count": {"raw": 1, "name": "TWO"}, "reserved": 0}
    # row "12 1 addr_mode {src:4 low, dst:4 high}" (Table 4.9): 0x20
    assert f["addr_mode"]["src_addr_mode"] == {"raw": 0, "name": "IMM64"}
    assert f["addr_mode"]["dst_addr_mode"] == {"raw": 2, "name": "REG_IMM_OFFSET32"}
    # row "13 1 sema_update_mode {rd_done:4, wr_done:4}" (Table 4.10): 0x91
    assert f["sema_update_mode"]["wr_done"] == {"raw": 9, "name": "REMOTE_SEM_INC"}
    # row "16 8 src_start_addr DMA_ADDR_UNION": imm64 0x0000000120000000
    assert f["src_start_addr"] == 0x0000000120000000
    # rows "24 8 src_step_elem[2] int32 signed X/Y", "32 4 src_num_elem[2] uint16 X/Y"
    assert f["src_step_elem"] == [1, 256]
    assert f["src_num_elem"] == [256, 8]
    # row "48 8 dst_step_elem[2] int32 signed X/Y": [1, -256] (rows reversed)
    assert f["dst_step_elem"] == [1, -256]
    # row "62 1 remote_core_id REG_NUM": 12; row "63 1 reserved must be zero"
    assert (f["remote_core_id"], f["reserved"]) == (12, 0)
    assert w["violations"] == []


def test_dma_direct2d_xpose(dm):
    # tests/vectors/dma_direct2d_xpose.hex: supp-field-tables §2.3 (cayman)
    w = one(dm, "dma_direct2d_xpose.hex", "cayman")
    f = w["fields"]
    assert (w["opcode"], w["struct"]) == (0xBD, "DMA_DIRECT2D_XPOSE")
    assert f["header"]["opcode"] == {"raw": 0xBD, "name": "DMA_TRANSPOSE"}
    # row "4 8 events": update_mode 0x13 SEM_INC_COMPLETE, update_idx 7, semaphore_value 1
    assert f["events"]["update_mode"] == {"raw": 0x13, "name": "SEM_INC_COMPLETE"}
    assert (f["events"]["update_idx"], f["events"]["semaphore_value"]) == (7, 1)
    # row "13 1 dst_bound_reg": 0xcc = bc_reg 12, bc_disable_oob_error_notif 1, bc_enabled 1
    assert f["dst_bound_reg"] == {"bc_reg": 12, "bc_disable_oob_error_notif": 1, "bc_enabled": 1}
    # rows "14 1 in_dtype DTYPE", "15 1 out_dtype DTYPE, must equal in_dtype": 0x6 BFLOAT16
    assert f["in_dtype"] == f["out_dtype"] == {"raw": 6, "name": "BFLOAT16"}
    # row "16 8 src_start_addr ADDR8": marker 0x80 ADDR_REG -> the addr_reg arm
    assert f["src_start_addr"]["marker"] == {"raw": 0x80, "flags": ["ADDR_REG"]}
    assert "addr_reg" in f["src_start_addr"] and "addr_immediate" not in f["src_start_addr"]
    # row "24 8 src_step_elem[2] int32 signed": [1, -128]; row "32 4 src_num_elem[2]": [128, 64]
    assert f["src_step_elem"] == [1, -128]
    assert f["src_num_elem"] == [128, 64]
    # row "36 4 tile_src_row_step int32": 128 (seed-004 §4 "tile_src_row_step@36")
    assert f["tile_src_row_step"] == 128
    # row "40 8 dst_start_addr ADDR8": marker 0x00 -> addr_immediate, address_lo 0x20000000
    assert f["dst_start_addr"]["addr_immediate"]["address_lo"] == 0x20000000
    # rows "60 1 tile_src_rows must be 16", "61 1 tile_src_cols", "62 1 semaphore", "63 1 dma_configs"
    assert (f["tile_src_rows"], f["tile_src_cols"], f["semaphore"]) == (16, 128, 11)
    assert f["dma_configs"]["priority_class"] == 4
    assert w["violations"] == []


def test_dma_indirect1d(dm):
    # tests/vectors/dma_indirect1d.hex: seed-004 §3 (cayman)
    w = one(dm, "dma_indirect1d.hex", "cayman")
    f = w["fields"]
    assert (w["opcode"], w["struct"]) == (0xBB, "DMA_INDIRECT1D")
    # rows "12 1 semaphore", "13 1 sem_increment", "14 1 idx_num_active_channels == 128"
    assert (f["semaphore"], f["sem_increment"], f["idx_num_active_channels"]) == (10, 1, 128)
    # row "15 1 flags DMA_INDIRECT_FLAGS" (§3.1 bits): 0x04 = idx_bound_is_err only
    assert f["flags"]["indirect_mode"] == {"raw": 0, "name": "SRC_INDIRECTION"}
    assert (f["flags"]["idx_bound_is_err"], f["flags"]["non_unique_dst_idx"]) == (1, 0)
    # row "16 8 src_start_addr ADDR8": marker 0x00 -> addr_immediate; address_lo 0x10000000
    assert f["src_start_addr"]["addr_immediate"]["address_lo"] == 0x10000000
    # row "24 4 src_step_elem int32_t": 1
    assert f["src_step_elem"] == 1
    assert f["in_dtype"] == {"raw": 7, "name": "FP16"}


def test_dve_dropout(dm):
    # tests/vectors/dve_dropout.hex: wiki-dropout §3, the S3D3_DROPOUT header table (cayman)
    w = one(dm, "dve_dropout.hex", "cayman")
    f = w["fields"]
    # row "0 4 header ... header.opcode == Dropout (0x7f)"
    assert (w["opcode"], w["struct"]) == (0x7F, "DROPOUT")
    assert f["header"]["opcode"] == {"raw": 0x7F, "name": "DROPOUT"}
    # row "16 16 src_mem_pattern TENSOR3D": start_addr 0x200, step_elem [1, 32, 128], num_elem [32, 4, 1]
    src = f["src_mem_pattern"]
    assert src["start_addr"]["address"] == 0x200
    assert src["step_elem"] == [1, 32, 128]
    assert src["num_elem"] == [32, 4, 1]
    # rows "32 1 in_dtype", "33 1 out_dtype": BFLOAT16
    assert f["in_dtype"] == f["out_dtype"] == {"raw": 6, "name": "BFLOAT16"}
    # rows "34 1 num_active_channels" 32, "35 1 threshold_src" inline, "36 1 threshold_dtype" FP32
    assert f["num_active_channels"] == 32
    assert f["threshold_src"] == {"raw": 0, "name": "INSTRUCTION_IMMEDIATE"}
    assert f["threshold_dtype"] == {"raw": 10, "name": "FP32"}
    # rows "43 1 threshold_type" DROP_RATE, "44 4 threshold" 0.25f
    assert f["threshold_type"] == {"raw": 0, "name": "DROP_RATE"}
    assert f["threshold"]["imm_arith_fp32"] == 0x3E800000
    # row "48 16 dst_mem_pattern TENSOR3D": start_addr 0x8000
    assert f["dst_mem_pattern"]["start_addr"]["address"] == 0x8000


def test_sdma_bd_ring_records(dm):
    # tests/vectors/records/sdma_bd_ring.hex: wiki-udma-desc §2 (len_ctrl), §3 (meta_ctrl), §4
    recs = dm.decode(vector("records/sdma_bd_ring.hex"), "cayman", struct="SDMA_CME_BD_DESC")
    assert [(r["index"], r["offset"], r["struct"]) for r in recs] == [
        (i, 16 * i, "SDMA_CME_BD_DESC") for i in range(4)
    ]
    assert "opcode" not in recs[0]
    bd0, bd1, bd2, bd3 = (r["fields"] for r in recs)
    # BD 0, §2: LENGTH [15:0] = 0x0800, FIRST [26] = 1; §3 default: op [25:23] = 2 CME
    assert (bd0["len_ctrl"]["length"], bd0["len_ctrl"]["first"], bd0["len_ctrl"]["last"]) == (0x800, 1, 0)
    assert bd0["meta_ctrl"]["op"] == {"raw": 2, "name": "CME"}
    # §4 buf_ptr: 0x0000000400001000
    assert bd0["buf_ptr"] == 0x0000000400001000
    # BD 1, §3: optype [22:20] = 2 CRC32C, copy_src_data [19], validate_crc [14], cached_crc_iv_index [5:3] = 3
    assert bd1["meta_ctrl"]["optype"] == {"raw": 2, "name": "CRC32C"}
    assert (bd1["meta_ctrl"]["copy_src_data"], bd1["meta_ctrl"]["validate_crc"], bd1["meta_ctrl"]["cached_crc_iv_index"]) == (1, 1, 3)
    assert (bd1["len_ctrl"]["last"], bd1["len_ctrl"]["int_en"]) == (1, 1)
    # BD 2, §2 "15:0 LENGTH; 0 => 65536": 0; meta_ctrl write_barrier [26] = 1
    assert (bd2["len_ctrl"]["length"], bd2["meta_ctrl"]["write_barrier"]) == (0, 1)
    # BD 3, §2 RING_ID [25:24] = 2 (the firmware's generation tag, Table 1.1 QUIRK)
    assert (bd3["len_ctrl"]["ring_id"], bd3["len_ctrl"]["dmb"], bd3["len_ctrl"]["length"]) == (2, 0, 0x100)



@pytest.mark.parametrize(
    "name,arch,struct",
    [
        ("dma_copy2d.hex", "maverick", None),
        ("dma_direct2d_xpose.hex", "cayman", None),
        ("dma_indirect1d.hex", "cayman", None),
        ("dve_dropout.hex", "cayman", None),
        ("pseudo_dma_direct2d.hex", "cayman", None),
        ("records/sdma_bd_ring.hex", "cayman", "SDMA_CME_BD_DESC"),
        ("records/sdma_cce_fma.hex", "cayman", "SDMA_CCE_DESC"),
    ],
)
def test_vector_equals_cli_and_encodes_back(dm, cli, name, arch, struct):
    text = vector(name)
    got = dm.decode(text, arch, struct=struct)
    assert got == cli.decode(text, arch, struct=struct, hex=True)
    raw = bytes.fromhex("".join(l.split("#", 1)[0] for l in text.splitlines()))
    assert dm.encode(got, arch, validate=False, struct=struct) == raw
    assert dm.decode(raw, arch, struct=struct) == got
