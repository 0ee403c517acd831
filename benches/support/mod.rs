//! Inputs and the peer implementations the benchmarks compare against: a hand-written
//! DMA_DIRECT2D decoder (`from_le_bytes` + masks), and deku and binrw descriptions of the
//! same 64 bytes. All three decode into (or convert to) [`Hand`], so [`check_peers`] can
//! prove they read what the generated decoder reads before anything is timed.

#![allow(dead_code)]

use binrw::BinRead;
use deku::prelude::*;
use dmaspec::prelude::*;
use dmaspec::words::{DGE_COMPUTE_OP, DMA_DIRECT2D, DTYPE, UPDATE_MODE, WAIT_MODE};
use dmaspec::{Arch, WORDS, WordMeta};

pub const WORD: usize = 64;

/// Deterministic generator (xorshift64*), so every run times the same bytes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn fill(&mut self, b: &mut [u8]) {
        for chunk in b.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

fn enumerator(rng: &mut Rng, values: &[dmaspec::runtime::meta::EnumeratorMeta]) -> u8 {
    rng.pick(values).value as u8
}

/// `n` plausible DMA_DIRECT2D words: random numbers, but the header, enums and address
/// markers hold values the sources name (as a compiler would emit them).
pub fn direct2d_stream(n: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x00d1_2ec7_2d00_0001);
    let mut out = vec![0u8; n * WORD];
    let markers = [0x00u8, 0x40, 0x80, 0xc0, 0x20, 0x28, 0x60, 0x68];
    for w in out.chunks_exact_mut(WORD) {
        rng.fill(w);
        w[0] = DMA_DIRECT2D::OPCODE;
        w[1] = 16;
        w[2] = 0;
        w[3] = 0;
        w[4] = enumerator(&mut rng, WAIT_MODE::ENUMERATORS);
        w[6] = enumerator(&mut rng, UPDATE_MODE::ENUMERATORS);
        w[12] &= 0x07;
        w[15] = enumerator(&mut rng, DGE_COMPUTE_OP::ENUMERATORS);
        w[23] = rng.pick(&markers);
        w[47] = rng.pick(&markers);
        w[62] = enumerator(&mut rng, DTYPE::ENUMERATORS);
        w[63] = enumerator(&mut rng, DTYPE::ENUMERATORS);
    }
    out
}

/// `n` random words of one struct (random bytes, its opcode, a 64-byte length).
pub fn struct_stream(meta: &WordMeta, n: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x5eed ^ u64::from(meta.opcode) << 32);
    let mut out = vec![0u8; n * WORD];
    for w in out.chunks_exact_mut(WORD) {
        rng.fill(w);
        w[0] = meta.opcode;
        if meta.fields.first().is_some_and(|f| f.name == "header") {
            w[1] = 16;
        }
    }
    out
}

/// What the mixed stream holds, for the report.
#[derive(Debug, Default)]
pub struct MixStats {
    pub pairs: usize,
    pub single: usize,
    pub unknown: usize,
    pub orphans: usize,
}

/// A realistic mixed stream of `n` words for `arch`: extension pairs (a word and the
/// word that must follow it, e.g. 0xd4 + 0xda), every other word of the spec (direct,
/// indirect, transposes, triggers as the spec grows), about 2% unknown opcodes and 1%
/// orphaned extension words. The words come from [`WORDS`], so new ones join in.
pub fn mixed_stream(n: usize, arch: Arch) -> (Vec<u8>, MixStats) {
    let mut rng = Rng::new(0x0d4d_a000_0000_0007);
    let in_arch: Vec<&WordMeta> = WORDS.iter().filter(|w| w.arch.contains(&arch)).collect();
    let followers: Vec<&WordMeta> = in_arch
        .iter()
        .copied()
        .filter(|w| !w.follows.is_empty())
        .collect();
    // One pair per word an extension may follow.
    let pairs: Vec<(&WordMeta, &WordMeta)> = followers
        .iter()
        .flat_map(|f| {
            in_arch
                .iter()
                .filter(|w| f.follows.contains(&w.name))
                .map(|lead| (*lead, *f))
        })
        .collect();
    let singles: Vec<&WordMeta> = in_arch
        .iter()
        .copied()
        .filter(|w| w.follows.is_empty() && !pairs.iter().any(|(lead, _)| lead.name == w.name))
        .collect();
    let unknown: Vec<u8> = (0..=255u8)
        .filter(|op| !in_arch.iter().any(|w| w.opcode == *op))
        .collect();
    let mut stats = MixStats::default();
    let mut out = Vec::with_capacity(n * WORD);
    let push = |rng: &mut Rng, out: &mut Vec<u8>, op: u8| {
        let mut w = [0u8; WORD];
        rng.fill(&mut w);
        w[0] = op;
        out.extend_from_slice(&w);
    };
    while out.len() < n * WORD {
        let r = rng.below(100);
        if r < 45 && !pairs.is_empty() && out.len() + 2 * WORD <= n * WORD {
            let (lead, follower) = rng.pick(&pairs);
            push(&mut rng, &mut out, lead.opcode);
            push(&mut rng, &mut out, follower.opcode);
            stats.pairs += 1;
        } else if r < 97 && !singles.is_empty() {
            let w = rng.pick(&singles);
            push(&mut rng, &mut out, w.opcode);
            stats.single += 1;
        } else if r < 99 && !unknown.is_empty() {
            let op = rng.pick(&unknown);
            push(&mut rng, &mut out, op);
            stats.unknown += 1;
        } else if !followers.is_empty() {
            // After a single or unknown word, so it is an orphan.
            if !singles.is_empty() && out.len() + 2 * WORD <= n * WORD {
                let w = rng.pick(&singles);
                push(&mut rng, &mut out, w.opcode);
                stats.single += 1;
                let f = rng.pick(&followers);
                push(&mut rng, &mut out, f.opcode);
                stats.orphans += 1;
            }
        }
    }
    (out, stats)
}

/// DMA_DIRECT2D as a user would decode it by hand: every field and bit-field sub-field as
/// a plain integer, the 8-byte addresses raw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand {
    pub opcode: u8,
    pub inst_word_len: u8,
    pub debug_cmd: u8,
    pub debug_hint: u8,
    pub wait_mode: u8,
    pub wait_idx: u8,
    pub update_mode: u8,
    pub update_idx: u8,
    pub semaphore_value: u32,
    pub priority_class: u8,
    pub dma_configs_reserved: u8,
    pub semaphore: u8,
    pub sem_increment: u8,
    pub compute_op: u8,
    pub src_start_addr: u64,
    pub src_step_elem: [i32; 2],
    pub src_num_elem: [u16; 2],
    pub src_elem_size: u16,
    pub src_bound_reg: (u8, u8, u8),
    pub dst_bound_reg: (u8, u8, u8),
    pub dst_start_addr: u64,
    pub dst_step_elem: [i32; 2],
    pub dst_num_elem: [u16; 2],
    pub dst_elem_size: u16,
    pub in_dtype: u8,
    pub out_dtype: u8,
}

#[inline(always)]
fn u16_at(b: &[u8; 64], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}
#[inline(always)]
fn i32_at(b: &[u8; 64], o: usize) -> i32 {
    i32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}
#[inline(always)]
fn u32_at(b: &[u8; 64], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}
#[inline(always)]
fn u64_at(b: &[u8; 64], o: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[o..o + 8]);
    u64::from_le_bytes(x)
}
#[inline(always)]
fn bound(x: u8) -> (u8, u8, u8) {
    (x & 0x3f, (x >> 6) & 1, x >> 7)
}

impl Hand {
    /// The hand-written decoder.
    #[inline]
    pub fn decode(b: &[u8; 64]) -> Option<Hand> {
        if b[0] != 0xb8 {
            return None;
        }
        Some(Hand {
            opcode: b[0],
            inst_word_len: b[1],
            debug_cmd: b[2],
            debug_hint: b[3],
            wait_mode: b[4],
            wait_idx: b[5],
            update_mode: b[6],
            update_idx: b[7],
            semaphore_value: u32_at(b, 8),
            priority_class: b[12] & 0x07,
            dma_configs_reserved: b[12] >> 3,
            semaphore: b[13],
            sem_increment: b[14],
            compute_op: b[15],
            src_start_addr: u64_at(b, 16),
            src_step_elem: [i32_at(b, 24), i32_at(b, 28)],
            src_num_elem: [u16_at(b, 32), u16_at(b, 34)],
            src_elem_size: u16_at(b, 36),
            src_bound_reg: bound(b[38]),
            dst_bound_reg: bound(b[39]),
            dst_start_addr: u64_at(b, 40),
            dst_step_elem: [i32_at(b, 48), i32_at(b, 52)],
            dst_num_elem: [u16_at(b, 56), u16_at(b, 58)],
            dst_elem_size: u16_at(b, 60),
            in_dtype: b[62],
            out_dtype: b[63],
        })
    }

    /// What the generated decoder's struct says, in this shape (for the agreement check).
    pub fn from_generated(w: &DMA_DIRECT2D) -> Hand {
        let addr = |a: &dmaspec::words::ADDR8| {
            let mut b = [0u8; 8];
            a.write(&mut b);
            u64::from_le_bytes(b)
        };
        let bound = |r: &dmaspec::words::BOUND_CHECK_REG| {
            (r.bc_reg, r.bc_disable_oob_error_notif, r.bc_enabled)
        };
        Hand {
            opcode: w.header.opcode.raw(),
            inst_word_len: w.header.inst_word_len,
            debug_cmd: w.header.debug_cmd,
            debug_hint: w.header.debug_hint,
            wait_mode: w.events.wait_mode.raw(),
            wait_idx: w.events.wait_idx,
            update_mode: w.events.update_mode.raw(),
            update_idx: w.events.update_idx,
            semaphore_value: w.events.semaphore_value,
            priority_class: w.dma_configs.priority_class,
            dma_configs_reserved: w.dma_configs.reserved_bitfield,
            semaphore: w.semaphore,
            sem_increment: w.sem_increment,
            compute_op: w.compute_op.raw(),
            src_start_addr: addr(&w.src_start_addr),
            src_step_elem: w.src_step_elem,
            src_num_elem: w.src_num_elem,
            src_elem_size: w.src_elem_size,
            src_bound_reg: bound(&w.src_bound_reg),
            dst_bound_reg: bound(&w.dst_bound_reg),
            dst_start_addr: addr(&w.dst_start_addr),
            dst_step_elem: w.dst_step_elem,
            dst_num_elem: w.dst_num_elem,
            dst_elem_size: w.dst_elem_size,
            in_dtype: w.in_dtype.raw(),
            out_dtype: w.out_dtype.raw(),
        }
    }
}

/// DMA_DIRECT2D in deku, with the bit-field bytes as real deku bit fields (LSB first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, DekuRead, DekuWrite)]
#[deku(endian = "little", bit_order = "lsb")]
pub struct DekuBits {
    #[deku(assert_eq = "0xb8")]
    pub opcode: u8,
    pub inst_word_len: u8,
    pub debug_cmd: u8,
    pub debug_hint: u8,
    pub wait_mode: u8,
    pub wait_idx: u8,
    pub update_mode: u8,
    pub update_idx: u8,
    pub semaphore_value: u32,
    #[deku(bits = 3)]
    pub priority_class: u8,
    #[deku(bits = 5)]
    pub dma_configs_reserved: u8,
    pub semaphore: u8,
    pub sem_increment: u8,
    pub compute_op: u8,
    pub src_start_addr: u64,
    pub src_step_elem: [i32; 2],
    pub src_num_elem: [u16; 2],
    pub src_elem_size: u16,
    #[deku(bits = 6)]
    pub src_bc_reg: u8,
    #[deku(bits = 1)]
    pub src_bc_disable_oob_error_notif: u8,
    #[deku(bits = 1)]
    pub src_bc_enabled: u8,
    #[deku(bits = 6)]
    pub dst_bc_reg: u8,
    #[deku(bits = 1)]
    pub dst_bc_disable_oob_error_notif: u8,
    #[deku(bits = 1)]
    pub dst_bc_enabled: u8,
    pub dst_start_addr: u64,
    pub dst_step_elem: [i32; 2],
    pub dst_num_elem: [u16; 2],
    pub dst_elem_size: u16,
    pub in_dtype: u8,
    pub out_dtype: u8,
}

impl DekuBits {
    #[inline]
    pub fn decode(b: &[u8; 64]) -> Option<DekuBits> {
        DekuBits::from_bytes((&b[..], 0)).ok().map(|(_, v)| v)
    }
    pub fn to_hand(self) -> Hand {
        Hand {
            opcode: self.opcode,
            inst_word_len: self.inst_word_len,
            debug_cmd: self.debug_cmd,
            debug_hint: self.debug_hint,
            wait_mode: self.wait_mode,
            wait_idx: self.wait_idx,
            update_mode: self.update_mode,
            update_idx: self.update_idx,
            semaphore_value: self.semaphore_value,
            priority_class: self.priority_class,
            dma_configs_reserved: self.dma_configs_reserved,
            semaphore: self.semaphore,
            sem_increment: self.sem_increment,
            compute_op: self.compute_op,
            src_start_addr: self.src_start_addr,
            src_step_elem: self.src_step_elem,
            src_num_elem: self.src_num_elem,
            src_elem_size: self.src_elem_size,
            src_bound_reg: (
                self.src_bc_reg,
                self.src_bc_disable_oob_error_notif,
                self.src_bc_enabled,
            ),
            dst_bound_reg: (
                self.dst_bc_reg,
                self.dst_bc_disable_oob_error_notif,
                self.dst_bc_enabled,
            ),
            dst_start_addr: self.dst_start_addr,
            dst_step_elem: self.dst_step_elem,
            dst_num_elem: self.dst_num_elem,
            dst_elem_size: self.dst_elem_size,
            in_dtype: self.in_dtype,
            out_dtype: self.out_dtype,
        }
    }
}

/// DMA_DIRECT2D in deku with whole bytes only; the bit-field bytes are split by hand after
/// reading (the faster way to use deku).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, DekuRead, DekuWrite)]
#[deku(endian = "little")]
pub struct DekuBytes {
    #[deku(assert_eq = "0xb8")]
    pub opcode: u8,
    pub inst_word_len: u8,
    pub debug_cmd: u8,
    pub debug_hint: u8,
    pub wait_mode: u8,
    pub wait_idx: u8,
    pub update_mode: u8,
    pub update_idx: u8,
    pub semaphore_value: u32,
    pub dma_configs: u8,
    pub semaphore: u8,
    pub sem_increment: u8,
    pub compute_op: u8,
    pub src_start_addr: u64,
    pub src_step_elem: [i32; 2],
    pub src_num_elem: [u16; 2],
    pub src_elem_size: u16,
    pub src_bound_reg: u8,
    pub dst_bound_reg: u8,
    pub dst_start_addr: u64,
    pub dst_step_elem: [i32; 2],
    pub dst_num_elem: [u16; 2],
    pub dst_elem_size: u16,
    pub in_dtype: u8,
    pub out_dtype: u8,
}

impl DekuBytes {
    /// Reads with deku, then splits the bit-field bytes: the result is a [`Hand`].
    #[inline]
    pub fn decode(b: &[u8; 64]) -> Option<Hand> {
        let (_, d) = DekuBytes::from_bytes((&b[..], 0)).ok()?;
        Some(Hand {
            opcode: d.opcode,
            inst_word_len: d.inst_word_len,
            debug_cmd: d.debug_cmd,
            debug_hint: d.debug_hint,
            wait_mode: d.wait_mode,
            wait_idx: d.wait_idx,
            update_mode: d.update_mode,
            update_idx: d.update_idx,
            semaphore_value: d.semaphore_value,
            priority_class: d.dma_configs & 0x07,
            dma_configs_reserved: d.dma_configs >> 3,
            semaphore: d.semaphore,
            sem_increment: d.sem_increment,
            compute_op: d.compute_op,
            src_start_addr: d.src_start_addr,
            src_step_elem: d.src_step_elem,
            src_num_elem: d.src_num_elem,
            src_elem_size: d.src_elem_size,
            src_bound_reg: bound(d.src_bound_reg),
            dst_bound_reg: bound(d.dst_bound_reg),
            dst_start_addr: d.dst_start_addr,
            dst_step_elem: d.dst_step_elem,
            dst_num_elem: d.dst_num_elem,
            dst_elem_size: d.dst_elem_size,
            in_dtype: d.in_dtype,
            out_dtype: d.out_dtype,
        })
    }
}

/// DMA_DIRECT2D in binrw; binrw has no bit fields, so those bytes are split with `map`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, BinRead)]
#[br(little, magic = 0xb8u8)]
pub struct Binrw {
    pub inst_word_len: u8,
    pub debug_cmd: u8,
    pub debug_hint: u8,
    pub wait_mode: u8,
    pub wait_idx: u8,
    pub update_mode: u8,
    pub update_idx: u8,
    pub semaphore_value: u32,
    #[br(map = |x: u8| (x & 0x07, x >> 3))]
    pub dma_configs: (u8, u8),
    pub semaphore: u8,
    pub sem_increment: u8,
    pub compute_op: u8,
    pub src_start_addr: u64,
    pub src_step_elem: [i32; 2],
    pub src_num_elem: [u16; 2],
    pub src_elem_size: u16,
    #[br(map = bound)]
    pub src_bound_reg: (u8, u8, u8),
    #[br(map = bound)]
    pub dst_bound_reg: (u8, u8, u8),
    pub dst_start_addr: u64,
    pub dst_step_elem: [i32; 2],
    pub dst_num_elem: [u16; 2],
    pub dst_elem_size: u16,
    pub in_dtype: u8,
    pub out_dtype: u8,
}

impl Binrw {
    #[inline]
    pub fn decode(b: &[u8; 64]) -> Option<Binrw> {
        Binrw::read(&mut std::io::Cursor::new(&b[..])).ok()
    }
    pub fn to_hand(self) -> Hand {
        Hand {
            opcode: 0xb8,
            inst_word_len: self.inst_word_len,
            debug_cmd: self.debug_cmd,
            debug_hint: self.debug_hint,
            wait_mode: self.wait_mode,
            wait_idx: self.wait_idx,
            update_mode: self.update_mode,
            update_idx: self.update_idx,
            semaphore_value: self.semaphore_value,
            priority_class: self.dma_configs.0,
            dma_configs_reserved: self.dma_configs.1,
            semaphore: self.semaphore,
            sem_increment: self.sem_increment,
            compute_op: self.compute_op,
            src_start_addr: self.src_start_addr,
            src_step_elem: self.src_step_elem,
            src_num_elem: self.src_num_elem,
            src_elem_size: self.src_elem_size,
            src_bound_reg: self.src_bound_reg,
            dst_bound_reg: self.dst_bound_reg,
            dst_start_addr: self.dst_start_addr,
            dst_step_elem: self.dst_step_elem,
            dst_num_elem: self.dst_num_elem,
            dst_elem_size: self.dst_elem_size,
            in_dtype: self.in_dtype,
            out_dtype: self.out_dtype,
        }
    }
}

/// Every peer reads every word of `stream` exactly as the generated decoder does.
pub fn check_peers(stream: &[u8]) {
    for (i, c) in stream.chunks_exact(WORD).enumerate() {
        let b: &[u8; 64] = c.try_into().unwrap();
        let ours = Hand::from_generated(&DMA_DIRECT2D::decode(b).unwrap());
        let via_view = Hand::from_generated(&DMA_DIRECT2D::view(b).unwrap().read());
        assert_eq!(via_view, ours, "view, word {i}");
        assert_eq!(Hand::decode(b), Some(ours), "hand-written, word {i}");
        assert_eq!(
            DekuBits::decode(b).map(|d| d.to_hand()),
            Some(ours),
            "deku bits, word {i}"
        );
        assert_eq!(DekuBytes::decode(b), Some(ours), "deku bytes, word {i}");
        assert_eq!(
            Binrw::decode(b).map(|d| d.to_hand()),
            Some(ours),
            "binrw, word {i}"
        );
    }
}
