//! `dmaspec neff FILE [--json]`: reads a NEFF end to end — the 1024-byte header with every
//! field named, the digest verified, the tar members, the member tree (kelf descriptor →
//! `sgNN/def.json` → engines), def.json's DMA parts (`dma_queue`, `var`, the engines' `dma`
//! blocks) and each engine stream decoded as `decode` decodes it. A NEFF the loader would
//! refuse, or one past the reader's limits, is one error line and exit 1.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;

use dmaspec::Arch;
use dmaspec::names::echo_within;
use dmaspec::verbs::Error;
use serde_json::{Map, Value as Json};

use super::CliError;
use super::container::header::FIELDS;
use super::container::payload::{EntryKind, Limits};
use super::container::tree::Graph;
use super::container::{Neff, digest_name, streams};
use dmaspec::json::hex_string;

/// Read a NEFF (the compiler's model container): header, digest, members, DMA queues and
/// engine streams.
#[derive(clap::Args)]
pub struct NeffArgs {
    /// Architecture the engine streams are decoded for: sunda, cayman, mariana, maverick.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Refuse a NEFF with more tar members than this.
    #[arg(long, default_value_t = Limits::default().members, value_name = "N")]
    pub max_members: usize,
    /// Refuse a NEFF with a member larger than this many MiB.
    #[arg(long, default_value_t = Limits::default().member_bytes >> 20, value_name = "MIB")]
    pub max_member_mib: u64,
    /// Refuse a NEFF with a JSON member larger than this many MiB (parsed whole).
    #[arg(long, default_value_t = Limits::default().json_bytes >> 20, value_name = "MIB")]
    pub max_json_mib: u64,
    /// Refuse a NEFF whose payload unpacks to more than this many MiB (a gzip bomb).
    #[arg(long, default_value_t = Limits::default().unpacked_bytes >> 20, value_name = "MIB")]
    pub max_unpacked_mib: u64,
    /// The NEFF file; `-` for stdin.
    pub input: PathBuf,
}

impl NeffArgs {
    fn limits(&self) -> Limits {
        let mib = |n: u64| n.saturating_mul(1 << 20);
        Limits {
            members: self.max_members,
            member_bytes: mib(self.max_member_mib),
            json_bytes: mib(self.max_json_mib),
            unpacked_bytes: mib(self.max_unpacked_mib),
        }
    }
}

pub fn run(args: &NeffArgs) -> Result<(), CliError> {
    let name = dmaspec::verbs::input::name(Some(&args.input));
    let limits = args.limits();
    let read = if args.input.as_os_str() == "-" {
        Neff::read(&mut io::stdin().lock(), None, &limits)
    } else {
        let file = File::open(&args.input).map_err(|e| Error::read(&args.input, e))?;
        let len = file.metadata().ok().map(|m| m.len());
        let mut input = BufReader::with_capacity(1 << 16, file);
        Neff::read(&mut input as &mut dyn Read, len, &limits)
    };
    let neff = read.map_err(|e| Error::BadFile(format!("{name}: not a NEFF this reads: {e}")))?;
    if args.json {
        let mut text = serde_json::to_string_pretty(&neff.to_json(args.arch))
            .map_err(|e| Error::BadFile(e.to_string()))?;
        text.push('\n');
        super::output::print(&text)
    } else {
        super::output::print(&text(&neff, args.arch))
    }
}

/// The text report.
pub fn text(neff: &Neff, arch: Arch) -> String {
    let mut s = String::new();
    header_text(&mut s, neff);
    let p = &neff.payload;
    let _ = writeln!(
        s,
        "\nmembers ({}, {} bytes unpacked):",
        p.members.len(),
        p.unpacked
    );
    for m in &p.members {
        let what = match m.kind {
            EntryKind::File => format!("{} bytes", m.size),
            EntryKind::Dir => "directory (skipped)".to_string(),
            EntryKind::Other(t) => format!("typeflag {} (not kept)", char::from(t)),
        };
        let dropped = m.dropped.map(|d| format!(" — {d}")).unwrap_or_default();
        let _ = writeln!(s, "  {:<24} {what}{dropped}", shown(&m.name));
    }
    let t = &neff.tree;
    let _ = writeln!(
        s,
        "\nkelf: {} (named by {}), version {}, target {}",
        shown(&t.kelf),
        t.kelf_named_by,
        shown(t.version.as_deref().unwrap_or("-")),
        shown(t.target.as_deref().unwrap_or("-"))
    );
    for g in &t.graphs {
        graph_text(&mut s, g, arch);
    }
    if !t.dangling.is_empty() {
        let _ = writeln!(
            s,
            "\nreferenced but absent (tolerated, as the loader does):"
        );
        for (from, key, member) in &t.dangling {
            let _ = writeln!(s, "  {}  ({}: {key})", shown(member), shown(from));
        }
    }
    s
}

fn header_text(s: &mut String, neff: &Neff) {
    let h = &neff.header;
    let _ = writeln!(
        s,
        "neff_header_t (1024 bytes), pkg_version {}: {}",
        h.pkg_version,
        neff.package.describe()
    );
    for (name, off, width) in FIELDS {
        let value = match name {
            "pkg_version" => h.pkg_version.to_string(),
            "header_size" => format!("{:#x}", h.header_size),
            "data_size" => format!("{:#x} ({})", h.data_size, h.data_size),
            "neff_version_major" => h.neff_version_major.to_string(),
            "neff_version_minor" => h.neff_version_minor.to_string(),
            "build_version" => format!("{:?}", String::from_utf8_lossy(&h.build_version)),
            "unused_0" => h.unused_0.to_string(),
            "hash" => hex_string(&h.hash),
            "uuid" => h.uuid_text(),
            "name" => format!("{:?}", String::from_utf8_lossy(&h.name)),
            "requested_tpb_count" => h.requested_tpb_count.to_string(),
            "tpb_per_node" if h.tpb_per_node.iter().all(|&b| b == 0) => "all 0".to_string(),
            "tpb_per_node" => hex_string(&h.tpb_per_node),
            "feature_bits" => format!("{:#x}", h.feature_bits),
            _ => h.vnc_size.to_string(),
        };
        let _ = writeln!(s, "  +{off:#05x} {width:>3}  {name:<20} {value}");
    }
    let expected = h.expected_digest(neff.package);
    let _ = writeln!(
        s,
        "digest: {} {} over the {} payload bytes: verified",
        digest_name(neff.package),
        hex_string(expected),
        h.data_size
    );
}

/// A name or value from the NEFF as one line of the report shows it: quoted with escapes
/// when it holds a control character (a newline would break the line), cut as messages
/// cut what they repeat.
fn shown(text: &str) -> String {
    let text = if text.chars().any(char::is_control) {
        format!("{text:?}")
    } else {
        text.to_string()
    };
    echo_within(&text, ECHO).into_owned()
}

/// How many characters of a name or value from the NEFF a line shows.
const ECHO: usize = 100;

/// `key=value` for every entry of `obj`, JSON values compact.
fn others(obj: &Map<String, Json>) -> String {
    (obj.iter())
        .map(|(k, v)| match v {
            Json::String(t) => format!(" {}={}", shown(k), shown(t)),
            other => format!(" {}={}", shown(k), shown(&other.to_string())),
        })
        .collect()
}

fn graph_text(s: &mut String, g: &Graph, arch: Arch) {
    let _ = writeln!(s, "\ngraph {} ({}):", shown(&g.name), shown(&g.definition));
    let _ = writeln!(s, "  dma_queue ({}):", g.queues.len());
    for (name, q) in &g.queues {
        let _ = writeln!(s, "    {}:{}", shown(name), others(q));
    }
    let _ = writeln!(s, "  var ({}):", g.vars.len());
    for (name, v) in &g.vars {
        let _ = writeln!(s, "    {}:{}", shown(name), others(v));
    }
    for e in &g.engines {
        let Some(json) = &e.json else {
            let _ = writeln!(
                s,
                "  engine {}: not in def.json (empty placeholder)",
                e.name
            );
            continue;
        };
        let _ = writeln!(
            s,
            "  engine {} ({}): {} dma block(s)",
            e.name,
            shown(json),
            e.dma.len()
        );
        for block in &e.dma {
            // Compact JSON escapes control characters itself.
            let _ = writeln!(s, "    dma {block}");
        }
        match &e.instr {
            Some((name, Some(bytes))) => stream_text(s, e.name, name, bytes, arch),
            Some((name, None)) => {
                let _ = writeln!(s, "    instr {}: absent", shown(name));
            }
            None => {
                let _ = writeln!(s, "    no instr");
            }
        }
    }
}

fn stream_text(s: &mut String, engine: &str, name: &str, bytes: &[u8], arch: Arch) {
    let stream = streams::stream_json(engine, bytes, arch);
    let _ = writeln!(
        s,
        "    instr {}: {} bytes, {} slot(s) of {} bytes{}",
        shown(name),
        bytes.len(),
        stream["slots"],
        stream["slot_bytes"],
        match stream["trailing_bytes"].as_u64() {
            Some(0) | None => String::new(),
            Some(n) => format!(", {n} trailing byte(s)"),
        }
    );
    for ins in stream["instructions"].as_array().into_iter().flatten() {
        let _ = writeln!(s, "      {}", slot_line(ins));
    }
}

/// One slot on a line: where, opcode, word and its fields as decode's JSON names them.
fn slot_line(ins: &Json) -> String {
    let at = format!(
        "#{} +{:#05x}",
        ins["index"],
        ins["offset"].as_u64().unwrap_or(0)
    );
    if let Some(hex) = ins["hex"].as_str() {
        return format!("{at}  {hex}");
    }
    let opcode = ins["opcode"].as_u64().unwrap_or(0);
    match ins["struct"].as_str() {
        Some(word) => {
            let mut fields = String::new();
            // The opcode and the word lead the line: the rest of the header would repeat them.
            if let Some(m) = ins["fields"].as_object() {
                for (k, v) in m.iter().filter(|(k, _)| k.as_str() != "header") {
                    flatten(&mut fields, k, v);
                }
            }
            format!("{at}  {opcode:#04x} {word}{fields}")
        }
        None => format!(
            "{at}  {opcode:#04x} not decoded: {}",
            ins["error"].as_str().unwrap_or("")
        ),
    }
}

/// ` path=value` for every leaf of decode's `fields` object; an enum (`{raw, name}`) by its
/// enumerator's name, its raw value when it has none.
fn flatten(out: &mut String, path: &str, v: &Json) {
    match v {
        Json::Object(m) if m.len() == 2 && m.contains_key("raw") && m.contains_key("name") => {
            let shown = if m["name"].is_null() {
                &m["raw"]
            } else {
                &m["name"]
            };
            flatten(out, path, shown);
        }
        Json::Object(m) => {
            for (k, v) in m {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                flatten(out, &p, v);
            }
        }
        Json::String(t) => {
            let _ = write!(out, " {path}={t}");
        }
        other => {
            let _ = write!(out, " {path}={other}");
        }
    }
}
