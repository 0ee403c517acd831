//! `dmaspec lower`: what the host runtime makes of the compiler's pseudo words, written as
//! binary, hex, JSON or an explanation ([`dmaspec::verbs::lower`] lowers).

use std::path::PathBuf;

use dmaspec::Arch;
use dmaspec::verbs::input::{self, WordReader};
use dmaspec::verbs::lower::{LowerOptions, Vars, lower_stream, read_vars};

use super::CliError;

/// Lower the compiler's pseudo words as the host runtime does (the spec's
/// `[[lowering]]`): PSEUDO_DMA_DIRECT2D (+ its PSEUDO_DMA_EXT) to the real DGE word its
/// dge_op picks; every other word unchanged.
#[derive(clap::Args)]
pub struct LowerArgs {
    /// Architecture: sunda, cayman, mariana, maverick.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// Dispatcher version (`v2`, `v3`); the spec's default when absent.
    #[arg(long)]
    pub abi: Option<String>,
    /// Variable table for VAR_ID addresses: TOML or JSON, variable id = base address.
    #[arg(long)]
    pub vars: Option<PathBuf>,
    /// Input is hex text; output is hex text, one word per line.
    #[arg(long)]
    pub hex: bool,
    /// Print one JSON document: decode's shape of each produced word plus `from`.
    #[arg(long, conflicts_with = "explain")]
    pub json: bool,
    /// Print, per produced word, every mapping applied with its confidence.
    #[arg(long)]
    pub explain: bool,
    /// Lines as long as their contents: --explain's source column unwrapped; by default
    /// lines fit 120 columns.
    #[arg(long)]
    pub wide: bool,
    /// Input file; `-` or absent for stdin.
    pub input: Option<PathBuf>,
}

pub fn run(args: &LowerArgs) -> Result<(), CliError> {
    dmaspec::verbs::table::set_wide(args.wide);
    let vars = match &args.vars {
        Some(p) => read_vars(p)?,
        None => Vars::new(),
    };
    let reader = input::open(args.input.as_deref())?;
    let mut words = WordReader::new(reader, args.hex, input::name(args.input.as_deref()));
    let options = LowerOptions {
        arch: args.arch,
        abi: args.abi.clone(),
        hex: args.hex,
        json: args.json,
        explain: args.explain,
    };
    Ok(lower_stream(
        &options,
        &vars,
        &mut words,
        super::output::stdout(),
    )?)
}
