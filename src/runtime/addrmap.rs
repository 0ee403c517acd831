//! The SoC address map the generated `ADDRMAPS` table is written against: windows of
//! instances, each instance a slot of register files at fixed offsets, and
//! [`AddrMapMeta::locate`], which names what an absolute MMIO address falls in.

use core::fmt;

/// One window of a slot: a register file's, or a reserved range (`regfile` is `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartMeta {
    /// As the address map names the node (`UDMA_M2S`, `MISC_NOTIFIC`).
    pub name: &'static str,
    pub regfile: Option<&'static str>,
    /// From the instance's base.
    pub offset: u64,
    pub size: u64,
}

/// What one instance holds, parts by offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotMeta {
    pub name: &'static str,
    pub size: u64,
    pub parts: &'static [PartMeta],
}

/// `count` instances of `slot`, `stride` bytes apart from `base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowMeta {
    /// The instances' name, `{n}` standing for the channel number.
    pub name: &'static str,
    pub slot: &'static SlotMeta,
    pub base: u64,
    pub count: u64,
    pub stride: u64,
    /// Channel numbers between instances (16 for the SDMA_0 / SDMA_16 mirrors).
    pub step: u64,
    pub confidence: super::meta::Confidence,
    pub evidence: &'static [super::meta::Evidence],
}

/// One architecture's map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddrMapMeta {
    pub arch: &'static str,
    pub doc: &'static str,
    pub windows: &'static [WindowMeta],
}

/// Instance `index` of a window; displays as its name (`APB_SE_0_SDMA_5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instance {
    pub window: &'static WindowMeta,
    pub index: u64,
}

impl Instance {
    pub fn base(&self) -> u64 {
        self.window.base + self.index * self.window.stride
    }
    /// One past its last byte.
    pub fn end(&self) -> u64 {
        self.base() + self.window.slot.size
    }
    /// The channel number `{n}` stands for.
    pub fn channel(&self) -> u64 {
        self.index * self.window.step
    }
}

impl fmt::Display for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.window.name.split_once("{n}") {
            Some((head, tail)) => write!(f, "{head}{}{tail}", self.channel()),
            None => f.write_str(self.window.name),
        }
    }
}

/// What an absolute address falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// `offset` bytes into `part` of `instance`.
    Part {
        instance: Instance,
        part: &'static PartMeta,
        offset: u64,
    },
    /// Inside `instance` but in no part: between `below` and `above` (`None`: the slot's
    /// start or end).
    SlotHole {
        instance: Instance,
        below: Option<&'static PartMeta>,
        above: Option<&'static PartMeta>,
    },
    /// In no instance: between the nearest instance below and the nearest above.
    Hole {
        below: Option<Instance>,
        above: Option<Instance>,
    },
}

impl AddrMapMeta {
    /// Every instance, window by window.
    pub fn instances(&self) -> impl Iterator<Item = Instance> {
        (self.windows.iter())
            .flat_map(|window| (0..window.count).map(move |index| Instance { window, index }))
    }

    /// What `address` falls in.
    pub fn locate(&self, address: u64) -> Location {
        let (mut below, mut above): (Option<Instance>, Option<Instance>) = (None, None);
        for window in self.windows {
            // The instance at or below the address, and the one after it.
            let index = match address.checked_sub(window.base) {
                Some(d) => (d / window.stride).min(window.count - 1),
                None => {
                    let first = Instance { window, index: 0 };
                    if above.is_none_or(|a| first.base() < a.base()) {
                        above = Some(first);
                    }
                    continue;
                }
            };
            let at = Instance { window, index };
            if address < at.end() {
                return in_instance(at, address - at.base());
            }
            if below.is_none_or(|b| at.end() > b.end()) {
                below = Some(at);
            }
            if index + 1 < window.count {
                let next = Instance {
                    window,
                    index: index + 1,
                };
                if above.is_none_or(|a| next.base() < a.base()) {
                    above = Some(next);
                }
            }
        }
        Location::Hole { below, above }
    }
}

fn in_instance(instance: Instance, offset: u64) -> Location {
    let parts = instance.window.slot.parts;
    match parts
        .iter()
        .find(|p| p.offset <= offset && offset < p.offset + p.size)
    {
        Some(part) => Location::Part {
            instance,
            part,
            offset: offset - part.offset,
        },
        None => Location::SlotHole {
            instance,
            below: parts.iter().rev().find(|p| p.offset + p.size <= offset),
            above: parts.iter().find(|p| p.offset > offset),
        },
    }
}
