//! `dmaspec decode`: a stream of words in, one table or one JSON document out, written as
//! the words are read.

use std::io::{self, Write};
use std::path::PathBuf;

use dmaspec::Arch;
use dmaspec::stream::{Decoded, WORD_SIZE};

use super::CliError;
use dmaspec::verbs::input::each_word;
use dmaspec::verbs::input::{self, WordReader};
use dmaspec::verbs::records::{decode_one, each_record, find, record_json};
use dmaspec::verbs::shape::{instruction_json, opcode_text, orphan_message};
use dmaspec::verbs::table::{self, TableRows};

/// Decode a stream of 64-byte words (raw binary, or hex text with --hex).
#[derive(clap::Args)]
pub struct DecodeArgs {
    /// Architecture: sunda, cayman, mariana, maverick.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// Input is hex text: runs of an even number of hex digits, whitespace and `#`
    /// comments.
    #[arg(long)]
    pub hex: bool,
    /// Print one JSON document instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Print one line per word in the producer's disassembly syntax (`encode --asm` reads
    /// it back).
    #[arg(long, conflicts_with_all = ["json", "record"])]
    pub asm: bool,
    /// No progress bar (shown on stderr when it is a terminal, stdout is not, and the
    /// input is a file).
    #[arg(long, short)]
    pub quiet: bool,
    /// Read a stream of records of this top-level struct (`SDMA_CME_BD_DESC`, 16 bytes
    /// each) instead of 64-byte words.
    #[arg(long = "struct", value_name = "NAME")]
    pub record: Option<String>,
    /// Lines as long as their contents: the meaning column of the tables unwrapped; by
    /// default lines fit 120 columns.
    #[arg(long)]
    pub wide: bool,
    /// Input file; `-` or absent for stdin.
    pub input: Option<PathBuf>,
}

fn table_text(
    index: usize,
    offset: usize,
    bytes: &[u8; WORD_SIZE],
    d: &Decoded,
    arch: Arch,
) -> String {
    let head = format!(
        "#{index}  offset {offset} ({offset:#06x})  opcode {:#04x}",
        bytes[0]
    );
    // The header of a word that did not decode says why, in lines that fit.
    // The header of a word that did not decode says why: on its line when it fits, else
    // on lines of its own under it.
    let why = |text: String| {
        let line = format!("{head}  {text}");
        if line.chars().count() <= table::width() {
            line
        } else {
            format!("{head}\n{}", table::fit_text(&format!("  {text}")))
        }
    };
    match d {
        Decoded::Word { word, extends } => {
            let mut rows = TableRows::new(word.meta().leaves);
            word.visit(&mut rows, arch);
            let ext = extends.map_or(String::new(), |i| format!("  (extension of #{i})"));
            format!(
                "{head}  {}{ext}\n{}{}",
                word.meta().name,
                table::render(&rows.rows),
                table::fit_text(&dmaspec::verbs::report::table_lines(
                    &word.check(arch),
                    arch,
                    &dmaspec::verbs::report::constant_lines(bytes, word.meta().leaves)
                ))
            )
        }
        Decoded::UnknownOpcode => format!(
            "{}\n{}",
            why(opcode_text(bytes[0], arch)),
            table::raw_lines(bytes)
        ),
        Decoded::Orphan { name, follows } => format!(
            "{}\n{}",
            why(orphan_message(name, follows)),
            table::raw_lines(bytes)
        ),
    }
}

pub fn run(args: &DecodeArgs) -> Result<(), CliError> {
    dmaspec::verbs::table::set_wide(args.wide);
    if let Some(name) = &args.record {
        return decode_records(args, name);
    }
    let (reader, progress) = super::progress::open(args.input.as_deref(), args.quiet)?;
    let words = WordReader::new(reader, args.hex, input::name(args.input.as_deref()));
    let mut out = super::output::stdout();
    if args.json {
        out.write_all(b"{\"instructions\":[")?;
    }
    let result = each_word(words, args.arch, |index, offset, bytes, d| {
        if args.asm {
            writeln!(out, "{}", dmaspec::asm::disassemble(bytes, args.arch))?;
        } else if args.json {
            if index > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            serde_json::to_writer(
                &mut out,
                &instruction_json(index, offset, bytes, d, args.arch),
            )
            .map_err(io::Error::from)?;
        } else {
            if index > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(table_text(index, offset, bytes, d, args.arch).as_bytes())?;
        }
        Ok(())
    });
    if args.json {
        out.write_all(b"\n]}\n")?;
    }
    out.flush()?;
    progress.finish();
    Ok(result?)
}

fn decode_records(args: &DecodeArgs, name: &str) -> Result<(), CliError> {
    let meta = find(name)?;
    let (reader, progress) = super::progress::open(args.input.as_deref(), args.quiet)?;
    let records = WordReader::new(reader, args.hex, input::name(args.input.as_deref()));
    let mut out = super::output::stdout();
    if args.json {
        out.write_all(b"{\"records\":[")?;
    }
    let result = each_record(records, meta, |index, offset, buf| {
        let r = &decode_one(meta, buf)?;
        if args.json {
            if index > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            serde_json::to_writer(&mut out, &record_json(index, offset, buf, r, args.arch))
                .map_err(io::Error::from)?;
        } else {
            if index > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(
                dmaspec::verbs::records::table_text(index, offset, r, args.arch).as_bytes(),
            )?;
        }
        Ok(())
    });
    if args.json {
        out.write_all(b"\n]}\n")?;
    }
    out.flush()?;
    progress.finish();
    Ok(result?)
}
