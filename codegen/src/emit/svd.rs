//! The CMSIS-SVD target: `svd/<file>_<arch>.svd`, one SVD 1.3 device per register file per
//! architecture it exists on (an SVD device is one chip, and the layouts differ by
//! generation).
//!
//! Each device holds one peripheral, the register file, at base address 0 (every instance
//! of the file sits elsewhere, so a consumer adds its own base); its address block is the
//! file's window. A bundle is a `<cluster>` (an array of them, `NAME[%s]` with `<dim>` and
//! `<dimIncrement>`, when the bundle repeats), its registers have offsets from the
//! cluster's base and their fields `<bitRange>`s; a field naming a spec enum carries its
//! `<enumeratedValues>` (the enumerators that architecture has). A register whose reset
//! the sources do not give has the resets of its fields that they give, and `resetMask`
//! covers only those bits (0 when none; the description says so).
//!
//! SVD has no place for provenance, so every `<description>` ends with the item's
//! confidence and citations, `[HIGH/OBSERVED; wiki-csr-udma-m2s §4.3]`, and a field's
//! alternative readings follow its text. The XML is written by hand, deterministically:
//! element order as the CMSIS-SVD schema wants it, every text and attribute escaped.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::model::addrmap::AddrMap;
use crate::model::provenance::{Confidence, Evidence};
use crate::model::registers::{
    Access, BundleView, Count, RegField, RegFile, RegFileView, RegisterView,
};
use crate::model::{Model, TypeKind};
use crate::output::STAMP;

/// Every SVD file: (path under `generated/`, contents), by register file then architecture.
pub fn render(model: &Model) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in &model.regfiles {
        for view in file.views() {
            out.push((path(file, view.arch), device(model, &view)));
        }
    }
    for map in &model.addrmaps {
        out.push((soc_path(&map.arch), soc_device(model, map)));
    }
    out
}

/// `svd/soc_<arch>.svd`: the address map's device.
pub fn soc_path(arch: &str) -> String {
    format!("svd/soc_{arch}.svd")
}

/// The peripheral name of register file part `part` of instance `instance`.
pub fn soc_peripheral_name(instance: &str, part: &str) -> String {
    format!("{instance}_{part}")
}

/// `svd/<file, lower case>_<arch>.svd`.
pub fn path(file: &RegFile, arch: &str) -> String {
    format!("svd/{}_{arch}.svd", file.name.to_ascii_lowercase())
}

/// The SVD `<access>` value.
pub fn access(a: Access) -> &'static str {
    match a {
        Access::RW => "read-write",
        Access::RO => "read-only",
        Access::WO => "write-only",
    }
}

/// The SVD name of a bundle's cluster: `NAME[%s]` for an array.
pub fn cluster_name(b: &BundleView) -> String {
    if b.bundle.count > 1 {
        format!("{}[%s]", b.bundle.name)
    } else {
        b.bundle.name.clone()
    }
}

/// A bundle whose one register has the bundle's name and starts it is that register
/// repeated: an SVD register array (or a single register), not a cluster of one, which
/// svd2rust would give the same type name as its register.
pub fn is_register_array(b: &BundleView) -> bool {
    matches!(b.registers.as_slice(),
        [r] if r.register.name == b.bundle.name && r.register.offset == 0)
}

/// `[TAG; cite; cite]`: the confidence and the distinct citations, in order.
pub fn provenance(confidence: &Confidence, evidence: &[Evidence]) -> String {
    let mut parts = vec![confidence.tag.as_str()];
    for e in evidence {
        if !parts[1..].contains(&e.cite.as_str()) {
            parts.push(&e.cite);
        }
    }
    format!("[{}]", parts.join("; "))
}

/// `text` escaped for XML character data and attribute values; characters XML 1.0 cannot
/// hold at all become U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || matches!(c, '\u{FFFE}' | '\u{FFFF}') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn hex(v: u64) -> String {
    format!("{v:#x}")
}

fn hex32(v: u64) -> String {
    format!("0x{v:08X}")
}

/// One line of an element holding text.
fn leaf(out: &mut String, depth: usize, tag: &str, text: &str) {
    let _ = writeln!(
        out,
        "{:indent$}<{tag}>{}</{tag}>",
        "",
        escape(text),
        indent = depth * 2
    );
}

fn open(out: &mut String, depth: usize, tag: &str) {
    let _ = writeln!(out, "{:indent$}<{tag}>", "", indent = depth * 2);
}

fn close(out: &mut String, depth: usize, tag: &str) {
    let _ = writeln!(out, "{:indent$}</{tag}>", "", indent = depth * 2);
}

/// The notes of a register file's description — the counts its sources give, and each
/// bundle that declares no register `place` ("on cayman", "here") — and the bundles that do.
pub fn file_notes<'v, 'm>(
    counts: &[Count],
    bundles: &'v [BundleView<'m>],
    place: &str,
) -> (Vec<String>, Vec<&'v BundleView<'m>>) {
    let mut notes: Vec<String> = counts
        .iter()
        .map(|c| {
            format!(
                "Count: {} = {} [{}; {}].",
                c.what, c.value, c.evidence.confidence.tag, c.evidence.cite
            )
        })
        .collect();
    let (full, empty): (Vec<&BundleView>, Vec<&BundleView>) =
        bundles.iter().partition(|b| !b.registers.is_empty());
    for b in empty {
        let bd = b.bundle;
        let array = match bd.count > 1 {
            true => format!(", {} x {:#x}", bd.count, bd.stride),
            false => String::new(),
        };
        notes.push(format!(
            "Bundle {} ({:#x} bytes at {:#x}{array}) declares no register {place}. {}",
            bd.name,
            bd.size,
            bd.offset,
            provenance(&bd.confidence, &bd.evidence)
        ));
    }
    (notes, full)
}

/// A bundle's description: its doc, its shape (size, and count and stride when it is an
/// array), then its provenance.
pub fn bundle_description(b: &BundleView) -> String {
    let bd = b.bundle;
    let shape = if bd.count > 1 {
        format!(
            "{} bundles of {:#x} bytes, {:#x} apart, from {:#x}.",
            bd.count, bd.size, bd.stride, bd.offset
        )
    } else {
        format!("{:#x} bytes at {:#x}.", bd.size, bd.offset)
    };
    describe(&bd.doc, &[shape], provenance(&bd.confidence, &bd.evidence))
}

/// Prose and provenance as one description: `doc` (trimmed, sentences kept), the notes,
/// then the provenance.
pub fn describe(doc: &str, notes: &[String], prov: String) -> String {
    let mut parts: Vec<String> = Vec::new();
    let doc = doc.trim();
    if !doc.is_empty() {
        parts.push(doc.to_string());
    }
    parts.extend(notes.iter().cloned());
    parts.push(prov);
    parts.join(" ")
}

/// The opening of a device: the XML prolog, the device's name, description and bus
/// properties, up to its open `<peripherals>`.
fn device_open(spec_file: &str, name: &str, description: &str, width: u32) -> String {
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><!-- {STAMP} from spec/{}: do not edit -->\n",
        spec_file.replace("--", "- -")
    );
    // The schema (CMSIS-SVD.xsd, revision 1.3.9 and every 1.3.x since) types schemaVersion
    // as xs:decimal: "1.3.9" is not one and fails validation, so the version is "1.3".
    // cmsis-svd's validator then needs the XSD named (schema_version="1.3.9",
    // schema_version_detection=False): it looks for a CMSIS-SVD_1_3.xsd it does not ship.
    out.push_str(
        "<device schemaVersion=\"1.3\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xs:noNamespaceSchemaLocation=\"CMSIS-SVD.xsd\">\n",
    );
    leaf(&mut out, 1, "name", name);
    leaf(&mut out, 1, "version", env!("CARGO_PKG_VERSION"));
    leaf(&mut out, 1, "description", description);
    leaf(&mut out, 1, "addressUnitBits", "8");
    leaf(&mut out, 1, "width", &width.to_string());
    leaf(&mut out, 1, "size", "32");
    leaf(&mut out, 1, "access", "read-write");
    leaf(&mut out, 1, "resetValue", &hex32(0));
    leaf(&mut out, 1, "resetMask", &hex32(0xFFFF_FFFF));
    open(&mut out, 1, "peripherals");
    out
}

fn device_close(out: &mut String) {
    close(out, 1, "peripherals");
    out.push_str("</device>\n");
}

fn generation(model: &Model, arch: &str) -> String {
    let arch = model.archs.iter().find(|a| a.name == arch);
    arch.map_or(String::new(), |a| format!(" (NeuronCore v{})", a.nc))
}

fn device(model: &Model, v: &RegFileView) -> String {
    let f = v.file;
    let notes = [format!(
        "The register file {} as {}{} lays it out, from spec/{}; one SVD device per \
         register file per architecture. Base address 0: each instance of the file is \
         placed elsewhere, so add its base (svd/soc_<arch>.svd places them).",
        f.name,
        v.arch,
        generation(model, v.arch),
        f.file
    )];
    let description = describe(&f.doc, &notes, provenance(&f.confidence, &f.evidence));
    let name = format!("{}_{}", f.name, v.arch);
    let mut out = device_open(&f.file, &name, &description, f.bus_width);
    peripheral(model, v, &f.name, None, 0, &mut out);
    device_close(&mut out);
    out
}

/// An address map as one device: a peripheral for every register file part of every
/// instance, at its absolute base. The lowest instance of each part holds the register
/// tree; every other is `derivedFrom` it, which keeps 1,600-odd peripherals small.
fn soc_device(model: &Model, map: &AddrMap) -> String {
    let notes = [format!(
        "Every register file instance of the {}{} address map at its absolute base, from \
         spec/{}: peripheral <instance>_<part> (groupName: the register file).",
        map.arch,
        generation(model, &map.arch),
        map.file
    )];
    let description = describe(&map.doc, &notes, provenance(&map.confidence, &map.evidence));
    let mut out = device_open(&map.file, &format!("SOC_{}", map.arch), &description, 32);
    let mut first: BTreeMap<&str, String> = BTreeMap::new();
    for inst in map.instances() {
        for part in &inst.slot.parts {
            let Some(regfile) = &part.regfile else {
                continue;
            };
            let name = soc_peripheral_name(&inst.name, &part.name);
            let base = inst.base + part.offset;
            let Some(origin) = first.get(regfile.as_str()) else {
                let file = model.regfiles.iter().find(|f| &f.name == regfile);
                let file = file.expect("the loader checks that a part's register file exists");
                let view = file.view(&map.arch);
                peripheral(model, &view, &name, Some(regfile), base, &mut out);
                first.insert(regfile, name);
                continue;
            };
            let _ = writeln!(out, "    <peripheral derivedFrom=\"{}\">", escape(origin));
            leaf(&mut out, 3, "name", &name);
            let file = match &part.name == regfile {
                true => String::new(),
                false => format!(" ({regfile})"),
            };
            let what = format!(
                "{}{file} of {}, the slot {} at {}.",
                part.name,
                inst.name,
                inst.slot.name,
                hex(inst.base)
            );
            leaf(&mut out, 3, "description", &what);
            leaf(&mut out, 3, "groupName", regfile);
            leaf(&mut out, 3, "baseAddress", &hex32(base));
            close(&mut out, 2, "peripheral");
        }
    }
    device_close(&mut out);
    out
}

/// The register file `v` as a peripheral named `name` at `base`, in `group` when given.
fn peripheral(
    model: &Model,
    v: &RegFileView,
    name: &str,
    group: Option<&str>,
    base: u64,
    out: &mut String,
) {
    let f = v.file;
    open(out, 2, "peripheral");
    leaf(out, 3, "name", name);
    // SVD has no empty cluster: a bundle with no register on this generation is named here.
    let (notes, full) = file_notes(&f.counts, &v.bundles, &format!("on {}", v.arch));
    leaf(
        out,
        3,
        "description",
        &describe(&f.doc, &notes, provenance(&f.confidence, &f.evidence)),
    );
    if let Some(group) = group {
        leaf(out, 3, "groupName", group);
    }
    leaf(out, 3, "baseAddress", &hex32(base));
    open(out, 3, "addressBlock");
    leaf(out, 4, "offset", "0x0");
    leaf(out, 4, "size", &hex(f.size));
    leaf(out, 4, "usage", "registers");
    close(out, 3, "addressBlock");
    if !full.is_empty() {
        open(out, 3, "registers");
        for b in full {
            match b.registers.as_slice() {
                [r] if is_register_array(b) => register(model, v.arch, r, Some(b), out),
                _ => cluster(model, v.arch, b, out),
            }
        }
        close(out, 3, "registers");
    }
    close(out, 2, "peripheral");
}

fn cluster(model: &Model, arch: &str, b: &BundleView, out: &mut String) {
    let bd = b.bundle;
    open(out, 4, "cluster");
    if bd.count > 1 {
        leaf(out, 5, "dim", &bd.count.to_string());
        leaf(out, 5, "dimIncrement", &hex(bd.stride));
    }
    leaf(out, 5, "name", &cluster_name(b));
    leaf(out, 5, "description", &bundle_description(b));
    leaf(out, 5, "addressOffset", &hex(bd.offset));
    for r in &b.registers {
        register(model, arch, r, None, out);
    }
    close(out, 4, "cluster");
}

/// A register of a cluster, or (`array`) the one register of a bundle that is its array.
fn register(
    model: &Model,
    arch: &str,
    r: &RegisterView,
    array: Option<&BundleView>,
    out: &mut String,
) {
    let reg = r.register;
    let (value, mask) = r.reset();
    // SVD has no element for a write strobe (modifiedWriteValues only says how a written
    // value is stored), so a side effect is told in the description.
    let mut notes: Vec<String> = reg.side_effect_note().into_iter().collect();
    if reg.reset.is_none() {
        notes.push(if mask == 0 {
            "Reset value: not given by the sources (resetMask 0).".to_string()
        } else {
            format!(
                "Reset value: not given for the whole register; resetMask {} covers the \
                 fields whose reset the sources give.",
                hex32(mask)
            )
        });
    }
    let unknown = r.unknown_mask();
    if unknown != 0 && !r.fields.is_empty() {
        notes.push(format!("Bits {} are in no field.", hex32(unknown)));
    }
    let prov = provenance(&reg.confidence, &reg.evidence);
    open(out, 5, "register");
    let (name, offset) = match array {
        Some(b) => {
            let bd = b.bundle;
            if bd.count > 1 {
                leaf(out, 6, "dim", &bd.count.to_string());
                leaf(out, 6, "dimIncrement", &hex(bd.stride));
            }
            notes.push(format!(
                "Bundle {} (its only register): {} {}",
                bd.name,
                bd.doc,
                provenance(&bd.confidence, &bd.evidence)
            ));
            (cluster_name(b), bd.offset + reg.offset)
        }
        None => (reg.name.clone(), reg.offset),
    };
    leaf(out, 6, "name", &name);
    leaf(out, 6, "description", &describe(&reg.doc, &notes, prov));
    leaf(out, 6, "addressOffset", &hex(offset));
    leaf(out, 6, "size", &reg.width.to_string());
    leaf(out, 6, "access", access(reg.access));
    leaf(out, 6, "resetValue", &hex32(value));
    leaf(out, 6, "resetMask", &hex32(mask));
    if !r.fields.is_empty() {
        open(out, 6, "fields");
        for f in &r.fields {
            field(model, arch, f, out);
        }
        close(out, 6, "fields");
    }
    close(out, 5, "register");
}

fn field(model: &Model, arch: &str, f: &RegField, out: &mut String) {
    let mut notes = Vec::new();
    if let Some(v) = f.reset {
        notes.push(format!("Reset: {v:#x}."));
    }
    let enum_def =
        (f.enum_type.as_ref()).and_then(|name| model.types.iter().find(|t| &t.name == name));
    if let Some(t) = enum_def {
        notes.push(format!(
            "Values: enum {} {}.",
            t.name,
            provenance(&t.confidence, &t.evidence)
        ));
    }
    for a in &f.alternatives {
        notes.push(format!(
            "Alternative reading `{}`: {} {}",
            a.name,
            a.doc.trim(),
            provenance(&a.confidence, &a.evidence)
        ));
    }
    open(out, 7, "field");
    leaf(out, 8, "name", &f.name);
    leaf(
        out,
        8,
        "description",
        &describe(&f.doc, &notes, provenance(&f.confidence, &f.evidence)),
    );
    leaf(out, 8, "bitRange", &format!("[{}:{}]", f.msb(), f.lsb));
    leaf(out, 8, "access", access(f.access));
    if let Some(t) = enum_def
        && let TypeKind::Enum { values, .. } = &t.kind
    {
        let name = &t.name;
        let values: Vec<_> = (values.iter())
            .filter(|e| e.arch.is_empty() || e.arch.iter().any(|a| a == arch))
            .collect();
        if !values.is_empty() {
            open(out, 8, "enumeratedValues");
            leaf(out, 9, "name", name);
            for e in values {
                open(out, 9, "enumeratedValue");
                leaf(out, 10, "name", &e.name);
                let doc = e.doc.as_deref().unwrap_or("").trim();
                if !doc.is_empty() {
                    leaf(out, 10, "description", doc);
                }
                leaf(out, 10, "value", &hex(e.value));
                close(out, 9, "enumeratedValue");
            }
            close(out, 8, "enumeratedValues");
        }
    }
    close(out, 7, "field");
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn text_is_escaped_and_impossible_characters_replaced() {
        assert_eq!(
            escape("a<b> & \"c\" 'd' \u{1}\u{7}\t"),
            "a&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; \u{FFFD}\u{FFFD}\t"
        );
        assert_eq!(escape("§4.3 — ok"), "§4.3 — ok");
    }
}
