//! `decode --asm` and `encode --asm`: the real pool.bin (tests/vectors/neff_c08220, from the
//! page "Per-Engine TPB-Sequencer Microcode (64-byte word)" §7.2) prints pool.asm's three
//! lines as the page gives them, and those lines give the same 192 bytes back; bad lines
//! are exit 1 naming line and column, nothing written.

mod common;

use common::{assert_success, dmaspec, hex_bytes, root, stderr, stdout};

/// §7.2: "This reproduces `pool.asm` **exactly** (3 lines)".
const POOL_ASM: &str = "PSEUDO_DMA_TRIGGER q_gradient_in block_id=0;\n\
                        PSEUDO_DMA_TRIGGER $S[22]>0 q_gradient_out block_id=0;\n\
                        EVENT_SEMAPHORE $S[11]>0;\n";

fn pool_path() -> std::path::PathBuf {
    root().join("tests/vectors/neff_c08220/pool.hex")
}

fn pool_hex() -> String {
    std::fs::read_to_string(pool_path()).unwrap()
}

#[test]
fn pool_bin_decodes_to_pool_asm_and_back() {
    let out = dmaspec(&["decode", "--hex", "--asm"], pool_hex().as_bytes());
    assert_success(&out);
    assert_eq!(stdout(&out), POOL_ASM);
    let back = dmaspec(&["encode", "--asm", "-"], POOL_ASM.as_bytes());
    assert_success(&back);
    assert_eq!(back.stdout, hex_bytes(&pool_path()));
}

#[test]
fn comments_and_blank_lines_are_skipped() {
    let text = format!("# pool.asm\n\n{POOL_ASM}");
    let out = dmaspec(&["encode", "--asm", "--hex", "-"], text.as_bytes());
    assert_success(&out);
    assert_eq!(stdout(&out).lines().count(), 3);
}

#[test]
fn a_bad_line_is_an_error_at_its_line_and_column() {
    let text = "EVENT_SEMAPHORE $S[11]>0;\nPSEUDO_DMA_TRIGGER q block_id=x;\nNOPE;\n";
    let out = dmaspec(&["encode", "--asm", "-"], text.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing written");
    let err = stderr(&out);
    assert!(
        err.contains("line 2, column 31: expected a number"),
        "{err}"
    );
    assert!(
        err.contains("line 3, column 1: unknown mnemonic `NOPE`"),
        "{err}"
    );
}

#[test]
fn a_line_that_is_not_utf8_is_an_error() {
    let out = dmaspec(&["encode", "--asm", "-"], b"EVENT_\xffSEMAPHORE;\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 1, column 7: the line is not UTF-8"));
}

#[test]
fn asm_does_not_combine_with_json() {
    let out = dmaspec(&["decode", "--asm", "--json"], b"");
    assert_eq!(out.status.code(), Some(2));
}
