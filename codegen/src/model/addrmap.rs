//! The SoC address map (`[[addrmap]]`, one per architecture): slots (which register file
//! sits at which offset of one instance) and windows (where the instances lie).

use serde::Serialize;

use super::provenance::{Confidence, Evidence};

#[derive(Debug, Clone, Serialize)]
pub struct AddrMap {
    /// The architecture it places; also the item's name.
    pub arch: String,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub slots: Vec<Slot>,
    pub windows: Vec<Window>,
    /// The spec file that declares it, relative to the spec root.
    pub file: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Slot {
    pub name: String,
    pub doc: String,
    /// The bytes one instance occupies from its base.
    pub size: u64,
    /// By offset.
    pub parts: Vec<Part>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Part {
    pub name: String,
    /// `None` for a reserved range.
    pub regfile: Option<String>,
    /// From the instance's base.
    pub offset: u64,
    pub size: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Window {
    /// The instances' name pattern, `{n}` for the channel number.
    pub name: String,
    /// Index into the map's `slots`.
    pub slot: usize,
    pub base: u64,
    pub count: u64,
    /// Equal to the slot's size for a single instance.
    pub stride: u64,
    /// Channel numbers between instances.
    pub step: u64,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

/// One placed instance.
#[derive(Debug, Clone)]
pub struct Instance<'m> {
    pub name: String,
    pub base: u64,
    pub slot: &'m Slot,
}

impl Window {
    /// Instance `i`'s name and base (`i < count`; bases fit, as the loader checks).
    pub fn instance(&self, i: u64) -> (String, u64) {
        let name = self.name.replace("{n}", &(i * self.step).to_string());
        (name, self.base + i * self.stride)
    }
}

impl AddrMap {
    /// Every instance, by base.
    pub fn instances(&self) -> Vec<Instance<'_>> {
        let mut out: Vec<Instance> = (self.windows.iter())
            .flat_map(|w| {
                (0..w.count).map(move |i| {
                    let (name, base) = w.instance(i);
                    Instance {
                        name,
                        base,
                        slot: &self.slots[w.slot],
                    }
                })
            })
            .collect();
        out.sort_by_key(|i| i.base);
        out
    }
}
