//! `dmaspec regs [FILE] [--base ADDRESS] [--bundle B] [--hex|--words] [--json]`: a dump of
//! a register file's window decoded register by register (the decoding is
//! `dmaspec::verbs::dump`); unknown bits are kept raw.

use dmaspec::Arch;
use dmaspec::names::echo;
use dmaspec::verbs::Error;
use dmaspec::verbs::dump::{Dump, Reading, Request, Slots, Target, enumerator};
use dmaspec::verbs::input::{self, WordReader};
use dmaspec::verbs::place;
use dmaspec::verbs::registers::{bits, find};
use serde_json::{Value as Json, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::CliError;

/// Decode a dump of a register file's window (or, with --bundle, of one bundle
/// element; with --base, one taken at an absolute MMIO address): every register's fields
/// on the architecture, unknown bits kept raw.
#[derive(clap::Args)]
pub struct RegsArgs {
    /// The register file (`UDMA_M2S`); optional with --base, which the address map names.
    #[arg(required_unless_present = "base")]
    pub file: Option<String>,
    /// Input file; `-` or absent for stdin.
    pub input: Option<PathBuf>,
    /// Architecture: sunda, cayman, mariana, maverick.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// The dump is of this bundle element only (`M2S_Q[3]`, or `M2S`).
    #[arg(long)]
    pub bundle: Option<String>,
    /// The dump was taken at this absolute MMIO address (`0x1002506000`): the address map
    /// names the instance and register file, and every register gets its address.
    #[arg(long)]
    pub base: Option<String>,
    /// Input is hex text of bytes (little-endian registers), as decode reads.
    #[arg(long, conflicts_with = "words")]
    pub hex: bool,
    /// Input is hex text of 32-bit values, one per 4-byte slot from the dump's start
    /// (`0x40000000`; `#` comments).
    #[arg(long)]
    pub words: bool,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &RegsArgs) -> Result<(), CliError> {
    let base = args.base.as_deref().map(place::parse_address).transpose()?;
    // With --base the one positional may be the dump: a register file's name is FILE (to
    // be checked against the map), anything else the input.
    let (file, input) = match (&args.file, &args.input) {
        (Some(f), None) if base.is_some() && find(f).is_err() => (None, Some(PathBuf::from(f))),
        (f, i) => (f.clone(), i.clone()),
    };
    let request = Request {
        file: file.as_deref(),
        bundle: args.bundle.as_deref(),
        base,
    };
    let target = Target::new(request, args.arch)?;
    let name = input::name(input.as_deref());
    let slots = read_values(args, input.as_deref(), &target)?;
    let dump = Dump::new(target, slots, &name)?;
    let text = if args.json {
        let text = serde_json::to_string_pretty(&json_doc(&dump)).map_err(std::io::Error::from)?;
        format!("{text}\n")
    } else {
        table(&dump)
    };
    super::output::print(&text)
}

fn table(dump: &Dump) -> String {
    let t = &dump.target;
    let mut out = String::new();
    let at = |offset: u64| {
        t.address(offset)
            .map_or(String::new(), |a| format!("  {a:#x}"))
    };
    match t.placed {
        Some(p) => {
            let _ = writeln!(
                out,
                "{} ({}) at {}'s {} (base {:#x}): {} bytes from {:#x} ({:#x}{}), {} registers",
                t.file.name,
                t.arch,
                p.instance,
                p.part.name,
                p.file_base(),
                dump.bytes,
                t.start,
                p.file_base() + t.start,
                t.element
                    .as_ref()
                    .map_or(String::new(), |e| format!(", {e}")),
                dump.readings.len()
            );
        }
        None => {
            let _ = writeln!(
                out,
                "{} ({}): {} bytes from {:#x}, {} registers",
                t.file.name,
                t.arch,
                dump.bytes,
                t.start,
                dump.readings.len()
            );
        }
    }
    for r in &dump.readings {
        row_text(r, &at(r.offset), &mut out);
    }
    for &(offset, value) in &dump.unmapped {
        let _ = writeln!(
            out,
            "{offset:#07x}{}  (no register declared)  {value:#010x}",
            at(offset)
        );
    }
    if let Some((left, end)) = dump.left() {
        let _ = writeln!(out, "{left}: decode them with --base {end:#x}");
    }
    out
}

fn row_text(row: &Reading, at: &str, out: &mut String) {
    let r = row.register;
    let wo = if r.access == "WO" {
        "  (WO: what a read returns is not the written value)"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "{:#07x}{at}  {}.{}  {:#010x}  {}{wo}",
        row.offset,
        row.element(),
        r.name,
        row.value,
        r.access
    );
    for f in &row.fields {
        let v = row.get(f);
        let name = enumerator(f, v).map_or(String::new(), |n| format!(" {n}"));
        let reset = match f.reset {
            Some(x) if x != v => format!("  (reset {x:#x})"),
            _ => String::new(),
        };
        let _ = writeln!(out, "    {:<7} {:<28} {v:#x}{name}{reset}", bits(f), f.name);
    }
    let unknown = row.unknown();
    if unknown != 0 {
        let _ = writeln!(out, "    unknown bits {unknown:#010x}");
    }
}

/// The dump as one document; a placed dump adds where it lies and each slot's address.
fn json_doc(dump: &Dump) -> Json {
    let t = &dump.target;
    let mut doc = json!({
        "regfile": t.file.name,
        "arch": t.arch,
        "start": t.start,
        "bytes": dump.bytes,
        "registers": dump.readings.iter().map(|r| row_json(r, t)).collect::<Vec<_>>(),
        "unmapped": dump.unmapped.iter().map(|&(offset, value)| {
            let mut slot = json!({ "offset": offset, "value": value });
            if let Some(a) = t.address(offset) {
                slot["address"] = json!(a);
            }
            slot
        }).collect::<Vec<_>>(),
    });
    if let Some(p) = t.placed {
        doc["instance"] = json!(p.instance.to_string());
        doc["part"] = json!(p.part.name);
        doc["file_base"] = json!(p.file_base());
        doc["base"] = json!(p.file_base() + t.start);
        doc["element"] = json!(t.element);
        doc["undecoded_bytes"] = json!(dump.beyond);
        doc["next"] = json!(dump.left().map(|(_, end)| end));
    }
    doc
}

fn row_json(row: &Reading, t: &Target) -> Json {
    let r = row.register;
    let fields: Vec<Json> = (row.fields.iter())
        .map(|f| {
            let v = row.get(f);
            json!({
                "name": f.name,
                "lsb": f.lsb,
                "width": f.width,
                "value": v,
                "enumerator": enumerator(f, v),
                "reset": f.reset,
            })
        })
        .collect();
    let mut doc = json!({
        "offset": row.offset,
        "bundle": row.element(),
        "register": r.name,
        "access": r.access,
        "value": row.value,
        "reset": r.reset,
        "fields": fields,
        "unknown_bits": row.unknown(),
    });
    if let Some(a) = t.address(row.offset) {
        doc["address"] = json!(a);
    }
    doc
}

/// The most `--words` text read: 16 MiB. The largest window (EVT_SEM's, 1 MiB) is under
/// 3 MB of values, with room for comments; the values are held, not the text parsed.
const MAX_WORDS_TEXT: usize = 16 << 20;

/// The dump's values (`--words` text, or raw / hex bytes as decode reads them).
fn read_values(args: &RegsArgs, path: Option<&Path>, target: &Target) -> Result<Slots, CliError> {
    let name = input::name(path);
    let mut slots = Slots::new(target);
    if args.words {
        let text = input::read_text(path.unwrap_or(Path::new("-")), MAX_WORDS_TEXT)?;
        'lines: for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            for token in line.split_whitespace() {
                let digits = token
                    .strip_prefix("0x")
                    .or_else(|| token.strip_prefix("0X"))
                    .unwrap_or(token);
                let v = u32::from_str_radix(digits, 16).map_err(|_| {
                    Error::BadFile(format!(
                        "{name}:{}: `{}` is not a 32-bit hex value (--words reads one value per register slot, e.g. 0x40000000)",
                        n + 1,
                        echo(token)
                    ))
                })?;
                if !slots.push(v) {
                    break 'lines;
                }
            }
        }
    } else {
        slots.read(&mut WordReader::new(input::open(path)?, args.hex, name))?;
    }
    Ok(slots)
}
