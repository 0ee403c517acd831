//! Arbitrary TOML through the spec loader: it never panics, every error renders, and a spec
//! that loads yields leaves and byte coverage for every word.
//!
//! The first input byte picks the mode. At 0xfe the rest drives [`spec_tree`]: a random but
//! well-formed spec tree (types of every kind, words, rules; extreme numbers, long names,
//! deep nesting, long expressions), rendered to TOML and loaded on its own. Otherwise, below 0xff the rest is one extra spec file next to
//! the real `arch.toml`, `confidence.toml` and `sources.toml`: fast, so nearly every run.
//! At 0xff the rest replaces one file of the real spec (the second byte picks which; the
//! `klr/` files are left out), which reaches the cross-file checks but runs at a few inputs
//! a second under the sanitizer. The emitters are not run here: rendering the whole spec
//! takes about half a second per input.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dmaspec_codegen::{load, spec_files};
use libfuzzer_sys::fuzz_target;

mod spec_tree;

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

/// Every real spec file, (relative path, text).
fn real() -> &'static [(PathBuf, String)] {
    static FILES: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = spec_dir();
        spec_files(&dir)
            .into_iter()
            .filter(|p| !p.starts_with(dir.join("klr")))
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (p.strip_prefix(&dir).unwrap().to_path_buf(), text)
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let root = Path::new("spec");
    let files: Vec<(PathBuf, String)> = if mode == 0xfe {
        vec![(root.join("tree.toml"), spec_tree::render(rest))]
    } else if mode < 0xff {
        let text = String::from_utf8_lossy(rest).into_owned();
        let mut files: Vec<(PathBuf, String)> = real()
            .iter()
            .filter(|(p, _)| p.parent() == Some(Path::new("")))
            .map(|(p, t)| (root.join(p), t.clone()))
            .collect();
        files.push((root.join("words/fuzz.toml"), text));
        files
    } else {
        let Some((&which, text)) = rest.split_first() else {
            return;
        };
        let which = usize::from(which) % real().len();
        let text = String::from_utf8_lossy(text).into_owned();
        real()
            .iter()
            .enumerate()
            .map(|(i, (p, t))| {
                (
                    root.join(p),
                    if i == which { text.clone() } else { t.clone() },
                )
            })
            .collect()
    };
    match load::load_files(root, files) {
        Ok(model) => {
            for word in model.words() {
                let leaves = model.leaves(word);
                for l in &leaves {
                    assert!(
                        l.offset + l.size <= word.size,
                        "{} runs past its word",
                        l.path
                    );
                }
                assert_eq!(model.byte_coverage(word).len(), word.size);
                let _ = model.word_archs(word);
            }
        }
        Err(errors) => {
            assert!(!errors.0.is_empty(), "an Err carries at least one error");
            let _ = errors.render();
        }
    }
});
