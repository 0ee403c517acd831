//! What generation costs, on the real spec and on synthetic specs 10× and 100× its size.
//!
//! ```sh
//! cargo bench -p dmaspec-codegen --bench generate             # prints the table
//! cargo bench -p dmaspec-codegen --bench generate -- 1 10     # only these factors
//! ```
//!
//! A synthetic spec of factor N is the real one plus N-1 renamed copies of every file that
//! declares a type: each copy's types get a `_S<i>` suffix (C names too), its words move to
//! a new architecture `synth<i>` (opcodes are one byte, so more words need more
//! architectures), and every reference inside the copy follows the rename. `OPCODE` and
//! `DTYPE` are shared, not copied (see [`SHARED`]).
//! The specs are written to `target/synth-spec/x<N>/` and kept, so the generated crate
//! can also be compiled (see `scripts/compile_time.sh`).
//!
//! Timed (median of several runs, in process, nothing written): `load` (read, parse and
//! check every file into the model), `rust` (render the Rust module), `all` (every artifact
//! of `dmaspec gen`: Rust, C, Markdown, JSON).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dmaspec_codegen::model::{Model, TypeKind};
use dmaspec_codegen::{emit, generate, load, spec_files};

/// Types every copy shares instead of renaming: the opcode table the words bind to, and
/// DTYPE, which the validation rules' `dtype_size()` is defined on.
const SHARED: &[&str] = &["OPCODE", "DTYPE"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen/ lives in the workspace")
        .to_path_buf()
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let out = f();
        times.push(t.elapsed());
        last = Some(out);
    }
    (median(times), last.expect("at least one run"))
}

/// Renames every identifier that is a renamed type (in type references, rule expressions
/// and docs alike, but not after `OPCODE::`) and appends the suffix to every `c_name`.
/// Lines binding an opcode keep their enumerator.
fn rename(text: &str, names: &BTreeSet<String>, suffix: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("opcode =") {
            out.push_str(line);
            continue;
        }
        if t.starts_with("c_name =") || t.contains(" c_name = \"") {
            // Suffix every c_name value on the line.
            let mut rest = line;
            while let Some(i) = rest.find("c_name = \"") {
                let open = i + "c_name = \"".len();
                let close = rest[open..].find('"').map_or(rest.len(), |c| open + c);
                out.push_str(&rename_idents(&rest[..close], names, suffix, is_ident));
                out.push_str(suffix);
                rest = &rest[close..];
            }
            out.push_str(&rename_idents(rest, names, suffix, is_ident));
        } else {
            out.push_str(&rename_idents(line, names, suffix, is_ident));
        }
    }
    out
}

fn rename_idents(
    text: &str,
    names: &BTreeSet<String>,
    suffix: &str,
    is_ident: impl Fn(char) -> bool,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let after_opcode = out.ends_with("OPCODE::");
        out.push_str(word);
        if !after_opcode && names.contains(word.as_str()) {
            out.push_str(suffix);
        }
        word.clear();
    };
    for c in text.chars() {
        if is_ident(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Drops the declarations of [`SHARED`] types (a top-level `[[kind]]` block with its
/// `[[kind.sub]]` tables) from a copy.
fn drop_shared(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blocks: Vec<String> = vec![String::new()];
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("[[") && !t[2..].split("]]").next().unwrap_or("").contains('.') {
            blocks.push(String::new());
        }
        blocks.last_mut().unwrap().push_str(line);
    }
    for b in blocks {
        let name = b
            .lines()
            .find_map(|l| l.trim_start().strip_prefix("name = \""))
            .and_then(|r| r.split('"').next());
        if !name.is_some_and(|n| SHARED.contains(&n)) || !b.trim_start().starts_with("[[") {
            out.push_str(&b);
        }
    }
    out
}

/// Gives the word (the file's first `[[struct]]`) exactly the architectures `archs`.
fn set_word_archs(text: &str, archs: &[String]) -> String {
    let list = archs
        .iter()
        .map(|a| format!("\"{a}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = String::with_capacity(text.len() + 64);
    let mut in_header = false;
    let mut done = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("[[") {
            in_header = !done && t.starts_with("[[struct]]");
        }
        if in_header && t.starts_with("arch =") {
            continue;
        }
        out.push_str(line);
        if in_header && t.starts_with("opcode =") {
            out.push_str(&format!("arch = [{list}]\n"));
            done = true;
        }
    }
    out
}

/// Drops the `arch = [...]` restrictions of the OPCODE enumerators, so that every opcode
/// exists in the synthetic architectures.
fn unrestrict(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(", arch = [") {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let close = rest.find(']').map_or(rest.len(), |c| c + 1);
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

struct Synth {
    dir: PathBuf,
    words: usize,
    types: usize,
    bytes: usize,
}

/// Writes the spec of factor `factor` below `target/synth-spec/` (the real spec for 1).
fn synthesize(spec: &Path, model: &Model, factor: usize) -> Synth {
    if factor == 1 {
        let bytes = spec_files(spec)
            .iter()
            .map(|f| fs::metadata(f).map_or(0, |m| m.len() as usize))
            .sum();
        return Synth {
            dir: spec.to_path_buf(),
            words: model.words().count(),
            types: model.types.len(),
            bytes,
        };
    }
    let dir = root().join(format!("target/synth-spec/x{factor}"));
    let _ = fs::remove_dir_all(&dir);
    let names: BTreeSet<String> = model
        .types
        .iter()
        .filter(|t| !SHARED.contains(&t.name.as_str()))
        .map(|t| t.name.clone())
        .collect();
    let typed: BTreeSet<&str> = model
        .types
        .iter()
        .filter(|t| !SHARED.contains(&t.name.as_str()))
        .map(|t| t.file.as_str())
        .collect();
    let word_files: BTreeSet<&str> = model.words().map(|t| t.file.as_str()).collect();
    let synth_archs: Vec<String> = (1..factor).map(|i| format!("synth{i}")).collect();
    let mut bytes = 0;
    let mut write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        bytes += text.len();
    };
    for file in spec_files(spec) {
        let rel = file
            .strip_prefix(spec)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(&file).unwrap();
        if rel == "arch.toml" {
            let mut t = text.clone();
            for a in &synth_archs {
                t.push_str(&format!(
                    "\n[[arch]]\nname = \"{a}\"\nnc = 9\ndoc = \"Synthetic architecture (codegen benchmark)\"\n"
                ));
            }
            write(&rel, &t);
            continue;
        }
        let defines_opcode = model
            .types
            .iter()
            .any(|t| t.name == "OPCODE" && t.file == rel);
        let text = if defines_opcode {
            unrestrict(&text)
        } else {
            text
        };
        if !typed.contains(rel.as_str()) {
            write(&rel, &text);
            continue;
        }
        let original = match model
            .types
            .iter()
            .find(|t| t.file == rel && t.opcode().is_some())
        {
            Some(w) if word_files.contains(rel.as_str()) => {
                let archs = match &w.kind {
                    TypeKind::Struct { arch, .. } => arch.clone(),
                    _ => Vec::new(),
                };
                set_word_archs(&text, &archs)
            }
            _ => text.clone(),
        };
        write(&rel, &original);
        for (i, a) in synth_archs.iter().enumerate() {
            let suffix = format!("_S{}", i + 1);
            let mut copy = rename(&drop_shared(&text), &names, &suffix);
            if word_files.contains(rel.as_str()) {
                copy = set_word_archs(&copy, std::slice::from_ref(a));
            }
            let stem = rel.trim_end_matches(".toml");
            write(&format!("synth/s{}/{stem}.toml", i + 1), &copy);
        }
    }
    Synth {
        dir,
        words: model.words().count() * factor,
        types: (model.types.len() - SHARED.len()) * factor + SHARED.len(),
        bytes,
    }
}

fn main() {
    let factors: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let factors = if factors.is_empty() {
        vec![1, 10, 100]
    } else {
        factors
    };
    let spec = root().join("spec");
    let model = load::load_dir(&spec).unwrap_or_else(|e| panic!("{}", e.render()));
    println!(
        "| spec | words | types | spec KiB | load ms | rust ms | all ms | load+all ms | µs per word | generated Rust lines |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for factor in factors {
        let synth = synthesize(&spec, &model, factor);
        let runs = match factor {
            0..=1 => 21,
            2..=10 => 7,
            _ => 3,
        };
        let (load, m) = time(runs, || {
            load::load_dir(&synth.dir).unwrap_or_else(|e| panic!("{}", e.render()))
        });
        assert_eq!(
            m.words().count(),
            synth.words,
            "x{factor}: every word loads"
        );
        let (rust, code) = time(runs, || emit::rust::render(&m, "crate::runtime"));
        let (all, _) = time(runs, || generate(&m));
        let total = load + all;
        println!(
            "| {}× | {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.0} | {} |",
            factor,
            synth.words,
            synth.types,
            synth.bytes / 1024,
            load.as_secs_f64() * 1e3,
            rust.as_secs_f64() * 1e3,
            all.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e6 / synth.words as f64,
            code.lines().count(),
        );
    }
}
