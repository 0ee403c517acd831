//! The shape of the Rust module rendered from the real spec (`spec/`).

use std::path::Path;
use std::sync::OnceLock;

/// The module as `dmaspec gen` writes it, rendered once for all tests.
fn module() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let model = crate::load::load_dir(&spec).unwrap_or_else(|e| panic!("{}", e.render()));
        super::render(&model, "crate::runtime")
    })
}

/// The `evidence` module's text.
fn evidence_module(text: &str) -> &str {
    let module = &text[text.find("pub mod evidence {").unwrap_or(0)..];
    &module[..module.find("\n}\n").unwrap_or(module.len())]
}

#[test]
fn evidence_records_are_stated_once_and_named_by_what_they_cite() {
    let text = module();
    let module = evidence_module(text);
    let stated: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("meta::Evidence {"))
        .collect();
    assert!(
        stated
            .iter()
            .all(|l| module.contains(*l) && l.trim_start().starts_with("pub const ")),
        "every evidence record is a constant of the `evidence` module"
    );
    // The records themselves: each constant's text from its `=` to its `;`.
    let mut records: Vec<&str> = stated
        .iter()
        .map(|r| &r[r.find('=').unwrap_or(0)..])
        .collect();
    let total = records.len();
    records.sort_unstable();
    records.dedup();
    assert_eq!(records.len(), total, "no record is stated twice");
    // supp-addr4's register-mode pin is cited by ADDR4.register_mode's evidence only once,
    // under a name made of its citation ("supp-addr4 §Register mode"), the second such.
    assert_eq!(text.matches("0x1508f58: or byte [rbx+3], 80h").count(), 1);
    let pin = stated
        .iter()
        .find(|l| l.contains("0x1508f58: or byte [rbx+3], 80h"))
        .expect("the register-mode pin is stated");
    assert!(
        pin.trim_start()
            .starts_with("pub const SUPP_ADDR4_REGISTER_MODE_1: ")
    );
    assert!(text.contains("evidence(&[evidence::SUPP_ADDR4_REGISTER_MODE_"));
}

#[test]
fn evidence_names_are_stems_of_their_citation() {
    use super::data::evidence_stem;
    assert_eq!(
        evidence_stem("wiki-dropout", "wiki-dropout §3"),
        "WIKI_DROPOUT_S3"
    );
    assert_eq!(evidence_stem("seed-004", "seed-004 §3.1"), "SEED_004_S3_1");
    assert_eq!(evidence_stem("seed-004", "§2 table"), "SEED_004_S2_TABLE");
    assert_eq!(
        evidence_stem("supp-dve-datamove", "supp-dve-datamove §Dropout"),
        "SUPP_DVE_DATAMOVE_DROPOUT"
    );
    assert_eq!(evidence_stem("1x", "§→"), "E_1X");
    assert_eq!(
        evidence_stem("wiki-tensor-descriptors", "§Partition-axis folding"),
        "WIKI_TENSOR_DESCRIPTORS"
    );
    assert_eq!(evidence_stem(&"b".repeat(40), "§1"), "B".repeat(40));
}

#[test]
fn defaults_are_not_spelled_out() {
    // The evidence, the types' FIELDS, leaves and RULES: everything before the klr module
    // (`WordMeta`'s `follows`, `sub_opcode` and `aliases` and `RecordMeta`'s `rules` are
    // code, not a table).
    let text = module();
    let tables = &text[..text.find("\npub mod klr ").unwrap_or(text.len())];
    let spelled = tables
        .lines()
        .filter(|l| l.contains(": None,") || l.contains(": &[],"))
        .filter(|l| {
            ![
                "follows: &[],",
                "sub_opcode: None,",
                "aliases: &[],",
                "rules: &[],",
            ]
            .contains(&l.trim_start())
        })
        .count();
    assert_eq!(
        spelled, 0,
        "fields at their default are left to `..DEFAULT`"
    );
    // DMA_DIRECT2D's header.opcode leaf is laid out as HEADER::FIELDS[0] declares it.
    assert!(text.contains(r#"meta::LeafMeta::of("header.opcode", 0, &HEADER::FIELDS[0])"#));
    // Opcodes in hex, as the spec writes them (DMAMEMCPY is 0xb8, spec/types/opcode.toml).
    assert!(text.contains("    const OPCODE: u8 = 0xb8;"));
    assert!(!text.contains("OPCODE: u8 = 184u8"));
    // A leaf is `LeafMeta::of` plus a builder call per difference, not a record.
    assert!(!text.contains("meta::LeafMeta {"));
    assert!(text.contains(".within(const { &[&Self::FIELDS[0]] })"));
}

#[test]
fn literals_take_their_type_from_context() {
    let text = module();
    // Quoted source text (an evidence string citing `(1 << 0)`) is not generated code.
    let code = without_string_literals(text);
    for noise in [
        ">> 0u32",
        ">> 0)",
        ": bool = true",
        "<< 0)",
        "usize];",
        "0usize]",
    ] {
        assert!(!code.contains(noise), "`{noise}` in the generated Rust");
    }
    // DMA_DIRECT2D.src_step_elem is `i32[2]`.
    assert!(text.contains("pub src_step_elem: [i32; 2],"));
    // A sub-field of its container's width is read and written without a cast (DMA_CONFIGS
    // is a u8 bitfield, priority_class a u3 held in a u8).
    assert!(text.contains("priority_class: raw & 0x7,"));
    assert!(text.contains("(self.priority_class & 0x7)"));
}

#[test]
fn a_types_rules_follow_its_definition() {
    let text = module();
    let def = text
        .find("\npub struct BOUND_CHECK_REG ")
        .expect("BOUND_CHECK_REG is defined");
    let next_type = text[def + 1..]
        .find("\npub struct DMA_")
        .map_or(text.len(), |i| def + 1 + i);
    let rules = text[def..]
        .find("fn rule_truths(b: &[u8; 1]")
        .map(|i| def + i);
    assert!(
        rules.is_some_and(|r| r < next_type),
        "BOUND_CHECK_REG's validators come before the next type"
    );
}

#[test]
fn docs_state_the_confidence_once_per_member() {
    let text = module();
    // ADDR4.address: the owned field's doc has it; the two views link to the field.
    let tag = "29-bit on-chip byte address (SBUF or PSUM).";
    let docs = text
        .lines()
        .filter(|l| l.trim_start().starts_with("///") && l.contains(tag))
        .count();
    assert_eq!(docs, 1);
    assert!(text.contains("/// [`ADDR4::address`](super::ADDR4::address), bits 0..=28."));
}

#[test]
fn evidence_records_take_one_line_each() {
    let text = module();
    let module = evidence_module(text);
    let records: Vec<&str> = module
        .lines()
        .filter(|l| l.trim_start().starts_with("pub const "))
        .collect();
    // The 571 distinct records of the spec, one line each (plus the `use` line).
    assert!(records.len() > 500);
    assert!(
        records
            .iter()
            .all(|l| l.ends_with("..meta::Evidence::DEFAULT };") || l.ends_with(") };"))
    );
    assert_eq!(module.lines().count(), records.len() + 2);
    // supp-addr4's byte-address record, as the spec's ADDR4 table states it (its number
    // depends on the order of the spec's files, so it is not part of the check).
    assert!(module.contains(
        r#": meta::Evidence = meta::Evidence { source: "supp-addr4", cite: "supp-addr4 §The 29-bit address field", name: Some("Byte address"), pin: Some("0x136ed96: and r15d, 1FFFFFFFh"), value: Some("mask 0x1FFFFFFF"), confidence: confidence::certainty::CERTAIN, ..meta::Evidence::DEFAULT };"#
    ));
}

#[test]
fn klr_steps_are_one_call_each() {
    let text = module();
    let klr = &text[text.find("\npub mod klr ").unwrap_or(0)..];
    for pushed in [
        "n.bindings",
        "n.stamps",
        "n.effects",
        "n.unevaluated",
        "Error {",
        "Undetermined {",
    ] {
        assert!(!klr.contains(pushed), "{pushed} is built by a Node method");
    }
    // codegenNcCopy's static path binds dst (spec/klr/leaves/01_copy.toml:51).
    assert!(klr.contains(
        r#"n.add_binding("builder", Some("dst"), None, Some("dst.MemLoc, dst.AP, dst.size"));"#
    ));
    assert!(klr.contains(
        r#"n.check(eval::and(eval::dynamic(&op.dst), eval::dynamic(&op.src)), None, ErrorKind::Throw, "Only one of src and dst can have dynamic access in tensor_copy.", "dynamic(dst) && dynamic(src)", None)?;"#
    ));
}

#[test]
fn a_short_view_method_takes_one_line() {
    // ADDR4.address is bits 0..28 of the 4-byte word (spec/types/addr4.toml, `bits =
    // "0..28"`): its accessor fits one line, and the writable view has no copy of it (it
    // reads through `as_view()`).
    let text = module();
    assert!(text.contains("        pub fn address(&self) -> u32 { self.bits() & 0x1fffffff }\n"));
    assert!(!text.contains("self.as_view().address()"));
}

#[test]
fn a_member_is_its_constructor_and_the_setters_of_what_it_states() {
    // ADDR4.address: offset 0 of a 4-byte type, bits 0..28 (spec/types/addr4.toml).
    let text = module();
    assert!(text.contains(
        "        meta::FieldMeta::new(\"address\", 0, 4, \"u29\", confidence::certainty::CERTAIN, \"29-bit"
    ));
    assert!(text.contains("\n            .bits(0, 29)\n            .evidence(&[\n                evidence::SUPP_ADDR4_THE_29_BIT_ADDRESS_0,"));
    assert!(
        !text.contains("meta::FieldMeta::DEFAULT") && !text.contains("rules::RuleMeta::DEFAULT")
    );
}

#[test]
fn klr_records_take_one_line_each_and_state_only_what_differs() {
    let klr = klr_module();
    let records = |ty: &str| -> Vec<String> {
        klr.lines()
            .filter(|l| l.trim_start().starts_with(&format!("{ty} {{")))
            .map(str::to_string)
            .collect()
    };
    // The input fields of the 14 klr layouts of spec/klr/klr_nodes.toml.
    let fields = records("FieldMeta");
    assert_eq!(fields.len(), 54);
    assert!(
        fields
            .iter()
            .all(|l| l.ends_with(", ..FieldMeta::DEFAULT },") || l.ends_with("] },"))
    );
    // klr::NcCopy's `dst` (spec/klr/klr_nodes.toml).
    assert!(fields.iter().any(|l| l == r#"        FieldMeta { name: "dst", input: Input::Ap, offset: Some(0), doc: "Destination.", confidence: confidence::seed003::READ_DIRECTLY, evidence: &[evidence::SEED_003_S2_0], ..FieldMeta::DEFAULT },"#));
    let paths = records("PathInfo");
    assert_eq!(paths.len(), 20);
    assert!(
        paths
            .iter()
            .all(|l| l.ends_with(", ..PathInfo::NONE },") || l.ends_with("] },"))
    );
    let leaves = records("LeafMeta");
    assert_eq!(leaves.len(), 15);
    assert!(leaves.iter().all(|l| l.ends_with(" },")));
}

#[test]
fn klr_steps_stop_with_the_question_mark_and_share_their_guard() {
    let klr = klr_module();
    for old in ["Some(true) =>", "Some(false) => {}", "'fork:", "if true {"] {
        assert!(!klr.contains(old), "{old}: a step is one Node call");
    }
    // codegenNcCopy's dynamic paths (1, 2) run two checks, two stamps and an effect
    // (spec/klr/leaves/01_copy.toml): one guard for the five.
    let nc_copy = &klr[klr.find("fn lower_NcCopy_from").expect("NcCopy")..];
    let nc_copy = &nc_copy[..nc_copy.find("Ok(n)").expect("its end")];
    assert_eq!(nc_copy.matches("if matches!(path, 1 | 2) {").count(), 1);
    assert!(nc_copy.contains(
        r#"n.add_stamp(0xf0, "bir::InstTensorCopyDynamicSrc", "size", Value::Opaque("the computed size"));"#
    ));
    // NcDmaCopy's fatal dgeMode lookup (spec/klr/enums.toml: translateDGEMode).
    assert!(klr.contains(
        r#"let v_dge: Option<i64> = n.lookup(tables::translateDGEMode, Some(op.dgeMode), "translateDGEMode(dgeMode)", "translateDGEMode @0xf14b60")?;"#
    ));
}

/// The `pub mod klr` of the module, to its closing brace.
fn klr_module() -> &'static str {
    let text = module();
    let klr = &text[text.find("\npub mod klr {").unwrap_or(0)..];
    &klr[..klr.find("\n}\n").unwrap_or(klr.len())]
}

/// `text` with the contents of its `"..."` literals dropped (escapes honoured).
fn without_string_literals(text: &str) -> String {
    let (mut out, mut quoted, mut escaped) = (String::new(), false, false);
    for c in text.chars() {
        match (quoted, escaped, c) {
            (true, false, '\\') => escaped = true,
            (true, true, _) => escaped = false,
            (_, _, '"') => quoted = !quoted,
            (false, ..) => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn string_literals_are_left_out_of_the_noise_check() {
    assert_eq!(without_string_literals(r#"a "b \" << 0)" c"#), "a  c");
}
