//! `dmaspec gen`: write `generated/` from the spec, or check that it is up to date.
//!
//! Both name the files in the output directory that gen did not write and leaves alone;
//! they never make `--check` fail, since no run of gen would change them.

use std::path::{Path, PathBuf};

use dmaspec_codegen::{Staleness, output};

use super::CliError;

pub struct GenArgs {
    pub spec: PathBuf,
    pub out: PathBuf,
    pub check: bool,
}

/// How many foreign files gen names before it only counts the rest.
const FOREIGN_SHOWN: usize = 20;

pub fn run(args: &GenArgs) -> Result<(), CliError> {
    output::check_separate(&args.spec, &args.out)?;
    let model = dmaspec_codegen::load::load_dir(&args.spec).map_err(CliError::Spec)?;
    let artifacts = dmaspec_codegen::generate(&model);
    if args.check {
        let survey = output::survey(&args.out, &artifacts)?;
        report_foreign(&args.out, &survey.foreign);
        if survey.stale.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = survey
            .stale
            .iter()
            .map(|(p, why)| format!("  {}: {why}", args.out.join(p).display()))
            .collect();
        return Err(CliError::Stale(list.join("\n")));
    }
    let done = output::write_artifacts(&args.out, &artifacts)?;
    report_foreign(&args.out, &done.foreign);
    let count = |extra: bool| {
        done.stale
            .iter()
            .filter(|(path, why)| path != output::MANIFEST && (*why == Staleness::Extra) == extra)
            .count()
    };
    crate::message!(
        "{} files in {} ({} written, {} removed)",
        artifacts.len(),
        args.out.display(),
        count(false),
        count(true)
    );
    Ok(())
}

fn report_foreign(out: &Path, foreign: &[String]) {
    if foreign.is_empty() {
        return;
    }
    crate::message!(
        "left alone, not written by dmaspec gen ({}):",
        foreign.len()
    );
    for path in foreign.iter().take(FOREIGN_SHOWN) {
        crate::message!("  {}", out.join(path).display());
    }
    if foreign.len() > FOREIGN_SHOWN {
        crate::message!("  … and {} more", foreign.len() - FOREIGN_SHOWN);
    }
}
