//! A word as one line: the mnemonic, the semaphore operands, a bare queue name, the
//! fields the producer's line shows, every other field that differs from the word's
//! template as `key=value`, the raw payload of an opcode without a word, then `;`.

use crate::json::hex_string;
use crate::words::Arch;

use super::layout::Layout;
use super::value::{bare_text, is_text, render};
use super::{events, producer};

/// The line of the 64-byte word `bytes` in `arch`.
pub fn line(bytes: &[u8; 64], arch: Arch) -> String {
    let Some(layout) = Layout::of(bytes, arch) else {
        return format!(".word 0x{};", hex_string(bytes));
    };
    let slots = layout.slots();
    let values = layout.read(bytes, arch);
    let defaults = layout.read(&layout.template(), arch);
    let get = |key: &str| values.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let leaf = |key: &str| slots.iter().find(|s| s.key == key).map(|s| &s.leaf);

    let mut operands = Vec::new();
    let mut consumed: Vec<String> = Vec::new();
    if let Some(prefix) = events::prefix(slots.iter().map(|s| (s.key.as_str(), s.leaf.type_name))) {
        let (ops, keys) = events::print(prefix, get);
        operands.extend(ops);
        consumed.extend(keys);
    }
    // The first text field stands bare when it reads as a name (pool.asm's queue names).
    if let Some(s) = slots
        .iter()
        .find(|s| is_text(&s.leaf) && get(&s.key).is_some())
        && let Some(text) = bare_text(&s.leaf, bytes)
    {
        operands.push(text.to_string());
        consumed.push(s.key.clone());
    }
    for &key in producer::shown(layout.mnemonic()) {
        if consumed.iter().any(|c| c == key) {
            continue;
        }
        if let (Some(v), Some(l)) = (get(key), leaf(key)) {
            operands.push(format!("{key}={}", render(l, v, bytes)));
            consumed.push(key.to_string());
        }
    }
    for (key, v) in &values {
        let default = defaults.iter().find(|(k, _)| k == key).map(|(_, d)| d);
        if consumed.contains(key) || default == Some(v) {
            continue;
        }
        if let Some(l) = leaf(key) {
            operands.push(format!("{key}={}", render(l, v, bytes)));
        }
    }
    let raw = &bytes[layout.raw_from()..];
    if let (Some(first), Some(last)) = (
        raw.iter().position(|&b| b != 0),
        raw.iter().rposition(|&b| b != 0),
    ) {
        let start = layout.raw_from();
        operands.push(format!(
            "raw[{}..{}]=0x{}",
            start + first,
            start + last + 1,
            hex_string(&raw[first..=last])
        ));
    }
    let mut out = layout.mnemonic().to_string();
    for op in operands {
        out.push(' ');
        out.push_str(&op);
    }
    out.push(';');
    out
}
