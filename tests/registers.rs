//! Golden tests of the generated register API (`dmaspec::words::regs`): the typed values,
//! the `Block`s on a `MemoryBus`, and the `REGFILES` metadata. Every expected number is
//! read by hand from a source page (the page title and section are in the comment above
//! each assert; the spec's evidence strings quote the rows), never from our own output.
//!
//! Pages cited:
//! * "CSR — UDMA M2S (Memory-to-Stream Descriptor Engine)" (wiki-csr-udma-m2s),
//! * "CSR — UDMA S2M (Stream-to-Memory)" (wiki-csr-udma-s2m),
//! * "The CSR Field-Table Index" (wiki-csr-index),
//! * "The al_udma Hardware DMA Engine" (wiki-udma-hw-engine),
//! * "[P9.1] The DMA / Descriptor / Memory Subsystem" (supp-descriptor-model, the Cayman
//!   C headers), and
//! * "Descriptor + Ring Field-Table Reference" (supp-field-tables, Maverick RTL JSON), and
//! * the GPL kernel driver aws-neuron/aws-neuron-driver at fca19f7d (aws-neuron-driver):
//!   `udma/udma_regs.h` (offsets as gcc's `offsetof` over its structs, every member a
//!   `u32`), `udma/udma_main.c`, `udma/udma_iofic.c`, `v3/sdma.h`, cited file:line.

#![allow(non_snake_case)]

use std::marker::PhantomData;

use dmaspec::runtime::regs::{BundleMeta, RegFieldMeta, RegFileMeta, RegisterMeta};
use dmaspec::words::regs::{Bus, MemoryBus, REGFILES, Readable, Register, Writable};
use dmaspec::words::regs::{UDMA_GEN, UDMA_M2S, UDMA_S2M};

// ---- reading the metadata ----------------------------------------------------------------

fn regfile(name: &str) -> &'static RegFileMeta {
    REGFILES
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no register file {name}"))
}

fn bundle(file: &str, name: &str) -> &'static BundleMeta {
    (regfile(file).bundles.iter())
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("{file} has no bundle {name}"))
}

/// The layout of `file.bundle.register` on `arch` (a register with per-generation layouts
/// has one entry per layout).
fn register(file: &str, bundle_name: &str, name: &str, arch: &str) -> &'static RegisterMeta {
    (bundle(file, bundle_name).registers.iter())
        .find(|r| r.name == name && r.on(arch))
        .unwrap_or_else(|| panic!("{file}.{bundle_name} has no register {name} on {arch}"))
}

fn field(r: &'static RegisterMeta, name: &str, arch: &str) -> &'static RegFieldMeta {
    (r.fields.iter())
        .find(|f| f.name == name && f.archs.contains(&arch))
        .unwrap_or_else(|| panic!("{} has no field {name} on {arch}", r.name))
}

/// The field at bit `lsb` of `r` on `arch`.
fn field_at(r: &'static RegisterMeta, lsb: u32, arch: &str) -> &'static RegFieldMeta {
    (r.fields.iter())
        .find(|f| f.lsb == lsb && f.archs.contains(&arch))
        .unwrap_or_else(|| panic!("{} has no field at bit {lsb} on {arch}", r.name))
}

// ---- access markers, tested without a compile-fail harness ---------------------------------
//
// Autoref specialisation: `(&Probe::<T>(..)).readable()` resolves to `HasReader` when
// `T: Readable` (a by-value match) and otherwise falls back to `NoReader` (one autoref
// further). The compile_fail doctests on `Readable` / `Writable` (src/runtime/regs.rs) show
// the same thing as a compile error.

struct Probe<T>(PhantomData<T>);

trait HasReader {
    fn readable(&self) -> bool {
        true
    }
}
impl<T: Readable> HasReader for Probe<T> {}
trait NoReader {
    fn readable(&self) -> bool {
        false
    }
}
impl<T> NoReader for &Probe<T> {}

trait HasWriter {
    fn writable(&self) -> bool {
        true
    }
}
impl<T: Writable> HasWriter for Probe<T> {}
trait NoWriter {
    fn writable(&self) -> bool {
        false
    }
}
impl<T> NoWriter for &Probe<T> {}

macro_rules! readable {
    ($t:ty) => {
        (&Probe::<$t>(PhantomData)).readable()
    };
}
macro_rules! writable {
    ($t:ty) => {
        (&Probe::<$t>(PhantomData)).writable()
    };
}

// ---- M2S_Q: the doorbell ---------------------------------------------------------------

#[test]
fn tdrtp_inc_of_queue_3_is_at_0x4038_with_val_23_0() {
    use UDMA_M2S::cayman::{Block, M2S_Q, SIZE};

    // CSR — UDMA M2S §1 RegFile metadata: "`17` bits → `0x20000` (128 KiB window)".
    assert_eq!(SIZE, 0x20000);
    // CSR — UDMA M2S §2 Bundle map: "| `0x01000` | `M2S_Q[16]`", stride 0x1000
    // (§Verified counts "**16** (`ArraySize`)"); [P9.1] §4.1: "queue *i* block base =
    // `0x1000 + i*0x1000`".
    assert_eq!(
        (M2S_Q::OFFSET, M2S_Q::COUNT, M2S_Q::STRIDE),
        (0x1000, 16, 0x1000)
    );
    // CSR — UDMA M2S §4.1, row +0x38: "`val[23:0]` | RW | ... THIS IS THE DOORBELL".
    assert_eq!(<M2S_Q::TDRTP_inc as Register>::OFFSET, 0x38);

    let mut window = vec![0u8; SIZE as usize];
    let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
    let mut q = m2s.M2S_Q(3).expect("queue 3 of 16");
    // 0x1000 + 3*0x1000 + 0x38.
    assert_eq!(q.base(), 0x4000);
    assert_eq!(q.TDRTP_inc().address(), 0x4038);
    // [P9.1] §4.1: "`*DRTP_INC` carries a 24-bit increment value (`VAL_MASK = 0xffffff`)";
    // a value wider than 24 bits is cut to the field.
    let v = M2S_Q::TDRTP_inc::default().with_val(0xFFFF_FFFF);
    assert_eq!(v.to_bits(), 0x00FF_FFFF);
    assert_eq!(v.val(), 0xFF_FFFF);
    // The same offset on every generation: Descriptor + Ring Field-Table Reference §6.1,
    // "| `0x38` | 4 | RW | `TDRTP_inc` | **the doorbell**: `val[23:0]`".
    assert_eq!(
        <UDMA_M2S::mariana::M2S_Q::TDRTP_inc as Register>::OFFSET,
        0x38
    );
    assert_eq!(
        <UDMA_M2S::maverick::M2S_Q::TDRTP_inc as Register>::OFFSET,
        0x38
    );
    // §2 Bundle map: 16 queues, so index 16 does not exist.
    assert!(m2s.M2S_Q(16).is_none());
    assert!(m2s.M2S_Q(15).is_some());
}

#[test]
fn tdrtp_inc_metadata_matches_the_page() {
    let f = regfile("UDMA_M2S");
    // CSR — UDMA M2S §1 RegFile metadata: 0x20000 window, `32` bits DataWidth.
    assert_eq!((f.size, f.bus_width), (0x20000, 32));
    // The al_udma Hardware DMA Engine §7 delta table: "| M2S window | `0x20000` | `0x40000`
    // (doubled) |" (Cayman/Mariana vs Maverick).
    assert_eq!(f.size_on("cayman"), 0x20000);
    assert_eq!(f.size_on("mariana"), 0x20000);
    assert_eq!(f.size_on("maverick"), 0x40000);
    assert_eq!(UDMA_M2S::maverick::SIZE, 0x40000);
    let q = bundle("UDMA_M2S", "M2S_Q");
    // CSR — UDMA M2S §2 Bundle map: "| `0x01000` | `M2S_Q[16]`", stride 0x1000.
    assert_eq!(
        (q.offset, q.count, q.stride, q.size),
        (0x1000, 16, 0x1000, 0x1000)
    );
    for arch in ["cayman", "mariana", "maverick"] {
        let r = register("UDMA_M2S", "M2S_Q", "TDRTP_inc", arch);
        // CSR Field-Table Index §3.5: "| `M2S_Q/TDRTP_inc` | `0x38` | `val` | `23:0` | RW |
        // `0x0` | **DOORBELL**".
        assert_eq!((r.offset, r.access, r.width), (0x38, "RW", 32), "{arch}");
        let val = field(r, "val", arch);
        assert_eq!(
            (val.lsb, val.width, val.mask()),
            (0, 24, 0xFF_FFFF),
            "{arch}"
        );
        // Queue 3's doorbell: 0x1000 + 3*0x1000 + 0x38.
        assert_eq!(q.offset + 3 * q.stride + r.offset, 0x4038);
    }
    // CSR Field-Table Index §3.5: the val reset `0x0`.
    let cayman = register("UDMA_M2S", "M2S_Q", "TDRTP_inc", "cayman");
    assert_eq!(field(cayman, "val", "cayman").reset, Some(0));
}

// ---- M2S_Q.cfg: the layout differs by generation ---------------------------------------

#[test]
fn cfg_on_cayman_and_mariana_has_qos_30_28_and_force_full_line_31() {
    // [P9.1] §4.2 (the Cayman header): "`en_pref[16]=0x10000` + `en_scheduling[17]
    // =0x20000` are the **enable** bits; `AXI_qos[30:28]=0x70000000`, `force_full_line[31]
    // =0x80000000`, `pkt_len_offset[15:0]=0xffff`".
    // CSR — UDMA M2S §4.3 row 0x20 gives the same bits (mariana is byte-identical, §10).
    macro_rules! check {
        ($arch:ident) => {{
            use UDMA_M2S::$arch::M2S_Q::cfg;
            assert_eq!(<cfg as Register>::OFFSET, 0x20);
            let zero = cfg::default();
            assert_eq!(zero.with_en_pref(true).to_bits(), 0x0001_0000);
            assert_eq!(zero.with_en_scheduling(true).to_bits(), 0x0002_0000);
            assert_eq!(zero.with_AXI_qos(7).to_bits(), 0x7000_0000);
            assert_eq!(zero.with_force_full_line(true).to_bits(), 0x8000_0000);
            assert_eq!(zero.with_pkt_len_offset(0xffff).to_bits(), 0x0000_ffff);
            // §4.3: `axi_awcache_comp[27:24]`.
            assert_eq!(zero.with_axi_awcache_comp(0xf).to_bits(), 0x0f00_0000);
            // AXI_qos is 3 bits here: 0xf keeps only 0x7, and bit 31 stays force_full_line.
            assert_eq!(zero.with_AXI_qos(0xf).to_bits(), 0x7000_0000);
            let top = cfg::from_bits(0x8000_0000);
            assert!(top.force_full_line());
            assert_eq!(top.AXI_qos(), 0);
            let qos = cfg::from_bits(0x7000_0000);
            assert_eq!(qos.AXI_qos(), 7);
            assert!(!qos.force_full_line());
            // Bit 18 is not force_full_line on Cayman/Mariana.
            assert!(!cfg::from_bits(1 << 18).force_full_line());
        }};
    }
    check!(cayman);
    check!(mariana);

    for arch in ["cayman", "mariana"] {
        let r = register("UDMA_M2S", "M2S_Q", "cfg", arch);
        let qos = field(r, "AXI_qos", arch);
        // The al_udma Hardware DMA Engine §7 delta table: "| `cfg.AXI_qos` | `[30:28]`
        // 3-bit, rst 0 | `[31:28]` 4-bit, rst `0xe` |".
        assert_eq!((qos.lsb, qos.width, qos.reset), (28, 3, Some(0)), "{arch}");
        let ffl = field(r, "force_full_line", arch);
        assert_eq!((ffl.lsb, ffl.width), (31, 1), "{arch}");
        // CSR — UDMA M2S §4.3: `axi_awcache_comp[27:24]`=3.
        let awcache = field(r, "axi_awcache_comp", arch);
        assert_eq!(
            (awcache.lsb, awcache.width, awcache.reset),
            (24, 4, Some(3))
        );
        // The field tables' Maverick-only fields are not on Cayman/Mariana.
        assert!(r.fields_on(arch).all(|f| f.name != "vmid_check_en"));
    }
}

#[test]
fn cfg_on_maverick_has_qos_31_28_reset_0xe_and_force_full_line_18() {
    use UDMA_M2S::maverick::M2S_Q::cfg;
    // Descriptor + Ring Field-Table Reference §6.1 Table 6.1a (M2S `cfg` bitfields):
    // "| [18] | `force_full_line` | **1** | [27:24] | `axi_awcache_comp` | 3 |",
    // "| [19] | `vmid_check_en` | 0 | [31:28] | `AXI_qos` | `0xe` |", and the CORRECTION:
    // "`force_full_line` is **bit 18** (not 31); `AXI_qos` is `[31:28]` (4-bit, reset `0xe`)".
    let zero = cfg::default();
    assert_eq!(zero.with_AXI_qos(0xf).to_bits(), 0xf000_0000);
    assert_eq!(zero.with_force_full_line(true).to_bits(), 0x0004_0000);
    assert_eq!(zero.with_vmid_check_en(true).to_bits(), 0x0008_0000);
    // Table 6.1a: id_priority_filter_en_pref [21], id_priority_filter_en_data [22],
    // bw_fix_tx_pkthdr [23].
    assert_eq!(
        zero.with_id_priority_filter_en_pref(true).to_bits(),
        0x0020_0000
    );
    assert_eq!(
        zero.with_id_priority_filter_en_data(true).to_bits(),
        0x0040_0000
    );
    assert_eq!(zero.with_bw_fix_tx_pkthdr(true).to_bits(), 0x0080_0000);
    // The enable bits did not move: Table 6.1a "[16] en_pref", "[17] en_scheduling".
    assert_eq!(zero.with_en_pref(true).to_bits(), 0x0001_0000);
    assert_eq!(zero.with_en_scheduling(true).to_bits(), 0x0002_0000);
    let top = cfg::from_bits(0x8000_0000);
    assert_eq!(top.AXI_qos(), 0x8);
    assert!(!top.force_full_line());

    // CSR — UDMA M2S §Per-gen register-map deltas: "| `M2S_Q.cfg` | all-zero |
    // `0xe3640000` (pre-sets force_full_line/qos/awcache) |": the Maverick whole word is
    // the Table 6.1a field resets put together.
    let reset = zero
        .with_AXI_qos(0xe)
        .with_axi_awcache_comp(3)
        .with_force_full_line(true)
        .with_id_priority_filter_en_pref(true)
        .with_id_priority_filter_en_data(true);
    assert_eq!(reset.to_bits(), 0xe364_0000);

    let r = register("UDMA_M2S", "M2S_Q", "cfg", "maverick");
    let qos = field(r, "AXI_qos", "maverick");
    assert_eq!((qos.lsb, qos.width, qos.reset), (28, 4, Some(0xe)));
    let ffl = field(r, "force_full_line", "maverick");
    assert_eq!((ffl.lsb, ffl.width, ffl.reset), (18, 1, Some(1)));
    // The same word from the metadata's field resets.
    let word = (r.fields_on("maverick")).fold(0u64, |w, f| w | (f.reset.unwrap_or(0) << f.lsb));
    assert_eq!(word, 0xe364_0000);
}

#[test]
fn en_scheduling_is_bit_17_everywhere() {
    // CSR Field-Table Index §3.5: "| `M2S_Q/cfg` | `0x20` | `en_pref`/`en_scheduling` |
    // `16`/`17` | RW | `0x0` | **queue enable**".
    for arch in ["cayman", "mariana", "maverick"] {
        let r = register("UDMA_M2S", "M2S_Q", "cfg", arch);
        assert_eq!((r.offset, r.access), (0x20, "RW"));
        let f = field(r, "en_scheduling", arch);
        assert_eq!(
            (f.lsb, f.width, f.mask(), f.reset),
            (17, 1, 0x2_0000, Some(0))
        );
        let f = field(r, "en_pref", arch);
        assert_eq!((f.lsb, f.mask()), (16, 0x1_0000));
    }
}

// ---- M2S_Q.q_sw_ctrl: bit 4 by generation ------------------------------------------------

#[test]
fn q_sw_ctrl_bit_4_is_rst_data_tail_ptr_on_cayman_mariana_and_q_isolation_on_maverick() {
    // [P9.1] §4.1 (the Cayman header): "`Q_SW_CTRL` | `0x10b0` | ... | WO" and its bits
    // "`RST_DMB=0x1 RST_TAIL_PTR=0x2 RST_HEAD_PTR=0x4 RST_CURRENT_PTR=0x8
    // RST_DATA_TAIL_PTR=0x10 RST_Q=0x100`".
    macro_rules! cayman_like {
        ($arch:ident) => {{
            use UDMA_M2S::$arch::M2S_Q::q_sw_ctrl;
            assert_eq!(<q_sw_ctrl as Register>::OFFSET, 0xb0);
            let z = q_sw_ctrl::default();
            assert_eq!(z.with_rst_dmb(true).to_bits(), 0x1);
            assert_eq!(z.with_rst_tail_ptr(true).to_bits(), 0x2);
            assert_eq!(z.with_rst_head_ptr(true).to_bits(), 0x4);
            assert_eq!(z.with_rst_current_ptr(true).to_bits(), 0x8);
            assert_eq!(z.with_rst_data_tail_ptr(true).to_bits(), 0x10);
            assert_eq!(z.with_rst_q(true).to_bits(), 0x100);
        }};
    }
    cayman_like!(cayman);
    cayman_like!(mariana);

    // Descriptor + Ring Field-Table Reference §6.1: "| `0xb0` | 4 | RW | `q_sw_ctrl` |
    // `{rst_dmb[0], rst_tail_ptr[1], rst_head_ptr[2], rst_current_ptr[3], q_isolation[4],
    // rst_q[8]}`"; the al_udma Hardware DMA Engine §7: "| `q_sw_ctrl[4]` |
    // `rst_data_tail_ptr` | `q_isolation` |".
    use UDMA_M2S::maverick::M2S_Q::q_sw_ctrl;
    assert_eq!(<q_sw_ctrl as Register>::OFFSET, 0xb0);
    let z = q_sw_ctrl::default();
    assert_eq!(z.with_q_isolation(true).to_bits(), 0x10);
    assert_eq!(z.with_rst_dmb(true).to_bits(), 0x1);
    assert_eq!(z.with_rst_q(true).to_bits(), 0x100);

    for (arch, name) in [
        ("cayman", "rst_data_tail_ptr"),
        ("mariana", "rst_data_tail_ptr"),
        ("maverick", "q_isolation"),
    ] {
        let r = register("UDMA_M2S", "M2S_Q", "q_sw_ctrl", arch);
        // CSR — UDMA M2S §4.3 row 0xb0: "| **WO** | reset strobes".
        assert_eq!((r.offset, r.access), (0xb0, "WO"), "{arch}");
        let f = field_at(r, 4, arch);
        assert_eq!((f.name, f.width), (name, 1), "{arch}");
    }
}

// ---- M2S_Q.TDRHP: the head pointer's reset -------------------------------------------------

#[test]
fn tdrhp_resets_to_0x40000000() {
    // CSR — UDMA M2S §4.1: "`TDRHP_RESET_VALUE = 0x40000000` (= `1 << 30`)", RO; CSR
    // Field-Table Index §3.5: "| `M2S_Q/TDRHP` | `0x34` | `ring_id`/`descriptor_offset` |
    // `31:30`/`23:0` | RO | `0x1` (ring_id) |".
    use UDMA_M2S::cayman::M2S_Q::TDRHP;
    assert_eq!(<TDRHP as Register>::OFFSET, 0x34);
    assert_eq!(TDRHP::RESET.to_bits(), 0x4000_0000);
    assert_eq!(TDRHP::RESET.ring_id(), 1);
    assert_eq!(TDRHP::RESET.descriptor_offset(), 0);
    let v = TDRHP::from_bits(0xC0AB_CDEF);
    assert_eq!((v.ring_id(), v.descriptor_offset()), (3, 0xAB_CDEF));
    // "both headers agree" (§4.1): Maverick's word reset is the same.
    use UDMA_M2S::maverick::M2S_Q::TDRHP as TDRHP_maverick;
    assert_eq!(TDRHP_maverick::RESET.to_bits(), 0x4000_0000);
    for arch in ["cayman", "mariana", "maverick"] {
        let r = register("UDMA_M2S", "M2S_Q", "TDRHP", arch);
        assert_eq!(
            (r.offset, r.access, r.reset),
            (0x34, "RO", Some(0x4000_0000))
        );
    }
    let r = register("UDMA_M2S", "M2S_Q", "TDRHP", "cayman");
    let ring_id = field(r, "ring_id", "cayman");
    assert_eq!(
        (ring_id.lsb, ring_id.width, ring_id.reset),
        (30, 2, Some(1))
    );
}

// ---- S2M_Q.comp_cfg --------------------------------------------------------------------------

#[test]
fn s2m_comp_cfg_writeback_is_on_at_reset() {
    // [P9.1] §4.1: "| `COMP_CFG` | `0x10a0` | `0x1054` | RW |" (M2S / S2M offsets of queue
    // 0), and §4.2: "`S2M Q_COMP_CFG` **reset value = `0x0000000f`** — writeback is **ON by
    // default** (`en_comp_ring_update=1` plus first-packet-promotion / buf2-len-location)".
    // CSR — UDMA S2M §Per-queue config / status / control: "| 0x54 | `comp_cfg` |
    // `en_comp_ring_update[0]=1`, `dis_comp_coal[1]=1`, `first_pkt_promotion[2]=1`,
    // `buf2_len_location[3]=1` | RW |".
    use UDMA_S2M::cayman::S2M_Q::comp_cfg;
    assert_eq!(<comp_cfg as Register>::OFFSET, 0x54);
    assert_eq!(
        <UDMA_M2S::cayman::M2S_Q::comp_cfg as Register>::OFFSET,
        0xa0
    );
    let z = comp_cfg::default();
    assert_eq!(z.with_en_comp_ring_update(true).to_bits(), 0x1);
    assert_eq!(z.with_dis_comp_coal(true).to_bits(), 0x2);
    assert_eq!(z.with_first_pkt_promotion(true).to_bits(), 0x4);
    assert_eq!(z.with_buf2_len_location(true).to_bits(), 0x8);
    let reset = comp_cfg::from_bits(0x0000_000f);
    assert!(reset.en_comp_ring_update() && reset.dis_comp_coal());
    assert!(reset.first_pkt_promotion() && reset.buf2_len_location());

    let r = register("UDMA_S2M", "S2M_Q", "comp_cfg", "cayman");
    assert_eq!((r.offset, r.access), (0x54, "RW"));
    // CSR Field-Table Index §3.6: "| `S2M_Q/comp_cfg` | `0x54` | `en_comp_ring_update` | `0`
    // | RW | **`0x1`** | writeback **ON by default** (opposite of M2S) |".
    let en = field(r, "en_comp_ring_update", "cayman");
    assert_eq!((en.lsb, en.width, en.reset), (0, 1, Some(1)));
    // The whole Cayman word from the field resets: 0x0000000f.
    let word = (r.fields_on("cayman")).fold(0u64, |w, f| w | (f.reset.unwrap_or(0) << f.lsb));
    assert_eq!(word, 0xf);

    // Descriptor + Ring Field-Table Reference §6.2: Maverick adds "`desc_size[15:12]`
    // (rst 4)".
    let m = register("UDMA_S2M", "S2M_Q", "comp_cfg", "maverick");
    let ds = field(m, "desc_size", "maverick");
    assert_eq!((ds.lsb, ds.width, ds.reset), (12, 4, Some(4)));
    use UDMA_S2M::maverick::S2M_Q::comp_cfg as comp_cfg_maverick;
    assert_eq!(
        comp_cfg_maverick::default().with_desc_size(4).to_bits(),
        0x4000
    );
}

// ---- access: a WO register has no reader, an RO one no writer --------------------------------

#[test]
fn wo_registers_have_no_reader_and_ro_registers_no_writer() {
    // CSR — UDMA M2S §4.1: TDRHP "| **RO** | **head**"; §4.3: q_sw_ctrl "| **WO** |".
    assert!(readable!(UDMA_M2S::cayman::M2S_Q::TDRHP));
    assert!(!writable!(UDMA_M2S::cayman::M2S_Q::TDRHP));
    assert!(!readable!(UDMA_M2S::cayman::M2S_Q::q_sw_ctrl));
    assert!(writable!(UDMA_M2S::cayman::M2S_Q::q_sw_ctrl));
    // §4.1 row 0x38: TDRTP_inc "| RW |".
    assert!(readable!(UDMA_M2S::cayman::M2S_Q::TDRTP_inc));
    assert!(writable!(UDMA_M2S::cayman::M2S_Q::TDRTP_inc));
    // The RX doorbell: WO on the Cayman schema and header ([P9.1] §4.1 "**`*DRTP_INC`** |
    // ... | **WO**"), RW in the Maverick RTL JSON (Descriptor + Ring Field-Table Reference
    // §6.2).
    assert!(!readable!(UDMA_S2M::cayman::S2M_Q::RDRTP_inc));
    assert!(writable!(UDMA_S2M::cayman::S2M_Q::RDRTP_inc));
    assert!(readable!(UDMA_S2M::maverick::S2M_Q::RDRTP_inc));
    // Descriptor + Ring Field-Table Reference §6.1: "| `0xd4` | 4 | WO | `TDRTP_set` |".
    assert!(!readable!(UDMA_M2S::maverick::M2S_Q::TDRTP_set));
    assert!(writable!(UDMA_M2S::maverick::M2S_Q::TDRTP_set));
    // CSR — UDMA M2S §4.3: "| `0x24` | `status` | ... | **RO** | queue status |".
    assert!(!writable!(UDMA_M2S::maverick::M2S_Q::status));
}

/// The same markers for every register of every file, against its metadata's access.
#[test]
fn the_generated_reader_and_writer_methods_follow_the_access() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated/rust/dmaspec.rs"),
    )
    .unwrap();
    // `rt::register!(TYPE, OFFSET, Readable?, Writable?)` is the only place the markers are
    // given; the doc line above names the access.
    let mut seen = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(args) = line.trim().strip_prefix("rt::register!(") else {
            continue;
        };
        let reader = args.contains("Readable");
        let writer = args.contains("Writable");
        let doc = (lines[..i].iter().rev())
            .find(|l| l.trim_start().starts_with("/// `") && l.contains("` at +0x"))
            .unwrap();
        let access = ["RW", "RO", "WO"]
            .into_iter()
            .find(|a| doc.contains(&format!(", {a} (")))
            .unwrap_or_else(|| panic!("no access in {doc}"));
        assert_eq!(
            (reader, writer),
            (access != "WO", access != "RO"),
            "{args} ({access})"
        );
        seen += 1;
    }
    assert!(seen > 100, "{seen} registers");
}

// ---- MemoryBus ---------------------------------------------------------------------------------

#[test]
fn a_typed_write_lands_little_endian_at_the_register_and_reads_back() {
    use UDMA_M2S::cayman::{Block, M2S_Q, SIZE};
    let mut window = vec![0u8; SIZE as usize];
    {
        let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
        let mut q = m2s.M2S_Q(3).unwrap();
        // [P9.1] §4.2: en_pref = 0x10000, en_scheduling = 0x20000.
        q.cfg().write(
            M2S_Q::cfg::default()
                .with_en_pref(true)
                .with_en_scheduling(true),
        );
        q.TDRTP_inc()
            .write(M2S_Q::TDRTP_inc::default().with_val(0x12_3456));
        let cfg = q.cfg().read();
        assert!(cfg.en_pref() && cfg.en_scheduling() && !cfg.force_full_line());
        assert_eq!(q.TDRTP_inc().read().val(), 0x12_3456);
        assert_eq!(m2s.bus.faults(), 0);
    }
    // Queue 3's cfg at 0x4020 holds 0x00030000 little-endian; its doorbell at 0x4038.
    assert_eq!(window[0x4020..0x4024], [0x00, 0x00, 0x03, 0x00]);
    assert_eq!(window[0x4038..0x403c], [0x56, 0x34, 0x12, 0x00]);
    let touched = |i: usize| (0x4020..0x4024).contains(&i) || (0x4038..0x403b).contains(&i);
    let stray: Vec<usize> = (0..window.len())
        .filter(|&i| window[i] != 0 && !touched(i))
        .collect();
    assert!(
        stray.is_empty(),
        "bytes written outside the registers: {stray:x?}"
    );

    // And reading decodes what is in memory: a TDRHP at queue 0 (0x1034) of 0xC0000010.
    window[0x1034..0x1038].copy_from_slice(&0xC000_0010u32.to_le_bytes());
    let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
    let head = m2s.M2S_Q(0).unwrap().TDRHP().read();
    assert_eq!((head.ring_id(), head.descriptor_offset()), (3, 0x10));
}

#[test]
fn modify_changes_only_the_field_it_sets() {
    use UDMA_M2S::maverick::{Block, SIZE};
    let mut window = vec![0u8; SIZE as usize];
    // Queue 15 (0x1000 + 15*0x1000 = 0x10000) cfg at the Maverick reset word 0xe3640000
    // (CSR — UDMA M2S §Per-gen register-map deltas).
    window[0x10020..0x10024].copy_from_slice(&0xe364_0000u32.to_le_bytes());
    let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
    let mut q = m2s.M2S_Q(15).unwrap();
    assert_eq!(q.cfg().address(), 0x10020);
    q.cfg().modify(|c| c.with_en_scheduling(true));
    let c = q.cfg().read();
    assert_eq!(c.to_bits(), 0xe366_0000);
    assert_eq!(c.AXI_qos(), 0xe);
    assert!(c.force_full_line());
}

#[test]
fn the_file_base_offsets_every_bundle() {
    use UDMA_S2M::cayman::Block;
    // A bus holding two windows; the S2M file at 0x20000.
    let mut memory = vec![0u8; 0x40000];
    let mut s2m = Block::new(MemoryBus::new(&mut memory), 0x20000);
    let mut q = s2m.S2M_Q(2).unwrap();
    // CSR — UDMA S2M: comp_cfg at queue +0x54; queue 2 at 0x1000 + 2*0x1000.
    assert_eq!(q.comp_cfg().address(), 0x20000 + 0x3000 + 0x54);
    q.comp_cfg()
        .write(UDMA_S2M::cayman::S2M_Q::comp_cfg::from_bits(0xf));
    assert_eq!(memory[0x23054..0x23058], [0x0f, 0, 0, 0]);
}

#[test]
fn accesses_outside_the_memory_or_misaligned_are_faults_not_panics() {
    use UDMA_M2S::cayman::{Block, M2S_Q};
    // Memory covering queue 0 only: queue 3's registers are beyond it.
    let mut small = vec![0u8; 0x2000];
    let mut m2s = Block::new(MemoryBus::new(&mut small), 0);
    let mut q = m2s.M2S_Q(3).unwrap();
    q.TDRTP_inc().write(M2S_Q::TDRTP_inc::default().with_val(5));
    assert_eq!(q.TDRTP_inc().read().val(), 0, "a read outside gives 0");
    assert_eq!(m2s.bus.faults(), 2);
    // The last word of the memory is inside; one byte further is not.
    assert_eq!(m2s.bus.read32(0x1ffc), 0);
    assert_eq!(m2s.bus.faults(), 2);
    m2s.bus.write32(0x1ffd, 0xffff_ffff);
    m2s.bus.read32(0x2000);
    // Far out, where offset + 4 overflows.
    m2s.bus.read32(u64::MAX);
    m2s.bus.write32(u64::MAX - 1, 1);
    assert_eq!(m2s.bus.faults(), 6);
    assert!(small.iter().all(|&b| b == 0), "no fault wrote anything");

    // A window based at a misaligned address: every access is misaligned.
    let mut memory = vec![0u8; 0x20000];
    let mut m2s = Block::new(MemoryBus::new(&mut memory), 2);
    let mut q = m2s.M2S_Q(0).unwrap();
    q.cfg().write(M2S_Q::cfg::default().with_en_pref(true));
    assert!(!q.cfg().read().en_pref());
    assert_eq!(m2s.bus.faults(), 2);
    assert!(memory.iter().all(|&b| b == 0));
}

// ---- with_* builders ---------------------------------------------------------------------------

#[test]
fn with_builders_change_only_their_fields_bits() {
    use UDMA_M2S::cayman::M2S_Q::{TDRBP_low, TDRTP_inc, cfg};
    // (builder, the field's mask by hand from [P9.1] §4.2 / CSR — UDMA M2S §4.3).
    type Build = fn(cfg, bool) -> cfg;
    let ones = cfg::from_bits(u32::MAX);
    let zero = cfg::default();
    let cases: [(&str, Build, u32); 4] = [
        ("en_pref", |c, v| c.with_en_pref(v), 0x0001_0000),
        ("en_scheduling", |c, v| c.with_en_scheduling(v), 0x0002_0000),
        (
            "allow_lt_min_pref",
            |c, v| c.with_allow_lt_min_pref(v),
            0x0010_0000,
        ),
        (
            "force_full_line",
            |c, v| c.with_force_full_line(v),
            0x8000_0000,
        ),
    ];
    for (name, build, mask) in cases {
        assert_eq!(build(ones, false).to_bits(), !mask, "{name}");
        assert_eq!(build(zero, true).to_bits(), mask, "{name}");
        // Setting a set bit or clearing a clear one changes nothing.
        assert_eq!(build(ones, true), ones, "{name}");
        assert_eq!(build(zero, false), zero, "{name}");
    }
    // Multi-bit fields: 0 clears exactly the field, the maximum sets exactly it.
    assert_eq!(ones.with_AXI_qos(0).to_bits(), !0x7000_0000);
    assert_eq!(ones.with_axi_awcache_comp(0).to_bits(), !0x0f00_0000);
    assert_eq!(ones.with_pkt_len_offset(0).to_bits(), !0x0000_ffff);
    // Bits no source names (0x00ec0000 on Cayman: 18, 19, 21, 22, 23) are kept.
    let unnamed = cfg::from_bits(0x00ec_0000);
    assert_eq!(unnamed.with_en_pref(true).to_bits(), 0x00ed_0000);
    assert_eq!(unnamed.with_AXI_qos(5).to_bits(), 0x50ec_0000);
    // TDRTP_inc: val[23:0]; the top byte is kept.
    let t = TDRTP_inc::from_bits(0xAB00_0000).with_val(0x0100_0007);
    assert_eq!(t.to_bits(), 0xAB00_0007);
    // TDRBP_low: `addr[31:6]` ([5:0]=0, 64 B) — CSR — UDMA M2S §4.1 row 0x28.
    let b = TDRBP_low::from_bits(0x3f).with_addr(0x8000_0000 >> 6);
    assert_eq!(b.to_bits(), 0x8000_003f);
    assert_eq!(b.addr(), 0x0200_0000);
}

/// A file base so high that a register's address passes u64::MAX: bus addresses wrap (as
/// the bus's own do), so the access reaches a low address the 16-byte memory does not
/// hold, and faults; nothing panics, in debug or release.
#[test]
fn a_window_at_the_top_of_the_address_space_faults_instead_of_panicking() {
    use UDMA_M2S::cayman::Block;
    let mut memory = vec![0u8; 0x10];
    let mut m2s = Block::new(MemoryBus::new(&mut memory), u64::MAX - 0x10);
    let mut q = m2s.M2S_Q(3).unwrap();
    let _ = q.TDRTP_inc().read();
    assert_eq!(m2s.bus.faults(), 1);
}

// ---- the kernel driver's UDMA structs (aws-neuron-driver udma/udma_regs.h) -----------------

/// The absolute offset of `bundle.register` element 0 in `file` on `arch`.
fn absolute(file: &str, bundle_name: &str, name: &str, arch: &str) -> u64 {
    bundle(file, bundle_name).offset + register(file, bundle_name, name, arch).offset
}

#[test]
fn m2s_singletons_sit_where_the_drivers_struct_puts_them() {
    // udma_regs.h:132-144 struct udma_m2s_regs_v4: axi_m2s at [0x100] (:134), m2s at [0x200]
    // (:135), m2s_rd at [0x300] (:136), m2s_stream_rate_limiter at [0x3c0] (:138), m2s_comp
    // at [0x400] (:139), m2s_feature at [0x600] (:141); each member a u32 in declaration order.
    let rows = [
        ("AXI_M2S", "comp_wr_cfg_1", 0x100),        // :15, first member
        ("AXI_M2S", "comp_wr_cfg_2", 0x104),        // :16
        ("AXI_M2S", "data_rd_cfg_1", 0x108),        // :17
        ("AXI_M2S", "data_rd_cfg_2", 0x10c),        // :18
        ("AXI_M2S", "desc_rd_cfg_1", 0x110),        // :19
        ("AXI_M2S", "desc_rd_cfg_2", 0x114),        // :20
        ("AXI_M2S", "data_rd_cfg", 0x118),          // :21 "[0x18] Data read master configuration"
        ("AXI_M2S", "desc_rd_cfg_3", 0x11c),        // :23
        ("AXI_M2S", "desc_wr_cfg_1", 0x120),        // :24
        ("M2S", "cfg_len", 0x254),                  // :44 "[0x54] M2S packet length configuration"
        ("M2S", "stream_cfg", 0x258),               // :46 "[0x58] Stream interface configuration"
        ("M2S_rd", "desc_pref_cfg_1", 0x300),       // :52 "[0x0]"
        ("M2S_rd", "desc_pref_cfg_2", 0x304),       // :54 "[0x4]"
        ("M2S_rd", "desc_pref_cfg_3", 0x308),       // :56 "[0x8]"
        ("M2S_rd", "data_cfg", 0x310),              // :59 "[0x10] Data burst read configuration"
        ("M2S_stream_rate_limiter", "mask", 0x3d4), // :66 "[0x14]" of udma_rlimit_common
        ("M2S_comp", "cfg_application_ack", 0x408), // :81 "[0x8]"
        ("M2S_feature", "dma_version", 0x604),      // :87-88, after reserved0
    ];
    for arch in ["cayman", "mariana"] {
        for (b, r, at) in rows {
            assert_eq!(absolute("UDMA_M2S", b, r, arch), at, "{b}.{r} on {arch}");
        }
    }
    // udma_regs.h:64-71: the per-queue rlimit block puts mask at [0x14] of [0x60]
    // (:121-122), so M2S_Q.rate_limit_mask is +0x74, now confirmed, not inferred.
    let mask = register("UDMA_M2S", "M2S_Q", "rate_limit_mask", "cayman");
    assert_eq!((mask.offset, mask.confidence.tag), (0x74, "HIGH/OBSERVED"));
}

#[test]
fn m2s_fields_follow_the_drivers_masks() {
    use UDMA_M2S::cayman::M2S::{cfg_len, stream_cfg};
    use UDMA_M2S::cayman::M2S_rd::{data_cfg, desc_pref_cfg_3};
    // udma_regs.h:147 UDMA_M2S_CFG_LEN_MAX_PKT_SIZE_MASK 0x000FFFFF; :154 ENCODE_64K (1 << 24).
    assert_eq!(
        cfg_len::default().with_max_pkt_size(!0).to_bits(),
        0x000F_FFFF
    );
    assert_eq!(cfg_len::default().with_encode_64k(true).to_bits(), 1 << 24);
    // udma_regs.h:161 DISABLE (1 << 0), :167 RD_MODE (1 << 1), :169 RD_TH_MASK 0x0007FF00.
    assert_eq!(stream_cfg::default().with_disable(true).to_bits(), 1);
    assert_eq!(stream_cfg::default().with_rd_mode(true).to_bits(), 2);
    assert_eq!(stream_cfg::default().with_rd_th(!0).to_bits(), 0x0007_FF00);
    // udma_regs.h:185 MIN_BURST_ABOVE_THR_MASK 0x000000F0, :196 PREF_THR_MASK 0x0000FF00.
    let d = desc_pref_cfg_3::default();
    assert_eq!(d.with_min_burst_above_thr(!0).to_bits(), 0xF0);
    assert_eq!(d.with_pref_thr(!0).to_bits(), 0xFF00);
    // udma_regs.h:203 DATA_FIFO_DEPTH_MASK 0x00000FFF; :209-210 MAX_PKT_LIMIT_SHIFT 16,
    // MAX_PKT_LIMIT_RESET_VALUE 0x100.
    assert_eq!(
        data_cfg::default().with_data_fifo_depth(!0).to_bits(),
        0xFFF
    );
    let r = register("UDMA_M2S", "M2S_rd", "data_cfg", "cayman");
    let limit = field(r, "max_pkt_limit", "cayman");
    assert_eq!((limit.lsb, limit.reset), (16, Some(0x100)));
    // CSR — UDMA M2S §7 writes `data_fifo_depth[12:0]` and §6 `rd_th[20:8]`: kept as the
    // fields' alternatives, the driver's masks leading.
    let depth = field(r, "data_fifo_depth", "cayman");
    assert_eq!(depth.alternatives[0].name, "page_data_fifo_depth_12_0");
    let th = field(
        register("UDMA_M2S", "M2S", "stream_cfg", "cayman"),
        "rd_th",
        "cayman",
    );
    assert_eq!(th.alternatives[0].name, "page_rd_th_20_8");
}

#[test]
fn m2s_q_cfg_resets_to_3_shl_24_on_cayman_and_0xe3640000_on_maverick() {
    // udma_main.c:163 "#define M2S_CFG_RESET_VALUE (3<<24)", the hardware reset the driver
    // caches for each M2S queue (:178).
    for arch in ["cayman", "mariana"] {
        let r = register("UDMA_M2S", "M2S_Q", "cfg", arch);
        assert_eq!(r.reset, Some(0x0300_0000), "{arch}");
    }
    // CSR — UDMA M2S §Per-gen register-map deltas: "| `M2S_Q.cfg` | all-zero | `0xe3640000` |".
    let r = register("UDMA_M2S", "M2S_Q", "cfg", "maverick");
    assert_eq!(r.reset, Some(0xe364_0000));
}

#[test]
fn s2m_registers_the_driver_adds() {
    // udma_regs.h:284-301 struct udma_axi_s2m: ostand_cfg_wr_2 is the twelfth u32 (:299,
    // "[0x2c]") of axi_s2m at [0x100] (:384); :409 its MAX_DATA_WR_OSTAND_MASK 0x000003FF.
    // udma_regs.h:322-331 struct udma_s2m_rd at [0x300] (:386): desc_pref_cfg_1..4 at
    // [0x0], [0x4], [0x8], [0xc].
    for arch in ["sunda", "cayman", "mariana"] {
        assert_eq!(
            absolute("UDMA_S2M", "AXI_S2M", "ostand_cfg_wr_2", arch),
            0x12c
        );
        for (name, at) in [
            ("desc_pref_cfg_1", 0x300),
            ("desc_pref_cfg_3", 0x308),
            ("desc_pref_cfg_4", 0x30c),
        ] {
            assert_eq!(
                absolute("UDMA_S2M", "S2M_rd", name, arch),
                at,
                "{name} on {arch}"
            );
        }
    }
    use UDMA_S2M::cayman::AXI_S2M::ostand_cfg_wr_2;
    assert_eq!(
        ostand_cfg_wr_2::default()
            .with_max_data_wr_ostand(!0)
            .to_bits(),
        0x3FF
    );
}

#[test]
fn udma_gen_interrupt_bundles_are_the_drivers_group_controllers() {
    // udma_regs.h:486-511 struct iofic_grp_ctrl: each register followed by a reserved u32,
    // then int_abort_msk_grp and reserved7[3]: 0x40 bytes.
    let group = [
        ("int_cause_grp", 0x00, "RW"),
        ("int_cause_set_grp", 0x08, "WO"),
        ("int_mask_grp", 0x10, "RW"),
        ("int_mask_clear_grp", 0x18, "WO"),
        ("int_status_grp", 0x20, "RO"),
        ("int_control_grp", 0x28, "RW"),
        ("int_abort_msk_grp", 0x30, "RW"),
    ];
    // :513-522 union iofic_regs main_iofic (ctrl[16]) at 0x0, then reserved0[0x1c00 >> 2],
    // then secondary_iofic_ctrl at 0x2000 (three groups: udma_iofic.c:312-318 takes groups
    // 0..2 on rev 4); :599-611 iofic_base_* at 0x2d00 + k * 0x100.
    let mut bundles = vec![
        ("main_iofic".to_string(), 0x0, 16),
        ("secondary_iofic_ctrl".to_string(), 0x2000, 3),
    ];
    bundles.extend((0..7u64).map(|k| (format!("int_ctrl{k}"), 0x2d00 + 0x100 * k, 1)));
    for (name, offset, count) in &bundles {
        let (name, offset, count) = (name.as_str(), *offset, *count);
        let b = bundle("UDMA_GEN", name);
        assert_eq!((b.offset, b.size, b.count), (offset, 0x40, count), "{name}");
        if count > 1 {
            assert_eq!(b.stride, 0x40, "{name}");
        }
        for (reg, at, access) in group {
            let r = register("UDMA_GEN", name, reg, "cayman");
            assert_eq!((r.offset, r.access), (at, access), "{name}.{reg}");
        }
    }
    // udma_iofic.c:232 SET_ON_POSEDGE (1 << 3), :237 MASK_MSI_X (1 << 5), written together
    // by iofic_config into ctrl[group].int_control_grp (:250): group D of the primary
    // controller (:355-356) is 0x0 + 3 * 0x40 + 0x28.
    use UDMA_GEN::cayman::{Block, main_iofic};
    let flags = main_iofic::int_control_grp::default()
        .with_set_on_posedge(true)
        .with_mask_msi_x(true);
    assert_eq!(flags.to_bits(), 0x28);
    let mut window = vec![0u8; 0x4000];
    let mut udma_gen = Block::new(MemoryBus::new(&mut window), 0);
    let mut d = udma_gen.main_iofic(3).expect("group D of 16");
    d.int_control_grp().write(flags);
    assert_eq!(window[0xe8..0xec], 0x28u32.to_le_bytes());
}

#[test]
fn tdma_rob_cfg_rid_base_is_10_4_with_the_pages_12_4_kept() {
    // v3/sdma.h:15-20 "sdma_rob_cfg: ... 3:3 - use_rid_base / 4:10 - rid_base", offset 0x1c
    // (:23); CSR — UDMA_GEN §5.3 writes `[12:4] rid_base`.
    let r = register("TDMA_MODEL", "tdma", "tdma_rob_cfg", "cayman");
    assert_eq!(r.offset, 0x1c);
    let f = field(r, "rid_base", "cayman");
    assert_eq!((f.lsb, f.width), (4, 7));
    assert_eq!(f.alternatives[0].name, "page_rid_base_12_4");
    // udma_regs.h:616-624 struct udma_gen_ex_vmpr_v4: tx_sel then rx_sel[3] at
    // vmpr_v4[16] [0x400], 0x40 per queue: the page's cfg_vmpr_v4_0..3, raised.
    for (i, name) in [
        "cfg_vmpr_v4_0",
        "cfg_vmpr_v4_1",
        "cfg_vmpr_v4_2",
        "cfg_vmpr_v4_3",
    ]
    .into_iter()
    .enumerate()
    {
        let r = register("UDMA_GEN_EX", "VMPR_V4", name, "cayman");
        assert_eq!(
            (r.offset, r.confidence.tag),
            (4 * i as u64, "HIGH/OBSERVED")
        );
    }
    assert_eq!(bundle("UDMA_GEN_EX", "VMPR_V4").offset, 0x400);
}

// ---- the SDMA arbiters (DGE Descriptor-Builder + SDMA QoS / Arbitration, wiki-dge-builder-qos) --

/// Each row: (file, bundle, register, absolute offset, [(field, lsb, width, reset)]), read
/// by hand from the page's §7.3, §8.1, §8.3, §8.4 and §8.5 (the Cayman schema).
type ArbiterRow = (
    &'static str,
    &'static str,
    &'static str,
    u64,
    &'static [(&'static str, u32, u32, Option<u64>)],
);

#[test]
fn the_arbiter_registers_sit_where_the_cayman_schema_puts_them() {
    let rows: [ArbiterRow; 11] = [
        // §8.1 "// M2S_dwrr.cfg_sched @0x340 (RW):" en_dwrr [0] rst=0, pkt_mode_en [4] rst=0,
        // weight_inc [9:8] rst=2, inc_factor [19:16] rst=7.
        (
            "UDMA_M2S",
            "M2S_dwrr",
            "cfg_sched",
            0x340,
            &[
                ("en_dwrr", 0, 1, Some(0)),
                ("pkt_mode_en", 4, 1, Some(0)),
                ("weight_inc", 8, 2, Some(2)),
                ("inc_factor", 16, 4, Some(7)),
            ],
        ),
        // §8.1 "M2S_dwrr.ctrl_deficit_cnt @0x344 : init[23:0]".
        (
            "UDMA_M2S",
            "M2S_dwrr",
            "ctrl_deficit_cnt",
            0x344,
            &[("init", 0, 24, None)],
        ),
        // §8.4 "M2S_rate_limiter.gen_cfg @0x380 : short_cycle_size[15:0]=0x0FA, pkt_mode_en[24]=0".
        (
            "UDMA_M2S",
            "M2S_rate_limiter",
            "gen_cfg",
            0x380,
            &[
                ("short_cycle_size", 0, 16, Some(0xFA)),
                ("pkt_mode_en", 24, 1, Some(0)),
            ],
        ),
        // §8.4 "M2S_stream_rate_limiter.cfg_1s @0x3C0 : en[24]=0, pause[25]=0,
        // max_burst_size[23:0]=0xFFFFFF".
        (
            "UDMA_M2S",
            "M2S_stream_rate_limiter",
            "cfg_1s",
            0x3c0,
            &[
                ("max_burst_size", 0, 24, Some(0xFF_FFFF)),
                ("en", 24, 1, Some(0)),
                ("pause", 25, 1, Some(0)),
            ],
        ),
        // §8.4 "M2S_stream_rate_limiter.mask @0x3D4 : internal_rate_limiter[1]=1,
        // external_rate_limiter[0]=1".
        (
            "UDMA_M2S",
            "M2S_stream_rate_limiter",
            "mask",
            0x3d4,
            &[
                ("external_rate_limiter", 0, 1, Some(1)),
                ("internal_rate_limiter", 1, 1, Some(1)),
            ],
        ),
        // §8.3 "M2S_comp.cfg_1c @0x400": force_rr [25] rst=0, q_promotion [24] rst=1,
        // q_free_min [31:28] rst=0, unack_fifo_depth [19:8] rst=0x100, comp_fifo_depth [7:0]
        // rst=0x40.
        (
            "UDMA_M2S",
            "M2S_comp",
            "cfg_1c",
            0x400,
            &[
                ("comp_fifo_depth", 0, 8, Some(0x40)),
                ("unack_fifo_depth", 8, 12, Some(0x100)),
                ("q_promotion", 24, 1, Some(1)),
                ("force_rr", 25, 1, Some(0)),
                ("q_free_min", 28, 4, Some(0)),
            ],
        ),
        // §8.3 "M2S_comp.cfg_coal @0x404 : timer[31:0] = 0x0186A0".
        (
            "UDMA_M2S",
            "M2S_comp",
            "cfg_coal",
            0x404,
            &[("timer", 0, 32, Some(0x186A0))],
        ),
        // §7.3 "| `AXI_M2S_MLA.cfg_tdr_req_candidate_high_priority.enable` | `0x0008` |
        // `[15:0]` | `0x0000` |".
        (
            "UDMA_M2S",
            "AXI_M2S_MLA",
            "cfg_tdr_req_candidate_high_priority",
            0x8,
            &[("enable", 0, 16, Some(0))],
        ),
        // §7.3 "| `M2S_Q.dwrr_cfg_2.q_qos` | `0x1084` | `[7:0]` | `0x0` |", and the CORRECTION
        // "`0x1080` is `M2S_Q.dwrr_cfg_1` (`{pause[25], strict[24],
        // max_deficit_cnt_size[23:0]}`)".
        (
            "UDMA_M2S",
            "M2S_Q",
            "dwrr_cfg_2",
            0x1084,
            &[("q_qos", 0, 8, Some(0))],
        ),
        (
            "UDMA_M2S",
            "M2S_Q",
            "dwrr_cfg_1",
            0x1080,
            &[
                ("max_deficit_cnt_size", 0, 24, None),
                ("strict", 24, 1, None),
                ("pause", 25, 1, None),
            ],
        ),
        // §8.5 "| `S2M_Q.qos_cfg.q_qos` | `0x1060` | `[7:0]` | `0x0` |".
        (
            "UDMA_S2M",
            "S2M_Q",
            "qos_cfg",
            0x1060,
            &[("q_qos", 0, 8, Some(0))],
        ),
    ];
    for (file, b, r, at, fields) in rows {
        assert_eq!(absolute(file, b, r, "cayman"), at, "{b}.{r}");
        let reg = register(file, b, r, "cayman");
        for &(name, lsb, width, reset) in fields {
            let f = field(reg, name, "cayman");
            assert_eq!(
                (f.lsb, f.width, f.reset),
                (lsb, width, reset),
                "{b}.{r}.{name}"
            );
        }
    }
    // §8.4 "Per-queue override: M2S_Q.rate_limit_cfg_1 @0x1060 : en[24], pause[25],
    // max_burst_size[23:0]=0xFFFFFF"; "M2S.sel_rate_limit_status.token_cnt[23:0] @0x240"; §8.1
    // "`M2S.sel_dwrr_status.deficit_cnt[23:0]` (`@0x244`"; §8.5 "|
    // `S2M_rd.desc_pref_cfg_2.pref_force_rr` | `0x0304` | `[16]` | `0x1` |".
    let q = register("UDMA_M2S", "M2S_Q", "rate_limit_cfg_1", "cayman");
    assert_eq!(
        absolute("UDMA_M2S", "M2S_Q", "rate_limit_cfg_1", "cayman"),
        0x1060
    );
    assert_eq!(field(q, "max_burst_size", "cayman").reset, Some(0xFF_FFFF));
    assert_eq!(
        (
            field(q, "en", "cayman").lsb,
            field(q, "pause", "cayman").lsb
        ),
        (24, 25)
    );
    for (r, f, at) in [
        ("sel_rate_limit_status", "token_cnt", 0x240),
        ("sel_dwrr_status", "deficit_cnt", 0x244),
    ] {
        assert_eq!(absolute("UDMA_M2S", "M2S", r, "cayman"), at);
        let f = field(register("UDMA_M2S", "M2S", r, "cayman"), f, "cayman");
        assert_eq!((f.lsb, f.width), (0, 24));
    }
    assert_eq!(
        absolute("UDMA_S2M", "S2M_rd", "desc_pref_cfg_2", "cayman"),
        0x304
    );
    let rr = field_at(
        register("UDMA_S2M", "S2M_rd", "desc_pref_cfg_2", "cayman"),
        16,
        "cayman",
    );
    assert_eq!((rr.name, rr.reset), ("pref_force_rr", Some(1)));
    // Maverick keeps q_qos with no reset: the page's offsets and resets are Cayman's (§12).
    let mav = register("UDMA_M2S", "M2S_Q", "dwrr_cfg_2", "maverick");
    assert_eq!(field(mav, "q_qos", "maverick").reset, None);
}

#[test]
fn every_evt_sem_window_resets_to_0() {
    // The CSR Field-Table Index §3.4: "**NOTE — EVT_SEM ResetValue is bare `"0"`** (no `0x`)
    // for this file only"; §4: the file is invariant from v2 (sunda) to v4 (mariana).
    let windows = [
        "tpb_events",
        "tpb_semaphores_read",
        "tpb_semaphores_set",
        "tpb_semaphores_inc",
        "tpb_semaphores_dec",
    ];
    for arch in ["sunda", "cayman", "mariana"] {
        for w in windows {
            let r = register("TPB_EVENTS_SEMAPHORES_AXI", w, w, arch);
            assert_eq!(field(r, "value", arch).reset, Some(0), "{w} on {arch}");
        }
    }
}

#[test]
fn fields_whose_values_the_pages_name_carry_them_as_enumerators() {
    // CSR — UDMA_GEN + GEN_EX + TDMA_MODEL §3.3, axi_queue.cfg: "| `[17:16]` | `tx_mark_pkt` |
    // RW (rst `0x1`) | 0=never / 1=mark if NON_ACTIVE / 2=mark any |", "`[5:4]` | `rx_mark_pkt`
    // | ... | as `tx_mark_pkt`", "| `[12]` | `tx_state` | RO | per-queue AXI-error state
    // (0=ACTIVE 1=NON_ACTIVE) |"; §4.2: "| `transaction_type_table.write_cmd` | `[1:0] val` |
    // **0=BUFF1, 1=BUFF2, 2=DDP, 3=drop** |".
    let named = |file: &str, b: &str, r: &str, f: &str| {
        let reg = register(file, b, r, "cayman");
        field(reg, f, "cayman").enumerators.expect("an enum").1
    };
    for f in ["tx_mark_pkt", "rx_mark_pkt"] {
        let values: Vec<u64> = named("UDMA_GEN", "axi_queue", "cfg", f)
            .iter()
            .map(|e| e.1)
            .collect();
        assert_eq!(values, [0, 1, 2], "{f}");
    }
    for f in ["tx_state", "rx_state"] {
        let list = named("UDMA_GEN", "axi_queue", "cfg", f);
        assert_eq!(list, &[("ACTIVE", 0), ("NON_ACTIVE", 1)], "{f}");
    }
    let list = named("UDMA_GEN_EX", "transaction_type_table", "write_cmd", "val");
    assert_eq!(list, &[("BUFF1", 0), ("BUFF2", 1), ("DDP", 2), ("drop", 3)]);
}

#[test]
fn the_secondary_interrupt_groups_name_the_drivers_cause_bits() {
    use dmaspec::words::{
        UDMA_IOFIC_2ND_GROUP_A_CAUSE as A, UDMA_IOFIC_2ND_GROUP_B_CAUSE as B,
        UDMA_IOFIC_2ND_GROUP_C_CAUSE as C,
    };
    // udma_iofic.c:31 "#define INT_2ND_GROUP_A_M2S_MSIX_RESP BIT(27)", :86
    // "INT_2ND_GROUP_A_M2S_STRM_COMPL_MISMATCH BIT(0)"; group A defines bits 0-27.
    assert_eq!(A::M2S_MSIX_RESP.0, 1 << 27);
    assert_eq!(A::M2S_STRM_COMPL_MISMATCH.0, 1);
    assert_eq!(A::BITS.len(), 28);
    // :89 "INT_2ND_GROUP_B_S2M_TRNSCTN_TBL_INFO_PARITY BIT(31)", :104 "S2M_PKT_LEN BIT(24)",
    // :129 "S2M_PREFETCH_RING_ID BIT(11)", :138 "S2M_DATA_AXI_TO BIT(2)"; bits 3-7 and 12 have
    // no define, so 26 bits.
    assert_eq!(B::S2M_TRNSCTN_TBL_INFO_PARITY.0, 1 << 31);
    assert_eq!(B::S2M_PKT_LEN.0, 1 << 24);
    assert_eq!(B::S2M_PREFETCH_RING_ID.0, 1 << 11);
    assert_eq!(B::S2M_DATA_AXI_TO.0, 1 << 2);
    assert_eq!(B::BITS.len(), 26);
    // :145 "INT_2ND_GROUP_C_S2M_DESC_PRE_AXI_REQ_PARITY BIT(11)", :167
    // "INT_2ND_GROUP_C_M2S_DATA_FTCH_AXI_CMD_PARITY BIT(0)"; bits 0-11.
    assert_eq!(C::S2M_DESC_PRE_AXI_REQ_PARITY.0, 1 << 11);
    assert_eq!(C::M2S_DATA_FTCH_AXI_CMD_PARITY.0, 1);
    assert_eq!(C::BITS.len(), 12);
}

#[test]
fn sunda_m2s_is_caymans_without_the_six_nc3_registers() {
    // CSR — UDMA M2S §Per-gen register-map deltas: Sunda "lacks the `AXI_M2S_MLA` bundle (3
    // regs), `AXI_M2S.enhanced_ostand_cfg` (1 reg), and `M2S_Q.TDRDTP_inc`/`TDRDTP` (2 regs)";
    // "Sunda ring/AXI offsets and core resets are otherwise identical (`TDRBP_low`=`0x1028` …
    // `TCRHP`=`0x104c`; `comp_cfg_1c`=`0x01010040`; `dwrr_cfg_sched`=`0x00070200`)"; and the
    // reset row "| `AXI_M2S.ostand_cfg` | `0x20402040` | `0x20402040` | `0x20202040` |".
    assert!(regfile("UDMA_M2S").archs.contains(&"sunda"));
    assert_eq!(absolute("UDMA_M2S", "M2S_Q", "TDRBP_low", "sunda"), 0x1028);
    assert_eq!(absolute("UDMA_M2S", "M2S_Q", "TCRHP", "sunda"), 0x104c);
    let on_sunda = |b: &str, r: &str| {
        (bundle("UDMA_M2S", b).registers.iter()).any(|x| x.name == r && x.on("sunda"))
    };
    for (b, r) in [
        ("M2S_Q", "TDRDTP_inc"),
        ("M2S_Q", "TDRDTP"),
        ("AXI_M2S", "enhanced_ostand_cfg"),
        ("AXI_M2S_MLA", "cfg_tdr_req_candidate_high_priority"),
    ] {
        assert!(!on_sunda(b, r), "{b}.{r} is not on sunda");
        // ... and still on cayman (`register` panics when it is not).
        register("UDMA_M2S", b, r, "cayman");
    }
    let reset = |b: &str, r: &str, arch: &str| register("UDMA_M2S", b, r, arch).reset;
    assert_eq!(reset("M2S_comp", "cfg_1c", "sunda"), Some(0x0101_0040));
    assert_eq!(reset("M2S_dwrr", "cfg_sched", "sunda"), Some(0x0007_0200));
    assert_eq!(reset("AXI_M2S", "ostand_cfg", "sunda"), Some(0x2020_2040));
    assert_eq!(reset("AXI_M2S", "ostand_cfg", "cayman"), Some(0x2040_2040));
}

/// The layout of bundle `name` of `file` on `arch` (a bundle laid out per generation has one
/// declaration per layout).
fn bundle_on(file: &str, name: &str, arch: &str) -> &'static BundleMeta {
    (regfile(file).bundles.iter())
        .find(|b| b.name == name && b.archs.contains(&arch))
        .unwrap_or_else(|| panic!("{file} has no bundle {name} on {arch}"))
}

#[test]
fn maverick_udma_gen_bundles_sit_where_the_al_udma_map_puts_them() {
    // The al_udma Hardware DMA Engine §1.5, the `al_udma_gen_regs.json` bundle map:
    // "| `0x2100` | `DMA_misc` |", "| `0x2200` | `Mailbox[4]` |", "| `0x2300` | `AXI` |",
    // "| `0x2560` | `vmid` |", "| `0x2580`/`0x25a0` | `axi_master_shaper` / `axi_slave_shaper` |",
    // "| `0x2600` | `VMADDR[NUM_OF_Q]` |", "| `0x2900` | `axi_error_detection_table[...]` |",
    // "| `0x3400` | `pmu` |", "| `0x3500` | `INTC_shadow_access` |",
    // "| `0x3700` | `axi_outstanding_cnt[NUM_OF_Q]` |", "| `0x3c80` | `axi_queue[NUM_OF_Q]` |",
    // "| `0x3f00` | `queue_mapping` |"; §1.1 "`M2S_Q[NUM_OF_Q]` | the 16 per-queue ring banks",
    // so NUM_OF_Q = 16. NUM_OF_AXI_GENERATOR has no value on the page: 7 is the Cayman count
    // (CSR — UDMA_GEN §3.1 "| `0x02900` | `0x02ac0` | 7 | 64 | 16 |"), carried as inferred.
    let map = [
        ("DMA_misc", 0x2100, 1),
        ("Mailbox", 0x2200, 4),
        ("AXI", 0x2300, 1),
        ("vmid", 0x2560, 1),
        ("axi_master_shaper", 0x2580, 1),
        ("axi_slave_shaper", 0x25a0, 1),
        ("VMADDR", 0x2600, 16),
        ("axi_error_detection_table", 0x2900, 7),
        ("pmu", 0x3400, 1),
        ("INTC_shadow_access", 0x3500, 1),
        ("axi_outstanding_cnt", 0x3700, 16),
        ("axi_queue", 0x3c80, 16),
        ("queue_mapping", 0x3f00, 1),
    ];
    for (name, offset, count) in map {
        let b = bundle_on("UDMA_GEN", name, "maverick");
        assert_eq!((b.offset, b.count), (offset, count), "{name}");
        // Each lies below the next base the map lists (the window ends at 0x4000).
        assert!(
            b.offset + (b.count - 1) * b.stride + b.size <= 0x4000,
            "{name}"
        );
    }
    let on_maverick =
        (regfile("UDMA_GEN").bundles.iter()).filter(|b| b.archs.contains(&"maverick"));
    assert_eq!(on_maverick.count(), map.len());
    // Moved on Maverick, against CSR — UDMA_GEN §3.1: "| `0x02500` | `0x02504` | 1 | 4 | 1 |
    // `vmid`", "| `0x02700` | `0x028c0` | 16 | 28 | 7 | `axi_outstanding_cnt[16]`",
    // "| `0x02c00` | `0x02cc0` | 16 | 12 | 3 | `axi_queue[16]`".
    for (name, cayman, maverick) in [
        ("vmid", 0x2500, 0x2560),
        ("axi_outstanding_cnt", 0x2700, 0x3700),
        ("axi_queue", 0x2c00, 0x3c80),
    ] {
        assert_eq!(bundle_on("UDMA_GEN", name, "cayman").offset, cayman);
        assert_eq!(bundle_on("UDMA_GEN", name, "maverick").offset, maverick);
    }
    // §1.5 lists no Cayman-only bundle: the interrupt blocks are not placed on Maverick.
    let b = bundle("UDMA_GEN", "int_ctrl0");
    assert!(!b.archs.contains(&"maverick"));
}

#[test]
fn maverick_s2m_has_its_three_extra_bundles_inside_its_0x38000_window() {
    // The al_udma Hardware DMA Engine §1.2: "`SizeInBytes = 0x38000` (Maverick; Cayman/Mariana
    // 0x18000), 12 bundles", "| `0x700`/`0x900` | `S2M_shadow_access` / `S2M_resp_err` |",
    // "| `0x1000` | `S2M_Q[NUM_OF_Q]` |", "| `0x33000` | `S2M_DYN_MTU` |"; Descriptor + Ring
    // Field-Table Reference §6: "| `S2M_resp_err` | `0x900` |", "| `S2M_DYN_MTU` | `0x33000` |".
    // The sizes are the gaps to the next base (0x900, 0x1000) and to the window end.
    for (name, offset, end) in [
        ("S2M_shadow_access", 0x700, 0x900),
        ("S2M_resp_err", 0x900, 0x1000),
        ("S2M_DYN_MTU", 0x33000, 0x38000),
    ] {
        let b = bundle_on("UDMA_S2M", name, "maverick");
        assert_eq!((b.offset, b.offset + b.size), (offset, end), "{name}");
        assert_eq!(b.archs, ["maverick"], "{name}");
    }
    let on_maverick =
        (regfile("UDMA_S2M").bundles.iter()).filter(|b| b.archs.contains(&"maverick"));
    assert_eq!(on_maverick.count(), 12);
}

#[test]
fn s2m_q_cfg_resets_to_the_drivers_3_shl_24_with_the_pages_0x03000033_a_conflict() {
    // udma_main.c:164 "#define S2M_CFG_RESET_VALUE (3<<24)", the hardware reset the driver
    // caches for each S2M queue (:181).
    for arch in ["sunda", "cayman", "mariana"] {
        let r = register("UDMA_S2M", "S2M_Q", "cfg", arch);
        assert_eq!(r.reset, Some(0x0300_0000), "{arch}");
        // The pages' awcache_hdr / awcache_data reset 3 is the conflict's other reading, so
        // those fields state none of their own.
        for f in ["axi_awcache_hdr", "axi_awcache_data"] {
            assert_eq!(field(r, f, arch).reset, None, "{f} on {arch}");
        }
        assert_eq!(field(r, "axi_awcache_comp", arch).reset, Some(3));
    }
    // CSR — UDMA S2M §7: "| `S2M_Q.cfg`@0x1020 | `0x03000033` | `0xe3040033` |": Maverick's
    // word, of which the driver says nothing.
    let r = register("UDMA_S2M", "S2M_Q", "cfg", "maverick");
    assert_eq!(r.reset, Some(0xe304_0033));
}

#[test]
fn every_app_engine_status_register_is_a_16_bit_queue_bitmap() {
    // CSR — UDMA_GEN + GEN_EX + TDMA_MODEL §5.3: "`app_engine_status` — per-queue inflight
    // bitmaps (one bit per queue, `[15:0]`)", the five rows at +0x00, +0x04, +0x08, +0x0c,
    // +0x20, all RW; the CSR index §3.7 row for dre_packets_inflight: "`0x604` | — | `15:0`".
    for (name, at) in [
        ("cme_packets_inflight", 0x600),
        ("dre_packets_inflight", 0x604),
        ("cce_packets_inflight", 0x608),
        ("ats_packets_inflight", 0x60c),
        ("dmb_packets_inflight", 0x620),
    ] {
        assert_eq!(
            absolute("TDMA_MODEL", "app_engine_status", name, "cayman"),
            at
        );
        let r = register("TDMA_MODEL", "app_engine_status", name, "cayman");
        assert_eq!(r.fields.len(), 1, "{name}");
        let f = &r.fields[0];
        assert_eq!((f.lsb, f.width, f.access), (0, 16, "RW"), "{name}");
    }
}

// ---- NOTIFIC: the kernel driver's notific.h and the page "CSR — NOTIFIC Queue" -----------

/// The name the evidence cited as `cite` gives `r` (`None` when no evidence cites it so).
fn driver_name(r: &RegisterMeta, cite: &str) -> Option<&'static str> {
    (r.evidence.iter())
        .find(|e| e.cite == cite)
        .map(|e| e.name.unwrap_or(r.name))
}

#[test]
fn notific_queue_descriptors_sit_where_the_drivers_notific_h_puts_them() {
    // v3/notific.h:71 "#define NOTIFIC_NQ_SIZE 0x28"; the per-queue offset is
    // START + index * NOTIFIC_NQ_SIZE (:73): BASE_ADDR_LO_OFFSET_START 0x100 (:72),
    // BASE_ADDR_HI 0x104 (:85), F_SIZE 0x108 (:98); v3/notific.c:12 NOTIFIC_NQ_HEAD_OFFSET
    // 0x10c. v2/notific.h:53-80 and v2/notific.c:12-13 give the same numbers for sunda.
    let nq = bundle("NOTIFIC_10_QUEUE", "notific_nq");
    assert_eq!((nq.offset, nq.stride, nq.count), (0x100, 0x28, 10));
    let rows = [
        ("base_addr_lo", 0x100, "base_addr_lo", "v3/notific.h"),
        ("base_addr_hi", 0x104, "base_addr_hi", "v3/notific.h"),
        ("size", 0x108, "f_size", "v3/notific.h"),
        ("head_ptr", 0x10c, "head", "v3/notific.c"),
    ];
    for arch in ["sunda", "cayman"] {
        for (r, at, driver, file) in rows {
            let reg = register("NOTIFIC_10_QUEUE", "notific_nq", r, arch);
            assert_eq!(nq.offset + reg.offset, at, "{r} on {arch}");
            let cite = format!("aws-neuron-driver §{file}");
            assert_eq!(driver_name(reg, &cite), Some(driver), "{r}'s driver name");
        }
    }
    // The *_RESET_VALUE defines: v3/notific.h:75 and :88 0x00000000, :101
    // NOTIFIC_F_SIZE_RESET_VALUE 0x00000000.
    for r in ["base_addr_lo", "base_addr_hi", "size"] {
        let reg = register("NOTIFIC_10_QUEUE", "notific_nq", r, "cayman");
        assert_eq!(reg.reset, Some(0), "{r}");
    }
    // CSR — NOTIFIC Queue §3.1, the absolute map's last row:
    // "| 9 | `0x268` | `0x26c` | `0x270` | `0x274` | `0x278` | `0x27c` |".
    let last = |r: &str| {
        nq.offset + 9 * nq.stride + register("NOTIFIC_10_QUEUE", "notific_nq", r, "cayman").offset
    };
    assert_eq!(last("base_addr_lo"), 0x268);
    assert_eq!(last("head_ptr"), 0x274);
    assert_eq!(last("threshold"), 0x27c);
}

#[test]
fn the_wr_buffer_mask_names_its_forty_classes() {
    use dmaspec::words::NOTIFIC_WR_BUFFER as W;
    // CSR — NOTIFIC Queue §6.1: "| `1<<0x00` | `PE_0` (`ENG_MIN`) | `1<<0x0b` | `EVSEM` |",
    // "| `1<<0x0a` | `SP` (`ENG_MAX`) | `1<<0x1c` | `ERROR_EVENT_ERROR` |", "`1<<0x0c` | `HAM`",
    // "`1<<0x0d..0x14` | `Q7_0 .. Q7_7`", "`1<<0x15` | `ERROR_FP_UNDERFLOW` (`ERROR_MIN`)",
    // "`1<<0x1d` | `ERROR_PSUM_COLLISION`", "`1<<0x1e..0x27` | per-engine
    // `SEQUENCER_{NONFATAL,FATAL}` ... up to `ERROR_MAX = 1<<0x27`": 0x28 = 40 positions.
    assert_eq!(W::PE_0.0, 1);
    assert_eq!(W::SP.0, 1 << 0x0a);
    assert_eq!(W::EVSEM.0, 1 << 0x0b);
    assert_eq!(W::HAM.0, 1 << 0x0c);
    assert_eq!((W::Q7_0.0, W::Q7_7.0), (1 << 0x0d, 1 << 0x14));
    assert_eq!(W::ERROR_FP_UNDERFLOW.0, 1 << 0x15);
    assert_eq!(W::ERROR_EVENT_ERROR.0, 1 << 0x1c);
    assert_eq!(W::ERROR_PSUM_COLLISION.0, 1 << 0x1d);
    assert_eq!(
        (W::ERROR_SEQUENCER_0.0, W::ERROR_SEQUENCER_9.0),
        (1 << 0x1e, 1 << 0x27)
    );
    assert_eq!(W::BITS.len(), 40);
}

#[test]
fn the_notific_trigger_bits_are_the_headers_seven() {
    use dmaspec::words::NOTIFIC_TRIGGER as T;
    // CSR — NOTIFIC Queue §6.2: "| 0 | `NOTIFIC_SW_NQ_FULL_ERR_BIT` |", "| 1 |
    // `NOTIFIC_QUEUE_DISABLED_ERR_BIT` |", "| 3 | `NOTIFIC_WR_BUFFER_FULL_DROP_BIT` |",
    // "| 4 | `NOTIFIC_AXI_WRITE_ERR_BIT` |", "| 6 | `NOTIFIC_SW_NQ_THLD_REACHED_BIT` |";
    // "Trigger bits 0–6 map 1:1 to the named `#define`s".
    assert_eq!(T::SW_NQ_FULL_ERR.0, 1);
    assert_eq!(T::QUEUE_DISABLED_ERR.0, 1 << 1);
    assert_eq!(T::WR_BUFFER_FULL_DROP.0, 1 << 3);
    assert_eq!(T::AXI_WRITE_ERR.0, 1 << 4);
    assert_eq!(T::SW_NQ_THLD_REACHED.0, 1 << 6);
    assert_eq!(T::BITS.len(), 7);
}

#[test]
fn three_queue_registers_pulse_on_write() {
    // CSR — NOTIFIC Queue §3, the SpecialAccess column: "| `+0x00` | `base_addr_lo` | RW |
    // `bits[31:0]` | `0` | `PulseOnW` |", base_addr_hi and head_ptr `PulseOnW`; size,
    // tail_ptr and threshold "None". The same rows hold for the 1-queue file (§8).
    for file in ["NOTIFIC_10_QUEUE", "NOTIFIC_1_QUEUE"] {
        for (r, special) in [
            ("base_addr_lo", Some("PulseOnW")),
            ("base_addr_hi", Some("PulseOnW")),
            ("size", None),
            ("head_ptr", Some("PulseOnW")),
            ("tail_ptr", None),
            ("threshold", None),
        ] {
            let reg = register(file, "notific_nq", r, "cayman");
            assert_eq!(reg.special_access, special, "{file}.{r}");
        }
    }
}

// ---- issue 39: the driver's remaining AXI, prefetch and error-mask fields, and its field
// names as aliases (udma/udma_regs.h at fca19f7d, cited file:line) ----------------------------

/// The name, lsb, width and reset of each field of `r` on `arch`, in bit order.
fn layout(r: &'static RegisterMeta, arch: &str) -> Vec<(&'static str, u32, u32, Option<u64>)> {
    let mut out: Vec<_> = (r.fields.iter())
        .filter(|f| f.archs.contains(&arch))
        .map(|f| (f.name, f.lsb, f.width, f.reset))
        .collect();
    out.sort_by_key(|f| f.1);
    out
}

/// Whether the driver's evidence on `f` calls it `name`.
fn driver_alias(f: &RegFieldMeta, name: &str) -> bool {
    (f.evidence.iter()).any(|e| e.source == "aws-neuron-driver" && e.name == Some(name))
}

#[test]
fn m2s_ostand_cfg_is_four_bytes_of_the_drivers_masks() {
    use UDMA_M2S::cayman::AXI_M2S::ostand_cfg;
    // udma_regs.h:438 MAX_DATA_RD_MASK 0x000000FF, :442 MAX_DESC_RD_MASK 0x0000FF00, :446
    // MAX_COMP_REQ_MASK 0x00FF0000, :450 MAX_COMP_DATA_WR_SHIFT 24 (no mask).
    let o = ostand_cfg::default();
    assert_eq!(o.with_max_data_rd(!0).to_bits(), 0xFF);
    assert_eq!(o.with_max_desc_rd(!0).to_bits(), 0xFF00);
    assert_eq!(o.with_max_comp_req(!0).to_bits(), 0x00FF_0000);
    assert_eq!(o.with_max_comp_data_wr(1).to_bits(), 1 << 24);
    // CSR — UDMA M2S §9: "| `ostand_cfg` (@`0x124`) | `0x20402040` |", read byte by byte
    // under those masks; §Per-gen register-map deltas: Sunda "`0x20202040` (lower comp-req)".
    for (arch, word) in [("cayman", 0x2040_2040u64), ("sunda", 0x2020_2040)] {
        let r = register("UDMA_M2S", "AXI_M2S", "ostand_cfg", arch);
        assert_eq!(r.reset, Some(word), "{arch}");
        let resets: Vec<_> = layout(r, arch).iter().map(|f| (f.0, f.3)).collect();
        let comp_req = if arch == "cayman" { 0x40 } else { 0x20 };
        assert_eq!(
            resets,
            [
                ("max_data_rd", Some(0x40)),
                ("max_desc_rd", Some(0x20)),
                ("max_comp_req", Some(comp_req)),
                ("max_comp_data_wr", Some(0x20)),
            ],
            "{arch}"
        );
    }
}

#[test]
fn s2m_ostand_fields_sit_at_the_drivers_shifts_with_the_pages_resets() {
    // udma_regs.h:394 MAX_DESC_RD_OSTAND_MASK 0x000000FF, :397 MAX_STREAM_ACK_SHIFT 16; CSR —
    // UDMA S2M §AXI master parameters: "`max_stream_ack=0x40`, `max_desc_rd_ostand=0x20`".
    let r = register("UDMA_S2M", "AXI_S2M", "ostand_cfg_rd", "cayman");
    let rd: Vec<_> = layout(r, "cayman")
        .iter()
        .map(|f| (f.0, f.1, f.3))
        .collect();
    assert_eq!(
        rd,
        [
            ("max_desc_rd_ostand", 0, Some(0x20)),
            ("max_stream_ack", 16, Some(0x40))
        ]
    );
    assert_eq!(field(r, "max_desc_rd_ostand", "cayman").width, 8);
    // udma_regs.h:400, 402, 404, 406: shifts 0, 8, 16, 24; the same row: "`max_data_wr_ostand
    // =0x20`, `max_data_beats_wr_ostand=0x40`, `max_comp_req=0x20`, `max_comp_data_wr_ostand
    // =0x40`", the page's longer names kept as its aliases.
    let r = register("UDMA_S2M", "AXI_S2M", "ostand_cfg_wr", "cayman");
    let wr: Vec<_> = layout(r, "cayman")
        .iter()
        .map(|f| (f.0, f.1, f.3))
        .collect();
    assert_eq!(
        wr,
        [
            ("max_data_wr_ostand", 0, Some(0x20)),
            ("max_data_beats_wr", 8, Some(0x40)),
            ("max_comp_req", 16, Some(0x20)),
            ("max_comp_data_wr", 24, Some(0x40)),
        ]
    );
    let beats = field(r, "max_data_beats_wr", "cayman");
    assert!(
        beats
            .evidence
            .iter()
            .any(|e| e.name == Some("max_data_beats_wr_ostand"))
    );
}

#[test]
fn burst_and_prefetch_fields_sit_at_the_drivers_shifts() {
    // udma_regs.h:178-181: DESC_RD_CFG_3 MAX_AXI_BEATS_SHIFT 0 and
    // ALWAYS_BREAK_ON_MAX_BOUNDARY_SHIFT 16, for axi_m2s and axi_s2m alike; CSR — UDMA M2S §9
    // and CSR — UDMA S2M §AXI master parameters: "`max_AXI_beats=8`".
    for (file, bundle_name) in [("UDMA_M2S", "AXI_M2S"), ("UDMA_S2M", "AXI_S2M")] {
        let r = register(file, bundle_name, "desc_rd_cfg_3", "cayman");
        let beats = field_at(r, 0, "cayman");
        assert_eq!(
            (beats.name, beats.reset),
            ("max_axi_beats", Some(8)),
            "{file}"
        );
        let brk = field_at(r, 16, "cayman");
        assert_eq!(brk.name, "always_break_on_max_boundary", "{file}");
    }
    // udma_regs.h:190 S2M MIN_BURST_BELOW_THR_SHIFT 0, :187 MIN_BURST_ABOVE_THR_SHIFT 4, :198
    // PREF_THR_SHIFT 8.
    let r = register("UDMA_S2M", "S2M_rd", "desc_pref_cfg_3", "cayman");
    let names: Vec<_> = layout(r, "cayman").iter().map(|f| (f.0, f.1)).collect();
    assert_eq!(
        names,
        [
            ("min_burst_below_thr", 0),
            ("min_burst_above_thr", 4),
            ("pref_thr", 8)
        ]
    );
}

#[test]
fn s2m_err_log_mask_names_the_drivers_ring_id_bit() {
    // udma_regs.h:475 "#define UDMA_S2M_ERR_LOG_MASK_PREF_RING_ID (1 << 11)"; the page's single
    // internal[31:0] is the other side of conflict s2m_err_log_mask_fields, not a field.
    let r = register("UDMA_S2M", "S2M", "err_log_mask", "cayman");
    let f = field_at(r, 11, "cayman");
    assert_eq!((f.name, f.width), ("pref_ring_id", 1));
    assert!(r.fields.iter().all(|f| f.name != "internal"));
}

#[test]
fn the_drivers_offset_and_disable_are_aliases_of_the_pages_names() {
    // udma_regs.h:225 UDMA_M2S_Q_TDRL_OFFSET_MASK, :232 TDRHP_OFFSET_MASK, :245
    // TDRTP_OFFSET_MASK, :261 TCRHP_OFFSET_MASK, :270 TCRHP_INTERNAL_OFFSET_MASK, each
    // 0x00FFFFFF; the pages name the field descriptor_offset[23:0].
    for name in ["TDRL", "TDRHP", "TDRTP", "TCRHP", "TCRHP_internal"] {
        let f = field(
            register("UDMA_M2S", "M2S_Q", name, "cayman"),
            "descriptor_offset",
            "cayman",
        );
        assert_eq!((f.lsb, f.width), (0, 24), "{name}");
        assert!(driver_alias(f, "OFFSET"), "{name}");
    }
    // udma_regs.h:415 "#define UDMA_S2M_STREAM_CFG_DISABLE (1 << 0)"; CSR — UDMA S2M §Engine
    // state and stream config: "`disable_stream[0]`".
    let r = register("UDMA_S2M", "S2M", "stream_cfg", "cayman");
    let f = field_at(r, 0, "cayman");
    assert_eq!(f.name, "disable_stream");
    assert!(driver_alias(f, "DISABLE"));
}
