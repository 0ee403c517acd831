//! Resolves `[[regfile]]`: every bundle inside its file, every register inside its bundle
//! and every field inside its register, for each architecture that has them; no two
//! overlap or share a name on one architecture; resets fit and agree; a field's access is
//! never wider than its register's. Declarations without `arch` take their container's.

use std::ops::Range;

use serde_spanned::Spanned;

use super::nesting::Room;
use super::{FileId, Loader, Scope};
use crate::diagnostics::suggest;
use crate::model::registers::{
    Access, Bundle, Count, RegField, RegFile, Register, SideEffect, width_mask,
};
use crate::model::{Confidence, Model, TypeKind};
use crate::schema::RawEvidence;
use crate::schema::RawFile;
use crate::schema::registers::{RawBundle, RawRegField, RawRegFile, RawRegister};

/// Names of the generated Rust next to a bundle's module and accessor (the runtime's
/// items, primitives, the architecture module's `Block` and its `new`), next to a
/// register's type and accessor (the bundle module's constants, `Block` and its methods),
/// and in a register type's `impl`.
const BUNDLE_RESERVED: &[&str] = &[
    "rt",
    "Bus",
    "MemoryBus",
    "Readable",
    "Reg",
    "Register",
    "Writable",
    "Block",
    "new",
    "Option",
    "bool",
    "u8",
    "u16",
    "u32",
    "u64",
    "usize",
];
const REGISTER_RESERVED: &[&str] = &[
    "rt", "Bus", "Reg", "Block", "OFFSET", "COUNT", "STRIDE", "at", "base", "bus", "Option",
    "bool", "u8", "u16", "u32", "u64", "usize",
];
const FIELD_RESERVED: &[&str] = &["RESET", "from_bits", "to_bits"];

/// What the checks shared by bundles, registers and fields need to know about one item:
/// its name, where it lies (a half-open range per array element) and on which archs.
struct Placed<'r> {
    name: &'r Spanned<String>,
    at: Range<usize>,
    spans: Spans,
    archs: Vec<String>,
}

/// Where an item lies: `count` half-open ranges of `len` units, the first at `start`,
/// `stride` apart (an array bundle: one per element, never listed one by one, since a
/// count may be anything). Empty for an item that does not fit (already an error).
#[derive(Clone, Copy)]
struct Spans {
    start: u64,
    len: u64,
    count: u64,
    stride: u64,
}

impl Spans {
    const NONE: Spans = Spans {
        start: 0,
        len: 0,
        count: 0,
        stride: 0,
    };

    /// `start..start + len` once, if that fits in a u64.
    fn one(start: u64, len: u64) -> Spans {
        match start.checked_add(len) {
            Some(_) => Spans {
                start,
                len,
                count: 1,
                stride: len,
            },
            None => Spans::NONE,
        }
    }

    /// `count` elements, if the last one ends inside a u64.
    fn array(start: u64, len: u64, count: u64, stride: u64) -> Spans {
        let end = (count.saturating_sub(1).checked_mul(stride))
            .and_then(|x| x.checked_add(start))
            .and_then(|x| x.checked_add(len));
        match end {
            Some(_) if count > 0 => Spans {
                start,
                len,
                count,
                stride,
            },
            _ => Spans::NONE,
        }
    }

    fn element(&self, i: u64) -> (u64, u64) {
        let s = self.start + i * self.stride;
        (s, s + self.len)
    }

    /// The first element of `self` (at most the first 2^20 are tried) that overlaps an
    /// element of `other`, with that element.
    fn clash(&self, other: &Spans) -> Option<((u64, u64), (u64, u64))> {
        (0..self.count.min(1 << 20)).find_map(|i| {
            let (s, e) = self.element(i);
            // The first element of `other` that ends after `s`: the only candidate, as
            // the elements' starts only grow.
            let first_end = other.start + other.len;
            let j = if s < first_end || other.stride == 0 {
                0
            } else {
                (s - first_end) / other.stride + 1
            };
            (j < other.count)
                .then(|| other.element(j))
                .filter(|&(s2, e2)| s < e2 && s2 < e)
                .map(|x| ((s, e), x))
        })
    }
}

impl Loader {
    pub(super) fn regfiles(
        &mut self,
        raws: &[(usize, RawFile)],
        scope: &Scope,
        model: &Model,
    ) -> Vec<RegFile> {
        let mut out: Vec<RegFile> = Vec::new();
        for (fi, raw) in raws {
            let at = FileId(*fi);
            for r in &raw.regfile {
                let taken = out.iter().any(|o| &o.name == r.name.get_ref());
                if self.duplicate(at, &r.name, "register file", taken) {
                    continue;
                }
                let file = self.regfile(at, r, scope, model);
                out.push(file);
            }
        }
        out
    }

    fn regfile(&mut self, at: FileId, r: &RawRegFile, scope: &Scope, model: &Model) -> RegFile {
        let name = r.name.get_ref();
        let upper_snake = name.starts_with(|c: char| c.is_ascii_uppercase())
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if !upper_snake {
            self.err(
                at,
                r.name.span(),
                format!(
                    "register file `{name}` is not upper snake case: write it as `{}` (it \
                     is the C prefix)",
                    name.to_ascii_uppercase().replace(['-', ' ', '.'], "_")
                ),
            );
        }
        let size = *r.size.get_ref();
        if size == 0 {
            self.err(
                at,
                r.size.span(),
                format!("register file `{name}` has size 0"),
            );
        }
        let bus_width = *r.bus_width.get_ref();
        if bus_width != 32 {
            self.err(
                at,
                r.bus_width.span(),
                format!(
                    "bus width {bus_width}: only 32-bit register files are supported (every \
                     CSR schema the sources give is 32 bits wide, and so is the generated \
                     code's `Bus`)"
                ),
            );
        }
        let archs = self.arch_list(at, &r.arch, scope);
        let archs = if r.arch.is_some() {
            archs
        } else {
            scope.archs.clone()
        };
        let confidence = self.confidence(at, &r.confidence, scope);
        let what = format!("register file `{name}`");
        let evidence =
            self.required_evidence(at, &r.evidence, &confidence, scope, r.name.span(), &what);
        let counts = (r.counts.iter())
            .map(|c| {
                let raw = RawEvidence {
                    source: c.source.clone(),
                    name: None,
                    names: c.names.clone(),
                    pin: None,
                    value: None,
                    confidence: None,
                    note: c.note.clone(),
                };
                let mut e = self.evidence(at, std::slice::from_ref(&raw), &confidence, scope);
                Count {
                    what: c.what.get_ref().clone(),
                    value: *c.value.get_ref(),
                    evidence: e.remove(0),
                }
            })
            .collect();
        let mut arch_sizes = Vec::new();
        // The largest window `arch_size` gives an undeclared architecture (reported as
        // such): what lies inside it is not reported again as outside the file.
        let mut unknown_window = 0;
        for (a, s) in &r.arch_size {
            if !scope.archs.contains(a.get_ref()) {
                self.unknown_arch(at, a, scope);
                unknown_window = unknown_window.max(*s.get_ref());
            } else if !archs.contains(a.get_ref()) {
                self.err(
                    at,
                    a.span(),
                    format!(
                        "`arch_size` names `{}`, which {what} is not on ({})",
                        a.get_ref(),
                        archs.join(", ")
                    ),
                );
            } else if *s.get_ref() == 0 {
                self.err(
                    at,
                    s.span(),
                    format!("{what} has size 0 on {}", a.get_ref()),
                );
            } else {
                arch_sizes.push((a.get_ref().clone(), *s.get_ref()));
            }
        }
        let size_on = |arch: &str| {
            (arch_sizes.iter())
                .find(|(a, _)| a == arch)
                .map_or(size, |(_, s)| *s)
        };
        let parent = Parent {
            what: &what,
            size: (archs.iter().map(|a| size_on(a)).max())
                .unwrap_or(size)
                .max(unknown_window),
            archs: &archs,
            confidence: &confidence,
        };
        let bundles: Vec<Bundle> = (r.bundle.iter())
            .map(|b| self.bundle(at, b, &parent, bus_width as u32, scope, model))
            .collect();
        // A bundle must fit the window of every architecture it is on.
        for (raw, b) in r.bundle.iter().zip(&bundles) {
            let end = ((b.count - 1).checked_mul(b.stride))
                .and_then(|x| x.checked_add(b.offset))
                .and_then(|x| x.checked_add(b.size));
            let Some(end) = end else { continue };
            let short: Vec<&String> = (b.archs.iter())
                .filter(|a| end <= parent.size && end > size_on(a))
                .collect();
            if let Some(a) = short.first() {
                self.err(
                    at,
                    raw.offset.span(),
                    format!(
                        "bundle `{}` ends at {end:#x}, past {what}'s {:#x}-byte window on \
                         {a}: give it an `arch` list without {a}, or the window its size there \
                         (`arch_size`)",
                        b.name,
                        size_on(a)
                    ),
                );
            }
        }
        let placed: Vec<Placed> = (r.bundle.iter().zip(&bundles))
            .map(|(raw, b)| Placed {
                name: &raw.name,
                at: raw.offset.span(),
                spans: Spans::array(b.offset, b.size, b.count, b.stride),
                archs: b.archs.clone(),
            })
            .collect();
        self.disjoint(at, &placed, &archs, &what, "bundle", "bytes");
        let file = RegFile {
            name: name.clone(),
            doc: r.doc.trim().to_string(),
            size,
            arch_sizes,
            bus_width: bus_width as u32,
            archs,
            confidence,
            evidence,
            counts,
            bundles,
            file: self.files[at.0].relative(&self.root),
        };
        self.regfile_names(at, r, &file);
        file
    }

    /// The names the Rust and C emitters make from the file's items: none may be one the
    /// generated code defines or uses next to it, and no two may become one C name.
    fn regfile_names(&mut self, at: FileId, r: &RawRegFile, file: &RegFile) {
        let what = format!("register file `{}`", file.name);
        for a in &file.archs {
            if BUNDLE_RESERVED.contains(&a.as_str()) {
                self.err(
                    at,
                    r.name.span(),
                    format!(
                        "architecture `{a}` of {what} would name a module of its generated Rust \
                         that hides the runtime's `{a}`; rename the architecture"
                    ),
                );
            }
        }
        for (rb, b) in r.bundle.iter().zip(&file.bundles) {
            let n = b.name.as_str();
            if BUNDLE_RESERVED.contains(&n) {
                self.err(
                    at,
                    rb.name.span(),
                    format!(
                        "bundle `{n}` collides with `{n}` of the generated Rust (its module \
                         and accessor sit next to it); rename the bundle"
                    ),
                );
            } else if file.archs.iter().any(|a| a == n) {
                self.err(
                    at,
                    rb.name.span(),
                    format!(
                        "bundle `{n}` collides with the architecture `{n}` of {what}: both are \
                         modules of its generated Rust; rename the bundle"
                    ),
                );
            }
            // Every register of the bundles of this name (per-arch twins share one module).
            let group: Vec<&Register> = (file.bundles.iter())
                .filter(|x| x.name == b.name)
                .flat_map(|x| &x.registers)
                .collect();
            for (rr, reg) in rb.register.iter().zip(&b.registers) {
                let n = reg.name.as_str();
                if REGISTER_RESERVED.contains(&n) {
                    self.err(
                        at,
                        rr.name.span(),
                        format!(
                            "register `{n}` collides with `{n}` of the generated Rust (its \
                             type and accessor sit next to it); rename the register"
                        ),
                    );
                }
                // A register with several layouts has a type per layout, `<name>_<arch>`.
                let layered = (group.iter()).find(|o| {
                    let several = group.iter().filter(|x| x.name == o.name).count() > 1
                        || o.fields.iter().any(|f| f.archs != o.archs);
                    several && o.archs.iter().any(|a| format!("{}_{a}", o.name) == n)
                });
                if let Some(o) = layered {
                    self.err(
                        at,
                        rr.name.span(),
                        format!(
                            "register `{n}` collides with the generated type of a layout of \
                             register `{}` (one per architecture); rename one",
                            o.name
                        ),
                    );
                }
                for (rf, f) in rr.field.iter().zip(&reg.fields) {
                    let n = f.name.as_str();
                    let setter = (n.strip_prefix("with_"))
                        .filter(|x| reg.fields.iter().any(|o| o.name == *x));
                    if FIELD_RESERVED.contains(&n) {
                        self.err(
                            at,
                            rf.name.span(),
                            format!(
                                "field `{n}` collides with `{n}` of its register's generated \
                                 Rust type; rename the field"
                            ),
                        );
                    } else if let Some(x) = setter {
                        self.err(
                            at,
                            rf.name.span(),
                            format!(
                                "field `{n}` collides with the setter of field `{x}` in the \
                                 generated Rust; rename one"
                            ),
                        );
                    }
                }
            }
        }
        self.regfile_c_names(at, r, file);
    }

    /// The C header's macro and function names (`<FILE>_<ARCH>_<BUNDLE>_…`): one item each.
    fn regfile_c_names(&mut self, at: FileId, r: &RawRegFile, file: &RegFile) {
        let mut taken: std::collections::HashMap<String, String> = Default::default();
        let mut clashes: Vec<(String, String, String)> = Vec::new();
        let mut claim = |name: String, who: String| {
            if let Some(other) = taken.get(&name) {
                if *other != who {
                    clashes.push((name, other.clone(), who));
                }
            } else {
                taken.insert(name, who);
            }
        };
        for v in file.views() {
            let p = format!("{}_{}", file.name, v.arch).to_ascii_uppercase();
            let fp = p.to_ascii_lowercase();
            for b in &v.bundles {
                let bd = b.bundle;
                let bp = format!("{p}_{}", bd.name.to_ascii_uppercase());
                let bfp = format!("{fp}_{}", bd.name.to_ascii_lowercase());
                let who = format!("bundle `{}`", bd.name);
                for s in ["_OFFSET", "_SIZE", "_COUNT", "_STRIDE"] {
                    claim(format!("{bp}{s}"), who.clone());
                }
                claim(format!("{bfp}_addr"), who);
                for rv in &b.registers {
                    let reg = rv.register;
                    let rp = format!("{bp}_{}", reg.name.to_ascii_uppercase());
                    let rfp = format!("{bfp}_{}", reg.name.to_ascii_lowercase());
                    let who = format!("register `{}` of bundle `{}`", reg.name, bd.name);
                    claim(format!("{rp}_OFFSET"), who.clone());
                    if reg.reset.is_some() {
                        claim(format!("{rp}_RESET"), who.clone());
                    }
                    claim(format!("{rfp}_addr"), who);
                    for f in &rv.fields {
                        let xp = format!("{rp}_{}", f.name.to_ascii_uppercase());
                        let xfp = format!("{rfp}_{}", f.name.to_ascii_lowercase());
                        let who = format!("field `{}` of register `{}`", f.name, reg.name);
                        for s in ["_bp", "_bm", "_bw"] {
                            claim(format!("{xp}{s}"), who.clone());
                        }
                        if f.reset.is_some() {
                            claim(format!("{xp}_reset"), who.clone());
                        }
                        if f.access.readable() && reg.access.readable() {
                            claim(format!("{xfp}_get"), who.clone());
                        }
                        if f.access.writable() && reg.access.writable() {
                            claim(format!("{xfp}_set"), who.clone());
                        }
                    }
                }
            }
        }
        let mut reported: Vec<(String, String)> = Vec::new();
        for (name, a, b) in clashes {
            if reported.contains(&(a.clone(), b.clone())) {
                continue;
            }
            self.err(
                at,
                r.name.span(),
                format!(
                    "{a} and {b} of register file `{}` both become the C name `{name}` (C \
                     names are the spec names joined by `_`, in upper or lower case); rename \
                     one",
                    file.name
                ),
            );
            reported.push((a, b));
        }
    }

    fn bundle(
        &mut self,
        at: FileId,
        b: &RawBundle,
        file: &Parent,
        bus_width: u32,
        scope: &Scope,
        model: &Model,
    ) -> Bundle {
        let name = b.name.get_ref();
        let what = format!("bundle `{name}`");
        self.identifier(at, &b.name, "bundle");
        let archs = self.sub_archs(at, &b.arch, file, scope, &what);
        let confidence = self.confidence_or(at, &b.confidence, file.confidence, scope);
        let evidence = self.evidence(at, &b.evidence, &confidence, scope);
        let (offset, size) = (*b.offset.get_ref(), *b.size.get_ref());
        if size == 0 {
            self.err(at, b.size.span(), format!("{what} has size 0"));
        }
        let count = b.count.as_ref().map_or(1, |c| *c.get_ref());
        if count == 0 {
            let span = b.count.as_ref().map_or(b.name.span(), Spanned::span);
            self.err(
                at,
                span,
                format!("{what} has count 0: an array has at least one element"),
            );
        }
        let stride = match &b.stride {
            Some(s) => {
                if *s.get_ref() < size {
                    self.err(
                        at,
                        s.span(),
                        format!(
                            "{what}'s stride {:#x} is less than its size {size:#x}: its \
                             elements would overlap",
                            s.get_ref()
                        ),
                    );
                }
                *s.get_ref()
            }
            None => {
                if count > 1 {
                    self.err(
                        at,
                        b.name.span(),
                        format!("{what} is an array of {count} with no `stride`: add the distance between its elements"),
                    );
                }
                size
            }
        };
        let end = (count.max(1) - 1)
            .checked_mul(stride)
            .and_then(|s| s.checked_add(offset))
            .and_then(|s| s.checked_add(size));
        if end.is_none_or(|e| e > file.size) {
            self.err(
                at,
                b.offset.span(),
                format!(
                    "{what} ({count} × {size:#x} bytes at {offset:#x}, stride {stride:#x}) ends \
                     past the {:#x}-byte {}: fix its offset, size, count or stride, or the \
                     file's size",
                    file.size, file.what
                ),
            );
        }
        let parent = Parent {
            what: &what,
            size,
            archs: &archs,
            confidence: &confidence,
        };
        let registers: Vec<Register> = (b.register.iter())
            .map(|r| self.register(at, r, &parent, bus_width, scope, model))
            .collect();
        let placed: Vec<Placed> = (b.register.iter().zip(&registers))
            .map(|(raw, r)| Placed {
                name: &raw.name,
                at: raw.offset.span(),
                spans: Spans::one(r.offset, u64::from(r.width / 8)),
                archs: r.archs.clone(),
            })
            .collect();
        self.disjoint(at, &placed, &archs, &what, "register", "bytes");
        Bundle {
            name: name.clone(),
            doc: b.doc.as_deref().unwrap_or("").trim().to_string(),
            offset,
            size,
            count: count.max(1),
            stride,
            archs,
            confidence,
            evidence,
            registers,
        }
    }

    fn register(
        &mut self,
        at: FileId,
        r: &RawRegister,
        bundle: &Parent,
        bus_width: u32,
        scope: &Scope,
        model: &Model,
    ) -> Register {
        let name = r.name.get_ref();
        let what = format!("register `{name}`");
        self.identifier(at, &r.name, "register");
        let archs = self.sub_archs(at, &r.arch, bundle, scope, &what);
        let confidence = self.confidence_or(at, &r.confidence, bundle.confidence, scope);
        let evidence =
            self.required_evidence(at, &r.evidence, &confidence, scope, r.name.span(), &what);
        let width = match &r.width {
            Some(w) if u64::from(bus_width) != *w.get_ref() => {
                self.err(
                    at,
                    w.span(),
                    format!(
                        "{what} is {} bits wide on a {bus_width}-bit bus: a register is as \
                         wide as its file's bus",
                        w.get_ref()
                    ),
                );
                bus_width
            }
            Some(w) => *w.get_ref() as u32,
            None => bus_width,
        };
        let offset = *r.offset.get_ref();
        let bytes = u64::from(width / 8);
        if !offset.is_multiple_of(bytes) {
            self.err(
                at,
                r.offset.span(),
                format!("{what} at {offset:#x} is not aligned to its {bytes} bytes"),
            );
        }
        if offset.checked_add(bytes).is_none_or(|e| e > bundle.size) {
            self.err(
                at,
                r.offset.span(),
                format!(
                    "{what} ({bytes} bytes at {offset:#x}) ends past the {:#x}-byte {}: fix its \
                     offset, or the bundle's size",
                    bundle.size, bundle.what
                ),
            );
        }
        let access = self.access(at, &r.access);
        let special_access =
            (r.special_access.as_ref()).and_then(|x| self.side_effect(at, x, access, &what));
        let reset = r.reset.as_ref().map(|v| {
            self.fits(at, v, width, &format!("{what}'s reset"));
            *v.get_ref()
        });
        let parent = FieldParent {
            what: &what,
            width,
            access,
            reset,
            archs: &archs,
            confidence: &confidence,
        };
        let fields: Vec<RegField> = (r.field.iter())
            .map(|f| self.reg_field(at, f, &parent, scope, model))
            .collect();
        let placed: Vec<Placed> = (r.field.iter().zip(&fields))
            .map(|(raw, f)| Placed {
                name: &raw.name,
                at: raw.bits.span(),
                spans: Spans::one(u64::from(f.lsb), u64::from(f.width)),
                archs: f.archs.clone(),
            })
            .collect();
        self.disjoint(at, &placed, &archs, &what, "field", "bits");
        Register {
            name: name.clone(),
            doc: r.doc.as_deref().unwrap_or("").trim().to_string(),
            offset,
            width,
            access: access.unwrap_or(Access::RW),
            special_access,
            reset,
            archs,
            confidence,
            evidence,
            fields,
        }
    }

    fn reg_field(
        &mut self,
        at: FileId,
        f: &RawRegField,
        reg: &FieldParent,
        scope: &Scope,
        model: &Model,
    ) -> RegField {
        let name = f.name.get_ref();
        let what = format!("field `{name}` of {}", reg.what);
        self.identifier(at, &f.name, "field");
        let parent = Parent {
            what: reg.what,
            size: 0,
            archs: reg.archs,
            confidence: reg.confidence,
        };
        let archs = self.sub_archs(at, &f.arch, &parent, scope, &what);
        let confidence = self.confidence_or(at, &f.confidence, reg.confidence, scope);
        let evidence = self.evidence(at, &f.evidence, &confidence, scope);
        let (lsb, msb) = match parse_csr_bits(f.bits.get_ref()) {
            Some(b) => b,
            None => {
                self.err(
                    at,
                    f.bits.span(),
                    format!(
                        "`{}` is not a bit range: write `\"hi:lo\"` (MSB first, as CSR tables \
                         do) or `\"n\"`{}",
                        f.bits.get_ref(),
                        swapped_hint(f.bits.get_ref())
                    ),
                );
                (0, 0)
            }
        };
        if msb >= reg.width {
            self.err(
                at,
                f.bits.span(),
                format!(
                    "{what} (bits {msb}:{lsb}) is outside the {}-bit register",
                    reg.width
                ),
            );
        }
        let width = msb.min(reg.width.saturating_sub(1)).max(lsb) - lsb + 1;
        let access = match &f.access {
            Some(a) => {
                let access = self.access(at, a);
                if let (Some(inner), Some(outer)) = (access, reg.access)
                    && !inner.within(outer)
                {
                    self.err(
                        at,
                        a.span(),
                        format!(
                            "{what} is {} but its register is {}: a field cannot allow what \
                             its register does not",
                            inner.as_str(),
                            outer.as_str()
                        ),
                    );
                }
                access.or(reg.access).unwrap_or(Access::RW)
            }
            None => reg.access.unwrap_or(Access::RW),
        };
        let reset = f.reset.as_ref().map(|v| {
            let fits = self.fits(at, v, width, &format!("{what}'s reset"));
            if let (true, Some(whole)) = (fits, reg.reset) {
                let stated = (whole >> lsb) & width_mask(width);
                if stated != *v.get_ref() {
                    self.err(
                        at,
                        v.span(),
                        format!(
                            "{what} resets to {:#x} but the register's reset {whole:#x} holds \
                             {stated:#x} in bits {msb}:{lsb}: one of them is wrong (or record \
                             the disagreement as a conflict and keep the stronger source's)",
                            v.get_ref()
                        ),
                    );
                }
            }
            *v.get_ref()
        });
        let enum_type = f
            .enum_type
            .as_ref()
            .and_then(|e| self.field_enum(at, e, width, scope, model));
        for alt in &f.alternatives {
            if let Some(ty) = &alt.ty {
                self.err(
                    at,
                    ty.span(),
                    format!(
                        "alternative reading `{}` of a register field has a type; describe \
                         the reading in its doc",
                        alt.name.get_ref()
                    ),
                );
            }
        }
        let room = Room::of("register field", 0, name);
        let alternatives = self.alternatives(at, &f.alternatives, scope, &room);
        RegField {
            name: name.clone(),
            doc: f.doc.as_deref().unwrap_or("").trim().to_string(),
            lsb,
            width,
            access,
            reset,
            enum_type,
            archs,
            confidence,
            evidence,
            alternatives,
        }
    }

    /// An error unless `name` can name generated code as it is (letters, digits and `_`,
    /// not starting with a digit).
    fn identifier(&mut self, at: FileId, name: &Spanned<String>, what: &str) {
        let n = name.get_ref();
        let ok = n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            self.err(
                at,
                name.span(),
                format!(
                    "{what} `{n}` is not an identifier: use letters, digits and `_` (not \
                     first), as the CSR schema spells it; it names the generated Rust and C"
                ),
            );
        } else if let Some(msg) = super::names::rust_error(n) {
            self.err(at, name.span(), msg);
        }
    }

    /// A register's `special_access`: a known side effect that its access allows.
    fn side_effect(
        &mut self,
        at: FileId,
        x: &Spanned<String>,
        access: Option<Access>,
        what: &str,
    ) -> Option<SideEffect> {
        let Some(effect) = SideEffect::parse(x.get_ref()) else {
            self.err(
                at,
                x.span(),
                format!(
                    "unknown special access `{}`: write `PulseOnW` (a write also pulses), or \
                     leave it out when the source says None{}",
                    x.get_ref(),
                    suggest(x.get_ref(), ["PulseOnW"])
                ),
            );
            return None;
        };
        if access.is_some_and(|a| !a.writable()) {
            self.err(
                at,
                x.span(),
                format!("{what} is read-only: a pulse on write needs a writable register"),
            );
        }
        Some(effect)
    }

    fn access(&mut self, at: FileId, a: &Spanned<String>) -> Option<Access> {
        let access = Access::parse(a.get_ref());
        if access.is_none() {
            let hint = suggest(a.get_ref(), ["RW", "RO", "WO"]);
            self.err(
                at,
                a.span(),
                format!(
                    "unknown access `{}`: write `RW`, `RO` or `WO`{hint}",
                    a.get_ref()
                ),
            );
        }
        access
    }

    /// Whether `value` fits in `width` bits; an error if not.
    fn fits(&mut self, at: FileId, value: &Spanned<u64>, width: u32, what: &str) -> bool {
        let fits = *value.get_ref() & !width_mask(width) == 0;
        if !fits {
            self.err(
                at,
                value.span(),
                format!("{what} {:#x} does not fit in {width} bits", value.get_ref()),
            );
        }
        fits
    }

    /// The architectures of a declaration inside `parent`: its own (each one the parent's)
    /// or the parent's.
    fn sub_archs(
        &mut self,
        at: FileId,
        raw: &Option<Vec<Spanned<String>>>,
        parent: &Parent,
        scope: &Scope,
        what: &str,
    ) -> Vec<String> {
        let own = self.arch_list(at, raw, scope);
        let Some(list) = raw else {
            return parent.archs.to_vec();
        };
        for a in list {
            if own.contains(a.get_ref()) && !parent.archs.contains(a.get_ref()) {
                self.err(
                    at,
                    a.span(),
                    format!(
                        "{what} is on `{}` but its {} is not (it is on {}): drop the \
                         architecture or add it to the container",
                        a.get_ref(),
                        parent.what,
                        parent.archs.join(", ")
                    ),
                );
            }
        }
        own.into_iter()
            .filter(|a| parent.archs.contains(a))
            .collect()
    }

    /// The enum a field names, if it is one whose enumerators fit the field.
    fn field_enum(
        &mut self,
        at: FileId,
        e: &Spanned<String>,
        width: u32,
        scope: &Scope,
        model: &Model,
    ) -> Option<String> {
        let found = model.types.iter().find(|t| &t.name == e.get_ref());
        let Some(t) = found else {
            let enums = (model.types.iter())
                .filter(|t| matches!(t.kind, TypeKind::Enum { .. }))
                .map(|t| t.name.as_str());
            self.err(
                at,
                e.span(),
                format!(
                    "`{}` is not a declared enum{}",
                    e.get_ref(),
                    suggest(e.get_ref(), enums)
                ),
            );
            return None;
        };
        let TypeKind::Enum { values, .. } = &t.kind else {
            let kind = scope.types.get(&t.name).map_or("type", |&i| scope.kinds[i]);
            self.err(
                at,
                e.span(),
                format!("`{}` is a {kind}, not an enum", e.get_ref()),
            );
            return None;
        };
        if let Some(v) = values.iter().find(|v| v.value & !width_mask(width) != 0) {
            self.err(
                at,
                e.span(),
                format!(
                    "enum `{}` has `{}` = {:#x}, which does not fit the {width}-bit field",
                    t.name, v.name, v.value
                ),
            );
        }
        Some(t.name.clone())
    }

    /// An error for each pair of `items` that share a name or overlap on an architecture
    /// of `archs`, reported once per pair at the later item.
    fn disjoint(
        &mut self,
        at: FileId,
        items: &[Placed],
        archs: &[String],
        owner: &str,
        kind: &str,
        unit: &str,
    ) {
        for (j, b) in items.iter().enumerate() {
            for a in &items[..j] {
                let shared: Vec<&String> = archs
                    .iter()
                    .filter(|x| a.archs.contains(x) && b.archs.contains(x))
                    .collect();
                let Some(first) = shared.first() else {
                    continue;
                };
                let on = if shared.len() == archs.len() {
                    String::new()
                } else {
                    format!(" on {first}")
                };
                if a.name.get_ref() == b.name.get_ref() {
                    self.err_duplicate(
                        at,
                        b.name.span(),
                        format!(
                            "duplicate {kind} `{}` in {owner}{on}: a second layout of it needs \
                             an `arch` list disjoint from the first's",
                            b.name.get_ref()
                        ),
                        a.name.span().start,
                    );
                    continue;
                }
                let clash = b.spans.clash(&a.spans);
                if let Some(((s, e), (s2, e2))) = clash {
                    let show = |s: u64, e: u64| {
                        if unit == "bits" {
                            format!("{}:{s}", e - 1)
                        } else {
                            format!("{s:#x}..{e:#x}")
                        }
                    };
                    self.err(
                        at,
                        b.at.clone(),
                        format!(
                            "{kind} `{}` ({unit} {}) overlaps `{}` ({unit} {}) in {owner}{on}",
                            b.name.get_ref(),
                            show(s, e),
                            a.name.get_ref(),
                            show(s2, e2)
                        ),
                    );
                }
            }
        }
    }
}

/// What a bundle or register is checked against: its container.
struct Parent<'p> {
    what: &'p str,
    size: u64,
    archs: &'p [String],
    confidence: &'p Confidence,
}

struct FieldParent<'p> {
    what: &'p str,
    width: u32,
    access: Option<Access>,
    reset: Option<u64>,
    archs: &'p [String],
    confidence: &'p Confidence,
}

/// `"30:28"` -> (28, 30); `"17"` -> (17, 17).
fn parse_csr_bits(s: &str) -> Option<(u32, u32)> {
    let s = s.trim();
    let (hi, lo) = match s.split_once(':') {
        Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let n = s.parse().ok()?;
            (n, n)
        }
    };
    (lo <= hi && hi < 64).then_some((lo, hi))
}

fn swapped_hint(s: &str) -> String {
    let Some((a, b)) = s.split_once(':').or_else(|| s.split_once("..")) else {
        return String::new();
    };
    let r = format!("{}:{}", b.trim(), a.trim());
    match (
        parse_csr_bits(&r),
        parse_csr_bits(&format!("{}:{}", a.trim(), b.trim())),
    ) {
        (Some(_), None) => format!("; did you mean `{r}`?"),
        _ => String::new(),
    }
}
