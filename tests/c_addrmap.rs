//! `generated/c/addrmap_cayman.h` through `dmaspec.h`, compiled by gcc (C11) and g++
//! (C++17): the bases and offsets it defines are the ones "SDMA Address Windows + APB
//! Chain" tabulates (the row is cited above each check; the preprocessor compares them, so
//! a wrong value is a compile error naming it). gcc and g++ must be on PATH.

use std::path::Path;
use std::process::Command;

/// (macro, value, where the value comes from).
const CHECKS: &[(&str, u64, &str)] = &[
    // §2 die-resident SE table: APB_SE_1's SDMA_0 at 0x005004000000.
    (
        "CAYMAN_APB_SE_1_SDMA_0_BASE",
        0x005004000000,
        "§2 APB_SE_1 row",
    ),
    // §2: APB_SE_3's SDMA_0 0x805004000000 + 31 x 0x100000.
    (
        "CAYMAN_APB_SE_3_SDMA_31_BASE",
        0x805005F00000,
        "§2 APB_SE_3 row, stride",
    ),
    // §2 host engines: PEB_APB_IO_1_USER_IO_SDMA_H2D at 0x20808006900000.
    (
        "CAYMAN_PEB_APB_IO_1_USER_IO_SDMA_H2D_BASE",
        0x20808006900000,
        "§2 H2D/D2H table",
    ),
    // §3: SDMA_16's mirror: 0x1002000000 + 16 x 0x100000 + 0x80000.
    (
        "CAYMAN_APB_SE_0_SDMA_16_BCAST_UDMA_BASE",
        0x1003080000,
        "§3",
    ),
    // §1: S2M at +0x20000, NOTIFIC at +0x41000.
    ("CAYMAN_SDMA_UDMA_S2M_OFFSET", 0x20000, "§1 table"),
    ("CAYMAN_SDMA_MISC_NOTIFIC_OFFSET", 0x41000, "§1 table"),
];

#[test]
fn the_address_map_header_holds_the_pages_bases() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_addrmap");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut src = String::from("#include \"dmaspec.h\"\n");
    for (name, value, from) in CHECKS {
        src.push_str(&format!(
            "#if {name} != {value:#x}ull\n#error \"{name} is not {value:#x} ({from})\"\n#endif\n"
        ));
    }
    src.push_str("typedef int dmaspec_nonempty_tu;\n");
    let file = dir.join("addrmap.c");
    std::fs::write(&file, src).expect("write the probe");
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated/c");
    for (compiler, std) in [("gcc", "-std=c11"), ("g++", "-std=c++17")] {
        let mut cmd = Command::new(compiler);
        cmd.args([std, "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I"]);
        cmd.arg(&include);
        if compiler == "g++" {
            cmd.args(["-x", "c++"]);
        }
        let out = cmd.arg(&file).output().expect("run the compiler");
        assert!(
            out.status.success(),
            "{compiler}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
