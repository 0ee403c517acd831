//! Helpers shared by the integration tests (`mod common;` in each test file; the CLI's
//! tests in `cli/tests/` include this file too): the hex vector files, and the properties
//! the fuzz targets and the proptests share ([`lower_props`], [`encode_props`]; the fuzz targets include those files). The
//! workspace's spec and model, the in-memory specs of the loader-error tests and the C
//! compilers' flags come from `dmaspec-testkit`, which the generator's tests use too.
//!
//! Each test file is its own crate and uses only some of these, hence the `dead_code` allow.

#![allow(dead_code)]

pub mod encode_props;
pub mod lower_props;

use std::path::Path;

#[allow(unused_imports)] // as with dead_code: each test uses some
pub use dmaspec_testkit::{cc, model, root, spec};

// ---- hex vector files ------------------------------------------------------------------

/// The bytes of a hex file (`tests/vectors/*.hex`, `samples/*.hex`): hex byte pairs
/// separated by whitespace; `#` starts a comment that runs to the end of the line.
pub fn hex_bytes(path: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let path = path.display();
    let mut bytes = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for tok in line.split('#').next().unwrap().split_whitespace() {
            assert_eq!(
                tok.len(),
                2,
                "{path}:{}: `{tok}` is not one hex byte",
                n + 1
            );
            let b = u8::from_str_radix(tok, 16)
                .unwrap_or_else(|_| panic!("{path}:{}: `{tok}` is not hex", n + 1));
            bytes.push(b);
        }
    }
    bytes
}

/// The 64-byte words of a hex file ([`hex_bytes`]), which must hold a whole number of them.
pub fn hex_words(path: &Path) -> Vec<[u8; 64]> {
    let bytes = hex_bytes(path);
    assert!(
        !bytes.is_empty() && bytes.len().is_multiple_of(64),
        "{}: {} bytes, not a whole number of words",
        path.display(),
        bytes.len()
    );
    bytes
        .chunks_exact(64)
        .map(|c| c.try_into().unwrap())
        .collect()
}

/// The words of `tests/vectors/<file>`.
pub fn vectors(file: &str) -> Vec<[u8; 64]> {
    hex_words(&root().join("tests/vectors").join(file))
}

/// The word of `tests/vectors/<file>`, which must hold exactly one.
pub fn vector(file: &str) -> [u8; 64] {
    let v = vectors(file);
    assert_eq!(v.len(), 1, "{file}: expected one word");
    v[0]
}

// ---- words that share an opcode --------------------------------------------------------

/// Sets `b` so that it decodes as `w` where words share its opcode: byte 0, a sub-word's
/// selector, and an envelope's selector moved off every value its sub-words take.
pub fn dispatch_to(w: &dmaspec::WordMeta, b: &mut [u8; 64]) {
    b[0] = w.opcode;
    if let Some(s) = w.sub_opcode {
        b[s.offset..s.offset + s.size].copy_from_slice(&s.value.to_le_bytes()[..s.size]);
    }
    while let Some(s) = dmaspec::WORDS
        .iter()
        .filter_map(|x| x.sub_opcode.filter(|s| s.envelope == w.name))
        .find(|&s| selects(s, b))
    {
        b[s.offset] = b[s.offset].wrapping_add(1);
    }
}

/// Whether `b`'s selector bytes hold the sub-word's value.
pub fn selects(s: dmaspec::words::SubOpcodeMeta, b: &[u8; 64]) -> bool {
    b[s.offset..s.offset + s.size] == s.value.to_le_bytes()[..s.size]
}
