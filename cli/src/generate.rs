//! `dmaspec gen`: write `generated/` from the spec, or check that it is up to date.
//!
//! Both name the files in the output directory that gen did not write and leaves alone;
//! they never make `--check` fail, since no run of gen would change them.

use std::path::{Path, PathBuf};

use dmaspec_codegen::{Staleness, output};

use super::CliError;

/// Regenerate generated/ (Rust copy, C headers, Markdown, JSON) from spec/, with the
/// book's hand-written pages from docs/ beside it.
#[derive(clap::Args)]
pub struct GenArgs {
    /// Spec directory.
    #[arg(long, default_value = super::error::DEFAULT_SPEC)]
    pub spec: PathBuf,
    /// Output directory.
    #[arg(long, default_value = "generated")]
    pub out: PathBuf,
    /// Write nothing; exit 1 and name the files that would change.
    #[arg(long)]
    pub check: bool,
}

/// How many foreign files gen names before it only counts the rest.
const FOREIGN_SHOWN: usize = 20;

pub fn run(args: &GenArgs) -> Result<(), CliError> {
    super::error::missing_default_spec(&args.spec, "--spec")?;
    output::check_separate(&args.spec, &args.out)?;
    let model = dmaspec_codegen::load::load_dir(&args.spec).map_err(CliError::Spec)?;
    // The book's hand-written pages: docs/ beside the spec, copied as outputs.
    let guide = dmaspec_codegen::guide::read(&dmaspec_codegen::guide::dir_for(&args.spec))?;
    let mut artifacts = dmaspec_codegen::generate_with_guide(&model, &guide);
    // The stamps name the spec directory read (`spec` by default).
    output::name_spec_dir_all(&mut artifacts, &output::spec_label(&args.spec));
    if args.check {
        let survey = output::survey(&args.out, &artifacts)?;
        report_foreign(&args.out, &survey.foreign);
        report_kept(&args.out, &survey.kept);
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
    report_kept(&args.out, &done.kept);
    for (path, _) in done
        .stale
        .iter()
        .filter(|(_, why)| *why == Staleness::Extra)
    {
        eprintln!("removed {}", args.out.join(path).display());
    }
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

/// Files the manifest lists that gen would remove but does not: they lack its stamp.
fn report_kept(out: &Path, kept: &[String]) {
    for path in kept {
        eprintln!(
            "not removed: {} is listed in {} but has no `{}` stamp, so dmaspec gen did not \
             write it; delete it yourself if it is an old generated file",
            out.join(path).display(),
            out.join(output::MANIFEST).display(),
            output::STAMP
        );
    }
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
