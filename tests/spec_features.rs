//! What constants, value codecs and ASCII fields do in the generated code, on real words.

use dmaspec::prelude::*;
use dmaspec::runtime::text::{AsciiZ, TextError, canonical_text};
use dmaspec::words::DMA_DIRECT2D;

#[test]
fn new_fills_opcode_and_constants() {
    // inst_word_len = 0x10 (16 dwords = 64 bytes): supp-field-tables Conventions, seed-000
    // static arm "+0x01 inst_word_len = 0x10".
    let w = DMA_DIRECT2D::new();
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!(DMA_DIRECT2D::TEMPLATE[0], 0xb8);
    assert_eq!(DMA_DIRECT2D::TEMPLATE[1], 0x10);
    assert!(DMA_DIRECT2D::TEMPLATE[2..].iter().all(|&b| b == 0));
    assert_eq!(DMA_DIRECT2D::constant_mismatches(&w.encode()).count(), 0);
}

#[test]
fn a_differing_constant_is_reported_not_fatal() {
    let mut b = DMA_DIRECT2D::TEMPLATE;
    b[1] = 4; // the descriptor-model page's reading (16-B records); the constant says 0x10
    let w = DMA_DIRECT2D::decode(&b).expect("decode does not fail on a constant");
    assert_eq!(w.header.inst_word_len, 4);
    let found: Vec<_> = DMA_DIRECT2D::constant_mismatches(&b)
        .map(|(leaf, expected, found)| (leaf.path, expected, found))
        .collect();
    assert_eq!(found, [("header.inst_word_len", 0x10, 4)]);
    assert_eq!(w.encode(), b);
}

#[test]
fn element_span_codec() {
    // seed-004 §2: src_elem_size "bytes/elem (0 => 64 KiB)"; seed-000 element-span rule.
    let mut w = DMA_DIRECT2D::new();
    assert_eq!(w.src_elem_size_value(), 65536);
    w.src_elem_size = 2;
    assert_eq!(w.src_elem_size_value(), 2);
    assert_eq!(w.dst_elem_size_value(), 65536);
}

#[test]
fn ascii_text_fits_with_its_nul_or_is_refused() {
    // seed-000 trigger: the queue name is at most 31 bytes plus its NUL
    // ("queName.length() < maxSize").
    let name = AsciiZ::<32>::from_text("qSyncIO_0").unwrap();
    assert_eq!(name.as_str(), Some("qSyncIO_0"));
    assert!(name.is_canonical());
    assert_eq!(AsciiZ::<32>::MAX_LEN, 31);
    assert!(AsciiZ::<32>::from_text(&"q".repeat(31)).is_ok());
    assert_eq!(
        AsciiZ::<32>::from_text(&"q".repeat(32)),
        Err(TextError::TooLong { len: 32, max: 31 })
    );
    assert_eq!(AsciiZ::<32>::from_text("é"), Err(TextError::NotAscii));
    // Bytes after the NUL are kept, but the field is no longer canonical text.
    let mut raw = name;
    raw.0[20] = b'x';
    assert_eq!(raw.as_str(), Some("qSyncIO_0"));
    assert!(!raw.is_canonical());
    assert_eq!(canonical_text(&raw.0), None);
    assert_eq!(canonical_text(b"ab\0\0"), Some("ab"));
    assert_eq!(canonical_text(b"abcd"), None);
}
