//! `dmaspec`: generate the artifacts from the spec, and decode instruction streams. Every
//! verb is a module of the `dmaspec_cli` library with its `Args` and `run`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dmaspec_cli::{
    CliError, audit, check, decode, diff, encode, explain, generate, klr, lower, regs, validate,
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
    Lower(lower::LowerArgs),
    Klr(klr::KlrArgs),
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
        Command::Lower(args) => lower::run(args),
        Command::Klr(args) => klr::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Check(args) => check::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Audit(args) => audit::run(args),
    }
}

fn main() -> ExitCode {
    match run(&Cli::parse().command) {
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
