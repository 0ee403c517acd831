//! The register verbs of the built binary: `dmaspec explain FILE.BUNDLE.register.field` and
//! `dmaspec regs FILE [INPUT]` (a dump of a window or of one bundle element). Expected
//! numbers are read by hand from the pages (cited above each assert, as in
//! tests/registers.rs); every bad input must exit nonzero with a message, never a panic.

mod common;

use std::process::Output;

use common::{assert_success, dmaspec, stderr, stdout};
use serde_json::Value;

/// `out` failed with exit `code`, did not panic, and said `message`.
#[track_caller]
fn fails(out: &Output, code: i32, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "stderr:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(message), "expected `{message}` in:\n{err}");
}

/// `--words` text for one 0x1000-byte M2S_Q element: `slots` (byte offset, value), zero
/// elsewhere.
fn queue_words(slots: &[(usize, u32)]) -> String {
    let mut words = vec![0u32; 0x1000 / 4];
    for &(offset, value) in slots {
        words[offset / 4] = value;
    }
    let mut text = String::from("# M2S_Q[3], one 32-bit value per slot\n");
    for w in words {
        text.push_str(&format!("{w:#010x}\n"));
    }
    text
}

/// The same as little-endian bytes.
fn queue_bytes(slots: &[(usize, u32)]) -> Vec<u8> {
    let mut bytes = vec![0u8; 0x1000];
    for &(offset, value) in slots {
        bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    }
    bytes
}

/// The lines of `text` from the one starting with `head` up to the next register line
/// (one register's block in `regs`'s table).
fn block<'t>(text: &'t str, head: &str) -> Vec<&'t str> {
    let mut lines = text.lines().skip_while(|l| !l.contains(head));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no `{head}` in:\n{text}"));
    std::iter::once(first)
        .chain(lines.take_while(|l| l.starts_with("    ")))
        .collect()
}

// ---- explain -------------------------------------------------------------------------------

#[test]
fn explain_gives_a_fields_bit_mask_and_access() {
    let out = dmaspec(&["explain", "UDMA_M2S.M2S_Q.cfg.en_scheduling"], &[]);
    assert_success(&out);
    let text = stdout(&out);
    let head = text.lines().next().unwrap();
    // CSR Field-Table Index §3.5: "| `M2S_Q/cfg` | `0x20` | `en_pref`/`en_scheduling` |
    // `16`/`17` | RW | `0x0` |": bit 17 = mask 0x00020000, RW, at +0x20.
    assert!(
        head.starts_with("UDMA_M2S.M2S_Q.cfg.en_scheduling — bits [17]"),
        "{head}"
    );
    assert!(head.contains("mask 0x00020000"), "{head}");
    assert!(head.contains("+0x20"), "{head}");
    assert!(head.ends_with(", RW"), "{head}");
    assert!(text.contains("  reset      0x0\n"), "{text}");

    // A per-generation field: both layouts of AXI_qos. The al_udma Hardware DMA Engine §7:
    // "| `cfg.AXI_qos` | `[30:28]` 3-bit, rst 0 | `[31:28]` 4-bit, rst `0xe` |".
    let qos = stdout(&dmaspec(&["explain", "UDMA_M2S.M2S_Q.cfg.AXI_qos"], &[]));
    assert!(
        qos.contains("bits [30:28]") && qos.contains("mask 0x70000000"),
        "{qos}"
    );
    assert!(
        qos.contains("bits [31:28]") && qos.contains("mask 0xf0000000"),
        "{qos}"
    );
    assert!(qos.contains("reset      0xe"), "{qos}");
}

#[test]
fn explain_gives_a_registers_address_in_an_array() {
    let out = dmaspec(&["explain", "UDMA_M2S.M2S_Q.TDRTP_inc"], &[]);
    assert_success(&out);
    let text = stdout(&out);
    // CSR — UDMA M2S §2 Bundle map "| `0x01000` | `M2S_Q[16]`" (stride 0x1000) and §4.1
    // row +0x38 "`val[23:0]` | RW | ... THIS IS THE DOORBELL".
    assert!(
        text.starts_with(
            "UDMA_M2S.M2S_Q.TDRTP_inc — register at 0x1000 + i·0x1000 + 0x38 (i < 16), 32 bits, RW"
        ),
        "{text}"
    );
    let val = text.lines().find(|l| l.contains(" val ")).unwrap();
    assert!(val.trim_start().starts_with("[23:0]"), "{val}");
    // An element index within the array is accepted (and names the same register).
    let q3 = dmaspec(&["explain", "UDMA_M2S.M2S_Q[3].TDRTP_inc"], &[]);
    assert_success(&q3);
    assert_eq!(stdout(&q3), text);
    // CSR — UDMA M2S §4.1: "`TDRHP_RESET_VALUE = 0x40000000`".
    let head = stdout(&dmaspec(&["explain", "UDMA_M2S.M2S_Q.TDRHP"], &[]));
    assert!(head.contains("  reset      0x40000000"), "{head}");
}

#[test]
fn explain_of_an_unknown_name_fails_and_suggests() {
    let cases: [(&str, &str); 5] = [
        // A misspelling within a third of its length: a did-you-mean before the list.
        (
            "UDMA_M2S.M2S_Q.cfgx",
            "bundle `UDMA_M2S.M2S_Q` has no register `cfgx` (did you mean `cfg`?) (registers: \
             desc_pref_cfg",
        ),
        (
            "UDMA_M2S.M2S_Q.cfg.nope",
            "register `UDMA_M2S.M2S_Q.cfg` has no field `nope` (fields: pkt_len_offset, en_pref",
        ),
        (
            "UDMA_M2S.M2S_QQ",
            "`UDMA_M2S` has no bundle `M2S_QQ` (did you mean `M2S_Q`?) (bundles: ",
        ),
        (
            "UDMA_M2S.M2S_Q.cfg.en_schedulin",
            "has no field `en_schedulin` (did you mean `en_scheduling`?)",
        ),
        ("UDMA_M2S.M2S_Q.TDRTP_incr", "(did you mean `TDRTP_inc`?)"),
    ];
    for (what, message) in cases {
        fails(&dmaspec(&["explain", what], &[]), 2, message);
    }
    // An unknown top-level name suggests the nearest register file and counts the rest.
    fails(
        &dmaspec(&["explain", "UDMA_M2X"], &[]),
        2,
        "(did you mean `UDMA_M2S`?) (the spec has ",
    );
    fails(
        &dmaspec(&["explain", "UDMA_M2X"], &[]),
        2,
        " and 8 register files; generated/docs/README.md lists them)",
    );
    // §Verified counts: 16 queues, so M2S_Q[16] does not exist.
    fails(
        &dmaspec(&["explain", "UDMA_M2S.M2S_Q[16].cfg"], &[]),
        2,
        "`UDMA_M2S.M2S_Q` has 16 element(s): index 16 is out of range",
    );
    for bad in [
        "UDMA_M2S.M2S_Q[x].cfg",
        "UDMA_M2S.M2S_Q[",
        "UDMA_M2S.M2S_Q[-1]",
    ] {
        fails(
            &dmaspec(&["explain", bad], &[]),
            2,
            "write a bundle element as NAME[INDEX]",
        );
    }
    fails(
        &dmaspec(&["explain", "UDMA_M2S.M2S_Q.cfg.en_pref.x"], &[]),
        2,
        "a register path is FILE.BUNDLE.register.field at most",
    );
    for odd in ["UDMA_M2S.", "UDMA_M2S..", "UDMA_M2S.M2S_Q.cfg."] {
        let out = dmaspec(&["explain", odd], &[]);
        assert_eq!(out.status.code(), Some(2), "{odd}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
    }
}

// ---- regs: decoding a dump -------------------------------------------------------------------

#[test]
fn regs_decodes_one_queue_from_words() {
    // A TDRTP_inc of 5 in slot 0x38/4 of queue 3.
    let out = dmaspec(
        &["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]", "--words"],
        queue_words(&[(0x38, 0x0000_0005)]).as_bytes(),
    );
    assert_success(&out);
    let text = stdout(&out);
    // Queue 3 starts at 0x1000 + 3*0x1000 (CSR — UDMA M2S §2); Cayman has 30 registers per
    // queue (§Per-gen register-map deltas "| **Cayman** (NC-v3) | 11 | 100 | 325 | yes | yes
    // | 30 |").
    assert!(
        text.starts_with("UDMA_M2S (cayman): 4096 bytes from 0x4000, 30 registers\n"),
        "{text}"
    );
    // §4.1 row +0x38: TDRTP_inc, `val[23:0]`, RW.
    let doorbell = block(&text, "M2S_Q[3].TDRTP_inc");
    assert_eq!(doorbell[0], "0x04038  M2S_Q[3].TDRTP_inc  0x00000005  RW");
    assert_eq!(doorbell.len(), 2, "{doorbell:?}");
    let val: Vec<&str> = doorbell[1].split_whitespace().collect();
    assert_eq!(val[..3], ["[23:0]", "val", "0x5"], "{doorbell:?}");
    // A WO register is flagged: q_sw_ctrl is "| **WO** |" (§4.3).
    let wo = block(&text, "M2S_Q[3].q_sw_ctrl");
    assert!(wo[0].contains("WO  (WO:"), "{wo:?}");
}

#[test]
fn regs_reads_binary_and_hex_bytes_little_endian() {
    let slots = [(0x38, 0x0000_0005), (0x34, 0x4000_0000)];
    let words = stdout(&dmaspec(
        &["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]", "--words"],
        queue_words(&slots).as_bytes(),
    ));
    let bytes = queue_bytes(&slots);
    let binary = dmaspec(&["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]"], &bytes);
    assert_success(&binary);
    assert_eq!(stdout(&binary), words);
    let hex: String = (bytes.chunks(16))
        .map(|row| {
            let pairs: Vec<String> = row.iter().map(|b| format!("{b:02x}")).collect();
            pairs.join(" ") + "\n"
        })
        .collect();
    let from_hex = dmaspec(
        &["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]", "--hex"],
        hex.as_bytes(),
    );
    assert_success(&from_hex);
    assert_eq!(stdout(&from_hex), words);
    // TDRHP 0x40000000: ring_id[31:30] = 1, its reset (CSR — UDMA M2S §4.1), so no
    // "(reset …)" note on it.
    let head = block(&words, "M2S_Q[3].TDRHP ");
    let ring_id = head.iter().find(|l| l.contains("ring_id")).unwrap();
    assert!(
        ring_id
            .trim_end()
            .ends_with("ring_id                      0x1"),
        "{head:?}"
    );
}

#[test]
fn regs_shows_unknown_bits_and_undeclared_slots_raw() {
    // Cayman cfg: the named fields are pkt_len_offset[15:0], en_pref[16], en_scheduling[17],
    // allow_lt_min_pref[20], axi_awcache_comp[27:24], AXI_qos[30:28], force_full_line[31]
    // (CSR — UDMA M2S §4.3 row 0x20), so bits 18, 19, 21, 22, 23 (0x00ec0000) are no field's.
    // Slot +0x10 holds no Cayman register (the §4.3 table has 0x00 desc_pref_cfg, then 0x20).
    let slots = [(0x20, 0x00ec_0000 | 0x0002_0000), (0x10, 0xdead)];
    let text = stdout(&dmaspec(
        &["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]", "--words"],
        queue_words(&slots).as_bytes(),
    ));
    let cfg = block(&text, "M2S_Q[3].cfg ");
    assert_eq!(cfg[0], "0x04020  M2S_Q[3].cfg  0x00ee0000  RW");
    assert!(
        cfg.iter().any(|l| l.split_whitespace().collect::<Vec<_>>()
            == ["[17]", "en_scheduling", "0x1", "(reset", "0x0)"]),
        "{cfg:?}"
    );
    assert_eq!(
        cfg.last().unwrap().trim(),
        "unknown bits 0x00ec0000",
        "{cfg:?}"
    );
    assert!(
        text.contains("0x04010  (no register declared)  0x0000dead"),
        "{text}"
    );

    // On Maverick the same bits are fields (Descriptor + Ring Field-Table Reference Table
    // 6.1a: force_full_line [18], vmid_check_en [19], id_priority_filter_en_pref [21],
    // id_priority_filter_en_data [22], bw_fix_tx_pkthdr [23]): the reset word 0xe3640000
    // (CSR — UDMA M2S §Per-gen register-map deltas) has no unknown bits.
    let mav = stdout(&dmaspec(
        &[
            "regs", "UDMA_M2S", "--arch", "maverick", "--bundle", "M2S_Q[0]", "--words",
        ],
        queue_words(&[(0x20, 0xe364_0000)]).as_bytes(),
    ));
    let cfg = block(&mav, "M2S_Q[0].cfg ");
    assert_eq!(cfg[0], "0x01020  M2S_Q[0].cfg  0xe3640000  RW");
    assert!(!cfg.iter().any(|l| l.contains("unknown bits")), "{cfg:?}");
    let field = |name: &str| -> Vec<&str> {
        let line = cfg
            .iter()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no {name} in {cfg:?}"));
        line.split_whitespace().collect()
    };
    assert_eq!(field("AXI_qos")[..3], ["[31:28]", "AXI_qos", "0xe"]);
    assert_eq!(
        field("force_full_line")[..3],
        ["[18]", "force_full_line", "0x1"]
    );
    assert_eq!(
        field("axi_awcache_comp")[..3],
        ["[27:24]", "axi_awcache_comp", "0x3"]
    );
}

#[test]
fn regs_json_parses_and_holds_the_fields() {
    let slots = [(0x38, 0x0000_0005), (0x20, 0x00ec_0000), (0x10, 0xdead)];
    let out = dmaspec(
        &[
            "regs", "UDMA_M2S", "--bundle", "M2S_Q[3]", "--words", "--json",
        ],
        queue_words(&slots).as_bytes(),
    );
    assert_success(&out);
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("regs --json is JSON");
    assert_eq!(doc["regfile"], "UDMA_M2S");
    assert_eq!(doc["arch"], "cayman");
    assert_eq!(doc["start"], 0x4000);
    assert_eq!(doc["bytes"], 0x1000);
    let registers = doc["registers"].as_array().unwrap();
    assert_eq!(registers.len(), 30);
    let reg = |name: &str| -> &Value {
        registers
            .iter()
            .find(|r| r["register"] == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    // 0x1000 + 3*0x1000 + 0x38, `val[23:0]` (CSR — UDMA M2S §4.1).
    let t = reg("TDRTP_inc");
    assert_eq!(t["offset"], 0x4038);
    assert_eq!(t["bundle"], "M2S_Q[3]");
    assert_eq!(t["access"], "RW");
    assert_eq!(t["value"], 5);
    assert_eq!(t["unknown_bits"], 0);
    let val = &t["fields"][0];
    assert_eq!(
        (&val["name"], &val["lsb"], &val["width"], &val["value"]),
        (
            &Value::from("val"),
            &Value::from(0),
            &Value::from(24),
            &Value::from(5)
        )
    );
    // The unknown Cayman cfg bits, raw (see regs_shows_unknown_bits_and_undeclared_slots_raw).
    assert_eq!(reg("cfg")["unknown_bits"], 0x00ec_0000);
    // TDRHP's reset (§4.1: 0x40000000) is in the document.
    assert_eq!(reg("TDRHP")["reset"], 0x4000_0000);
    assert_eq!(
        doc["unmapped"],
        serde_json::json!([{ "offset": 0x4010, "value": 0xdead }])
    );
}

#[test]
fn regs_takes_a_whole_window_of_each_generation() {
    // CSR — UDMA M2S §1: 0x20000 on Cayman; the al_udma Hardware DMA Engine §7: "| M2S
    // window | `0x20000` | `0x40000` (doubled) |" on Maverick.
    let mut cayman = vec![0u8; 0x20000];
    // M2S_Q[15].TDRTP_inc at 0x1000 + 15*0x1000 + 0x38 = 0x10038.
    cayman[0x10038..0x1003c].copy_from_slice(&7u32.to_le_bytes());
    let out = dmaspec(&["regs", "UDMA_M2S"], &cayman);
    assert_success(&out);
    let text = stdout(&out);
    assert!(
        text.starts_with("UDMA_M2S (cayman): 131072 bytes from 0x0,"),
        "{text:.80}"
    );
    assert!(
        text.contains("0x10038  M2S_Q[15].TDRTP_inc  0x00000007  RW"),
        "no queue 15 doorbell"
    );
    // One word over the Cayman window is refused; the Maverick window takes 0x40000.
    cayman.extend_from_slice(&[0; 4]);
    fails(
        &dmaspec(&["regs", "UDMA_M2S"], &cayman),
        1,
        "stdin holds more than the 0x20000 bytes of the window it dumps",
    );
    let maverick = vec![0u8; 0x40000];
    assert_success(&dmaspec(
        &["regs", "UDMA_M2S", "--arch", "maverick"],
        &maverick,
    ));
    // A shorter dump decodes the registers it covers: 0x00..0x3c holds desc_pref_cfg,
    // cfg, status, TDRBP_low, TDRBP_high, TDRL, TDRHP, TDRTP_inc, TDRTP (§4.1 / §4.3).
    let out = dmaspec(&["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]"], &[0; 0x40]);
    assert_success(&out);
    assert!(stdout(&out).starts_with("UDMA_M2S (cayman): 64 bytes from 0x4000, 9 registers"));
}

// ---- regs: bad input -------------------------------------------------------------------------

#[test]
fn regs_rejects_bad_dumps_with_a_message() {
    let q3 = ["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]"];
    // Empty.
    fails(
        &dmaspec(&q3, &[]),
        1,
        "stdin holds no register values: the dump is empty",
    );
    let words: Vec<&str> = q3.iter().copied().chain(["--words"]).collect();
    fails(&dmaspec(&words, b"# nothing\n\n"), 1, "the dump is empty");
    // Truncated: not a multiple of 4 bytes.
    fails(
        &dmaspec(&q3, &[1, 2, 3]),
        1,
        "incomplete register at byte offset 0 (0x0): 3 of 4 bytes",
    );
    fails(
        &dmaspec(&q3, &[0; 0x41]),
        1,
        "incomplete register at byte offset 64",
    );
    // Larger than the element's window (0x1000 bytes, CSR — UDMA M2S §2).
    fails(
        &dmaspec(&q3, &[0; 0x1004]),
        1,
        "stdin holds more than the 0x1000 bytes of the window it dumps",
    );
    let many = "0\n".repeat(0x1000 / 4 + 1);
    fails(
        &dmaspec(&words, many.as_bytes()),
        1,
        "holds more than the 0x1000 bytes",
    );
    // Garbage hex.
    let hex: Vec<&str> = q3.iter().copied().chain(["--hex"]).collect();
    fails(&dmaspec(&hex, b"05 00 zz 00\n"), 1, "is not a hex digit");
    fails(
        &dmaspec(&words, b"0x5\nbanana\n"),
        1,
        "stdin:2: `banana` is not a 32-bit hex value",
    );
    fails(
        &dmaspec(&words, b"0x123456789\n"),
        1,
        "`0x123456789` is not a 32-bit hex value",
    );
    // A long value is cut where the message repeats it (`dmaspec::names::echo`, as every
    // verb echoes a value); binary is refused at its first byte, not repeated.
    let long = format!("0x5\n{}\n", "z".repeat(1 << 20));
    let out = dmaspec(&words, long.as_bytes());
    fails(
        &out,
        1,
        &format!(
            "stdin:2: `{}… (1048576 characters)` is not a 32-bit hex value",
            "z".repeat(60)
        ),
    );
    assert!(
        stderr(&out).len() < 400,
        "{} bytes of message",
        stderr(&out).len()
    );
    fails(
        &dmaspec(&words, &[0; 1 << 20]),
        1,
        "stdin: line 1, column 1: byte 0x00 is NUL (the input is text, not binary)",
    );
    fails(
        &dmaspec(&words, b"0x5\n0x6 \xff\n"),
        1,
        "stdin: line 2, column 5: byte 0xff is not UTF-8",
    );
    // A file that is not there.
    fails(
        &dmaspec(&["regs", "UDMA_M2S", "no-such-dir/dump.bin"], &[]),
        1,
        "cannot read no-such-dir/dump.bin",
    );
}

#[test]
fn regs_rejects_bad_names_with_a_message() {
    let dump = [0u8; 0x40];
    fails(
        &dmaspec(&["regs", "UDMA_NOPE"], &dump),
        2,
        "no register file `UDMA_NOPE` (register files: TPB_EVENTS_SEMAPHORES_AXI, NOTIFIC_10_QUEUE, NOTIFIC_1_QUEUE, UDMA_GEN, UDMA_GEN_EX, TDMA_MODEL, UDMA_M2S, UDMA_S2M)",
    );
    fails(
        &dmaspec(&["regs", "UDMA_M2S", "--bundle", "M2S_X"], &dump),
        2,
        "`UDMA_M2S` has no bundle `M2S_X` on cayman (did you mean `M2S_Q`?) (bundles on cayman: ",
    );
    fails(
        &dmaspec(&["regs", "UDMA_M2X"], &dump),
        2,
        "no register file `UDMA_M2X` (did you mean `UDMA_M2S`?)",
    );
    // CSR — UDMA M2S (file doc): M2S_DYN_MTU (0x38000) is a Maverick-only bundle.
    fails(
        &dmaspec(&["regs", "UDMA_M2S", "--bundle", "M2S_DYN_MTU"], &dump),
        2,
        "has no bundle `M2S_DYN_MTU` on cayman (it is on maverick)",
    );
    // 16 queues (§Verified counts).
    fails(
        &dmaspec(&["regs", "UDMA_M2S", "--bundle", "M2S_Q[16]"], &dump),
        2,
        "`M2S_Q` has 16 element(s): index 16 is out of range",
    );
    for bad in ["M2S_Q[x]", "M2S_Q[3"] {
        fails(
            &dmaspec(&["regs", "UDMA_M2S", "--bundle", bad], &dump),
            2,
            "write a bundle element as NAME[INDEX]",
        );
    }
    fails(
        &dmaspec(&["regs", "UDMA_M2S", "--arch", "nope"], &dump),
        2,
        "unknown architecture `nope`",
    );
    // The CSR Field-Table Index §4: EVT_SEM is "ABSENT" on maverick (relocated under tpb_top).
    fails(
        &dmaspec(
            &["regs", "TPB_EVENTS_SEMAPHORES_AXI", "--arch", "maverick"],
            &dump,
        ),
        2,
        "`TPB_EVENTS_SEMAPHORES_AXI` does not exist on maverick (it is on sunda, cayman, mariana)",
    );
    fails(
        &dmaspec(&["regs", "UDMA_M2S", "--hex", "--words"], &dump),
        2,
        "cannot be used with",
    );
}

/// A name typed in another case means the one name it spells, in every verb (explain,
/// regs, decode --struct): the same output as the name as the spec writes it.
#[test]
fn names_match_in_any_case_in_every_verb() {
    let dump = [0u8; 0x40];
    let record = [0u8; 16];
    let pairs: [(&[&str], &[&str], &[u8]); 7] = [
        (&["explain", "udma_m2s"], &["explain", "UDMA_M2S"], &[]),
        (
            &["explain", "UDMA_M2S.m2s_q"],
            &["explain", "UDMA_M2S.M2S_Q"],
            &[],
        ),
        (
            &["explain", "UDMA_M2S.M2S_Q.tdrtp_inc"],
            &["explain", "UDMA_M2S.M2S_Q.TDRTP_inc"],
            &[],
        ),
        (
            &["explain", "UDMA_M2S.M2S_Q.cfg.EN_SCHEDULING"],
            &["explain", "UDMA_M2S.M2S_Q.cfg.en_scheduling"],
            &[],
        ),
        (
            &["explain", "DMA_DIRECT2D.SEMAPHORE"],
            &["explain", "DMA_DIRECT2D.semaphore"],
            &[],
        ),
        (
            &["regs", "udma_m2s", "--bundle", "m2s_q[3]"],
            &["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]"],
            &dump,
        ),
        (
            &["decode", "--struct", "sdma_cme_bd_desc"],
            &["decode", "--struct", "SDMA_CME_BD_DESC"],
            &record,
        ),
    ];
    for (typed, exact, input) in pairs {
        let (out, want) = (dmaspec(typed, input), dmaspec(exact, input));
        assert_success(&want);
        assert_success(&out);
        assert_eq!(stdout(&out), stdout(&want), "{typed:?}");
    }
    // A misspelling still fails, with the name it most likely means.
    fails(
        &dmaspec(&["decode", "--struct", "SDMA_CME_BD_DSC"], &record),
        2,
        "no record (top-level struct) named `SDMA_CME_BD_DSC` (did you mean `SDMA_CME_BD_DESC`?)",
    );
    fails(
        &dmaspec(&["explain", "DMA_DIRECT2D.SEMAPHOR"], &[]),
        2,
        "DMA_DIRECT2D has no field `SEMAPHOR` (did you mean `semaphore`?)",
    );
}
