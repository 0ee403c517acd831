//! The CMSIS-SVD files (`generated/svd/`): every register file of the model, on every
//! architecture it exists on, has one; svd-parser reads it with strict validation; and it
//! agrees with the model register for register and field for field (offsets, access,
//! resets, bit ranges, arrays, enumerated values, provenance in the descriptions).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dmaspec_codegen::Model;
use dmaspec_codegen::model::TypeKind;
use dmaspec_codegen::model::registers::{Access, RegFileView, RegisterView, width_mask};
use svd_parser::svd::{self, Device, MaybeArray, RegisterCluster};
use svd_parser::{Config, ValidateLevel};

/// `svd/<file, lower case>_<arch>.svd`, the name the README promises.
fn svd_path(file: &str, arch: &str) -> String {
    format!("svd/{}_{arch}.svd", file.to_ascii_lowercase())
}

fn parse(xml: &str) -> Result<Device, String> {
    let config = Config::default().validate_level(ValidateLevel::Strict);
    svd_parser::parse_with_config(xml, &config).map_err(|e| format!("{e:#}"))
}

fn svd_access(a: Access) -> svd::Access {
    match a {
        Access::RW => svd::Access::ReadWrite,
        Access::RO => svd::Access::ReadOnly,
        Access::WO => svd::Access::WriteOnly,
    }
}

/// The reset SVD can state: the register's when the sources give it, else its fields'.
fn expected_reset(r: &RegisterView) -> (u64, u64) {
    let all = width_mask(r.register.width);
    if let Some(v) = r.register.reset {
        return (v, all);
    }
    let (mut value, mut mask) = (0, 0);
    for f in &r.fields {
        if let Some(x) = f.reset {
            value |= x << f.lsb;
            mask |= width_mask(f.width) << f.lsb;
        }
    }
    (value, mask)
}

/// Collects what differs instead of stopping at the first difference.
struct Diffs<'a> {
    at: &'a str,
    list: Vec<String>,
}

impl Diffs<'_> {
    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, found: T, want: T) {
        if found != want {
            (self.list).push(format!(
                "{}: {what}: SVD has {found:?}, the model {want:?}",
                self.at
            ));
        }
    }
    fn has(&mut self, what: &str, text: Option<&str>, part: &str) {
        if !text.unwrap_or("").contains(part) {
            (self.list).push(format!(
                "{}: {what}'s description lacks `{part}`: {text:?}",
                self.at
            ));
        }
    }
}

/// `[TAG` and every citation: what a description must carry of the item's provenance.
fn provenance_parts(
    confidence: &dmaspec_codegen::model::Confidence,
    evidence: &[dmaspec_codegen::model::Evidence],
) -> Vec<String> {
    let mut parts = vec![format!("[{}", confidence.tag)];
    parts.extend(evidence.iter().map(|e| e.cite.clone()));
    parts
}

/// Every way `xml` (the SVD of `view`) disagrees with the model; empty when it agrees.
fn compare(model: &Model, view: &RegFileView, xml: &str) -> Vec<String> {
    let file = view.file;
    let at = format!("{} on {}", file.name, view.arch);
    let device = match parse(xml) {
        Ok(d) => d,
        Err(e) => return vec![format!("{at}: svd-parser rejects it: {e}")],
    };
    let mut d = Diffs {
        at: &at,
        list: Vec::new(),
    };
    d.eq("schemaVersion", device.schema_version.as_str(), "1.3");
    d.eq(
        "device name",
        device.name.clone(),
        format!("{}_{}", file.name, view.arch),
    );
    d.eq("addressUnitBits", device.address_unit_bits, 8);
    d.eq("width", device.width, file.bus_width);
    for p in provenance_parts(&file.confidence, &file.evidence) {
        d.has("the device", Some(&device.description), &p);
    }
    d.eq("peripheral count", device.peripherals.len(), 1);
    let Some(MaybeArray::Single(p)) = device.peripherals.first() else {
        d.list.push(format!("{at}: no single peripheral"));
        return d.list;
    };
    d.eq("peripheral name", p.name.as_str(), file.name.as_str());
    d.eq("baseAddress", p.base_address, 0);
    let blocks: Vec<(u32, u64)> = (p.address_block.iter().flatten())
        .map(|b| (b.offset, u64::from(b.size)))
        .collect();
    d.eq("addressBlock", blocks, vec![(0, file.size)]);

    let bundles: Vec<_> = view
        .bundles
        .iter()
        .filter(|b| !b.registers.is_empty())
        .collect();
    for b in view.bundles.iter().filter(|b| b.registers.is_empty()) {
        d.has("the peripheral", p.description.as_deref(), &b.bundle.name);
    }
    let children: Vec<&RegisterCluster> = p.registers.iter().flatten().collect();
    d.eq("cluster count", children.len(), bundles.len());
    for (child, b) in children.iter().zip(&bundles) {
        let bd = b.bundle;
        let name = if bd.count > 1 {
            format!("{}[%s]", bd.name)
        } else {
            bd.name.clone()
        };
        let want_dim = (bd.count > 1).then_some((bd.count as u32, bd.stride as u32));
        // A bundle of one register named like it is that register's array (svd2rust would
        // name a cluster of one like its register).
        if dmaspec_codegen::emit::svd::is_register_array(b) {
            let what = format!("{}.{}", bd.name, b.registers[0].register.name);
            let (x, dim) = match child {
                RegisterCluster::Register(MaybeArray::Single(x)) => (x, None),
                RegisterCluster::Register(MaybeArray::Array(x, dim)) => {
                    (x, Some((dim.dim, dim.dim_increment)))
                }
                RegisterCluster::Cluster(_) => {
                    d.list
                        .push(format!("{at}: {what} is a cluster, not a register array"));
                    continue;
                }
            };
            d.eq(&format!("{what} name"), x.name.as_str(), name.as_str());
            d.eq(&format!("{} dim/dimIncrement", bd.name), dim, want_dim);
            for part in provenance_parts(&bd.confidence, &bd.evidence) {
                d.has(&bd.name, x.description.as_deref(), &part);
            }
            register(&mut d, model, view, &what, x, &b.registers[0], bd.offset);
            continue;
        }
        let RegisterCluster::Cluster(c) = child else {
            d.list
                .push(format!("{at}: bundle {} is not a cluster", bd.name));
            continue;
        };
        let (info, dim) = match c {
            MaybeArray::Single(i) => (i, None),
            MaybeArray::Array(i, dim) => (i, Some((dim.dim, dim.dim_increment))),
        };
        d.eq("cluster name", &info.name, &name);
        d.eq(&format!("{} dim/dimIncrement", bd.name), dim, want_dim);
        d.eq(
            &format!("{} addressOffset", bd.name),
            u64::from(info.address_offset),
            bd.offset,
        );
        for part in provenance_parts(&bd.confidence, &bd.evidence) {
            d.has(&bd.name, info.description.as_deref(), &part);
        }
        let regs: Vec<_> = info.children.iter().collect();
        d.eq(
            &format!("{} register count", bd.name),
            regs.len(),
            b.registers.len(),
        );
        for (child, r) in regs.iter().zip(&b.registers) {
            let what = format!("{}.{}", bd.name, r.register.name);
            let RegisterCluster::Register(MaybeArray::Single(x)) = child else {
                d.list
                    .push(format!("{at}: {what} is not a single register"));
                continue;
            };
            d.eq(
                &format!("{what} name"),
                x.name.as_str(),
                r.register.name.as_str(),
            );
            register(&mut d, model, view, &what, x, r, 0);
        }
    }
    d.list
}

/// One register's checks: its offset (from `base`, the cluster's or the file's), size,
/// access, reset, provenance, and every field.
fn register(
    d: &mut Diffs,
    model: &Model,
    view: &RegFileView,
    what: &str,
    x: &svd::RegisterInfo,
    r: &RegisterView,
    base: u64,
) {
    let at = d.at;
    let reg = r.register;
    d.eq(
        &format!("{what} addressOffset"),
        u64::from(x.address_offset),
        base + reg.offset,
    );
    d.eq(&format!("{what} size"), x.properties.size, Some(reg.width));
    d.eq(
        &format!("{what} access"),
        x.properties.access,
        Some(svd_access(reg.access)),
    );
    let (value, mask) = expected_reset(r);
    d.eq(
        &format!("{what} resetValue"),
        x.properties.reset_value,
        Some(value),
    );
    d.eq(
        &format!("{what} resetMask"),
        x.properties.reset_mask,
        Some(mask),
    );
    if reg.reset.is_none() {
        d.has(what, x.description.as_deref(), "not given");
    }
    for part in provenance_parts(&reg.confidence, &reg.evidence) {
        d.has(what, x.description.as_deref(), &part);
    }
    let fields: Vec<_> = x.fields.iter().flatten().collect();
    d.eq(&format!("{what} field count"), fields.len(), r.fields.len());
    for (y, f) in fields.iter().zip(&r.fields) {
        let what = format!("{what}.{}", f.name);
        let MaybeArray::Single(y) = y else {
            d.list.push(format!("{at}: {what} is a field array"));
            continue;
        };
        d.eq(&format!("{what} name"), y.name.as_str(), f.name.as_str());
        d.eq(
            &format!("{what} bits (lsb, width)"),
            (y.bit_range.offset, y.bit_range.width),
            (f.lsb, f.width),
        );
        d.eq(
            &format!("{what} bitRange form"),
            y.bit_range.range_type,
            svd::BitRangeType::BitRange,
        );
        d.eq(
            &format!("{what} access"),
            y.access,
            Some(svd_access(f.access)),
        );
        for part in provenance_parts(&f.confidence, &f.evidence) {
            d.has(&what, y.description.as_deref(), &part);
        }
        if let Some(v) = f.reset {
            d.has(&what, y.description.as_deref(), &format!("Reset: {v:#x}"));
        }
        for a in &f.alternatives {
            d.has(&what, y.description.as_deref(), &a.name);
        }
        let want: Vec<(String, u64)> = match f.enum_type.as_ref().map(|e| {
            let t = model.types.iter().find(|t| &t.name == e).unwrap();
            (t, &t.kind)
        }) {
            Some((t, TypeKind::Enum { values, .. })) => {
                d.has(&what, y.description.as_deref(), &t.name);
                (values.iter())
                    .filter(|e| e.arch.is_empty() || e.arch.iter().any(|a| a == view.arch))
                    .map(|e| (e.name.clone(), e.value))
                    .collect()
            }
            _ => Vec::new(),
        };
        let found: Vec<(String, u64)> = (y.enumerated_values.iter())
            .flat_map(|ev| &ev.values)
            .map(|e| (e.name.clone(), e.value.unwrap_or(u64::MAX)))
            .collect();
        d.eq(&format!("{what} enumerated values"), found, want.clone());
        let names: Vec<_> = y.enumerated_values.iter().map(|e| e.name.clone()).collect();
        let want_names = match (&f.enum_type, want.is_empty()) {
            (Some(e), false) => vec![Some(e.clone())],
            _ => Vec::new(),
        };
        d.eq(&format!("{what} enumeratedValues name"), names, want_names);
    }
}

/// Every SVD file the model generates, with the view it is of.
fn expected(model: &Model) -> Vec<(String, RegFileView<'_>)> {
    (model.regfiles.iter())
        .flat_map(|f| f.views().map(|v| (svd_path(&f.name, v.arch), v)))
        .collect()
}

/// The address maps' devices, `svd/soc_<arch>.svd`.
fn soc_paths(model: &Model) -> Vec<String> {
    (model.addrmaps.iter())
        .map(|m| format!("svd/soc_{}.svd", m.arch))
        .collect()
}

#[test]
fn generated_svd_files_match_the_spec() {
    let model = dmaspec_codegen::load::load_dir(Path::new("spec")).unwrap_or_else(|e| {
        panic!("{}", e.render());
    });
    let generated = Path::new("generated");
    let mut problems = Vec::new();
    let want = expected(&model);
    for (path, view) in &want {
        match std::fs::read_to_string(generated.join(path)) {
            Ok(xml) => problems.extend(compare(&model, view, &xml)),
            Err(e) => problems.push(format!("generated/{path}: {e} (run `dmaspec gen`)")),
        }
    }
    let socs = soc_paths(&model);
    let names: BTreeSet<&str> = (want.iter().map(|(p, _)| p.as_str()))
        .chain(socs.iter().map(String::as_str))
        .collect();
    if let Ok(dir) = std::fs::read_dir(generated.join("svd")) {
        for entry in dir {
            let name = format!("svd/{}", entry.unwrap().file_name().to_string_lossy());
            if !names.contains(name.as_str()) {
                problems.push(format!(
                    "generated/{name}: no register file of the spec generates it (run `dmaspec gen`)"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The address map's device: one peripheral per register file part of every instance, at
/// its absolute base; the lowest instance of each register file carries the same register
/// tree as that file's own device and every other is derived from it.
#[test]
fn the_soc_device_places_every_instance_at_its_absolute_base() {
    let model = dmaspec_codegen::load::load_dir(Path::new("spec")).unwrap_or_else(|e| {
        panic!("{}", e.render());
    });
    let map = model
        .addrmaps
        .iter()
        .find(|m| m.arch == "cayman")
        .expect("cayman's map");
    let text = |p: &str| std::fs::read_to_string(Path::new("generated").join(p)).unwrap();
    let soc = parse(&text("svd/soc_cayman.svd")).unwrap_or_else(|e| panic!("{e}"));
    let by_name: std::collections::BTreeMap<&str, &svd::Peripheral> = soc
        .peripherals
        .iter()
        .map(|p| (p.name.as_str(), p))
        .collect();
    let mut want = 0;
    for inst in map.instances() {
        for part in inst.slot.parts.iter().filter(|p| p.regfile.is_some()) {
            want += 1;
            let name = format!("{}_{}", inst.name, part.name);
            let p = by_name
                .get(name.as_str())
                .unwrap_or_else(|| panic!("no {name}"));
            assert_eq!(p.base_address, inst.base + part.offset, "{name}");
            assert_eq!(p.group_name.as_deref(), part.regfile.as_deref(), "{name}");
            let origin = p.derived_from.as_deref().map_or(*p, |o| by_name[o]);
            assert_eq!(
                origin.group_name, p.group_name,
                "{name} derives from {}",
                origin.name
            );
            assert!(
                origin.derived_from.is_none() && origin.registers.is_some(),
                "{name}"
            );
        }
    }
    assert_eq!(soc.peripherals.len(), want);
    // "SDMA Address Windows + APB Chain" §4's worked example 0x1002506038 is M2S_Q[5]
    // (0x1000 + 5*0x1000) TDRTP_inc (0x38) of APB_SE_0_SDMA_5's UDMA_M2S (slot +0x0).
    assert_eq!(
        by_name["APB_SE_0_SDMA_5_UDMA_M2S"].base_address,
        0x10_0250_0000
    );
    // §2: APB_SE_3's SDMA_0 at 0x805004000000, channel 31 at + 31 MiB, UDMA_S2M at +0x20000.
    assert_eq!(
        by_name["APB_SE_3_SDMA_31_UDMA_S2M"].base_address,
        0x8050_05F2_0000
    );
    // The register tree is the file's own device's.
    for p in soc.peripherals.iter().filter(|p| p.derived_from.is_none()) {
        let file = p.group_name.as_deref().unwrap();
        let own = parse(&text(&svd_path(file, "cayman"))).unwrap();
        assert_eq!(p.registers, own.peripherals[0].registers, "{}", p.name);
    }
}

/// A register file written for this test, beside the real spec: an array bundle, a
/// register only one generation has, an enum whose enumerators differ by generation,
/// resets given, given only for some fields and not given, and markup in the text.
const TEST_FILE: &str = r#"
[[regfile]]
name = "SVD_TEST"
doc = "Test file <with> markup & \"quotes\" -- and a dash pair."
size = 0x1000
bus_width = 32
arch = ["sunda", "cayman"]
confidence = "HIGH/OBSERVED"
evidence = [ { source = "seed-004 §5.1" } ]
counts = [ { what = "queues", value = 4, source = "seed-004 §10" } ]

[[regfile.bundle]]
name = "Q"
offset = 0x100
size = 0x20
count = 4
stride = 0x40
doc = "Per-queue registers."
evidence = [ { source = "seed-004 §10" } ]

[[regfile.bundle.register]]
name = "cfg"
offset = 0x0
access = "RW"
doc = "Configuration; no whole-register reset."
evidence = [ { source = "seed-004 §10" } ]
[[regfile.bundle.register.field]]
name = "op"
bits = "2:0"
enum = "DGE_OPCODE"
reset = 0x1
doc = "The descriptor kind."
[[regfile.bundle.register.field]]
name = "enable"
bits = "31"
doc = "Enable; reset not given."

[[regfile.bundle.register]]
name = "status"
offset = 0x4
access = "RO"
reset = 0x80000000
doc = "Status."
evidence = [ { source = "seed-004 §10" } ]
[[regfile.bundle.register.field]]
name = "busy"
bits = "31"
reset = 0x1

[[regfile.bundle.register]]
name = "kick"
offset = 0x8
access = "WO"
arch = ["cayman"]
doc = "Cayman only; no fields, no reset."
evidence = [ { source = "seed-004 §10" } ]

[[regfile.bundle]]
name = "global"
offset = 0x0
size = 0x10
doc = "One block."
evidence = [ { source = "seed-004 §10" } ]

[[regfile.bundle.register]]
name = "id"
offset = 0x0
access = "RO"
reset = 0x1234
doc = "Identification."
evidence = [ { source = "seed-004 §10" } ]
[[regfile.bundle.register.field]]
name = "id"
bits = "15:0"
"#;

fn test_model() -> Model {
    let spec = Path::new("spec");
    let extra = spec.join("registers/zz_svd_test.toml");
    let mut files: Vec<(PathBuf, String)> = (dmaspec_codegen::spec_files(spec).into_iter())
        .filter(|p| *p != extra)
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect();
    files.push((extra, TEST_FILE.to_string()));
    dmaspec_codegen::load::load_files(spec, files).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The SVD files `generate` makes from `model`, by path.
fn generated(model: &Model) -> Vec<(String, String)> {
    (dmaspec_codegen::generate(model).into_iter())
        .filter(|a| a.path.starts_with("svd/"))
        .map(|a| (a.path, a.contents))
        .collect()
}

#[test]
fn a_register_file_round_trips_through_svd() {
    let model = test_model();
    let files = generated(&model);
    let want = expected(&model);
    let mut paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    let socs = soc_paths(&model);
    let mut want_paths: Vec<&str> = (want.iter().map(|(p, _)| p.as_str()))
        .chain(socs.iter().map(String::as_str))
        .collect();
    paths.sort();
    want_paths.sort();
    assert_eq!(paths, want_paths);
    assert!(
        paths.contains(&"svd/svd_test_sunda.svd") && paths.contains(&"svd/svd_test_cayman.svd")
    );
    for (path, view) in &want {
        let xml = &files.iter().find(|(p, _)| p == path).unwrap().1;
        let problems = compare(&model, view, xml);
        assert!(problems.is_empty(), "{path}:\n{}", problems.join("\n"));
    }
    // What the comparison relies on, checked directly on the parsed files.
    let text = |p: &str| files.iter().find(|(q, _)| q == p).unwrap().1.clone();
    let sunda = parse(&text("svd/svd_test_sunda.svd")).unwrap();
    let cayman = parse(&text("svd/svd_test_cayman.svd")).unwrap();
    let q = |d: &Device| -> svd::Cluster {
        let MaybeArray::Single(p) = &d.peripherals[0] else {
            panic!()
        };
        match &p.registers.as_ref().unwrap()[0] {
            RegisterCluster::Cluster(c) => c.clone(),
            _ => panic!(),
        }
    };
    let MaybeArray::Array(info, dim) = q(&sunda) else {
        panic!("Q is an array")
    };
    assert_eq!(
        (info.name.as_str(), dim.dim, dim.dim_increment),
        ("Q[%s]", 4, 0x40)
    );
    assert_eq!(info.children.len(), 2, "kick is cayman's only");
    assert_eq!(q(&cayman).children.len(), 3);
    let RegisterCluster::Register(MaybeArray::Single(cfg)) = &info.children[0] else {
        panic!()
    };
    assert_eq!(
        (cfg.properties.reset_value, cfg.properties.reset_mask),
        (Some(1), Some(7)),
        "the op field's reset alone"
    );
    let op = &cfg.fields.as_ref().unwrap()[0];
    assert_eq!(
        op.enumerated_values[0].values.len(),
        2,
        "sunda has two DGE_OPCODEs"
    );
    assert!(sunda.description.contains("<with> markup & \"quotes\""));
    assert!(sunda.description.contains("[HIGH/OBSERVED; seed-004 §5.1]"));
}

#[test]
fn a_disagreeing_or_broken_svd_is_caught() {
    let model = test_model();
    let files = generated(&model);
    let want = expected(&model);
    let (path, view) = want
        .iter()
        .find(|(p, _)| p == "svd/svd_test_cayman.svd")
        .unwrap();
    let xml = &files.iter().find(|(p, _)| p == path).unwrap().1;
    let edits = [
        (
            "<dimIncrement>0x40</dimIncrement>",
            "<dimIncrement>0x20</dimIncrement>",
            "dim",
        ),
        (
            "<bitRange>[2:0]</bitRange>",
            "<bitRange>[3:1]</bitRange>",
            "bits",
        ),
        (
            "<access>write-only</access>",
            "<access>read-write</access>",
            "access",
        ),
        (
            "<resetValue>0x00001234</resetValue>",
            "<resetValue>0x00001235</resetValue>",
            "resetValue",
        ),
        ("<value>0x3</value>", "<value>0x4</value>", "enumerated"),
        (
            "<addressOffset>0x4</addressOffset>",
            "<addressOffset>0xc</addressOffset>",
            "addressOffset",
        ),
        ("[HIGH/OBSERVED; seed-004 §5.1]", "", "description"),
        ("</enumeratedValue>", "", "rejects"),
    ];
    for (from, to, expect) in edits {
        assert!(xml.contains(from), "{from}");
        let problems = compare(&model, view, &xml.replacen(from, to, 1));
        assert!(
            problems.iter().any(|p| p.contains(expect)),
            "{from} -> {to}: {problems:?}"
        );
    }
}
