//! Crates built the way a user of `dmaspec` builds one: outside the workspace, against
//! `dmaspec` by path with its default features off, offline, warnings as errors. They share
//! one target directory, so `dmaspec` and the generator compile there once for all of them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::root;

/// Where the crates, their inputs and their shared target directory live.
pub fn dir() -> PathBuf {
    root().join("target/downstream")
}

/// Writes `krate/Cargo.toml` for package `name` (depending on `dmaspec`, then the manifest
/// lines `extra`) and the workspace's `Cargo.lock` next to it, so nothing is resolved anew.
pub fn manifest(krate: &Path, name: &str, extra: &str) {
    std::fs::create_dir_all(krate).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\ndmaspec = {{ path = {:?}, default-features = false }}\n{extra}\n\
             [workspace]\n",
            root().display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(root().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
}

/// Runs `cargo <args>` in `krate` in the shared target directory; panics with its output
/// unless it succeeds.
pub fn cargo(krate: &Path, args: &[&str]) {
    let out = cargo_output(krate, args);
    assert!(
        out.status.success(),
        "cargo {} in {} failed:\n{}{}",
        args.join(" "),
        krate.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `cargo <args>` in `krate` as [`cargo`] does, and returns what it did.
pub fn cargo_output(krate: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // `--offline` before the subcommand: `cargo rustc` passes what follows `--` to rustc.
    Command::new(cargo)
        .arg("--offline")
        .args(args)
        .current_dir(krate)
        .env("CARGO_TARGET_DIR", dir().join("target"))
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("RUSTDOCFLAGS")
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo: {e}"))
}
