//! The SystemRDL 2.0 target: `systemrdl/<file>.rdl` for a register file every architecture
//! lays out alike, else `systemrdl/<file>_<arch>.rdl` per architecture it exists on (the
//! split of the SVD target, kept to one file where no generation differs).
//!
//! Each file is one `addrmap` (`<file>` or `<file>_<arch>`, lower case) at address 0. A
//! bundle is a `regfile` instance at its offset (an array `NAME[count] @ offset += stride`
//! when it repeats), a register a `reg` of its width at its offset in the bundle, a field a
//! `field` at its bits. A bundle with no register on an architecture is not instantiated
//! (SystemRDL has no empty regfile) and the addrmap's `desc` names it; an architecture on
//! which the file has no register at all gets no file (nor an empty addrmap). A register the
//! sources give no field for holds one field over all its bits, named after the register.
//!
//! Access: the spec's `RO` / `RW` / `WO` is the field's `sw` (`r` / `rw` / `w`). The sources
//! say nothing of the hardware side, so `hw` is the usual counterpart: `w` for a read-only
//! field (status the hardware drives), `r` otherwise (configuration it reads). Resets live
//! on fields in SystemRDL: a field's own reset, else its bits of the register's reset, else
//! none; a register reset's bits outside every field have no place.
//!
//! Names are the spec's (validated identifiers, case kept); one that is a SystemRDL keyword
//! is written escaped, `\internal`, which SystemRDL reads as the plain name `internal`.
//! Every `desc` ends with the item's confidence and citations, as the SVD descriptions do.

use std::fmt::Write;

use super::svd::{bundle_description, describe, file_notes, provenance};
use crate::model::Model;
use crate::model::registers::{
    Access, BundleView, RegField, RegFile, RegFileView, RegisterView, SideEffect, width_mask,
};
use crate::output::STAMP;

/// The SystemRDL 2.0 keywords (reserved words included): no name may be one unescaped.
const KEYWORDS: &[&str] = &[
    "abstract",
    "accesstype",
    "addressingtype",
    "addrmap",
    "alias",
    "all",
    "alternate",
    "bit",
    "boolean",
    "bothedge",
    "byte",
    "compact",
    "component",
    "componentwidth",
    "constraint",
    "default",
    "encode",
    "enum",
    "external",
    "false",
    "field",
    "fullalign",
    "hw",
    "inside",
    "int",
    "internal",
    "level",
    "longint",
    "mem",
    "na",
    "negedge",
    "nonsticky",
    "number",
    "onreadtype",
    "onwritetype",
    "posedge",
    "precedencetype",
    "property",
    "r",
    "rclr",
    "real",
    "ref",
    "reg",
    "regalign",
    "regfile",
    "rset",
    "ruser",
    "rw",
    "rw1",
    "shortint",
    "shortreal",
    "signal",
    "signed",
    "string",
    "struct",
    "sw",
    "this",
    "true",
    "type",
    "unsigned",
    "w",
    "w1",
    "wclr",
    "with",
    "within",
    "woclr",
    "woset",
    "wot",
    "wr",
    "wset",
    "wuser",
    "wzc",
    "wzs",
    "wzt",
];

/// Every SystemRDL file: (path under `generated/`, contents), by register file.
pub fn render(model: &Model) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in &model.regfiles {
        let sizes_agree = file.archs.iter().all(|a| file.size_on(a) == file.size);
        if file.arch_invariant() && sizes_agree {
            let views: Vec<_> = file.views().collect();
            let name = file.name.to_ascii_lowercase();
            out.push((format!("systemrdl/{name}.rdl"), addrmap(&name, &views)));
        } else {
            // SystemRDL has no empty addrmap either: a generation on which the file has no
            // register (UDMA_GEN on maverick, bundles placed without their registers) has
            // no file; its SVD device and C header name the bundles.
            let views = file
                .views()
                .filter(|v| v.bundles.iter().any(|b| !b.registers.is_empty()));
            for view in views {
                let name = format!("{}_{}", file.name.to_ascii_lowercase(), view.arch);
                let text = addrmap(&name, std::slice::from_ref(&view));
                out.push((format!("systemrdl/{name}.rdl"), text));
            }
        }
    }
    out
}

/// A spec name as a SystemRDL identifier: escaped when it is a keyword.
pub fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("\\{name}")
    } else {
        name.to_string()
    }
}

/// `text` as a SystemRDL string literal. `\"` is the only escape, so a final backslash,
/// which would escape the closing quote, gets a space after it.
fn string(text: &str) -> String {
    let mut s = text.replace('"', "\\\"");
    if s.ends_with('\\') {
        s.push(' ');
    }
    format!("\"{s}\"")
}

fn line(out: &mut String, depth: usize, text: &str) {
    let _ = writeln!(out, "{:indent$}{text}", "", indent = depth * 4);
}

/// The addrmap `name` of `views`: one view, or every architecture's (identical) layout.
fn addrmap(name: &str, views: &[RegFileView]) -> String {
    let first = &views[0];
    let f: &RegFile = first.file;
    let archs: Vec<&str> = views.iter().map(|v| v.arch).collect();
    let mut out = format!("// {STAMP} from spec/{}: do not edit.\n", f.file);
    line(&mut out, 0, &format!("addrmap {name} {{"));
    let mut notes = vec![format!(
        "Register file {} as {} lay{} it out ({:#x}-byte window, {}-bit bus), from spec/{}. \
         Base address 0: each instance of the file is placed elsewhere, so add its base.",
        f.name,
        archs.join(", "),
        if archs.len() == 1 { "s" } else { "" },
        f.size_on(first.arch),
        f.bus_width,
        f.file
    )];
    let (more, full) = file_notes(&f.counts, &first.bundles, "here");
    notes.extend(more);
    let desc = describe(&f.doc, &notes, provenance(&f.confidence, &f.evidence));
    line(&mut out, 1, &format!("desc = {};", string(&desc)));
    for b in full {
        out.push('\n');
        bundle(b, &mut out);
    }
    line(&mut out, 0, "};");
    out
}

fn bundle(b: &BundleView, out: &mut String) {
    let bd = b.bundle;
    line(out, 1, "regfile {");
    line(
        out,
        2,
        &format!("desc = {};", string(&bundle_description(b))),
    );
    for r in &b.registers {
        register(r, out);
    }
    let place = if bd.count > 1 {
        format!(
            "{}[{}] @ {:#x} += {:#x}",
            ident(&bd.name),
            bd.count,
            bd.offset,
            bd.stride
        )
    } else {
        format!("{} @ {:#x}", ident(&bd.name), bd.offset)
    };
    line(out, 1, &format!("}} {place};"));
}

fn register(r: &RegisterView, out: &mut String) {
    let reg = r.register;
    let mut notes = vec![format!("{}, {} bits.", reg.access_label(), reg.width)];
    notes.extend(reg.side_effect_note());
    match reg.reset {
        Some(v) => notes.push(format!("Reset {v:#x}.")),
        None => notes.push("Reset: not given for the whole register.".to_string()),
    }
    let unknown = r.unknown_mask();
    if unknown != 0 && !r.fields.is_empty() {
        notes.push(format!("Bits {unknown:#x} are in no field."));
    }
    // PulseOnW is SystemRDL's swmod (a strobe on each software write, the value kept), not
    // singlepulse (a field that clears itself after one cycle).
    let swmod = reg.special_access == Some(SideEffect::PulseOnW);
    line(out, 2, "reg {");
    let desc = describe(&reg.doc, &notes, provenance(&reg.confidence, &reg.evidence));
    line(out, 3, &format!("desc = {};", string(&desc)));
    line(out, 3, &format!("regwidth = {};", reg.width));
    if r.fields.is_empty() {
        let doc = "The whole register: the sources name no field in it.";
        let prov = provenance(&reg.confidence, &reg.evidence);
        let spec = FieldSpec {
            name: &reg.name,
            desc: describe(doc, &[], prov),
            lsb: 0,
            width: reg.width,
            access: reg.access,
            reset: reg.reset,
            swmod,
        };
        field(&spec, out);
    }
    for f in &r.fields {
        let spec = FieldSpec::of(f, reg.reset);
        field(&FieldSpec { swmod, ..spec }, out);
    }
    line(
        out,
        2,
        &format!("}} {} @ {:#x};", ident(&reg.name), reg.offset),
    );
}

/// What a `field` instance states, from a spec field or a register the sources split into
/// no fields.
struct FieldSpec<'a> {
    name: &'a str,
    desc: String,
    lsb: u32,
    width: u32,
    access: Access,
    reset: Option<u64>,
    /// Software writes pulse a strobe to the hardware (SystemRDL `swmod`).
    swmod: bool,
}

impl<'a> FieldSpec<'a> {
    fn of(f: &'a RegField, register_reset: Option<u64>) -> Self {
        let mut notes = Vec::new();
        if let Some(t) = &f.enum_type {
            notes.push(format!("Values: the spec enum {t}."));
        }
        for a in &f.alternatives {
            notes.push(format!(
                "Alternative reading `{}`: {} {}",
                a.name,
                a.doc.trim(),
                provenance(&a.confidence, &a.evidence)
            ));
        }
        let mask = width_mask(f.width);
        FieldSpec {
            name: &f.name,
            desc: describe(&f.doc, &notes, provenance(&f.confidence, &f.evidence)),
            lsb: f.lsb,
            width: f.width,
            access: f.access,
            reset: f
                .reset
                .or(register_reset.map(|v| v >> f.lsb))
                .map(|v| v & mask),
            swmod: false,
        }
    }
}

fn field(f: &FieldSpec, out: &mut String) {
    let (sw, hw) = match f.access {
        Access::RO => ("r", "w"),
        Access::RW => ("rw", "r"),
        Access::WO => ("w", "r"),
    };
    line(out, 3, "field {");
    line(out, 4, &format!("desc = {};", string(&f.desc)));
    line(out, 4, &format!("sw = {sw};"));
    line(out, 4, &format!("hw = {hw};"));
    if f.swmod {
        line(out, 4, "swmod = true;");
    }
    let bits = format!("[{}:{}]", f.lsb + f.width - 1, f.lsb);
    let reset = f.reset.map_or(String::new(), |v| format!(" = {v:#x}"));
    line(out, 3, &format!("}} {}{bits}{reset};", ident(f.name)));
}

#[cfg(test)]
mod tests {
    use super::{ident, string};

    #[test]
    fn keywords_are_escaped_and_other_names_kept() {
        assert_eq!(ident("internal"), "\\internal");
        assert_eq!(ident("INTERNAL"), "INTERNAL");
        assert_eq!(ident("q_ctrl"), "q_ctrl");
    }

    #[test]
    fn strings_escape_quotes_and_a_final_backslash() {
        assert_eq!(string("a \"b\" c"), "\"a \\\"b\\\" c\"");
        assert_eq!(string("ends in \\"), "\"ends in \\ \"");
    }
}
