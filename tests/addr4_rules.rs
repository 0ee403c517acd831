//! The ADDR4 rules of supp-addr4 (issue 14 item 8), on hand-built words: the decoder's
//! static-path region split (PSUM window or SBUF), the gen2 register mask, and the
//! aligner / PSUM-write dtype set, which ADDR4 alone cannot check (they need the carrying
//! word's dtype). All are compiler rules: a broken one is a finding, the word stays valid.

use dmaspec::Arch;
use dmaspec::prelude::*;
use dmaspec::runtime::rules::{RuleAuthority, RuleKind};
use dmaspec::words::ADDR4;

/// The compiler findings of one raw ADDR4 word on `arch` (header violations must be none).
fn findings(raw: u32, arch: Arch) -> Vec<&'static str> {
    let v = ADDR4::check_rules(&raw.to_le_bytes(), arch);
    assert_eq!(v.mask, 0, "{raw:#x}: ADDR4 has no header rules");
    assert!(ADDR4::from_raw(raw).validate(arch).is_ok());
    v.compiler_findings().map(|r| r.id).collect()
}

#[test]
fn psum_window_and_sbuf_region() {
    // supp-addr4 §PSUM-window detection, "Decoded" table: PSUM row
    // `(addr29 − 0x2000000) ≤ 0x3FFFFF` ⇔ addr29 ∈ [0x2000000, 0x23FFFFF].
    for raw in [0x200_0000, 0x200_0400, 0x23F_FFFF] {
        assert!(findings(raw, Arch::cayman).is_empty(), "{raw:#x} is PSUM");
    }
    // Same table, SBUF row: otherwise bits 25..28 must be 0.
    for raw in [0x0, 0x400, 0x1FF_FFFF] {
        assert!(findings(raw, Arch::cayman).is_empty(), "{raw:#x} is SBUF");
    }
    // Past the window (0x2400000 = base + 0x3FFFFF + 1) or below it with bits 25..28 set.
    for raw in [0x240_0000, 0x400_0000, 0x1E00_0000, 0x1FFF_FFFF] {
        for arch in [Arch::sunda, Arch::cayman, Arch::mariana] {
            assert_eq!(
                findings(raw, arch),
                ["tensor_start_addr_valid_region"],
                "{raw:#x} on {}",
                arch.name()
            );
        }
        // The page reads the v2/v3/v4 decoders only.
        assert!(findings(raw, Arch::maverick).is_empty());
    }
    // §The 29-bit address field: bits 29..31 are stripped first, so the indirect mode bit
    // (0x20000000, §At a glance) does not move an SBUF address out of SBUF.
    assert!(findings(0x2000_0400, Arch::cayman).is_empty());
    // §Register mode: RM=1 takes the register branch; the region test is not made.
    assert!(findings(0x8000_0005, Arch::cayman).is_empty());
}

#[test]
fn gen2_register_mask() {
    // supp-addr4 §Register mode: gen2 `(a1 & 0xFFFFFF00) == 0x80000000`, then regid ≤ 0x3F.
    assert!(findings(0x8000_003F, Arch::sunda).is_empty());
    // Bit 24 (address) and bit 29 (indirect): outside bits 8..23, inside bits 8..30.
    for raw in [0x8100_0005, 0xA000_0005, 0xC000_0005] {
        assert_eq!(
            findings(raw, Arch::sunda),
            ["tensor_start_addr_valid_register_gen2"],
            "{raw:#x}"
        );
        assert!(
            findings(raw, Arch::cayman).is_empty(),
            "{raw:#x}: v3 tests 8..23 only"
        );
    }
    // Register id 0x40 breaks both branches on gen2, the shared one elsewhere.
    assert_eq!(
        findings(0x8000_0040, Arch::sunda),
        [
            "tensor_start_addr_valid_register",
            "tensor_start_addr_valid_register_gen2"
        ]
    );
    assert_eq!(
        findings(0x8000_0040, Arch::mariana),
        ["tensor_start_addr_valid_register"]
    );
}

#[test]
fn dtype_rules_are_named_not_enforced() {
    // supp-addr4 §Per-dtype byte alignment and §PSUM-window detection (PSUM-dtype
    // restriction): each needs the carrying word's dtype, which a nested type's rule call
    // (`rule(field)`) cannot pass.
    let rule = |id: &str| ADDR4::RULES.iter().find(|r| r.id == id).unwrap();
    for (id, arch) in [
        (
            "tensor_start_addr_valid_psum_write_dtype",
            &["sunda", "cayman", "mariana"][..],
        ),
        ("addr_aligned_dtype_gen2_gen3", &["sunda", "cayman"][..]),
        ("addr_aligned_dtype_core_v4", &["mariana"][..]),
    ] {
        let r = rule(id);
        assert_eq!(
            (r.kind, r.authority, r.arch, r.enforced),
            (RuleKind::NotEnforced, RuleAuthority::Compiler, arch, false),
            "{id}"
        );
    }
    // The rows of the alignment table, and the v4 delta (wire tag 16 joins align 1).
    assert!(
        rule("addr_aligned_dtype_gen2_gen3")
            .message
            .contains("{2,3,13,14,15} align 1")
    );
    assert!(
        rule("addr_aligned_dtype_core_v4")
            .message
            .contains("{2,3,13,14,15,16} align 1")
    );
    assert!(
        rule("tensor_start_addr_valid_psum_write_dtype")
            .message
            .contains("wire tag 8..11")
    );
}
