//! `dmaspec addr ADDRESS [--arch A] [--json]`: an absolute MMIO address named — the
//! instance of the SoC address map it falls in, the register file (engine) there, the
//! bundle element, register and fields; or the hole it falls in, between what.

use dmaspec::Arch;

use super::CliError;
use dmaspec::verbs::address::Answer;
use dmaspec::verbs::place;

/// Name what an absolute MMIO address falls in: instance, register file, bundle element,
/// register and fields, or the hole between two windows.
#[derive(clap::Args)]
pub struct AddrArgs {
    /// The address: `0x1002506038`, or decimal; `_` separators allowed.
    pub address: String,
    /// Architecture: sunda, cayman, mariana, maverick.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &AddrArgs) -> Result<(), CliError> {
    let address = place::parse_address(&args.address)?;
    let arch = args.arch.name();
    let map = place::map(arch)?;
    let answer = Answer::of(map, address);
    let text = if args.json {
        let doc = answer.json(address, arch);
        let text = serde_json::to_string_pretty(&doc).map_err(std::io::Error::from)?;
        format!("{text}\n")
    } else {
        answer.text(address, arch)
    };
    super::output::print(&text)
}
