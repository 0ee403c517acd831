//! One decoder over 100,000 DMA_DIRECT2D words, or DMA_INDIRECT1D's rule check over
//! 100,000 random words, for callgrind's instruction counts (`scripts/profile_decode.sh`
//! runs it per mode and subtracts `none` / `rules_none`, the input alone).

mod support;

use std::hint::black_box;

use dmaspec::prelude::*;
use dmaspec::words::{DMA_DIRECT2D, DMA_INDIRECT1D};
use support::{Hand, WORD};

const WORDS: usize = 100_000;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let input = support::direct2d_stream(WORDS);
    let words = || {
        input
            .chunks_exact(WORD)
            .map(|c| <&[u8; WORD]>::try_from(c).unwrap())
    };
    match mode.as_str() {
        "none" => {}
        "owned" => {
            let mut out = vec![DMA_DIRECT2D::default(); WORDS];
            for (o, w) in out.iter_mut().zip(black_box(words())) {
                if let Ok(d) = DMA_DIRECT2D::decode(w) {
                    *o = d;
                }
            }
            black_box(&out);
        }
        "hand" => {
            let mut out = vec![Hand::default(); WORDS];
            for (o, w) in out.iter_mut().zip(black_box(words())) {
                if let Some(d) = Hand::decode(w) {
                    *o = d;
                }
            }
            black_box(&out);
        }
        // DMA_INDIRECT1D's rules on random words: their predicates alone, and the whole
        // check (predicates, then which broken rules count).
        "rules_none" | "rules_truth" | "rules_check" => {
            let meta = dmaspec::WORDS
                .iter()
                .find(|m| m.name == "DMA_INDIRECT1D")
                .expect("DMA_INDIRECT1D is in the spec");
            let (arch, input) = (meta.arch[0], support::struct_stream(meta, WORDS));
            let mut acc = 0u64;
            for c in black_box(input.chunks_exact(WORD)) {
                let w = <&[u8; WORD]>::try_from(c).unwrap();
                acc ^= match mode.as_str() {
                    "rules_truth" => DMA_INDIRECT1D::rule_truth(w, arch),
                    "rules_check" => DMA_INDIRECT1D::check_rules(w, arch).mask,
                    _ => 0,
                };
            }
            black_box(acc);
        }
        _ => {
            eprintln!("usage: profile_decode none|owned|hand|rules_none|rules_truth|rules_check");
            std::process::exit(2);
        }
    }
}
