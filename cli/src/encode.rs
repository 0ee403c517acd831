//! `dmaspec encode FILE.toml|FILE.json|- [--hex]`: words from text, written with the same
//! names `decode --json` prints. `decode --json` output is valid input and round-trips.
//! The reading and checking are the library's ([`dmaspec::verbs::encode`]); this writes.

use std::io::Write;
use std::path::{Path, PathBuf};

use dmaspec::Arch;
use dmaspec::json::hex_string;
use dmaspec::verbs::Error;
use dmaspec::verbs::encode::{assemble, encode_input};
use dmaspec::verbs::input::open;
use dmaspec::verbs::records::find;
use dmaspec::verbs::shape::hex_lines;

use super::CliError;

/// Words from text: a list of instructions with the names `decode --json` prints
/// (struct + fields; enumerators by name or number), as binary or hex.
#[derive(clap::Args)]
pub struct EncodeArgs {
    /// `FILE.json` (decode's output, or a bare list), `FILE.toml` (`[[instructions]]`),
    /// or `-` for JSON on stdin.
    pub input: PathBuf,
    /// Print hex text, one word per line, instead of binary.
    #[arg(long)]
    pub hex: bool,
    /// Architecture the words are validated for.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// Write the words even if `validate` would reject them. Without it, faults the
    /// input already records (decode's `violations`, `constant_mismatches`,
    /// `"struct": null`) are a warning; any other is an error.
    #[arg(long)]
    pub no_validate: bool,
    /// Records of this top-level struct (`decode --struct NAME --json`'s `records`)
    /// instead of words.
    #[arg(long = "struct", value_name = "NAME")]
    pub record: Option<String>,
    /// The input is lines of `decode --asm`'s syntax (`#` comments and blank lines
    /// skipped), one word each, written as they say (every bit is on the line: no
    /// validation).
    #[arg(long, conflicts_with = "record")]
    pub asm: bool,
}

/// The `encode` command: nothing is written when the input has an error.
pub fn run(args: &EncodeArgs) -> Result<(), CliError> {
    let validate = !args.no_validate;
    if args.asm {
        return encode_asm(&args.input, args.hex, args.arch);
    }
    match &args.record {
        Some(name) => encode_records(&args.input, args.hex, name, args.arch, validate),
        None => encode_words(&args.input, args.hex, args.arch, validate),
    }
}

fn encode_words(input: &Path, hex: bool, arch: Arch, validate: bool) -> Result<(), CliError> {
    let (words, warnings) = encode_input(input, arch, validate)?;
    write_words(&words, hex)?;
    for w in warnings {
        crate::message!("dmaspec: warning: {w}");
    }
    Ok(())
}

fn write_words(words: &[[u8; 64]], hex: bool) -> Result<(), CliError> {
    use std::io::Write as _;
    let mut out = super::output::stdout();
    if hex {
        out.write_all(hex_lines(words).as_bytes())?;
    } else {
        for w in words {
            out.write_all(w)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// `encode --asm`: the library assembles the lines one at a time; nothing is written when
/// one has an error.
fn encode_asm(input: &Path, hex: bool, arch: Arch) -> Result<(), CliError> {
    let words = assemble(open(Some(input))?, arch).map_err(|e| Error::read(input, e))??;
    write_words(&words, hex)
}

/// `dmaspec encode --struct NAME`: records from `decode --struct NAME --json`'s list (or a
/// bare list, or TOML `[[records]]`), checked against their rules unless `validate` is off
/// (a rule the entry's own `violations` lists was broken in the decoded input: written
/// anyway), then written as binary or one hex line per record.
fn encode_records(
    input: &Path,
    hex: bool,
    name: &str,
    arch: Arch,
    validate: bool,
) -> Result<(), CliError> {
    let meta = find(name)?;
    let all = dmaspec::verbs::records::encode_input(meta, input, arch, validate)?;
    let mut out = super::output::stdout();
    for bytes in &all {
        if hex {
            writeln!(out, "{}", hex_string(bytes))?;
        } else {
            out.write_all(bytes)?;
        }
    }
    out.flush()?;
    Ok(())
}
