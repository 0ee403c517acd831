//! `dmaspec decode` streams: its peak memory does not grow with the input. A small and an
//! eight-times larger stream go through a pipe (so nothing can be mapped or sized up
//! front) and the peak RSS (`VmHWM`) of the two runs must be within a few MiB of each
//! other. The big run (hundreds of MB through the release binary) is
//! `scripts/decode_rss.sh`; its figure is in docs/guide/performance.md.
//!
//! `dmaspec encode` streams too: `decode --json` of [`ENCODE_JSON_MB`] MB of words piped
//! into `encode -` stays under [`ENCODE_PEAK_MIB`] of RSS, and gives back the same bytes.

#![cfg(target_os = "linux")]

mod common;

use std::io::{BufReader, Read, Write};
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

/// How much of `decode --json`'s output the encode check pipes through (about 3.7 KB per
/// word, so some 11 000 words): enough that the encode that read the whole document (240
/// MiB for 20 MB) is far over the bound, small enough for a debug build (about 15 s).
/// `DMASPEC_ENCODE_JSON_MB=200` runs the size (25 MiB peak, about a minute in a
/// debug build); `scripts/encode_rss.sh` measures the release binary.
const ENCODE_JSON_MB: u64 = 40;

/// The encode's peak RSS bound (before it streamed, 20 MB of JSON took 240 MiB).
const ENCODE_PEAK_MIB: u64 = 100;

/// Random-ish words, the same for the same `seed`: arbitrary bytes dispatched to each word
/// of the spec in turn (so they decode as it, with whatever faults the bytes make), with
/// the sample stream (pairs, orphans, unknown opcodes) between them.
struct Words {
    state: u64,
    sample: Vec<u8>,
}

impl Words {
    fn new() -> Self {
        Words {
            state: 0x9e37_79b9_7f4a_7c15,
            sample: sample_words(),
        }
    }

    /// The next run of words: one per word of the spec, then the sample.
    fn chunk(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        for w in dmaspec::WORDS {
            let mut b = [0u8; 64];
            for x in &mut b {
                // xorshift64
                self.state ^= self.state << 13;
                self.state ^= self.state >> 7;
                self.state ^= self.state << 17;
                *x = self.state as u8;
            }
            common::dispatch_to(w, &mut b);
            out.extend_from_slice(&b);
        }
        out.extend_from_slice(&self.sample);
        out
    }
}

/// Reads `r` to its end in pieces; calls `each` with each.
fn drain(mut r: impl Read, mut each: impl FnMut(&[u8])) {
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(k) => each(&buf[..k]),
        }
    }
}

#[test]
fn encode_of_decode_json_streams_and_round_trips() {
    let mut words = Words::new();
    stream_round_trip(&[], move || words.chunk());
}

#[test]
fn encode_of_decode_struct_json_streams_and_round_trips() {
    // The 16-byte SDMA descriptor (`types/sdma.toml`): arbitrary bytes, a run at a time.
    let mut words = Words::new();
    stream_round_trip(&["--struct", "SDMA_CME_BD_DESC"], move || words.chunk());
}

/// Pipes the streams `chunk` makes into `decode --json` (with `extra` arguments) and its
/// JSON into `encode -` (with the same), until the JSON reaches `DMASPEC_ENCODE_JSON_MB`
/// (else [`ENCODE_JSON_MB`]) MB; asserts encode's peak RSS stays within
/// [`ENCODE_PEAK_MIB`] and that every byte comes back.
fn stream_round_trip(extra: &[&str], mut chunk: impl FnMut() -> Vec<u8> + Send + 'static) {
    let mb: u64 = std::env::var("DMASPEC_ENCODE_JSON_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ENCODE_JSON_MB);
    let json_bytes = mb * 1_000_000;
    let bin = env!("CARGO_BIN_EXE_dmaspec");
    let spawn = |args: &[&str]| {
        Command::new(bin)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs dmaspec")
    };
    let mut decode = spawn(&[&["decode", "--json"], extra, &["-"]].concat());
    let mut encode = spawn(&[&["encode"], extra, &["-"]].concat());

    // Words into decode until its JSON reaches the size; the words sent, for the check.
    let (sent_tx, sent_rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let mut decode_in = decode.stdin.take().unwrap();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let done = done.clone();
        thread::spawn(move || {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let chunk = chunk();
                if decode_in.write_all(&chunk).is_err() || sent_tx.send(chunk).is_err() {
                    break;
                }
            }
        })
    };
    // decode's JSON into encode (counted), closing decode's input once there is enough.
    let decode_out = decode.stdout.take().unwrap();
    let mut encode_in = encode.stdin.take().unwrap();
    let pipe = thread::spawn(move || {
        let mut n = 0u64;
        drain(BufReader::new(decode_out), |piece| {
            if encode_in.write_all(piece).is_ok() {
                n += piece.len() as u64;
            }
            if n >= json_bytes {
                done.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
        n
    });
    // encode's words, compared with what went in as they come.
    let encode_out = encode.stdout.take().unwrap();
    let checker = thread::spawn(move || {
        let (mut expected, mut at, mut compared) = (Vec::new(), 0usize, 0u64);
        let mut first_difference = None;
        drain(encode_out, |piece| {
            for &b in piece {
                while at == expected.len() {
                    expected = sent_rx.recv().expect("encode wrote more than was sent");
                    at = 0;
                }
                if b != expected[at] && first_difference.is_none() {
                    first_difference = Some(compared);
                }
                at += 1;
                compared += 1;
            }
        });
        // What was sent and not encoded back.
        let missing = expected.len() - at + sent_rx.iter().map(|c| c.len()).sum::<usize>();
        (compared, first_difference, missing)
    });
    let stderr = |child: &mut std::process::Child| {
        let e = child.stderr.take().unwrap();
        thread::spawn(move || {
            let mut text = Vec::new();
            drain(e, |piece| {
                if text.len() < 4096 {
                    text.extend_from_slice(piece);
                }
            });
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let (decode_err, encode_err) = (stderr(&mut decode), stderr(&mut encode));

    // Peak RSS of encode; it is stopped as soon as it is over the bound.
    let pid = encode.id();
    let mut peak = 0;
    while encode.try_wait().expect("waits").is_none() {
        if let Some(p) = peak_kib(pid) {
            peak = peak.max(p);
        }
        if peak > ENCODE_PEAK_MIB * 1024 {
            let _ = encode.kill();
            let _ = decode.kill();
            break;
        }
        thread::sleep(Duration::from_millis(20));
    }
    let encoded = encode.wait().unwrap();
    let decoded = decode.wait().unwrap();
    writer.join().unwrap();
    let json = pipe.join().unwrap();
    let (compared, first_difference, missing) = checker.join().unwrap();
    let (decode_err, encode_err) = (decode_err.join().unwrap(), encode_err.join().unwrap());
    eprintln!(
        "encode of {json} bytes of decode --json: peak RSS {peak} KiB, {} words",
        compared / 64
    );
    assert!(
        peak <= ENCODE_PEAK_MIB * 1024,
        "encode's peak RSS passed {ENCODE_PEAK_MIB} MiB ({peak} KiB) by {json} bytes of JSON"
    );
    assert!(decoded.success(), "decode failed: {decode_err}");
    assert!(encoded.success(), "encode failed: {encode_err}");
    assert!(json >= json_bytes, "only {json} bytes of JSON");
    assert_eq!(
        first_difference, None,
        "encode(decode(x)) differs from x at this byte"
    );
    assert_eq!(
        missing, 0,
        "bytes sent and not encoded back (of {compared} that were)"
    );
}
