//! The generated C headers, compiled for real: with `gcc -std=c11` and `g++ -std=c++17`
//! (both `-Wall -Wextra -Werror -pedantic`), a probe program generated from the model
//! prints `sizeof`/`offsetof` of every type and byte-placed field and the bits of every
//! bitfield sub-field; every number must equal the model's. Separately, the layout probe
//! of seed-004 §8 is replayed against the C build, and random words of every kind are read
//! field by field through the C structs and through the Rust views, value for value.
//!
//! gcc and g++ must be on PATH; the test fails (it does not skip) without them.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::cc::{C_FLAGS, CXX_FLAGS, require};
use common::model;
use dmaspec::runtime::meta::FieldMeta;
use dmaspec::runtime::visit::{Group, Value, Visitor};
use dmaspec_codegen::emit::c;
use dmaspec_codegen::model::{BitsType, Field, Leaf, MetaSlot, Model, TypeDef, TypeKind};

/// A fresh directory holding the rendered headers under `c/`.
struct Build {
    dir: PathBuf,
}

impl Build {
    fn new(tag: &str, model: &Model) -> Build {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "dmaspec-c-layout-{tag}-{}-{nanos}",
            std::process::id()
        ));
        for (path, contents) in c::render(model) {
            let file = dir.join(&path);
            std::fs::create_dir_all(file.parent().expect("a parent directory"))
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
            std::fs::write(&file, contents)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
        }
        Build { dir }
    }

    fn include_dir(&self) -> PathBuf {
        self.dir.join(c::DIR)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }

    /// Compiles `src` with `compiler` and `flags`; `out` = None checks syntax only.
    fn compile(&self, compiler: &str, flags: &[&str], src: &Path, out: Option<&Path>) {
        require(compiler);
        let mut cmd = Command::new(compiler);
        cmd.args(flags).arg("-I").arg(self.include_dir()).arg(src);
        match out {
            Some(o) => cmd.arg("-o").arg(o),
            None => cmd.arg("-fsyntax-only"),
        };
        let res = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
        assert!(
            res.status.success(),
            "{compiler} {} rejected {} (headers in {}):\n{}",
            flags.join(" "),
            src.display(),
            self.include_dir().display(),
            String::from_utf8_lossy(&res.stderr)
        );
    }

    /// Compiles and runs a probe with `input` on its stdin; returns its `key=value` lines.
    fn run_probe(
        &self,
        compiler: &str,
        flags: &[&str],
        src: &Path,
        exe: &str,
        input: &[u8],
    ) -> BTreeMap<String, u64> {
        let exe = self.dir.join(exe);
        self.compile(compiler, flags, src, Some(&exe));
        let input_file = exe.with_extension("in");
        std::fs::write(&input_file, input).expect("probe input written");
        let stdin = std::fs::File::open(&input_file).expect("probe input readable");
        let res = Command::new(&exe)
            .stdin(stdin)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
        assert!(
            res.status.success(),
            "{} failed: {:?}",
            exe.display(),
            res.status
        );
        let text = String::from_utf8(res.stdout).expect("probe output is UTF-8");
        text.lines()
            .map(|l| {
                let (k, v) = l
                    .rsplit_once('=')
                    .unwrap_or_else(|| panic!("bad probe line `{l}`"));
                (
                    k.to_string(),
                    v.parse()
                        .unwrap_or_else(|_| panic!("bad probe value in `{l}`")),
                )
            })
            .collect()
    }

    fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A probe program: one `printf("key=%llu\n", …)` per check, and the value the model
/// expects for each key.
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

    fn fields(&mut self, c_type: &str, fields: &[Field]) {
        for f in fields {
            let m = c::member(&f.name);
            self.check(
                format!("offsetof {c_type}.{m}"),
                &format!("offsetof({c_type}, {m})"),
                f.offset as u64,
            );
            self.check(
                format!("sizeof {c_type}.{m}"),
                &format!("sizeof(((const {c_type} *)0)->{m})"),
                f.size as u64,
            );
        }
    }

    fn source(&self) -> String {
        format!(
            "/* Generated by tests/c_layout.rs from the spec model. */\n\
             #include <stdio.h>\n#include <string.h>\n#include \"{}\"\n\n\
             int main(void) {{\n{}    return 0;\n}}\n",
            c::UMBRELLA_HEADER,
            self.body
        )
    }

    /// Compares `got` with the expectations; returns one line per difference.
    fn diff(&self, got: &BTreeMap<String, u64>, compiler: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (k, want) in &self.expect {
            match got.get(k) {
                Some(v) if v == want => {}
                Some(v) => out.push(format!("{compiler}: {k} = {v}, want {want}")),
                None => out.push(format!("{compiler}: {k} not printed")),
            }
        }
        out
    }
}

/// The model-driven probe: every type's size, every byte-placed field's offset and size,
/// and where every bitfield sub-field's bits land in its container.
fn model_probe(model: &Model) -> Probe {
    let mut p = Probe::default();
    for t in &model.types {
        let ct = &t.c_name;
        p.check(
            format!("sizeof {ct}"),
            &format!("sizeof({ct})"),
            t.size as u64,
        );
        match &t.kind {
            TypeKind::Enum { .. } | TypeKind::Flags { .. } => {}
            TypeKind::Struct { fields, .. } => p.fields(ct, fields),
            TypeKind::Union {
                discriminator,
                variants,
            } => {
                for v in variants {
                    let arm = c::arm_type(t, v);
                    let m = c::member(&v.name);
                    p.check(
                        format!("sizeof {arm}"),
                        &format!("sizeof({arm})"),
                        t.size as u64,
                    );
                    p.check(
                        format!("offsetof {ct}.{m}"),
                        &format!("offsetof({ct}, {m})"),
                        0,
                    );
                    let mut fields = v.fields.clone();
                    fields.push(discriminator.clone());
                    p.fields(&arm, &fields);
                }
            }
            TypeKind::Bitfield { fields, .. } => {
                // Set one sub-field to all ones in a zeroed container and read the
                // container back as a little-endian integer.
                for b in fields {
                    let m = c::member(&b.name);
                    let ones = if b.width <= 32 {
                        format!("{:#x}u", b.mask())
                    } else {
                        format!("{:#x}ull", b.mask())
                    };
                    let _ = writeln!(
                        p.body,
                        "    {{\n        {ct} v;\n        unsigned long long raw = 0;\n        \
                         memset(&v, 0, sizeof v);\n        v.{m} = {ones};\n        \
                         memcpy(&raw, &v, sizeof v);\n        \
                         printf(\"bits {ct}.{m}=%llu\\n\", raw);\n    }}"
                    );
                    p.expect.insert(format!("bits {ct}.{m}"), b.mask() << b.lsb);
                    if let BitsType::Named { index, .. } = &b.ty {
                        // The enum/flags type it holds must be a real type too.
                        let named = &model.ty(*index).c_name;
                        p.check(
                            format!("sizeof {ct}.{m}:{named}"),
                            &format!("sizeof({named})"),
                            model.ty(*index).size as u64,
                        );
                    }
                }
            }
        }
    }
    p
}

#[test]
fn c_headers_match_the_model_layout() {
    let model = model();
    let build = Build::new("model", &model);
    let probe = model_probe(&model);
    let src = build.write("probe.c", &probe.source());
    let mut diffs = Vec::new();
    for (compiler, flags, exe) in [("gcc", C_FLAGS, "probe_c"), ("g++", CXX_FLAGS, "probe_cxx")] {
        let got = build.run_probe(compiler, flags, &src, exe, &[]);
        diffs.extend(probe.diff(&got, compiler));
    }
    assert!(
        diffs.is_empty(),
        "the C layout differs from the model ({} checks; build in {}):\n{}",
        probe.expect.len(),
        build.dir.display(),
        diffs.join("\n")
    );
    build.remove();
}

/// seed-004 §8 "GCC layout probe — every offset compile-confirmed"
/// (/work/shared/reference/seed-004-rdma-dma-pseudo-ops.md, §8): gcc against the shipped
/// cayman headers.
const SEED004_S8_PROBE: &[S8Word] = &[
    S8Word {
        label: "DIRECT2D",
        c_name: "NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT",
        fields: &[
            ("dma_configs", 12),
            ("compute_op", 15),
            ("src_start_addr", 16),
            ("dst_start_addr", 40),
            ("in_dtype", 62),
            ("out_dtype", 63),
        ],
    },
    S8Word {
        label: "INDIRECT1D",
        c_name: "NEURON_ISA_TPB_DMA_INDIRECT1D_STRUCT",
        fields: &[
            ("idx_num_active_channels", 14),
            ("flags", 15),
            ("src_idx_start_addr", 48),
            ("dst_idx_start_addr", 52),
            ("compute_op", 60),
            ("dma_configs", 61),
            ("reserved", 62),
        ],
    },
    S8Word {
        label: "GATHER_XPOSE",
        c_name: "NEURON_ISA_TPB_DMA_GATHER_XPOSE_STRUCT",
        fields: &[
            ("dma_configs", 13),
            ("idx_num_active_channels", 14),
            ("src_idx_bound_reg", 15),
            ("src_idx_start_addr", 36),
            ("dst_start_addr", 40),
            ("dst_step_elem_1", 52),
            ("elem_size", 60),
            ("dtype", 62),
            ("flags", 63),
        ],
    },
    S8Word {
        label: "DIRECT2D_XPOSE",
        c_name: "NEURON_ISA_TPB_DMA_DIRECT2D_XPOSE_STRUCT",
        fields: &[
            ("tile_src_row_step", 36),
            ("tile_src_rows", 60),
            ("tile_src_cols", 61),
            ("semaphore", 62),
            ("dma_configs", 63),
        ],
    },
    S8Word {
        label: "PSEUDO_DIRECT2D",
        c_name: "NEURON_ISA_TPB_PSEUDO_DMA_DIRECT2D_STRUCT",
        fields: &[
            ("dge_op", 15),
            ("src_start_addr", 16),
            ("dst_start_addr", 40),
            ("in_dtype", 62),
        ],
    },
    S8Word {
        label: "PSEUDO_EXT",
        c_name: "NEURON_ISA_TPB_PSEUDO_DMA_EXT_STRUCT",
        fields: &[
            ("flags", 1),
            ("idx_num_active_channels", 2),
            ("compute_op", 3),
            ("src_idx_start_addr", 4),
            ("tile_src_rows", 24),
            ("tile_src_cols", 25),
            ("src_bound_size_bytes_upper", 56),
        ],
    },
];

/// One line of the §8 probe.
struct S8Word {
    /// The label §8 prints.
    label: &'static str,
    /// The shipped struct name.
    c_name: &'static str,
    /// `field@offset` as listed.
    fields: &'static [(&'static str, u64)],
}

/// §8: `sizeof` of all six structs is 64.
const SEED004_S8_SIZE: u64 = 64;

#[test]
fn c_headers_hold_the_seed004_s8_probe() {
    let model = model();
    let mut probe = Probe::default();
    let mut missing_fields = Vec::new();
    for S8Word {
        label,
        c_name,
        fields,
    } in SEED004_S8_PROBE
    {
        let Some(t) = model.types.iter().find(|t| t.c_name == *c_name) else {
            eprintln!(
                "seed-004 §8: skipping {label}: `{c_name}` is not in the spec yet, so its \
                 offsets are not checked"
            );
            continue;
        };
        let TypeKind::Struct {
            fields: members, ..
        } = &t.kind
        else {
            missing_fields.push(format!("{label}: `{c_name}` is not a struct in the model"));
            continue;
        };
        probe.check(
            format!("sizeof {label}"),
            &format!("sizeof({c_name})"),
            SEED004_S8_SIZE,
        );
        for (name, offset) in *fields {
            if !members.iter().any(|f| f.name == *name) {
                missing_fields.push(format!(
                    "{label}: §8 lists `{name}@{offset}` but `{}` has no field `{name}`",
                    t.name
                ));
                continue;
            }
            let m = c::member(name);
            probe.check(
                format!("{label}.{name}"),
                &format!("offsetof({c_name}, {m})"),
                *offset,
            );
        }
    }
    assert!(
        missing_fields.is_empty(),
        "seed-004 §8 fields missing:\n{}",
        missing_fields.join("\n")
    );
    let build = Build::new("seed004", &model);
    let src = build.write("seed004_s8.c", &probe.source());
    let mut diffs = Vec::new();
    for (compiler, flags, exe) in [("gcc", C_FLAGS, "s8_c"), ("g++", CXX_FLAGS, "s8_cxx")] {
        let got = build.run_probe(compiler, flags, &src, exe, &[]);
        diffs.extend(probe.diff(&got, compiler));
    }
    assert!(
        diffs.is_empty(),
        "the C build disagrees with seed-004 §8 (build in {}):\n{}",
        build.dir.display(),
        diffs.join("\n")
    );
    build.remove();
}

/// Each header compiles on its own (it includes what it needs), in C and in C++.
#[test]
fn each_c_header_compiles_alone() {
    let model = model();
    let build = Build::new("alone", &model);
    let files = c::render(&model);
    for (i, (path, _)) in files.iter().enumerate() {
        // Relative to the include directory (register headers are in `regs/`).
        let name = path
            .strip_prefix(&format!("{}/", c::DIR))
            .expect("a header under c/");
        // Twice, to check the include guard as well.
        let src = build.write(
            &format!("alone_{i}.c"),
            &format!(
                "#include \"{name}\"\n#include \"{name}\"\ntypedef int dmaspec_nonempty_tu;\n"
            ),
        );
        build.compile("gcc", C_FLAGS, &src, None);
        build.compile("g++", CXX_FLAGS, &src, None);
    }
    build.remove();
}

#[test]
fn c_headers_are_named_and_deterministic() {
    let model = model();
    let a = c::render(&model);
    assert_eq!(a, c::render(&model), "same model, different C output");
    let paths: Vec<&str> = a.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths.first(), Some(&"c/aws_neuron_isa_tpb_common.h"));
    assert_eq!(paths.last(), Some(&"c/dmaspec.h"));
    if model.type_by_name("DMA_DIRECT2D").is_some() {
        assert!(
            paths.contains(&"c/aws_neuron_isa_tpb_dma_direct2d.h"),
            "{paths:?}"
        );
    }
    let umbrella = &a.last().expect("the umbrella header").1;
    for p in &paths[..paths.len() - 1] {
        let name = p.trim_start_matches("c/");
        assert!(
            umbrella.contains(&format!("#include \"{name}\"")),
            "dmaspec.h misses {name}"
        );
    }
    for (p, text) in &a {
        assert!(
            text.starts_with("// @generated"),
            "{p} lacks the @generated line"
        );
    }
}

// ---- values: the C structs read what the views read ---------------------------------

/// A value's identity within one word: absolute offset, the union arm it is in (`-` for
/// none), the declaring member's name and its bits.
fn value_key(
    record: usize,
    offset: usize,
    arm: &str,
    name: &str,
    bits: Option<(u32, u32)>,
) -> String {
    let bits = bits.map_or("-".to_string(), |(lsb, w)| format!("{lsb}:{w}"));
    format!("{record} {offset} {arm} {name} {bits}")
}

/// The C expression that reads `leaf` from `w`, and the signedness of its type.
fn c_access(model: &Model, word: &TypeDef, leaf: &Leaf<'_>) -> String {
    let mut segments: Vec<String> = leaf
        .path
        .split('.')
        .map(|seg| match seg.split_once('[') {
            Some((name, index)) => format!("{}[{index}", c::member(name)),
            None => c::member(seg),
        })
        .collect();
    if let MetaSlot::Discriminator { owner } = leaf.declared() {
        // C keeps the discriminator inside every arm; read it through the first.
        let union = model.type_by_name(owner).expect("a union");
        let TypeKind::Union { variants, .. } = &union.kind else {
            panic!("{owner} is not a union")
        };
        segments.insert(segments.len() - 1, c::member(&variants[0].name));
    } else if let Some(at) = through_discriminator(model, word, &leaf.path) {
        // A sub-field of a bitfield discriminator (NOTIFICATION_BODY's header byte): read
        // through the first arm too.
        let (union, _) = at;
        let TypeKind::Union { variants, .. } = &union.kind else {
            unreachable!()
        };
        segments.insert(at.1, c::member(&variants[0].name));
    }
    format!("w.{}", segments.join("."))
}

/// The union and the path index of its discriminator when `path` runs through a union's
/// discriminator to a member of its type (`body.header.notific_type`).
fn through_discriminator<'m>(
    model: &'m Model,
    word: &'m TypeDef,
    path: &str,
) -> Option<(&'m TypeDef, usize)> {
    let segs: Vec<&str> = path
        .split('.')
        .map(|s| s.split('[').next().unwrap_or(s))
        .collect();
    let named = |ty: &dmaspec_codegen::model::TypeRef| -> Option<&'m TypeDef> {
        let mut ty = ty;
        while let dmaspec_codegen::model::TypeRef::Array { elem, .. } = ty {
            ty = elem;
        }
        match ty {
            dmaspec_codegen::model::TypeRef::Named { index, .. } => Some(model.ty(*index)),
            _ => None,
        }
    };
    let TypeKind::Struct { fields, .. } = &word.kind else {
        return None;
    };
    let mut fields: &[Field] = fields;
    for (i, seg) in segs.iter().enumerate().take(segs.len().saturating_sub(1)) {
        let f = fields.iter().find(|f| f.name == *seg)?;
        let t = named(&f.ty)?;
        match &t.kind {
            TypeKind::Struct { fields: inner, .. } => fields = inner,
            TypeKind::Union {
                discriminator,
                variants,
            } => {
                let next = segs.get(i + 1)?;
                if *next == discriminator.name {
                    return (i + 2 < segs.len()).then_some((t, i + 1));
                }
                fields = &variants.iter().find(|v| v.name == *next)?.fields;
                // The arm's own segment: skip it.
                return through_arm(model, &segs[i + 2..], fields).map(|(u, k)| (u, k + i + 2));
            }
            _ => return None,
        }
    }
    None
}

/// [`through_discriminator`] from inside an arm's members.
fn through_arm<'m>(
    model: &'m Model,
    segs: &[&str],
    fields: &'m [Field],
) -> Option<(&'m TypeDef, usize)> {
    let mut fields = fields;
    for (i, seg) in segs.iter().enumerate().take(segs.len().saturating_sub(1)) {
        let f = fields.iter().find(|f| f.name == *seg)?;
        let dmaspec_codegen::model::TypeRef::Named { index, .. } = &f.ty else {
            return None;
        };
        let t = model.ty(*index);
        match &t.kind {
            TypeKind::Struct { fields: inner, .. } => fields = inner,
            TypeKind::Union { discriminator, .. } => {
                let next = segs.get(i + 1)?;
                return (*next == discriminator.name && i + 2 < segs.len()).then_some((t, i + 1));
            }
            _ => return None,
        }
    }
    None
}

/// A printf line per value of every leaf of `word`, keyed like [`value_key`].
fn c_value_prints(model: &Model, word: &TypeDef) -> String {
    let mut out = String::new();
    for leaf in model.leaves(word) {
        if leaf.type_name.starts_with("ascii[") {
            continue; // text: compared as text by the encode tests, not here
        }
        let arm = leaf.variant.as_deref().unwrap_or("-");
        let name = leaf.path.rsplit('.').next().unwrap_or(&leaf.path);
        let name = name.split('[').next().unwrap_or(name);
        let access = c_access(model, word, &leaf);
        // Int arrays are one leaf; their elements are read one by one.
        let (elem, count) = match leaf.type_name.split_once('[') {
            Some((elem, n)) => (elem, n.trim_end_matches(']').parse().expect("a length")),
            None => (leaf.type_name.as_str(), 0),
        };
        let signed = matches!(elem, "i8" | "i16" | "i32" | "i64");
        let cast = if signed {
            "(unsigned long long)(long long)"
        } else {
            "(unsigned long long)"
        };
        let reads: Vec<(usize, String)> = match leaf.size.checked_div(count) {
            None => vec![(leaf.offset, access)],
            Some(esize) => (0..count)
                .map(|k| (leaf.offset + k * esize, format!("{access}[{k}]")))
                .collect(),
        };
        for (offset, expr) in reads {
            let key = value_key(0, offset, arm, name, leaf.bits).replacen("0 ", "%lu ", 1);
            let _ = writeln!(
                out,
                "            printf(\"{key}=%llu\\n\", n, {cast}({expr}));"
            );
        }
    }
    out
}

/// Collects what the owned walk reports, keyed like [`value_key`].
struct Values {
    record: usize,
    /// Names of the open groups, and the path of the innermost union arm (`-` outside).
    names: Vec<&'static str>,
    arms: Vec<String>,
    groups: Vec<Group>,
    out: BTreeMap<String, u64>,
}

impl Visitor for Values {
    fn enter(&mut self, field: &'static FieldMeta, _offset: usize, group: Group) {
        self.names.push(field.name);
        // An arm is a struct group directly in a union; a bitfield discriminator's group
        // (NOTIFICATION_BODY's header byte) is not one.
        let arm = if self.groups.last() == Some(&Group::Union) && group == Group::Struct {
            self.names.join(".")
        } else {
            self.arms.last().cloned().unwrap_or_else(|| "-".into())
        };
        self.arms.push(arm);
        self.groups.push(group);
    }
    fn leave(&mut self, _group: Group) {
        self.names.pop();
        self.arms.pop();
        self.groups.pop();
    }
    fn value(&mut self, field: &'static FieldMeta, offset: usize, value: Value<'_>) {
        let v = match value {
            Value::Unsigned(v) | Value::Enum { raw: v, .. } | Value::Flags { raw: v, .. } => v,
            Value::Signed(v) => v as u64,
            Value::Text(_) => return,
        };
        let arm = self.arms.last().map_or("-", String::as_str);
        let key = value_key(self.record, offset, arm, field.name, field.bits);
        self.out.insert(key, v);
    }
}

/// Extends the layout check to values: random words of every kind, read field by field
/// through the generated C structs (gcc and g++) and through the Rust views (`view::Word`,
/// read and walked), agree on every value of every arm the view chose. Records (top-level
/// structs such as the 16-byte SDMA descriptors) are read the same way from the front of
/// their bytes, through `Record::decode`.
#[test]
fn c_structs_and_rust_views_read_the_same_values() {
    const PER_WORD: usize = 200;
    let model = model();
    let build = Build::new("values", &model);
    let words: Vec<&TypeDef> = model.types.iter().filter(|t| t.is_top_level()).collect();
    assert!(
        words.iter().any(|t| t.is_record()),
        "no record is exercised"
    );
    // Each input record holds a word's 64 bytes, or the largest record's bytes (the host
    // kbin_dma_desc_cce_info_t has 140), after the index byte.
    let len = words.iter().map(|w| w.size).max().unwrap_or(64).max(64);
    let mut cases = String::new();
    for (i, w) in words.iter().enumerate() {
        let _ = write!(
            cases,
            "        case {i}: {{\n            {} w;\n            memcpy(&w, rec + 1, sizeof w);\n{}            break;\n        }}\n",
            w.c_name,
            c_value_prints(&model, w)
        );
    }
    let src = build.write(
        "values.c",
        &format!(
            "/* Generated by tests/c_layout.rs. */\n#include <stdio.h>\n#include <string.h>\n\
             #include \"{}\"\n\nint main(void) {{\n    unsigned char rec[{rec}];\n    \
             unsigned long n = 0;\n    while (fread(rec, 1, {rec}, stdin) == {rec}) {{\n        \
             switch (rec[0]) {{\n{cases}        }}\n        n++;\n    }}\n    return 0;\n}}\n",
            c::UMBRELLA_HEADER,
            rec = len + 1
        ),
    );
    // Records: the word's index in `words`, then `len` bytes (random, opcode in byte 0).
    let mut input = Vec::new();
    let mut expected = BTreeMap::new();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut visited_arms = 0;
    for (i, w) in words.iter().enumerate() {
        let meta = dmaspec::WORDS.iter().find(|m| m.name == w.name);
        for _ in 0..PER_WORD {
            let mut all = vec![0u8; len];
            for byte in all.iter_mut() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *byte = state as u8;
            }
            let b: &mut [u8; 64] = (&mut all[..64]).try_into().unwrap();
            let mut values = Values {
                record: input.len() / (len + 1),
                names: Vec::new(),
                arms: Vec::new(),
                groups: Vec::new(),
                out: BTreeMap::new(),
            };
            match (w.opcode(), meta) {
                (Some(op), Some(meta)) => {
                    b[0] = op.value;
                    common::dispatch_to(meta, b);
                    let arch = meta.arch[0];
                    let view = dmaspec::words::view::Word::new(b, arch)
                        .unwrap_or_else(|| panic!("{} views its own opcode", w.name));
                    view.read().visit(&mut values, arch);
                }
                _ => dmaspec::words::Record::decode(&w.name, &all)
                    .unwrap_or_else(|| panic!("{} is a generated record", w.name))
                    .expect("`len` bytes hold any record")
                    .visit(&mut values, dmaspec::Arch::cayman),
            }
            visited_arms += values.out.keys().filter(|k| !k.contains(" - ")).count();
            expected.extend(values.out);
            input.push(i as u8);
            input.extend_from_slice(&all);
        }
    }
    assert!(visited_arms > 0, "no union arm was exercised");
    for (compiler, flags, exe) in [
        ("gcc", C_FLAGS, "values_c"),
        ("g++", CXX_FLAGS, "values_cxx"),
    ] {
        let got = build.run_probe(compiler, flags, &src, exe, &input);
        // Every value the view gives, C gives equally; C's values of the arms the view
        // did not choose have no counterpart.
        let mut diffs: Vec<String> = expected
            .iter()
            .filter(|(k, v)| got.get(*k) != Some(v))
            .map(|(k, v)| format!("{compiler}: {k}: view {v}, C {:?}", got.get(k)))
            .collect();
        let chosen: std::collections::BTreeSet<(&str, &str)> = expected
            .keys()
            .map(|k| {
                let mut parts = k.split(' ');
                (parts.next().unwrap_or(""), parts.nth(1).unwrap_or(""))
            })
            .collect();
        diffs.extend(
            got.keys()
                .filter(|k| {
                    let mut parts = k.split(' ');
                    let rec_arm = (parts.next().unwrap_or(""), parts.nth(1).unwrap_or(""));
                    chosen.contains(&rec_arm) && !expected.contains_key(*k)
                })
                .map(|k| format!("{compiler}: {k}: C only")),
        );
        diffs.truncate(40);
        assert!(
            diffs.is_empty(),
            "C and the views disagree (build in {}):\n{}",
            build.dir.display(),
            diffs.join("\n")
        );
    }
    build.remove();
}

/// Every sub-word's C predicate `<stem>_is_sub_opcode` (gcc and g++) agrees with Rust's
/// dispatch on the EXTENDED vectors, the same words under other opcodes and sub-opcodes, and
/// every value of the selector byte.
#[test]
fn c_sub_opcode_predicates_agree_with_rust_dispatch() {
    let model = model();
    let build = Build::new("sub-opcode", &model);
    let subs: Vec<&TypeDef> = model
        .words()
        .filter(|w| w.opcode().is_some_and(|o| o.sub.is_some()))
        .collect();
    assert!(subs.len() >= 2, "the RDMA words are sub-words");
    let mut prints = String::new();
    for w in &subs {
        let s = w.opcode().unwrap().sub.as_ref().unwrap();
        let env = model.words().find(|e| e.name == s.envelope).unwrap();
        let stem = w.c_name.strip_suffix("_STRUCT").unwrap();
        let _ = writeln!(
            prints,
            "        printf(\"%lu {} =%d\\n\", n, (int){stem}_is_sub_opcode((const {} *)rec));",
            w.name, env.c_name
        );
    }
    let src = build.write(
        "sub_opcode.c",
        &format!(
            "/* Generated by tests/c_layout.rs. */\n#include <stdio.h>\n#include \"{}\"\n\n\
             int main(void) {{\n    unsigned char rec[64];\n    unsigned long n = 0;\n    \
             while (fread(rec, 1, 64, stdin) == 64) {{\n{prints}        n++;\n    }}\n    \
             return 0;\n}}\n",
            c::UMBRELLA_HEADER
        ),
    );
    let mut words: Vec<[u8; 64]> = [
        "extended_rdma_desc_gen.hex",
        "extended_rdma_desc_start.hex",
        "extended_unknown.hex",
    ]
    .iter()
    .map(|f| common::vector(f))
    .collect();
    for sel in 0..=255u8 {
        let mut b = words[0];
        b[12] = sel;
        words.push(b);
    }
    let mut other = words[0];
    other[0] = 0xbb;
    words.push(other);
    let mut expected = BTreeMap::new();
    for (n, b) in words.iter().enumerate() {
        let chosen = dmaspec::words::Word::decode(b, dmaspec::Arch::cayman).map(|w| w.meta().name);
        for w in &subs {
            let key = format!("{n} {} ", w.name);
            expected.insert(
                key,
                u64::from(b[0] == 0xf0 && chosen == Some(w.name.as_str())),
            );
        }
    }
    let input = words.concat();
    for (compiler, flags, exe) in [
        ("gcc", C_FLAGS, "sub_opcode_c"),
        ("g++", CXX_FLAGS, "sub_opcode_cxx"),
    ] {
        let got = build.run_probe(compiler, flags, &src, exe, &input);
        assert_eq!(got, expected, "{compiler}");
    }
    build.remove();
}
