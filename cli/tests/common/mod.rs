//! Helpers shared by the command line's tests (`mod common;` in each test file): the
//! `dmaspec` binary, and everything the library's tests share (`tests/common/`, included
//! here: hex vector files, the workspace's spec, the properties the fuzz targets share).
//!
//! Each test file is its own crate and uses only some of these, hence the `dead_code` allow.

#![allow(dead_code)]

#[path = "../../../tests/common/mod.rs"]
mod library;

use std::io::Write;
use std::process::{Command, Output, Stdio};

#[allow(unused_imports)] // as with dead_code: each test uses some
pub use library::*;

// ---- the binary ------------------------------------------------------------------------

/// Runs the `dmaspec` binary from the crate root with `args`, feeding it `stdin` (from a
/// thread, so a large input cannot dead-lock against a full stdout pipe).
pub fn dmaspec(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dmaspec runs");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

/// A process's stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A process's stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts that a `dmaspec` run exited 0, showing its stderr otherwise.
#[track_caller]
pub fn assert_success(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}
