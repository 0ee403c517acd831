//! One line per 64-byte word in the syntax of the producer's disassembly (feature `json`):
//! the `.asm` files shipped beside a NEFF's engine streams. [`disassemble`] prints a word;
//! [`assemble`] reads such a line back to the same bytes.
//!
//! The pages show the syntax on the real pe.bin and pool.bin ("Per-Engine TPB-Sequencer
//! Microcode (64-byte word)" §7.1, §7.2), and their bytes print those lines exactly:
//!
//! ```text
//! PSEUDO_TRIGGER_COLLECTIVE $S[10]>0 $S[22]++@complete ctype=ALL_REDUCE input_tensor_id=3 output_tensor_id=4 num_elements=32 dtype=fp32 op=ADD group_id=0;
//! PSEUDO_DMA_TRIGGER $S[22]>0 q_gradient_out block_id=0;
//! EVENT_SEMAPHORE $S[11]>0;
//! ```
//!
//! A line is the mnemonic (the word's name; for an opcode the spec has no word for, its
//! `OPCODE` enumerator), then its operands, then `;`. Where the pages show none, a
//! regular extension carries every other bit: each field that differs from the word's
//! template as `path=value` (the leaf's path, as `decode --json` nests it), the payload of
//! an opcode without a word as `raw[a..b]=0x…`, and a byte that is no opcode as
//! `.word 0x…` (all 64 bytes). The value forms are in `value.rs`, the semaphore forms in [`events`].
//!
//! ```
//! use dmaspec::asm::{assemble, disassemble};
//! use dmaspec::words::Arch;
//!
//! let line = "PSEUDO_DMA_TRIGGER $S[22]>0 q_gradient_out block_id=0;";
//! let bytes = assemble(line, Arch::cayman).unwrap().unwrap();
//! assert_eq!((bytes[0], &bytes[12..16]), (0xc1, &b"q_gr"[..]));
//! assert_eq!(disassemble(&bytes, Arch::cayman), line);
//! ```

mod error;
pub mod events;
mod layout;
mod lines;
mod parse;
mod print;
mod producer;
mod value;

pub use error::AsmError;
pub use lines::{MAX_LINE, for_each_line};

use crate::words::Arch;

/// The line of the word `bytes` in `arch`.
pub fn disassemble(bytes: &[u8; 64], arch: Arch) -> String {
    print::line(bytes, arch)
}

/// The bytes of one line in `arch`; `None` for a blank line or a `#` comment.
pub fn assemble(line: &str, arch: Arch) -> Result<Option<[u8; 64]>, AsmError> {
    parse::assemble(line, arch)
}
