//! `dmaspec gen`: write `generated/` from the spec, or check that it is up to date.

use std::path::PathBuf;

use super::CliError;

pub struct GenArgs {
    pub spec: PathBuf,
    pub out: PathBuf,
    pub check: bool,
}

pub fn run(args: &GenArgs) -> Result<(), CliError> {
    let model = dmaspec_codegen::loader::load_dir(&args.spec).map_err(CliError::Spec)?;
    let artifacts = dmaspec_codegen::generate(&model);
    if args.check {
        let stale = dmaspec_codegen::stale_files(&args.out, &artifacts);
        if stale.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = stale
            .iter()
            .map(|(p, why)| format!("  {}: {why}", args.out.join(p).display()))
            .collect();
        return Err(CliError::Stale(list.join("\n")));
    }
    let written =
        dmaspec_codegen::write_artifacts(&args.out, &artifacts).map_err(|error| CliError::Io {
            path: args.out.display().to_string(),
            write: true,
            error,
        })?;
    eprintln!(
        "{} files in {} ({written} written)",
        artifacts.len(),
        args.out.display()
    );
    Ok(())
}
