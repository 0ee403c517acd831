//! `dmaspec neff`: a NEFF built here from the wiki page "A Concrete NEFF, Carved
//! Byte-by-Byte" (wiki-neff-carve) — its header table (§1), its tar layout (§3: 19 members
//! in that order, GNU ustar, one directory entry) and its JSON members (§4, §5.3) — with the
//! real engine streams inside (tests/vectors/neff_c08220/, the page's §5.1 / §5.2 bytes),
//! packed both ways the format reference gives (pkg_version 2: gzip + MD5 over the
//! compressed bytes; pkg_version 1: raw tar + SHA-256), reads end to end; a corrupted,
//! truncated, future or hostile one is refused with one line and exit 1.
//!
//! The JSON members other than kelf-a.json are not verbatim on the page (it lists their keys
//! and values): they are written from those listings, so their sizes differ from §3's.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{assert_success, dmaspec, stderr, stdout};
use md5::{Digest as _, Md5};
use serde_json::Value as Json;
use sha2::Sha256;

/// The NEFF header's size and the payload's offset (§1: `header_size = 0x400`).
const HEADER: usize = 0x400;

fn stream(name: &str) -> Vec<u8> {
    common::hex_bytes(&common::root().join("tests/vectors/neff_c08220").join(name))
}

/// §4 `kelf-a.json`, verbatim but for whitespace.
const KELF: &str =
    r#"{"graphs":[{"definition":"sg00/def.json","name":"sg00"}],"version":"0.5","target":"*"}"#;

/// §4 `neff.json`: one input, one fused `__kelf` tvm_op naming kelf-a.json.
const NEFF_JSON: &str = r#"{"nodes":[{"op":"null","name":"input","is_param":"0"},{"op":"tvm_op","name":"sg_tonga0","attrs":{"func_name":"__kelf","kelf":"kelf-a.json","num_inputs":"1","num_outputs":"1"},"output":"output"}],"arg_nodes":[0],"heads":[[1,0,0]],"attrs":{"shape":["list_shape",[[32],[32]]],"storage_id":["list_int",[0,1]],"dltype":["list_str",["float32","float32"]]},"node_row_ptr":[0,1,2]}"#;

/// §4 `sg00/def.json` and its var table (no `sp` key: §4 lists act, dve, pe and pool).
const DEF_JSON: &str = r##"{"act":"act.json","debug_info":{"wavegraph":"wavegraph-bin.json"},"dma_queue":{"q_gradient_in":{"owner":"pool","semaphore":10,"type":"in"},"q_gradient_out":{"owner":"pool","semaphore":11,"type":"out"}},"dve":"dve.json","git_version":"","name":"definition","pe":"pe.json","pool":"pool.json","replica_groups":[[]],"runtime_statebuffer_reservation":[],"var":{"SB":{"type":"state-buffer","var_id":1},"gradient_in":{"#transfer-type":"tmp-buf","size":128,"type":"tmp-buf","var_id":3},"gradient_out":{"#transfer-type":"tmp-buf","size":128,"type":"tmp-buf","var_id":4},"input":{"#transfer-type":"input","element_size":4,"internal_shape":[1,1,1,32],"size":128,"type":"input","var_id":0},"output":{"#file-name":"value_nn__output:0-simout.npy","#transfer-type":"output","element_size":4,"internal_shape":[1,1,1,32],"size":128,"type":"output","var_id":2}},"version":"0.6-"}"##;

/// §5.3: the two descriptor blocks of `pool.json` (block keys as the metadata page's
/// `dma` block spells them: `id`, `queue`, `desc`).
const POOL_JSON: &str = r#"{"dma":[{"desc":[{"from":"input","from_sizes":[128,1],"from_steps":[1,128],"to":"gradient_in","to_sizes":[128,1],"to_steps":[1,128]}],"id":0,"queue":"q_gradient_in"},{"desc":[{"from":"gradient_out","from_sizes":[128,1],"from_steps":[1,128],"to":"output","to_sizes":[128,1],"to_steps":[1,128]}],"id":0,"queue":"q_gradient_out"}],"instr":"pool.bin","name":"pool_array_json"}"#;

fn engine_json(eng: &str) -> String {
    format!(r#"{{"dma":[],"instr":"{eng}.bin","name":"{eng}_array_json"}}"#)
}

/// §3's 19 members in the carve's order: (name, typeflag, bytes).
fn members() -> Vec<(&'static str, u8, Vec<u8>)> {
    let act = r#"{"act_info":"act_info.json","act_semaphore":9,"dma":[],"instr":"act.bin","name":"act_array_json"}"#;
    let pool_asm = "PSEUDO_DMA_TRIGGER q_gradient_in block_id=0;\nPSEUDO_DMA_TRIGGER $S[22]>0 q_gradient_out block_id=0;\nEVENT_SEMAPHORE $S[11]>0;\n";
    let pe_asm = "PSEUDO_TRIGGER_COLLECTIVE $S[10]>0 $S[22]++@complete ctype=ALL_REDUCE input_tensor_id=3 output_tensor_id=4 num_elements=32 dtype=fp32 op=ADD group_id=0;\n";
    let file = |n, b: Vec<u8>| (n, b'0', b);
    vec![
        file("kelf-a.json", KELF.into()),
        file("neff.json", NEFF_JSON.into()),
        ("sg00/", b'5', Vec::new()),
        file("sg00/pe.json", engine_json("pe").into()),
        file("sg00/def.json", DEF_JSON.into()),
        file("sg00/pool.bin", stream("pool.hex")),
        file("sg00/sp.asm", Vec::new()),
        file("sg00/pe.bin", stream("pe.hex")),
        file("sg00/dve.json", engine_json("dve").into()),
        file("sg00/act.json", act.into()),
        file("sg00/dve.bin", Vec::new()),
        file("sg00/dve.asm", Vec::new()),
        file("sg00/act.bin", Vec::new()),
        file("sg00/sp.bin", Vec::new()),
        file("sg00/sp.json", engine_json("sp").into()),
        file("sg00/pool.asm", pool_asm.into()),
        file("sg00/pe.asm", pe_asm.into()),
        file("sg00/pool.json", POOL_JSON.into()),
        file("sg00/act.asm", Vec::new()),
    ]
}

/// A GNU ustar archive of `members` (§3: magic "ustar " + " \0", two zero EOF blocks and
/// GNU record padding to a multiple of 10,240 bytes).
fn tar(members: &[(&str, u8, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, flag, data) in members {
        let mut h = tar::Header::new_gnu();
        h.set_path(name).unwrap();
        h.set_size(data.len() as u64);
        h.set_mode(if *flag == b'5' { 0o755 } else { 0o644 });
        h.set_entry_type(tar::EntryType::new(*flag));
        h.set_cksum();
        b.append(&h, data.as_slice()).unwrap();
    }
    let mut t = b.into_inner().unwrap();
    t.resize(t.len().next_multiple_of(10240), 0);
    t
}

fn gzip(data: &[u8]) -> Vec<u8> {
    // §2: FLG 0, MTIME 0, OS 3 (Unix).
    let mut e = flate2::GzBuilder::new()
        .operating_system(3)
        .write(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// §1's header, one row at a time, for a payload of `data_size` bytes hashed to `hash`.
fn header(pkg_version: u64, data_size: usize, hash: &[u8; 32]) -> Vec<u8> {
    let mut h = vec![0u8; HEADER];
    let mut put = |off: usize, bytes: &[u8]| h[off..off + bytes.len()].copy_from_slice(bytes);
    put(0x000, &pkg_version.to_le_bytes()); // +0x000 pkg_version
    put(0x008, &0x400u64.to_le_bytes()); // +0x008 header_size 0x400
    put(0x010, &(data_size as u64).to_le_bytes()); // +0x010 data_size
    put(0x018, &2u64.to_le_bytes()); // +0x018 neff_version_major 2
    put(0x020, &0u64.to_le_bytes()); // +0x020 neff_version_minor 0
    put(0x028, b"2.0.21884.0%kaena-tools/develop@6c66f4b"); // +0x028 build_version[128]
    put(0x0A8, &1u32.to_le_bytes()); // +0x0A8 unused_0 1
    put(0x0AC, hash); // +0x0AC hash[32]
    let uuid = [
        0x56, 0x18, 0x26, 0xfb, 0x12, 0x5f, 0x4b, 0xb8, 0x99, 0x1c, 0x29, 0xe0, 0x85, 0xc8, 0x94,
        0x9a,
    ];
    put(0x0CC, &uuid); // +0x0CC uuid[16]
    put(0x0DC, b"x"); // +0x0DC name[256] "x"
    put(0x1DC, &1u32.to_le_bytes()); // +0x1DC requested_tpb_count 1
    // +0x1E0 tpb_per_node[64]: all 0
    put(0x220, &0u64.to_le_bytes()); // +0x220 feature_bits 0
    put(0x228, &1u32.to_le_bytes()); // +0x228 vnc_size 1
    h
}

/// pkg_version 2: the gzip'd tar, its MD5 in hash[0..16] and ASCII '0' in hash[16..32]
/// (§1 QUIRK); the header, then the payload.
fn neff_v2_from(tar: &[u8]) -> Vec<u8> {
    let payload = gzip(tar);
    let mut hash = [b'0'; 32];
    hash[..16].copy_from_slice(&Md5::digest(&payload));
    [header(2, payload.len(), &hash), payload].concat()
}

fn neff_v2() -> Vec<u8> {
    neff_v2_from(&tar(&members()))
}

/// pkg_version 1: the raw tar, its SHA-256 in all of hash.
fn neff_v1() -> Vec<u8> {
    let payload = tar(&members());
    let hash: [u8; 32] = Sha256::digest(&payload).into();
    [header(1, payload.len(), &hash), payload].concat()
}

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dmaspec-neff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn json_of(neff: &[u8]) -> Json {
    let out = dmaspec(&["neff", "-", "--json"], neff);
    assert_success(&out);
    serde_json::from_str(&stdout(&out)).expect("--json parses")
}

/// Runs `neff -` on `bytes` (and `extra` flags): exit 1 and one error line holding `needle`.
#[track_caller]
fn refused(bytes: &[u8], extra: &[&str], needle: &str) {
    let mut args = vec!["neff", "-"];
    args.extend(extra);
    let out = dmaspec(&args, bytes);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(needle), "wanted {needle:?} in: {err}");
}

#[test]
fn the_carved_neff_reads_end_to_end_with_its_md5_verified() {
    let neff = neff_v2();
    let j = json_of(&neff);
    let h = &j["header"];
    // §1's rows.
    assert_eq!(h["pkg_version"], 2);
    assert_eq!(h["header_size"], 0x400);
    assert_eq!(h["data_size"], neff.len() - HEADER);
    assert_eq!(h["neff_version_major"], 2);
    assert_eq!(
        h["build_version"],
        "2.0.21884.0%kaena-tools/develop@6c66f4b"
    );
    assert_eq!(h["unused_0"], 1);
    assert_eq!(h["uuid"], "561826fb-125f-4bb8-991c-29e085c8949a");
    assert_eq!(h["name"], "x");
    assert_eq!(h["requested_tpb_count"], 1);
    assert_eq!(h["feature_bits"], 0);
    assert_eq!(h["vnc_size"], 1);
    // §2: MD5 over the compressed bytes, hash[16..32] the ASCII '0' tail.
    let md5 = dmaspec::json::hex_string(&Md5::digest(&neff[HEADER..]));
    assert_eq!(j["digest"]["algorithm"], "MD5");
    assert_eq!(j["digest"]["value"], md5.as_str());
    assert!(h["hash"].as_str().unwrap().ends_with(&"30".repeat(16)));
    // §3: 19 members, the directory among them; 20,480 bytes unpacked.
    let members = j["members"].as_array().unwrap();
    assert_eq!(members.len(), 19);
    assert_eq!(members[2]["name"], "sg00/");
    assert_eq!(members[2]["kind"], "dir");
    assert_eq!(j["unpacked_bytes"], 20480);
    // §4: the tree and def.json's DMA parts.
    assert_eq!(j["kelf"]["member"], "kelf-a.json");
    assert_eq!(j["kelf"]["named_by"], "neff.json");
    assert_eq!(j["kelf"]["target"], "*");
    let g = &j["graphs"][0];
    assert_eq!(g["definition"], "sg00/def.json");
    let q = &g["dma_queue"];
    assert_eq!(q[0]["name"], "q_gradient_in");
    assert_eq!(
        (&q[0]["owner"], &q[0]["semaphore"], &q[0]["type"]),
        (&"pool".into(), &10.into(), &"in".into())
    );
    assert_eq!(
        (&q[1]["owner"], &q[1]["semaphore"], &q[1]["type"]),
        (&"pool".into(), &11.into(), &"out".into())
    );
    let ids: Vec<(&str, u64)> = (g["var"].as_array().unwrap().iter())
        .map(|v| (v["name"].as_str().unwrap(), v["var_id"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ids,
        [
            ("SB", 1),
            ("gradient_in", 3),
            ("gradient_out", 4),
            ("input", 0),
            ("output", 2)
        ]
    );
    // The engines in the loader's order; sp is not in def.json (an empty placeholder).
    let engines = g["engines"].as_array().unwrap();
    let names: Vec<&str> = engines
        .iter()
        .map(|e| e["engine"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["pe", "act", "pool", "dve", "sp"]);
    assert_eq!(engines[4]["json"], Json::Null);
    // §5.3: pool's two blocks.
    assert_eq!(engines[2]["dma"][1]["queue"], "q_gradient_out");
    assert_eq!(engines[2]["dma"][1]["desc"][0]["to"], "output");
    // §5.1 / §5.2: the streams, decoded as decode decodes them.
    let pe = &engines[0]["stream"];
    assert_eq!((&pe["slots"], &pe["slot_bytes"]), (&1.into(), &64.into()));
    assert_eq!(pe["instructions"][0]["struct"], "PSEUDO_TRIGGER_COLLECTIVE");
    let pool = &engines[2]["stream"]["instructions"];
    assert_eq!(pool[0]["struct"], "PSEUDO_DMA_TRIGGER");
    assert_eq!(pool[1]["fields"]["dma_queue_name"], "q_gradient_out");
    assert_eq!(pool[2]["opcode"], 0xa0);
    assert_eq!(engines[1]["stream"]["slots"], 0);
    // §7: the references the tar does not hold, tolerated.
    let dangling: Vec<&str> = (j["dangling"].as_array().unwrap().iter())
        .map(|d| d["member"].as_str().unwrap())
        .collect();
    assert_eq!(dangling, ["sg00/wavegraph-bin.json", "sg00/act_info.json"]);
    // The same bytes from a file.
    let path = temp_file("carve.neff", &neff);
    let out = dmaspec(&["neff", "--json", path.to_str().unwrap()], b"");
    assert_success(&out);
    assert_eq!(serde_json::from_str::<Json>(&stdout(&out)).unwrap(), j);
}

#[test]
fn the_text_report_names_every_header_field_and_slot() {
    let neff = neff_v2();
    let out = dmaspec(&["neff", "-"], &neff);
    assert_success(&out);
    // The digest and the data size depend on the compressor: named, then masked.
    let md5 = dmaspec::json::hex_string(&Md5::digest(&neff[HEADER..]));
    let size = neff.len() - HEADER;
    let text = stdout(&out)
        .replace(&md5, "<md5>")
        .replace(&format!("{size:#x} ({size})"), "<data_size>")
        .replace(
            &format!("over the {size} payload"),
            "over the <data_size> payload",
        );
    insta::assert_snapshot!(text);
}

#[test]
fn pkg_version_1_is_a_raw_tar_with_sha256() {
    let neff = neff_v1();
    let j = json_of(&neff);
    assert_eq!(j["header"]["pkg_version"], 1);
    assert_eq!(j["digest"]["algorithm"], "SHA-256");
    let sha = dmaspec::json::hex_string(&Sha256::digest(&neff[HEADER..]));
    assert_eq!(j["digest"]["value"], sha.as_str());
    assert_eq!(j["members"].as_array().unwrap().len(), 19);
    assert_eq!(
        j["graphs"][0]["engines"][0]["stream"]["instructions"][0]["struct"],
        "PSEUDO_TRIGGER_COLLECTIVE"
    );
}

#[test]
fn a_flipped_payload_byte_is_a_digest_mismatch() {
    for (mut neff, digest) in [(neff_v2(), "MD5 mismatch"), (neff_v1(), "SHA-256 mismatch")] {
        let at = HEADER + (neff.len() - HEADER) / 2;
        neff[at] ^= 0x40;
        refused(&neff, &[], digest);
    }
}

#[test]
fn truncated_neffs_are_refused() {
    let neff = neff_v2();
    refused(&neff[..500], &[], "truncated header: 500 of the 1024 bytes");
    // Through a pipe the length is not known: the payload runs out.
    refused(&neff[..neff.len() - 10], &[], "truncated payload");
    // From a file the loader's data-fit gate refuses it first.
    let path = temp_file("short.neff", &neff[..neff.len() - 10]);
    let out = dmaspec(&["neff", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("does not fit"), "{}", stderr(&out));
}

#[test]
fn the_loader_gates_refuse_future_and_foreign_headers() {
    let neff = neff_v2();
    let with = |off: usize, value: u64| {
        let mut n = neff.clone();
        n[off..off + 8].copy_from_slice(&value.to_le_bytes());
        n
    };
    refused(&with(0x018, 3), &[], "NEFF version 3.0 is not supported");
    refused(
        &with(0x000, 3),
        &[],
        "unsupported NEFF packager: pkg_version 3",
    );
    refused(&with(0x008, 0x200), &[], "header_size is 0x200");
    // Bit 27, the lowest of the trapdoor; bit 26 is a supported feature.
    refused(&with(0x220, 1 << 27), &[], "compiled by a newer compiler");
    assert_eq!(
        json_of(&with(0x220, 1 << 26))["header"]["feature_bits"],
        1 << 26
    );
}

#[test]
fn hostile_payloads_are_refused_by_the_limits() {
    // A gzip bomb: 16 MiB of zeros after the tar, some 16 KiB compressed.
    let mut bomb = tar(&members());
    bomb.resize(bomb.len() + (16 << 20), 0);
    let neff = neff_v2_from(&bomb);
    assert!(neff.len() < 64 << 10, "{}", neff.len());
    refused(
        &neff,
        &["--max-unpacked-mib", "8"],
        "unpacks to more than 8388608 bytes",
    );
    // A member past the member limit, refused from its header before its bytes.
    let mut big = members();
    big.push(("sg00/weights.bin", b'0', vec![0; 2 << 20]));
    refused(
        &neff_v2_from(&tar(&big)),
        &["--max-member-mib", "1"],
        "`sg00/weights.bin` is 2097152 bytes",
    );
    refused(
        &neff_v2(),
        &["--max-json-mib", "0"],
        "JSON member `kelf-a.json`",
    );
    refused(
        &neff_v2(),
        &["--max-members", "18"],
        "more than 18 tar members",
    );
}

/// 1 GB of zeros through a pipe: refused at the header, without reading the rest.
#[test]
fn a_gigabyte_of_zeros_through_a_pipe_is_refused_at_once() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .args(["neff", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![0u8; 1 << 16];
        let mut sent = 0usize;
        while sent < 1 << 30 && input.write_all(&chunk).is_ok() {
            sent += chunk.len();
        }
        sent
    });
    let out = child.wait_with_output().unwrap();
    let sent = feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("header_size is 0x0"), "{err}");
    assert!(sent < 1 << 30, "the whole gigabyte was read");
}

/// The loader's walk: a leading `./` stripped, `wavegraph-bin.json` dropped (its reference
/// stays dangling), a member name with a newline shown escaped on one line.
#[test]
fn the_walk_strips_dot_slash_and_drops_the_wavegraph() {
    let mut dotted: Vec<(String, u8, Vec<u8>)> = (members().into_iter())
        .map(|(n, f, d)| (format!("./{n}"), f, d))
        .collect();
    dotted.push(("./sg00/wavegraph-bin.json".into(), b'0', b"{}".to_vec()));
    dotted.push(("sg00/odd\nname.bin".into(), b'0', Vec::new()));
    let refs: Vec<(&str, u8, Vec<u8>)> = dotted
        .iter()
        .map(|(n, f, d)| (n.as_str(), *f, d.clone()))
        .collect();
    let neff = neff_v2_from(&tar(&refs));
    let j = json_of(&neff);
    assert_eq!(j["members"][0]["name"], "kelf-a.json");
    assert_eq!(j["kelf"]["named_by"], "neff.json");
    let wave = &j["members"][19];
    assert_eq!(wave["name"], "sg00/wavegraph-bin.json");
    assert!(
        wave["dropped"]
            .as_str()
            .unwrap()
            .contains("wavegraph-bin.json")
    );
    assert_eq!(j["dangling"][0]["member"], "sg00/wavegraph-bin.json");
    let out = dmaspec(&["neff", "-"], &neff);
    assert_success(&out);
    assert!(
        stdout(&out).contains("  \"sg00/odd\\nname.bin\" "),
        "{}",
        stdout(&out)
    );
}
