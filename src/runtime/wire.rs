//! Fixed-offset views into byte arrays. The offsets are const generics and checked at
//! compile time, so generated decoders contain no run-time bounds checks and cannot panic.

/// `&b[OFF..OFF + N]` as an array reference.
#[inline(always)]
pub const fn at<const OFF: usize, const N: usize, const M: usize>(b: &[u8; M]) -> &[u8; N] {
    const { assert!(OFF + N <= M, "field runs past the end of its container") };
    let (_, rest) = b.split_at(OFF);
    match rest.first_chunk::<N>() {
        Some(chunk) => chunk,
        // Unreachable: the const assertion above proves the chunk exists.
        None => unreachable!(),
    }
}

/// `&mut b[OFF..OFF + N]` as an array reference.
#[inline(always)]
pub fn at_mut<const OFF: usize, const N: usize, const M: usize>(b: &mut [u8; M]) -> &mut [u8; N] {
    const { assert!(OFF + N <= M, "field runs past the end of its container") };
    let (_, rest) = b.split_at_mut(OFF);
    match rest.first_chunk_mut::<N>() {
        Some(chunk) => chunk,
        None => unreachable!(),
    }
}

/// The little-endian value of the `size` bytes at `offset` (at most 8 are significant),
/// shifted down to the bit range `(lsb, width)` when one is given. Bytes past the end read
/// as zero.
pub fn get(bytes: &[u8], offset: usize, size: usize, bits: Option<(u32, u32)>) -> u64 {
    let end = (offset + size.min(8)).min(bytes.len());
    let v = bytes[offset.min(end)..end]
        .iter()
        .rev()
        .fold(0u64, |acc, b| acc << 8 | u64::from(*b));
    match bits {
        Some((lsb, width)) if width < 64 => (v >> lsb) & ((1u64 << width) - 1),
        Some((lsb, _)) => v >> lsb,
        None => v,
    }
}

/// Writes `v` little-endian into the `size` bytes at `offset`, or into the bit range
/// `(lsb, width)` of them, keeping every other bit. Bits of `v` above the width are dropped.
pub fn put(bytes: &mut [u8], offset: usize, size: usize, bits: Option<(u32, u32)>, v: u64) {
    let (lsb, width) = bits.unwrap_or((0, (size.min(8) * 8) as u32));
    let m = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    } << lsb;
    for i in 0..size.min(8) {
        let Some(byte) = bytes.get_mut(offset + i) else {
            return;
        };
        let shift = (i * 8) as u32;
        let keep = !((m >> shift) as u8);
        let set = (((v << lsb) & m) >> shift) as u8;
        *byte = (*byte & keep) | set;
    }
}
