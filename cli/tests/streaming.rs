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

/// What `dmaspec` made of a stream piped into it.
struct Piped {
    /// Peak RSS (KiB); 0 when the process ended before it was read.
    peak: u64,
    /// Bytes written into its stdin before it ended or stopped reading.
    sent: u64,
    /// Bytes of stdout.
    out: u64,
    /// The start of stderr (64 KiB at most), and its whole length.
    err: String,
    err_len: u64,
    status: std::process::ExitStatus,
}

/// Pipes the chunks `chunk` makes, `total` bytes of them, into `dmaspec ARGS`, reading its
/// output as it comes and its peak RSS (`VmHWM`) as it runs.
fn pipe_through(
    args: &[&str],
    total: u64,
    mut chunk: impl FnMut() -> Vec<u8> + Send + 'static,
) -> Piped {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .args(args)
        .current_dir(common::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs dmaspec");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        let mut sent = 0u64;
        while sent < total {
            let c = chunk();
            let n = c
                .len()
                .min(usize::try_from(total - sent).unwrap_or(usize::MAX));
            if stdin.write_all(&c[..n]).is_err() {
                break;
            }
            sent += n as u64;
        }
        sent
    });
    let stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut n = 0u64;
        drain(stdout, |piece| n += piece.len() as u64);
        n
    });
    let stderr = child.stderr.take().unwrap();
    let errors = thread::spawn(move || {
        let (mut text, mut n) = (Vec::new(), 0u64);
        drain(stderr, |piece| {
            n += piece.len() as u64;
            let room = (64usize << 10).saturating_sub(text.len());
            text.extend_from_slice(&piece[..piece.len().min(room)]);
        });
        (String::from_utf8_lossy(&text).into_owned(), n)
    });
    // VmHWM only grows; keep the last value read before the process goes away.
    let mut peak = 0;
    while child.try_wait().expect("waits").is_none() {
        if let Some(p) = peak_kib(pid) {
            peak = peak.max(p);
        }
        thread::sleep(Duration::from_millis(20));
    }
    let status = child.wait().unwrap();
    let (err, err_len) = errors.join().unwrap();
    Piped {
        peak,
        sent: writer.join().unwrap(),
        out: reader.join().unwrap(),
        err,
        err_len,
        status,
    }
}

/// Pipes `total` bytes of words through `dmaspec decode [args] -`; returns (peak RSS KiB,
/// output bytes).
fn run(args: &[&str], total: usize) -> (u64, u64) {
    let words = sample_words();
    let p = pipe_through(
        &[&["decode"], args, &["-"]].concat(),
        total as u64,
        move || words.clone(),
    );
    assert!(p.status.success(), "decode failed: {}", p.err);
    (p.peak, p.out)
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
/// `DMASPEC_ENCODE_JSON_MB=200` runs the issue's size (25 MiB peak, about a minute in a
/// debug build); `scripts/encode_rss.sh` measures the release binary.
const ENCODE_JSON_MB: u64 = 40;

/// The encode's peak RSS bound (before it streamed, 20 MB of JSON took 240 MiB).
const ENCODE_PEAK_MIB: u64 = 100;

/// Random-ish words, the same for the same `seed`: arbitrary bytes dispatched to each word
/// of the spec in turn (so they decode as it, with whatever faults the bytes make), with
/// the sample stream (pairs, orphans, unknown opcodes) between them.
struct Words {
    rng: dmaspec_testkit::xorshift::XorShift,
    sample: Vec<u8>,
}

impl Words {
    fn new() -> Self {
        Words {
            rng: dmaspec_testkit::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15),
            sample: sample_words(),
        }
    }

    /// The next run of words: one per word of the spec, then the sample.
    fn chunk(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        for w in dmaspec::WORDS {
            let mut b = [0u8; 64];
            self.rng.fill(&mut b);
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

/// How much of a stream [`every_verb_answers_a_large_stream_in_bounded_memory`] pipes
/// into a verb, in MB: enough that a verb holding what it reads is over its bound (below),
/// small enough for a debug build. `DMASPEC_STREAM_MB=1000` runs the issue's size.
const STREAM_MB: u64 = 32;

/// The bound on every verb's peak RSS, whatever the input.
const PEAK_MIB: u64 = 100;

/// The peak RSS of a verb that holds nothing of its input (about 20 MiB in a debug build;
/// `audit`, which loads the whole spec, about 22 MiB since the NEFF, host-ring and
/// address-map items), with room: a verb fed `n` bytes stays under this plus `n / 2` (and
/// [`PEAK_MIB`]), so one that keeps what it reads is caught at the CI's size too.
const BASE_MIB: u64 = 30;

/// Every verb that reads its input from stdin, and the share of the stream it gets: the
/// ones printing a table or JSON per word are slow in a debug build (their memory is
/// `decode_memory_stays_flat_as_the_input_grows`'s), the rest read it all. `text` marks
/// the verbs whose input is text: fed binary, they must stop at its first bytes.
const VERBS: &[(&[&str], u64, bool)] = &[
    (&["decode", "-"], 32, false),
    (&["decode", "--json", "-"], 64, false),
    (&["decode", "--hex", "-"], 1, true),
    (
        &["decode", "--struct", "SDMA_CME_BD_DESC", "-"],
        1024,
        false,
    ),
    (&["validate", "-"], 1, false),
    (&["validate", "--hex", "-"], 1, true),
    (&["validate", "--struct", "SDMA_CME_BD_DESC", "-"], 1, false),
    (&["encode", "-"], 1, true),
    (&["encode", "--struct", "SDMA_CME_BD_DESC", "-"], 1, true),
    (&["lower", "-"], 1, false),
    (&["lower", "--hex", "-"], 1, true),
    (&["lower", "--json", "-"], 16, false),
    (&["lower", "--explain", "-"], 1, false),
    (
        &["lower", "--hex", "--vars", "-", "samples/dge_stream.hex"],
        1,
        true,
    ),
    (&["klr", "lower", "-"], 1, true),
    (&["klr", "lower", "--json", "-"], 1, true),
    (&["regs", "UDMA_M2S", "-"], 1, false),
    (&["regs", "--hex", "UDMA_M2S", "-"], 1, true),
    (&["regs", "--words", "UDMA_M2S", "-"], 1, true),
    (&["audit", "-"], 1, true),
    (
        &[
            "audit",
            "--check-counts",
            "-",
            "tests/audit/fixture_words.md",
        ],
        1,
        true,
    ),
];

/// A stream, a chunk at a time.
type Chunks = Box<dyn FnMut() -> Vec<u8> + Send>;

/// Arbitrary bytes, the same every run, a 64 KiB chunk at a time.
fn random_chunks() -> impl FnMut() -> Vec<u8> + Send + 'static {
    let mut rng = dmaspec_testkit::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
    move || rng.bytes(1 << 16)
}

/// Every verb that reads input gets a large stream of zeros, then of arbitrary bytes,
/// through a pipe, and answers — its output, or a short error — in bounded memory, without
/// a crash; a verb that reads text stops at the first bytes of binary.
#[test]
fn every_verb_answers_a_large_stream_in_bounded_memory() {
    let mb: u64 = std::env::var("DMASPEC_STREAM_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(STREAM_MB);
    let mut failures = Vec::new();
    for (args, share, text) in VERBS {
        let streams: [(&str, Chunks); 2] = [
            ("zeros", Box::new(|| vec![0u8; 1 << 16])),
            ("random", Box::new(random_chunks())),
        ];
        for (what, chunk) in streams {
            let total = mb * 1_000_000 / share;
            let p = pipe_through(args, total, chunk);
            let bound = PEAK_MIB.min(BASE_MIB + (total >> 21)) * 1024;
            let longest = p.err.lines().map(str::len).max().unwrap_or(0);
            eprintln!(
                "{args:?} on {total} bytes of {what}: {}, peak RSS {} KiB, read {} bytes, \
                 {} bytes out, {} bytes of messages (longest line {longest})",
                p.status, p.peak, p.sent, p.out, p.err_len
            );
            let mut wrong = Vec::new();
            if p.peak > bound {
                wrong.push(format!("peak RSS {} KiB, over {bound} KiB", p.peak));
            }
            if !matches!(p.status.code(), Some(0 | 1)) {
                wrong.push(format!("{} (a crash, not an answer)", p.status));
            }
            if p.err.contains("panicked") {
                wrong.push("panicked".into());
            }
            // Exit 0 is an answer even when silent (`validate`: every word valid).
            if p.status.code() == Some(1) && p.err.trim().is_empty() {
                wrong.push("exit 1 without a message".into());
            }
            if longest > 300 || p.err_len > 32 << 10 {
                wrong.push(format!(
                    "{} bytes of messages, the longest line {longest} bytes",
                    p.err_len
                ));
            }
            if *text && p.sent > 4 << 20 {
                wrong.push(format!(
                    "read {} bytes of binary before stopping (a text verb)",
                    p.sent
                ));
            }
            if !wrong.is_empty() {
                failures.push(format!("{args:?} on {what}: {}", wrong.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// How many times `klr_lower_writes_each_op_as_it_is_lowered` repeats the 17 ops of
/// `samples/klr/leaves.json` (6,800 ops, 1.2 MB: the table was 4.4 KB an op, the JSON
/// 22 KB, before they were written op by op).
const KLR_REPEATS: usize = 400;

/// `klr lower` (table and JSON) writes each op's result as it is lowered: its memory does
/// not grow with the number of ops.
#[test]
fn klr_lower_writes_each_op_as_it_is_lowered() {
    let text = std::fs::read_to_string(common::root().join("samples/klr/leaves.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ops: Vec<String> = doc["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| op.to_string())
        .collect();
    let body = ops.join(",");
    // `[`, the ops KLR_REPEATS times, `]`: a chunk each.
    let pieces: Vec<Vec<u8>> = std::iter::once("[".to_string())
        .chain((0..KLR_REPEATS).map(|i| format!("{}{body}", if i > 0 { "," } else { "" })))
        .chain(std::iter::once("]".to_string()))
        .map(String::into_bytes)
        .collect();
    let total: usize = pieces.iter().map(Vec::len).sum();
    for args in [&["klr", "lower", "-"][..], &["klr", "lower", "--json", "-"]] {
        let mut next = pieces.clone().into_iter();
        let p = pipe_through(args, total as u64, move || next.next().unwrap_or_default());
        eprintln!(
            "{args:?} on {} ops ({total} bytes): peak RSS {} KiB, {} bytes out",
            ops.len() * KLR_REPEATS,
            p.peak,
            p.out
        );
        assert!(p.status.success(), "{args:?}: {}", p.err);
        assert!(p.out > 1 << 20, "{args:?}: only {} bytes out", p.out);
        assert!(
            p.peak <= BASE_MIB * 1024,
            "{args:?}: peak RSS {} KiB for {} ops, over {BASE_MIB} MiB",
            p.peak,
            ops.len() * KLR_REPEATS
        );
    }
}

/// One element of a JSON list larger than `dmaspec::json::MAX_ELEMENT_BYTES` (a string
/// that never ends) is refused, not held: `encode` and `klr lower` read their lists an
/// element at a time.
#[test]
fn a_list_element_over_the_limit_is_refused_not_held() {
    let max = dmaspec::json::MAX_ELEMENT_BYTES;
    for (args, open) in [
        (
            &["encode", "-"][..],
            &br#"{"instructions": [{"struct": ""#[..],
        ),
        (&["klr", "lower", "-"], br#"[{"op": "NcCopy"}, {"op": ""#),
    ] {
        let mut first = Some(open.to_vec());
        let total = open.len() as u64 + max + (4 << 20);
        let p = pipe_through(args, total, move || {
            first.take().unwrap_or_else(|| vec![b'a'; 1 << 16])
        });
        eprintln!("{args:?}: peak RSS {} KiB: {}", p.peak, p.err.trim());
        assert_eq!(p.status.code(), Some(1), "{args:?}: {}", p.err);
        assert!(
            p.err.contains(&format!("is over {} MiB", max >> 20)),
            "{args:?}: {}",
            p.err
        );
        assert!(p.sent < max + (2 << 20), "{args:?}: read {} bytes", p.sent);
        assert!(
            p.peak <= PEAK_MIB * 1024,
            "{args:?}: peak RSS {} KiB",
            p.peak
        );
    }
}

/// `encode` of a long list of bad instructions lists the first problems and counts the
/// rest: its message (once a line per instruction, 106 MB for 200,000) and memory do not
/// grow with the list.
#[test]
fn encode_lists_the_first_problems_of_a_long_bad_list() {
    const BAD: usize = 5_000;
    let list = format!("[{}]", vec![r#"{"struct":"NOPE"}"#; BAD].join(","));
    let total = list.len() as u64;
    let mut once = Some(list.into_bytes());
    let p = pipe_through(&["encode", "-"], total, move || {
        once.take().unwrap_or_default()
    });
    assert_eq!(p.status.code(), Some(1), "{}", p.err);
    assert!(
        p.err
            .contains("instruction 0 (NOPE): unknown struct `NOPE`"),
        "{}",
        p.err
    );
    assert!(p.err.contains("… and 4900 more"), "{}", p.err);
    assert!(p.err_len < 64 << 10, "{} bytes of messages", p.err_len);
}
