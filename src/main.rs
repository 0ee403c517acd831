//! `dmaspec`: generate the artifacts from the spec, and decode instruction streams.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dmaspec::Arch;
use dmaspec::cli;

use cli::decode::DecodeArgs;
use cli::generate::GenArgs;
use cli::lower::LowerArgs;
use cli::validate::ValidateArgs;

#[derive(Parser)]
#[command(
    name = "dmaspec",
    version,
    about = "Neuron TPB DMA instruction words: generate, decode"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate generated/ (Rust copy, C headers, Markdown, JSON) from spec/.
    Gen {
        /// Spec directory.
        #[arg(long, default_value = "spec")]
        spec: PathBuf,
        /// Output directory.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// Write nothing; exit 1 and name the files that would change.
        #[arg(long)]
        check: bool,
    },
    /// Decode a stream of 64-byte words (raw binary, or hex text with --hex).
    Decode {
        /// Architecture: sunda, cayman, mariana, maverick.
        #[arg(long, default_value = "cayman", value_parser = cli::parse_arch)]
        arch: Arch,
        /// Input is hex text: runs of an even number of hex digits, whitespace and `#`
        /// comments.
        #[arg(long)]
        hex: bool,
        /// Print one JSON document instead of tables.
        #[arg(long)]
        json: bool,
        /// No progress bar (shown on stderr when it is a terminal, stdout is not, and the
        /// input is a file).
        #[arg(long, short)]
        quiet: bool,
        /// Read a stream of records of this top-level struct (`SDMA_CME_BD_DESC`, 16 bytes
        /// each) instead of 64-byte words.
        #[arg(long = "struct", value_name = "NAME")]
        record: Option<String>,
        /// Lines as long as their contents: the meaning column of the tables unwrapped; by
        /// default lines fit 120 columns.
        #[arg(long)]
        wide: bool,
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
    },
    /// Words from text: a list of instructions with the names `decode --json` prints
    /// (struct + fields; enumerators by name or number), as binary or hex.
    Encode {
        /// `FILE.json` (decode's output, or a bare list), `FILE.toml` (`[[instructions]]`),
        /// or `-` for JSON on stdin.
        input: PathBuf,
        /// Print hex text, one word per line, instead of binary.
        #[arg(long)]
        hex: bool,
        /// Architecture the words are validated for.
        #[arg(long, default_value = "cayman", value_parser = cli::parse_arch)]
        arch: Arch,
        /// Write the words even if `validate` would reject them. Without it, faults the
        /// input already records (decode's `violations`, `constant_mismatches`,
        /// `"struct": null`) are a warning; any other is an error.
        #[arg(long)]
        no_validate: bool,
        /// Records of this top-level struct (`decode --struct NAME --json`'s `records`)
        /// instead of words.
        #[arg(long = "struct", value_name = "NAME")]
        record: Option<String>,
    },
    /// Everything the spec knows about a word, type, field or register: `0xd4`,
    /// `DMA_INDIRECT1D`, `DTYPE`, `DMA_INDIRECT1D.flags.gather_dim`,
    /// `UDMA_M2S.M2S_Q.cfg.en_scheduling`.
    Explain {
        /// An opcode (`0xd4`), a word (`DMA_INDIRECT1D`) or its opcode enumerator
        /// (`DMAMEMCPY`), a type (`DTYPE`), a field path (`WORD.a.b`, `WORD.a[0]`), or a
        /// register file, bundle, register or register field (`FILE.BUNDLE.reg.field`).
        what: String,
        /// Lines as long as their contents: the text and the tables' notes unwrapped; by
        /// default lines fit 120 columns.
        #[arg(long)]
        wide: bool,
    },
    /// Decode a dump of a register file's window (or, with --bundle, of one bundle
    /// element): every register's fields on the architecture, unknown bits kept raw.
    Regs {
        /// The register file (`UDMA_M2S`).
        file: String,
        /// Architecture: sunda, cayman, mariana, maverick.
        #[arg(long, default_value = "cayman", value_parser = cli::parse_arch)]
        arch: Arch,
        /// The dump is of this bundle element only (`M2S_Q[3]`, or `M2S`).
        #[arg(long)]
        bundle: Option<String>,
        /// Input is hex text of bytes (little-endian registers), as decode reads.
        #[arg(long, conflicts_with = "words")]
        hex: bool,
        /// Input is hex text of 32-bit values, one per 4-byte slot from the dump's start
        /// (`0x40000000`; `#` comments).
        #[arg(long)]
        words: bool,
        /// Print one JSON document instead of a table.
        #[arg(long)]
        json: bool,
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
    },
    /// Lower the compiler's pseudo words as the host runtime does (the spec's
    /// `[[lowering]]`): PSEUDO_DMA_DIRECT2D (+ its PSEUDO_DMA_EXT) to the real DGE word its
    /// dge_op picks; every other word unchanged.
    Lower {
        /// Architecture: sunda, cayman, mariana, maverick.
        #[arg(long, default_value = "cayman", value_parser = cli::parse_arch)]
        arch: Arch,
        /// Dispatcher version (`v2`, `v3`); the spec's default when absent.
        #[arg(long)]
        abi: Option<String>,
        /// Variable table for VAR_ID addresses: TOML or JSON, variable id = base address.
        #[arg(long)]
        vars: Option<PathBuf>,
        /// Input is hex text; output is hex text, one word per line.
        #[arg(long)]
        hex: bool,
        /// Print one JSON document: decode's shape of each produced word plus `from`.
        #[arg(long, conflicts_with = "explain")]
        json: bool,
        /// Print, per produced word, every mapping applied with its confidence.
        #[arg(long)]
        explain: bool,
        /// Lines as long as their contents: --explain's source column unwrapped; by
        /// default lines fit 120 columns.
        #[arg(long)]
        wide: bool,
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
    },
    /// Seed 003's KLR→BIR data-movement leaves: `klr lower FILE.json [--json]`.
    Klr {
        #[command(subcommand)]
        command: cli::klr::KlrCommand,
    },
    /// Check every word of a stream against the spec's validity rules: one line per
    /// violated rule; exit 1 if any word is invalid. A broken compiler rule (what
    /// neuronx-cc guarantees, not what the ISA forbids) is a warning line.
    Validate {
        /// Architecture: sunda, cayman, mariana, maverick.
        #[arg(long, default_value = "cayman", value_parser = cli::parse_arch)]
        arch: Arch,
        /// Input is hex text: runs of an even number of hex digits, whitespace and `#`
        /// comments.
        #[arg(long)]
        hex: bool,
        /// Read a stream of records of this top-level struct instead of 64-byte words.
        #[arg(long = "struct", value_name = "NAME")]
        record: Option<String>,
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
    },
    /// Load and lint the spec: every load error and lint warning, with file:line:col, the
    /// line and what to do; exit 1 on an error (or a warning, with --deny-warnings).
    Check(cli::check::CheckArgs),
    /// What changed between two specs (directories, or revisions with --git), and what
    /// each change does to the generated Rust API and C headers as a semver bump.
    Diff(cli::diff::DiffArgs),
    /// Audit the byte-map tables of Markdown source pages against the spec: per page and
    /// section, the rows it holds exactly, differently or not at all.
    Audit(cli::audit::AuditArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli::table::set_wide(matches!(
        cli.command,
        Command::Decode { wide: true, .. }
            | Command::Explain { wide: true, .. }
            | Command::Lower { wide: true, .. }
    ));
    let result = match cli.command {
        Command::Gen { spec, out, check } => cli::generate::run(&GenArgs { spec, out, check }),
        Command::Decode {
            arch,
            hex,
            json,
            quiet,
            record,
            input,
            ..
        } => cli::decode::run(&DecodeArgs {
            arch,
            hex,
            json,
            input,
            quiet,
            record,
        }),
        Command::Encode {
            input,
            hex,
            arch,
            no_validate,
            record: Some(name),
        } => cli::records::encode(&input, hex, &name, arch, !no_validate),
        Command::Encode {
            input,
            hex,
            arch,
            no_validate,
            record: None,
        } => cli::encode::run(&input, hex, arch, !no_validate),
        Command::Explain { what, .. } => {
            cli::explain::explain(&what).and_then(|text| cli::output::print(&text))
        }
        Command::Klr { command } => cli::klr::run(&command),
        Command::Regs {
            file,
            arch,
            bundle,
            hex,
            words,
            json,
            input,
        } => cli::registers::dump(&cli::registers::DumpArgs {
            file,
            arch,
            bundle,
            hex,
            words,
            json,
            input,
        }),
        Command::Lower {
            arch,
            abi,
            vars,
            hex,
            json,
            explain,
            input,
            ..
        } => cli::lower::run(&LowerArgs {
            arch,
            abi,
            vars,
            hex,
            json,
            explain,
            input,
        }),
        Command::Validate {
            arch,
            hex,
            record,
            input,
        } => cli::validate::run(&ValidateArgs {
            arch,
            hex,
            input,
            record,
        }),
        Command::Check(args) => cli::check::run(&args),
        Command::Diff(args) => cli::diff::run(&args),
        Command::Audit(args) => cli::audit::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout stopped early (`dmaspec decode … | head`): it has what it
        // wanted, as ripgrep and the coreutils treat it.
        Err(e) if e.is_closed_stdout() => ExitCode::SUCCESS,
        Err(e) => {
            dmaspec::message!("dmaspec: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
