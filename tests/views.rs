//! The zero-copy views agree with the owned decoder and encoder for every word in the spec,
//! and the view stream agrees with `stream::Decoder`, on random words and random streams
//! (truncated ones included). These are the same properties the fuzz targets in `fuzz/`
//! check; this is the bounded run CI does.
//!
//! The words come from [`WORDS`], so words added to the spec later are covered without
//! touching this file.

mod common;

use dmaspec::prelude::*;
use dmaspec::stream::{self, Decoded};
use dmaspec::views::{self, Viewed};
use dmaspec::words::{DMA_DIRECT2D, DTYPE, view};
use dmaspec::{Arch, WORDS, Word, WordMeta};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, TestRunner};

const CASES: u32 = 400;

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// 64 arbitrary bytes that decode as `w`.
fn word_bytes(w: &'static WordMeta) -> impl Strategy<Value = [u8; 64]> {
    any::<[u8; 64]>().prop_map(move |mut b| {
        common::dispatch_to(w, &mut b);
        b
    })
}

/// Opcodes worth generating: every word's, plus arbitrary bytes.
fn opcode() -> BoxedStrategy<u8> {
    let ops: Vec<u8> = WORDS.iter().map(|w| w.opcode).collect();
    prop_oneof![3 => select(ops), 1 => any::<u8>()].boxed()
}

/// A stream of whole words (mostly known opcodes) plus 0..64 trailing bytes.
fn stream_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        vec((any::<[u8; 64]>(), opcode()), 0..24),
        vec(any::<u8>(), 0..64),
    )
        .prop_map(|(words, tail)| {
            let mut out = Vec::new();
            for (mut b, op) in words {
                b[0] = op;
                out.extend_from_slice(&b);
            }
            out.extend_from_slice(&tail);
            out
        })
}

#[test]
fn every_view_reads_what_the_owned_decoder_reads() {
    for w in WORDS {
        for &arch in w.arch {
            runner(CASES)
                .run(&word_bytes(w), |b| {
                    let owned = Word::decode(&b, arch).expect("the word's own opcode decodes");
                    let v = view::Word::new(&b, arch).expect("the word's own opcode views");
                    prop_assert_eq!(v.meta().name, w.name);
                    prop_assert_eq!(v.read(), owned, "{} in {}", w.name, arch.name());
                    prop_assert!(core::ptr::eq(v.bytes(), &b), "the view copied the bytes");
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{} / {}: {e}", w.name, arch.name()));
        }
    }
}

#[test]
fn validating_a_view_is_validating_the_owned_word() {
    for w in WORDS {
        for &arch in w.arch {
            runner(CASES / 2)
                .run(&word_bytes(w), |b| {
                    let owned = Word::decode(&b, arch).expect("decodes");
                    let v = view::Word::new(&b, arch).expect("views");
                    prop_assert_eq!(v.check(arch), owned.check(arch));
                    prop_assert_eq!(v.validate(arch).is_ok(), owned.validate(arch).is_ok());
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{} / {}: {e}", w.name, arch.name()));
        }
    }
}

#[test]
fn every_writable_view_writes_what_the_owned_encoder_writes() {
    for w in WORDS {
        for &arch in w.arch {
            let pair = (word_bytes(w), word_bytes(w));
            runner(CASES)
                .run(&pair, |(from, to)| {
                    let target = Word::decode(&to, arch).expect("decodes");
                    let mut b = from;
                    let mut v = view::Word_mut::new(&mut b, arch).expect("views");
                    prop_assert_eq!(v.as_view().read(), Word::decode(&from, arch).unwrap());
                    v.write(&target).expect("same kind of word");
                    // Every setter wrote its own bytes and nothing else got in the way.
                    prop_assert_eq!(b, to, "{} in {}", w.name, arch.name());
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{} / {}: {e}", w.name, arch.name()));
        }
    }
}

#[test]
fn views_exist_exactly_where_owned_words_do() {
    let any_word = (any::<[u8; 64]>(), any::<u8>(), select(Arch::ALL.to_vec()));
    runner(CASES * 4)
        .run(&any_word, |(mut b, op, arch)| {
            b[0] = op;
            let owned = Word::decode(&b, arch);
            let v = view::Word::new(&b, arch);
            prop_assert_eq!(v.map(|v| v.read()), owned);
            let mut c = b;
            prop_assert_eq!(
                view::Word_mut::new(&mut c, arch).map(|v| v.meta().name),
                owned.map(|w| w.meta().name)
            );
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_writable_view_refuses_another_kind_of_word() {
    let mut b = [0u8; 64];
    b[0] = DMA_DIRECT2D::OPCODE;
    let Some(other) = WORDS.iter().find(|w| w.opcode != DMA_DIRECT2D::OPCODE) else {
        return;
    };
    let mut o = [0u8; 64];
    o[0] = other.opcode;
    let other_word = Word::decode(&o, other.arch[0]).expect("decodes");
    let mut v = view::Word_mut::new(&mut b, Arch::cayman).expect("views");
    assert!(v.write(&other_word).is_err());
    assert_eq!(b[1..], [0u8; 63], "a refused write writes nothing");
}

/// The view stream and the owned `stream::Decoder` see the same words, pairings, orphans
/// and unknown opcodes; neither panics on any input, truncated ones included.
#[test]
fn the_view_stream_agrees_with_the_decoder() {
    let input = (stream_bytes(), select(Arch::ALL.to_vec()));
    runner(CASES * 2)
        .run(&input, |(bytes, arch)| {
            let owned: Vec<(usize, Decoded)> = stream::words(&bytes, arch).collect();
            let viewed: Vec<(usize, Viewed)> = views::words(&bytes, arch).collect();
            prop_assert_eq!(owned.len(), bytes.len() / 64);
            prop_assert_eq!(viewed.len(), owned.len());
            for ((oo, o), (vo, v)) in owned.iter().zip(&viewed) {
                prop_assert_eq!(oo, vo);
                prop_assert_eq!(v.bytes().as_slice(), &bytes[*vo..*vo + 64]);
                match (o, v) {
                    (
                        Decoded::Word { word, extends },
                        Viewed::Word {
                            word: vw,
                            extends: ve,
                        },
                    ) => {
                        prop_assert_eq!(&vw.read(), word);
                        prop_assert_eq!(extends, ve);
                    }
                    (Decoded::UnknownOpcode, Viewed::UnknownOpcode(_)) => {}
                    (
                        Decoded::Orphan { name, follows },
                        Viewed::Orphan {
                            name: vn,
                            follows: vf,
                            ..
                        },
                    ) => {
                        prop_assert_eq!(name, vn);
                        prop_assert_eq!(follows, vf);
                    }
                    (o, v) => prop_assert!(false, "decoder says {o:?}, views say {v:?}"),
                }
            }
            let it = views::words(&bytes, arch);
            prop_assert_eq!(it.len(), bytes.len() / 64);
            prop_assert_eq!(it.remainder().len(), bytes.len() % 64);
            prop_assert_eq!(
                stream::trailing_partial(bytes.len()),
                (bytes.len() % 64 != 0).then_some(bytes.len() / 64 * 64)
            );
            Ok(())
        })
        .unwrap();
}

/// Setters write only their own bytes (and bits): each one checked against the owned
/// struct changed the same way, starting from random bytes.
#[test]
fn dma_direct2d_setters_touch_only_their_field() {
    runner(CASES)
        .run(
            &(word_bytes(&DMA_DIRECT2D::META), any::<u32>()),
            |(b, x)| {
                let base = DMA_DIRECT2D::decode(&b).unwrap();
                let check = |set: &dyn Fn(&mut view::DMA_DIRECT2D_mut<'_>),
                             own: &dyn Fn(&mut DMA_DIRECT2D)|
                 -> Result<(), TestCaseError> {
                    let mut got = b;
                    set(&mut DMA_DIRECT2D::view_mut(&mut got).unwrap());
                    let mut want = base;
                    own(&mut want);
                    prop_assert_eq!(got, want.encode());
                    Ok(())
                };
                check(
                    &|v| {
                        v.set_semaphore(x as u8);
                    },
                    &|w| w.semaphore = x as u8,
                )?;
                check(
                    &|v| {
                        v.set_src_step_elem([x as i32, !x as i32]);
                    },
                    &|w| w.src_step_elem = [x as i32, !x as i32],
                )?;
                check(
                    &|v| {
                        v.set_in_dtype(DTYPE::from_raw(x as u8));
                    },
                    &|w| w.in_dtype = DTYPE::from_raw(x as u8),
                )?;
                check(
                    &|v| {
                        v.dma_configs_mut().set_priority_class(x as u8);
                    },
                    &|w| w.dma_configs.priority_class = x as u8 & 0x7,
                )?;
                check(
                    &|v| {
                        v.src_bound_reg_mut().set_bc_enabled(x as u8);
                    },
                    &|w| w.src_bound_reg.bc_enabled = x as u8 & 1,
                )?;
                check(
                    &|v| {
                        v.header_mut().set_debug_hint(x as u8);
                    },
                    &|w| w.header.debug_hint = x as u8,
                )?;
                check(
                    &|v| {
                        v.set_dst_start_addr(base.src_start_addr);
                    },
                    &|w| w.dst_start_addr = base.src_start_addr,
                )?;
                // The writer reads through `as_view`, the reader's getters.
                let mut c = b;
                let v = DMA_DIRECT2D::view_mut(&mut c).unwrap();
                prop_assert_eq!(v.as_view().read(), base);
                prop_assert_eq!(v.as_view().src_num_elem(), base.src_num_elem);
                prop_assert_eq!(v.as_view().dst_start_addr().read(), base.dst_start_addr);
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn views_check_the_opcode() {
    let mut b = [0u8; 64];
    assert!(DMA_DIRECT2D::view(&b).is_err());
    assert!(DMA_DIRECT2D::view_mut(&mut b).is_err());
    b[0] = DMA_DIRECT2D::OPCODE;
    let v = DMA_DIRECT2D::view(&b).unwrap();
    assert_eq!(v.read(), DMA_DIRECT2D::decode(&b).unwrap());
    // `new` views any bytes without checking.
    assert_eq!(
        view::DMA_DIRECT2D::new(&[0u8; 64]).header().inst_word_len(),
        0
    );
}
