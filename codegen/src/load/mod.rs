//! Reads `spec/**/*.toml`, checks it, and resolves it into one [`Model`].
//!
//! Every check reports the file, line and column of the value at fault. The loader keeps
//! going after an error so that a single run lists every problem in an edit.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_spanned::Spanned;

use crate::diagnostics::{SourceFile, SpecError, SpecErrors};
use crate::model::*;
use crate::schema::*;

mod addrmap;
mod cascade;
mod conflicts;
mod files;
mod gaps;
mod klr;
mod klr_expr;
mod klr_leaf;
mod lowering;
mod members;
mod names;
mod nesting;
mod parse;
pub(crate) mod provenance;
mod registers;
pub mod rule_depth;
mod rule_expr;
mod rule_place;
mod rules;
mod sub_opcode;
mod top_level;
mod words;

use cascade::Cause;
pub use files::MAX_SPEC_FILE_BYTES;
pub(crate) use files::{SpecFiles, Unread, discover, read};
use nesting::Room;

/// Loads every `*.toml` below `dir` (sorted by path, so output is deterministic).
pub fn load_dir(dir: &Path) -> Result<Model, SpecErrors> {
    load_read(dir, files::read(dir)?)
}

/// Loads the files [`files::read`] found below `dir`.
pub(crate) fn load_read(dir: &Path, read: SpecFiles) -> Result<Model, SpecErrors> {
    load(dir, read.files, read.errors, read.unread)
}

/// A spec file's declarations as written, for the lints (`None` when it does not parse;
/// the loader reports why).
pub(crate) fn parse_raw(text: &str) -> Option<RawFile> {
    parse::parse(text).raw
}

/// Loads spec files given as (path, text); `root` is what paths in the model are relative to.
pub fn load_files(root: &Path, files: Vec<(PathBuf, String)>) -> Result<Model, SpecErrors> {
    load(root, files, Vec::new(), Vec::new())
}

fn load(
    root: &Path,
    files: Vec<(PathBuf, String)>,
    early: Vec<SpecError>,
    unread: Vec<Unread>,
) -> Result<Model, SpecErrors> {
    let (model, errors, _) = load_all(root, files, early, unread);
    if errors.is_empty() {
        Ok(model)
    } else {
        Err(SpecErrors(errors))
    }
}

/// Loads `files` after `early` errors about the files that could not be read (`unread`):
/// what is missing because one of those was not read is folded into its error. Returns
/// the model (incomplete where there are errors), every error in file order, and whether
/// the files that were read loaded without errors of their own.
pub(crate) fn load_all(
    root: &Path,
    files: Vec<(PathBuf, String)>,
    early: Vec<SpecError>,
    unread: Vec<Unread>,
) -> (Model, Vec<SpecError>, bool) {
    let early_count = early.len();
    // What a file not read for a bad byte declares follows from its one error.
    let mut cascades = Vec::new();
    for u in &unread {
        let root = early.iter().position(|e| e.file == u.path);
        if let (Some(root), Some(text)) = (root, &u.lossy) {
            let names = parse::declared(text);
            cascades.extend(names.into_iter().map(|n| (root, 0, Cause::Name(n))));
        }
    }
    let mut loader = Loader {
        root: root.to_path_buf(),
        unread: unread.into_iter().map(|u| u.path).collect(),
        errors: early,
        files: Vec::new(),
        unknown: Vec::new(),
        cascades,
        broken_members: Vec::new(),
        declared: HashMap::new(),
        no_archs: false,
    };
    let mut raws = Vec::new();
    for (path, text) in files {
        let file = SourceFile { path, text };
        let parsed = parse::parse(&file.text);
        let base = loader.errors.len();
        for (span, msg) in &parsed.errors {
            loader.errors.push(file.error(span.clone(), msg.as_str()));
        }
        for (name, i) in parsed.dropped {
            loader
                .cascades
                .push((base + i, base + i + 1, Cause::Name(name)));
        }
        match parsed.raw {
            Some(raw) if raw.is_empty() && parsed.errors.is_empty() => {
                loader.errors.push(file.error(
                    0..0,
                    "this file declares nothing (it is empty or holds only comments): add \
                     its declarations, or delete it",
                ));
            }
            Some(raw) => raws.push((loader.files.len(), raw)),
            None => {}
        }
        loader.files.push(file);
    }
    let model = loader.resolve(raws);
    let read_clean = loader.errors.len() == early_count;
    // The checks run declaration kind by kind; report in file order, as documented.
    let order = |e: &SpecError| {
        let file = loader.files.iter().position(|f| f.path == e.file);
        (file, e.span.start)
    };
    let unknown = cascade::unknown_names(&loader.errors, &loader.unknown);
    let uses = cascade::unknown_uses(&loader.errors, &unknown, order);
    loader.cascades.extend(uses);
    cascade::suppress(&mut loader.errors, &unknown, &loader.cascades);
    loader.errors.sort_by_key(order);
    (model, loader.errors, read_clean)
}

struct Loader {
    root: PathBuf,
    /// Spec files found but not read (not UTF-8, not regular files); an early error each.
    unread: Vec<PathBuf>,
    errors: Vec<SpecError>,
    files: Vec<SourceFile>,
    /// (error, the unknown name it is about): each name is one cause, whatever checks
    /// report it ([`cascade::unknown_uses`]).
    unknown: Vec<(usize, String)>,
    /// (root error, first error it may explain, cause).
    cascades: Vec<(usize, usize, Cause)>,
    /// Members whose type or bit range failed (with the root error): what later checks
    /// (rules, lowerings) say about them follows from that error.
    broken_members: Vec<(String, usize)>,
    /// (what, owner, name) -> where [`Self::duplicate_in`] last saw it declared (not as a
    /// duplicate), for the note on a duplicate.
    declared: HashMap<(String, String, String), (FileId, usize)>,
    /// Whether the spec was reported to declare no architecture (once, at the first use).
    no_archs: bool,
}

/// Which spec file a declaration is in (an index into `Loader::files`), for its errors.
#[derive(Clone, Copy)]
struct FileId(usize);

/// A declaration waiting to be resolved, in the order types are numbered.
enum Decl<'r> {
    Enum(&'r RawEnum),
    Flags(&'r RawFlags),
    Bitfield(&'r RawBitfield),
    Union(&'r RawUnion),
    Struct(&'r RawStruct),
}

impl Decl<'_> {
    fn name(&self) -> &Spanned<String> {
        match self {
            Decl::Enum(r) => &r.name,
            Decl::Flags(r) => &r.name,
            Decl::Bitfield(r) => &r.name,
            Decl::Union(r) => &r.name,
            Decl::Struct(r) => &r.name,
        }
    }

    fn c_name(&self) -> &str {
        match self {
            Decl::Enum(r) => &r.c_name,
            Decl::Flags(r) => &r.c_name,
            Decl::Bitfield(r) => &r.c_name,
            Decl::Union(r) => &r.c_name,
            Decl::Struct(r) => &r.c_name,
        }
    }
}

/// Names known after the first pass.
struct Scope {
    /// tag -> confidence
    tags: HashMap<String, Confidence>,
    /// source id -> the scale its tags are on
    sources: HashMap<String, String>,
    /// source id -> its declared headings, for the sources that declare them
    sections: HashMap<String, Vec<String>>,
    archs: Vec<String>,
    types: HashMap<String, usize>,
    /// Pre-computed sizes of named types (0 until known).
    sizes: Vec<usize>,
    kinds: Vec<&'static str>,
    /// The integer representation of enums, flags and bitfields.
    reprs: Vec<Option<Int>>,
}

impl Loader {
    fn err(&mut self, at: FileId, span: Range<usize>, msg: impl Into<String>) {
        let e = self.files[at.0].error(span, msg);
        self.errors.push(e);
    }

    /// [`Self::err`] for a use of `name`, which names nothing it may: every error about
    /// the same unknown name is one cause, shown at its first use.
    fn err_unknown(&mut self, at: FileId, span: Range<usize>, name: &str, msg: String) {
        self.err(at, span, msg);
        self.unknown.push((self.errors.len() - 1, name.to_string()));
    }

    /// [`Self::err`] for a second declaration of a name, noting the first (at byte `first`
    /// of the same file).
    fn err_duplicate(&mut self, at: FileId, span: Range<usize>, msg: String, first: usize) {
        let mut e = self.files[at.0].error(span, msg);
        let first = self.files[at.0].location(first);
        e.notes.push(format!("first declared at {first}"));
        self.errors.push(e);
    }

    fn resolve(&mut self, raws: Vec<(usize, RawFile)>) -> Model {
        let declared = self.provenance(&raws);
        let (levels, scales, sources, archs) = (
            declared.levels,
            declared.scales,
            declared.sources,
            declared.archs,
        );

        // Number every named type first so that declarations may refer to each other in
        // any order and across files.
        let mut decls: Vec<(FileId, Decl)> = Vec::new();
        for (fi, raw) in &raws {
            let at = FileId(*fi);
            decls.extend(raw.enums.iter().map(|r| (at, Decl::Enum(r))));
            decls.extend(raw.flags.iter().map(|r| (at, Decl::Flags(r))));
            decls.extend(raw.bitfield.iter().map(|r| (at, Decl::Bitfield(r))));
            decls.extend(raw.union.iter().map(|r| (at, Decl::Union(r))));
            decls.extend(raw.structs.iter().map(|r| (at, Decl::Struct(r))));
        }
        let mut scope = Scope {
            tags: declared.tags,
            sources: sources
                .iter()
                .map(|s| (s.id.clone(), s.scale.clone()))
                .collect(),
            sections: (sources.iter())
                .filter_map(|s| Some((s.id.clone(), s.sections.clone()?)))
                .collect(),
            archs: archs.iter().map(|a| a.name.clone()).collect(),
            types: HashMap::new(),
            sizes: Vec::new(),
            kinds: Vec::new(),
            reprs: Vec::new(),
        };
        for (at, d) in &decls {
            let name = d.name();
            if Int::parse(name.get_ref()).is_some() {
                self.err(
                    *at,
                    name.span(),
                    format!("`{}` is a built-in integer type", name.get_ref()),
                );
            }
            let taken = scope.types.contains_key(name.get_ref());
            if self.duplicate(*at, name, "type name", taken) {
                continue;
            }
            scope
                .types
                .insert(name.get_ref().clone(), scope.sizes.len());
            let (size, kind) = match d {
                Decl::Enum(r) => (Int::parse(r.repr.get_ref()).map_or(0, Int::size), "enum"),
                Decl::Flags(r) => (Int::parse(r.repr.get_ref()).map_or(0, Int::size), "flags"),
                Decl::Bitfield(r) => (
                    Int::parse_bitfield_repr(r.repr.get_ref()).map_or(0, Int::size),
                    "bitfield",
                ),
                Decl::Union(r) => (*r.size.get_ref() as usize, "union"),
                Decl::Struct(r) => (*r.size.get_ref() as usize, "struct"),
            };
            let repr = match d {
                Decl::Enum(r) => Int::parse(r.repr.get_ref()),
                Decl::Flags(r) => Int::parse(r.repr.get_ref()),
                Decl::Bitfield(r) => Int::parse_bitfield_repr(r.repr.get_ref()),
                Decl::Union(_) | Decl::Struct(_) => None,
            };
            scope.sizes.push(size);
            scope.kinds.push(kind);
            scope.reprs.push(repr);
        }

        let mut types = Vec::new();
        let mut names = Vec::new();
        for (at, d) in &decls {
            if types.len() >= scope.sizes.len() {
                break;
            }
            if scope.types.get(d.name().get_ref()) != Some(&types.len()) {
                continue; // a duplicate, already reported
            }
            names.push((*at, d.name().span()));
            let t = match d {
                Decl::Enum(r) => self.enum_def(*at, r, &scope),
                Decl::Flags(r) => self.flags_def(*at, r, &scope),
                Decl::Bitfield(r) => self.bitfield_def(*at, r, &scope),
                Decl::Union(r) => self.union_def(*at, r, &scope),
                Decl::Struct(r) => self.struct_def(*at, r, &scope),
            };
            types.push(t);
        }
        for (t, msg) in nesting::check_types(&mut types) {
            let (at, span) = names[t].clone();
            self.err(at, span, msg);
        }
        let after = self.errors.len();
        for (name, root) in std::mem::take(&mut self.broken_members) {
            self.cascades.push((root, after, Cause::Name(name)));
        }
        let mut model = Model {
            levels,
            scales,
            sources,
            archs,
            types,
            rules: Default::default(),
            klr: Default::default(),
            lowerings: Vec::new(),
            conflicts: Vec::new(),
            gaps: Vec::new(),
            regfiles: Vec::new(),
            addrmaps: Vec::new(),
        };
        self.check_words(&decls, &mut model);
        self.check_sub_opcodes(&decls, &mut model);
        self.check_names(&raws, &decls);
        model.rules = self.rules(&raws, &scope, &model);
        model.klr = self.klr(&raws, &scope, &model);
        model.lowerings = self.lowerings(&raws, &scope, &model);
        model.regfiles = self.regfiles(&raws, &scope, &model);
        model.addrmaps = self.addrmaps(&raws, &scope, &model);
        model.conflicts = self.conflicts(&raws, &scope, &model);
        model.gaps = self.gaps(&raws, &scope, &model);
        model
    }

    /// Reports `name` as a second declaration of a `what` when `taken`; returns `taken`.
    fn duplicate(&mut self, at: FileId, name: &Spanned<String>, what: &str, taken: bool) -> bool {
        self.duplicate_in(at, name, what, "", taken)
    }

    /// [`Self::duplicate`] for a member name, which only has to be unique in its `owner`
    /// (empty for a top-level name).
    fn duplicate_in(
        &mut self,
        at: FileId,
        name: &Spanned<String>,
        what: &str,
        owner: &str,
        taken: bool,
    ) -> bool {
        let key = (what.to_string(), owner.to_string(), name.get_ref().clone());
        if taken {
            let within = if owner.is_empty() {
                String::new()
            } else {
                format!(" in `{owner}`")
            };
            let message = format!("duplicate {what} `{}`{within}", name.get_ref());
            let mut e = self.files[at.0].error(name.span(), message);
            if let Some(&(file, offset)) = self.declared.get(&key) {
                let first = self.files[file.0].location(offset);
                e.notes.push(format!("first declared at {first}"));
            }
            self.errors.push(e);
        } else {
            // The latest declaration that was no duplicate: names repeat in other scopes.
            self.declared.insert(key, (at, name.span().start));
        }
        taken
    }

    /// The member `name` failed with the last error reported.
    fn broken_member(&mut self, name: &str) {
        let root = self.errors.len().saturating_sub(1);
        self.broken_members.push((name.to_string(), root));
    }

    /// Reports that no file declares a `what` (which `file`, under the root, should),
    /// and folds every later error starting with `follows` into that one. Returns that
    /// error's index.
    fn missing(&mut self, file: &str, what: &str, why: &str, follows: &[&'static str]) -> usize {
        let path = self.root.join(file);
        let root = self.unread.contains(&path).then(|| {
            (self.errors.iter())
                .position(|e| e.file == path)
                .unwrap_or_default()
        });
        if let Some(root) = root {
            // The file is there but could not be read: its error says so.
            for p in follows {
                self.cascades.push((root, root + 1, Cause::Prefix(p)));
            }
            return root;
        }
        let message = if self.files.iter().any(|f| f.path == path) {
            format!("{} declares no {what}: {why}", path.display())
        } else {
            format!("{} is missing: {why}", path.display())
        };
        self.errors.push(SpecError::whole_file(&path, message));
        let root = self.errors.len() - 1;
        for p in follows {
            self.cascades.push((root, root + 1, Cause::Prefix(p)));
        }
        root
    }
}
