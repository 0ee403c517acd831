//! The lowering contract of [`dmaspec::lower`], checked on any byte string. Shared by the
//! `lower` fuzz target (`fuzz/fuzz_targets/lower.rs` includes this file) and the bounded
//! proptest CI runs (`tests/lower.rs`); it panics at the first broken property.
//!
//! The whole 64-byte words of the input are the stream; the bytes after the last whole word
//! (if any) seed the variable table. Every architecture, each lowering's default ABI and
//! every ABI a lowering names, without variables and with every variable bound:
//!
//! - every input word is accounted for exactly once, in order: passed, lowered, failed, or
//!   consumed as the extension of the pseudo right before it;
//! - a word passes through unchanged, and only if it is not a pseudo with a lowering and not
//!   an orphan extension; an orphan extension is reported as the decoder reports it;
//! - a pseudo is lowered (or fails) with the word right after it exactly when that word is
//!   its extension, and the result is `lower_one`'s on the same words;
//! - a lowered word decodes in the architecture, as the real word its selector's kind names,
//!   which is not itself a pseudo; an unsupported selector has no kind;
//! - variables change nothing but the words that name one: a word that lowers without
//!   variables lowers the same with them; with every variable bound none is unresolved.

use dmaspec::lower::{Item, LowerError, Lowered, Lowerer, StreamError, lower_one, lowering_of};
use dmaspec::runtime::lowering::{
    AbiMeta, ApplyError, ExtensionUse, LoweringMeta, NoVariables, Variables,
};
use dmaspec::stream::{Decoded, Decoder};
use dmaspec::words::{Arch, LOWERINGS, Word};

/// Each lowering's default ABI (`None`), then every ABI some lowering names.
fn abis() -> Vec<Option<&'static str>> {
    let mut out = vec![None];
    for abi in LOWERINGS.iter().flat_map(|l| l.abis) {
        if !out.contains(&Some(abi.name)) {
            out.push(Some(abi.name));
        }
    }
    out
}

/// `words` through a [`Lowerer`], one word at a time.
fn lower(words: &[[u8; 64]], arch: Arch, abi: Option<&str>, vars: &dyn Variables) -> Vec<Item> {
    let mut l = Lowerer::new(arch, abi, vars).expect("a lowering names this abi");
    let mut out = Vec::new();
    for w in words {
        let before = out.len();
        out.extend(l.push(w));
        assert!(
            out.len() - before <= 2,
            "one word settles at most two items"
        );
    }
    out.extend(l.finish());
    out
}

/// (index, offset, extension) of an item.
fn place(item: &Item) -> (usize, usize, Option<usize>) {
    match *item {
        Item::Lowered {
            index, offset, ext, ..
        }
        | Item::Failed {
            index, offset, ext, ..
        } => (index, offset, ext),
        Item::Passed { index, offset, .. } => (index, offset, None),
    }
}

/// Checks every property above on `data`.
pub fn check(data: &[u8]) {
    let chunks = data.chunks_exact(64);
    let seed = chunks
        .remainder()
        .iter()
        .fold(0u64, |acc, &b| acc.rotate_left(8) ^ u64::from(b));
    let words: Vec<[u8; 64]> = chunks.map(|c| c.try_into().unwrap()).collect();
    let bound = move |id: u64| Some(seed.wrapping_add(id << 12));
    for &arch in Arch::ALL {
        let mut decoder = Decoder::new(arch);
        let decoded: Vec<Decoded> = words.iter().map(|w| decoder.push(w)).collect();
        for abi in abis() {
            let plain = lower(&words, arch, abi, &NoVariables);
            let with = lower(&words, arch, abi, &bound);
            check_items(&words, &decoded, arch, abi, &NoVariables, &plain);
            check_items(&words, &decoded, arch, abi, &bound, &with);
            assert_eq!(plain.len(), with.len());
            for (p, w) in plain.iter().zip(&with) {
                match p {
                    Item::Failed {
                        error:
                            StreamError::Lower(LowerError::Apply(ApplyError::UnresolvedVariable {
                                ..
                            })),
                        ..
                    } => assert_eq!(place(p), place(w)),
                    _ => assert_eq!(p, w, "variables changed a word that names none"),
                }
                assert!(
                    !matches!(
                        w,
                        Item::Failed {
                            error: StreamError::Lower(LowerError::Apply(
                                ApplyError::UnresolvedVariable { .. }
                            )),
                            ..
                        }
                    ),
                    "every variable is bound: {w:?}"
                );
            }
        }
    }
}

fn check_items(
    words: &[[u8; 64]],
    decoded: &[Decoded],
    arch: Arch,
    abi: Option<&str>,
    vars: &dyn Variables,
    items: &[Item],
) {
    let mut next = 0;
    for item in items {
        let (index, offset, ext) = place(item);
        assert_eq!(
            index, next,
            "words are accounted for once, in order: {items:?}"
        );
        assert_eq!(offset, index * 64);
        next = ext.map_or(index, |e| {
            assert_eq!(e, index + 1, "the extension is the next word");
            e
        }) + 1;
        match item {
            Item::Passed { bytes, .. } => {
                assert_eq!(bytes, &words[index], "a passed word is unchanged");
                match decoded[index] {
                    Decoded::UnknownOpcode => {}
                    Decoded::Word { word, .. } => assert!(
                        lowering_of(word.meta().name).is_none(),
                        "pseudo {} passed through",
                        word.meta().name
                    ),
                    Decoded::Orphan { .. } => panic!("an orphan extension passed through"),
                }
            }
            Item::Failed {
                error: StreamError::Orphan { name, follows },
                ..
            } => {
                assert_eq!(ext, None);
                assert_eq!(
                    decoded[index],
                    Decoded::Orphan {
                        name,
                        follows: *follows
                    }
                );
            }
            Item::Lowered { lowered, .. } => {
                let (lowering, abi, expected) =
                    pseudo_at(words, decoded, index, ext, arch, abi, vars);
                assert_eq!(Ok(*lowered), expected);
                let kind = lowered.kind;
                let pseudo = &words[index];
                assert_eq!(lowering.kind(lowering.selector_value(pseudo)), Some(kind));
                assert_eq!(lowered.abi, abi);
                assert_eq!(lowered.route, kind.route(abi.name));
                assert_eq!(lowered.extension, ext.is_some());
                if kind.extension == ExtensionUse::Required && kind.missing_extension.is_some() {
                    assert!(ext.is_some(), "{} lowered without its extension", kind.name);
                }
                let real = Word::decode(&lowered.bytes, arch).expect("a lowered word decodes");
                assert_eq!(real.meta().name, kind.to);
                assert_eq!(lowered.bytes[0], kind.to_opcode);
                assert!(lowering_of(kind.to).is_none(), "lowered to a pseudo");
            }
            Item::Failed {
                error: StreamError::Lower(e),
                ..
            } => {
                let (lowering, _, expected) =
                    pseudo_at(words, decoded, index, ext, arch, abi, vars);
                assert_eq!(Err(*e), expected);
                if let LowerError::Unsupported { value, .. } = e {
                    assert_eq!(lowering.kind(*value), None);
                }
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert_eq!(next, words.len(), "every word is accounted for");
}

/// The lowering of the pseudo at `index`, the ABI it is lowered with, and what `lower_one`
/// makes of it with `ext`; checks that `ext` is there exactly when the next word extends it.
fn pseudo_at(
    words: &[[u8; 64]],
    decoded: &[Decoded],
    index: usize,
    ext: Option<usize>,
    arch: Arch,
    abi: Option<&str>,
    vars: &dyn Variables,
) -> (
    &'static LoweringMeta,
    &'static AbiMeta,
    Result<Lowered, LowerError>,
) {
    let Decoded::Word { word, .. } = decoded[index] else {
        panic!("word {index} is lowered but does not decode");
    };
    let lowering = lowering_of(word.meta().name).expect("only a pseudo is lowered");
    let next_extends = matches!(
        decoded.get(index + 1),
        Some(Decoded::Word { word: w, extends: Some(i) })
            if *i == index && lowering.extension == Some(w.meta().name)
    );
    assert_eq!(
        ext.is_some(),
        next_extends,
        "word {index}: extension {ext:?}"
    );
    let abi = abi
        .and_then(|n| lowering.abi(n))
        .unwrap_or_else(|| lowering.default_abi());
    let result = lower_one(
        lowering,
        abi,
        arch,
        &words[index],
        ext.map(|e| &words[e]),
        vars,
    );
    (lowering, abi, result)
}
