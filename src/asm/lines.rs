//! Lines read one at a time from a text stream, each assembled as it comes: memory is one
//! line, at most [`MAX_LINE`] bytes (a longer one is an error and is skipped, not held).

use std::io::{self, BufRead, Read};

use crate::words::Arch;

use super::error::AsmError;
use super::parse::assemble;

/// The longest line read: 64 KiB (a word's longest line is under 1 KiB).
pub const MAX_LINE: usize = 1 << 16;

/// Calls `f` with the number (from 1) and the bytes or error of every line of `reader`
/// that is not blank or a comment; fails only when the stream cannot be read.
pub fn for_each_line(
    mut reader: impl BufRead,
    arch: Arch,
    mut f: impl FnMut(usize, Result<[u8; 64], AsmError>),
) -> io::Result<()> {
    let mut buf = Vec::new();
    for number in 1.. {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if read == 0 {
            return Ok(());
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            skip_line(&mut reader)?;
            f(
                number,
                Err(AsmError::new(
                    MAX_LINE + 1,
                    format!("the line is over {} KiB", MAX_LINE >> 10),
                )),
            );
            continue;
        }
        let text = match std::str::from_utf8(&buf) {
            Ok(t) => t.trim_end_matches(['\n', '\r']),
            Err(e) => {
                let column = String::from_utf8_lossy(&buf[..e.valid_up_to()])
                    .chars()
                    .count()
                    + 1;
                f(
                    number,
                    Err(AsmError::new(column, "the line is not UTF-8 text")),
                );
                continue;
            }
        };
        if let Some(result) = assemble(text, arch).transpose() {
            f(number, result);
        }
    }
    Ok(())
}

/// Reads past the rest of a line without holding it.
fn skip_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = chunk.len();
                reader.consume(n);
            }
        }
    }
}
