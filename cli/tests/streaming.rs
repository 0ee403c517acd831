//! `dmaspec decode` streams: its peak memory does not grow with the input. A small and an
//! eight-times larger stream go through a pipe (so nothing can be mapped or sized up
//! front) and the peak RSS (`VmHWM`) of the two runs must be within a few MiB of each
//! other. The big run (hundreds of MB through the release binary) is
//! `scripts/decode_rss.sh`; its figure is in docs/guide/performance.md.

#![cfg(target_os = "linux")]

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

/// The sample stream as binary: pairs, orphans and unknown opcodes included.
fn sample_words() -> Vec<u8> {
    common::hex_bytes(&common::root().join("samples/dge_stream.hex"))
}

fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Pipes `bytes` of words through `dmaspec decode [args] -`; returns (peak RSS KiB, output
/// bytes).
fn run(args: &[&str], total: usize) -> (u64, u64) {
    let words = sample_words();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .arg("decode")
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs dmaspec");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        let mut sent = 0;
        while sent < total {
            let n = words.len().min(total - sent);
            if stdin.write_all(&words[..n]).is_err() {
                break;
            }
            sent += n;
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        let mut n = 0u64;
        while let Ok(k) = stdout.read(&mut buf) {
            if k == 0 {
                break;
            }
            n += k as u64;
        }
        n
    });
    // VmHWM only grows; keep the last value read before the process goes away.
    let mut peak = 0;
    while child.try_wait().expect("waits").is_none() {
        if let Some(p) = peak_kib(pid) {
            peak = peak.max(p);
        }
        thread::sleep(Duration::from_millis(20));
    }
    writer.join().unwrap();
    let out = reader.join().unwrap();
    assert!(child.wait().unwrap().success(), "decode failed");
    (peak, out)
}

#[test]
fn decode_memory_stays_flat_as_the_input_grows() {
    for args in [&["--json"][..], &[][..]] {
        let small = 128 * 1024;
        let (small_peak, small_out) = run(args, small);
        let (big_peak, big_out) = run(args, small * 8);
        assert!(
            big_out > small_out * 7,
            "{args:?}: the output grew with the input"
        );
        assert!(small_peak > 0 && big_peak > 0, "VmHWM read");
        assert!(
            big_peak <= small_peak + 4 * 1024,
            "{args:?}: peak RSS {small_peak} KiB for 128 KiB in, {big_peak} KiB for 1 MiB in"
        );
        eprintln!(
            "{args:?}: peak RSS {small_peak} KiB for 128 KiB in, {big_peak} KiB for 1 MiB in"
        );
    }
}
