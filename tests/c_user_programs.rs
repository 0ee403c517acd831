//! The generated C headers as a user writes against them: one program, compiled as C
//! (`gcc -std=c11`) and as C++ (`g++ -std=c++17`), both `-Wall -Wextra -Werror -pedantic`,
//! that includes `dmaspec.h`, builds a DMA_DIRECT2D word by assigning its fields (the
//! opcode through the header's own `NEURON_ISA_TPB_DMA_DIRECT2D_OPCODE`), calls the
//! shipped-name validator `is_valid_dma_direct2d(i, nc)` with a named generation constant,
//! and prints enumerators' names through the `<enum>_name` helpers. The program checks its
//! results itself, against values taken from the source tables (seed-004), not from our
//! own output, and exits non-zero on a failed check.
//!
//! gcc and g++ must be on PATH; the test fails (it does not skip) without them.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use common::cc::{Build, C_FLAGS, CXX_FLAGS};
use common::model;

/// The user program. Expected values, with where they come from:
/// - seed-004 §1 (the opcode table): DMA_DIRECT2D is `0xb8`, enumerator `OPCODE_DMAMEMCPY`;
///   PSEUDO_DMA_DIRECT2D is `0xd4`;
/// - seed-004 §6.5: `NEURON_ISA_TPB_DTYPE` `FP32=A`, `BFLOAT16=6`; values above `F` are
///   no enumerator;
/// - seed-004 §6.4: `DGE_COMPUTE_OP` `ADD=1`;
/// - seed-004 §6.1: `priority_class` valid range `P0..P4`;
/// - seed-004 §10 / spec/arch.toml: sunda NC-v2, cayman v3, mariana v4, maverick v5;
/// - supp-descriptor-ring-field-tables §2.5 / supp-data-movement-consolidated (D5):
///   RDMA_DESC_GEN is `EXTENDED_INST` `0xf0` with `extended_opcode` (byte 12) `== 8`.
const PROGRAM: &str = r#"/* A user's program against the dmaspec C headers (tests/c_user_programs.rs). */
#include <stdio.h>
#include <string.h>

#include "dmaspec.h"

static int failures = 0;

#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "check failed (line %d): %s\n", __LINE__, #cond);  \
            failures++;                                                         \
        }                                                                       \
    } while (0)

static int same(const char *got, const char *want) {
    return got != NULL && strcmp(got, want) == 0;
}

int main(void) {
    NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT w;
    NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT bad;
    const unsigned char *bytes = (const unsigned char *)&w;

    memset(&w, 0, sizeof w);
    /* Assign the opcode through the header's own macro: an enumerator in C++ too. */
    w.header.opcode = NEURON_ISA_TPB_DMA_DIRECT2D_OPCODE;
    w.header.inst_word_len = 0x10;
    w.dma_configs.priority_class = 2;
    w.compute_op = NEURON_ISA_TPB_DGE_COMPUTE_OP_NONE;
    w.src_step_elem[0] = 1;
    w.src_step_elem[1] = 16;
    w.src_num_elem[0] = 16;
    w.src_num_elem[1] = 4;
    w.src_elem_size = 4;
    w.dst_step_elem[0] = 1;
    w.dst_step_elem[1] = 16;
    w.dst_num_elem[0] = 16;
    w.dst_num_elem[1] = 4;
    w.dst_elem_size = 4;
    w.in_dtype = NEURON_ISA_TPB_DTYPE_FP32;
    w.out_dtype = NEURON_ISA_TPB_DTYPE_FP32;

    /* seed-004 §1 / §2: the opcode byte is 0xb8; in/out dtype at 62/63, FP32 = 0xA. */
    CHECK(bytes[0] == 0xb8);
    CHECK(bytes[62] == 0x0a && bytes[63] == 0x0a);
    CHECK(NEURON_ISA_TPB_DMA_DIRECT2D_OPCODE_VALUE == 0xb8);
    CHECK(NEURON_ISA_TPB_PSEUDO_DMA_DIRECT2D_OPCODE_VALUE == 0xd4);
#if NEURON_ISA_TPB_DMA_DIRECT2D_OPCODE_VALUE != 0xb8
#error "the _OPCODE_VALUE macros are for the preprocessor"
#endif

    /* seed-004 §10: the generations. */
    CHECK(DMASPEC_NC_SUNDA == 2);
    CHECK(DMASPEC_NC_CAYMAN == 3);
    CHECK(DMASPEC_NC_MARIANA == 4);
    CHECK(DMASPEC_NC_MAVERICK == 5);

    /* The shipped validator name, with a named generation. */
    CHECK(is_valid_dma_direct2d(&w, DMASPEC_NC_CAYMAN));
    CHECK(is_valid_dma_direct2d(&w, DMASPEC_NC_SUNDA));
    CHECK(NEURON_ISA_TPB_DMA_DIRECT2D_is_valid(&w, DMASPEC_NC_CAYMAN));

    /* Priority class 5 is outside P0..P4 (seed-004 §6.1). */
    bad = w;
    bad.dma_configs.priority_class = 5;
    CHECK(!is_valid_dma_direct2d(&bad, DMASPEC_NC_CAYMAN));
    /* The pseudo's opcode (0xd4) is not DMAMemcpy's. */
    bad = w;
    bad.header.opcode = NEURON_ISA_TPB_PSEUDO_DMA_DIRECT2D_OPCODE;
    CHECK(!is_valid_dma_direct2d(&bad, DMASPEC_NC_MAVERICK));

    /* A sub-word: its opcode and sub-opcode macros assign to the enum-typed fields too. */
    {
        NEURON_ISA_TPB_EXTENDED_RDMA_DESC_GEN_STRUCT g;
        const unsigned char *gb = (const unsigned char *)&g;
        memset(&g, 0, sizeof g);
        g.header.opcode = NEURON_ISA_TPB_EXTENDED_RDMA_DESC_GEN_OPCODE;
        g.extended_opcode = NEURON_ISA_TPB_EXTENDED_RDMA_DESC_GEN_SUB_OPCODE;
        CHECK(gb[0] == 0xf0 && gb[12] == 8);
        CHECK(NEURON_ISA_TPB_EXTENDED_RDMA_DESC_GEN_SUB_OPCODE_VALUE == 8);
        CHECK(NEURON_ISA_TPB_EXTENDED_RDMA_DESC_GEN_is_sub_opcode((const NEURON_ISA_TPB_EXTENDED_STRUCT *)(const void *)&g));
    }

    /* Enumerator names: the spec's spelling, NULL for a value that is no enumerator. */
    printf("opcode=%s\n", NEURON_ISA_TPB_OPCODE_name(w.header.opcode));
    printf("in_dtype=%s\n", NEURON_ISA_TPB_DTYPE_name(w.in_dtype));
    printf("compute_op=%s\n", NEURON_ISA_TPB_DGE_COMPUTE_OP_name(NEURON_ISA_TPB_DGE_COMPUTE_OP_ADD));
    CHECK(same(NEURON_ISA_TPB_OPCODE_name(w.header.opcode), "DMAMEMCPY"));
    CHECK(same(NEURON_ISA_TPB_DTYPE_name(w.in_dtype), "FP32"));
    CHECK(same(NEURON_ISA_TPB_DTYPE_name(NEURON_ISA_TPB_DTYPE_BFLOAT16), "BFLOAT16"));
    CHECK(same(NEURON_ISA_TPB_DGE_COMPUTE_OP_name(NEURON_ISA_TPB_DGE_COMPUTE_OP_ADD), "ADD"));
    CHECK(NEURON_ISA_TPB_DTYPE_name((NEURON_ISA_TPB_DTYPE)0x10) == NULL);

    printf("failures=%d\n", failures);
    return failures == 0 ? 0 : 1;
}
"#;

/// Compiles and runs the program; returns its `key=value` lines.
fn run(build: &Build, compiler: &str, flags: &[&str], exe: &str) -> BTreeMap<String, String> {
    let src = build.write("user.c", PROGRAM);
    let exe = build.dir.join(exe);
    build.compile(compiler, flags, &src, Some(&exe));
    let out = Command::new(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the {compiler} build of the user program failed its checks ({:?}):\n{stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn a_user_program_builds_validates_and_names_in_c_and_cxx() {
    let build = Build::new("user", &model());
    for (compiler, flags, exe) in [("gcc", C_FLAGS, "user_c"), ("g++", CXX_FLAGS, "user_cxx")] {
        let got = run(&build, compiler, flags, exe);
        // seed-004 §1, §6.5, §6.4.
        for (k, v) in [
            ("opcode", "DMAMEMCPY"),
            ("in_dtype", "FP32"),
            ("compute_op", "ADD"),
            ("failures", "0"),
        ] {
            assert_eq!(got.get(k).map(String::as_str), Some(v), "{compiler}: {k}");
        }
    }
    build.remove();
}

/// Two word headers, included in either order and twice, define each shipped name once.
#[test]
fn shipped_names_never_clash_between_headers() {
    let build = Build::new("user-guards", &model());
    let src = build.write(
        "guards.c",
        "#include <string.h>\n\
         #include \"aws_neuron_isa_tpb_dma_gather_xpose.h\"\n\
         #include \"aws_neuron_isa_tpb_dma_direct2d.h\"\n\
         #include \"dmaspec.h\"\n\
         #include \"aws_neuron_isa_tpb_dma_direct2d.h\"\n\
         int main(void) {\n\
             NEURON_ISA_TPB_DMA_GATHER_XPOSE_STRUCT g;\n\
             NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT d;\n\
             memset(&g, 0, sizeof g);\n\
             memset(&d, 0, sizeof d);\n\
             return (int)is_valid_dma_gather_transpose(&g, DMASPEC_NC_SUNDA)\n\
                 + (int)is_valid_dma_direct2d(&d, DMASPEC_NC_CAYMAN);\n\
         }\n",
    );
    for (compiler, flags) in [("gcc", C_FLAGS), ("g++", CXX_FLAGS)] {
        build.compile(compiler, flags, &src, None);
    }
    build.remove();
}
