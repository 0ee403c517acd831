//! Reading a NEFF, the compiler's output: the 1024-byte `neff_header_t` (`header`), its
//! payload hashed and unpacked in bounded memory (`payload`), the member tree the loader
//! follows (`tree`) and the engine streams decoded as `decode` decodes them (`streams`).
//! `dmaspec neff` prints it; the JSON here is its `--json`.

pub mod header;
pub mod payload;
pub mod streams;
pub mod tree;

use std::io::Read;

use dmaspec::Arch;
use serde_json::{Map, Value as Json, json};

use dmaspec::json::hex_string;
use header::{Header, Package};
use payload::{EntryKind, Limits, Payload};
use tree::{Files, Tree};

/// One NEFF read end to end, its digest verified.
#[derive(Debug, Clone)]
pub struct Neff {
    pub header: Header,
    pub package: Package,
    pub payload: Payload,
    pub tree: Tree,
}

impl Neff {
    /// Reads a NEFF from `input` (`input_len`: its length when known, for the data-fit
    /// gate). Every refusal is one line: a failed gate, a truncated input, a digest that
    /// does not match, a payload past `limits`, a bad gzip, tar or JSON member.
    pub fn read(
        input: &mut dyn Read,
        input_len: Option<u64>,
        limits: &Limits,
    ) -> Result<Neff, String> {
        let header = Header::read(input)?;
        let package = header.gate(input_len)?;
        let expected = header.expected_digest(package);
        let mismatch = |digest: &[u8]| {
            format!(
                "{} mismatch: the header says {}, the payload hashes to {}",
                digest_name(package),
                hex_string(expected),
                hex_string(digest)
            )
        };
        let payload = match payload::unpack(input, header.data_size, package, limits) {
            Ok(p) if p.digest != expected => return Err(mismatch(&p.digest)),
            Ok(p) => p,
            Err(f) => match f.digest {
                Some(d) if d != expected => return Err(mismatch(&d)),
                _ => return Err(f.message),
            },
        };
        let tree = Tree::follow(&Files::new(&payload.members))?;
        Ok(Neff {
            header,
            package,
            payload,
            tree,
        })
    }

    /// The `--json` document.
    pub fn to_json(&self, arch: Arch) -> Json {
        let h = &self.header;
        let members: Vec<Json> = (self.payload.members.iter())
            .map(|m| {
                let kind = match m.kind {
                    EntryKind::File => "file".to_string(),
                    EntryKind::Dir => "dir".to_string(),
                    EntryKind::Other(t) => format!("typeflag {}", char::from(t)),
                };
                json!({ "name": m.name, "kind": kind, "size": m.size, "dropped": m.dropped })
            })
            .collect();
        let t = &self.tree;
        let graphs: Vec<Json> = t.graphs.iter().map(|g| graph_json(g, arch)).collect();
        let dangling: Vec<Json> = (t.dangling.iter())
            .map(|(from, key, member)| json!({ "from": from, "key": key, "member": member }))
            .collect();
        json!({
            "header": {
                "pkg_version": h.pkg_version,
                "header_size": h.header_size,
                "data_size": h.data_size,
                "neff_version_major": h.neff_version_major,
                "neff_version_minor": h.neff_version_minor,
                "build_version": String::from_utf8_lossy(&h.build_version),
                "unused_0": h.unused_0,
                "hash": hex_string(&h.hash),
                "uuid": h.uuid_text(),
                "name": String::from_utf8_lossy(&h.name),
                "requested_tpb_count": h.requested_tpb_count,
                "tpb_per_node": h.tpb_per_node.to_vec(),
                "feature_bits": h.feature_bits,
                "vnc_size": h.vnc_size,
            },
            "package": self.package.describe(),
            "digest": {
                "algorithm": digest_name(self.package),
                "over_bytes": h.data_size,
                "value": hex_string(&self.payload.digest),
                "verified": true,
            },
            "unpacked_bytes": self.payload.unpacked,
            "members": members,
            "kelf": { "member": t.kelf, "named_by": t.kelf_named_by, "version": t.version, "target": t.target },
            "graphs": graphs,
            "dangling": dangling,
        })
    }
}

/// The digest's name for `package`.
pub fn digest_name(package: Package) -> &'static str {
    match package {
        Package::RawTar => "SHA-256",
        Package::GzipTar => "MD5",
    }
}

fn table_json(rows: &[(String, Map<String, Json>)]) -> Json {
    let rows: Vec<Json> = (rows.iter())
        .map(|(name, obj)| {
            let mut o = Map::new();
            o.insert("name".into(), json!(name));
            o.extend(obj.clone());
            Json::Object(o)
        })
        .collect();
    Json::Array(rows)
}

fn graph_json(g: &tree::Graph, arch: Arch) -> Json {
    let engines: Vec<Json> = (g.engines.iter())
        .map(|e| {
            let stream = match &e.instr {
                Some((_, Some(bytes))) => streams::stream_json(e.name, bytes, arch),
                _ => Json::Null,
            };
            json!({
                "engine": e.name,
                "json": e.json,
                "dma": e.dma,
                "instr": e.instr.as_ref().map(|(name, _)| name),
                "stream": stream,
            })
        })
        .collect();
    json!({
        "name": g.name,
        "definition": g.definition,
        "dma_queue": table_json(&g.queues),
        "var": table_json(&g.vars),
        "engines": engines,
    })
}
