//! A toy kind added as a real one is, to show what the registry asks of a new kind: the
//! architectures (`[[arch]]`) as a kind of their own. It joins every consumer of the
//! registry — `diff`, `audit`, the evidence lints — through `for_each_kind!(… + Archs)`;
//! removing any of its `impl`s below makes this file fail to compile ("the trait bound
//! `Archs: Compared` is not satisfied"), which is what a kind missing from a consumer
//! meets.
//!
//! A real kind is the same four `impl`s, each in its consumer's `kinds.rs`, plus its
//! marker in the registry's list (`model/kinds.rs`); [`the_registry_is_four_files`] holds
//! that count.

use std::path::{Path, PathBuf};

use crate::audit::kinds::{Tabled, tabled};
use crate::audit::targets::Target;
use crate::diff::kinds::{Compared, compare};
use crate::diff::{Change, Cx, Impact, Kind as ChangeKind};
use crate::lint::kinds::{Evidenced, Leaning, Member, evidenced};
use crate::model::kinds::{Kind, NOUNS, for_each_kind};
use crate::model::{Arch, Model};
use crate::schema::RawFile;

/// The toy kind: the architectures.
struct Archs;

impl Kind for Archs {
    const NOUN: &'static str = "architecture";
    type Item = Arch;
    fn items(model: &Model) -> Vec<&Arch> {
        model.archs.iter().collect()
    }
    fn name(item: &Arch) -> &str {
        &item.name
    }
    fn file(_: &Arch) -> &str {
        // The model does not record where an architecture is declared.
        "arch.toml"
    }
}

impl Compared for Archs {
    fn changes(_: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        (Self::items(new).into_iter())
            .filter(|a| old.find::<Self>(&a.name).is_none())
            .map(|a| Change {
                item: a.name.clone(),
                item_kind: Self::NOUN,
                member: None,
                kind: ChangeKind::Added,
                detail: format!("NeuronCore v{}", a.nc),
                rust: Impact::Minor,
                c: Impact::Minor,
                why: None,
                gates: Vec::new(),
            })
            .collect()
    }
}

impl Tabled for Archs {
    fn targets(_: &Model) -> Vec<Target<'_>> {
        Vec::new()
    }
}

impl Evidenced for Archs {
    fn members<'a>(_: &'a RawFile, _: &mut Vec<Member<'a>>, _: &mut Vec<Leaning<'a>>) {}
}

/// The in-memory test specs' provenance (`tests/common/prelude.toml`) and one architecture.
fn one_arch() -> String {
    format!(
        "{}\n[[arch]]\nname = \"a1\"\nnc = 1\ndoc = \"First.\"\n",
        dmaspec_testkit::spec::PROVENANCE
    )
}

const TWO_ARCHS: &str = "\n[[arch]]\nname = \"a2\"\nnc = 2\ndoc = \"Second.\"\n";

fn load(text: &str) -> Model {
    let root = PathBuf::from("toy-spec");
    let files = vec![(root.join("spec.toml"), text.to_string())];
    crate::load::load_files(&root, files).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn a_toy_kind_joins_every_consumer() {
    let old = load(&one_arch());
    let new = load(&format!("{}{TWO_ARCHS}", one_arch()));
    let cx = Cx::new(&old, &new);
    let mut changes = Vec::new();
    for_each_kind!(compare!(&cx, &old, &new, changes) + Archs);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(
        (changes[0].item.as_str(), changes[0].item_kind),
        ("a2", "architecture")
    );

    let mut targets: Vec<Target> = Vec::new();
    for_each_kind!(tabled!(&new, targets) + Archs);
    assert!(targets.is_empty());
    let raw = crate::load::parse_raw(TWO_ARCHS).expect("the toy spec parses");
    let (mut members, mut leaning) = (Vec::new(), Vec::new());
    for_each_kind!(evidenced!(&raw, members, leaning) + Archs);
    assert!(members.is_empty() && leaning.is_empty());
    // The registry's own list does not hold the toy.
    assert!(!NOUNS.contains(&Archs::NOUN));
    assert_eq!(new.named("a2"), []);
}

/// Every file under `dir` (recursively) whose text contains `needle`, relative to `root`.
fn files_with(root: &Path, dir: &Path, needle: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_with(root, &path, needle, out);
        } else if std::fs::read_to_string(&path).is_ok_and(|t| t.contains(needle)) {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            out.push(rel.display().to_string());
        }
    }
}

/// A new kind touches these files to join the registry: its marker and `Kind` impl, then
/// one `impl` per consumer. (Its data, loader and emitters are outside the registry.)
#[test]
fn the_registry_is_four_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for needle in [
        "kind! { Words,",
        "impl Compared for Words",
        "impl Tabled for Words",
        "impl Evidenced for Words",
    ] {
        files_with(&src, &src, needle, &mut found);
    }
    found.retain(|f| !f.ends_with("toy_kind.rs"));
    found.sort();
    assert_eq!(
        found,
        [
            "audit/kinds.rs",
            "diff/kinds.rs",
            "lint/kinds.rs",
            "model/kinds.rs"
        ]
    );
}
