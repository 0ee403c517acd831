//! One line per word (`dmaspec::asm`): the real pe.bin and pool.bin (tests/vectors/neff_c08220,
//! written by hand from the page's xxd dumps) disassemble to the producer's pe.asm and
//! pool.asm lines exactly, as the page "Per-Engine TPB-Sequencer Microcode (64-byte word)"
//! prints them (§7.1, §7.2), and assemble back to the same bytes; random words of every
//! kind on every architecture, and random bytes, come back unchanged; bad lines are errors
//! naming their column.

mod common;

use common::{dispatch_to, vectors};
use dmaspec::asm::{assemble, disassemble};
use dmaspec::words::enumerators;
use dmaspec::{Arch, WORDS};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// §7.1: "This reproduces `pe.asm` **exactly**" (the page wraps the line in two).
const PE_ASM: &str = "PSEUDO_TRIGGER_COLLECTIVE $S[10]>0 $S[22]++@complete ctype=ALL_REDUCE \
                      input_tensor_id=3 output_tensor_id=4 num_elements=32 dtype=fp32 op=ADD group_id=0;";

/// §7.2: the three slots' lines, "This reproduces `pool.asm` **exactly** (3 lines)".
const POOL_ASM: [&str; 3] = [
    "PSEUDO_DMA_TRIGGER q_gradient_in block_id=0;",
    "PSEUDO_DMA_TRIGGER $S[22]>0 q_gradient_out block_id=0;",
    "EVENT_SEMAPHORE $S[11]>0;",
];

fn assembled(line: &str, arch: Arch) -> [u8; 64] {
    match assemble(line, arch) {
        Ok(Some(b)) => b,
        other => panic!("{line:?} on {arch:?}: {other:?}"),
    }
}

#[test]
fn pe_bin_is_pe_asm() {
    let pe = vectors("neff_c08220/pe.hex");
    for &arch in Arch::ALL {
        assert_eq!(disassemble(&pe[0], arch), PE_ASM, "{arch:?}");
        assert_eq!(assembled(PE_ASM, arch), pe[0], "{arch:?}");
    }
}

#[test]
fn pool_bin_is_pool_asm() {
    let pool = vectors("neff_c08220/pool.hex");
    assert_eq!(pool.len(), POOL_ASM.len());
    for &arch in Arch::ALL {
        for (bytes, line) in pool.iter().zip(POOL_ASM) {
            assert_eq!(disassemble(bytes, arch), line, "{arch:?}");
            assert_eq!(assembled(line, arch), *bytes, "{arch:?}: {line}");
        }
    }
}

/// The extension's forms, built by hand: another compare and update, a field the page's
/// line leaves out, text that cannot stand bare, the payload of an opcode without a word,
/// and a byte that is no opcode.
#[test]
fn the_extension_carries_what_the_pages_do_not_show() {
    let arch = Arch::cayman;
    let pool = vectors("neff_c08220/pool.hex");
    // slot1 with wait mode 0x05 (GE), update 0x15 (ADD_IMM on complete) of $S[3] by 7.
    let mut b = pool[1];
    b[4] = 0x05;
    b[6] = 0x15;
    b[7] = 3;
    b[8] = 7;
    b[0x2c] = 1; // use_raw_count
    let line =
        "PSEUDO_DMA_TRIGGER $S[22]>=7 $S[3]+=7@complete q_gradient_out block_id=0 use_raw_count=1;";
    assert_eq!(disassemble(&b, arch), line);
    assert_eq!(assembled(line, arch), b);
    // A queue name that is no identifier is quoted; one that is not plain text is hex.
    b[12..16].copy_from_slice(b"q gr");
    assert!(disassemble(&b, arch).contains(" dma_queue_name=\"q gradient_out\" "));
    b[12] = 0x01;
    let line = disassemble(&b, arch);
    assert!(line.contains(" dma_queue_name=0x01206772"), "{line}");
    assert_eq!(assembled(&line, arch), b);
    // EVENT_SEMAPHORE with a payload byte and a debug hint.
    let mut e = pool[2];
    e[3] = 2;
    e[0x20] = 0xab;
    let line = "EVENT_SEMAPHORE $S[11]>0 header.debug_hint=2 raw[32..33]=0xab;";
    assert_eq!(disassemble(&e, arch), line);
    assert_eq!(assembled(line, arch), e);
    // 0x00 is no OPCODE enumerator.
    let mut z = [0u8; 64];
    z[63] = 1;
    let line = disassemble(&z, arch);
    assert_eq!(line, format!(".word 0x{}01;", "00".repeat(63)));
    assert_eq!(assembled(&line, arch), z);
}

#[test]
fn comments_and_blank_lines_are_skipped() {
    for line in ["", "   ", "# pool.asm", "  # x"] {
        assert_eq!(assemble(line, Arch::cayman), Ok(None), "{line:?}");
    }
    let with = assemble("EVENT_SEMAPHORE $S[11]>0; # gate", Arch::cayman);
    assert_eq!(with.map(|b| b.map(|b| b[5])), Ok(Some(11)));
}

/// Bad lines: the column of what is wrong and what was expected.
#[test]
fn bad_lines_are_errors_with_a_column() {
    let cases: &[(&str, usize, &str)] = &[
        ("PSEUDO_DMA_TRIGGER q block_id=0", 32, "expected `;`"),
        (
            "PSEUDO_DMA_TRIGER q;",
            1,
            "did you mean `PSEUDO_DMA_TRIGGER`",
        ),
        (
            "PSEUDO_DMA_TRIGGER q blok_id=1;",
            22,
            "did you mean `block_id`",
        ),
        ("PSEUDO_DMA_TRIGGER q block_id=x;", 31, "expected a number"),
        (
            "PSEUDO_DMA_TRIGGER q block_id=4294967296;",
            22,
            "does not fit",
        ),
        ("PSEUDO_DMA_TRIGGER $S[300]>0 q;", 20, "does not fit"),
        ("PSEUDO_DMA_TRIGGER $S[1]?0 q;", 20, "expected a compare"),
        (
            "PSEUDO_DMA_TRIGGER $S[1]++@later q;",
            20,
            "expected an update",
        ),
        (
            "PSEUDO_DMA_TRIGGER $S[1]>1 $S[2]+=2@read q;",
            28,
            "given twice",
        ),
        ("PSEUDO_DMA_TRIGGER q; x", 23, "`#` comment"),
        ("PSEUDO_DMA_TRIGGER \"q;", 23, "closing"),
        ("EVENT_SEMAPHORE raw[8..9]=0x01;", 17, "raw[a..b]"),
        ("EVENT_SEMAPHORE raw[12..14]=0x01;", 17, "is 2 bytes"),
        (".word 0x00;", 1, "128 hex digits"),
        // A long token is echoed cut short.
        (
            &format!("EVENT_SEMAPHORE {};", "x".repeat(500)),
            17,
            "… (500 characters)",
        ),
        (
            "PSEUDO_TRIGGER_COLLECTIVE dtype=fp99;",
            33,
            "not a DTYPE enumerator",
        ),
        ("PSEUDO_TRIGGER_COLLECTIVE q;", 27, "expected `name=value`"),
        ("DMA_IMMEDIATE;", 1, "not a word on cayman"),
    ];
    for &(line, column, text) in cases {
        let e = assemble(line, Arch::cayman).expect_err(line);
        assert!(e.message.contains(text), "{line}: {e}");
        assert_eq!(e.column, column, "{line}: {e}");
    }
}

/// Every DTYPE enumerator, printed lowercase, reads back as itself (other names are read
/// exactly first, whatever their case).
#[test]
fn every_dtype_reads_back_lowercase() {
    for e in enumerators("DTYPE").unwrap() {
        let name = e.name.to_ascii_lowercase();
        let line = format!("PSEUDO_TRIGGER_COLLECTIVE dtype={name};");
        assert_eq!(
            u64::from(assembled(&line, Arch::cayman)[13]),
            e.value,
            "{line}"
        );
    }
}

/// The events table names enumerators the spec has.
#[test]
fn the_semaphore_forms_name_spec_enumerators() {
    let has = |ty: &str, name: &str| enumerators(ty).unwrap().iter().any(|e| e.name == name);
    for (name, _) in dmaspec::asm::events::WAITS {
        assert!(has("WAIT_MODE", name), "{name}");
    }
    for (name, _, _) in dmaspec::asm::events::UPDATES {
        assert!(has("UPDATE_MODE", name), "{name}");
    }
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

fn round_trip(b: &[u8; 64], arch: Arch) -> Result<(), TestCaseError> {
    let line = disassemble(b, arch);
    let back = assemble(&line, arch);
    prop_assert_eq!(back, Ok(Some(*b)), "{:?}: {}", arch, line);
    Ok(())
}

/// encode_asm(decode_asm(bytes)) == bytes for random words of every kind on every
/// architecture that has it.
#[test]
fn random_words_of_every_kind_round_trip() {
    for w in WORDS {
        for &arch in w.arch {
            let strategy = any::<[u8; 64]>().prop_map(move |mut b| {
                dispatch_to(w, &mut b);
                b
            });
            runner(200)
                .run(&strategy, |b| round_trip(&b, arch))
                .unwrap_or_else(|e| panic!("{} on {arch:?}: {e}", w.name));
        }
    }
}

/// And for random bytes (most of whose opcodes have no word, or are no opcode).
#[test]
fn random_bytes_round_trip() {
    for &arch in Arch::ALL {
        runner(3_000)
            .run(&any::<[u8; 64]>(), |b| round_trip(&b, arch))
            .unwrap();
    }
}

/// Random text never panics the assembler.
#[test]
fn random_lines_do_not_panic() {
    let line = "[ -~\\t]{0,80}|(PSEUDO_DMA_TRIGGER|EVENT_SEMAPHORE|\\.word) [$S\\[\\]0-9a-z_=<>+@;\" .x-]{0,60}";
    runner(5_000)
        .run(&line, |l| {
            let _ = assemble(&l, Arch::cayman);
            Ok(())
        })
        .unwrap();
}
