//! Every generated word decodes and encodes back to exactly the bytes it came from, with
//! reserved and unknown bits included, and decoding or walking arbitrary bytes never panics.
//!
//! The words are taken from [`WORDS`], so words added to the spec later are covered without
//! touching this file.

mod common;

use common::{dispatch_to, selects};
use dmaspec::runtime::meta::FieldMeta;
use dmaspec::runtime::visit::{Group, Value, Visitor};
use dmaspec::stream::{Decoded, Decoder};
use dmaspec::{Arch, WORDS, Word, WordMeta};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, TestRunner};

/// Random cases per word (and per property over all words).
const CASES: u32 = 2_000;

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        // The runner is driven by hand, so there is no source file to store regressions by.
        failure_persistence: None,
        ..Config::default()
    })
}

/// 64 arbitrary bytes that decode as `w`.
fn word_bytes(w: &'static WordMeta) -> impl Strategy<Value = [u8; 64]> {
    any::<[u8; 64]>().prop_map(move |mut b| {
        dispatch_to(w, &mut b);
        b
    })
}

/// 64 arbitrary bytes whose byte 0 is a word's opcode half of the time.
fn any_bytes() -> impl Strategy<Value = [u8; 64]> {
    let opcodes: Vec<u8> = WORDS.iter().map(|w| w.opcode).collect();
    let first = if opcodes.is_empty() {
        any::<u8>().boxed()
    } else {
        prop_oneof![any::<u8>(), select(opcodes)].boxed()
    };
    (any::<[u8; 64]>(), first).prop_map(|(mut b, op)| {
        b[0] = op;
        b
    })
}

/// The word the spec binds to `b`'s opcode in `arch`, if any: the sub-word whose selector
/// `b` holds, else the word with no selector (the envelope).
fn expected(b: &[u8; 64], arch: Arch) -> Option<&'static WordMeta> {
    let bound = || {
        WORDS
            .iter()
            .filter(move |w| w.opcode == b[0] && w.arch.contains(&arch))
    };
    bound()
        .find(|w| w.sub_opcode.is_some_and(|s| selects(s, b)))
        .or_else(|| bound().find(|w| w.sub_opcode.is_none()))
}

#[test]
fn the_word_list_is_consistent() {
    assert!(!WORDS.is_empty(), "the spec generates no word");
    for (i, w) in WORDS.iter().enumerate() {
        assert!(!w.arch.is_empty(), "{} is in no architecture", w.name);
        for other in &WORDS[i + 1..] {
            let shared: Vec<&Arch> = w.arch.iter().filter(|a| other.arch.contains(a)).collect();
            // Words sharing an opcode are an envelope and its sub-words, told apart by
            // distinct selector values.
            let apart = match (w.sub_opcode, other.sub_opcode) {
                (Some(a), Some(b)) => a.envelope == b.envelope && a.value != b.value,
                (Some(a), None) => a.envelope == other.name,
                (None, Some(b)) => b.envelope == w.name,
                (None, None) => false,
            };
            assert!(
                w.opcode != other.opcode || shared.is_empty() || apart,
                "{} and {} share opcode {:#04x} in {shared:?}",
                w.name,
                other.name,
                w.opcode
            );
        }
        // The top-level fields tile the 64 bytes, so encode() writes every byte.
        let mut end = 0;
        for f in w.fields {
            assert_eq!(
                f.offset, end,
                "{}.{} leaves a gap or overlaps",
                w.name, f.name
            );
            end = f.offset + f.size;
        }
        assert_eq!(end, 64, "{}'s fields do not cover 64 bytes", w.name);
    }
}

#[test]
fn every_word_round_trips_byte_exact() {
    for w in WORDS {
        runner()
            .run(&(word_bytes(w), select(w.arch)), |(b, arch)| {
                let Some(word) = Word::decode(&b, arch) else {
                    return Err(TestCaseError::fail(format!(
                        "{} ({:#04x}) did not decode in {arch:?}",
                        w.name, w.opcode
                    )));
                };
                prop_assert_eq!(word.meta().name, w.name);
                prop_assert_eq!(word.meta(), w);
                prop_assert_eq!(word.encode(), b, "{} in {:?}", w.name, arch);
                // Decoding the encoding gives the same value again.
                prop_assert_eq!(Word::decode(&word.encode(), arch), Some(word));
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{}: {e}", w.name));
    }
}

#[test]
fn decoding_arbitrary_bytes_follows_the_opcode_table() {
    let mut runner = runner();
    runner
        .run(&(any_bytes(), select(Arch::ALL)), |(b, arch)| {
            let decoded = Word::decode(&b, arch);
            match (expected(&b, arch), decoded) {
                (None, None) => {}
                (Some(w), Some(word)) => {
                    prop_assert_eq!(word.meta().name, w.name);
                    prop_assert_eq!(word.encode(), b);
                }
                (want, got) => {
                    return Err(TestCaseError::fail(format!(
                        "opcode {:#04x} in {arch:?}: expected {:?}, decoded {:?}",
                        b[0],
                        want.map(|w| w.name),
                        got.map(|w| w.meta().name)
                    )));
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

/// `Decoder::push_meta` names the word `push` decodes, and nothing where `push` decodes
/// none (an unknown opcode, an extension that does not follow its word), on streams that
/// mix every word with their extensions.
#[test]
fn push_meta_names_what_push_decodes() {
    let mut runner = runner();
    let stream = proptest::collection::vec(any_bytes(), 0..24);
    runner
        .run(&(stream, select(Arch::ALL)), |(words, arch)| {
            let (mut full, mut kind) = (Decoder::new(arch), Decoder::new(arch));
            for (i, b) in words.iter().enumerate() {
                let want = match full.push(b) {
                    Decoded::Word { word, .. } => Some(word.meta().name),
                    _ => None,
                };
                let got = kind.push_meta(b).map(|w| w.name);
                prop_assert_eq!(got, want, "word {} (opcode {:#04x}) in {:?}", i, b[0], arch);
                prop_assert_eq!(kind.index(), full.index());
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

/// All 256 opcodes in every architecture, with a few fixed bodies.
#[test]
fn decode_dispatches_exactly_by_opcode_and_architecture() {
    let mut pattern = [0u8; 64];
    for (i, byte) in pattern.iter_mut().enumerate() {
        *byte = (i as u8).wrapping_mul(0x9d) ^ 0x5a;
    }
    for body in [[0u8; 64], [0xff; 64], pattern] {
        for opcode in 0..=u8::MAX {
            let mut b = body;
            b[0] = opcode;
            for &arch in Arch::ALL {
                let got = Word::decode(&b, arch);
                let want = expected(&b, arch);
                assert_eq!(
                    got.map(|w| w.meta().name),
                    want.map(|w| w.name),
                    "opcode {opcode:#04x} in {arch:?}"
                );
                assert_eq!(
                    Word::identify(&b, arch).map(|w| w.name),
                    want.map(|w| w.name),
                    "identify, opcode {opcode:#04x} in {arch:?}"
                );
                if let Some(word) = got {
                    assert_eq!(word.encode(), b, "opcode {opcode:#04x} in {arch:?}");
                }
            }
        }
    }
}

/// One open group of the walk.
struct Frame {
    /// `None` for the word itself.
    group: Option<Group>,
    /// The bytes the group covers.
    start: usize,
    end: usize,
    /// Offset of the last child seen, for the order check.
    last: usize,
    children: usize,
}

/// Checks every event of a walk against the word's metadata; collects what is wrong.
struct Checker {
    word: &'static WordMeta,
    stack: Vec<Frame>,
    values: usize,
    problems: Vec<String>,
}

impl Checker {
    fn new(word: &'static WordMeta) -> Self {
        Checker {
            word,
            stack: vec![Frame {
                group: None,
                start: 0,
                end: 64,
                last: 0,
                children: 0,
            }],
            values: 0,
            problems: Vec::new(),
        }
    }

    /// A child of the innermost open group: a value (`group` None) or a group opening.
    fn child(&mut self, field: &'static FieldMeta, offset: usize, group: Option<Group>) {
        let what = || format!("{} at {offset}", field.name);
        let depth = self.stack.len();
        let Some(top) = self.stack.last_mut() else {
            self.problems
                .push(format!("{}: event after the walk closed", what()));
            return;
        };
        if offset >= 64 || offset < top.start || offset >= top.end {
            self.problems.push(format!(
                "{}: outside its parent's bytes {}..{}",
                what(),
                top.start,
                top.end
            ));
        }
        if top.group == Some(Group::Union) {
            // A union gives its discriminator, then the chosen arm over its whole bytes.
            match (top.children, group) {
                (0, None) => {}
                (1, Some(Group::Struct)) if offset == top.start => {}
                _ => self.problems.push(format!(
                    "{}: union child {} is {group:?}; expected the discriminator, \
                     then one arm at {}",
                    what(),
                    top.children,
                    top.start
                )),
            }
        } else {
            if offset < top.last {
                self.problems.push(format!(
                    "{}: comes after offset {} in the same group",
                    what(),
                    top.last
                ));
            }
            top.last = offset;
        }
        if depth == 1 {
            // A top-level field: the word's fields, in order, at their own offsets.
            match self.word.fields.get(top.children) {
                Some(f) if f.name == field.name && f.offset == offset => {}
                Some(f) => self.problems.push(format!(
                    "{}: expected top-level field {} at {}",
                    what(),
                    f.name,
                    f.offset
                )),
                None => self
                    .problems
                    .push(format!("{}: more top-level fields than META", what())),
            }
        }
        top.children += 1;
        let parent_end = top.end;
        // An array element (DESCRIPTOR_RAW[3]) is visited with its array's meta, whose size
        // is the whole array's: it must start inside the array, and ends with it at the latest.
        let in_array = top.group == Some(Group::Array);
        if let Some(group) = group {
            let end = if in_array {
                parent_end
            } else {
                offset + field.size
            };
            if end > parent_end || offset >= end {
                self.problems.push(format!(
                    "{}: {group:?} runs to {end}, past its parent's end {parent_end}",
                    what()
                ));
            }
            self.stack.push(Frame {
                group: Some(group),
                start: offset,
                end,
                last: offset,
                children: 0,
            });
        }
    }

    fn finish(mut self) -> Vec<String> {
        if self.stack.len() != 1 {
            self.problems
                .push(format!("{} group(s) left open", self.stack.len() - 1));
        } else if self.stack[0].children != self.word.fields.len() {
            self.problems.push(format!(
                "visited {} top-level fields of {}",
                self.stack[0].children,
                self.word.fields.len()
            ));
        }
        if self.values == 0 {
            self.problems.push("no value visited".into());
        }
        self.problems
    }
}

impl Visitor for Checker {
    fn enter(&mut self, field: &'static FieldMeta, offset: usize, group: Group) {
        self.child(field, offset, Some(group));
    }

    fn leave(&mut self, group: Group) {
        match self.stack.pop() {
            Some(Frame { group: Some(g), .. }) if g == group => {}
            Some(Frame { group: Some(g), .. }) => {
                self.problems
                    .push(format!("left {group:?} while {g:?} was open"));
            }
            _ => self
                .problems
                .push(format!("left {group:?} with no group open")),
        }
        if self.stack.is_empty() {
            self.problems.push("left the word itself".into());
        }
    }

    fn value(&mut self, field: &'static FieldMeta, offset: usize, value: Value<'_>) {
        self.values += 1;
        self.child(field, offset, None);
        // Every value lies inside one of the word's flattened leaves.
        if !self
            .word
            .leaves
            .iter()
            .any(|l| l.offset <= offset && offset < l.offset + l.size)
        {
            self.problems
                .push(format!("{} at {offset}: in no leaf of META", field.name));
        }
        // Flag values carry their own bit list; exercise the helpers too.
        let _ = value.flag_names().count();
        let _ = value.unnamed_flag_bits();
    }
}

#[test]
fn the_visitor_walk_is_in_bounds_and_in_order() {
    for w in WORDS {
        runner()
            .run(
                &(word_bytes(w), select(w.arch), select(Arch::ALL)),
                |(b, arch, shown_in)| {
                    let word = Word::decode(&b, arch).expect("decodes (see the round trip)");
                    // The walk may name enumerators for any architecture.
                    let mut checker = Checker::new(w);
                    word.visit(&mut checker, shown_in);
                    let problems = checker.finish();
                    prop_assert!(
                        problems.is_empty(),
                        "{} in {:?}:\n{}",
                        w.name,
                        shown_in,
                        problems.join("\n")
                    );
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", w.name));
    }
}
