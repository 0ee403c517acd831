//! `dmaspec explain OPCODE|STRUCT|STRUCT.FIELD`: what the spec knows about a word or a
//! field, as [`dmaspec::verbs::explain`] renders it.

use dmaspec::verbs::explain::explain;

use super::CliError;

/// Everything the spec knows about a word, type, field or register: `0xd4`,
/// `DMA_INDIRECT1D`, `DTYPE`, `DMA_INDIRECT1D.flags.gather_dim`,
/// `UDMA_M2S.M2S_Q.cfg.en_scheduling`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// An opcode (`0xd4`), a word (`DMA_INDIRECT1D`) or its opcode enumerator
    /// (`DMAMEMCPY`), a type (`DTYPE`), a field path (`WORD.a.b`, `WORD.a[0]`), or a
    /// register file, bundle, register or register field (`FILE.BUNDLE.reg.field`).
    // Any bytes, as every verb's arguments: a query that is not UTF-8 names nothing, which
    // the usage error says.
    pub what: std::ffi::OsString,
    /// Lines as long as their contents: the text and the tables' notes unwrapped; by
    /// default lines fit 120 columns.
    #[arg(long)]
    pub wide: bool,
}

pub fn run(args: &ExplainArgs) -> Result<(), CliError> {
    dmaspec::verbs::table::set_wide(args.wide);
    super::output::print(&explain(&args.what.to_string_lossy())?)
}
