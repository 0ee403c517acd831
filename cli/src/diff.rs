//! `dmaspec diff OLD NEW` and `dmaspec diff --git REV_A REV_B`: what a spec change does to
//! the generated Rust API and C headers (see `dmaspec_codegen::diff`).

use std::path::{Path, PathBuf};
use std::process::Command;

use dmaspec::names::echo;
use dmaspec_codegen::diff::{self, Format, Impact};
use dmaspec_codegen::load::{load_dir, load_files};
use dmaspec_codegen::{Model, SpecErrors};

use dmaspec::verbs::Error;

use super::CliError;

/// What changed between two specs (directories, or revisions with --git), and what
/// each change does to the generated Rust API and C headers as a semver bump.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// The old spec directory (with --git: revision).
    pub old: PathBuf,
    /// The new spec directory (with --git: revision).
    pub new: PathBuf,
    /// OLD and NEW are git revisions of the repository in the current directory.
    #[arg(long)]
    pub git: bool,
    /// With --git: the spec directory in the repository.
    #[arg(long, default_value = "spec")]
    pub spec_dir: PathBuf,
    /// text, markdown (for a pull-request comment) or json.
    #[arg(long, default_value = "text", value_parser = parse_format)]
    pub format: Format,
    /// Exit 1 when either target's bump is at least this: major, minor or patch.
    #[arg(long, value_parser = parse_impact)]
    pub fail_on: Option<Impact>,
}

pub fn run(args: &DiffArgs) -> Result<(), CliError> {
    let load = |side: &Path| {
        if args.git {
            // A revision is text: git names refs in UTF-8 here.
            let rev = side
                .to_str()
                .ok_or_else(|| Error::Usage(format!("`{}` is not a revision", label(side))))?;
            load_revision(rev, &args.spec_dir)
        } else {
            load_dir(side).map_err(|e| not_loaded(&label(side), &e))
        }
    };
    let (old, new) = (load(&args.old)?, load(&args.new)?);
    let d = diff::diff(&old, &new, &label(&args.old), &label(&args.new));
    super::output::print(&diff::render(&d, args.format))?;
    match (args.fail_on, d.bump()) {
        (Some(limit), Some(bump)) if bump >= limit => Err(CliError::Invalid(format!(
            "the change is {} (Rust API {}, C headers {}); --fail-on {}",
            bump.name(),
            d.rust.map_or("none", Impact::name),
            d.c.map_or("none", Impact::name),
            limit.name()
        ))),
        _ => Ok(()),
    }
}

/// How a side is named in the report and in messages (a path need not be UTF-8).
fn label(side: &Path) -> String {
    side.display().to_string()
}

fn not_loaded(side: &str, e: &SpecErrors) -> CliError {
    Error::BadFile(format!("{side}: the spec does not load:\n{}", e.render())).into()
}

/// Runs `git args` in the current directory; its stdout, or why it failed.
fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// The spec at revision `rev`: its `*.toml` files under `spec_dir`, read with `git
/// ls-tree` and `git show` (no checkout), loaded as if they were `spec_dir`.
fn load_revision(rev: &str, spec_dir: &Path) -> Result<Model, CliError> {
    if rev.starts_with('-') {
        return Err(Error::Usage(format!("`{}` is not a revision", echo(rev))).into());
    }
    let bad = |why: String| Error::BadFile(format!("{rev}: {why}"));
    let dir = spec_dir.to_string_lossy();
    let listing = git(&["ls-tree", "-r", "-z", "--name-only", rev, "--", &dir]).map_err(bad)?;
    let mut paths: Vec<PathBuf> = listing
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(bad(format!("no spec: no *.toml under {dir}/ at this revision")).into());
    }
    let mut files = Vec::new();
    for p in paths {
        let spec = format!("{rev}:./{}", p.to_string_lossy());
        let text = git(&["show", &spec]).map_err(bad)?;
        let text =
            String::from_utf8(text).map_err(|_| bad(format!("{} is not UTF-8", p.display())))?;
        files.push((p, text));
    }
    load_files(spec_dir, files).map_err(|e| {
        Error::BadFile(format!(
            "{rev}: the spec at this revision does not load with today's loader:\n{}",
            e.render()
        ))
        .into()
    })
}

fn parse_format(s: &str) -> Result<Format, String> {
    let names = Format::NAMES;
    names
        .iter()
        .find(|(n, _)| *n == s)
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            format!("unknown format `{}` (one of: {})", echo(s), all.join(", "))
        })
}

fn parse_impact(s: &str) -> Result<Impact, String> {
    Impact::parse(s)
        .ok_or_else(|| format!("unknown bump `{}` (one of: major, minor, patch)", echo(s)))
}
