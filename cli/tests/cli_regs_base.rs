//! `dmaspec regs --base ADDRESS`: a dump taken at an absolute MMIO base, its register file
//! named by the address map. Expected instances and addresses are computed by hand from
//! "SDMA Address Windows + APB Chain" (the arithmetic above each test); register offsets
//! from the CSR pages as cited. Bad bases exit 2 with a message, never a panic.

mod common;

use common::{assert_success, dmaspec, stderr, stdout};
use serde_json::Value;

#[track_caller]
fn regs(args: &[&str], input: &[u8]) -> String {
    let out = dmaspec(&[&["regs"], args].concat(), input);
    assert_success(&out);
    stdout(&out)
}

#[track_caller]
fn fails(args: &[&str], message: &str) {
    let out = dmaspec(&[&["regs", "--words"], args].concat(), b"0x0\n");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "stderr:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(message), "expected `{message}` in:\n{err}");
}

/// `--words` text: `len` bytes of slots, zero but for `slots` (byte offset, value).
fn words(len: usize, slots: &[(usize, u32)]) -> String {
    let mut values = vec![0u32; len / 4];
    for &(offset, value) in slots {
        values[offset / 4] = value;
    }
    values.iter().map(|v| format!("{v:#x}\n")).collect()
}

/// §4 (a): channel 5 of SE_0 is at 0x1002000000 + 5·0x100000 = 0x1002500000, its M2S
/// file at +0x0 (§1); M2S_Q[5] at 0x1000 + 5·0x1000 = 0x6000, so a dump of that queue is
/// taken at 0x1002506000; TDRTP_inc at +0x38 (CSR — UDMA M2S §4.1, `val[23:0]`) reads at
/// 0x1002506038.
#[test]
fn a_queue_dump_at_its_absolute_base() {
    let dump = words(0x1000, &[(0x38, 0x0000_0040)]);
    let text = regs(&["--base", "0x1002506000", "--words"], dump.as_bytes());
    let head = text.lines().next().unwrap();
    assert!(
        head.starts_with(
            "UDMA_M2S (cayman) at APB_SE_0_SDMA_5's UDMA_M2S (base 0x1002500000): 4096 bytes from 0x6000 (0x1002506000, M2S_Q[5]), "
        ),
        "{head}"
    );
    let doorbell = text.lines().find(|l| l.contains("TDRTP_inc")).unwrap();
    assert_eq!(
        doorbell,
        "0x06038  0x1002506038  M2S_Q[5].TDRTP_inc  0x00000040  RW"
    );
    // Every register of the dump is in M2S_Q[5] and at base + its offset.
    for line in text.lines().skip(1).filter(|l| l.starts_with("0x")) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let offset = u64::from_str_radix(&cells[0][2..], 16).unwrap();
        let address = u64::from_str_radix(&cells[1][2..], 16).unwrap();
        assert_eq!(address, 0x1002500000 + offset, "{line}");
        assert!(cells[2].starts_with("M2S_Q[5]."), "{line}");
    }
    // FILE may be given, and agrees; so may the element as --bundle.
    let named = regs(
        &["UDMA_M2S", "--base", "0x1002506000", "--words"],
        dump.as_bytes(),
    );
    assert_eq!(named, text);
    let element = regs(
        &["--base", "0x1002506000", "--bundle", "M2S_Q[5]", "--words"],
        dump.as_bytes(),
    );
    assert_eq!(element, text);
}

/// §4 (c): SDMA_0's UDMA_GEN is at 0x1002000000 + 0x38000 = 0x1002038000; DMA_misc at
/// +0x2100 (CSR — UDMA_GEN §3.1), revision at +0x04: major_id[31:24], minor_id[23:12],
/// programming_id[11:0], so 0x03001002 reads 3, 1, 2.
#[test]
fn the_revision_register_from_a_gen_dump() {
    let dump = words(0x8, &[(0x4, 0x0300_1002)]);
    let text = regs(&["--base", "0x100203A100", "--words"], dump.as_bytes());
    assert!(
        text.starts_with(
            "UDMA_GEN (cayman) at APB_SE_0_SDMA_0's UDMA_GEN (base 0x1002038000): 8 bytes from 0x2100 (0x100203a100, DMA_misc), 2 registers\n"
        ),
        "{text}"
    );
    let revision: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("DMA_misc.revision"))
        .take(4)
        .collect();
    assert_eq!(
        revision[0],
        "0x02104  0x100203a104  DMA_misc.revision  0x03001002  RO"
    );
    // Each field line: bits, name, value (then the reset where it differs).
    let field = |line: &str| -> (String, String) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        (cells[1].to_string(), cells[2].to_string())
    };
    assert_eq!(field(revision[1]), ("major_id".into(), "0x3".into()));
    assert_eq!(field(revision[2]), ("minor_id".into(), "0x1".into()));
    assert_eq!(field(revision[3]), ("programming_id".into(), "0x2".into()));
}

/// The M2S window is 0x20000 bytes (CSR — UDMA M2S: AddrWidth 17); a dump of 0x2000 bytes
/// from +0x1F000 decodes 0x1000 of them and leaves 4096 past 0x1002500000 + 0x20000 =
/// 0x1002520000, where §1 places UDMA_S2M (+0x20000).
#[test]
fn a_dump_past_the_window_says_what_it_left() {
    let dump = words(0x2000, &[(0x1000, 0x1234_5678)]);
    let text = regs(&["--base", "0x100251F000", "--words"], dump.as_bytes());
    assert!(
        text.starts_with(
            "UDMA_M2S (cayman) at APB_SE_0_SDMA_5's UDMA_M2S (base 0x1002500000): 4096 bytes from 0x1f000 (0x100251f000), 0 registers\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with(
            "4096 bytes past the window's end at 0x1002520000 (APB_SE_0_SDMA_5's UDMA_S2M) left undecoded: decode them with --base 0x1002520000\n"
        ),
        "{text}"
    );
    // The same count in the document; a raw byte dump is read to its end the same way.
    let bytes: Vec<u8> = (0..0x2000u32 / 4).flat_map(|_| [0u8; 4]).collect();
    let doc: Value =
        serde_json::from_str(&regs(&["--base", "0x100251F000", "--json", "-"], &bytes)).unwrap();
    assert_eq!(doc["undecoded_bytes"], 4096);
    assert_eq!(doc["next"], 0x1002520000u64);
    assert_eq!(doc["bytes"], 4096);
}

/// The document gives the instance, the file's base and each register's address; without
/// --base it is unchanged (no address keys).
#[test]
fn the_json_of_a_placed_dump() {
    let dump = words(0x1000, &[]);
    let doc: Value = serde_json::from_str(&regs(
        &["--base", "0x1002506000", "--words", "--json"],
        dump.as_bytes(),
    ))
    .unwrap();
    assert_eq!(doc["instance"], "APB_SE_0_SDMA_5");
    assert_eq!(doc["part"], "UDMA_M2S");
    assert_eq!(doc["file_base"], 0x1002500000u64);
    assert_eq!(doc["base"], 0x1002506000u64);
    assert_eq!(doc["element"], "M2S_Q[5]");
    assert_eq!(doc["start"], 0x6000);
    assert_eq!(doc["undecoded_bytes"], 0);
    let regs_ = doc["registers"].as_array().unwrap();
    let doorbell = regs_.iter().find(|r| r["register"] == "TDRTP_inc").unwrap();
    assert_eq!(doorbell["address"], 0x1002506038u64);
    assert_eq!(doorbell["offset"], 0x6038);

    let plain: Value = serde_json::from_str(&regs(
        &["UDMA_M2S", "--bundle", "M2S_Q[5]", "--words", "--json"],
        dump.as_bytes(),
    ))
    .unwrap();
    assert!(plain.get("instance").is_none());
    assert!(plain["registers"][0].get("address").is_none());
    assert_eq!(plain["registers"], {
        let mut r = doc["registers"].clone();
        for x in r.as_array_mut().unwrap() {
            x.as_object_mut().unwrap().remove("address");
        }
        r
    });
}

#[test]
fn bad_bases_fail_and_say_why() {
    // §2 and §1: SE_0's SDMA_31 starts at 0x1002000000 + 31·0x100000 and its slot is
    // 0x80000, so it ends at 0x1003F80000; SE_1's SDMA_0 starts at 0x5004000000.
    fails(
        &["--base", "0x1003F80000"],
        "base 0x1003f80000 is in a hole, in no instance, between APB_SE_0_SDMA_31 (ends 0x1003f80000) and APB_SE_1_SDMA_0 (starts 0x5004000000): no register file is there",
    );
    // §1: the slot's parts end with MISC_SDMA_UG_RESERVED1 at +0x42000 (0x2000 bytes), the
    // container is 0x80000: +0x44000 of SDMA_5 is a hole inside the instance.
    fails(
        &["--base", "0x1002544000"],
        "base 0x1002544000 is in a hole of APB_SE_0_SDMA_5 at +0x44000, between MISC_SDMA_UG_RESERVED1 (ends +0x44000) and the slot's end (+0x80000)",
    );
    fails(
        &["--base", "0x1002542000"],
        "base 0x1002542000 is in APB_SE_0_SDMA_5's MISC_SDMA_UG_RESERVED1 (+0x42000, 0x2000 bytes), a reserved range",
    );
    fails(
        &["--base", "0x1002506002"],
        "base 0x1002506002 is 0x6002 bytes into APB_SE_0_SDMA_5's UDMA_M2S: not at a register boundary",
    );
    fails(
        &["UDMA_S2M", "--base", "0x1002500000"],
        "`UDMA_S2M` disagrees with the address map: base 0x1002500000 is in APB_SE_0_SDMA_5's UDMA_M2S (register file UDMA_M2S)",
    );
    // CSR — UDMA M2S §2: M2S_Q[3] at 0x1000 + 3·0x1000 = 0x4000.
    fails(
        &["--base", "0x1002506000", "--bundle", "M2S_Q[3]"],
        "--bundle M2S_Q[3] starts at +0x4000 of UDMA_M2S, but the base is at +0x6000 (in M2S_Q[5])",
    );
    fails(&["--base", "zz"], "address `zz`: not a number");
    fails(
        &["--base", "0x400000000000000"],
        "out of range: the SoC address space is 58 bits",
    );
    fails(
        &["--arch", "sunda", "--base", "0x1002500000"],
        "no source places sunda's register files",
    );
    // No FILE and no base: clap's usage error.
    let out = dmaspec(&["regs", "--words"], b"0x0\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("<FILE>"), "{}", stderr(&out));
}
