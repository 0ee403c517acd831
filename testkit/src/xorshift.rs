//! Arbitrary bytes that are the same every run, so a failure reproduces: xorshift64 (shifts
//! 13, 7, 17), with no dependency.

/// The generator's state; never zero.
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a nonzero `seed` (zero would stay zero).
    pub fn new(seed: u64) -> Self {
        assert_ne!(seed, 0, "xorshift64 needs a nonzero seed");
        XorShift(seed)
    }

    /// The next state.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Fills `buf`, a byte per step (the state's low byte).
    pub fn fill(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.next_u64() as u8;
        }
    }

    /// `n` bytes, as [`Self::fill`] writes them.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut out = vec![0; n];
        self.fill(&mut out);
        out
    }
}
