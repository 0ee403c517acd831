//! Register files at the command line: `dmaspec explain FILE[.BUNDLE[.register[.field]]]`
//! and `dmaspec regs FILE DUMP`, which decodes a dump of a register file's window (or of
//! one bundle element) into every register's fields, unknown bits kept raw.

use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;

use dmaspec::Arch;
use dmaspec::runtime::regs::{BundleMeta, RegFieldMeta, RegFileMeta, RegisterMeta};
use dmaspec::words::CONFLICTS;
use dmaspec::words::regs::REGFILES;
use serde_json::{Value as Json, json};

use super::CliError;
use super::explain::{alternative_lines, evidence_lines};
use super::input::{self, WordReader};

/// The register file a query starts with, if any.
pub fn find(name: &str) -> Option<&'static RegFileMeta> {
    REGFILES.iter().find(|f| f.name == name)
}

/// ` (did you mean `X`?)` when `typed` is one of `names` but for letter case.
pub fn did_you_mean<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    (names.into_iter())
        .find(|n| n.eq_ignore_ascii_case(typed))
        .map_or(String::new(), |n| format!(" (did you mean `{n}`?)"))
}

fn names<T>(items: &[T], name: impl Fn(&T) -> &'static str) -> String {
    let mut list: Vec<&str> = items.iter().map(name).collect();
    list.dedup();
    list.join(", ")
}

/// `explain` for a path that starts with a register file's name.
pub fn explain(file: &'static RegFileMeta, rest: Option<&str>) -> Result<String, CliError> {
    let mut parts = rest
        .map(|r| r.split('.').collect::<Vec<_>>())
        .unwrap_or_default();
    if parts.len() > 3 {
        return Err(CliError::Usage(format!(
            "`{}.{}`: a register path is FILE.BUNDLE.register.field at most",
            file.name,
            parts.join(".")
        )));
    }
    let mut out = String::new();
    let Some(bundle_part) = parts.first().copied() else {
        file_text(file, &mut out);
        return Ok(out);
    };
    let (bundle_name, index) = split_index(bundle_part)?;
    let bundle = (file.bundles.iter().find(|b| b.name == bundle_name)).ok_or_else(|| {
        CliError::Usage(format!(
            "`{}` has no bundle `{bundle_name}`{} (bundles: {})",
            file.name,
            did_you_mean(bundle_name, file.bundles.iter().map(|b| b.name)),
            names(file.bundles, |b| b.name)
        ))
    })?;
    if let Some(i) = index
        && i >= bundle.count
    {
        return Err(CliError::Usage(format!(
            "`{}.{bundle_name}` has {} element(s): index {i} is out of range",
            file.name, bundle.count
        )));
    }
    parts.remove(0);
    let Some(reg_name) = parts.first().copied() else {
        bundle_text(file, bundle, &mut out);
        return Ok(out);
    };
    let layouts: Vec<&RegisterMeta> = bundle
        .registers
        .iter()
        .filter(|r| r.name == reg_name)
        .collect();
    if layouts.is_empty() {
        return Err(CliError::Usage(format!(
            "bundle `{}.{}` has no register `{reg_name}`{} (registers: {})",
            file.name,
            bundle.name,
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
                return Err(CliError::Usage(format!(
                    "register `{path}` has no field `{field}`{} (fields: {})",
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

fn bits(x: &RegFieldMeta) -> String {
    if x.width == 1 {
        format!("[{}]", x.lsb)
    } else {
        format!("[{}:{}]", x.lsb + x.width - 1, x.lsb)
    }
}

/// `dmaspec regs`'s options.
pub struct DumpArgs {
    pub file: String,
    pub arch: Arch,
    /// `M2S_Q[3]`: the dump is of this bundle element only.
    pub bundle: Option<String>,
    pub hex: bool,
    /// Hex text of 32-bit values, one per 4-byte slot from the dump's first byte.
    pub words: bool,
    pub json: bool,
    pub input: Option<PathBuf>,
}

/// What the dump covers: its first byte's offset in the window and its length.
struct Window {
    start: u64,
    values: Vec<u32>,
}

impl Window {
    fn get(&self, offset: u64) -> Option<u32> {
        let i = offset.checked_sub(self.start)? / 4;
        self.values.get(usize::try_from(i).ok()?).copied()
    }
}

pub fn dump(args: &DumpArgs) -> Result<(), CliError> {
    let file = find(&args.file).ok_or_else(|| {
        CliError::Usage(format!(
            "no register file `{}` (register files: {})",
            args.file,
            names(REGFILES, |f| f.name)
        ))
    })?;
    let arch = args.arch.name();
    if !file.archs.contains(&arch) {
        return Err(CliError::Usage(format!(
            "`{}` does not exist on {arch} (it is on {})",
            file.name,
            file.archs.join(", ")
        )));
    }
    let (start, span) = match &args.bundle {
        None => (0, file.size_on(arch)),
        Some(b) => bundle_window(file, arch, b)?,
    };
    let values = read_values(args, span)?;
    let window = Window { start, values };
    let rows = rows(file, arch, &window, args.bundle.is_some());
    let unmapped = unmapped(&window, &rows);
    if args.json {
        let doc = json!({
            "regfile": file.name,
            "arch": arch,
            "start": start,
            "bytes": window.values.len() * 4,
            "registers": rows.iter().map(Row::json).collect::<Vec<_>>(),
            "unmapped": unmapped.iter().map(|(offset, value)| json!({
                "offset": offset,
                "value": value,
            })).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&doc).map_err(std::io::Error::from)?;
        super::output::print(&format!("{text}\n"))
    } else {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} ({arch}): {} bytes from {:#x}, {} registers",
            file.name,
            window.values.len() * 4,
            start,
            rows.len()
        );
        for r in &rows {
            r.text(&mut out);
        }
        for (offset, value) in &unmapped {
            let _ = writeln!(out, "{offset:#07x}  (no register declared)  {value:#010x}");
        }
        super::output::print(&out)
    }
}

/// `M2S_Q[3]` as (`M2S_Q`, Some(3)), `M2S` as (`M2S`, None).
fn split_index(spec: &str) -> Result<(&str, Option<u64>), CliError> {
    match spec.split_once('[') {
        Some((n, i)) => {
            let i = i
                .strip_suffix(']')
                .and_then(|i| i.trim().parse::<u64>().ok())
                .ok_or_else(|| {
                    CliError::Usage(format!(
                        "`{spec}`: write a bundle element as NAME[INDEX], e.g. M2S_Q[3]"
                    ))
                })?;
            Ok((n, Some(i)))
        }
        None => Ok((spec, None)),
    }
}

/// Where element `spec` (`M2S_Q[3]`, or `M2S` for a single bundle) starts, and its size.
fn bundle_window(file: &RegFileMeta, arch: &str, spec: &str) -> Result<(u64, u64), CliError> {
    let (name, index) = split_index(spec)?;
    let index = index.unwrap_or(0);
    let b = (file.bundles.iter())
        .find(|b| b.name == name && b.archs.contains(&arch))
        .ok_or_else(|| {
            let here: Vec<&'static BundleMeta> = (file.bundles.iter())
                .filter(|b| b.archs.contains(&arch))
                .collect();
            let elsewhere = (file.bundles.iter())
                .find(|b| b.name == name)
                .map_or(String::new(), |b| {
                    format!(" (it is on {})", b.archs.join(", "))
                });
            CliError::Usage(format!(
                "`{}` has no bundle `{name}` on {arch}{elsewhere}{} (bundles on {arch}: {})",
                file.name,
                did_you_mean(name, here.iter().map(|b| b.name)),
                names(&here, |b| b.name)
            ))
        })?;
    if index >= b.count {
        return Err(CliError::Usage(format!(
            "`{name}` has {} element(s): index {index} is out of range",
            b.count
        )));
    }
    Ok((b.offset + index * b.stride, b.size))
}

fn read_values(args: &DumpArgs, span: u64) -> Result<Vec<u32>, CliError> {
    let name = input::name(args.input.as_deref());
    let mut values = Vec::new();
    let limit = usize::try_from(span / 4).unwrap_or(usize::MAX);
    if args.words {
        let mut text = String::new();
        input::open(args.input.as_deref())?
            .read_to_string(&mut text)
            .map_err(|error| CliError::Io {
                path: name.clone(),
                write: false,
                error,
            })?;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            for token in line.split_whitespace() {
                let digits = token
                    .strip_prefix("0x")
                    .or_else(|| token.strip_prefix("0X"))
                    .unwrap_or(token);
                let v = u32::from_str_radix(digits, 16).map_err(|_| {
                    CliError::BadFile(format!(
                        "{name}:{}: `{token}` is not a 32-bit hex value (--words reads one value per register slot, e.g. 0x40000000)",
                        n + 1
                    ))
                })?;
                values.push(v);
            }
        }
    } else {
        let mut reader =
            WordReader::new(input::open(args.input.as_deref())?, args.hex, name.clone());
        let mut buf = [0u8; 4];
        while reader
            .next_into(&mut buf, "register")
            .map_err(CliError::Input)?
        {
            values.push(u32::from_le_bytes(buf));
            if values.len() > limit {
                break;
            }
        }
    }
    if values.is_empty() {
        return Err(CliError::BadFile(format!(
            "{name} holds no register values: the dump is empty"
        )));
    }
    if values.len() > limit {
        return Err(CliError::BadFile(format!(
            "{name} holds more than the {span:#x} bytes of the window it dumps: give a dump \
             of the whole file, or --bundle NAME[INDEX] for one element"
        )));
    }
    Ok(values)
}

/// The nonzero slots of the dump where the spec declares no register: kept raw, since a
/// register the pages do not give is not a register that reads zero.
fn unmapped(w: &Window, rows: &[Row]) -> Vec<(u64, u32)> {
    (w.values.iter().enumerate())
        .map(|(i, &v)| (w.start + 4 * i as u64, v))
        .filter(|&(offset, v)| v != 0 && rows.binary_search_by_key(&offset, |r| r.offset).is_err())
        .collect()
}

struct Row {
    offset: u64,
    bundle: String,
    register: &'static RegisterMeta,
    value: u32,
    fields: Vec<&'static RegFieldMeta>,
}

fn rows(file: &'static RegFileMeta, arch: &str, w: &Window, one_bundle: bool) -> Vec<Row> {
    let mut out = Vec::new();
    for b in file.bundles.iter().filter(|b| b.archs.contains(&arch)) {
        for i in 0..b.count {
            let base = b.offset + i * b.stride;
            if one_bundle && base != w.start {
                continue;
            }
            let label = if b.count > 1 {
                format!("{}[{i}]", b.name)
            } else {
                b.name.to_string()
            };
            for r in b.registers.iter().filter(|r| r.on(arch)) {
                let offset = base + r.offset;
                if let Some(value) = w.get(offset) {
                    out.push(Row {
                        offset,
                        bundle: label.clone(),
                        register: r,
                        value,
                        fields: r
                            .fields
                            .iter()
                            .filter(|f| f.archs.contains(&arch))
                            .collect(),
                    });
                }
            }
        }
    }
    out.sort_by_key(|r| r.offset);
    out
}

impl Row {
    fn unknown(&self) -> u32 {
        let known = self.fields.iter().fold(0u64, |m, f| m | f.mask());
        self.value & !(known as u32)
    }

    fn enumerator(f: &RegFieldMeta, v: u64) -> Option<&'static str> {
        f.enumerators
            .and_then(|(_, list)| list.iter().find(|(_, x)| *x == v).map(|(n, _)| *n))
    }

    fn text(&self, out: &mut String) {
        let r = self.register;
        let wo = if r.access == "WO" {
            "  (WO: what a read returns is not the written value)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:#07x}  {}.{}  {:#010x}  {}{wo}",
            self.offset, self.bundle, r.name, self.value, r.access
        );
        for f in &self.fields {
            let v = f.get(u64::from(self.value));
            let name = Self::enumerator(f, v).map_or(String::new(), |n| format!(" {n}"));
            let reset = match f.reset {
                Some(x) if x != v => format!("  (reset {x:#x})"),
                _ => String::new(),
            };
            let _ = writeln!(out, "    {:<7} {:<28} {v:#x}{name}{reset}", bits(f), f.name);
        }
        let unknown = self.unknown();
        if unknown != 0 {
            let _ = writeln!(out, "    unknown bits {unknown:#010x}");
        }
    }

    fn json(&self) -> Json {
        let r = self.register;
        let fields: Vec<Json> = (self.fields.iter())
            .map(|f| {
                let v = f.get(u64::from(self.value));
                json!({
                    "name": f.name,
                    "lsb": f.lsb,
                    "width": f.width,
                    "value": v,
                    "enumerator": Self::enumerator(f, v),
                    "reset": f.reset,
                })
            })
            .collect();
        json!({
            "offset": self.offset,
            "bundle": self.bundle,
            "register": r.name,
            "access": r.access,
            "value": self.value,
            "reset": r.reset,
            "fields": fields,
            "unknown_bits": self.unknown(),
        })
    }
}
