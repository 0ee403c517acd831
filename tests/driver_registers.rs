//! The spec held to the GPL kernel driver's register facts (aws-neuron-driver, the commit
//! spec/sources.toml pins). scripts/driver_registers.py reads the driver and writes the facts
//! to tests/driver/udma_regs.json: every named `u32` of the four UDMA structs of
//! `udma/udma_regs.h` at gcc's `offsetof`, the header's field defines, the queue resets of
//! `udma/udma_main.c` and the NOTIFIC queue registers of `v2/notific.h` / `v3/notific.h`.
//! This test reads them against generated/dmaspec.json (kept current by `gen --check`), so CI
//! needs neither the driver nor gcc.
//!
//! Each fact is exact (the spec holds it at the driver's offset and bits, under the driver's
//! name or an alias: an `aws-neuron-driver` evidence `name`), recorded (it differs or is absent,
//! and a conflict or a field alternative says so), changed (it differs, unrecorded) or missing
//! (absent, unrecorded). The test fails on any changed or missing fact and prints the tally:
//! `cargo test --test driver_registers -- --nocapture`. The driver is v2 (sunda) and v3
//! (cayman); the spec's cayman layout is the one compared.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

const ARCH: &str = "cayman";

fn load(path: &str) -> Value {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("no string {key} in {v}"))
}

fn u64_of(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no number {key} in {v}"))
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v[key].as_array().map_or(&[], Vec::as_slice)
}

fn on_arch(v: &Value) -> bool {
    list(v, "archs").iter().any(|a| a == ARCH)
}

/// The names a spec element answers to: its own, and the last path component of each name the
/// driver's evidence gives it (`vmpr_v4[16].rx_sel[0]` → `rx_sel[0]`), lower case.
fn names(v: &Value) -> Vec<String> {
    let aliases = list(v, "evidence")
        .iter()
        .filter(|e| e["source"] == "aws-neuron-driver")
        .filter_map(|e| e["name"].as_str())
        .map(|n| n.rsplit('.').next().unwrap_or(n));
    std::iter::once(str_of(v, "name"))
        .chain(aliases)
        .map(str::to_lowercase)
        .collect()
}

/// One register of the spec on [`ARCH`], at its offset from the register file's base.
struct SpecReg<'a> {
    path: String,
    offset: u64,
    count: u64,
    stride: u64,
    names: Vec<String>,
    reg: &'a Value,
}

struct Spec<'a> {
    regs: BTreeMap<&'a str, Vec<SpecReg<'a>>>,
    conflicts: &'a [Value],
}

impl<'a> Spec<'a> {
    fn new(json: &'a Value) -> Self {
        let mut regs: BTreeMap<&str, Vec<SpecReg>> = BTreeMap::new();
        for file in list(json, "regfiles") {
            let out = regs.entry(str_of(file, "name")).or_default();
            for bundle in list(file, "bundles").iter().filter(|b| on_arch(b)) {
                for reg in list(bundle, "registers").iter().filter(|r| on_arch(r)) {
                    out.push(SpecReg {
                        path: format!(
                            "{}.{}.{}",
                            str_of(file, "name"),
                            str_of(bundle, "name"),
                            str_of(reg, "name")
                        ),
                        offset: u64_of(bundle, "offset") + u64_of(reg, "offset"),
                        count: u64_of(bundle, "count"),
                        stride: bundle["stride"].as_u64().unwrap_or(0),
                        names: names(reg),
                        reg,
                    });
                }
            }
        }
        Spec {
            regs,
            conflicts: list(json, "conflicts"),
        }
    }

    fn file(&self, name: &str) -> &[SpecReg<'a>] {
        self.regs.get(name).map_or(&[], Vec::as_slice)
    }

    /// The conflict whose `about` names one of `paths` (a spec element) or an element
    /// inside it.
    fn conflict(&self, paths: &[&str]) -> Option<String> {
        let speaks_of = |a: &str| {
            paths
                .iter()
                .any(|p| a == *p || a.starts_with(&format!("{p}.")))
        };
        (self.conflicts.iter())
            .find(|c| {
                list(c, "about")
                    .iter()
                    .filter_map(Value::as_str)
                    .any(speaks_of)
            })
            .map(|c| format!("conflict {}", str_of(c, "name")))
    }
}

enum Verdict {
    Exact,
    Recorded(String),
    Changed(String),
    Missing,
}

impl Verdict {
    fn column(&self) -> usize {
        match self {
            Verdict::Exact => 0,
            Verdict::Recorded(_) => 1,
            Verdict::Changed(_) => 2,
            Verdict::Missing => 3,
        }
    }
}

/// A difference a conflict speaks of is recorded, with what differs.
fn recorded(verdict: Verdict, conflict: Option<String>) -> Verdict {
    match (verdict, conflict) {
        (Verdict::Changed(what), Some(c)) => Verdict::Recorded(format!("{c}; {what}")),
        (Verdict::Missing, Some(c)) => Verdict::Recorded(format!("{c}; not in the spec")),
        (verdict, _) => verdict,
    }
}

/// Per header: checked, exact, recorded, changed, missing; and the lines that explain.
#[derive(Default)]
struct Tally {
    rows: BTreeMap<String, [usize; 4]>,
    notes: Vec<String>,
    /// (header, `changed|missing FILE path`, the line that explains).
    failures: Vec<(String, String, String)>,
}

impl Tally {
    fn add(&mut self, header: &str, what: &str, cite: &str, verdict: Verdict) {
        self.rows.entry(header.to_string()).or_default()[verdict.column()] += 1;
        match verdict {
            Verdict::Exact => {}
            Verdict::Recorded(why) => self.notes.push(format!("recorded  {what} ({cite}): {why}")),
            Verdict::Changed(why) => self.fail(header, "changed", what, format!("({cite}): {why}")),
            Verdict::Missing => self.fail(
                header,
                "missing",
                what,
                format!("({cite}): not in the spec"),
            ),
        }
    }

    fn fail(&mut self, header: &str, how: &str, what: &str, why: String) {
        let key = format!("{how} {what}");
        let line = format!("{key} {why}");
        self.failures.push((header.to_string(), key, line));
    }

    fn table(&self) -> String {
        let mut out = format!(
            "{:<34} {:>7} {:>5} {:>8} {:>7} {:>7}\n",
            "driver header (facts)", "checked", "exact", "recorded", "changed", "missing"
        );
        for (header, [exact, recorded, changed, missing]) in &self.rows {
            let checked = exact + recorded + changed + missing;
            let _ = writeln!(
                out,
                "{header:<34} {checked:>7} {exact:>5} {recorded:>8} {changed:>7} {missing:>7}"
            );
        }
        for line in self.notes.iter().chain(self.failures.iter().map(|f| &f.2)) {
            let _ = writeln!(out, "  {line}");
        }
        out
    }
}

/// A driver register's array count and stride, where the driver gives them.
type Geometry = (Option<u64>, Option<u64>);

/// The geometry of a struct member: its (outermost) enclosing array, or a single register.
fn geometry(arrays: &[Value]) -> Geometry {
    arrays.first().map_or((Some(1), None), |a| {
        (Some(u64_of(a, "count")), Some(u64_of(a, "stride")))
    })
}

/// The spec register holding the driver's register `name` at `offset` in `file`, as a
/// verdict (with the matched register when exact).
fn find_register<'s, 'a>(
    spec: &'s Spec<'a>,
    file: &str,
    name: &str,
    offset: Option<u64>,
    geometry: Geometry,
) -> (Verdict, Option<&'s SpecReg<'a>>) {
    let regs = spec.file(file);
    let leaf = name.to_lowercase();
    let named: Vec<&SpecReg> = regs.iter().filter(|r| r.names.contains(&leaf)).collect();
    let fits = |r: &SpecReg| {
        offset.is_none_or(|o| o == r.offset)
            && geometry.0.is_none_or(|c| c == r.count)
            && geometry.1.is_none_or(|s| s == r.stride)
    };
    if let Some(hit) = named.iter().find(|r| fits(r)) {
        return (Verdict::Exact, Some(hit));
    }
    let at: Vec<&SpecReg> = regs.iter().filter(|r| offset == Some(r.offset)).collect();
    let same_place = named.iter().find(|r| offset == Some(r.offset));
    let mut paths: Vec<&str> = named.iter().chain(&at).map(|r| r.path.as_str()).collect();
    paths.dedup();
    let verdict = if let Some(r) = same_place.or(named.first()) {
        Verdict::Changed(format!(
            "the spec's {} is at {:#x} ×{} stride {:#x}; the driver's at {} ×{} stride {}",
            r.path,
            r.offset,
            r.count,
            r.stride,
            offset.map_or("(no offset)".into(), |o| format!("{o:#x}")),
            geometry.0.map_or("-".into(), |c| c.to_string()),
            geometry.1.map_or("-".into(), |s| format!("{s:#x}")),
        ))
    } else if let Some(r) = at.first() {
        Verdict::Changed(format!(
            "the spec holds {} there, with no driver alias {name}",
            r.path
        ))
    } else {
        Verdict::Missing
    };
    (recorded(verdict, spec.conflict(&paths)), None)
}

fn field_verdict(spec: &Spec, reg: &SpecReg, name: &str, lsb: u64, width: Option<u64>) -> Verdict {
    let fields: Vec<&Value> = list(reg.reg, "fields")
        .iter()
        .filter(|f| on_arch(f))
        .collect();
    let named = fields.iter().find(|f| names(f).contains(&name.to_string()));
    let bits = |f: &Value| u64_of(f, "lsb") == lsb && width.is_none_or(|w| w == u64_of(f, "width"));
    let verdict = match named {
        Some(f) if bits(f) => return Verdict::Exact,
        Some(f) if !list(f, "alternatives").is_empty() => {
            return Verdict::Recorded(format!(
                "{}.{} has alternatives",
                reg.path,
                str_of(f, "name")
            ));
        }
        Some(f) => Verdict::Changed(format!(
            "the spec's {}.{} is [{}+:{}]",
            reg.path,
            str_of(f, "name"),
            u64_of(f, "lsb"),
            u64_of(f, "width")
        )),
        None => match fields.iter().find(|f| u64_of(f, "lsb") == lsb) {
            Some(f) => Verdict::Changed(format!(
                "the spec names bit {lsb} of {} {} (no driver alias)",
                reg.path,
                str_of(f, "name")
            )),
            None => Verdict::Missing,
        },
    };
    recorded(verdict, spec.conflict(&[reg.path.as_str()]))
}

/// The reset word the driver caches against the spec's: the register's whole reset, or each
/// field reset the spec gives.
fn reset_verdict(spec: &Spec, reg: &SpecReg, value: u64) -> Verdict {
    let verdict = if let Some(reset) = reg.reg["reset"].as_u64() {
        if reset == value {
            return Verdict::Exact;
        }
        Verdict::Changed(format!(
            "the spec's {} resets to {reset:#x}, the driver {value:#x}",
            reg.path
        ))
    } else {
        let known: Vec<(&str, u64, u64)> = list(reg.reg, "fields")
            .iter()
            .filter(|f| on_arch(f))
            .filter_map(|f| {
                let (lsb, width) = (u64_of(f, "lsb"), u64_of(f, "width"));
                let driver = (value >> lsb) & ((1u64 << width) - 1);
                f["reset"].as_u64().map(|r| (str_of(f, "name"), r, driver))
            })
            .collect();
        let wrong: Vec<String> = (known.iter())
            .filter(|(_, spec, driver)| spec != driver)
            .map(|(n, spec, driver)| format!("{n} {spec:#x} (driver {driver:#x})"))
            .collect();
        match (known.is_empty(), wrong.is_empty()) {
            (true, _) => Verdict::Changed(format!(
                "{} has no reset to compare with {value:#x}",
                reg.path
            )),
            (false, true) => return Verdict::Exact,
            (false, false) => Verdict::Changed(format!("{}: {}", reg.path, wrong.join(", "))),
        }
    };
    recorded(verdict, spec.conflict(&[reg.path.as_str()]))
}

fn tally() -> Tally {
    let (json, facts) = (
        load("generated/dmaspec.json"),
        load("tests/driver/udma_regs.json"),
    );
    let spec = Spec::new(&json);
    let mut tally = Tally::default();
    let pinned = list(&json, "sources")
        .iter()
        .find(|s| s["id"] == "aws-neuron-driver")
        .map(|s| str_of(s, "file").to_string());
    assert_eq!(
        pinned,
        Some(format!(
            "github:aws-neuron/aws-neuron-driver@{}",
            str_of(&facts, "commit")
        )),
        "tests/driver/udma_regs.json is of another driver commit than spec/sources.toml pins"
    );
    let mut placed: BTreeMap<(&str, &str), Option<&SpecReg>> = BTreeMap::new();
    for r in list(&facts, "registers") {
        let (file, path) = (str_of(r, "file"), str_of(r, "path"));
        let (verdict, hit) = find_register(
            &spec,
            file,
            str_of(r, "name"),
            Some(u64_of(r, "offset")),
            geometry(list(r, "arrays")),
        );
        placed.insert((file, path), hit);
        tally.add(
            "udma/udma_regs.h registers",
            &format!("{file} {path}"),
            str_of(r, "cite"),
            verdict,
        );
    }
    for f in list(&facts, "fields") {
        let (define, cite) = (str_of(f, "define"), str_of(f, "cite"));
        let (Some(file), Some(path)) = (f["file"].as_str(), f["register"].as_str()) else {
            tally.notes.push(format!(
                "unplaced  {define} ({cite}): the header names no register for it"
            ));
            continue;
        };
        let name = str_of(f, "name");
        // A register the structs leave as padding is looked up by name alone.
        let reg = placed.get(&(file, path)).copied().unwrap_or_else(|| {
            let leaf = path.rsplit('.').next().unwrap_or(path);
            find_register(&spec, file, leaf, None, (None, None)).1
        });
        let verdict = match reg {
            Some(reg) => field_verdict(&spec, reg, name, u64_of(f, "lsb"), f["width"].as_u64()),
            None => Verdict::Missing,
        };
        let cite = format!("{define}, {cite}");
        tally.add(
            "udma/udma_regs.h fields",
            &format!("{file} {path}.{name}"),
            &cite,
            verdict,
        );
    }
    for r in list(&facts, "resets") {
        let (file, path, define) = (
            str_of(r, "file"),
            str_of(r, "register"),
            str_of(r, "define"),
        );
        let verdict = match placed.get(&(file, path)).copied().flatten() {
            Some(reg) => reset_verdict(&spec, reg, u64_of(r, "value")),
            None => Verdict::Missing,
        };
        tally.add(
            "udma/udma_main.c resets",
            &format!("{file} {path} = {define}"),
            str_of(r, "cite"),
            verdict,
        );
    }
    for r in list(&facts, "notific") {
        // notific.h gives the queue stride, not the count. The block the driver programs is
        // each SDMA channel's MISC_NOTIFIC, NOTIFIC_10_QUEUE; NOTIFIC_1_QUEUE's instances
        // are the FIS error-trigger sinks, which the driver does not touch.
        let geometry = (None, Some(u64_of(r, "stride")));
        let file = "NOTIFIC_10_QUEUE";
        let (verdict, _) = find_register(
            &spec,
            file,
            str_of(r, "name"),
            Some(u64_of(r, "offset")),
            geometry,
        );
        let what = format!(
            "{file} notific_nq[].{} per {}",
            str_of(r, "name"),
            str_of(r, "header")
        );
        tally.add(str_of(r, "header"), &what, str_of(r, "cite"), verdict);
    }
    tally
}

/// The driver facts the spec does not hold yet, each routed to a spec change: one
/// `changed|missing FILE path` per line. A missing register may not be among them.
const OPEN: &str = include_str!("driver/open.txt");

#[test]
fn the_spec_holds_every_driver_register_or_records_why_not() {
    let tally = tally();
    println!("{}", tally.table());
    let missing: Vec<&str> = (tally.failures.iter())
        .filter(|f| f.0.ends_with("registers") && f.1.starts_with("missing"))
        .map(|f| f.2.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "driver registers absent from the spec, with no conflict recorded:\n{}",
        missing.join("\n")
    );
    let open: Vec<&str> = (OPEN.lines())
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let new: Vec<&str> = (tally.failures.iter())
        .filter(|f| !open.contains(&f.1.as_str()))
        .map(|f| f.2.as_str())
        .collect();
    let closed: Vec<&&str> = (open.iter())
        .filter(|o| !tally.failures.iter().any(|f| f.1 == **o))
        .collect();
    assert!(
        new.is_empty() && closed.is_empty(),
        "tests/driver/open.txt is out of date.\nNew differences (hold them in the spec or record a conflict):\n{}\nNo longer open (delete the line):\n{closed:?}",
        new.join("\n")
    );
}

/// The matcher itself, on the ring base (udma/udma_regs.h:101, `m2s_q[16]` at 0x1000 stride
/// 0x1000, tdrbp_low at +0x28; no conflict speaks of it): in place it is exact; moved by a
/// word, or in a bank of another count, it is a difference.
#[test]
fn the_ring_base_matches_only_in_place() {
    let json = load("generated/dmaspec.json");
    let spec = Spec::new(&json);
    let bank = (Some(16), Some(0x1000));
    let verdict =
        |offset, geometry| find_register(&spec, "UDMA_M2S", "tdrbp_low", Some(offset), geometry).0;
    assert!(matches!(verdict(0x1028, bank), Verdict::Exact));
    assert!(matches!(verdict(0x102c, bank), Verdict::Changed(_)));
    assert!(matches!(
        verdict(0x1028, (Some(8), Some(0x1000))),
        Verdict::Changed(_)
    ));
    assert!(matches!(
        find_register(&spec, "UDMA_M2S", "no_such_register", Some(0x1f000), bank).0,
        Verdict::Missing
    ));
}
