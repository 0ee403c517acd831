//! Absolute MMIO addresses against the SoC address map, for `dmaspec addr` and
//! `dmaspec regs --base`: reading an address as typed, the map of an architecture, and the
//! words that name a hole.

use crate::names::echo;
use crate::runtime::addrmap::{AddrMapMeta, Location};
use crate::words::addrmap::ADDRMAPS;

use super::Error;

/// The SoC physical address width the maps are checked against (bits 0..=57).
pub const ADDRESS_BITS: u32 = 58;

/// `0x…` hex or decimal (`_` separators allowed), below 2^58.
pub fn parse_address(s: &str) -> Result<u64, Error> {
    let digits = s.trim().replace('_', "");
    let (radix, body) = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) => (16, h),
        None => (10, digits.as_str()),
    };
    let bad = |why: &str| Error::Usage(format!("address `{}`: {why}", echo(s)));
    let value = u64::from_str_radix(body, radix).map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => bad("out of range (more than 64 bits)"),
        _ => bad("not a number (write 0x1002506038 or a decimal)"),
    })?;
    check_address(value).map_err(|why| bad(&why))
}

/// `address` if it lies in the SoC address space, or why not.
pub fn check_address(address: u64) -> Result<u64, String> {
    if address >> ADDRESS_BITS != 0 {
        return Err(format!(
            "out of range: the SoC address space is {ADDRESS_BITS} bits (below {:#x})",
            1u64 << ADDRESS_BITS
        ));
    }
    Ok(address)
}

/// The address map of `arch`, or an error naming the architectures that have one.
pub fn map(arch: &str) -> Result<&'static AddrMapMeta, Error> {
    ADDRMAPS.iter().find(|m| m.arch == arch).ok_or_else(|| {
        let maps: Vec<&str> = ADDRMAPS.iter().map(|m| m.arch).collect();
        Error::Usage(format!(
            "no source places {arch}'s register files (address maps: {})",
            maps.join(", ")
        ))
    })
}

/// Where a hole lies, or `None` for an address in a part: "in no instance, between
/// APB_SE_0_SDMA_31 (ends 0x1003f80000) and …", or "at +0x44000 of APB_SE_0_SDMA_5, between
/// … and …" for one inside an instance.
pub fn hole(location: &Location) -> Option<String> {
    match location {
        Location::Part { .. } => None,
        Location::SlotHole {
            instance,
            below,
            above,
        } => {
            let from = below.map_or("the slot's start (+0x0)".to_string(), |p| {
                format!("{} (ends +{:#x})", p.name, p.offset + p.size)
            });
            let to = above.map_or(
                format!("the slot's end (+{:#x})", instance.window.slot.size),
                |p| format!("{} (starts +{:#x})", p.name, p.offset),
            );
            Some(format!("between {from} and {to}"))
        }
        Location::Hole { below, above } => {
            let from = below.map_or("the start of the address space".to_string(), |i| {
                format!("{i} (ends {:#x})", i.end())
            });
            let to = above.map_or("the end of the address space".to_string(), |i| {
                format!("{i} (starts {:#x})", i.base())
            });
            Some(format!("in no instance, between {from} and {to}"))
        }
    }
}
