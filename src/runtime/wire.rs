//! Fixed-offset views into byte arrays. The offsets are const generics and checked at
//! compile time, so generated decoders contain no run-time bounds checks and cannot panic.

/// `&b[OFF..OFF + N]` as an array reference.
#[inline(always)]
pub fn at<const OFF: usize, const N: usize, const M: usize>(b: &[u8; M]) -> &[u8; N] {
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
