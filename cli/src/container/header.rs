//! The 1024-byte `neff_header_t` at the front of a NEFF, and the loader's gates on it
//! (spec record `NEFF_HEADER`, `spec/types/neff.toml`; the wiki pages "A Concrete NEFF,
//! Carved Byte-by-Byte" §1–§2 and "The NEFF Format Reference" §1, §7.1).

use std::io::Read;

use dmaspec::words;

// The gates' numbers are the spec's constants (spec/types/neff.toml).
/// The header's size, and where the payload starts (`header_size` must say the same).
pub const HEADER_SIZE: usize = words::NEFF_HEADER_SIZE as usize;
/// The highest `neff_version_major` the loader accepts (`> 2` refused).
pub const VERSION_MAJOR_MAX: u64 = words::NEFF_VERSION_MAJOR_MAX as u64;
/// The `feature_bits` a runtime that predates them refuses when `neff_version_major == 2`:
/// bits 27..62 (`0x7FFFFFFFF8000000`); bits 0..26 are the supported ones.
pub const FEATURE_TRAPDOOR: u64 = words::NEFF_FEATURE_TRAPDOOR as u64;
/// The feature bits the runtime understands, printed with a refusal.
pub const FEATURES_SUPPORTED: u64 = words::NEFF_FEATURES_SUPPORTED as u64;

/// How the payload is packed and hashed, by `pkg_version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Package {
    /// 1: a raw GNU tar, SHA-256 over the payload in all 32 bytes of `hash`.
    RawTar,
    /// 2: a gzip-compressed GNU tar, MD5 over the compressed bytes in `hash[0..16]`.
    GzipTar,
}

impl Package {
    /// What a report calls the package.
    pub fn describe(self) -> &'static str {
        match self {
            Package::RawTar => "raw GNU tar, SHA-256 over the payload",
            Package::GzipTar => "gzip GNU tar, MD5 over the compressed payload",
        }
    }
}

/// The header's fields, at the offsets the carve reads them (packed, little-endian).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub pkg_version: u64,
    pub header_size: u64,
    pub data_size: u64,
    pub neff_version_major: u64,
    pub neff_version_minor: u64,
    /// ASCII, NUL-padded; never parsed by the loader.
    pub build_version: Vec<u8>,
    /// The producer's "data is gzip" flag; the loader gates on `pkg_version` instead.
    pub unused_0: u32,
    pub hash: [u8; 32],
    pub uuid: [u8; 16],
    pub name: Vec<u8>,
    pub requested_tpb_count: u32,
    pub tpb_per_node: [u8; 64],
    pub feature_bits: u64,
    pub vnc_size: u32,
}

/// One field of the header: its name, offset and width in bytes (the order of the struct).
pub const FIELDS: [(&str, usize, usize); 14] = [
    ("pkg_version", 0x000, 8),
    ("header_size", 0x008, 8),
    ("data_size", 0x010, 8),
    ("neff_version_major", 0x018, 8),
    ("neff_version_minor", 0x020, 8),
    ("build_version", 0x028, 128),
    ("unused_0", 0x0A8, 4),
    ("hash", 0x0AC, 32),
    ("uuid", 0x0CC, 16),
    ("name", 0x0DC, 256),
    ("requested_tpb_count", 0x1DC, 4),
    ("tpb_per_node", 0x1E0, 64),
    ("feature_bits", 0x220, 8),
    ("vnc_size", 0x228, 4),
];

fn u64_at(b: &[u8], off: usize) -> u64 {
    u64::from_le_bytes(b[off..off + 8].try_into().expect("8 bytes"))
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(b[off..off + 4].try_into().expect("4 bytes"))
}

/// The bytes before the first NUL of a fixed text field.
fn text_at(b: &[u8], off: usize, len: usize) -> Vec<u8> {
    let field = &b[off..off + len];
    let end = field.iter().position(|&c| c == 0).unwrap_or(len);
    field[..end].to_vec()
}

impl Header {
    /// The header from its 1024 bytes.
    pub fn parse(b: &[u8; HEADER_SIZE]) -> Header {
        Header {
            pkg_version: u64_at(b, 0x000),
            header_size: u64_at(b, 0x008),
            data_size: u64_at(b, 0x010),
            neff_version_major: u64_at(b, 0x018),
            neff_version_minor: u64_at(b, 0x020),
            build_version: text_at(b, 0x028, 128),
            unused_0: u32_at(b, 0x0A8),
            hash: b[0x0AC..0x0CC].try_into().expect("32 bytes"),
            uuid: b[0x0CC..0x0DC].try_into().expect("16 bytes"),
            name: text_at(b, 0x0DC, 256),
            requested_tpb_count: u32_at(b, 0x1DC),
            tpb_per_node: b[0x1E0..0x220].try_into().expect("64 bytes"),
            feature_bits: u64_at(b, 0x220),
            vnc_size: u32_at(b, 0x228),
        }
    }

    /// Reads the header's 1024 bytes from `input`; fewer is a truncated header.
    pub fn read(input: &mut dyn Read) -> Result<Header, String> {
        let mut b = [0u8; HEADER_SIZE];
        let mut got = 0;
        while got < HEADER_SIZE {
            match input.read(&mut b[got..]) {
                Ok(0) => {
                    return Err(format!(
                        "truncated header: {got} of the {HEADER_SIZE} bytes of neff_header_t"
                    ));
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot read the header: {e}")),
            }
        }
        Ok(Header::parse(&b))
    }

    /// The loader's gates in its order (`neff_get_header_from_buffer`, then `neff_parse`):
    /// header size, version ceiling, `feature_bits` trapdoor, data fit (when the input's
    /// length is known), packager. The package to unpack when every gate passes.
    pub fn gate(&self, input_len: Option<u64>) -> Result<Package, String> {
        if self.header_size != HEADER_SIZE as u64 {
            return Err(format!(
                "header_size is {:#x}, not {HEADER_SIZE:#x}: not a NEFF header this reader \
                 knows (the payload starts at +0x400)",
                self.header_size
            ));
        }
        if self.neff_version_major > VERSION_MAJOR_MAX {
            return Err(format!(
                "NEFF version {}.{} is not supported (accepted: 0.x-2.x)",
                self.neff_version_major, self.neff_version_minor
            ));
        }
        let newer = self.feature_bits & FEATURE_TRAPDOOR;
        if self.neff_version_major == 2 && newer != 0 {
            return Err(format!(
                "feature_bits {:#x} sets bits {newer:#x} beyond the supported {FEATURES_SUPPORTED:#x}: \
                 compiled by a newer compiler",
                self.feature_bits
            ));
        }
        if let Some(len) = input_len {
            let room = len.saturating_sub(HEADER_SIZE as u64);
            if self.data_size > room {
                return Err(format!(
                    "data_size {:#x} does not fit: the input has {room:#x} bytes after the header",
                    self.data_size
                ));
            }
        }
        match self.pkg_version {
            1 => Ok(Package::RawTar),
            2 => Ok(Package::GzipTar),
            v => Err(format!(
                "unsupported NEFF packager: pkg_version {v} (known: 1, 2)"
            )),
        }
    }

    /// The digest bytes the header carries for `package` (pkg2: `hash[0..16]`).
    pub fn expected_digest(&self, package: Package) -> &[u8] {
        match package {
            Package::RawTar => &self.hash,
            Package::GzipTar => &self.hash[..16],
        }
    }

    /// The uuid as RFC 4122 text.
    pub fn uuid_text(&self) -> String {
        let h = dmaspec::json::hex_string(&self.uuid);
        format!(
            "{}-{}-{}-{}-{}",
            &h[0..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..32]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_tile_the_struct_without_gaps_up_to_vnc_size() {
        let mut at = 0;
        for (name, off, width) in FIELDS {
            assert_eq!(off, at, "{name}");
            at = off + width;
        }
        // "+0x22C u8[468] pad" (format reference §1).
        assert_eq!(HEADER_SIZE - at, 468);
    }

    #[test]
    fn the_reader_reads_the_fields_the_spec_record_declares() {
        let spec = (dmaspec::words::RECORDS.iter())
            .find(|r| r.name == "NEFF_HEADER")
            .expect("spec/types/neff.toml declares NEFF_HEADER");
        assert_eq!(spec.size, HEADER_SIZE);
        let declared: Vec<(&str, usize, usize)> = (spec.fields.iter())
            .filter(|f| f.name != "pad")
            .map(|f| (f.name, f.offset, f.size))
            .collect();
        assert_eq!(declared, FIELDS);
    }

    #[test]
    fn the_trapdoor_and_the_supported_bits_partition_bits_0_to_62() {
        // Format reference §7.1: mask & supported == 0, mask | supported == bits 0..62.
        assert_eq!(FEATURE_TRAPDOOR & FEATURES_SUPPORTED, 0);
        assert_eq!(FEATURE_TRAPDOOR | FEATURES_SUPPORTED, u64::MAX >> 1);
    }
}
