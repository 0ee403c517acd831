//! Register dumps: what a dump of a register file's window holds, register by register —
//! the dump of a whole window, of one bundle element (`--bundle M2S_Q[3]`), or one taken at
//! an absolute MMIO base that the address map places (`--base 0x1002506000`). `dmaspec
//! regs` prints a [`Dump`]; the Python package returns its readings.

use crate::Arch;
use crate::names::echo;
use crate::runtime::addrmap::{Instance, Location, PartMeta};
use crate::runtime::regs::{BundleMeta, RegFieldMeta, RegFileMeta, RegisterMeta};
use crate::words::regs::REGFILES;

use super::Error;
use super::input::WordReader;
use super::lookup::{did_you_mean, hint, named};
use super::place;
use super::registers::{find, names, split_index};

/// Where a dump taken at an absolute base lies in the SoC.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    pub instance: Instance,
    /// The register file's window in the instance's slot.
    pub part: &'static PartMeta,
}

impl Placement {
    /// The absolute address of the register file's first byte.
    pub fn file_base(&self) -> u64 {
        self.instance.base() + self.part.offset
    }
}

/// What a dump is of, before its bytes are read.
#[derive(Debug, Clone)]
pub struct Target {
    pub file: &'static RegFileMeta,
    pub arch: &'static str,
    /// The dump's first byte, from the register file's base.
    pub start: u64,
    /// How many bytes from `start` the dump may cover.
    pub span: u64,
    /// `--bundle`: only that element's registers are decoded.
    pub one_bundle: bool,
    /// The bundle element the dump starts in (`M2S_Q[5]`), if any.
    pub element: Option<String>,
    pub placed: Option<Placement>,
}

/// What the user asked for: a register file by name, a bundle element, an absolute base.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    pub file: Option<&'a str>,
    pub bundle: Option<&'a str>,
    pub base: Option<u64>,
}

impl Target {
    /// Resolve `request` on `arch`: the file by name or from the address map, the window,
    /// and where it lies. Every disagreement is a usage error naming both sides.
    pub fn new(request: Request<'_>, arch: Arch) -> Result<Target, Error> {
        let arch = arch.name();
        let (file, placed, offset) = match request.base {
            Some(base) => {
                let (placed, offset) = placed_at(base, arch)?;
                let regfile = placed.part.regfile.unwrap_or_default();
                let file = find(regfile).map_err(|_| {
                    Error::Usage(format!(
                        "the address map names `{regfile}`, which the spec does not hold"
                    ))
                })?;
                if let Some(named) = request.file
                    && !named.eq_ignore_ascii_case(file.name)
                {
                    return Err(Error::Usage(format!(
                        "`{}` disagrees with the address map: base {base:#x} is in {}'s {} (register file {})",
                        echo(named),
                        placed.instance,
                        placed.part.name,
                        file.name
                    )));
                }
                (file, Some(placed), offset)
            }
            None => {
                let name = request.file.ok_or_else(|| {
                    Error::Usage(
                        "name the register file (`UDMA_M2S`), or give --base ADDRESS to take it from the address map".into(),
                    )
                })?;
                (by_name(name)?, None, 0)
            }
        };
        if !file.archs.contains(&arch) {
            return Err(Error::Usage(format!(
                "`{}` does not exist on {arch} (it is on {})",
                file.name,
                file.archs.join(", ")
            )));
        }
        let (start, span, one_bundle) = match request.bundle {
            Some(b) => {
                let (start, size) = bundle_window(file, arch, b)?;
                if placed.is_some() && start != offset {
                    return Err(Error::Usage(format!(
                        "--bundle {} starts at +{start:#x} of {}, but the base is at +{offset:#x}{}",
                        echo(b),
                        file.name,
                        element_at(file, arch, offset)
                            .map_or(String::new(), |e| format!(" (in {e})"))
                    )));
                }
                (start, size, true)
            }
            None => (offset, file.size_on(arch) - offset, false),
        };
        Ok(Target {
            file,
            arch,
            start,
            span,
            one_bundle,
            element: element_at(file, arch, start),
            placed,
        })
    }

    /// The absolute address of `offset` (from the file's base), for a placed dump.
    pub fn address(&self, offset: u64) -> Option<u64> {
        self.placed.map(|p| p.file_base() + offset)
    }
}

fn by_name(name: &str) -> Result<&'static RegFileMeta, Error> {
    find(name).map_err(|guess| {
        Error::Usage(format!(
            "no register file `{}`{} (register files: {})",
            echo(name),
            hint(guess),
            names(REGFILES, |f| f.name)
        ))
    })
}

/// The instance and register file at `base`, and `base`'s offset in that file.
fn placed_at(base: u64, arch: &str) -> Result<(Placement, u64), Error> {
    place::check_address(base).map_err(|why| Error::Usage(format!("base {base:#x}: {why}")))?;
    let location = place::map(arch)?.locate(base);
    let Location::Part {
        instance,
        part,
        offset,
    } = location
    else {
        let hole = place::hole(&location).unwrap_or_default();
        let inside = match location {
            Location::SlotHole { instance, .. } => {
                format!(" of {instance} at +{:#x}", base - instance.base())
            }
            _ => String::new(),
        };
        return Err(Error::Usage(format!(
            "base {base:#x} is in a hole{inside}, {hole}: no register file is there"
        )));
    };
    if part.regfile.is_none() {
        return Err(Error::Usage(format!(
            "base {base:#x} is in {instance}'s {} (+{:#x}, {:#x} bytes), a reserved range: no register file is there",
            part.name, part.offset, part.size
        )));
    }
    // Every register is a 32-bit slot: a dump starts at one.
    if offset % 4 != 0 {
        return Err(Error::Usage(format!(
            "base {base:#x} is {offset:#x} bytes into {instance}'s {}: not at a register boundary (registers are 4 bytes, 4-byte aligned)",
            part.name
        )));
    }
    Ok((Placement { instance, part }, offset))
}

/// The bundle element holding `offset` on `arch` (`M2S_Q[5]`, or `M2S` for a single bundle).
fn element_at(file: &RegFileMeta, arch: &str, offset: u64) -> Option<String> {
    let b = (file.bundles.iter()).find(|b| {
        b.archs.contains(&arch) && b.offset <= offset && offset < b.offset + b.count * b.stride
    })?;
    Some(if b.count > 1 {
        format!("{}[{}]", b.name, (offset - b.offset) / b.stride)
    } else {
        b.name.to_string()
    })
}

/// Where element `spec` (`M2S_Q[3]`, or `M2S` for a single bundle) starts, and its size.
fn bundle_window(file: &RegFileMeta, arch: &str, spec: &str) -> Result<(u64, u64), Error> {
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
            )));
        }
    };
    if index >= b.count {
        return Err(Error::Usage(format!(
            "`{name}` has {} element(s): index {index} is out of range",
            b.count
        )));
    }
    Ok((b.offset + index * b.stride, b.size))
}

/// One register of a dump.
#[derive(Debug, Clone)]
pub struct Reading {
    /// From the register file's base.
    pub offset: u64,
    pub bundle: &'static BundleMeta,
    /// The element of an array bundle; `None` for a single bundle.
    pub index: Option<u64>,
    pub register: &'static RegisterMeta,
    pub value: u32,
    /// The register's fields on the dump's architecture.
    pub fields: Vec<&'static RegFieldMeta>,
}

impl Reading {
    /// `M2S_Q[3]`, or `M2S` for a single bundle.
    pub fn element(&self) -> String {
        match self.index {
            Some(i) => format!("{}[{i}]", self.bundle.name),
            None => self.bundle.name.to_string(),
        }
    }

    /// The bits of the value no field claims.
    pub fn unknown(&self) -> u32 {
        let known = self.fields.iter().fold(0u64, |m, f| m | f.mask());
        self.value & !(known as u32)
    }

    /// Field `f`'s value in this reading.
    pub fn get(&self, f: &RegFieldMeta) -> u64 {
        f.get(u64::from(self.value))
    }
}

/// The enumerator of `f` whose value is `v`, if `f` has an enum.
pub fn enumerator(f: &RegFieldMeta, v: u64) -> Option<&'static str> {
    f.enumerators
        .and_then(|(_, list)| list.iter().find(|(_, x)| *x == v).map(|(n, _)| *n))
}

/// The values of a dump as they are read, one per 4-byte slot from the target's start. A
/// placed dump is read to its end, what lies past the window counted but not kept; any
/// other keeps one value past the window, which is enough to call it too long.
#[derive(Debug, Clone)]
pub struct Slots {
    values: Vec<u32>,
    /// Bytes counted past the window.
    past: u64,
    limit: usize,
    count_past: bool,
}

impl Slots {
    pub fn new(target: &Target) -> Slots {
        Slots {
            values: Vec::new(),
            past: 0,
            limit: usize::try_from(target.span / 4).unwrap_or(usize::MAX),
            count_past: target.placed.is_some(),
        }
    }

    /// Take the next value; `false` when there is no need to read on.
    pub fn push(&mut self, v: u32) -> bool {
        if self.values.len() < self.limit {
            self.values.push(v);
        } else if self.count_past {
            self.past += 4;
        } else {
            self.values.push(v);
            return false;
        }
        true
    }

    /// Every 32-bit little-endian value of `reader` (raw bytes or hex text).
    pub fn read(&mut self, reader: &mut WordReader<'_>) -> Result<(), Error> {
        let mut buf = [0u8; 4];
        while reader
            .next_into(&mut buf, "register")
            .map_err(Error::Input)?
        {
            if !self.push(u32::from_le_bytes(buf)) {
                break;
            }
        }
        Ok(())
    }
}

/// A decoded dump.
#[derive(Debug, Clone)]
pub struct Dump {
    pub target: Target,
    /// The bytes decoded (from `target.start`).
    pub bytes: u64,
    /// The bytes past the window's end left undecoded (a placed dump only).
    pub beyond: u64,
    /// By offset.
    pub readings: Vec<Reading>,
    /// The nonzero slots where the spec declares no register, as (offset, value): kept raw,
    /// since a register the pages do not give is not a register that reads zero.
    pub unmapped: Vec<(u64, u32)>,
}

impl Dump {
    /// Decode the `slots` read from `name`. A dump longer than the window is an error,
    /// unless it is placed: then the rest is left undecoded and counted, since it is the
    /// next part of the SoC's address space, not more of this file.
    pub fn new(target: Target, slots: Slots, name: &str) -> Result<Dump, Error> {
        let Slots {
            mut values,
            past,
            limit,
            ..
        } = slots;
        if values.is_empty() {
            return Err(Error::BadFile(format!(
                "{name} holds no register values: the dump is empty"
            )));
        }
        let beyond = past + 4 * values.len().saturating_sub(limit) as u64;
        if beyond > 0 && target.placed.is_none() {
            return Err(Error::BadFile(format!(
                "{name} holds more than the {:#x} bytes of the window it dumps: give a dump \
                 of the whole file, or --bundle NAME[INDEX] for one element",
                target.span
            )));
        }
        values.truncate(limit);
        let readings = readings(&target, &values);
        let unmapped = (values.iter().enumerate())
            .map(|(i, &v)| (target.start + 4 * i as u64, v))
            .filter(|&(offset, v)| {
                v != 0
                    && readings
                        .binary_search_by_key(&offset, |r| r.offset)
                        .is_err()
            })
            .collect();
        Ok(Dump {
            bytes: 4 * values.len() as u64,
            target,
            beyond,
            readings,
            unmapped,
        })
    }

    /// What was left undecoded past the window of a placed dump, in words: "4096 bytes
    /// past the window's end at 0x1002520000 (APB_SE_0_SDMA_5's UDMA_S2M) left
    /// undecoded", and the absolute address after the window.
    pub fn left(&self) -> Option<(String, u64)> {
        if self.beyond == 0 {
            return None;
        }
        let end = self.target.address(self.target.start + self.target.span)?;
        let location = place::map(self.target.arch).ok()?.locate(end);
        let what = match location {
            Location::Part { instance, part, .. } => format!("{instance}'s {}", part.name),
            _ => place::hole(&location).map_or(String::new(), |h| format!("a hole {h}")),
        };
        Some((
            format!(
                "{} bytes past the window's end at {end:#x} ({what}) left undecoded",
                self.beyond
            ),
            end,
        ))
    }
}

/// The registers the dump covers, by offset.
fn readings(t: &Target, values: &[u32]) -> Vec<Reading> {
    let slot = |offset: u64| {
        let i = usize::try_from(offset.checked_sub(t.start)? / 4).ok()?;
        values.get(i).copied()
    };
    let mut out = Vec::new();
    for b in t.file.bundles.iter().filter(|b| b.archs.contains(&t.arch)) {
        for i in 0..b.count {
            let base = b.offset + i * b.stride;
            if t.one_bundle && base != t.start {
                continue;
            }
            for r in b.registers.iter().filter(|r| r.on(t.arch)) {
                let offset = base + r.offset;
                if let Some(value) = slot(offset) {
                    out.push(Reading {
                        offset,
                        bundle: b,
                        index: (b.count > 1).then_some(i),
                        register: r,
                        value,
                        fields: r.fields_on(t.arch).collect(),
                    });
                }
            }
        }
    }
    out.sort_by_key(|r| r.offset);
    out
}
