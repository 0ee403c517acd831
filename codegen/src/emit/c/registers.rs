//! `c/regs/<file>.h`: one header per register file, in the style of PeakRDL-cheader. Per
//! architecture the file exists on, a section of macros and `static inline` helpers named
//! `<FILE>_<ARCH>_…` (`UDMA_M2S_CAYMAN_…`, functions in lower case):
//!
//! * per bundle `_OFFSET` (from the file's base), `_SIZE`, `_COUNT`, `_STRIDE` and
//!   `<file>_<arch>_<bundle>_addr(base[, i])`;
//! * per register `_OFFSET` (from the bundle's base), `_RESET` when the sources reset any
//!   of its bits (`_RESET_MASK` beside it when they reset only some: the bits `_RESET`
//!   speaks for, as SVD's resetMask), and
//!   `<…>_<register>_addr(base[, i])` = base + bundle offset + i * stride + register offset;
//! * per field `_bp` (lsb), `_bm` (mask in place), `_bw` (width), `_reset` when given, and
//!   `<…>_<field>_get(reg)` if the field is readable, `<…>_<field>_set(reg, v)` if writable.
//!
//! Macro names are the spec names in upper case, function names in lower case; nothing else
//! is changed. The headers need only `<stdint.h>` and are C11 / C++ (`extern "C"`) clean.
//! Should two items map to one C name, the header says so with `#error`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::util::{DIR, GENERATED, confidence, doc, guard};
use crate::model::registers::{
    BundleView, RegField, RegFile, RegFileView, RegisterView, width_mask,
};
use crate::model::{Alternative, Model, TypeKind};

/// The directory under `c/` that holds the register headers.
pub const REGS_DIR: &str = "regs";

/// The header of register file `f`, relative to `c/`: `regs/udma_m2s.h`.
pub fn regs_header(f: &RegFile) -> String {
    format!("{REGS_DIR}/{}.h", f.name.to_ascii_lowercase())
}

/// The macro prefix of `f` on `arch`: `UDMA_M2S_CAYMAN`.
pub fn macro_prefix(f: &RegFile, arch: &str) -> String {
    format!("{}_{}", f.name, arch).to_ascii_uppercase()
}

/// The function prefix of `f` on `arch`: `udma_m2s_cayman`.
pub fn fn_prefix(f: &RegFile, arch: &str) -> String {
    format!("{}_{}", f.name, arch).to_ascii_lowercase()
}

/// One header per register file, as (path under `generated/`, contents).
pub fn render(model: &Model) -> Vec<(String, String)> {
    (model.regfiles.iter())
        .map(|f| (format!("{DIR}/{}", regs_header(f)), header(model, f)))
        .collect()
}

/// `0x1f` with the suffix that keeps the literal unsigned at its width.
pub(super) fn lit(v: u64) -> String {
    if v <= u64::from(u32::MAX) {
        format!("{v:#x}u")
    } else {
        format!("{v:#x}ull")
    }
}

/// A register-width hex number, zero-padded as CSR tables write masks and resets.
fn reg_hex(v: u64, width: u32) -> String {
    let digits = width.div_ceil(4) as usize;
    format!("0x{v:0digits$x}")
}

/// [`reg_hex`] as an unsigned literal of the register's width.
fn reg_lit(v: u64, width: u32) -> String {
    let s = if width > 32 { "ull" } else { "u" };
    format!("{}{s}", reg_hex(v, width))
}

/// The C type of a register of `width` bits.
fn reg_type(width: u32) -> &'static str {
    if width > 32 { "uint64_t" } else { "uint32_t" }
}

/// Text, with a full stop unless it has one.
fn sentence(s: &str) -> String {
    let s = s.trim();
    if s.is_empty() || s.ends_with(['.', '!', '?']) {
        s.to_string()
    } else {
        format!("{s}.")
    }
}

struct Header<'m> {
    model: &'m Model,
    out: String,
    /// Every name defined so far, to catch two items that map to one C name.
    names: BTreeSet<String>,
}

fn header(model: &Model, f: &RegFile) -> String {
    let mut h = Header {
        model,
        out: String::from(GENERATED),
        names: BTreeSet::new(),
    };
    h.file(f);
    h.out
}

impl Header<'_> {
    /// Records a defined name; a second definition gets an `#error` naming it.
    fn claim(&mut self, name: &str, what: &str) {
        if !self.names.insert(name.to_string()) {
            let _ = writeln!(
                self.out,
                "#error \"dmaspec: the C name {name} ({what}) is defined twice; rename one of the \
                 spec items it comes from\""
            );
        }
    }

    fn define(&mut self, name: &str, value: &str, what: &str) {
        self.claim(name, what);
        let _ = writeln!(self.out, "#define {name} {value}");
    }

    fn doc(&mut self, paras: &[String]) {
        doc(&mut self.out, "", paras);
    }

    fn file(&mut self, f: &RegFile) {
        let g = guard(&regs_header(f));
        let mut cites: Vec<&str> = Vec::new();
        for e in &f.evidence {
            if !cites.contains(&e.cite.as_str()) {
                cites.push(&e.cite);
            }
        }
        let mut paras = vec![
            format!(
                "Register file {} ({:#x}-byte window, {}-bit bus). {}",
                f.name,
                f.size,
                f.bus_width,
                sentence(&f.doc)
            ),
            format!(
                "Architectures: {}. Each has its own section of macros and helpers prefixed \
                 `{}_<ARCH>_` (functions in lower case). Offsets of bundles are from the file's \
                 base, offsets of registers from their bundle's base; `_bp`, `_bm`, `_bw` and \
                 `_reset` are a field's bit position, mask in place, width and reset.",
                f.archs.join(", "),
                f.name.to_ascii_uppercase()
            ),
            confidence(&f.confidence),
        ];
        if !cites.is_empty() {
            paras.push(format!("Evidence: {}. Spec: {}.", cites.join("; "), f.file));
        }
        self.doc(&paras);
        let _ = write!(
            self.out,
            "#ifndef {g}\n#define {g}\n\n#include <stdint.h>\n\n\
             #ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n"
        );
        self.doc(&["The window in bytes.".to_string()]);
        let size = format!("{}_SIZE", f.name.to_ascii_uppercase());
        self.define(&size, &lit(f.size), "the window size");
        for v in f.views() {
            self.arch(&v);
        }
        let _ = write!(
            self.out,
            "\n#ifdef __cplusplus\n}} /* extern \"C\" */\n#endif\n\n#endif /* {g} */\n"
        );
    }

    fn arch(&mut self, v: &RegFileView) {
        let p = macro_prefix(v.file, v.arch);
        let _ = write!(
            self.out,
            "\n/* ---- {} on {}: {} bundle{} ---- */\n",
            v.file.name,
            v.arch,
            v.bundles.len(),
            if v.bundles.len() == 1 { "" } else { "s" }
        );
        for b in &v.bundles {
            self.bundle(v, &p, b);
        }
    }

    fn bundle(&mut self, v: &RegFileView, prefix: &str, b: &BundleView) {
        let bd = b.bundle;
        let p = format!("{prefix}_{}", bd.name.to_ascii_uppercase());
        let fp = format!(
            "{}_{}",
            fn_prefix(v.file, v.arch),
            bd.name.to_ascii_lowercase()
        );
        let shape = if bd.count > 1 {
            format!(
                "an array of {} elements of {:#x} bytes, {:#x} apart",
                bd.count, bd.size, bd.stride
            )
        } else {
            format!("{:#x} bytes", bd.size)
        };
        self.out.push('\n');
        self.doc(&[
            format!(
                "Bundle {} on {} at {:#x} ({shape}). {}",
                bd.name,
                v.arch,
                bd.offset,
                sentence(&bd.doc)
            ),
            confidence(&bd.confidence),
        ]);
        self.define(&format!("{p}_OFFSET"), &lit(bd.offset), "a bundle offset");
        self.define(&format!("{p}_SIZE"), &lit(bd.size), "a bundle size");
        self.define(
            &format!("{p}_COUNT"),
            &format!("{}u", bd.count),
            "a bundle count",
        );
        self.define(&format!("{p}_STRIDE"), &lit(bd.stride), "a bundle stride");
        let (params, index) = if bd.count > 1 {
            ("uint64_t base, uint64_t i", format!(" + i * {p}_STRIDE"))
        } else {
            ("uint64_t base", String::new())
        };
        let what = if bd.count > 1 {
            "Element `i` of the bundle"
        } else {
            "The bundle"
        };
        self.doc(&[format!(
            "{what} in the register file whose window starts at `base`: its address."
        )]);
        let name = format!("{fp}_addr");
        self.claim(&name, "a bundle address helper");
        let _ = writeln!(
            self.out,
            "static inline uint64_t {name}({params}) {{\n    return base + {p}_OFFSET{index};\n}}"
        );
        for r in &b.registers {
            self.register(&p, &fp, params, &index, r);
        }
    }

    fn register(&mut self, bp: &str, bfp: &str, params: &str, index: &str, r: &RegisterView) {
        let reg = r.register;
        let p = format!("{bp}_{}", reg.name.to_ascii_uppercase());
        let fp = format!("{bfp}_{}", reg.name.to_ascii_lowercase());
        let reset = reg.reset.map_or(String::new(), |v| {
            format!(", reset {}", reg_hex(v, reg.width))
        });
        let mut paras = vec![format!(
            "Register {} at bundle offset {:#x}: {}, {} bits{reset}. {}",
            reg.name,
            reg.offset,
            reg.access_label(),
            reg.width,
            sentence(&reg.doc)
        )];
        paras.extend(reg.side_effect_note());
        let unknown = r.unknown_mask();
        if unknown != 0 {
            paras.push(format!(
                "Bits no source names: mask {}.",
                reg_hex(unknown, reg.width)
            ));
        }
        paras.push(confidence(&reg.confidence));
        self.out.push('\n');
        self.doc(&paras);
        self.define(
            &format!("{p}_OFFSET"),
            &lit(reg.offset),
            "a register offset",
        );
        let (reset, mask) = r.reset();
        if mask != 0 {
            self.define(
                &format!("{p}_RESET"),
                &reg_lit(reset, reg.width),
                "a register reset",
            );
        }
        if mask != 0 && mask != width_mask(reg.width) {
            self.define(
                &format!("{p}_RESET_MASK"),
                &reg_lit(mask, reg.width),
                "a register reset mask",
            );
        }
        let name = format!("{fp}_addr");
        self.claim(&name, "a register address helper");
        let _ = writeln!(
            self.out,
            "static inline uint64_t {name}({params}) {{\n    return base + {bp}_OFFSET{index} + \
             {p}_OFFSET;\n}}"
        );
        for f in &r.fields {
            self.field(&p, &fp, r, f);
        }
    }

    fn field(&mut self, rp: &str, rfp: &str, r: &RegisterView, f: &RegField) {
        let reg = r.register;
        let p = format!("{rp}_{}", f.name.to_ascii_uppercase());
        let fp = format!("{rfp}_{}", f.name.to_ascii_lowercase());
        let ty = reg_type(reg.width);
        let reset = f.reset.map_or(String::new(), |v| format!(", reset {v:#x}"));
        let mut paras = vec![format!(
            "Field {}.{} {} {} ({}{reset}). {}",
            reg.name,
            f.name,
            if f.width == 1 { "bit" } else { "bits" },
            f.bits(),
            f.access.as_str(),
            sentence(&f.doc)
        )];
        if let Some(e) = &f.enum_type {
            let c = (self.model.types.iter())
                .find(|t| &t.name == e && matches!(t.kind, TypeKind::Enum { .. }))
                .map_or(String::new(), |t| format!(" (C type `{}`)", t.c_name));
            paras.push(format!("Values: the enum {e}{c}."));
        }
        paras.extend(alternatives(&f.alternatives));
        paras.push(confidence(&f.confidence));
        self.doc(&paras);
        self.define(
            &format!("{p}_bp"),
            &format!("{}u", f.lsb),
            "a field position",
        );
        self.define(
            &format!("{p}_bm"),
            &reg_lit(f.mask(), reg.width),
            "a field mask",
        );
        self.define(
            &format!("{p}_bw"),
            &format!("{}u", f.width),
            "a field width",
        );
        if let Some(v) = f.reset {
            self.define(&format!("{p}_reset"), &lit(v), "a field reset");
        }
        if f.access.readable() && reg.access.readable() {
            let name = format!("{fp}_get");
            self.claim(&name, "a field getter");
            let _ = writeln!(
                self.out,
                "static inline {ty} {name}({ty} reg) {{\n    return ({ty})((reg & {p}_bm) >> \
                 {p}_bp);\n}}"
            );
        }
        if f.access.writable() && reg.access.writable() {
            let name = format!("{fp}_set");
            self.claim(&name, "a field setter");
            let _ = writeln!(
                self.out,
                "static inline {ty} {name}({ty} reg, {ty} v) {{\n    return ({ty})((reg & \
                 ({ty})~{p}_bm) | (({ty})(v << {p}_bp) & {p}_bm));\n}}"
            );
        }
    }
}

fn alternatives(alts: &[Alternative]) -> Vec<String> {
    alts.iter()
        .map(|a| {
            format!(
                "Alternative reading `{}`: {} [{}]",
                a.name, a.doc, a.confidence.tag
            )
        })
        .collect()
}
