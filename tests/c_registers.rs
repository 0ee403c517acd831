//! The generated register headers (`c/regs/<file>.h`), compiled for real: each alone (twice,
//! for its guard) with `gcc -std=c11` and `g++ -std=c++17` (both `-Wall -Wextra -Werror
//! -pedantic`), and a probe program generated from the model that prints every bundle's
//! offset, size, count and stride, every register's offset and reset, every field's
//! position, mask, width and reset, what the address helpers and the get/set helpers
//! compute, and which optional macros exist, per architecture; every number must be the
//! model's. The same layout numbers read from the Rust crate's `words::regs::REGFILES` must
//! be the model's too, and the checked-in `generated/c/regs/` headers must be the rendered
//! ones.
//!
//! Everything runs on the workspace's model (whatever register files it has) and on a small
//! synthetic one (the workspace's spec plus `registers/c_registers_test.toml`, with an array
//! bundle, per-generation layouts and RO / WO / RW fields), so the harness itself is
//! exercised before the spec has register data.
//!
//! gcc and g++ must be on PATH; the test fails (it does not skip) without them.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use common::cc::{Build, C_FLAGS, CXX_FLAGS};
use common::{model, root};
use dmaspec_codegen::emit::c;
use dmaspec_codegen::model::Model;
use dmaspec_codegen::model::registers::{RegFile, RegisterView, width_mask};

// ---- the synthetic model --------------------------------------------------------------

const SYNTHETIC: &str = r#"
[[source]]
id = "c-registers-test"
title = "The c_registers test page"
file = "c-registers-test.md"
scale = "wiki"
doc = "In-memory source of tests/c_registers.rs."

[[regfile]]
name = "CREG_TEST"
doc = "A synthetic register file: an array bundle whose cfg register is laid out per generation."
size = 0x1000
bus_width = 32
arch = ["sunda", "cayman"]
confidence = "HIGH/OBSERVED"
evidence = [ { source = "c-registers-test §1", names = "CREG_TEST" } ]

[[regfile.bundle]]
name = "glob"
offset = 0x0
size = 0x100
doc = "A single bundle."
evidence = [ { source = "c-registers-test §1", names = "glob" } ]

[[regfile.bundle.register]]
name = "id"
offset = 0x0
access = "RO"
reset = 0x12345678
doc = "Identification."
evidence = [ { source = "c-registers-test §1", names = "id" } ]
[[regfile.bundle.register.field]]
name = "id"
bits = "31:0"
reset = 0x12345678
doc = "The id."

[[regfile.bundle]]
name = "Q"
offset = 0x100
size = 0x20
count = 4
stride = 0x40
doc = "An array of four queues."
evidence = [ { source = "c-registers-test §2", names = "Q" } ]

[[regfile.bundle.register]]
name = "stat"
offset = 0x0
access = "RO"
doc = "Status, no reset given."
evidence = [ { source = "c-registers-test §2", names = "stat" } ]
[[regfile.bundle.register.field]]
name = "count"
bits = "15:0"
doc = "Entries."

[[regfile.bundle.register]]
name = "cfg"
offset = 0x4
access = "RW"
reset = 0x80000003
arch = ["sunda"]
doc = "Configuration as sunda lays it out."
evidence = [ { source = "c-registers-test §2", names = "cfg (sunda)" } ]
[[regfile.bundle.register.field]]
name = "en"
bits = "0"
reset = 0x1
doc = "Enable."
[[regfile.bundle.register.field]]
name = "mode"
bits = "2:1"
reset = 0x1
doc = "Mode."
[[regfile.bundle.register.field]]
name = "busy"
bits = "31"
access = "RO"
reset = 0x1
doc = "Busy."

[[regfile.bundle.register]]
name = "cfg"
offset = 0x8
access = "RW"
arch = ["cayman"]
confidence = "MED/INFERRED"
doc = "Configuration as cayman lays it out."
evidence = [ { source = "c-registers-test §2", names = "cfg (cayman)" } ]
[[regfile.bundle.register.field]]
name = "en"
bits = "4"
doc = "Enable."
[[regfile.bundle.register.field]]
name = "go"
bits = "31:28"
access = "WO"
doc = "Start."

[[regfile.bundle.register]]
name = "doorbell"
offset = 0x10
access = "WO"
reset = 0x0
doc = "Doorbell."
evidence = [ { source = "c-registers-test §2", names = "doorbell" } ]
[[regfile.bundle.register.field]]
name = "value"
bits = "31:0"
reset = 0x0
doc = "Written value."
"#;

/// The workspace's spec plus [`SYNTHETIC`].
fn synthetic_model() -> Model {
    let spec = root().join("spec");
    let mut files: Vec<(PathBuf, String)> = dmaspec_codegen::spec_files(&spec)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect();
    files.push((
        spec.join("registers/c_registers_test.toml"),
        SYNTHETIC.to_string(),
    ));
    let model = dmaspec_codegen::load::load_files(&spec, files)
        .unwrap_or_else(|e| panic!("the synthetic register spec: {}", e.render()));
    let f = (model.regfiles.iter())
        .find(|f| f.name == "CREG_TEST")
        .expect("CREG_TEST in the synthetic model");
    assert!(!f.arch_invariant(), "CREG_TEST has per-generation layouts");
    model
}

// ---- the layout, flattened to named numbers -------------------------------------------

/// The plain layout of register files as `macro name = value`, named as the headers name
/// them. Built from the model and from the Rust metadata, which must agree.
struct Layout<'a> {
    out: &'a mut BTreeMap<String, u64>,
}

impl Layout<'_> {
    fn put(&mut self, key: String, v: u64) {
        assert!(self.out.insert(key.clone(), v).is_none(), "`{key}` twice");
    }
}

fn upper(parts: &[&str]) -> String {
    parts.join("_").to_ascii_uppercase()
}

fn lower(parts: &[&str]) -> String {
    parts.join("_").to_ascii_lowercase()
}

fn model_layout(model: &Model) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let mut l = Layout { out: &mut out };
    for f in &model.regfiles {
        l.put(upper(&[&f.name, "SIZE"]), f.size);
        for v in f.views() {
            for b in &v.bundles {
                let bd = b.bundle;
                let p = upper(&[&f.name, v.arch, &bd.name]);
                l.put(format!("{p}_OFFSET"), bd.offset);
                l.put(format!("{p}_SIZE"), bd.size);
                l.put(format!("{p}_COUNT"), bd.count);
                l.put(format!("{p}_STRIDE"), bd.stride);
                for r in &b.registers {
                    let reg = r.register;
                    let p = format!("{p}_{}", reg.name.to_ascii_uppercase());
                    l.put(format!("{p}_OFFSET"), reg.offset);
                    if let Some(x) = reg.reset {
                        l.put(format!("{p}_RESET"), x);
                    }
                    for fd in &r.fields {
                        let p = format!("{p}_{}", fd.name.to_ascii_uppercase());
                        l.put(format!("{p}_bp"), u64::from(fd.lsb));
                        l.put(format!("{p}_bm"), fd.mask());
                        l.put(format!("{p}_bw"), u64::from(fd.width));
                        if let Some(x) = fd.reset {
                            l.put(format!("{p}_reset"), x);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The same from `dmaspec::words::regs::REGFILES`: what the Rust crate was compiled with.
#[cfg(dmaspec_regfiles)]
fn rust_layout() -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let mut l = Layout { out: &mut out };
    for f in dmaspec::words::regs::REGFILES {
        l.put(upper(&[f.name, "SIZE"]), f.size);
        for &arch in f.archs {
            let on = |archs: &[&str]| archs.contains(&arch);
            for bd in f.bundles.iter().filter(|b| on(b.archs)) {
                let p = upper(&[f.name, arch, bd.name]);
                l.put(format!("{p}_OFFSET"), bd.offset);
                l.put(format!("{p}_SIZE"), bd.size);
                l.put(format!("{p}_COUNT"), bd.count);
                l.put(format!("{p}_STRIDE"), bd.stride);
                for reg in bd.registers.iter().filter(|r| on(r.archs)) {
                    let p = format!("{p}_{}", reg.name.to_ascii_uppercase());
                    l.put(format!("{p}_OFFSET"), reg.offset);
                    if let Some(x) = reg.reset {
                        l.put(format!("{p}_RESET"), x);
                    }
                    for fd in reg.fields.iter().filter(|x| on(x.archs)) {
                        let p = format!("{p}_{}", fd.name.to_ascii_uppercase());
                        l.put(format!("{p}_bp"), u64::from(fd.lsb));
                        l.put(format!("{p}_bm"), fd.mask());
                        l.put(format!("{p}_bw"), u64::from(fd.width));
                        if let Some(x) = fd.reset {
                            l.put(format!("{p}_reset"), x);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The register value the fields' own resets make, and the bits they cover.
fn field_resets(r: &RegisterView) -> (u64, u64) {
    let given = r.fields.iter().filter_map(|f| Some((f, f.reset?)));
    given.fold((0, 0), |(v, m), (f, x)| (v | x << f.lsb, m | f.mask()))
}

/// A base above 4 GiB, so an address helper that truncates to 32 bits is caught.
const BASE: u64 = 0x1_2340_0000;

/// A probe program: one `printf("key=%llu\n", …)` per check, and what the model expects.
#[derive(Default)]
struct Probe {
    body: String,
    expect: BTreeMap<String, u64>,
}

impl Probe {
    fn check(&mut self, key: String, expr: &str, expected: u64) {
        let _ = writeln!(
            self.body,
            "    printf(\"{key}=%llu\\n\", (unsigned long long)({expr}));"
        );
        assert!(
            self.expect.insert(key.clone(), expected).is_none(),
            "probe key `{key}` twice"
        );
    }

    /// Whether macro `name` is defined (1) or not (0).
    fn defined(&mut self, name: &str, expected: bool) {
        let _ = writeln!(
            self.body,
            "#ifdef {name}\n    printf(\"defined {name}=1\\n\");\n#else\n    \
             printf(\"defined {name}=0\\n\");\n#endif"
        );
        self.expect
            .insert(format!("defined {name}"), u64::from(expected));
    }

    fn source(&self) -> String {
        format!(
            "/* Generated by tests/c_registers.rs from the spec model. */\n\
             #include <stdio.h>\n#include \"{}\"\n\nint main(void) {{\n{}    return 0;\n}}\n",
            c::UMBRELLA_HEADER,
            self.body
        )
    }

    fn diff(&self, got: &BTreeMap<String, u64>, compiler: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (k, want) in &self.expect {
            match got.get(k) {
                Some(v) if v == want => {}
                Some(v) => out.push(format!("{compiler}: {k} = {v:#x}, want {want:#x}")),
                None => out.push(format!("{compiler}: {k} not printed")),
            }
        }
        out
    }
}

/// Every layout macro (as [`model_layout`]), the optional macros' presence, and what the
/// helpers compute, per architecture.
fn model_probe(model: &Model) -> Probe {
    let mut p = Probe::default();
    for (k, v) in model_layout(model) {
        p.check(k.clone(), &k, v);
    }
    for f in &model.regfiles {
        for v in f.views() {
            for b in &v.bundles {
                let bd = b.bundle;
                let mp = upper(&[&f.name, v.arch, &bd.name]);
                let fp = lower(&[&f.name, v.arch, &bd.name]);
                // The last element (the only one of a single bundle).
                let last = bd.count - 1;
                let args = if bd.count > 1 {
                    format!("{BASE:#x}ull, {last}u")
                } else {
                    format!("{BASE:#x}ull")
                };
                let at = BASE + bd.offset + last * bd.stride;
                p.check(format!("{fp}_addr"), &format!("{fp}_addr({args})"), at);
                for r in &b.registers {
                    let reg = r.register;
                    let mp = format!("{mp}_{}", reg.name.to_ascii_uppercase());
                    let fp = format!("{fp}_{}", reg.name.to_ascii_lowercase());
                    // Without a register reset, the fields' resets make one over their
                    // bits: `_RESET`, with a `_RESET_MASK` naming those bits unless they
                    // are all of the register's.
                    let all = width_mask(reg.width);
                    let (value, mask) = field_resets(r);
                    let by_fields = reg.reset.is_none() && mask != 0;
                    let partial = by_fields && mask != all;
                    p.defined(&format!("{mp}_RESET"), reg.reset.is_some() || by_fields);
                    p.defined(&format!("{mp}_RESET_MASK"), partial);
                    if by_fields {
                        p.check(format!("{mp}_RESET"), &format!("{mp}_RESET"), value);
                    }
                    if partial {
                        p.check(
                            format!("{mp}_RESET_MASK"),
                            &format!("{mp}_RESET_MASK"),
                            mask,
                        );
                    }
                    p.check(
                        format!("{fp}_addr"),
                        &format!("{fp}_addr({args})"),
                        at + reg.offset,
                    );
                    for fd in &r.fields {
                        let mp = format!("{mp}_{}", fd.name.to_ascii_uppercase());
                        let fp = format!("{fp}_{}", fd.name.to_ascii_lowercase());
                        p.defined(&format!("{mp}_reset"), fd.reset.is_some());
                        let ones = width_mask(fd.width);
                        if fd.access.readable() && reg.access.readable() {
                            p.check(format!("{fp}_get(bm)"), &format!("{fp}_get({mp}_bm)"), ones);
                            p.check(
                                format!("{fp}_get(~bm)"),
                                &format!("{fp}_get((uint32_t)~{mp}_bm)"),
                                0,
                            );
                        }
                        if fd.access.writable() && reg.access.writable() {
                            p.check(
                                format!("{fp}_set(0,~0)"),
                                &format!("{fp}_set(0u, 0xffffffffu)"),
                                fd.mask(),
                            );
                            p.check(
                                format!("{fp}_set(~0,0)"),
                                &format!("{fp}_set(0xffffffffu, 0u)"),
                                all & !fd.mask(),
                            );
                            p.check(
                                format!("{fp}_set(0,1)"),
                                &format!("{fp}_set(0u, 1u)"),
                                1 << fd.lsb,
                            );
                        }
                    }
                }
            }
        }
    }
    p
}

// ---- the checks -----------------------------------------------------------------------

/// One `regs/` header per register file, in model order before the umbrella header, which
/// includes each; nothing else under `regs/`.
fn check_listing(model: &Model) {
    let files = c::render(model);
    let regs: Vec<&str> = (files.iter().map(|(p, _)| p.as_str()))
        .filter(|p| p.starts_with("c/regs/"))
        .collect();
    let want: Vec<String> = (model.regfiles.iter())
        .map(|f| format!("c/regs/{}.h", f.name.to_ascii_lowercase()))
        .collect();
    assert_eq!(regs, want, "one header per register file");
    let (last, umbrella) = files.last().expect("the umbrella header");
    assert_eq!(last, "c/dmaspec.h");
    for (f, path) in model.regfiles.iter().zip(&want) {
        let name = path.trim_start_matches("c/");
        assert!(
            umbrella.contains(&format!("#include \"{name}\"")),
            "dmaspec.h misses {name}"
        );
        let text = &files.iter().find(|(p, _)| p == path).expect("rendered").1;
        assert!(text.starts_with("// @generated"), "{path} lacks @generated");
        for arch in &f.archs {
            let section = format!("/* ---- {} on {arch}:", f.name);
            assert!(text.contains(&section), "{path} has no section for {arch}");
        }
        check_helpers(f, text, path);
    }
}

/// A getter only for readable fields, a setter only for writable ones (the probe calls
/// the ones that must exist; here, the ones that must not are absent).
fn check_helpers(f: &RegFile, text: &str, path: &str) {
    for v in f.views() {
        for b in &v.bundles {
            for r in &b.registers {
                let reg = r.register;
                for fd in &r.fields {
                    let fp = lower(&[&f.name, v.arch, &b.bundle.name, &reg.name, &fd.name]);
                    let get = fd.access.readable() && reg.access.readable();
                    let set = fd.access.writable() && reg.access.writable();
                    assert_eq!(
                        text.contains(&format!(" {fp}_get(")),
                        get,
                        "{path}: {fp}_get"
                    );
                    assert_eq!(
                        text.contains(&format!(" {fp}_set(")),
                        set,
                        "{path}: {fp}_set"
                    );
                }
            }
        }
    }
}

/// Each register header compiles alone, twice included, as C11 and as C++17; the probe
/// prints the model's numbers with both compilers.
fn check_compiled(tag: &str, model: &Model) {
    let build = Build::new(tag, model);
    for (i, f) in model.regfiles.iter().enumerate() {
        let name = c::registers::regs_header(f);
        let src = build.write(
            &format!("alone_{i}.c"),
            &format!(
                "#include \"{name}\"\n#include \"{name}\"\ntypedef int dmaspec_nonempty_tu;\n"
            ),
        );
        build.compile("gcc", C_FLAGS, &src, None);
        build.compile("g++", CXX_FLAGS, &src, None);
    }
    let probe = model_probe(model);
    let src = build.write("probe.c", &probe.source());
    let mut diffs = Vec::new();
    for (compiler, flags) in [("gcc", C_FLAGS), ("g++", CXX_FLAGS)] {
        let exe = format!("probe_{}", compiler.replace('+', "x"));
        let got = build.run_probe(compiler, flags, &src, &exe, &[]);
        diffs.extend(probe.diff(&got, compiler));
        let extra: Vec<&String> = got
            .keys()
            .filter(|k| !probe.expect.contains_key(*k))
            .collect();
        assert!(
            extra.is_empty(),
            "{compiler} printed unexpected keys {extra:?}"
        );
    }
    assert!(
        diffs.is_empty(),
        "{} C register values differ from the model (build kept in {}):\n{}",
        diffs.len(),
        build.dir.display(),
        diffs.join("\n")
    );
    build.remove();
}

#[test]
fn register_headers_are_listed_and_included() {
    check_listing(&model());
    check_listing(&synthetic_model());
}

#[test]
fn register_headers_compile_and_match_the_model() {
    let model = model();
    if model.regfiles.is_empty() {
        eprintln!("note: spec/ has no register files; only the synthetic one is compiled");
    }
    check_compiled("spec", &model);
}

#[test]
fn synthetic_register_headers_compile_and_match_the_model() {
    let model = synthetic_model();
    check_compiled("synthetic", &model);
    // The per-generation layouts are told apart.
    let text = &c::render(&model)
        .into_iter()
        .find(|(p, _)| p == "c/regs/creg_test.h")
        .expect("creg_test.h")
        .1;
    for line in [
        "#define CREG_TEST_SUNDA_Q_CFG_OFFSET 0x4u",
        "#define CREG_TEST_CAYMAN_Q_CFG_OFFSET 0x8u",
        "#define CREG_TEST_SUNDA_Q_CFG_BUSY_bm 0x80000000u",
        "#define CREG_TEST_SUNDA_Q_CFG_RESET 0x80000003u",
        "#define CREG_TEST_CAYMAN_Q_CFG_GO_bm 0xf0000000u",
        "#define CREG_TEST_SUNDA_Q_COUNT 4u",
        "#define CREG_TEST_SUNDA_Q_STRIDE 0x40u",
        "static inline uint32_t creg_test_sunda_q_cfg_mode_get(uint32_t reg) {",
        "static inline uint32_t creg_test_sunda_q_cfg_mode_set(uint32_t reg, uint32_t v) {",
        "static inline uint64_t creg_test_cayman_q_cfg_addr(uint64_t base, uint64_t i) {",
        "static inline uint64_t creg_test_cayman_glob_id_addr(uint64_t base) {",
    ] {
        assert!(text.contains(line), "creg_test.h lacks `{line}`");
    }
    assert!(
        !text.contains("CREG_TEST_CAYMAN_Q_CFG_BUSY"),
        "busy is sunda's only"
    );
    assert!(
        !text.contains("CREG_TEST_SUNDA_Q_CFG_GO"),
        "go is cayman's only"
    );
}

/// Read by hand from "CSR — UDMA S2M" (wiki-csr-udma-s2m, per-queue table, row `0x54`
/// `comp_cfg`: `en_comp_ring_update[0]=1`, `dis_comp_coal[1]=1`, `first_pkt_promotion[2]=1`,
/// `buf2_len_location[3]=1`; no whole-word reset holds on every architecture, so the spec
/// gives the fields' only): bits 3:0 reset to 1, the rest unknown. M2S_Q `cfg` has a whole
/// reset (`M2S_CFG_RESET_VALUE = 3<<24`, the kernel driver), so no mask.
#[test]
fn a_register_reset_only_by_its_fields_has_a_reset_mask() {
    let model = model();
    let header = |file: &str| {
        c::registers::render(&model)
            .into_iter()
            .find(|(p, _)| p == &format!("c/regs/{file}.h"))
            .unwrap_or_else(|| panic!("no {file}.h"))
            .1
    };
    let s2m = header("udma_s2m");
    for line in [
        "#define UDMA_S2M_CAYMAN_S2M_Q_COMP_CFG_RESET 0x0000000fu",
        "#define UDMA_S2M_CAYMAN_S2M_Q_COMP_CFG_RESET_MASK 0x0000000fu",
    ] {
        assert!(s2m.contains(line), "udma_s2m.h lacks `{line}`");
    }
    let m2s = header("udma_m2s");
    assert!(m2s.contains("#define UDMA_M2S_CAYMAN_M2S_Q_CFG_RESET 0x03000000u"));
    assert!(!m2s.contains("UDMA_M2S_CAYMAN_M2S_Q_CFG_RESET_MASK"));
}

/// The Rust crate's register metadata has the model's layout (and so the C headers').
#[test]
fn rust_register_metadata_matches_the_model() {
    let model = model();
    #[cfg(dmaspec_regfiles)]
    {
        let (want, got) = (model_layout(&model), rust_layout());
        let diffs: Vec<String> = (want.keys().chain(got.keys()))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .filter(|k| want.get(*k) != got.get(*k))
            .map(|k| {
                format!(
                    "{k}: model {:?}, Rust REGFILES {:?}",
                    want.get(k),
                    got.get(k)
                )
            })
            .collect();
        assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    }
    #[cfg(not(dmaspec_regfiles))]
    assert!(
        model.regfiles.is_empty(),
        "the model has register files but the crate was built without `words::regs` \
         (build.rs sets cfg dmaspec_regfiles when the spec has them)"
    );
}

/// The checked-in headers under `generated/c/regs/` are the rendered ones, and there is
/// none for a register file the model lacks.
#[test]
fn checked_in_register_headers_are_current() {
    let model = model();
    let rendered: BTreeMap<String, String> = c::registers::render(&model).into_iter().collect();
    for (path, text) in &rendered {
        let on_disk = std::fs::read_to_string(root().join("generated").join(path))
            .unwrap_or_else(|e| panic!("generated/{path} is missing ({e}); run `dmaspec gen`"));
        assert!(
            &on_disk == text,
            "generated/{path} is not what the spec renders; run `dmaspec gen`"
        );
    }
    let dir = root().join("generated/c/regs");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            let path = format!("c/regs/{name}");
            assert!(
                rendered.contains_key(&path),
                "generated/{path} belongs to no register file of the spec"
            );
        }
    }
}
