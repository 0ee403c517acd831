//! No two files of a crate of the workspace import each other, directly or around a
//! circle: every `crate::…`, `super::…`, `self::…` and child-module path in
//! `codegen/src/**/*.rs` (and in the library's `src/`, the CLI's `cli/src/` and the Python
//! module's `python/src/`; in `use` trees and in code) is an arrow from its file to the
//! file that defines the module it names, and the arrows form no cycle.
//!
//! Nor does a layer name one it feeds ([`BELOW`]): the schema and the model are data the
//! loader builds and the emitters read, so neither names the loader or an emitter; the
//! loader and the emitters meet only in the model.
//!
//! In the CLI no verb names another verb, and what the verbs share names none ([`VERBS`]).
//!
//! A parent may call methods its children define (`impl Loader` in `load/klr.rs`): that
//! is no path, so the children may name the parent but the parent names nothing of theirs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each layer (top folder of `src/`) and the layers it must not name. Unit-test files
/// (`tests.rs`) are exempt: they build their model with the loader.
const BELOW: &[(&str, &[&str])] = &[
    ("schema", &["load", "emit"]),
    ("model", &["load", "emit"]),
    ("load", &["emit"]),
    ("emit", &["load"]),
];

/// The CLI's verbs (`cli/src/<verb>.rs`, one per subcommand of `main.rs`).
const VERBS: &[&str] = &[
    "audit", "check", "decode", "diff", "encode", "explain", "generate", "klr", "lower", "neff",
    "regs", "validate",
];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Colons,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other,
}

/// The tokens of Rust source that matter for paths: comments, strings, chars and
/// lifetimes are dropped, so a path in a doc comment or a string literal is no arrow.
fn tokens(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        let c = b[i];
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
        } else if src[i..].starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if src[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'#' | b'"')) && {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == b'#').count();
            b.get(i + 1 + hashes) == Some(&b'"')
        } {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == b'#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let start = i + 2 + hashes;
            i = src[start..]
                .find(&close)
                .map_or(b.len(), |n| start + n + close.len());
            out.push(Tok::Other);
        } else if c == b'"' || (c == b'b' && b.get(i + 1) == Some(&b'"')) {
            i += if c == b'b' { 2 } else { 1 };
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Tok::Other);
        } else if c == b'\'' {
            // A char literal ('a', '\n', '\u{..}') or a lifetime ('a).
            if b.get(i + 1) == Some(&b'\\') {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 2) == Some(&b'\'') {
                i += 3;
            } else {
                let n = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                if src[i + 1 + n..].starts_with('\'') {
                    i += 2 + n;
                } else {
                    i += 1;
                    while i < b.len() && ident(b[i]) {
                        i += 1;
                    }
                }
            }
            out.push(Tok::Other);
        } else if ident(c) {
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            let word = &src[start..i];
            if let Some(end) = (word == "quote").then(|| macro_end(b, i)).flatten() {
                // `quote!(…)` is Rust the generator prints: its paths are the output's.
                i = end;
                out.push(Tok::Other);
            } else {
                out.push(Tok::Ident(word.to_string()));
            }
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if src[i..].starts_with("::") {
            out.push(Tok::Colons);
            i += 2;
        } else {
            out.push(match c {
                b'{' => Tok::Open,
                b'}' => Tok::Close,
                b',' => Tok::Comma,
                b';' => Tok::Semi,
                b'*' => Tok::Star,
                _ => Tok::Other,
            });
            i += src[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// Where the body of a macro call ends, when `b[at..]` is `!` and a bracketed body
/// (delimiters inside string literals do not count).
fn macro_end(b: &[u8], at: usize) -> Option<usize> {
    let skip_space = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let mut i = skip_space(at);
    if b.get(i) != Some(&b'!') {
        return None;
    }
    i = skip_space(i + 1);
    if !matches!(b.get(i), Some(b'(' | b'[' | b'{')) {
        return None;
    }
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(b.len())
}

/// The module path of a file below `src/` (`load/mod.rs` -> `["load"]`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Every path a file names, absolute from the crate root, with where it is named: the
/// module path (the file's, plus any inline `mod x { … }` it is inside) and how many of
/// its leading segments are inline modules.
struct Scan {
    file: Vec<String>,
    kids: BTreeSet<String>,
    paths: Vec<Vec<String>>,
}

impl Scan {
    /// Resolves `segs` named at inline depth `inline` (inside that many `mod x { … }`).
    fn absolute(&self, segs: &[String], inline: &[String]) -> Option<Vec<String>> {
        let mut here: Vec<String> = self.file.iter().chain(inline).cloned().collect();
        let mut rest = segs;
        match segs.first().map(String::as_str) {
            Some("crate") => {
                here.clear();
                rest = &segs[1..];
            }
            Some("self") => rest = &segs[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    here.pop()?;
                    rest = &rest[1..];
                }
            }
            Some(k) if inline.is_empty() && self.kids.contains(k) => {}
            _ => return None,
        }
        here.extend(rest.iter().cloned());
        Some(here)
    }
}

/// Parses a `use` tree starting at `toks[*i]` below `prefix`, adding each full path.
fn use_tree(toks: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(s)) if s == "as" => {
                *i += 2;
                break;
            }
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                *i += 1;
            }
            Some(Tok::Colons) => *i += 1,
            Some(Tok::Star) => {
                *i += 1;
                break;
            }
            Some(Tok::Open) => {
                *i += 1;
                loop {
                    match toks.get(*i) {
                        Some(Tok::Close) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Comma) => *i += 1,
                        None => return,
                        _ => {
                            // Not a path (`{ #x, … }` inside `quote!`): step over it.
                            let at = *i;
                            use_tree(toks, i, path.clone(), out);
                            if *i == at {
                                *i += 1;
                            }
                        }
                    }
                }
            }
            _ => break,
        }
    }
    out.push(path);
}

fn scan(file: Vec<String>, src: &str) -> Scan {
    let toks = tokens(src);
    let mut scan = Scan {
        file,
        kids: BTreeSet::new(),
        paths: Vec::new(),
    };
    for w in toks.windows(3) {
        if let [Tok::Ident(m), Tok::Ident(name), Tok::Semi] = w
            && m == "mod"
        {
            scan.kids.insert(name.clone());
        }
    }
    // Inline modules: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < toks.len() {
        let names: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
        match &toks[i] {
            Tok::Open => depth += 1,
            Tok::Close => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
            }
            Tok::Ident(m)
                if m == "mod"
                    && matches!(toks.get(i + 2), Some(Tok::Open))
                    && let Some(Tok::Ident(name)) = toks.get(i + 1) =>
            {
                inline.push((name.clone(), depth + 1));
            }
            Tok::Ident(u) if u == "use" => {
                i += 1;
                let mut trees = Vec::new();
                use_tree(&toks, &mut i, Vec::new(), &mut trees);
                for t in trees {
                    if let Some(abs) = scan.absolute(&t, &names) {
                        scan.paths.push(abs);
                    }
                }
                continue;
            }
            Tok::Ident(first) if i == 0 || toks[i - 1] != Tok::Colons => {
                let mut segs = vec![first.clone()];
                let mut j = i + 1;
                while let (Some(Tok::Colons), Some(Tok::Ident(s))) = (toks.get(j), toks.get(j + 1))
                {
                    segs.push(s.clone());
                    j += 2;
                }
                if segs.len() > 1
                    && let Some(abs) = scan.absolute(&segs, &names)
                {
                    scan.paths.push(abs);
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    scan
}

/// Every `.rs` file below `dir`, relative to `root`.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// file -> the files it names.
fn arrows(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, src, &mut files);
    let by_module: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (module_of(f), f.to_string_lossy().replace('\\', "/")))
        .collect();
    let mut graph = BTreeMap::new();
    for f in &files {
        let name = f.to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(src.join(f)).unwrap();
        let scan = scan(module_of(f), &text);
        let mut to = BTreeSet::new();
        for p in &scan.paths {
            // The longest prefix that is a file: the file that defines what `p` names.
            let target = (0..=p.len())
                .rev()
                .find_map(|n| by_module.get(&p[..n]))
                .filter(|t| **t != name);
            to.extend(target.cloned());
        }
        graph.insert(name, to);
    }
    graph
}

/// A cycle through `graph`, as the files around it, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            return Some(stack[at..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

/// Every arrow from a layer to one it must not name, as `from -> to`.
fn layering_breaches(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let layer = |f: &str| f.split('/').next().unwrap_or(f).to_string();
    let mut out = Vec::new();
    for (from, tos) in graph {
        if from.ends_with("/tests.rs") {
            continue;
        }
        let Some((_, banned)) = BELOW.iter().find(|(l, _)| *l == layer(from)) else {
            continue;
        };
        for to in tos {
            if banned.contains(&layer(to).as_str()) {
                out.push(format!("{from} -> {to}"));
            }
        }
    }
    out
}

#[test]
fn no_layer_names_the_loader_or_an_emitter_it_must_not() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let breaches = layering_breaches(&arrows(&src));
    assert!(breaches.is_empty(), "layering: {breaches:#?}");
}

#[test]
fn a_layering_breach_is_found() {
    let file = |deps: &[&str]| deps.iter().map(|d| d.to_string()).collect::<BTreeSet<_>>();
    let graph = BTreeMap::from([
        // The arrow issue 12 removed: the klr expression checker in model/ used the
        // loader's depth bound.
        (
            "model/klr_expr.rs".to_string(),
            file(&["load/rule_depth.rs"]),
        ),
        ("model/klr.rs".to_string(), file(&["model/klr_expr.rs"])),
        (
            "emit/json.rs".to_string(),
            file(&["model/mod.rs", "load/mod.rs"]),
        ),
        ("emit/rust/tests.rs".to_string(), file(&["load/mod.rs"])),
        (
            "load/klr.rs".to_string(),
            file(&["model/klr.rs", "emit/c/mod.rs"]),
        ),
    ]);
    assert_eq!(
        layering_breaches(&graph),
        vec![
            "emit/json.rs -> load/mod.rs".to_string(),
            "load/klr.rs -> emit/c/mod.rs".to_string(),
            "model/klr_expr.rs -> load/rule_depth.rs".to_string(),
        ]
    );
}

/// Every arrow to a verb of the CLI from another file, as `from -> to`.
fn verb_breaches(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let verb = |f: &str| VERBS.iter().any(|v| f == format!("{v}.rs"));
    let mut out = Vec::new();
    for (from, tos) in graph {
        out.extend(
            tos.iter()
                .filter(|to| verb(to))
                .map(|to| format!("{from} -> {to}")),
        );
    }
    out
}

/// `src` of the workspace's crate in `dir` (`""` for the library at the root).
fn crate_src(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(dir)
        .join("src")
}

/// Panics with the circle if the files of `src` import each other around one.
fn assert_no_circle(src: &Path, at_least: usize) {
    let graph = arrows(src);
    assert!(
        graph.len() >= at_least,
        "{}: read {} files",
        src.display(),
        graph.len()
    );
    if let Some(c) = cycle(&graph) {
        panic!(
            "{}: import circle: {} -> {}",
            src.display(),
            c.join(" -> "),
            c[0]
        );
    }
}

#[test]
fn no_file_of_the_generator_imports_itself_around_a_circle() {
    assert_no_circle(&crate_src("codegen"), 10);
}

#[test]
fn no_file_of_the_library_the_cli_or_the_python_module_imports_itself_around_a_circle() {
    assert_no_circle(&crate_src(""), 10);
    assert_no_circle(&crate_src("cli"), 12);
    assert_no_circle(&crate_src("python"), 5);
}

#[test]
fn no_verb_of_the_cli_names_another_and_nothing_shared_names_a_verb() {
    let graph = arrows(&crate_src("cli"));
    for v in VERBS {
        assert!(
            graph.contains_key(&format!("{v}.rs")),
            "verb {v} has no file"
        );
    }
    let breaches = verb_breaches(&graph);
    assert!(breaches.is_empty(), "verbs named: {breaches:#?}");
}

#[test]
fn a_verb_named_from_elsewhere_is_found() {
    let file = |deps: &[&str]| deps.iter().map(|d| d.to_string()).collect::<BTreeSet<_>>();
    // The shape issue 27 removed: the record reader took decode's and validate's options.
    let graph = BTreeMap::from([
        ("records.rs".to_string(), file(&["decode.rs", "input.rs"])),
        ("decode.rs".to_string(), file(&["records.rs"])),
        ("input.rs".to_string(), file(&["lib.rs"])),
    ]);
    assert_eq!(
        verb_breaches(&graph),
        vec!["records.rs -> decode.rs".to_string()]
    );
}

#[test]
fn a_circle_is_found() {
    let dir = std::env::temp_dir().join(format!("dmaspec-import-cycles-{}", std::process::id()));
    let model = dir.join("model");
    std::fs::create_dir_all(&model).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod model;\n").unwrap();
    // The shape issue 12 removed: the aggregate imports its part, the part the aggregate.
    std::fs::write(
        model.join("mod.rs"),
        "pub mod words;\npub use words::*;\npub struct Model;\n",
    )
    .unwrap();
    std::fs::write(
        model.join("words.rs"),
        "use super::Model; // \"crate::x\"\nfn f(_: &Model) { let _ = \"super::y\"; }\n",
    )
    .unwrap();
    let graph = arrows(&dir);
    let found = cycle(&graph);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        Some(vec![
            "model/mod.rs".to_string(),
            "model/words.rs".to_string()
        ])
    );
    // A path only in a comment or a string is no arrow; the test module's `super` is
    // the file itself.
    let s = scan(
        vec!["a".into()],
        "// crate::b\nconst X: &str = \"crate::c\";\n#[cfg(test)]\nmod tests { use super::*; }\n",
    );
    assert_eq!(s.paths, vec![vec!["a".to_string()]]);
}

#[test]
fn a_path_the_generator_prints_is_no_arrow() {
    // The Rust emitter's klr module prints `use super::{confidence, evidence};` for the
    // generated module; that names no file of the generator.
    let s = scan(
        vec!["emit".into(), "rust".into(), "klr".into()],
        "fn f() { let _ = quote! { use super::{confidence, \"}\"}; }; }\nuse super::data::Lit;\n",
    );
    assert_eq!(
        s.paths,
        vec![vec![
            "emit".to_string(),
            "rust".into(),
            "data".into(),
            "Lit".into()
        ]]
    );
}
