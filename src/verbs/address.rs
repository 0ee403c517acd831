//! What an absolute MMIO address names — `dmaspec addr`'s answer: the instance of the SoC
//! address map it falls in, the register file (engine) there, the bundle element, register
//! and fields; or the hole it falls in, between what. As text or one JSON document.

use std::fmt::Write as _;

use crate::runtime::addrmap::{AddrMapMeta, Instance, Location, PartMeta};
use crate::runtime::regs::{BundleMeta, RegFieldMeta, RegisterMeta};
use serde_json::{Value as Json, json};

use super::place;
use super::registers::{bits, find};

/// What the register file at an offset holds there.
pub struct InFile {
    bundle: &'static BundleMeta,
    /// `None` for a single bundle.
    index: Option<u64>,
    register: Option<(&'static RegisterMeta, Vec<&'static RegFieldMeta>)>,
    /// From the element's base.
    offset: u64,
}

pub enum Answer {
    Part {
        instance: Instance,
        part: &'static PartMeta,
        offset: u64,
        /// `None` for a reserved range, or an offset past every bundle.
        inside: Option<InFile>,
    },
    SlotHole {
        instance: Instance,
        offset: u64,
        below: Option<&'static PartMeta>,
        above: Option<&'static PartMeta>,
        /// The parts either side, in words.
        between: String,
    },
    Hole {
        below: Option<Instance>,
        above: Option<Instance>,
        between: String,
    },
}

impl Answer {
    /// What `address` falls in on `map`.
    pub fn of(map: &AddrMapMeta, address: u64) -> Answer {
        let location = map.locate(address);
        let between = place::hole(&location).unwrap_or_default();
        match location {
            Location::Part {
                instance,
                part,
                offset,
            } => {
                let inside = part.regfile.and_then(|f| in_file(f, map.arch, offset));
                Answer::Part {
                    instance,
                    part,
                    offset,
                    inside,
                }
            }
            Location::SlotHole {
                instance,
                below,
                above,
            } => Answer::SlotHole {
                instance,
                offset: address - instance.base(),
                below,
                above,
                between,
            },
            Location::Hole { below, above } => Answer::Hole {
                below,
                above,
                between,
            },
        }
    }

    /// `addr`'s text.
    pub fn text(&self, address: u64, arch: &str) -> String {
        let mut out = format!("{address:#x} ({arch})\n");
        match self {
            Answer::Part {
                instance,
                part,
                offset,
                inside,
            } => {
                let _ = writeln!(out, "  instance  {instance} (base {:#x})", instance.base());
                let what = match part.regfile {
                    Some(f) => format!("register file {f}"),
                    None => "reserved".to_string(),
                };
                let _ = writeln!(
                    out,
                    "  engine    {} at +{:#x} ({what}), offset {offset:#x}",
                    part.name, part.offset
                );
                match inside {
                    Some(i) => i.text(&mut out),
                    None if part.regfile.is_some() => {
                        let _ =
                            writeln!(out, "  register  none: no bundle declared at {offset:#x}");
                    }
                    None => {}
                }
            }
            Answer::SlotHole {
                instance,
                offset,
                between,
                ..
            } => {
                let _ = writeln!(out, "  instance  {instance} (base {:#x})", instance.base());
                let _ = writeln!(out, "  hole      at +{offset:#x}, {between}");
            }
            Answer::Hole { between, .. } => {
                let _ = writeln!(out, "  hole      {between}");
            }
        }
        out
    }

    /// `addr --json`'s document.
    pub fn json(&self, address: u64, arch: &str) -> Json {
        let instance =
            |i: &Instance| json!({ "name": i.to_string(), "base": i.base(), "end": i.end() });
        let part = |p: &PartMeta| json!({ "name": p.name, "regfile": p.regfile, "offset": p.offset, "size": p.size });
        let found = match self {
            Answer::Part {
                instance: i,
                part: p,
                offset,
                inside,
            } => json!({
                "instance": instance(i),
                "part": part(p),
                "offset": offset,
                "register": inside.as_ref().map(InFile::json),
            }),
            Answer::SlotHole {
                instance: i,
                offset,
                below,
                above,
                ..
            } => json!({
                "instance": instance(i),
                "offset": offset,
                "hole": { "below": below.map(part), "above": above.map(part) },
            }),
            Answer::Hole { below, above, .. } => json!({
                "hole": { "below": below.as_ref().map(instance), "above": above.as_ref().map(instance) },
            }),
        };
        json!({ "address": address, "arch": arch, "found": found })
    }
}

/// The bundle element, register and fields of `file` at `offset` on `arch` (the fields
/// that hold the byte `offset` names when it is not the register's first).
fn in_file(file: &str, arch: &'static str, offset: u64) -> Option<InFile> {
    let file = find(file).ok()?;
    let bundle = (file.bundles.iter()).find(|b| {
        b.archs.contains(&arch) && b.offset <= offset && offset < b.offset + b.count * b.stride
    })?;
    let from = offset - bundle.offset;
    let (index, within) = (from / bundle.stride, from % bundle.stride);
    let register = (bundle.registers.iter())
        .find(|r| r.on(arch) && r.offset <= within && within < r.offset + u64::from(r.width / 8))
        .map(|r| {
            let byte = (within - r.offset) as u32;
            // Every field from the register's first byte; from another, that byte's.
            let lane = (byte != 0).then_some(byte * 8);
            let fields = (r.fields_on(arch))
                .filter(|f| lane.is_none_or(|lo| f.lsb < lo + 8 && lo < f.lsb + f.width))
                .collect();
            (r, fields)
        });
    Some(InFile {
        bundle,
        index: (bundle.count > 1).then_some(index),
        register,
        offset: within,
    })
}

impl InFile {
    fn element(&self) -> String {
        match self.index {
            Some(i) => format!("{}[{i}]", self.bundle.name),
            None => self.bundle.name.to_string(),
        }
    }

    fn text(&self, out: &mut String) {
        let element = self.element();
        match &self.register {
            Some((r, fields)) => {
                let _ = writeln!(
                    out,
                    "  register  {element}.{} (+{:#x} in the element, {}, {} bits)",
                    r.name, r.offset, r.access, r.width
                );
                for f in fields {
                    let _ = writeln!(out, "  field     {} {} {}", f.name, bits(f), f.access);
                }
            }
            None => {
                let _ = writeln!(
                    out,
                    "  register  none declared at +{:#x} of {element}",
                    self.offset
                );
            }
        }
    }

    fn json(&self) -> Json {
        let (register, fields) = match &self.register {
            Some((r, fields)) => (
                Some(
                    json!({ "name": r.name, "offset": r.offset, "access": r.access, "width": r.width }),
                ),
                fields
                    .iter()
                    .map(|f| json!({ "name": f.name, "bits": bits(f), "access": f.access }))
                    .collect(),
            ),
            None => (None, Vec::new()),
        };
        json!({
            "bundle": self.bundle.name,
            "index": self.index,
            "offset": self.offset,
            "register": register,
            "fields": fields,
        })
    }
}
