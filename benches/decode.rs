//! Decoding speed against the peers, in one run on identical input.
//!
//! ```sh
//! cargo bench -p dmaspec-benches --bench decode   # ~4 min on 2 cores
//! python3 scripts/bench_table.py                  # the table of ratios, from target/criterion
//! ```
//!
//! Groups (every benchmark processes a whole stream per iteration; criterion's throughput
//! is in words):
//!
//! - `d2d`: 1,000,000 DMA_DIRECT2D words. `memcpy` (copy the stream: the floor), `scan`
//!   (read every byte once), `owned_decode` (generated decoder, result stored),
//!   `view_all_fields` (generated view, every field read through its accessor and folded),
//!   `view_two_fields` (the view reading just the two shape fields), `hand_written`
//!   (`from_le_bytes` + masks, result stored), `deku_bits` (deku with real bit fields),
//!   `deku_bytes` (deku on whole bytes, bit fields split by hand), `binrw`.
//! - `struct/<NAME>`: 100,000 random words of each struct in the spec: `decode`, `encode`,
//!   `validate` (the owned word's rules) and `validate_view` (the same rules on the bytes,
//!   through the view).
//! - `mixed`: 1,000,000 words of a realistic stream (extension pairs, every other word,
//!   unknown opcodes, orphans): `memcpy`, `scan`, `decode_owned` (stream::words, results
//!   stored), `validate_owned` (decode, then every word's rules), `validate_views`
//!   (views::words, every word's rules on its bytes in place), `views` (views::words,
//!   dispatch and pairing, a field read per word).

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use dmaspec::prelude::*;
use dmaspec::stream::{self, Decoded};
use dmaspec::views::{self, Viewed};
use dmaspec::words::{DMA_DIRECT2D, view};
use dmaspec::{Arch, WORDS, Word};
use support::{Binrw, DekuBits, DekuBytes, Hand, WORD};

const STREAM_WORDS: usize = 1_000_000;
const STRUCT_WORDS: usize = 100_000;

fn words(stream: &[u8]) -> impl Iterator<Item = &[u8; 64]> {
    stream
        .chunks_exact(WORD)
        .map(|c| <&[u8; 64]>::try_from(c).unwrap())
}

/// Every field of a DMA_DIRECT2D through the view's accessors, folded into one value.
#[inline]
fn fold_view(v: view::DMA_DIRECT2D<'_>) -> u64 {
    let addr = |a: view::ADDR8<'_>| -> u64 {
        let body = match a.arm() {
            view::ADDR8_arm::addr_reg(x) => u64::from(x.body()[0]) | u64::from(x.body()[6]) << 48,
            view::ADDR8_arm::addr_tbl_offs(x) => {
                u64::from(x.offset())
                    | u64::from(x.dge_table_entry_id()) << 32
                    | u64::from(x.unknown_6()[0]) << 48
            }
            view::ADDR8_arm::addr_immediate(x) => {
                u64::from(x.address_lo())
                    | u64::from(x.address_mid()) << 32
                    | u64::from(x.address_hi()) << 48
            }
        };
        u64::from(a.marker().raw()) << 56 | body
    };
    let bound = |r: view::BOUND_CHECK_REG<'_>| -> u64 {
        u64::from(r.bc_reg())
            | u64::from(r.bc_disable_oob_error_notif()) << 6
            | u64::from(r.bc_enabled()) << 7
    };
    let h = v.header();
    let e = v.events();
    let c = v.dma_configs();
    let mut s = u64::from(h.opcode().raw())
        ^ u64::from(h.inst_word_len()) << 8
        ^ u64::from(h.debug_cmd()) << 16
        ^ u64::from(h.debug_hint()) << 24;
    s = s.wrapping_add(
        u64::from(e.wait_mode().raw())
            ^ u64::from(e.wait_idx()) << 8
            ^ u64::from(e.update_mode().raw()) << 16
            ^ u64::from(e.update_idx()) << 24
            ^ u64::from(e.semaphore_value()) << 32,
    );
    s = s.wrapping_add(u64::from(c.priority_class()) ^ u64::from(c.reserved_bitfield()) << 3);
    s = s.wrapping_add(
        u64::from(v.semaphore())
            ^ u64::from(v.sem_increment()) << 8
            ^ u64::from(v.compute_op().raw()) << 16,
    );
    let [a, b] = v.src_step_elem();
    let [x, y] = v.src_num_elem();
    s = s.wrapping_add(addr(v.src_start_addr()) ^ (a as u32 as u64) ^ (b as u32 as u64) << 32);
    s = s.wrapping_add(u64::from(x) ^ u64::from(y) << 16 ^ u64::from(v.src_elem_size()) << 32);
    s = s.wrapping_add(bound(v.src_bound_reg()) ^ bound(v.dst_bound_reg()) << 8);
    let [a, b] = v.dst_step_elem();
    let [x, y] = v.dst_num_elem();
    s = s.wrapping_add(addr(v.dst_start_addr()) ^ (a as u32 as u64) ^ (b as u32 as u64) << 32);
    s = s.wrapping_add(u64::from(x) ^ u64::from(y) << 16 ^ u64::from(v.dst_elem_size()) << 32);
    s.wrapping_add(u64::from(v.in_dtype().raw()) ^ u64::from(v.out_dtype().raw()) << 8)
}

fn scan(stream: &[u8]) -> u64 {
    stream
        .chunks_exact(8)
        .fold(0u64, |a, c| a ^ u64::from_le_bytes(c.try_into().unwrap()))
}

fn bench_d2d(c: &mut Criterion) {
    let input = support::direct2d_stream(STREAM_WORDS);
    support::check_peers(&input[..10_000 * WORD]);
    let mut g = c.benchmark_group("d2d");
    g.throughput(Throughput::Elements(STREAM_WORDS as u64));
    g.sampling_mode(SamplingMode::Flat);

    let mut copy = vec![0u8; input.len()];
    g.bench_function("memcpy", |b| {
        b.iter(|| copy.copy_from_slice(black_box(&input)));
    });
    g.bench_function("scan", |b| b.iter(|| scan(black_box(&input))));

    let first = DMA_DIRECT2D::decode(words(&input).next().unwrap()).unwrap();
    let mut owned = vec![first; STREAM_WORDS];
    g.bench_function("owned_decode", |b| {
        b.iter(|| {
            for (o, w) in owned.iter_mut().zip(words(black_box(&input))) {
                if let Ok(d) = DMA_DIRECT2D::decode(w) {
                    *o = d;
                }
            }
        })
    });
    black_box(&owned);
    drop(owned);

    let mut folded = vec![0u64; STREAM_WORDS];
    g.bench_function("view_all_fields", |b| {
        b.iter(|| {
            for (o, w) in folded.iter_mut().zip(words(black_box(&input))) {
                if let Ok(v) = DMA_DIRECT2D::view(w) {
                    *o = fold_view(v);
                }
            }
        })
    });
    g.bench_function("view_two_fields", |b| {
        b.iter(|| {
            for (o, w) in folded.iter_mut().zip(words(black_box(&input))) {
                if let Ok(v) = DMA_DIRECT2D::view(w) {
                    let [x, y] = v.src_num_elem();
                    *o = u64::from(x) * u64::from(y) * u64::from(v.src_elem_size());
                }
            }
        })
    });
    black_box(&folded);
    drop(folded);

    let mut hand = vec![Hand::default(); STREAM_WORDS];
    g.bench_function("hand_written", |b| {
        b.iter(|| {
            for (o, w) in hand.iter_mut().zip(words(black_box(&input))) {
                if let Some(d) = Hand::decode(w) {
                    *o = d;
                }
            }
        })
    });
    g.bench_function("deku_bytes", |b| {
        b.iter(|| {
            for (o, w) in hand.iter_mut().zip(words(black_box(&input))) {
                if let Some(d) = DekuBytes::decode(w) {
                    *o = d;
                }
            }
        })
    });
    black_box(&hand);
    drop(hand);

    let mut deku = vec![DekuBits::default(); STREAM_WORDS];
    g.bench_function("deku_bits", |b| {
        b.iter(|| {
            for (o, w) in deku.iter_mut().zip(words(black_box(&input))) {
                if let Some(d) = DekuBits::decode(w) {
                    *o = d;
                }
            }
        })
    });
    black_box(&deku);
    drop(deku);

    let mut binrw = vec![Binrw::default(); STREAM_WORDS];
    g.bench_function("binrw", |b| {
        b.iter(|| {
            for (o, w) in binrw.iter_mut().zip(words(black_box(&input))) {
                if let Some(d) = Binrw::decode(w) {
                    *o = d;
                }
            }
        })
    });
    black_box(&binrw);
    g.finish();
}

fn bench_structs(c: &mut Criterion) {
    for meta in WORDS {
        let arch = meta.arch[0];
        let input = support::struct_stream(meta, STRUCT_WORDS);
        let decoded: Vec<Word> = words(&input)
            .map(|w| Word::decode(w, arch).expect("own opcode"))
            .collect();
        let mut g = c.benchmark_group(format!("struct/{}", meta.name));
        g.throughput(Throughput::Elements(STRUCT_WORDS as u64));
        g.sampling_mode(SamplingMode::Flat);
        let mut out = decoded.clone();
        g.bench_function("decode", |b| {
            b.iter(|| {
                for (o, w) in out.iter_mut().zip(words(black_box(&input))) {
                    if let Some(d) = Word::decode(w, arch) {
                        *o = d;
                    }
                }
            })
        });
        black_box(&out);
        // Checked before timing, so a filter that skips `encode` does not trip it.
        let mut bytes: Vec<[u8; 64]> = decoded.iter().map(Word::encode).collect();
        assert!(
            bytes.iter().flatten().eq(input.iter()),
            "encode(decode(b)) == b"
        );
        g.bench_function("encode", |b| {
            b.iter(|| {
                for (o, w) in bytes.iter_mut().zip(black_box(&decoded)) {
                    *o = w.encode();
                }
            })
        });
        black_box(&bytes);
        let mut valid = vec![false; STRUCT_WORDS];
        g.bench_function("validate", |b| {
            b.iter(|| {
                for (o, w) in valid.iter_mut().zip(black_box(&decoded)) {
                    *o = w.check(arch).is_empty();
                }
            })
        });
        g.bench_function("validate_view", |b| {
            b.iter(|| {
                for (o, w) in valid.iter_mut().zip(words(black_box(&input))) {
                    if let Some(v) = view::Word::new(w, arch) {
                        *o = v.check(arch).is_empty();
                    }
                }
            })
        });
        black_box(&valid);
        g.finish();
    }
}

fn bench_mixed(c: &mut Criterion) {
    let arch = Arch::cayman;
    let (input, stats) = support::mixed_stream(STREAM_WORDS, arch);
    eprintln!("mixed stream: {STREAM_WORDS} words, {stats:?}");
    let mut g = c.benchmark_group("mixed");
    g.throughput(Throughput::Elements(STREAM_WORDS as u64));
    g.sampling_mode(SamplingMode::Flat);

    let mut copy = vec![0u8; input.len()];
    g.bench_function("memcpy", |b| {
        b.iter(|| copy.copy_from_slice(black_box(&input)));
    });
    g.bench_function("scan", |b| b.iter(|| scan(black_box(&input))));

    // Checked before timing, so a filter that skips `decode_owned` does not trip it.
    let mut out: Vec<Decoded> = stream::words(&input, arch).map(|(_, d)| d).collect();
    let pairs = out
        .iter()
        .filter(|d| {
            matches!(
                d,
                Decoded::Word {
                    extends: Some(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(pairs, stats.pairs, "every pair is recognised");
    g.bench_function("decode_owned", |b| {
        b.iter(|| {
            for (o, (_, d)) in out.iter_mut().zip(stream::words(black_box(&input), arch)) {
                *o = d;
            }
        })
    });
    black_box(&out);
    drop(out);

    g.bench_function("validate_owned", |b| {
        b.iter(|| {
            let mut invalid = 0usize;
            for (_, d) in stream::words(black_box(&input), arch) {
                if let Decoded::Word { word, .. } = d {
                    invalid += usize::from(!word.check(arch).is_empty());
                }
            }
            invalid
        })
    });
    g.bench_function("validate_views", |b| {
        b.iter(|| {
            let mut invalid = 0usize;
            for (_, v) in views::words(black_box(&input), arch) {
                if let Viewed::Word { word, .. } = v {
                    invalid += usize::from(!word.check(arch).is_empty());
                }
            }
            invalid
        })
    });
    g.bench_function("views", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (_, v) in views::words(black_box(&input), arch) {
                acc = acc.wrapping_add(match v {
                    Viewed::Word { word, extends } => {
                        u64::from(word.bytes()[1]) + u64::from(extends.is_some())
                    }
                    Viewed::UnknownOpcode(_) => 1 << 20,
                    Viewed::Orphan { .. } => 1 << 40,
                });
            }
            acc
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_d2d, bench_structs, bench_mixed
}
criterion_main!(benches);
