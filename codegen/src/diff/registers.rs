//! Register files compared one architecture's layout at a time ([`RegFile::view`], what
//! the Rust, C and SVD emitters generate from), bundles, registers and fields by name; a
//! change seen on several architectures is reported once, naming them unless it holds on
//! every architecture either side has.

use super::change::{Change, Cx, Impact, Kind, missing};
use super::members::Item;
use crate::model::registers::{
    Access, Bundle, BundleView, RegField, RegFile, Register, RegisterView,
};
use crate::model::{Alternative, Confidence, Evidence};

const ADDED: (Impact, Impact, &str) = (
    Impact::Minor,
    Impact::Minor,
    "Rust: a new module, register type or accessor; C: new macros and functions",
);

const LAYOUT: (Impact, Impact, &str) = (
    Impact::Major,
    Impact::Major,
    "Rust: the `OFFSET`/`SIZE`/`COUNT`/`STRIDE`/`RESET` constants, a field's getter and `with_*` builder change what they read or write; C: the `_OFFSET`, `_bp`/`_bm`/`_bw`, `_RESET` macros and `_addr`/`_get`/`_set` helpers do",
);

const ACCESS: (Impact, Impact, &str) = (
    Impact::Major,
    Impact::Major,
    "a getter (readable) or `with_*` builder / `_set` helper (writable) appears or is gone",
);

/// A write's side effect (`special_access`) is what the register does, not what the code
/// can do: no accessor appears or goes.
const SIDE_EFFECT: (Impact, Impact, &str) = (
    Impact::Minor,
    Impact::Minor,
    "Rust: `RegisterMeta::special_access` and the docs; C and SVD: the descriptions; no accessor appears or goes",
);

/// What a member says about its provenance and doc, for the patch-level changes.
struct Told<'m> {
    doc: &'m str,
    confidence: &'m Confidence,
    evidence: &'m [Evidence],
    alternatives: &'m [Alternative],
}

impl<'m> Told<'m> {
    fn file(f: &'m RegFile) -> Self {
        Told {
            doc: &f.doc,
            confidence: &f.confidence,
            evidence: &f.evidence,
            alternatives: &[],
        }
    }

    fn bundle(b: &'m Bundle) -> Self {
        Told {
            doc: &b.doc,
            confidence: &b.confidence,
            evidence: &b.evidence,
            alternatives: &[],
        }
    }

    fn register(r: &'m Register) -> Self {
        Told {
            doc: &r.doc,
            confidence: &r.confidence,
            evidence: &r.evidence,
            alternatives: &[],
        }
    }

    fn field(f: &'m RegField) -> Self {
        Told {
            doc: &f.doc,
            confidence: &f.confidence,
            evidence: &f.evidence,
            alternatives: &f.alternatives,
        }
    }
}

/// The changes of one architecture's layout, before they are merged across architectures.
struct Arch<'a, 'i> {
    cx: &'a Cx<'a>,
    item: &'a Item<'i>,
    out: Vec<Change>,
}

impl Arch<'_, '_> {
    fn push(
        &mut self,
        member: &str,
        kind: Kind,
        detail: String,
        impact: (Impact, Impact, &'static str),
    ) {
        let member = (!member.is_empty()).then_some(member);
        self.out
            .push(self.item.because(member, kind, detail, impact));
    }

    fn plain(&mut self, member: &str, kind: Kind, detail: String, rust: Impact, c: Impact) {
        let member = (!member.is_empty()).then_some(member);
        self.out
            .push(self.item.change(member, kind, detail, rust, c));
    }

    /// Confidence, evidence, doc and alternative readings: patch.
    fn told(&mut self, member: &str, o: Told, n: Told) {
        let name = (!member.is_empty()).then_some(member);
        let told = (self.item).told(
            self.cx,
            name,
            (o.confidence, o.evidence),
            (n.confidence, n.evidence),
        );
        self.out.extend(told);
        if o.doc != n.doc {
            self.plain(
                member,
                Kind::DocChanged,
                "doc".to_string(),
                Impact::Patch,
                Impact::Patch,
            );
        }
        let names = |a: &[Alternative]| a.iter().map(|a| a.name.clone()).collect::<Vec<_>>();
        let (oa, na) = (names(o.alternatives), names(n.alternatives));
        for (kind, a, b) in [
            (Kind::ConflictNew, &na, &oa),
            (Kind::ConflictResolved, &oa, &na),
        ] {
            for alt in missing(a, b) {
                let detail = format!("alternative reading `{alt}`");
                self.plain(member, kind, detail, Impact::Patch, Impact::Patch);
            }
        }
    }

    /// A number the emitters turn into a constant or macro: major when it differs.
    fn layout(&mut self, member: &str, kind: Kind, what: &str, o: String, n: String) {
        if o != n {
            self.push(member, kind, format!("{what} {o} -> {n}"), LAYOUT);
        }
    }

    /// A register's or field's access and reset: major when either differs.
    fn access_and_reset(
        &mut self,
        at: &str,
        (oa, or): (Access, Option<u64>),
        (na, nr): (Access, Option<u64>),
    ) {
        if oa != na {
            let detail = format!("{} -> {}", oa.as_str(), na.as_str());
            self.push(at, Kind::AccessChanged, detail, ACCESS);
        }
        self.layout(at, Kind::ResetChanged, "reset", reset(or), reset(nr));
    }

    fn bundle(&mut self, o: &BundleView, n: &BundleView) {
        let (ob, nb) = (o.bundle, n.bundle);
        let at = nb.name.as_str();
        self.layout(at, Kind::Moved, "offset", hex(ob.offset), hex(nb.offset));
        self.layout(at, Kind::Resized, "size", hex(ob.size), hex(nb.size));
        self.layout(
            at,
            Kind::Resized,
            "count",
            ob.count.to_string(),
            nb.count.to_string(),
        );
        self.layout(at, Kind::Resized, "stride", hex(ob.stride), hex(nb.stride));
        self.told(at, Told::bundle(ob), Told::bundle(nb));
        let by_name =
            |v: &[RegisterView<'_>], name: &str| v.iter().position(|r| r.register.name == name);
        for r in &n.registers {
            let path = format!("{at}.{}", r.register.name);
            match by_name(&o.registers, &r.register.name) {
                Some(i) => self.register(&path, &o.registers[i], r),
                None => {
                    let detail = format!(
                        "register (offset {}, {})",
                        hex(r.register.offset),
                        r.register.access.as_str()
                    );
                    self.push(&path, Kind::Added, detail, ADDED);
                }
            }
        }
        for r in o
            .registers
            .iter()
            .filter(|r| by_name(&n.registers, &r.register.name).is_none())
        {
            let path = format!("{at}.{}", r.register.name);
            let detail = format!("register (offset {})", hex(r.register.offset));
            self.plain(&path, Kind::Removed, detail, Impact::Major, Impact::Major);
        }
    }

    fn register(&mut self, at: &str, o: &RegisterView, n: &RegisterView) {
        let (or, nr) = (o.register, n.register);
        self.layout(at, Kind::Moved, "offset", hex(or.offset), hex(nr.offset));
        self.layout(at, Kind::Resized, "width", bits(or.width), bits(nr.width));
        self.access_and_reset(at, (or.access, or.reset), (nr.access, nr.reset));
        if or.special_access != nr.special_access {
            let detail = format!("{} -> {}", or.access_label(), nr.access_label());
            self.push(at, Kind::AccessChanged, detail, SIDE_EFFECT);
        }
        self.told(at, Told::register(or), Told::register(nr));
        let by_name = |v: &[&RegField], name: &str| v.iter().position(|f| f.name == name);
        for f in &n.fields {
            let path = format!("{at}.{}", f.name);
            match by_name(&o.fields, &f.name) {
                Some(i) => self.field(&path, o.fields[i], f),
                None => {
                    let detail = format!("field (bits {}, {})", f.bits(), f.access.as_str());
                    self.push(&path, Kind::Added, detail, ADDED);
                }
            }
        }
        for f in o
            .fields
            .iter()
            .filter(|f| by_name(&n.fields, &f.name).is_none())
        {
            let path = format!("{at}.{}", f.name);
            let detail = format!("field (bits {})", f.bits());
            self.plain(&path, Kind::Removed, detail, Impact::Major, Impact::Major);
        }
    }

    fn field(&mut self, at: &str, o: &RegField, n: &RegField) {
        if (o.lsb, o.width) != (n.lsb, n.width) {
            let kind = if o.width == n.width {
                Kind::Moved
            } else {
                Kind::Resized
            };
            let detail = format!(
                "bits {} -> {}; mask {:#010x} -> {:#010x}",
                o.bits(),
                n.bits(),
                o.mask(),
                n.mask()
            );
            self.push(at, kind, detail, LAYOUT);
        }
        self.access_and_reset(at, (o.access, o.reset), (n.access, n.reset));
        let ty = |f: &RegField| {
            f.enum_type
                .clone()
                .unwrap_or_else(|| "unsigned".to_string())
        };
        if o.enum_type != n.enum_type {
            let detail = format!("{} -> {}", ty(o), ty(n));
            self.push(at, Kind::Retyped, detail, LAYOUT);
        }
        self.told(at, Told::field(o), Told::field(n));
    }
}

fn hex(v: u64) -> String {
    format!("{v:#x}")
}

fn bits(w: u32) -> String {
    format!("{w} bits")
}

fn reset(r: Option<u64>) -> String {
    r.map_or("none".to_string(), hex)
}

/// Every architecture either side has the file on, in the new file's order.
fn archs<'f>(o: &'f RegFile, n: &'f RegFile) -> Vec<&'f str> {
    let mut all: Vec<&str> = n.archs.iter().map(String::as_str).collect();
    all.extend(
        o.archs
            .iter()
            .map(String::as_str)
            .filter(|a| !n.archs.iter().any(|x| x == a)),
    );
    all
}

/// The changes of a file both sides have.
fn matched(cx: &Cx, item: &Item, o: &RegFile, n: &RegFile) -> Vec<Change> {
    let all = archs(o, n);
    let mut seen: Vec<(Change, Vec<&str>)> = Vec::new();
    let mut whole = Arch {
        cx,
        item,
        out: Vec::new(),
    };
    whole.told("", Told::file(o), Told::file(n));
    for arch in &all {
        let mut on = Arch {
            cx,
            item,
            out: Vec::new(),
        };
        let (ov, nv) = (o.view(arch), n.view(arch));
        let has = |f: &RegFile| f.archs.iter().any(|a| a == arch);
        match (has(o), has(n)) {
            (true, false) => on.plain(
                "",
                Kind::Removed,
                "architecture".to_string(),
                Impact::Major,
                Impact::Major,
            ),
            (false, true) => on.push("", Kind::Added, "architecture".to_string(), ADDED),
            _ => on.layout(
                "",
                Kind::Resized,
                "window",
                hex(o.size_on(arch)),
                hex(n.size_on(arch)),
            ),
        }
        let by_name =
            |v: &[BundleView<'_>], name: &str| v.iter().position(|b| b.bundle.name == name);
        for b in &nv.bundles {
            match by_name(&ov.bundles, &b.bundle.name) {
                Some(i) => on.bundle(&ov.bundles[i], b),
                None if has(o) => {
                    let detail = format!(
                        "bundle (offset {}, {} registers)",
                        hex(b.bundle.offset),
                        b.registers.len()
                    );
                    on.push(&b.bundle.name, Kind::Added, detail, ADDED);
                }
                None => {}
            }
        }
        for b in ov
            .bundles
            .iter()
            .filter(|b| has(n) && by_name(&nv.bundles, &b.bundle.name).is_none())
        {
            let detail = format!("bundle (offset {})", hex(b.bundle.offset));
            on.plain(
                &b.bundle.name,
                Kind::Removed,
                detail,
                Impact::Major,
                Impact::Major,
            );
        }
        for c in on.out {
            let same = |(s, _): &&mut (Change, Vec<&str>)| {
                s.member == c.member && s.kind == c.kind && s.detail == c.detail
            };
            match seen.iter_mut().find(same) {
                Some((_, list)) => list.push(arch),
                None => seen.push((c, vec![arch])),
            }
        }
    }
    let mut out = whole.out;
    out.extend(seen.into_iter().map(|(mut c, on)| {
        if on.len() < all.len() {
            c.detail.push_str(&format!(" (on {})", on.join(", ")));
        }
        c
    }));
    out
}

/// Register files added, removed or changed.
pub(super) fn regfiles(cx: &Cx, old: &[&RegFile], new: &[&RegFile]) -> Vec<Change> {
    let mut out = Vec::new();
    let noun = <crate::model::kinds::RegFiles as crate::model::kinds::Kind>::NOUN;
    for n in new {
        let item = Item {
            name: &n.name,
            kind: noun,
        };
        match old.iter().find(|o| o.name == n.name) {
            Some(o) => out.extend(matched(cx, &item, o, n)),
            None => {
                let detail = format!("register file ({} bundles, {})", n.bundles.len(), n.file);
                out.push(item.because(None, Kind::Added, detail, ADDED));
            }
        }
    }
    for o in old.iter().filter(|o| new.iter().all(|n| n.name != o.name)) {
        let item = Item {
            name: &o.name,
            kind: noun,
        };
        let detail = format!("register file ({})", o.file);
        out.push(item.change(None, Kind::Removed, detail, Impact::Major, Impact::Major));
    }
    out
}
