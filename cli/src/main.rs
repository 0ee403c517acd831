//! `dmaspec`: generate the artifacts from the spec, and decode instruction streams. Every
//! verb is a module of the `dmaspec_cli` library with its `Args` and `run`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dmaspec::names::echo_within;
use dmaspec_cli::{
    CliError, addr, audit, check, decode, diff, encode, explain, generate, klr, lower, neff, regs,
    validate,
};

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
    Gen(generate::GenArgs),
    Decode(decode::DecodeArgs),
    Encode(encode::EncodeArgs),
    Explain(explain::ExplainArgs),
    Regs(regs::RegsArgs),
    Addr(addr::AddrArgs),
    Lower(lower::LowerArgs),
    Klr(klr::KlrArgs),
    Neff(neff::NeffArgs),
    Validate(validate::ValidateArgs),
    Check(check::CheckArgs),
    Diff(diff::DiffArgs),
    Audit(audit::AuditArgs),
}

fn run(command: &Command) -> Result<(), CliError> {
    match command {
        Command::Gen(args) => generate::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Encode(args) => encode::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Regs(args) => regs::run(args),
        Command::Addr(args) => addr::run(args),
        Command::Lower(args) => lower::run(args),
        Command::Klr(args) => klr::run(args),
        Command::Neff(args) => neff::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Check(args) => check::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Audit(args) => audit::run(args),
    }
}

/// How many characters of a line of clap's messages are shown: they repeat the argument
/// that is wrong, whatever its length.
const CLAP_LINE: usize = 200;

/// `--help`, `--version` and `help` go to stdout through the output layer (a failed write
/// is exit 1, as for any verb); clap's errors go to stderr, each line cut to [`CLAP_LINE`].
fn parsed() -> Result<Cli, ExitCode> {
    let e = match Cli::try_parse() {
        Ok(cli) => return Ok(cli),
        Err(e) => e,
    };
    let text = e.render().to_string();
    if !e.use_stderr() {
        return Err(exit(dmaspec_cli::output::print(&text)));
    }
    for line in text.lines() {
        dmaspec_cli::message!("{}", echo_within(line, CLAP_LINE));
    }
    Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)))
}

/// The exit code of a verb's result, its error reported.
fn exit(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout stopped early (`dmaspec decode … | head`): it has what it
        // wanted, as ripgrep and the coreutils treat it.
        Err(e) if e.is_closed_stdout() => ExitCode::SUCCESS,
        Err(e) => {
            dmaspec_cli::message!("dmaspec: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn main() -> ExitCode {
    match parsed() {
        Ok(cli) => exit(run(&cli.command)),
        Err(code) => code,
    }
}
