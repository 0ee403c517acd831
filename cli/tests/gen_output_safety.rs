//! `dmaspec gen` and `Builder::compile` write only their own outputs: they keep files they
//! did not write, never follow a symbolic link out of the output directory, refuse an
//! output directory that overlaps the spec, and rewrite nothing that has not changed.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::{assert_success, dmaspec, root, stderr};
use dmaspec_codegen::{Artifact, Builder};

/// A fresh directory under the system temp dir, removed again on drop (remove_dir_all
/// removes links, not what they point at).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("dmaspec-gen-safety-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    /// Writes `rel` (creating its directories) and returns its path.
    fn file(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        path
    }

    /// A copy of the crate's spec at `rel`.
    fn spec_copy(&self, rel: &str) -> PathBuf {
        let to = self.path(rel);
        copy_tree(&root().join("spec"), &to);
        to
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file below `dir` (relative path) with its contents, for comparing trees.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                out.push((rel, fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// `dmaspec gen --out OUT [--spec SPEC]`.
fn run_gen(out: &Path, spec: Option<&Path>) -> std::process::Output {
    let out = out.display().to_string();
    let spec = spec.map(|p| p.display().to_string());
    let mut args = vec!["gen", "--out", &out];
    if let Some(spec) = &spec {
        args.extend(["--spec", spec]);
    }
    dmaspec(&args, &[])
}

fn gen_check(out: &Path) -> std::process::Output {
    dmaspec(
        &["gen", "--check", "--out", &out.display().to_string()],
        &[],
    )
}

/// The first reproduction: notes.txt and src/main.rs survive gen, which names them.
#[test]
fn gen_keeps_files_it_did_not_write() {
    let s = Scratch::new("foreign");
    let notes = s.file("g7/notes.txt", "a\n");
    let main = s.file("g7/src/main.rs", "b\n");
    let out = run_gen(&s.path("g7"), None);
    assert_success(&out);
    assert_eq!(fs::read_to_string(&notes).unwrap(), "a\n");
    assert_eq!(fs::read_to_string(&main).unwrap(), "b\n");
    let err = stderr(&out);
    assert!(
        err.contains("left alone, not written by dmaspec gen (2)"),
        "{err}"
    );
    assert!(err.contains(&notes.display().to_string()), "{err}");
    assert!(err.contains(&main.display().to_string()), "{err}");
}

/// The second reproduction: a link to another directory is listed, not followed; and gen
/// refuses to write through a link at or above a path it writes.
#[cfg(unix)]
#[test]
fn gen_never_follows_a_symlink_out_of_its_directory() {
    let s = Scratch::new("symlink");
    let victim = s.file("victim/a.txt", "p\n");
    let victim_dir = s.path("victim");
    fs::create_dir_all(s.path("g8")).unwrap();
    std::os::unix::fs::symlink(&victim_dir, s.path("g8/link")).unwrap();
    let out = run_gen(&s.path("g8"), None);
    assert_success(&out);
    assert_eq!(fs::read_to_string(&victim).unwrap(), "p\n");
    assert!(stderr(&out).contains("g8/link"), "{}", stderr(&out));

    // A link where gen writes a file, and a link where it writes a directory.
    for (link, to) in [("g9/dmaspec.json", &victim), ("g10/c", &victim_dir)] {
        let link = s.path(link);
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(to, &link).unwrap();
        let out = run_gen(link.parent().unwrap(), None);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "refusing to write through the symbolic link {}",
                link.display()
            )),
            "{err}"
        );
        assert_eq!(tree(&victim_dir), vec![("a.txt".into(), b"p\n".to_vec())]);
    }
}

/// The third reproduction: `--spec same --out same` is refused and every spec file stays;
/// so are an output directory inside the spec (not yet existing) and one containing it.
#[test]
fn gen_refuses_an_out_dir_that_overlaps_the_spec() {
    let s = Scratch::new("overlap");
    let spec = s.spec_copy("same");
    let before = tree(&spec);
    for (out, relation) in [
        (spec.clone(), "is"),
        (spec.join("new/dir"), "lies inside"),
        (s.path("."), "contains"),
    ] {
        let run = run_gen(&out, Some(&spec));
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        let err = stderr(&run);
        let expected = format!(
            "refusing to generate into {}: it {relation} the spec directory {}",
            out.display(),
            spec.display()
        );
        assert!(err.contains(&expected), "{err}");
        assert!(err.contains("choose an output directory outside"), "{err}");
        assert_eq!(tree(&spec), before);
    }
    assert!(!spec.join("new").exists());
}

/// `--check` names the same foreign files as gen and does not fail for them (gen would
/// never change them); it still fails for a file of ours that differs.
#[test]
fn check_reports_foreign_files_without_failing_for_them() {
    let s = Scratch::new("check");
    let dir = s.path("g");
    assert_success(&run_gen(&dir, None));
    let notes = s.file("g/notes.txt", "mine\n");
    let out = gen_check(&dir);
    assert_success(&out);
    let err = stderr(&out);
    assert!(
        err.contains("left alone, not written by dmaspec gen (1)"),
        "{err}"
    );
    assert!(err.contains(&notes.display().to_string()), "{err}");

    s.file("g/dmaspec.json", "{}\n");
    let out = gen_check(&dir);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("dmaspec.json: differs"), "{err}");
    assert!(err.contains(&notes.display().to_string()), "{err}");
}

/// When the spec stops generating a word, gen removes that word's files (the manifest
/// lists them) and keeps a foreign file next to them.
#[test]
fn gen_removes_its_own_stale_files_and_only_those() {
    let s = Scratch::new("stale");
    let spec = s.spec_copy("spec");
    let dir = s.path("g");
    assert_success(&run_gen(&dir, Some(&spec)));
    let word_doc = dir.join("docs/words/MOVE_SHAPE.md");
    let word_header = dir.join("c/aws_neuron_isa_tpb_move_shape.h");
    let bit_map = dir.join("docs/svg/MOVE_SHAPE.svg");
    let ksy = dir.join("kaitai/move_shape.ksy");
    assert!(word_doc.exists() && word_header.exists() && bit_map.exists() && ksy.exists());
    let notes = s.file("g/docs/words/notes.md", "mine\n");

    fs::remove_file(spec.join("words/move_shape.toml")).unwrap();
    let out = run_gen(&dir, Some(&spec));
    assert_success(&out);
    assert!(!word_doc.exists() && !word_header.exists() && !bit_map.exists() && !ksy.exists());
    assert_eq!(fs::read_to_string(&notes).unwrap(), "mine\n");
    assert!(stderr(&out).contains("4 removed"), "{}", stderr(&out));
    let manifest = fs::read_to_string(dir.join(".dmaspec-manifest")).unwrap();
    assert!(
        manifest.contains("docs/words/DMA_DIRECT2D.md\n"),
        "{manifest}"
    );
    assert!(!manifest.contains("MOVE_SHAPE"), "{manifest}");
}

fn stamped(path: &str) -> Artifact {
    Artifact {
        path: path.into(),
        contents: "// @generated by dmaspec-codegen (test)\n".into(),
    }
}

/// A directory gen emptied by removing its own files goes too; one holding anything else
/// stays.
#[test]
fn directories_emptied_by_removal_are_removed() {
    let s = Scratch::new("prune");
    let dir = s.path("g");
    let all = [
        stamped("a/b/one.h"),
        stamped("a/two.h"),
        stamped("k/three.h"),
    ];
    dmaspec_codegen::write_artifacts(&dir, &all).unwrap();
    s.file("g/k/notes.txt", "mine\n");
    dmaspec_codegen::write_artifacts(&dir, &[]).unwrap();
    assert!(!dir.join("a").exists());
    assert!(!dir.join("k/three.h").exists());
    assert_eq!(
        fs::read_to_string(dir.join("k/notes.txt")).unwrap(),
        "mine\n"
    );
}

/// Without a manifest gen cannot tell which stamped files came from this directory (a
/// stamp also marks a nested copy of generated/), so it removes nothing.
#[test]
fn without_a_manifest_gen_removes_nothing() {
    let s = Scratch::new("no-manifest");
    let old = s.file(
        "g/old/generated/c/dmaspec.h",
        "// @generated by dmaspec-codegen from the TOML files in spec/.\n",
    );
    let out = run_gen(&s.path("g"), None);
    assert_success(&out);
    assert!(old.exists());
    assert!(stderr(&out).contains(&old.display().to_string()));
}

/// Every file gen writes carries a stamp it recognises, so a directory from before the
/// manifest (every file out of date) is taken over, not refused.
#[test]
fn a_directory_without_a_manifest_is_taken_over() {
    let s = Scratch::new("takeover");
    let dir = s.path("g");
    assert_success(&run_gen(&dir, None));
    fs::remove_file(dir.join(".dmaspec-manifest")).unwrap();
    let fresh = tree(&dir);
    for (rel, bytes) in &fresh {
        let mut old = bytes.clone();
        old.extend_from_slice(b"\nan older generation\n");
        fs::write(dir.join(rel), old).unwrap();
    }
    let out = run_gen(&dir, None);
    assert_success(&out);
    assert!(
        stderr(&out).contains(&format!("({} written, 0 removed)", fresh.len())),
        "{}",
        stderr(&out)
    );
    let now = tree(&dir);
    assert!(now.iter().any(|(p, _)| p == Path::new(".dmaspec-manifest")));
    assert!(fresh.iter().all(|f| now.contains(f)));
}

fn builder(out_dir: &Path) -> Builder {
    Builder::new()
        .spec_dir(root().join("spec"))
        .out_dir(out_dir)
}

/// The error of a `compile()` that must refuse.
fn refusal(b: Builder) -> String {
    match b.compile() {
        Ok(_) => panic!("compile() wrote its file"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn builder_refuses_to_overwrite_a_file_it_did_not_write() {
    let s = Scratch::new("builder-foreign");
    let mine = s.file("out/dmaspec.rs", "fn main() {}\n");
    let err = refusal(builder(&s.path("out")));
    assert!(
        err.contains(&format!("refusing to overwrite {}", mine.display())),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&mine).unwrap(), "fn main() {}\n");
}

#[test]
fn builder_refuses_an_out_dir_that_overlaps_the_spec() {
    let s = Scratch::new("builder-overlap");
    let spec = s.spec_copy("spec");
    let before = tree(&spec);
    let err = refusal(Builder::new().spec_dir(&spec).out_dir(&spec));
    assert!(err.contains("it is the spec directory"), "{err}");
    assert_eq!(tree(&spec), before);
}

#[test]
fn builder_rewrites_only_a_changed_file() {
    let s = Scratch::new("builder-mtime");
    let dir = s.path("out");
    fs::create_dir_all(&dir).unwrap();
    builder(&dir).compile().unwrap();
    let file = dir.join("dmaspec.rs");
    let past = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(past)
        .unwrap();
    builder(&dir).compile().unwrap();
    assert_eq!(fs::metadata(&file).unwrap().modified().unwrap(), past);
}

/// `dictionary_file` writes the JSON dictionary beside the Rust file, the very text of
/// `generated/dmaspec.json` (the Python package embeds it from there).
#[test]
fn builder_writes_the_dictionary_it_is_asked_for() {
    let s = Scratch::new("builder-dictionary");
    let dir = s.path("out");
    fs::create_dir_all(&dir).unwrap();
    builder(&dir).compile().unwrap();
    assert!(!dir.join("dmaspec.json").exists(), "only when asked");
    builder(&dir)
        .dictionary_file("dmaspec.json")
        .compile()
        .unwrap();
    let written = fs::read_to_string(dir.join("dmaspec.json")).unwrap();
    let checked_in = fs::read_to_string(root().join("generated/dmaspec.json")).unwrap();
    assert!(
        written.starts_with("{\n  \"format\": \"dmaspec/5\""),
        "{}",
        &written[..40]
    );
    assert!(
        written == checked_in,
        "the dictionary differs from generated/dmaspec.json"
    );
}

/// A link inside the spec directory back up to it is read once, not followed until the
/// path is too long: the spec loads as the same model and names each file once.
#[cfg(unix)]
#[test]
fn a_spec_linked_into_itself_is_read_once() {
    let s = Scratch::new("spec-loop");
    let spec = s.spec_copy("spec");
    std::os::unix::fs::symlink(&spec, spec.join("types/again")).unwrap();
    let files = dmaspec_codegen::spec_files(&spec);
    assert_eq!(
        files.len(),
        dmaspec_codegen::spec_files(&root().join("spec")).len()
    );
    let model = dmaspec_codegen::load::load_dir(&spec).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(model.types.len(), common::model().types.len());
}

/// Incremental outputs: after a `touch` of every spec file (same bytes, new mtime), gen
/// writes nothing and every output keeps its mtime; after a real edit it writes only the
/// outputs that edit changes.
#[test]
fn gen_after_a_touch_writes_nothing_and_after_an_edit_only_what_changed() {
    let s = Scratch::new("touch");
    let spec = s.spec_copy("spec");
    let dir = s.path("g");
    assert_success(&run_gen(&dir, Some(&spec)));
    let past = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    let files: Vec<PathBuf> = tree(&dir)
        .into_iter()
        .map(|(rel, _)| dir.join(rel))
        .collect();
    let set_mtime = |path: &Path, when: SystemTime| {
        fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(when)
            .unwrap()
    };
    for f in &files {
        set_mtime(f, past);
    }
    for (rel, _) in tree(&spec) {
        set_mtime(&spec.join(rel), SystemTime::now());
    }
    let out = run_gen(&dir, Some(&spec));
    assert_success(&out);
    assert!(
        stderr(&out).contains("(0 written, 0 removed)"),
        "{}",
        stderr(&out)
    );
    for f in &files {
        assert_eq!(fs::metadata(f).unwrap().modified().unwrap(), past, "{f:?}");
    }

    // One word's doc line: its Rust, C, page and the dictionary change; nothing else does.
    let word = spec.join("words/dma_direct2d.toml");
    let text = fs::read_to_string(&word).unwrap();
    let edited = text.replacen("doc = \"", "doc = \"Edited. ", 1);
    assert_ne!(edited, text);
    fs::write(&word, edited).unwrap();
    let out = run_gen(&dir, Some(&spec));
    assert_success(&out);
    let rewritten: Vec<&PathBuf> = files
        .iter()
        .filter(|f| fs::metadata(f).unwrap().modified().unwrap() != past)
        .collect();
    assert!(!rewritten.is_empty());
    assert!(
        rewritten.len() < files.len() / 4,
        "an edit of one word rewrote {} of {} outputs: {rewritten:?}",
        rewritten.len(),
        files.len()
    );
    assert!(
        stderr(&out).contains(&format!("({} written, 0 removed)", rewritten.len())),
        "{}",
        stderr(&out)
    );
}

/// A manifest line naming a file gen did not stamp (a user's file, or a manifest edited
/// by hand) does not get the file removed: gen keeps it and names it.
#[test]
fn a_listed_file_without_the_stamp_is_kept_and_named() {
    let s = Scratch::new("listed-unstamped");
    let dir = s.path("g");
    assert_success(&run_gen(&dir, None));
    let mine = s.file("g/docs/mine.md", "my notes\n");
    let manifest = dir.join(".dmaspec-manifest");
    let mut text = fs::read_to_string(&manifest).unwrap();
    text.push_str("docs/mine.md\n");
    fs::write(&manifest, text).unwrap();
    let out = run_gen(&dir, None);
    assert_success(&out);
    assert_eq!(fs::read_to_string(&mine).unwrap(), "my notes\n");
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "not removed: {} is listed in {} but has no `@generated by dmaspec-codegen` stamp",
            mine.display(),
            manifest.display()
        )),
        "{err}"
    );
    assert!(err.contains("0 removed"), "{err}");
}

/// A stamped file the manifest lists that the spec no longer generates is removed, and
/// gen names it.
#[test]
fn a_removed_file_is_named() {
    let s = Scratch::new("removed-named");
    let dir = s.path("g");
    assert_success(&run_gen(&dir, None));
    let old = s.file(
        "g/c/old.h",
        "// @generated by dmaspec-codegen from the TOML files in spec/.\n",
    );
    let manifest = dir.join(".dmaspec-manifest");
    let mut text = fs::read_to_string(&manifest).unwrap();
    text.push_str("c/old.h\n");
    fs::write(&manifest, text).unwrap();
    let out = run_gen(&dir, None);
    assert_success(&out);
    assert!(!old.exists());
    let err = stderr(&out);
    assert!(err.contains(&format!("removed {}", old.display())), "{err}");
    assert!(err.contains("1 removed"), "{err}");
}

/// The book's hand-written pages (docs/ beside the spec) are gen's own outputs: copied with
/// the stamp, listed in SUMMARY.md, a stale copy named by `--check`, an orphan removed.
#[test]
fn gen_copies_the_guide_and_check_flags_a_stale_copy() {
    let s = Scratch::new("guide");
    let spec = s.spec_copy("p/spec");
    s.file(
        "p/docs/start-here.md",
        "# Start here\n\n[One](guide/one.md)\n",
    );
    let source = s.file("p/docs/guide/one.md", "# One\n\nFirst text.\n");
    let out = s.path("p/out");
    assert_success(&run_gen(&out, Some(&spec)));
    let copy = out.join("docs/guide/one.md");
    let text = fs::read_to_string(&copy).unwrap();
    assert!(
        text.starts_with("<!-- @generated by dmaspec-codegen from docs/guide/one.md.")
            && text.ends_with("\n# One\n\nFirst text.\n"),
        "{text}"
    );
    let summary = fs::read_to_string(out.join("docs/SUMMARY.md")).unwrap();
    assert!(summary.contains("[Start here](start-here.md)\n\n# Guide\n\n- [One](guide/one.md)"));
    let check = |out: &Path| {
        dmaspec(
            &[
                "gen",
                "--check",
                "--spec",
                &spec.display().to_string(),
                "--out",
                &out.display().to_string(),
            ],
            &[],
        )
    };
    assert_success(&check(&out));
    // The source changes: the copy is stale until gen runs again.
    fs::write(&source, "# One\n\nSecond text.\n").unwrap();
    let stale = check(&out);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        stderr(&stale).contains(&format!("{}: differs", copy.display())),
        "{}",
        stderr(&stale)
    );
    assert_success(&run_gen(&out, Some(&spec)));
    assert!(
        fs::read_to_string(&copy)
            .unwrap()
            .ends_with("Second text.\n")
    );
    // The source goes: gen removes its copy.
    fs::remove_file(&source).unwrap();
    let removed = run_gen(&out, Some(&spec));
    assert_success(&removed);
    assert!(!copy.exists());
    assert!(stderr(&removed).contains(&format!("removed {}", copy.display())));
}
