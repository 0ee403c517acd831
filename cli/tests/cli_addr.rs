//! `dmaspec addr ADDRESS`: an absolute MMIO address named from the SoC address map
//! (spec/addrmap) and the register files. The expected answers are the worked examples of
//! "SDMA Address Windows + APB Chain" §4 and addresses computed by hand from its §1-§3
//! tables (the arithmetic is above each); bad input exits 2 with a message, never a panic.

mod common;

use common::{assert_success, dmaspec, stderr, stdout};
use serde_json::Value;

#[track_caller]
fn addr(args: &[&str]) -> String {
    let out = dmaspec(&[&["addr"], args].concat(), b"");
    assert_success(&out);
    stdout(&out)
}

#[track_caller]
fn fails(args: &[&str], message: &str) {
    let out = dmaspec(&[&["addr"], args].concat(), b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "stderr:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(message), "expected `{message}` in:\n{err}");
}

/// §4 (a): channel-5 base 0x1002000000 + 5*0x100000 = 0x1002500000; + M2S 0x0; + M2S_Q[5]
/// 0x1000 + 5*0x1000 = 0x6000; + TDRTP_inc 0x38 = 0x1002506038.
#[test]
fn the_tx_doorbell_of_se0_channel5_queue5() {
    assert_eq!(
        addr(&["0x1002506038"]),
        "0x1002506038 (cayman)\n\
         \x20 instance  APB_SE_0_SDMA_5 (base 0x1002500000)\n\
         \x20 engine    UDMA_M2S at +0x0 (register file UDMA_M2S), offset 0x6038\n\
         \x20 register  M2S_Q[5].TDRTP_inc (+0x38 in the element, RW, 32 bits)\n\
         \x20 field     val [23:0] RW\n"
    );
}

/// §4 (c): 0x1002000000 + GEN 0x38000 + DMA_misc 0x2100 + revision 0x04 = 0x100203A104,
/// major_id[31:24], minor_id[23:12], programming_id[11:0].
#[test]
fn the_revision_register_of_se0_channel0() {
    assert_eq!(
        addr(&["0x100203A104"]),
        "0x100203a104 (cayman)\n\
         \x20 instance  APB_SE_0_SDMA_0 (base 0x1002000000)\n\
         \x20 engine    UDMA_GEN at +0x38000 (register file UDMA_GEN), offset 0x2104\n\
         \x20 register  DMA_misc.revision (+0x4 in the element, RO, 32 bits)\n\
         \x20 field     major_id [31:24] RO\n\
         \x20 field     minor_id [23:12] RO\n\
         \x20 field     programming_id [11:0] RO\n"
    );
}

/// §2: APB_SE_3's SDMA_0 is at 0x805004000000 (the SE-parity offset +0x4000000 and the
/// die bit 47); channel 31 is 0x805004000000 + 31*0x100000 = 0x805005F00000; + S2M
/// 0x20000 (§1); + S2M_Q[7] 0x1000 + 7*0x1000 = 0x8000; + RDRTP_inc 0x38 (§4 (b))
/// = 0x805005F28038.
#[test]
fn the_rx_doorbell_of_se3_channel31_queue7() {
    let out = addr(&["0x805005F28038", "--json"]);
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    let found = &doc["found"];
    assert_eq!(found["instance"]["name"], "APB_SE_3_SDMA_31");
    assert_eq!(found["instance"]["base"], 0x8050_05F0_0000u64);
    assert_eq!(found["part"]["regfile"], "UDMA_S2M");
    assert_eq!(found["offset"], 0x8038);
    let reg = &found["register"];
    assert_eq!(
        (reg["bundle"].as_str(), reg["index"].as_u64()),
        (Some("S2M_Q"), Some(7))
    );
    assert_eq!(reg["register"]["name"], "RDRTP_inc");
    assert_eq!(reg["fields"][0]["bits"], "[23:0]");
}

/// §3: the mirror of SDMA_16 of PEB_APB_IO_1_USER_SE_1 is at 0x20808004000000 +
/// 16*0x100000 + 0x80000 = 0x20808005080000; its GEN is at +0x38000 (0x208080050B8000),
/// DMA_misc.revision at + 0x2104.
#[test]
fn a_broadcast_mirror_in_the_peb_view() {
    let out = addr(&["0x208080050BA104"]);
    assert!(
        out.contains("instance  PEB_APB_IO_1_USER_SE_1_SDMA_16_BCAST_UDMA (base 0x20808005080000)"),
        "{out}"
    );
    assert!(out.contains("register  DMA_misc.revision"), "{out}");
}

/// §4 (d): 0x1002000000 + tdma 0x40000 + 0x100 = 0x1002040100, broadcast_cfg_group.
#[test]
fn the_broadcast_group_of_se0_channel0() {
    let out = addr(&["0x1002040100"]);
    assert!(
        out.contains("engine    MISC_SDMA_APP at +0x40000 (register file TDMA_MODEL)"),
        "{out}"
    );
    assert!(out.contains(".broadcast_cfg_group "), "{out}");
}

/// §1: SDMA_31 of APB_SE_0 ends at 0x1003F00000 + 0x80000 = 0x1003F80000; APB_SE_1's
/// SDMA_0 starts at 0x5004000000 (§2). Inside a slot, MISC_SDMA_UG_RESERVED1 ends at
/// +0x44000 and the container at +0x80000.
#[test]
fn holes_say_between_what() {
    assert_eq!(
        addr(&["0x1003F80000"]),
        "0x1003f80000 (cayman)\n\
         \x20 hole      in no instance, between APB_SE_0_SDMA_31 (ends 0x1003f80000) and \
         APB_SE_1_SDMA_0 (starts 0x5004000000)\n"
    );
    let out = addr(&["0x1002544000"]);
    assert!(
        out.contains("hole      at +0x44000, between MISC_SDMA_UG_RESERVED1 (ends +0x44000) and the slot's end (+0x80000)"),
        "{out}"
    );
    // The upper half of SDMA_5's 1 MiB slot: between it and SDMA_6.
    let out = addr(&["0x1002580000"]);
    assert!(
        out.contains(
            "between APB_SE_0_SDMA_5 (ends 0x1002580000) and APB_SE_0_SDMA_6 (starts 0x1002600000)"
        ),
        "{out}"
    );
    // Below every window: the lowest base is APB_SE_0's SDMA_0 (§2), below the plain
    // APB_IO_0 host engines at 0x8006800000.
    assert!(addr(&["0"]).contains(
        "between the start of the address space and APB_SE_0_SDMA_0 (starts 0x1002000000)"
    ));
}

#[test]
fn bad_addresses_are_usage_errors() {
    fails(&["zz"], "address `zz`: not a number");
    fails(
        &["0x400000000000000"],
        "out of range: the SoC address space is 58 bits",
    );
    fails(&["0x1ffffffffffffffff"], "out of range (more than 64 bits)");
    fails(
        &["--arch", "sunda", "0x1002506038"],
        "no source places sunda's register files",
    );
}

/// §2's ledger: 128 die-resident SE + 128 IO-fabric SE + 4 PEB and 4 plain host engines +
/// 16 broadcast mirrors = 280 instances, none overlapping.
#[test]
fn the_cayman_map_holds_the_pages_280_instances() {
    use dmaspec::words::addrmap::ADDRMAPS;
    let map = ADDRMAPS
        .iter()
        .find(|m| m.arch == "cayman")
        .expect("cayman");
    let names: Vec<String> = map.instances().map(|i| i.to_string()).collect();
    let count = |f: &dyn Fn(&str) -> bool| names.iter().filter(|n| f(n)).count();
    let bcast = |n: &str| n.ends_with("_BCAST_UDMA");
    assert_eq!(count(&|n| n.starts_with("APB_SE_") && !bcast(n)), 128);
    assert_eq!(count(&|n| n.contains("_USER_SE_") && !bcast(n)), 128);
    assert_eq!(
        count(&|n| n.starts_with("PEB_APB_IO_") && n.contains("_USER_IO_")),
        4
    );
    assert_eq!(count(&|n| n.starts_with("APB_IO_")), 4);
    assert_eq!(count(&|n| bcast(n)), 16);
    assert_eq!(names.len(), 280);
    let mut spans: Vec<(u64, u64)> = map.instances().map(|i| (i.base(), i.end())).collect();
    spans.sort();
    assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0));
}

/// The dictionary carries the map: APB_SE_0_SDMA_5's base and its UDMA_M2S part follow from
/// the JSON alone (§Die-resident SE SDMA: SE_0's SDMA_0 at 0x001002000000, 32 channels
/// 0x100000 apart; §1: UDMA_M2S at +0x00000, 0x20000 bytes).
#[test]
fn the_dictionary_carries_the_cayman_map() {
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join("generated/dmaspec.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(doc["format"], "dmaspec/5");
    let maps = doc["addrmaps"].as_array().expect("an addrmaps list");
    let cayman = maps.iter().find(|m| m["arch"] == "cayman").expect("cayman");
    let se0 = (cayman["windows"].as_array().unwrap().iter())
        .find(|w| w["name"] == "APB_SE_0_SDMA_{n}")
        .expect("the SE_0 window");
    assert_eq!(se0["base"], 0x1002000000u64);
    assert_eq!(se0["count"], 32);
    assert_eq!(se0["stride"], 0x100000);
    let base = se0["base"].as_u64().unwrap() + 5 * se0["stride"].as_u64().unwrap();
    assert_eq!(base, 0x1002500000);
    let slot = &cayman["slots"][se0["slot"].as_u64().unwrap() as usize];
    assert_eq!(slot["name"], "SDMA");
    let m2s = &slot["parts"][0];
    assert_eq!(m2s["regfile"], "UDMA_M2S");
    assert_eq!(m2s["offset"], 0);
    assert_eq!(m2s["size"], 0x20000);
    // A reserved range has no register file.
    let reserved = (slot["parts"].as_array().unwrap().iter())
        .find(|p| p["name"] == "MISC_SDMA_UG_RESERVED1")
        .unwrap();
    assert_eq!(reserved["regfile"], Value::Null);
    assert_eq!(reserved["offset"], 0x42000);
}
