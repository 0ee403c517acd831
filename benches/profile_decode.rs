//! One decoder over 100,000 DMA_DIRECT2D words, for callgrind's instruction counts
//! (`scripts/profile_decode.sh` runs it per mode and subtracts `none`, the input alone).

mod support;

use std::hint::black_box;

use dmaspec::prelude::*;
use dmaspec::words::DMA_DIRECT2D;
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
        _ => {
            eprintln!("usage: profile_decode none|owned|hand");
            std::process::exit(2);
        }
    }
}
