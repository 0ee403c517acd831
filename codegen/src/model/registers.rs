//! Resolved register files: every offset checked, every architecture list explicit (a
//! declaration without `arch` has its container's), every confidence on the common
//! ordering. [`RegFile::view`] gives one generation's layout, which is what the Rust, C
//! and SVD emitters generate from.

use serde::Serialize;

use super::provenance::{Confidence, Evidence};
use super::words::Alternative;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Access {
    RW,
    RO,
    WO,
}

impl Access {
    pub fn parse(s: &str) -> Option<Access> {
        Some(match s {
            "RW" => Access::RW,
            "RO" => Access::RO,
            "WO" => Access::WO,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Access::RW => "RW",
            Access::RO => "RO",
            Access::WO => "WO",
        }
    }
    pub fn readable(self) -> bool {
        self != Access::WO
    }
    pub fn writable(self) -> bool {
        self != Access::RO
    }
    /// Whether a field with this access fits in a register with `outer`'s.
    pub fn within(self, outer: Access) -> bool {
        self == outer || outer == Access::RW
    }
}

/// What else a register access does, beyond storing or returning the value (the CSR
/// schema's `SpecialAccess` column; its `None` is no side effect).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SideEffect {
    /// A write also emits a one-cycle pulse to the hardware (a latch or re-arm strobe); the
    /// written value is stored as usual.
    PulseOnW,
}

impl SideEffect {
    pub fn parse(s: &str) -> Option<SideEffect> {
        (s == "PulseOnW").then_some(SideEffect::PulseOnW)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            SideEffect::PulseOnW => "PulseOnW",
        }
    }
    /// One line for a reader: what the access does besides the value.
    pub fn describe(self) -> &'static str {
        match self {
            SideEffect::PulseOnW => "a write also emits a one-cycle pulse to the hardware",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct RegFile {
    pub name: String,
    pub doc: String,
    /// The window in bytes (on the architectures `arch_sizes` does not list).
    pub size: u64,
    /// Architectures whose window is another size.
    pub arch_sizes: Vec<(String, u64)>,
    pub bus_width: u32,
    pub archs: Vec<String>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub counts: Vec<Count>,
    pub bundles: Vec<Bundle>,
    /// The spec file that declares it, relative to the spec root.
    pub file: String,
}

/// A number a source gives without listing the items.
#[derive(Debug, Clone, Serialize)]
pub struct Count {
    pub what: String,
    pub value: u64,
    pub evidence: Evidence,
}

#[derive(Debug, Clone, Serialize)]
pub struct Bundle {
    pub name: String,
    pub doc: String,
    /// From the register file's base.
    pub offset: u64,
    pub size: u64,
    pub count: u64,
    /// Equal to `size` for a single bundle.
    pub stride: u64,
    pub archs: Vec<String>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub registers: Vec<Register>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Register {
    pub name: String,
    pub doc: String,
    /// From the bundle's base.
    pub offset: u64,
    pub width: u32,
    pub access: Access,
    /// The access's side effect, when the source gives one.
    pub special_access: Option<SideEffect>,
    pub reset: Option<u64>,
    pub archs: Vec<String>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub fields: Vec<RegField>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RegField {
    pub name: String,
    pub doc: String,
    pub lsb: u32,
    pub width: u32,
    pub access: Access,
    pub reset: Option<u64>,
    /// The `[[enum]]` naming its values.
    pub enum_type: Option<String>,
    pub archs: Vec<String>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub alternatives: Vec<Alternative>,
}

impl RegField {
    pub fn msb(&self) -> u32 {
        self.lsb + self.width - 1
    }
    /// The field's bits in the register.
    pub fn mask(&self) -> u64 {
        width_mask(self.width) << self.lsb
    }
    /// `"30:28"` or `"17"`, as CSR tables write it.
    pub fn bits(&self) -> String {
        if self.width == 1 {
            self.lsb.to_string()
        } else {
            format!("{}:{}", self.msb(), self.lsb)
        }
    }
}

impl Register {
    /// The access as tables write it, with its side effect: `RW` or `RW, PulseOnW`.
    pub fn access_label(&self) -> String {
        match self.special_access {
            Some(e) => format!("{}, {}", self.access.as_str(), e.as_str()),
            None => self.access.as_str().to_string(),
        }
    }

    /// A sentence on the access's side effect, for the outputs' descriptions.
    pub fn side_effect_note(&self) -> Option<String> {
        (self.special_access).map(|e| format!("{}: {}.", e.as_str(), e.describe()))
    }

    /// The bits no field of `fields` covers.
    pub fn unknown_mask<'f>(&self, fields: impl IntoIterator<Item = &'f RegField>) -> u64 {
        let covered = fields.into_iter().fold(0, |m, f| m | f.mask());
        width_mask(self.width) & !covered
    }
}

/// The low `width` bits set.
pub fn width_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// One generation's layout of a register file: only what that architecture has.
pub struct RegFileView<'m> {
    pub file: &'m RegFile,
    pub arch: &'m str,
    pub bundles: Vec<BundleView<'m>>,
}

pub struct BundleView<'m> {
    pub bundle: &'m Bundle,
    pub registers: Vec<RegisterView<'m>>,
}

pub struct RegisterView<'m> {
    pub register: &'m Register,
    pub fields: Vec<&'m RegField>,
}

impl RegisterView<'_> {
    pub fn unknown_mask(&self) -> u64 {
        self.register.unknown_mask(self.fields.iter().copied())
    }

    /// The register's reset as `(value, mask)`: its own reset over all its bits when the
    /// sources give it, else the resets of the fields they give, over those fields' bits
    /// (SVD's resetValue and resetMask).
    pub fn reset(&self) -> (u64, u64) {
        let all = width_mask(self.register.width);
        match self.register.reset {
            Some(v) => (v & all, all),
            None => self.fields.iter().fold((0, 0), |(v, m), f| match f.reset {
                Some(x) => (v | ((x & width_mask(f.width)) << f.lsb), m | f.mask()),
                None => (v, m),
            }),
        }
    }
}

impl RegFile {
    /// The window on `arch`.
    pub fn size_on(&self, arch: &str) -> u64 {
        (self.arch_sizes.iter())
            .find(|(a, _)| a == arch)
            .map_or(self.size, |(_, s)| *s)
    }

    /// The layout on `arch` (empty when the file does not exist there).
    pub fn view<'m>(&'m self, arch: &'m str) -> RegFileView<'m> {
        let has = |archs: &[String]| archs.iter().any(|a| a == arch);
        let bundles = if has(&self.archs) {
            (self.bundles.iter().filter(|b| has(&b.archs)))
                .map(|bundle| BundleView {
                    bundle,
                    registers: (bundle.registers.iter().filter(|r| has(&r.archs)))
                        .map(|register| RegisterView {
                            register,
                            fields: register.fields.iter().filter(|f| has(&f.archs)).collect(),
                        })
                        .collect(),
                })
                .collect()
        } else {
            Vec::new()
        };
        RegFileView {
            file: self,
            arch,
            bundles,
        }
    }

    /// Every architecture's layout, in the file's architecture order.
    pub fn views(&self) -> impl Iterator<Item = RegFileView<'_>> {
        self.archs.iter().map(|a| self.view(a))
    }

    /// Whether every architecture has the same layout (no per-generation declarations).
    pub fn arch_invariant(&self) -> bool {
        let same = |archs: &[String]| archs == self.archs.as_slice();
        self.bundles.iter().all(|b| {
            same(&b.archs)
                && (b.registers.iter())
                    .all(|r| same(&r.archs) && r.fields.iter().all(|f| same(&f.archs)))
        })
    }
}

/// What a `FILE.BUNDLE.register[.field]` path names: every per-generation declaration of
/// it (a register or field declared once per layout appears once per layout).
pub struct RegPath<'m> {
    pub file: &'m RegFile,
    pub bundle: &'m Bundle,
    pub registers: Vec<&'m Register>,
    /// Empty for a path that ends at the register.
    pub fields: Vec<&'m RegField>,
}
