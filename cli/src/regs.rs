//! `dmaspec regs FILE [--bundle B] [--hex|--words] [--json]`: a dump of a register file's
//! window decoded register by register; unknown bits are kept raw.

use dmaspec::names::echo;

use dmaspec::verbs::Error;

use super::CliError;
use dmaspec::Arch;
use dmaspec::runtime::regs::{BundleMeta, RegFieldMeta, RegFileMeta, RegisterMeta};
use dmaspec::verbs::input::{self, WordReader};
use dmaspec::verbs::lookup::{did_you_mean, hint, named};
use dmaspec::verbs::registers::{bits, find, names, split_index};
use dmaspec::words::regs::REGFILES;
use serde_json::{Value as Json, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Decode a dump of a register file's window (or, with --bundle, of one bundle
/// element): every register's fields on the architecture, unknown bits kept raw.
#[derive(clap::Args)]
pub struct RegsArgs {
    /// The register file (`UDMA_M2S`).
    pub file: String,
    /// Architecture: sunda, cayman, mariana, maverick.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// The dump is of this bundle element only (`M2S_Q[3]`, or `M2S`).
    #[arg(long)]
    pub bundle: Option<String>,
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
    /// Input file; `-` or absent for stdin.
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

pub fn run(args: &RegsArgs) -> Result<(), CliError> {
    let file = find(&args.file).map_err(|guess| {
        let hint = hint(guess);
        Error::Usage(format!(
            "no register file `{}`{hint} (register files: {})",
            echo(&args.file),
            names(REGFILES, |f| f.name)
        ))
    })?;
    let arch = args.arch.name();
    if !file.archs.contains(&arch) {
        return Err(Error::Usage(format!(
            "`{}` does not exist on {arch} (it is on {})",
            file.name,
            file.archs.join(", ")
        ))
        .into());
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

/// Where element `spec` (`M2S_Q[3]`, or `M2S` for a single bundle) starts, and its size.
fn bundle_window(file: &RegFileMeta, arch: &str, spec: &str) -> Result<(u64, u64), CliError> {
    let (name, index) = split_index(spec)?;
    let here: Vec<&BundleMeta> = (file.bundles.iter())
        .filter(|b| b.archs.contains(&arch))
        .collect();
    let b = named(&here, |b| b.name, name).copied().map_err(|_| {
        let elsewhere = (file.bundles.iter())
            .find(|b| b.name == name)
            .map_or(String::new(), |b| {
                format!(" (it is on {})", b.archs.join(", "))
            });
        Error::Usage(format!(
            "`{}` has no bundle `{}` on {arch}{elsewhere}{} (bundles on {arch}: {})",
            file.name,
            echo(name),
            did_you_mean(name, here.iter().map(|b| b.name)),
            names(&here, |b| b.name)
        ))
    })?;
    // As the spec spells it (`m2s_q` names `M2S_Q`).
    let name = b.name;
    // An array's element must be named: element 0 is no likelier than the others.
    let index = match index {
        Some(i) => i,
        None if b.count == 1 => 0,
        None => {
            return Err(Error::Usage(format!(
                "`{name}` has {} elements: name one, `{name}[0]` to `{name}[{}]`",
                b.count,
                b.count - 1
            ))
            .into());
        }
    };
    if index >= b.count {
        return Err(Error::Usage(format!(
            "`{name}` has {} element(s): index {index} is out of range",
            b.count
        ))
        .into());
    }
    Ok((b.offset + index * b.stride, b.size))
}

/// The most `--words` text read: 16 MiB. The largest window (EVT_SEM's, 1 MiB) is under
/// 3 MB of values, with room for comments; the values are held, not the text parsed.
const MAX_WORDS_TEXT: usize = 16 << 20;

fn read_values(args: &RegsArgs, span: u64) -> Result<Vec<u32>, CliError> {
    let name = input::name(args.input.as_deref());
    let mut values = Vec::new();
    let limit = usize::try_from(span / 4).unwrap_or(usize::MAX);
    if args.words {
        let text = input::read_text(
            args.input.as_deref().unwrap_or(Path::new("-")),
            MAX_WORDS_TEXT,
        )?;
        // Past the window's last slot the dump is too long: no need to read on.
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
                values.push(v);
                if values.len() > limit {
                    break 'lines;
                }
            }
        }
    } else {
        let mut reader =
            WordReader::new(input::open(args.input.as_deref())?, args.hex, name.clone());
        let mut buf = [0u8; 4];
        while reader
            .next_into(&mut buf, "register")
            .map_err(Error::Input)?
        {
            values.push(u32::from_le_bytes(buf));
            if values.len() > limit {
                break;
            }
        }
    }
    if values.is_empty() {
        return Err(Error::BadFile(format!(
            "{name} holds no register values: the dump is empty"
        ))
        .into());
    }
    if values.len() > limit {
        return Err(Error::BadFile(format!(
            "{name} holds more than the {span:#x} bytes of the window it dumps: give a dump \
             of the whole file, or --bundle NAME[INDEX] for one element"
        ))
        .into());
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
