//! The spec loader never panics on damaged input, and every error it reports renders: the
//! bounded CI run of the `spec_loader` fuzz target's property (`fuzz/`). Real spec files
//! are cut short and sprinkled with random bytes, then loaded next to the real
//! `arch.toml`, `confidence.toml` and `sources.toml`, and (fewer cases, slower) in place of
//! the original inside the whole spec. And random but well-formed spec trees (the fuzz
//! target's structure-aware mode, `fuzz/fuzz_targets/spec_tree.rs`) load on a 2 MiB stack.

use std::path::{Path, PathBuf};

use dmaspec_codegen::{load, spec_files};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

#[path = "../../fuzz/fuzz_targets/spec_tree.rs"]
mod spec_tree;

fn real() -> Vec<(PathBuf, String)> {
    let dir = dmaspec_testkit::root().join("spec");
    spec_files(&dir)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.strip_prefix(&dir).unwrap().to_path_buf(), text)
        })
        .collect()
}

/// `text` cut at `cut` (a fraction of its length) with `edits` (position fraction, byte)
/// written over it.
fn damage(text: &str, cut: f64, edits: &[(f64, u8)]) -> String {
    let mut b = text.as_bytes().to_vec();
    b.truncate((b.len() as f64 * cut) as usize);
    for &(at, byte) in edits {
        if !b.is_empty() {
            let i = ((b.len() - 1) as f64 * at) as usize;
            b[i] = byte;
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn check(files: Vec<(PathBuf, String)>) -> Result<(), TestCaseError> {
    match load::load_files(Path::new("spec"), files) {
        Ok(model) => {
            for w in model.words() {
                for l in model.leaves(w) {
                    prop_assert!(l.offset + l.size <= w.size, "{} runs past its word", l.path);
                }
            }
        }
        Err(e) => {
            prop_assert!(!e.0.is_empty());
            let _ = e.render();
        }
    }
    Ok(())
}

fn input(n: usize) -> impl Strategy<Value = (usize, f64, Vec<(f64, u8)>)> {
    (
        0..n,
        0.0..=1.0f64,
        vec(
            (
                0.0..1.0f64,
                prop_oneof![any::<u8>(), Just(b'"'), Just(b'['), Just(b'=')],
            ),
            0..6,
        ),
    )
}

#[test]
fn damaged_spec_files_next_to_the_base_files_never_panic() {
    let real = real();
    let base: Vec<(PathBuf, String)> = real
        .iter()
        .filter(|(p, _)| p.parent() == Some(Path::new("")))
        .map(|(p, t)| (Path::new("spec").join(p), t.clone()))
        .collect();
    let mut runner = TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&input(real.len()), |(which, cut, edits)| {
            let mut files = base.clone();
            files.push((
                PathBuf::from("spec/words/damaged.toml"),
                damage(&real[which].1, cut, &edits),
            ));
            check(files)
        })
        .unwrap();
}

#[test]
fn a_damaged_file_inside_the_whole_spec_never_panics() {
    let real = real();
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&input(real.len()), |(which, cut, edits)| {
            let files = real
                .iter()
                .enumerate()
                .map(|(i, (p, t))| {
                    let text = if i == which {
                        damage(t, cut, &edits)
                    } else {
                        t.clone()
                    };
                    (Path::new("spec").join(p), text)
                })
                .collect();
            check(files)
        })
        .unwrap();
}

/// Loads one rendered tree on a thread with the default 2 MiB stack; whether it loaded.
fn load_tree(data: Vec<u8>) -> Result<bool, TestCaseError> {
    std::thread::spawn(move || {
        let text = spec_tree::render(&data);
        let loaded = load::load_files(
            Path::new("spec"),
            vec![(PathBuf::from("spec/tree.toml"), text.clone())],
        )
        .is_ok();
        check(vec![(PathBuf::from("spec/tree.toml"), text)]).map(|()| loaded)
    })
    .join()
    .unwrap_or_else(|_| Err(TestCaseError::fail("the loader panicked")))
}

#[test]
fn random_spec_trees_never_panic() {
    let mut runner = TestRunner::new(Config {
        cases: 200,
        failure_persistence: None,
        ..Config::default()
    });
    let loaded = std::cell::Cell::new(0);
    runner
        .run(&vec(any::<u8>(), 0..6000), |data| {
            loaded.set(loaded.get() + usize::from(load_tree(data)?));
            Ok(())
        })
        .unwrap();
    println!("{} of 200 trees loaded", loaded.get());
}
