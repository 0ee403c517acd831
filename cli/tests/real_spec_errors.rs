//! Edits of the crate's own spec as a spec editor makes them, each a slip of one line or
//! file: the errors name that slip first, and what only follows from it is not shown.

mod common;

use std::path::{Path, PathBuf};

use common::{dmaspec, root, stderr};
use dmaspec_codegen::load::load_files;
use dmaspec_codegen::{SpecError, SpecErrors};

fn spec() -> PathBuf {
    root().join("spec")
}

/// The spec's files, in memory, with `edit` applied to each (path relative to `spec/`,
/// text); `None` drops the file.
fn edited(edit: impl Fn(&str, String) -> Option<String>) -> Vec<(PathBuf, String)> {
    dmaspec_codegen::spec_files(&spec())
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let rel = path
                .strip_prefix(spec())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            edit(&rel, text).map(|t| (path, t))
        })
        .collect()
}

/// The errors of the spec with `text` of `file` (relative to `spec/`) replaced by
/// `with`, once.
#[track_caller]
fn errors_after(file: &str, text: &str, with: &str) -> Vec<SpecError> {
    let files = edited(|rel, t| {
        Some(if rel == file {
            assert!(t.contains(text), "`{text}` is not in {file}");
            t.replacen(text, with, 1)
        } else {
            t
        })
    });
    load_files(&spec(), files)
        .expect_err("the edit is rejected")
        .0
}

/// The word file most slips are made in.
const DIRECT2D: &str = "words/dma_direct2d.toml";

/// The one error of `errs`: in `file`, saying `message`, and short.
#[track_caller]
fn only(errs: &[SpecError], file: &str, message: &str) -> SpecError {
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.to_vec()));
    let e = errs[0].clone();
    assert_eq!(e.file, spec().join(file), "{e}");
    assert!(e.message.contains(message), "{e}");
    let path = e.file.display().to_string().len();
    assert!(
        e.message.len() <= 300 + path,
        "{} bytes: {e}",
        e.message.len()
    );
    e
}

/// The errors of the spec without `file` (relative to `spec/`).
fn errors_without(file: &str) -> Vec<SpecError> {
    let files = edited(|rel, t| (rel != file).then_some(t));
    load_files(&spec(), files).expect_err("rejected").0
}

#[test]
fn without_arch_toml_one_error_names_it() {
    let e = only(
        &errors_without("arch.toml"),
        "arch.toml",
        "arch.toml is missing: no architecture is declared, but `arch` lists name them: \
         declare each as `[[arch]]`",
    );
    // Every `arch` list of the spec, and what follows from their being empty.
    assert!(e.notes[0].ends_with("later errors that follow from this one are not shown"));
}

#[test]
fn without_the_klr_enums_one_error_names_their_file() {
    only(
        &errors_without("klr/enums.toml"),
        "klr/enums.toml",
        "klr/enums.toml is missing: no klr enum is declared",
    );
}

#[test]
fn a_renamed_word_is_one_error_suggesting_its_new_name() {
    // Named by a gap, a lowering and a conflict, each in its own file.
    let errs = errors_after(
        "words/pseudo_dma_ext.toml",
        "name = \"PSEUDO_DMA_EXT\"",
        "name = \"PSEUDO_DMA_EXTENSION\"",
    );
    let e = only(
        &errs,
        "gaps.toml",
        "is part of `PSEUDO_DMA_EXT`, which is neither a word nor a record: name the word or \
         record it belongs to; did you mean `PSEUDO_DMA_EXTENSION`?",
    );
    assert_eq!(e.notes[0], "and 2 more uses of `PSEUDO_DMA_EXT`, not shown");
    // Named by six gaps, a conflict and two sub-words.
    let errs = errors_after(
        "words/extended.toml",
        "name = \"EXTENDED\"",
        "name = \"EXTENDED_INST\"",
    );
    let e = only(&errs, "gaps.toml", "did you mean `EXTENDED_INST`?");
    assert_eq!(e.notes, ["and 8 more uses of `EXTENDED`, not shown"]);
}

#[test]
fn a_renamed_type_suggests_its_new_name() {
    for (file, old, new) in [
        ("types/header.toml", "HEADER", "HEADER_V2"),
        ("types/dma_common.toml", "ADDR8", "ADDR8_V2"),
    ] {
        let errs = errors_after(
            file,
            &format!("name = \"{old}\""),
            &format!("name = \"{new}\""),
        );
        let message = format!("unknown type `{old}`; did you mean `{new}`?");
        only(&errs, DIRECT2D, &message);
    }
}

#[test]
fn an_unknown_name_lists_only_the_nearest_few() {
    let errs = errors_after(DIRECT2D, "type = \"HEADER\"", "type = \"HDR_WORD\"");
    let e = only(&errs, DIRECT2D, "unknown type `HDR_WORD` (nearest of ");
    assert_eq!(e.message.matches(", ").count(), 7, "{e}");
}

#[test]
fn a_misspelt_table_is_the_only_error() {
    // `[[strcut]]` leaves the word's `[[struct.field]]` tables in a `struct` of their own.
    let errs = errors_after(DIRECT2D, "[[struct]]", "[[strcut]]");
    let e = only(
        &errs,
        DIRECT2D,
        "unknown table `strcut`; did you mean `struct`?",
    );
    assert_eq!((e.line, e.column), (3, 3));
}

#[test]
fn a_misspelt_key_in_a_word_is_the_only_error() {
    let errs = errors_after("words/dma_direct2d.toml", "\nevidence = [", "\nevidnce = [");
    let e = only(
        &errs,
        "words/dma_direct2d.toml",
        "unknown field `evidnce`; did you mean `evidence`?",
    );
    // Line 11: the word's `evidence` follows its `arch` list (seed 004 §10).
    assert_eq!((e.line, e.column), (11, 1));
}

#[test]
fn a_word_that_cannot_be_read_is_the_only_error() {
    // Without `c_name` the word is dropped; the lowering that names it follows from that.
    let errs = errors_after(
        "words/dma_direct2d.toml",
        "c_name = \"NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT\"\n",
        "",
    );
    let e = only(&errs, "words/dma_direct2d.toml", "missing field `c_name`");
    assert_eq!((e.line, e.column), (3, 1));
    assert_eq!(
        e.notes,
        ["1 later error that follows from this one is not shown"]
    );
}

#[test]
fn a_bad_bit_range_is_the_only_error() {
    let errs = errors_after("types/dma_common.toml", "bits = \"0..2\"", "bits = \"0-2\"");
    let e = only(
        &errs,
        "types/dma_common.toml",
        "bit range `0-2` is not `N` or `LO..HI`",
    );
    assert_eq!((e.line, e.column), (14, 12));
}

#[test]
fn a_misspelt_type_shows_no_placeholder() {
    let errs = errors_after(
        "words/dma_direct2d.toml",
        "type = \"DTYPE\"",
        "type = \"DTYP\"",
    );
    let e = only(
        &errs,
        "words/dma_direct2d.toml",
        "unknown type `DTYP`; did you mean `DTYPE`?",
    );
    assert!(errs.iter().all(|e| !e.message.contains("u8[1]")), "{e}");
}

#[test]
fn a_missing_sources_or_confidence_file_is_one_error() {
    for (file, says) in [
        ("sources.toml", "sources.toml is missing: "),
        ("confidence.toml", "confidence.toml is missing: "),
    ] {
        let files = edited(|rel, t| (rel != file).then_some(t));
        let errs = load_files(&spec(), files).expect_err("rejected").0;
        let e = only(&errs, file, says);
        assert_eq!((e.line, e.column), (1, 1));
    }
}

/// A copy of the spec in a fresh directory, with `extra` (path relative to it, bytes) added.
fn spec_copy(name: &str, extra: &[(&str, &[u8])]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in edited(|_, t| Some(t)) {
        let to = dir.join(path.strip_prefix(spec()).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, text).unwrap();
    }
    for (path, bytes) in extra {
        std::fs::write(dir.join(path), bytes).unwrap();
    }
    dir
}

#[test]
fn gen_rejects_an_empty_word_file_and_counts_the_errors() {
    let dir = spec_copy("gen-empty-word", &[("words/foo.toml", b"# to do\n")]);
    let out_dir = dir.with_extension("out");
    let args = [
        "gen",
        "--check",
        "--spec",
        path(&dir),
        "--out",
        path(&out_dir),
    ];
    let out = dmaspec(&args, b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("error: this file declares nothing"), "{err}");
    assert!(err.contains("words/foo.toml:1:1"), "{err}");
    assert!(err.trim_end().ends_with("1 error in 1 file"), "{err}");
}

#[test]
fn a_bad_byte_in_a_comment_is_the_only_error() {
    let header = std::fs::read(spec().join("types/header.toml")).unwrap();
    let mut bad = b"# caf\xe9\n".to_vec();
    bad.extend(header);
    let dir = spec_copy("bad-byte-in-comment", &[("types/header.toml", &bad)]);
    let errs = dmaspec_codegen::load::load_dir(&dir)
        .expect_err("rejected")
        .0;
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    let e = &errs[0];
    assert_eq!(e.file, dir.join("types/header.toml"), "{e}");
    assert!(
        e.message
            .starts_with("byte 0xe9 at byte offset 5 is not UTF-8"),
        "{e}"
    );
    // The types it declares are used all over: those uses follow from it.
    assert!(e.notes[0].ends_with("later errors that follow from this one are not shown"));
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}
