//! `dmaspec encode FILE.toml|FILE.json [--hex]`: words from text, written with the same
//! names `decode --json` prints. `decode --json` output is valid input and round-trips.
//!
//! The encoding itself is the library's ([`dmaspec::json::encode_all`]); this reads the
//! file (TOML is converted to the same JSON values), validates, and writes. Every error in
//! the file is reported at once; nothing is written when there is one.

use std::fmt::{Display, Write as _};
use std::path::Path;

use dmaspec::json::{self, encode_all};
use serde_json::Value as Json;

use super::CliError;

/// Reads an instruction list: `{"instructions": [...]}` (what decode prints), a bare JSON
/// array, or TOML with `[[instructions]]` tables.
pub fn read_instructions(path: &Path) -> Result<Vec<Json>, CliError> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path)?
    };
    let usage = |e: &dyn Display| CliError::Usage(format!("{}: {e}", path.display()));
    let list = if path.extension().is_some_and(|e| e == "toml") {
        let doc: Json = toml::from_str(&text).map_err(|e| usage(&e))?;
        json::instructions(doc)
    } else {
        json::instructions_from_str(&text)
    };
    list.map_err(|e| usage(&e))
}

/// Hex text, one word per line.
pub fn hex_lines(words: &[[u8; 64]]) -> String {
    let mut out = String::new();
    for w in words {
        let _ = writeln!(out, "{}", super::hex_string(w));
    }
    out
}

/// Every rule the encoded words break in `arch`, one line each, naming the instruction.
pub fn violations(words: &[[u8; 64]], arch: dmaspec::Arch) -> Vec<String> {
    let mut decoder = dmaspec::stream::Decoder::new(arch);
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if let dmaspec::stream::Decoded::Word { word, .. } = decoder.push(w) {
            let v = word.check(arch);
            for r in v.leaves() {
                out.push(format!(
                    "instruction {i} ({}): {}",
                    word.meta().name,
                    super::validate::violation_text(&v, r)
                ));
            }
        }
    }
    out
}

/// The `encode` command: all errors in one pass, nothing written on error. Unless
/// `validate` is off, a word that breaks a rule in `arch` is an error too.
pub fn run(input: &Path, hex: bool, arch: dmaspec::Arch, validate: bool) -> Result<(), CliError> {
    use std::io::Write as _;
    let list = read_instructions(input)?;
    let words = encode_all(&list).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        CliError::Encode(lines.join("\n"))
    })?;
    if validate {
        let broken = violations(&words, arch);
        if !broken.is_empty() {
            return Err(CliError::Encode(format!(
                "{}\n(rules checked for {}; --no-validate writes the words anyway)",
                broken.join("\n"),
                arch.name()
            )));
        }
    }
    let mut out = std::io::stdout().lock();
    if hex {
        out.write_all(hex_lines(&words).as_bytes())?;
    } else {
        for w in &words {
            out.write_all(w)?;
        }
    }
    out.flush()?;
    Ok(())
}
