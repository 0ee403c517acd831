//! What generated register files are written against (the svd2rust shape, kept small):
//! a [`Bus`] the user implements (volatile MMIO on hardware, a memory array in a model),
//! [`Reg`], one register of a block at its address, read, written or modified through
//! typed values, and [`MemoryBus`], a bus over a byte slice for tests and simulators.
//! The generated code holds the layouts; only this module touches the bus.

use core::marker::PhantomData;

/// A 32-bit register bus: byte offsets from the block's base. Register files whose bus is
/// 32 bits wide use these; a 64-bit register is two accesses, low word first.
pub trait Bus {
    fn read32(&mut self, offset: u64) -> u32;
    fn write32(&mut self, offset: u64, value: u32);
}

impl<B: Bus + ?Sized> Bus for &mut B {
    fn read32(&mut self, offset: u64) -> u32 {
        (**self).read32(offset)
    }
    fn write32(&mut self, offset: u64, value: u32) {
        (**self).write32(offset, value)
    }
}

/// A register's value type: its raw bits and where it lies in its bundle.
pub trait Register: Copy {
    /// From the bundle's base.
    const OFFSET: u64;
    fn from_bits(bits: u32) -> Self;
    fn to_bits(self) -> u32;
}

/// A register software may read (`RO`, `RW`): a `WO` register has no reader.
///
/// `M2S_Q.q_sw_ctrl` is WO (CSR — UDMA M2S §4.3), so it can be written:
///
/// ```
/// use dmaspec::words::regs::{MemoryBus, UDMA_M2S::cayman::{Block, M2S_Q, SIZE}};
/// let mut window = vec![0u8; SIZE as usize];
/// let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
/// let mut q = m2s.M2S_Q(3).unwrap();
/// q.q_sw_ctrl().write(M2S_Q::q_sw_ctrl::default().with_rst_dmb(true));
/// ```
///
/// but not read:
///
/// ```compile_fail,E0599
/// use dmaspec::words::regs::{MemoryBus, UDMA_M2S::cayman::{Block, SIZE}};
/// let mut window = vec![0u8; SIZE as usize];
/// let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
/// let _ = m2s.M2S_Q(3).unwrap().q_sw_ctrl().read();
/// ```
pub trait Readable: Register {}
/// A register software may write (`WO`, `RW`): an `RO` register has no writer.
///
/// `M2S_Q.TDRHP` is RO (CSR — UDMA M2S §4.1), so it can be read:
///
/// ```
/// use dmaspec::words::regs::{MemoryBus, UDMA_M2S::cayman::{Block, SIZE}};
/// let mut window = vec![0u8; SIZE as usize];
/// let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
/// let head = m2s.M2S_Q(3).unwrap().TDRHP().read();
/// assert_eq!(head.ring_id(), 0);
/// ```
///
/// but not written, not even with its reset value:
///
/// ```compile_fail,E0599
/// use dmaspec::words::regs::{MemoryBus, UDMA_M2S::cayman::{Block, M2S_Q, SIZE}};
/// let mut window = vec![0u8; SIZE as usize];
/// let mut m2s = Block::new(MemoryBus::new(&mut window), 0);
/// m2s.M2S_Q(3).unwrap().TDRHP().write(M2S_Q::TDRHP::RESET);
/// ```
pub trait Writable: Register {}

/// One register of one block instance on `bus`, at `address`.
pub struct Reg<'b, B: Bus, R> {
    bus: &'b mut B,
    address: u64,
    value: PhantomData<R>,
}

impl<'b, B: Bus, R: Register> Reg<'b, B, R> {
    /// The register `R` of the bundle whose base is `base`. Addresses wrap, as a bus's do:
    /// a window placed at the top of the address space never panics here.
    pub fn at(bus: &'b mut B, base: u64) -> Self {
        Reg {
            bus,
            address: base.wrapping_add(R::OFFSET),
            value: PhantomData,
        }
    }
    /// The byte address on the bus.
    pub fn address(&self) -> u64 {
        self.address
    }
}

impl<B: Bus, R: Readable> Reg<'_, B, R> {
    pub fn read(&mut self) -> R {
        R::from_bits(self.bus.read32(self.address))
    }
}

impl<B: Bus, R: Writable> Reg<'_, B, R> {
    pub fn write(&mut self, value: R) {
        self.bus.write32(self.address, value.to_bits())
    }
}

impl<B: Bus, R: Readable + Writable> Reg<'_, B, R> {
    /// Read, change, write back: `reg.modify(|v| v.with_en_scheduling(true))`.
    pub fn modify(&mut self, f: impl FnOnce(R) -> R) {
        let value = f(self.read());
        self.write(value)
    }
}

/// A bus over a byte slice, little-endian, for tests and simulators. An access outside
/// the slice or not 4-byte aligned is not performed: reads give 0, and
/// [`faults`](MemoryBus::faults) counts them.
pub struct MemoryBus<'m> {
    memory: &'m mut [u8],
    faults: usize,
}

impl<'m> MemoryBus<'m> {
    pub fn new(memory: &'m mut [u8]) -> Self {
        MemoryBus { memory, faults: 0 }
    }
    /// Accesses that fell outside the memory or were misaligned.
    pub fn faults(&self) -> usize {
        self.faults
    }
    pub fn memory(&self) -> &[u8] {
        self.memory
    }
    fn word(&mut self, offset: u64) -> Option<&mut [u8; 4]> {
        let at = usize::try_from(offset).ok().filter(|a| a % 4 == 0);
        let word = at.and_then(|a| self.memory.get_mut(a..a.checked_add(4)?));
        match word {
            Some(w) => w.try_into().ok(),
            None => {
                self.faults += 1;
                None
            }
        }
    }
}

impl Bus for MemoryBus<'_> {
    fn read32(&mut self, offset: u64) -> u32 {
        self.word(offset).map_or(0, |w| u32::from_le_bytes(*w))
    }
    fn write32(&mut self, offset: u64, value: u32) {
        if let Some(w) = self.word(offset) {
            *w = value.to_le_bytes();
        }
    }
}

/// What the spec says about a register file, for tools (explain, dump decoders, docs).
#[derive(Debug, Clone, Copy)]
pub struct RegFileMeta {
    pub name: &'static str,
    pub doc: &'static str,
    /// The window in bytes, on the architectures `arch_sizes` does not list.
    pub size: u64,
    /// (architecture, window) where the window differs (Maverick's 0x40000 UDMA_M2S).
    pub arch_sizes: &'static [(&'static str, u64)],
    pub bus_width: u32,
    pub archs: &'static [&'static str],
    pub confidence: super::meta::Confidence,
    pub evidence: &'static [super::meta::Evidence],
    pub bundles: &'static [BundleMeta],
}

impl RegFileMeta {
    /// The window on `arch`.
    pub fn size_on(&self, arch: &str) -> u64 {
        (self.arch_sizes.iter())
            .find(|(a, _)| *a == arch)
            .map_or(self.size, |(_, s)| *s)
    }
}

#[derive(Debug, Clone, Copy)]
pub struct BundleMeta {
    pub name: &'static str,
    pub doc: &'static str,
    pub offset: u64,
    pub size: u64,
    pub count: u64,
    pub stride: u64,
    pub archs: &'static [&'static str],
    pub registers: &'static [RegisterMeta],
}

#[derive(Debug, Clone, Copy)]
pub struct RegisterMeta {
    pub name: &'static str,
    pub doc: &'static str,
    pub offset: u64,
    pub width: u32,
    pub access: &'static str,
    /// What an access does besides the value (`PulseOnW`: a write also pulses).
    pub special_access: Option<&'static str>,
    pub reset: Option<u64>,
    pub archs: &'static [&'static str],
    pub confidence: super::meta::Confidence,
    pub evidence: &'static [super::meta::Evidence],
    pub fields: &'static [RegFieldMeta],
}

#[derive(Debug, Clone, Copy)]
pub struct RegFieldMeta {
    pub name: &'static str,
    pub doc: &'static str,
    pub lsb: u32,
    pub width: u32,
    pub access: &'static str,
    pub reset: Option<u64>,
    /// The enum naming its values, and its enumerators (name, value).
    pub enumerators: Option<(&'static str, &'static [(&'static str, u64)])>,
    pub archs: &'static [&'static str],
    pub confidence: super::meta::Confidence,
    pub evidence: &'static [super::meta::Evidence],
    pub alternatives: &'static [super::meta::Alternative],
}

impl RegFieldMeta {
    pub fn mask(&self) -> u64 {
        let ones = if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        };
        ones << self.lsb
    }
    /// The field's value in the register value `bits`.
    pub fn get(&self, bits: u64) -> u64 {
        (bits & self.mask()) >> self.lsb
    }
}

impl RegisterMeta {
    pub fn on(&self, arch: &str) -> bool {
        self.archs.contains(&arch)
    }
    /// The fields this register has on `arch`.
    pub fn fields_on<'a>(&'a self, arch: &'a str) -> impl Iterator<Item = &'a RegFieldMeta> {
        self.fields.iter().filter(move |f| f.archs.contains(&arch))
    }
}

/// The parts of a generated register value type that are the same for every register:
/// the raw-bits constructors and the [`Register`] impl with its access markers.
#[doc(hidden)]
#[macro_export]
///
/// `bits = NAME` names the constructors' parameter: a parameter cannot be named like a
/// tuple struct in scope, so a bundle with a register named `bits` needs another name.
macro_rules! __dmaspec_register {
    ($t:ident, $offset:expr, bits = $bits:ident $(, $marker:ident)*) => {
        impl $t {
            pub const fn from_bits($bits: ::core::primitive::u32) -> Self {
                Self($bits)
            }
            pub const fn to_bits(self) -> ::core::primitive::u32 {
                self.0
            }
        }
        impl $crate::runtime::regs::Register for $t {
            const OFFSET: ::core::primitive::u64 = $offset;
            fn from_bits($bits: ::core::primitive::u32) -> Self {
                Self($bits)
            }
            fn to_bits(self) -> ::core::primitive::u32 {
                self.0
            }
        }
        $(impl $crate::runtime::regs::$marker for $t {})*
    };
    ($t:ident, $offset:expr $(, $marker:ident)*) => {
        $crate::__dmaspec_register!($t, $offset, bits = bits $(, $marker)*);
    };
}
pub use __dmaspec_register as register;

/// The parts of a generated bundle module that are the same for every bundle: where it
/// sits in its file (`OFFSET`, `COUNT`, `STRIDE`) and `Block`, one element of it on a bus.
/// The module adds its registers' accessors to `Block`.
#[doc(hidden)]
#[macro_export]
macro_rules! __dmaspec_bundle {
    ($offset:expr, $count:expr, $stride:expr) => {
        /// From the register file's base.
        pub const OFFSET: ::core::primitive::u64 = $offset;
        /// Elements in the array (1: a single bundle).
        pub const COUNT: ::core::primitive::u64 = $count;
        /// Distance between elements.
        pub const STRIDE: ::core::primitive::u64 = $stride;
        /// One element of the bundle on a bus.
        pub struct Block<'b, B: $crate::runtime::regs::Bus> {
            bus: &'b mut B,
            base: ::core::primitive::u64,
        }
        impl<'b, B: $crate::runtime::regs::Bus> Block<'b, B> {
            /// Element `index` of the bundle of the file whose window starts at
            /// `file_base` (addresses wrap, as a bus's do).
            pub fn at(bus: &'b mut B, file_base: ::core::primitive::u64, index: usize) -> Self {
                let element = (index as ::core::primitive::u64).wrapping_mul(STRIDE);
                Block {
                    bus,
                    base: file_base.wrapping_add(OFFSET).wrapping_add(element),
                }
            }
            /// The element's base address on the bus.
            pub fn base(&self) -> ::core::primitive::u64 {
                self.base
            }
            /// The bus, for an access the layout does not name.
            pub fn bus(&mut self) -> &mut B {
                self.bus
            }
        }
    };
}
pub use __dmaspec_bundle as bundle;
