//! Register files at the command line: `dmaspec explain FILE[.BUNDLE[.register[.field]]]`
//! and `dmaspec regs FILE DUMP`, which decodes a dump of a register file's window (or of
//! one bundle element) into every register's fields, unknown bits kept raw.

use std::fmt::Write as _;
use std::num::IntErrorKind;

use crate::runtime::regs::{BundleMeta, RegFieldMeta, RegFileMeta, RegisterMeta};
use crate::words::CONFLICTS;
use crate::words::regs::REGFILES;

use crate::names::echo;

use super::Error;
use super::describe::{alternative_lines, evidence_lines};
use super::lookup::{did_you_mean, named};

/// The register file a query starts with (`udma_m2s` names `UDMA_M2S`), or the name it
/// most likely misspells.
pub fn find(name: &str) -> Result<&'static RegFileMeta, Option<&'static str>> {
    named(REGFILES, |f| f.name, name)
}

pub fn names<T>(items: &[T], name: impl Fn(&T) -> &'static str) -> String {
    let mut list: Vec<&str> = items.iter().map(name).collect();
    list.dedup();
    list.join(", ")
}

/// `explain` for a path that starts with a register file's name.
pub fn explain(file: &'static RegFileMeta, rest: Option<&str>) -> Result<String, Error> {
    let mut parts = rest
        .map(|r| r.split('.').collect::<Vec<_>>())
        .unwrap_or_default();
    if parts.len() > 3 {
        return Err(Error::Usage(format!(
            "`{}.{}`: a register path is FILE.BUNDLE.register.field at most",
            file.name,
            echo(&parts.join("."))
        )));
    }
    let mut out = String::new();
    let Some(bundle_part) = parts.first().copied() else {
        file_text(file, &mut out);
        return Ok(out);
    };
    let (bundle_name, index) = split_index(bundle_part)?;
    let bundle = named(file.bundles, |b| b.name, bundle_name).map_err(|_| {
        Error::Usage(format!(
            "`{}` has no bundle `{}`{} (bundles: {})",
            file.name,
            echo(bundle_name),
            did_you_mean(bundle_name, file.bundles.iter().map(|b| b.name)),
            names(file.bundles, |b| b.name)
        ))
    })?;
    if let Some(i) = index
        && i >= bundle.count
    {
        return Err(Error::Usage(format!(
            "`{}.{bundle_name}` has {} element(s): index {i} is out of range",
            file.name, bundle.count
        )));
    }
    parts.remove(0);
    let Some(reg_name) = parts.first().copied() else {
        bundle_text(file, bundle, &mut out);
        return Ok(out);
    };
    // Per-generation layouts share a name.
    let reg_name = named(bundle.registers, |r| r.name, reg_name).map_or(reg_name, |r| r.name);
    let layouts: Vec<&RegisterMeta> = bundle
        .registers
        .iter()
        .filter(|r| r.name == reg_name)
        .collect();
    if layouts.is_empty() {
        return Err(Error::Usage(format!(
            "bundle `{}.{}` has no register `{}`{} (registers: {})",
            file.name,
            bundle.name,
            echo(reg_name),
            did_you_mean(reg_name, bundle.registers.iter().map(|r| r.name)),
            names(bundle.registers, |r| r.name)
        )));
    }
    let path = format!("{}.{}.{}", file.name, bundle.name, reg_name);
    match parts.get(1) {
        None => {
            for r in &layouts {
                register_text(file, bundle, r, &mut out);
            }
        }
        Some(field) => {
            let fields: Vec<&RegFieldMeta> = layouts.iter().flat_map(|r| r.fields).collect();
            let field = &named(&fields, |f| f.name, field).map_or(*field, |f| f.name);
            let found: Vec<(&RegisterMeta, &RegFieldMeta)> = (layouts.iter())
                .flat_map(|r| {
                    r.fields
                        .iter()
                        .filter(|f| f.name == *field)
                        .map(move |f| (*r, f))
                })
                .collect();
            if found.is_empty() {
                // A field of several layouts is named once.
                let mut all: Vec<&str> = Vec::new();
                for f in layouts.iter().flat_map(|r| r.fields) {
                    if !all.contains(&f.name) {
                        all.push(f.name);
                    }
                }
                return Err(Error::Usage(format!(
                    "register `{path}` has no field `{}`{} (fields: {})",
                    echo(field),
                    did_you_mean(field, all.iter().copied()),
                    all.join(", ")
                )));
            }
            for (r, f) in found {
                field_text(file, bundle, r, f, &mut out);
            }
            conflict_lines(&format!("{path}.{field}"), &mut out);
        }
    }
    conflict_lines(&path, &mut out);
    Ok(out)
}

fn file_text(f: &RegFileMeta, out: &mut String) {
    let _ = writeln!(
        out,
        "{} — register file, {:#x} bytes, {}-bit bus",
        f.name, f.size, f.bus_width
    );
    let _ = writeln!(out, "  archs      {}", f.archs.join(", "));
    for (arch, size) in f.arch_sizes {
        let _ = writeln!(out, "  on {arch:<7} {size:#x} bytes");
    }
    let _ = writeln!(
        out,
        "  confidence {} ({})",
        f.confidence.tag, f.confidence.level
    );
    let _ = writeln!(out, "  {}", f.doc);
    let _ = writeln!(out, "  bundles:");
    for b in f.bundles {
        let array = if b.count > 1 {
            format!("[{}] stride {:#x}", b.count, b.stride)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "    {:#07x}  {}{array}  {} registers  ({})",
            b.offset,
            b.name,
            b.registers.len(),
            b.archs.join(", ")
        );
    }
    let _ = writeln!(out, "  evidence:");
    evidence_lines(f.evidence, out);
}

fn bundle_text(f: &RegFileMeta, b: &BundleMeta, out: &mut String) {
    let _ = writeln!(
        out,
        "{}.{} — bundle at {:#x}, {:#x} bytes{}",
        f.name,
        b.name,
        b.offset,
        b.size,
        if b.count > 1 {
            format!(
                ", {} elements {:#x} apart (element i at {:#x} + i·{:#x})",
                b.count, b.stride, b.offset, b.stride
            )
        } else {
            String::new()
        }
    );
    let _ = writeln!(out, "  archs      {}", b.archs.join(", "));
    if !b.doc.is_empty() {
        let _ = writeln!(out, "  {}", b.doc);
    }
    for r in b.registers {
        let _ = writeln!(
            out,
            "    +{:#05x}  {:<24} {}  reset {}  ({})",
            r.offset,
            r.name,
            r.access,
            r.reset.map_or("—".to_string(), |v| format!("{v:#010x}")),
            r.archs.join(", ")
        );
    }
}

fn register_text(f: &RegFileMeta, b: &BundleMeta, r: &RegisterMeta, out: &mut String) {
    let at = if b.count > 1 {
        format!(
            "{:#x} + i·{:#x} + {:#x} (i < {})",
            b.offset, b.stride, r.offset, b.count
        )
    } else {
        format!("{:#x}", b.offset + r.offset)
    };
    let _ = writeln!(
        out,
        "{}.{}.{} — register at {at}, {} bits, {}",
        f.name, b.name, r.name, r.width, r.access
    );
    let _ = writeln!(out, "  archs      {}", r.archs.join(", "));
    let _ = writeln!(
        out,
        "  reset      {}",
        r.reset
            .map_or("not given by the sources".to_string(), |v| format!(
                "{v:#010x}"
            ))
    );
    let _ = writeln!(
        out,
        "  confidence {} ({})",
        r.confidence.tag, r.confidence.level
    );
    if !r.doc.is_empty() {
        let _ = writeln!(out, "  {}", r.doc);
    }
    let _ = writeln!(out, "  fields:");
    for x in r.fields {
        let _ = writeln!(
            out,
            "    {:<7} {:<28} {}  reset {}  ({}) [{}]",
            bits(x),
            x.name,
            x.access,
            x.reset.map_or("—".to_string(), |v| format!("{v:#x}")),
            x.archs.join(", "),
            x.confidence.tag
        );
    }
    let _ = writeln!(out, "  evidence:");
    evidence_lines(r.evidence, out);
}

fn field_text(
    file: &RegFileMeta,
    b: &BundleMeta,
    r: &RegisterMeta,
    x: &RegFieldMeta,
    out: &mut String,
) {
    let _ = writeln!(
        out,
        "{}.{}.{}.{} — bits {} of the register at +{:#x}, {} ({} bits), {}",
        file.name,
        b.name,
        r.name,
        x.name,
        bits(x),
        r.offset,
        format_args!("mask {:#010x}", x.mask()),
        x.width,
        x.access
    );
    let _ = writeln!(out, "  archs      {}", x.archs.join(", "));
    let _ = writeln!(
        out,
        "  reset      {}",
        x.reset
            .map_or("not given by the sources".to_string(), |v| format!(
                "{v:#x}"
            ))
    );
    let _ = writeln!(
        out,
        "  confidence {} ({})",
        x.confidence.tag, x.confidence.level
    );
    if !x.doc.is_empty() {
        let _ = writeln!(out, "  {}", x.doc);
    }
    if let Some((name, values)) = x.enumerators {
        let _ = writeln!(out, "  values ({name}):");
        for (n, v) in values {
            let _ = writeln!(out, "    {v:#x} {n}");
        }
    }
    let _ = writeln!(out, "  evidence:");
    let own = if x.evidence.is_empty() {
        r.evidence
    } else {
        x.evidence
    };
    evidence_lines(own, out);
    for a in x.alternatives {
        alternative_lines(a, out);
    }
}

fn conflict_lines(path: &str, out: &mut String) {
    for c in CONFLICTS.iter().filter(|c| c.about.contains(&path)) {
        let _ = writeln!(out, "  CONFLICT `{}`: {}", c.name, c.doc);
        for r in c.readings {
            alternative_lines(r, out);
        }
    }
}

pub fn bits(x: &RegFieldMeta) -> String {
    if x.width == 1 {
        format!("[{}]", x.lsb)
    } else {
        format!("[{}:{}]", x.lsb + x.width - 1, x.lsb)
    }
}

/// `M2S_Q[3]` as (`M2S_Q`, Some(3)), `M2S` as (`M2S`, None).
pub fn split_index(spec: &str) -> Result<(&str, Option<u64>), Error> {
    let Some((name, rest)) = spec.split_once('[') else {
        return Ok((spec, None));
    };
    let bad = |why: String| Error::Usage(format!("`{}`: {why}", echo(spec)));
    let index = rest.strip_suffix(']').map(str::trim);
    match index.map(str::parse::<u64>) {
        Some(Ok(i)) => Ok((name, Some(i))),
        Some(Err(e)) if *e.kind() == IntErrorKind::PosOverflow => Err(bad(format!(
            "index {} is out of range",
            echo(index.unwrap_or_default())
        ))),
        _ => Err(bad(
            "write a bundle element as NAME[INDEX], e.g. M2S_Q[3]".into()
        )),
    }
}
