//! Synthetic specs N times the size of the real one, for the generation benchmark and the
//! size budget's linearity check.
//!
//! A spec of factor N is the real one plus N-1 renamed copies of every file that declares a
//! type: each copy's types and top-level blocks (constants, tables, conflicts) get a `_S<i>`
//! suffix, C names too; its words move to a new architecture `synth<i>` (opcodes are one
//! byte, so more words need more architectures), and every reference inside the copy
//! follows the rename. Citations (`source = "…"`) stay as written: they name sections of
//! the source pages, which are not copied. `OPCODE` and `DTYPE` are shared, not copied (see
//! [`SHARED`]).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use dmaspec_codegen::model::{Model, TypeKind};
use dmaspec_codegen::spec_files;

/// Types every copy shares instead of renaming: the opcode table the words bind to, and
/// DTYPE, which the validation rules' `dtype_size()` is defined on.
pub const SHARED: &[&str] = &["OPCODE", "DTYPE"];

/// A synthetic spec on disk and what it should load to.
pub struct Synth {
    pub dir: PathBuf,
    pub words: usize,
    pub types: usize,
    /// Bytes of TOML written (the real spec's size for factor 1).
    pub bytes: usize,
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Renames every identifier that is a renamed name (in type references, rule expressions
/// and docs alike, but not after `OPCODE::` and not inside a citation) and suffixes every
/// `c_name`. Lines binding an opcode keep their enumerator.
fn rename(text: &str, names: &BTreeSet<String>, suffix: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("opcode =") {
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find('"') {
            let (code, after) = rest.split_at(open);
            out.push_str(&rename_idents(code, names, suffix));
            let body = &after[1..];
            let close = closing_quote(body).unwrap_or(body.len());
            let value = &body[..close];
            let key = code.trim_end().trim_end_matches('=').trim_end();
            out.push('"');
            if key.ends_with("source") {
                out.push_str(value);
            } else if key.ends_with("c_name") {
                out.push_str(&suffixed_c_name(value, names, suffix));
            } else {
                out.push_str(&rename_idents(value, names, suffix));
            }
            rest = &body[close..];
            if let Some(r) = rest.strip_prefix('"') {
                out.push('"');
                rest = r;
            }
        }
        out.push_str(&rename_idents(rest, names, suffix));
    }
    out
}

/// Where the string that starts at `body` ends (a `"` not escaped by a backslash).
fn closing_quote(body: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

/// A C name that still contains its type's (renamed) name, as the loader requires of a type
/// with aliases: the suffix goes right after the longest renamed name it contains, else at
/// the end.
fn suffixed_c_name(c_name: &str, names: &BTreeSet<String>, suffix: &str) -> String {
    let found = names
        .iter()
        .filter_map(|n| c_name.find(n.as_str()).map(|at| (n.len(), at)))
        .max();
    match found {
        Some((len, at)) => format!("{}{suffix}{}", &c_name[..at + len], &c_name[at + len..]),
        None => format!("{c_name}{suffix}"),
    }
}

fn rename_idents(text: &str, names: &BTreeSet<String>, suffix: &str) -> String {
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

/// A file's top-level `[[kind]]` blocks (each with its `[[kind.sub]]` tables), the text
/// before the first one first.
fn blocks(text: &str) -> Vec<String> {
    let mut blocks: Vec<String> = vec![String::new()];
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("[[") && !t[2..].split("]]").next().unwrap_or("").contains('.') {
            blocks.push(String::new());
        }
        blocks
            .last_mut()
            .expect("one block at least")
            .push_str(line);
    }
    blocks
}

/// The `name = "…"` of a block.
fn block_name(block: &str) -> Option<&str> {
    block
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("name = \""))
        .and_then(|r| r.split('"').next())
}

/// Drops the declarations of [`SHARED`] types from a copy.
fn drop_shared(text: &str) -> String {
    blocks(text)
        .into_iter()
        .filter(|b| {
            let t = b.trim_start();
            // A document (`[[source]]`, declared next to the types citing it) is declared once.
            !t.starts_with("[[source]]")
                && (!t.starts_with("[[") || !block_name(b).is_some_and(|n| SHARED.contains(&n)))
        })
        .collect()
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

fn relative(file: &Path, spec: &Path) -> String {
    file.strip_prefix(spec)
        .expect("a spec file lies below the spec")
        .to_string_lossy()
        .replace('\\', "/")
}

/// Writes the spec of factor `factor` (the real spec `spec`, whose model is `model`) into
/// `dir`, which is emptied first; factor 1 writes nothing and names `spec` itself.
pub fn synthesize(spec: &Path, model: &Model, factor: usize, dir: &Path) -> Synth {
    if factor <= 1 {
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
    let _ = fs::remove_dir_all(dir);
    let typed: BTreeSet<&str> = model
        .types
        .iter()
        .filter(|t| !SHARED.contains(&t.name.as_str()))
        .map(|t| t.file.as_str())
        .collect();
    let files: Vec<(String, String)> = spec_files(spec)
        .iter()
        .map(|f| {
            (
                relative(f, spec),
                fs::read_to_string(f).expect("spec file reads"),
            )
        })
        .collect();
    // Every top-level name of a copied file is renamed: types, constants, tables, conflicts.
    let names: BTreeSet<String> = files
        .iter()
        .filter(|(rel, _)| typed.contains(rel.as_str()))
        .flat_map(|(_, text)| blocks(text))
        .filter_map(|b| block_name(&b).map(str::to_owned))
        .chain(model.types.iter().map(|t| t.name.clone()))
        .filter(|n| !SHARED.contains(&n.as_str()))
        .collect();
    let word_files: BTreeSet<&str> = model.words().map(|t| t.file.as_str()).collect();
    let synth_archs: Vec<String> = (1..factor).map(|i| format!("synth{i}")).collect();
    let mut bytes = 0;
    let mut write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().expect("below dir")).expect("synthetic spec dir");
        fs::write(&path, text).expect("synthetic spec file");
        bytes += text.len();
    };
    for (rel, text) in &files {
        if rel == "arch.toml" {
            let mut t = text.clone();
            for a in &synth_archs {
                t.push_str(&format!(
                    "\n[[arch]]\nname = \"{a}\"\nnc = 9\ndoc = \"Synthetic architecture (codegen benchmark)\"\n"
                ));
            }
            write(rel, &t);
            continue;
        }
        let defines_opcode = model
            .types
            .iter()
            .any(|t| t.name == "OPCODE" && t.file == *rel);
        let text = if defines_opcode {
            unrestrict(text)
        } else {
            text.clone()
        };
        if !typed.contains(rel.as_str()) {
            write(rel, &text);
            continue;
        }
        let word = model
            .types
            .iter()
            .find(|t| t.file == *rel && t.opcode().is_some());
        let original = match word {
            Some(w) if word_files.contains(rel.as_str()) => {
                let archs = match &w.kind {
                    TypeKind::Struct { arch, .. } => arch.clone(),
                    _ => Vec::new(),
                };
                set_word_archs(&text, &archs)
            }
            _ => text.clone(),
        };
        write(rel, &original);
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
        dir: dir.to_path_buf(),
        words: model.words().count() * factor,
        types: (model.types.len() - SHARED.len()) * factor + SHARED.len(),
        bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(ns: &[&str]) -> BTreeSet<String> {
        ns.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_citation_keeps_its_section_and_a_c_name_keeps_its_type_name() {
        let ns = names(&["INDIRECT16B", "PSEUDO_RANGE_CHECK"]);
        let line = "a = { type = \"INDIRECT16B\", source = \"supp §INDIRECT16B Algorithm\" }\n";
        assert_eq!(
            rename(line, &ns, "_S1"),
            "a = { type = \"INDIRECT16B_S1\", source = \"supp §INDIRECT16B Algorithm\" }\n"
        );
        assert_eq!(
            rename(
                "c_name = \"NEURON_ISA_TPB_PSEUDO_RANGE_CHECK_STRUCT\"\n",
                &ns,
                "_S1"
            ),
            "c_name = \"NEURON_ISA_TPB_PSEUDO_RANGE_CHECK_S1_STRUCT\"\n"
        );
        assert_eq!(
            rename("opcode = \"INDIRECT16B\"\n", &ns, "_S1"),
            "opcode = \"INDIRECT16B\"\n"
        );
    }
}
