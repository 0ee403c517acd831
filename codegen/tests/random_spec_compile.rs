//! Everything the loader accepts generates code that compiles: random valid spec trees
//! (words with integer, array, enum, flag-set, bitfield, union and nested-struct fields,
//! rules, architecture limits; names drawn to include Rust, C and C++ keywords, standard
//! names and near-collisions; register files with array bundles, RW / RO / WO registers,
//! resets, enum fields and per-architecture layouts, their items named like keywords and
//! like what the register emitters generate) go through the loader; every accepted one is
//! generated the way a downstream build script does (`dmaspec_codegen::Builder`, runtime
//! `::dmaspec::runtime`) into ONE crate, a module per spec, which must build with
//! `RUSTFLAGS=-D warnings` against `dmaspec` with `default-features = false`; and its C
//! headers must compile with gcc (C11) and g++ (C++17), `-Wall -Wextra -Werror -pedantic`:
//! the umbrella header, which includes every register header (`c/regs/<file>.h`), and each
//! register header on its own.
//!
//! `DMASPEC_RANDOM_SPECS=N` sets the number of specs (default 24); the crate builds under
//! `target/downstream/random-specs/`. gcc and g++ must be on PATH.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use dmaspec_codegen::emit::c;
use dmaspec_testkit::cc::{C_FLAGS, CXX_FLAGS, require};
use dmaspec_testkit::downstream;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

/// Names that are keywords or standard names somewhere and that the generator escapes.
const ESCAPED: &[&str] = &[
    "type", "match", "fn", "loop", "ref", "mod", "async", "yield", "gen", "class", "struct",
    "default", "int", "char", "new", "delete", "this", "template", "NULL", "uint8_t", "bool",
    "int32_t", "size_t", "errno", "offsetof", "main", "true", "r", "b", "v", "d", "a", "arch",
    "base", "meta", "raw", "read", "write", "bits", "bytes", "check", "validate", "rules", "arm",
    "decode", "as_view", "value", "name", "visit", "i", "nc", "t", "x", "p", "ne", "eq", "cmp",
    "clone", "hash", "fmt", "max", "min",
];
/// Names the loader must reject wherever they appear.
const REJECTED: &[&str] = &["Self", "self", "crate", "super", "_"];
/// Enumerator names that are keywords somewhere.
const ESCAPED_ENUMERATORS: &[&str] = &[
    "type", "match", "loop", "class", "struct", "default", "int", "NULL", "bool", "uint8_t",
    "true", "delete", "this", "A", "B",
];
/// Type names: plain ones and escapable keywords; then names the generated module defines.
const TYPE_NAMES: &[&str] = &["HEADER", "DESC", "type", "match", "CFG", "Thing", "class"];
const TAKEN_TYPE_NAMES: &[&str] = &["Option", "Word", "view", "str", "Arch", "Some", "core"];
/// Register-file item names (bundles, registers, fields): keywords and the names of what
/// the register emitters generate around them.
const REG_NAMES: &[&str] = &[
    "type",
    "match",
    "read",
    "write",
    "bits",
    "reset",
    "value",
    "default",
    "fn",
    "loop",
    "ref",
    "mod",
    "async",
    "yield",
    "gen",
    "class",
    "struct",
    "int",
    "char",
    "new",
    "delete",
    "this",
    "NULL",
    "bool",
    "main",
    "true",
    "i",
    "v",
    "reg",
    "base",
    "addr",
    "get",
    "set",
    "offset",
    "size",
    "count",
    "stride",
    "raw",
    "meta",
    "regs",
    "evidence",
    "confidence",
    "u32",
    "Block",
    "at",
    "bus",
    "rt",
    "OFFSET",
    "RESET",
    "from_bits",
    "with_value",
    "Bus",
];
/// What the loader rejects as a bundle, register or field name, because the generated Rust
/// defines or uses it there: drawn only in a faulty spec.
const BUNDLE_RESERVED: &[&str] = &[
    "rt",
    "Bus",
    "MemoryBus",
    "Readable",
    "Reg",
    "Register",
    "Writable",
    "Block",
    "new",
    "Option",
    "bool",
    "u8",
    "u16",
    "u32",
    "u64",
    "usize",
];
const REGISTER_RESERVED: &[&str] = &[
    "rt", "Bus", "Reg", "Block", "OFFSET", "COUNT", "STRIDE", "at", "base", "bus", "Option",
    "bool", "u8", "u16", "u32", "u64", "usize",
];
const FIELD_RESERVED: &[&str] = &["RESET", "from_bits", "to_bits"];
/// Register-file names (upper snake case).
const REGFILE_NAMES: &[&str] = &[
    "REGS", "TYPE", "MATCH", "SELF", "REGFILES", "NULL", "DEFAULT",
];
const C_NAMES: &[&str] = &[
    "NULL", "uint8_t", "bool", "int32_t", "class", "struct", "default",
];

/// splitmix64: the spec's shape from one proptest-drawn seed. A spec is `faulty` (one in
/// four) or not: only a faulty one draws names and values the loader must reject, so most
/// specs are accepted and compiled.
struct Rng(u64, bool);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    /// A fault with this chance, in a faulty spec only.
    fn fault(&mut self, percent: u64) -> bool {
        self.1 && self.chance(percent)
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
    fn word(&mut self, upper: bool) -> String {
        let len = 1 + self.below(6);
        let mut s: String = (0..len)
            .map(|_| (b'a' + self.below(26) as u8) as char)
            .collect();
        if self.chance(30) {
            let _ = write!(s, "_{}", self.below(100));
        }
        if upper { s.to_ascii_uppercase() } else { s }
    }
    /// A member name: mostly plain, sometimes an escapable keyword, rarely a rejected one.
    fn member(&mut self) -> String {
        if self.fault(3) {
            return self.pick(REJECTED).to_string();
        }
        match self.below(100) {
            0..=24 => self.pick(ESCAPED).to_string(),
            _ => {
                let upper = self.chance(10);
                self.word(upper)
            }
        }
    }
}

/// Names unique within one scope: a repeat gets a suffix (near-collisions stay).
#[derive(Default)]
struct Scope(Vec<String>);

impl Scope {
    fn fresh(&mut self, name: String) -> String {
        let mut n = name.clone();
        let mut i = 2;
        while self.0.contains(&n) {
            n = format!("{name}{i}");
            i += 1;
        }
        self.0.push(n.clone());
        n
    }
}

/// A type fields may use, with its size in bytes and, for integers, its bit width.
struct Ty {
    name: String,
    size: usize,
    /// An enumerator a rule may compare with.
    enumerator: Option<String>,
    /// Can sit in a bitfield sub-field of this many bits or more.
    min_bits: Option<u32>,
}

const PRELUDE: &str = r#"[confidence]
levels = [{ name = "confirmed", doc = "Read." }, { name = "inferred", doc = "Reasoned." }]

[[scale]]
name = "s"
doc = "The scale."
levels = [{ tag = "HIGH", common = "confirmed" }, { tag = "LOW", common = "inferred" }]

[[source]]
id = "src"
title = "The source"
file = "src.md"
scale = "s"
"#;

const META: &str = "doc = \"Doc with <Tag> and [link] text.\"\nconfidence = \"HIGH\"\nevidence = [{ source = \"src §1\" }]\n";

struct Gen {
    rng: Rng,
    text: String,
    types: Vec<Ty>,
    type_names: Scope,
    c_names: Scope,
    archs: Vec<String>,
    /// `[[constant]]` names rules may compare with.
    constants: Vec<String>,
    /// Whether to write rules at all.
    rules: bool,
    /// Enums a register field may name, with the bits their values need.
    enums: Vec<(String, u32)>,
    regfile_names: Scope,
}

/// Specs every run includes, for what random ones may miss.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// No `[[arch]]`: every `arch` list is empty.
    NoArch,
    /// No rules: the validators' arguments go unused.
    NoRules,
    /// A fixed register file besides the random ones: keyword items, and registers named
    /// like the parameters of the generated constructors and setters (`bits`, `value`).
    Registers,
}

/// [`Shape::Registers`]'s register file. A register named `bits` or `value` once made the
/// generated `from_bits(bits: u32)` / `with_x(self, value: …)` fail to build (a parameter
/// cannot be named like a tuple struct in scope), and keyword names were not escaped.
const KEYWORD_REGFILE: &str = r#"
[[regfile]]
name = "TYPE"
doc = "Keyword items."
size = 0x100
bus_width = 32
confidence = "HIGH"
evidence = [{ source = "src", names = "the file" }]

[[regfile.bundle]]
name = "type"
offset = 0x0
size = 0x10
count = 4
stride = 0x20

[[regfile.bundle.register]]
name = "bits"
offset = 0x0
access = "RW"
reset = 0x5
evidence = [{ source = "src", names = "row" }]

[[regfile.bundle.register.field]]
name = "value"
bits = "3:0"
reset = 0x5

[[regfile.bundle.register.field]]
name = "bits"
bits = "4"

[[regfile.bundle.register]]
name = "value"
offset = 0x4
access = "WO"
evidence = [{ source = "src", names = "row" }]

[[regfile.bundle.register.field]]
name = "type"
bits = "7:0"

[[regfile.bundle.register.field]]
name = "match"
bits = "8"

[[regfile.bundle.register]]
name = "match"
offset = 0x8
access = "RO"
evidence = [{ source = "src", names = "row" }]

[[regfile.bundle.register.field]]
name = "default"
bits = "31:16"

[[regfile.bundle]]
name = "match"
offset = 0x80
size = 0x4

[[regfile.bundle.register]]
name = "type"
offset = 0x0
access = "RW"
evidence = [{ source = "src", names = "row" }]

[[regfile.bundle.register.field]]
name = "read"
bits = "0"

[[regfile.bundle.register.field]]
name = "write"
bits = "2:1"
access = "WO"

[[regfile.bundle.register.field]]
name = "reset"
bits = "3"
access = "RO"
"#;

impl Gen {
    fn type_name(&mut self) -> String {
        if self.rng.fault(3) {
            return self.type_names.fresh(self.rng.pick(REJECTED).to_string());
        }
        if self.rng.fault(3) {
            return self
                .type_names
                .fresh(self.rng.pick(TAKEN_TYPE_NAMES).to_string());
        }
        let n = match self.rng.below(100) {
            0..=15 => self.rng.pick(TYPE_NAMES).to_string(),
            _ => format!("T{}", self.rng.word(true)),
        };
        self.type_names.fresh(n)
    }
    fn c_name(&mut self, name: &str) -> String {
        let n = if self.rng.fault(5) {
            self.rng.pick(C_NAMES).to_string()
        } else {
            format!("{}_C", name.to_ascii_uppercase())
        };
        self.c_names.fresh(n)
    }
    fn arch_list(&mut self) -> String {
        let n = (self.rng.below(self.archs.len()) + 1).min(self.archs.len());
        let list: Vec<String> = self.archs[..n].iter().map(|a| format!("\"{a}\"")).collect();
        format!("[{}]", list.join(", "))
    }

    fn enumeration(&mut self) {
        let name = self.type_name();
        let c = self.c_name(&name);
        let repr = *[("u8", 1usize), ("u16", 2)].get(self.rng.below(2)).unwrap();
        let _ = write!(
            self.text,
            "\n[[enum]]\nname = \"{name}\"\nc_name = \"{c}\"\nrepr = \"{}\"\n{META}values = [\n",
            repr.0
        );
        let mut scope = Scope::default();
        let n = 1 + self.rng.below(5);
        let mut first = None;
        for i in 0..n {
            let e = if self.rng.fault(4) {
                self.rng
                    .pick(&["Other", "Self", "self", "_", "read"])
                    .to_string()
            } else if self.rng.chance(12) {
                self.rng.pick(ESCAPED_ENUMERATORS).to_string()
            } else {
                self.rng.word(true)
            };
            let e = scope.fresh(e);
            // A repeated value now and then: the loader must point at `aliases`.
            let value = if self.rng.fault(3) { 0 } else { i };
            let arch = if self.rng.chance(20) {
                format!(", arch = {}", self.arch_list())
            } else {
                String::new()
            };
            let alias = if self.rng.chance(10) {
                format!(", aliases = [{{ name = \"{e}_ALT\", source = \"src\" }}]")
            } else {
                String::new()
            };
            let _ = writeln!(
                self.text,
                "  {{ name = \"{e}\", value = {value}{arch}{alias}, doc = \"<b>{e}</b>\" }},"
            );
            // A rule names it as `TYPE::NAME`, which must parse as a path.
            if !ESCAPED_ENUMERATORS.contains(&e.as_str()) && name.starts_with('T') {
                first.get_or_insert(e);
            }
        }
        self.text.push_str("]\n");
        let bits = usize::BITS - (n - 1).leading_zeros();
        self.enums.push((name.clone(), bits.max(1)));
        self.types.push(Ty {
            name: name.clone(),
            size: repr.1,
            enumerator: first.map(|e| format!("{name}::{e}")),
            min_bits: Some(bits.max(1)),
        });
    }

    fn flag_set(&mut self) {
        // Flag sets are tuple structs: an uppercase letter is required.
        let name = self.type_name();
        let name = if name.chars().any(|c| c.is_ascii_uppercase()) || self.rng.fault(50) {
            name
        } else {
            self.type_names
                .fresh(format!("F{}", name.to_ascii_uppercase()))
        };
        let c = self.c_name(&name);
        let _ = write!(
            self.text,
            "\n[[flags]]\nname = \"{name}\"\nc_name = \"{c}\"\nrepr = \"u8\"\n{META}bits = [\n"
        );
        let mut scope = Scope::default();
        let n = 1 + self.rng.below(4);
        for bit in 0..n {
            let f = scope.fresh(if self.rng.chance(15) {
                self.rng.pick(ESCAPED_ENUMERATORS).to_ascii_uppercase()
            } else {
                self.rng.word(true)
            });
            let _ = writeln!(
                self.text,
                "  {{ name = \"{f}\", bit = {bit}, doc = \"Bit.\" }},"
            );
        }
        self.text.push_str("]\n");
        self.types.push(Ty {
            name,
            size: 1,
            enumerator: None,
            min_bits: Some(n as u32),
        });
    }

    fn bitfield(&mut self) {
        let name = self.type_name();
        let c = self.c_name(&name);
        let (repr, width) = [("u8", 8u32), ("u16", 16), ("u32", 32)][self.rng.below(3)];
        let mut body = String::new();
        let mut scope = Scope::default();
        let mut lsb = 0;
        let mut rules = String::new();
        while lsb < width {
            let w = (1 + self.rng.below(6) as u32).min(width - lsb);
            let f = scope.fresh(self.rng.member());
            let msb = lsb + w - 1;
            let ty = self
                .types
                .iter()
                .filter(|t| t.min_bits.is_some_and(|b| b <= w) && self.rng.chance(30))
                .map(|t| format!(", type = \"{}\"", t.name))
                .next()
                .unwrap_or_default();
            let flag = if self.rng.chance(15) {
                ", reserved = true"
            } else {
                ""
            };
            let _ = writeln!(
                body,
                "  {{ bits = \"{lsb}..{msb}\", name = \"{f}\"{ty}{flag}, evidence = [{{ source = \"src\" }}] }},"
            );
            let plain = !ESCAPED.contains(&f.as_str()) || f.len() <= 2;
            if self.rules && plain && ty.is_empty() && flag.is_empty() && self.rng.chance(20) {
                let _ = write!(
                    rules,
                    "\n[[bitfield.rule]]\nname = \"{f}_small\"\nexpr = \"{f} <= {}\"\nmessage = \"{f} is small\"\nevidence = [{{ source = \"src\" }}]\n",
                    (1u64 << w) - 1
                );
            }
            lsb += w;
        }
        let _ = write!(
            self.text,
            "\n[[bitfield]]\nname = \"{name}\"\nc_name = \"{c}\"\nrepr = \"{repr}\"\n{META}fields = [\n{body}]\n{rules}"
        );
        self.types.push(Ty {
            name,
            size: (width / 8) as usize,
            enumerator: None,
            min_bits: None,
        });
    }

    /// `size` bytes of fields from byte `from`; returns the field lines and rules, and
    /// adds the unsigned scalar fields a join may combine to `parts`.
    fn fields(
        &mut self,
        from: usize,
        size: usize,
        scope: &mut Scope,
        parts: &mut Vec<String>,
    ) -> (String, String) {
        let mut out = String::new();
        let mut rules = String::new();
        let mut off = from;
        while off < size {
            let room = size - off;
            let f = scope.fresh(self.rng.member());
            if self.rng.fault(8) {
                // A near-collision with the view's setter: the loader must reject it.
                let g = scope.fresh(format!("set_{f}"));
                let _ = writeln!(
                    out,
                    "  {{ off = {off}, name = \"{g}\", type = \"u8\", evidence = [{{ source = \"src\" }}] }},"
                );
                off += 1;
                continue;
            }
            let pick = self.rng.below(100);
            let (ty, len, rule) = if pick < 40 && !self.types.is_empty() {
                let t = &self.types[self.rng.below(self.types.len())];
                let rule = t.enumerator.as_ref().map(|e| format!("{f} == {e}"));
                (t.name.clone(), t.size, rule)
            } else if pick < 55 {
                let n = 1 + self.rng.below(4);
                let (elem, es) = [("u8", 1), ("u16", 2), ("i32", 4)][self.rng.below(3)];
                (format!("{elem}[{n}]"), n * es, None)
            } else {
                let (t, s) =
                    [("u8", 1), ("u16", 2), ("u32", 4), ("i16", 2), ("u64", 8)][self.rng.below(5)];
                // Rules read up to 63 bits.
                let bound = match self.constants.len() {
                    0 => self.rng.below(200).to_string(),
                    n => self.constants[self.rng.below(n)].clone(),
                };
                let rule = (t != "u64").then(|| format!("{f} <= {bound}"));
                if t == "u8" || t == "u16" {
                    parts.push(f.clone());
                }
                (t.to_string(), s, rule)
            };
            if len > room {
                let _ = writeln!(
                    out,
                    "  {{ off = {off}, size = {room}, name = \"{f}\", unknown = true }},"
                );
                break;
            }
            let extra = if self.rng.chance(5) && ty == "u8" {
                ", codec = { zero_means = 256 }"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  {{ off = {off}, name = \"{f}\", type = \"{ty}\"{extra}, evidence = [{{ source = \"src\" }}] }},"
            );
            // Rules here name only plain fields (the keyword-named ones, which a rule names
            // by their spec names, are downstream_builder.rs's `keyword-rules` crate).
            let plain = !ESCAPED.contains(&f.as_str()) || f.len() <= 2;
            if let Some(expr) = rule.filter(|_| self.rules && plain && self.rng.chance(25)) {
                let arch = if self.rng.chance(30) {
                    format!("arch = {}\n", self.arch_list())
                } else {
                    String::new()
                };
                let _ = write!(
                    rules,
                    "\n[[struct.rule]]\nname = \"{f}_ok\"\nexpr = \"{expr}\"\n{arch}message = \"{f} is in range\"\nevidence = [{{ source = \"src\" }}]\n"
                );
            }
            off += len;
        }
        (out, rules)
    }

    fn strukt(&mut self, word: Option<(&str, String)>) {
        let name = match &word {
            Some((n, _)) => n.to_string(),
            None => self.type_name(),
        };
        let c = self.c_name(&name);
        let size = if word.is_some() {
            64
        } else {
            1 + self.rng.below(8)
        };
        let mut scope = Scope::default();
        let mut head = String::new();
        let mut from = 0;
        if let Some((_, arch)) = &word {
            let _ = write!(head, "opcode = \"{name}\"\narch = {arch}\n");
            scope.fresh("opcode".into());
            from = 1;
        }
        let mut parts = Vec::new();
        let (mut fields, mut rules) = self.fields(from, size, &mut scope, &mut parts);
        if parts.len() >= 2 && self.rng.chance(40) {
            let j = scope.fresh(self.rng.word(false));
            rules.insert_str(
                0,
                &format!(
                    "join = [{{ name = \"{j}\", parts = [\"{}\", \"{}\"], doc = \"Joined [lo, hi].\", evidence = [{{ source = \"src\" }}] }}]\n",
                    parts[0], parts[1]
                ),
            );
        }
        if word.is_some() {
            fields.insert_str(
                0,
                "  { off = 0, name = \"opcode\", type = \"OPCODE\", evidence = [{ source = \"src\" }] },\n",
            );
        }
        let _ = write!(
            self.text,
            "\n[[struct]]\nname = \"{name}\"\nc_name = \"{c}\"\nsize = {size}\n{head}{META}field = [\n{fields}]\n{rules}"
        );
        if word.is_none() {
            self.types.push(Ty {
                name,
                size,
                enumerator: None,
                min_bits: None,
            });
        }
    }

    fn union(&mut self) {
        let name = self.type_name();
        let c = self.c_name(&name);
        let size = 2 + self.rng.below(4);
        let mut top = Scope::default();
        let disc = top.fresh(self.rng.member());
        let _ = write!(
            self.text,
            "\n[[union]]\nname = \"{name}\"\nc_name = \"{c}\"\nsize = {size}\n{META}discriminator = {{ off = 0, name = \"{disc}\", type = \"u8\", evidence = [{{ source = \"src\" }}] }}\n"
        );
        let arms = 1 + self.rng.below(3);
        for i in 0..arms {
            let arm = top.fresh(self.rng.word(false));
            let select = if i + 1 == arms {
                "default = true".to_string()
            } else {
                format!("mask = 0x3\nvalue = {i}")
            };
            let mut scope = Scope(vec![disc.clone()]);
            let (fields, _) = self.fields(1, size, &mut scope, &mut Vec::new());
            let _ = write!(
                self.text,
                "\n[[union.variant]]\nname = \"{arm}\"\n{select}\n{META}field = [\n{fields}]\n"
            );
        }
        self.types.push(Ty {
            name,
            size,
            enumerator: None,
            min_bits: None,
        });
    }

    /// A register-item name unique in `scope` regardless of case (C names are the spec
    /// names in upper or lower case), without `_` when `plain` (bundle and register names
    /// join their container's in C: `A` + `B_C` and `A_B` + `C` would be one name).
    fn reg_name(&mut self, scope: &mut Scope, plain: bool, reserved: &[&str]) -> String {
        loop {
            let n = if self.rng.fault(3) {
                self.rng.pick(REJECTED).to_string()
            } else if self.rng.chance(35) {
                self.rng.pick(REG_NAMES).to_string()
            } else {
                let upper = self.rng.chance(10);
                let w = self.rng.word(upper);
                if plain { w.replace('_', "") } else { w }
            };
            let lower = n.to_ascii_lowercase();
            // `with_value` is the setter of a field `value`.
            let setter = n
                .strip_prefix("with_")
                .is_some_and(|x| scope.0.contains(&x.to_string()))
                || scope.0.contains(&format!("with_{lower}"));
            let reserved = reserved.contains(&n.as_str()) || setter;
            if !scope.0.contains(&lower) && (!reserved || self.rng.fault(30)) {
                scope.0.push(lower);
                return n;
            }
        }
    }

    /// Two disjoint non-empty parts of the architectures `on` (at least two).
    fn split(&mut self, on: &[String]) -> (Vec<String>, Vec<String>) {
        let at = 1 + self.rng.below(on.len() - 1);
        (on[..at].to_vec(), on[at..].to_vec())
    }

    /// A `[[regfile]]`: bundles (arrays too) tiling a 0x1000-byte window, 32-bit RW / RO /
    /// WO registers with fields, resets that agree, fields naming enums, and per-arch
    /// layouts (registers and fields declared twice with disjoint `arch`).
    fn regfile(&mut self) {
        let name = if self.rng.chance(30) {
            self.rng.pick(REGFILE_NAMES).to_string()
        } else {
            format!("RF{}", self.rng.word(true).replace('_', ""))
        };
        let name = self.regfile_names.fresh(name);
        let (arch, on) = if !self.archs.is_empty() && self.rng.chance(40) {
            let list = self.arch_list();
            let n = list.matches('"').count() / 2;
            (format!("arch = {list}\n"), self.archs[..n].to_vec())
        } else {
            (String::new(), self.archs.clone())
        };
        let _ = write!(
            self.text,
            "\n[[regfile]]\nname = \"{name}\"\ndoc = \"A <register> file [x].\"\nsize = 0x1000\nbus_width = 32\n{arch}confidence = \"HIGH\"\nevidence = [{{ source = \"src §2\", names = \"the file\" }}]\n"
        );
        if on.len() >= 2 && self.rng.chance(30) {
            let _ = writeln!(self.text, "arch_size = {{ {} = 0x2000 }}", on[on.len() - 1]);
        }
        if self.rng.chance(30) {
            let _ = writeln!(
                self.text,
                "counts = [{{ what = \"registers\", value = {}, source = \"src §2\", names = \"n\" }}]",
                self.rng.below(50)
            );
        }
        let mut bundles = Scope::default();
        let mut off = 0u64;
        for _ in 0..1 + self.rng.below(4) {
            // A bundle's module sits next to the architectures' modules.
            let archs = self.archs.clone();
            let reserved: Vec<&str> = (BUNDLE_RESERVED.iter().copied())
                .chain(archs.iter().map(String::as_str))
                .collect();
            let b = self.reg_name(&mut bundles, true, &reserved);
            let size = 4 * (1 + self.rng.below(8) as u64);
            let (count, stride) = if self.rng.chance(40) {
                (
                    2 + self.rng.below(7) as u64,
                    size + 4 * self.rng.below(3) as u64,
                )
            } else {
                (1, size)
            };
            let array = if count > 1 {
                format!("count = {count}\nstride = {stride:#x}\n")
            } else {
                String::new()
            };
            let _ = write!(
                self.text,
                "\n[[regfile.bundle]]\nname = \"{b}\"\noffset = {off:#x}\nsize = {size:#x}\n{array}doc = \"Bundle <{b}>.\"\n"
            );
            off += (count - 1) * stride + size + 4 * self.rng.below(4) as u64;
            let mut regs = Scope::default();
            let mut slot = 0;
            while slot < size / 4 {
                let r = self.reg_name(&mut regs, true, REGISTER_RESERVED);
                if on.len() >= 2 && self.rng.chance(15) {
                    let (a, b) = self.split(&on);
                    self.register(&r, slot * 4, &a, true);
                    self.register(&r, slot * 4, &b, true);
                } else {
                    self.register(&r, slot * 4, &on, false);
                }
                slot += 1 + self.rng.below(2) as u64;
            }
        }
    }

    /// A register at `offset` on the architectures `on`; `twin`: one of its layouts, with
    /// `on` as its `arch` list.
    fn register(&mut self, name: &str, offset: u64, on: &[String], twin: bool) {
        let access = ["RW", "RW", "RO", "WO"][self.rng.below(4)];
        let arch = if twin {
            format!("arch = {}\n", quoted(on))
        } else {
            String::new()
        };
        let reset = self.rng.chance(40).then(|| self.rng.next() as u32);
        let reset_line = reset.map_or(String::new(), |r| format!("reset = {r:#x}\n"));
        let width = if self.rng.chance(10) {
            "width = 32\n"
        } else {
            ""
        };
        let _ = write!(
            self.text,
            "\n[[regfile.bundle.register]]\nname = \"{name}\"\noffset = {offset:#x}\naccess = \"{access}\"\n{arch}{width}{reset_line}doc = \"Reg `{name}` <b>.\"\nevidence = [{{ source = \"src\", names = \"row\" }}]\n"
        );
        let mut fields = Scope::default();
        let mut lsb = 0u32;
        while lsb < 32 {
            lsb += self.rng.below(3) as u32;
            if lsb >= 32 {
                break;
            }
            let w = (1 + self.rng.below(10) as u32).min(32 - lsb);
            let f = self.reg_name(&mut fields, false, FIELD_RESERVED);
            let fa = match access {
                "RW" if self.rng.chance(30) => Some(["RW", "RO", "WO"][self.rng.below(3)]),
                _ if self.rng.chance(10) => Some(access),
                _ => None,
            };
            let mut line = format!(
                "\n[[regfile.bundle.register.field]]\nname = \"{f}\"\nbits = \"{}\"\n",
                if w == 1 {
                    lsb.to_string()
                } else {
                    format!("{}:{lsb}", lsb + w - 1)
                }
            );
            if let Some(a) = fa {
                let _ = writeln!(line, "access = \"{a}\"");
            }
            if let Some(r) = reset.filter(|_| self.rng.chance(50)) {
                let _ = writeln!(line, "reset = {:#x}", (r >> lsb) & ((1u32 << w) - 1));
            }
            let fits: Vec<&(String, u32)> = self.enums.iter().filter(|(_, b)| *b <= w).collect();
            if !fits.is_empty() && self.rng.chance(30) {
                let e = &fits[self.rng.below(fits.len())].0;
                let _ = writeln!(line, "enum = \"{e}\"");
            }
            // Two layouts of the field: one bit narrower on some of the architectures.
            if !twin && w >= 2 && on.len() >= 2 && self.rng.chance(10) {
                let (a, b) = self.split(on);
                let narrow = if w == 2 {
                    lsb.to_string()
                } else {
                    format!("{}:{lsb}", lsb + w - 2)
                };
                let _ = write!(
                    self.text,
                    "\n[[regfile.bundle.register.field]]\nname = \"{f}\"\nbits = \"{}\"\narch = {}\n",
                    if w == 1 {
                        lsb.to_string()
                    } else {
                        format!("{}:{lsb}", lsb + w - 1)
                    },
                    quoted(&a)
                );
                let _ = write!(
                    self.text,
                    "\n[[regfile.bundle.register.field]]\nname = \"{f}\"\nbits = \"{narrow}\"\narch = {}\n",
                    quoted(&b)
                );
            } else {
                self.text.push_str(&line);
            }
            lsb += w;
        }
    }

    /// The spec of `seed`, or of a fixed `shape`, which has no fault.
    fn spec(seed: u64, shape: Option<Shape>) -> Vec<(PathBuf, String)> {
        let mut g = Gen {
            rng: Rng(seed, shape.is_none() && seed.is_multiple_of(4)),
            rules: shape != Some(Shape::NoRules),
            text: String::new(),
            types: Vec::new(),
            type_names: Scope(vec!["OPCODE".into()]),
            c_names: Scope::default(),
            archs: Vec::new(),
            constants: Vec::new(),
            enums: Vec::new(),
            regfile_names: Scope::default(),
        };
        let mut prelude = String::from(PRELUDE);
        // Now and then no architecture at all (a spec of klr leaves only has none).
        let n_arch = if shape == Some(Shape::NoArch) || g.rng.chance(5) {
            0
        } else {
            1 + g.rng.below(3)
        };
        let mut arch_names = Scope::default();
        for i in 0..n_arch {
            let a = arch_names.fresh(match g.rng.below(10) {
                0 => g.rng.pick(ESCAPED).to_string(),
                1 if g.rng.fault(50) => "ALL".into(),
                _ => g.rng.word(false),
            });
            let _ = write!(
                prelude,
                "\n[[arch]]\nname = \"{a}\"\nnc = {}\ndoc = \"Arch.\"\n",
                i + 2
            );
            g.archs.push(a);
        }
        for _ in 0..g.rng.below(3) {
            let k = if g.rng.fault(10) {
                g.rng.pick(&["arch", "b", "raw"]).to_string()
            } else {
                format!("K{}", g.rng.word(true))
            };
            let k = g.type_names.fresh(k);
            let _ = write!(
                prelude,
                "\n[[constant]]\nname = \"{k}\"\nvalue = {}\n{META}",
                g.rng.below(300)
            );
            g.constants.push(k);
        }
        let kinds = g.rng.below(6);
        for _ in 0..kinds {
            match g.rng.below(5) {
                0 | 1 => g.enumeration(),
                2 => g.flag_set(),
                3 => g.bitfield(),
                _ => g.union(),
            }
        }
        for _ in 0..g.rng.below(3) {
            g.strukt(None);
        }
        if shape == Some(Shape::Registers) {
            g.regfile_names.fresh("TYPE".into());
            g.text.push_str(KEYWORD_REGFILE);
        }
        for _ in 0..g.rng.below(3) {
            g.regfile();
        }
        let words = 1 + g.rng.below(3);
        let mut opcodes = String::from(
            "\n[[enum]]\nname = \"OPCODE\"\nc_name = \"OPCODE_C\"\nrepr = \"u8\"\ndoc = \"Opcodes.\"\nconfidence = \"HIGH\"\nevidence = [{ source = \"src §1\" }]\nvalues = [\n",
        );
        for i in 0..words {
            let w = format!("W{}{i}", g.rng.word(true));
            let w = g.type_names.fresh(w);
            let _ = writeln!(opcodes, "  {{ name = \"{w}\", value = {} }},", 0x10 + i);
            let arch = if g.archs.is_empty() {
                "[]".to_string()
            } else {
                g.arch_list()
            };
            g.strukt(Some((&w, arch)));
        }
        opcodes.push_str("]\n");
        prelude.push_str(&opcodes);
        vec![
            (PathBuf::from("spec/prelude.toml"), prelude),
            (PathBuf::from("spec/types.toml"), g.text),
        ]
    }
}

/// `["a", "b"]`.
fn quoted(list: &[String]) -> String {
    let q: Vec<String> = list.iter().map(|a| format!("\"{a}\"")).collect();
    format!("[{}]", q.join(", "))
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_accepted_random_spec_generates_code_that_compiles() {
    require("gcc");
    require("g++");
    let cases: u32 = std::env::var("DMASPEC_RANDOM_SPECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let krate = downstream::dir().join("random-specs");
    let specs = krate.join("specs");
    let _ = std::fs::remove_dir_all(krate.join("src"));
    let _ = std::fs::remove_dir_all(&specs);
    std::fs::create_dir_all(krate.join("src")).unwrap();

    let mut accepted: Vec<usize> = Vec::new();
    let mut tried = 0usize;
    let mut regfiles = 0usize;
    // CI draws the same specs every run, so that a landing never rests on luck; a run
    // with DMASPEC_RANDOM_SPECS set draws new ones each time (and prints each seed).
    let mut runner = match std::env::var_os("DMASPEC_RANDOM_SPECS") {
        Some(_) => TestRunner::new(Config::default()),
        None => TestRunner::deterministic(),
    };
    for n in 0..cases as usize {
        let seed = any::<u64>().new_tree(&mut runner).unwrap().current();
        eprintln!("spec {n}: seed {seed:#018x}");
        tried += 1;
        let spec_dir = specs.join(n.to_string());
        let shape = [
            Some(Shape::NoArch),
            Some(Shape::NoRules),
            Some(Shape::Registers),
        ]
        .get(n)
        .copied()
        .flatten();
        for (path, text) in Gen::spec(seed, shape) {
            let path = spec_dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        // The downstream path: what a build script calls.
        let built = dmaspec_codegen::Builder::new()
            .spec_dir(spec_dir.join("spec"))
            .out_dir(krate.join("src"))
            .file_name(format!("spec{n}.rs"))
            .compile();
        let model = match built {
            Ok(model) => model,
            Err(e) => {
                eprintln!("spec {n} rejected: {}", e.0[0].message);
                continue;
            }
        };
        accepted.push(n);
        if !model.regfiles.is_empty() {
            let rust = std::fs::read_to_string(krate.join(format!("src/spec{n}.rs"))).unwrap();
            assert!(rust.contains("pub mod regs"), "spec {n}: no `regs` module");
            regfiles += model.regfiles.len();
        }
        let cdir = spec_dir.join("out");
        let mut regs_headers = Vec::new();
        for (path, text) in c::render(&model) {
            if path.starts_with(&format!("{}/{}/", c::DIR, c::registers::REGS_DIR)) {
                regs_headers.push(
                    path.strip_prefix(&format!("{}/", c::DIR))
                        .unwrap()
                        .to_string(),
                );
            }
            let path = cdir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        assert_eq!(
            regs_headers.len(),
            model.regfiles.len(),
            "spec {n}: a header per register file"
        );
        // The umbrella header (which includes every register header), and each register
        // header on its own: they need nothing but <stdint.h>.
        let mut units = vec![c::UMBRELLA_HEADER.to_string()];
        units.extend(regs_headers);
        for (i, header) in units.iter().enumerate() {
            let tu = cdir.join(format!("tu{i}.c"));
            std::fs::write(
                &tu,
                format!("#include \"{header}\"\ntypedef int nonempty_tu;\n"),
            )
            .unwrap();
            for (cc, flags) in [("gcc", C_FLAGS), ("g++", CXX_FLAGS)] {
                let mut cmd = Command::new(cc);
                cmd.args(flags)
                    .arg("-fsyntax-only")
                    .arg("-I")
                    .arg(cdir.join(c::DIR))
                    .arg(&tu);
                run(
                    &mut cmd,
                    &format!("{cc} on {header} of spec {}", spec_dir.display()),
                );
            }
        }
    }

    let mut lib = String::new();
    for n in &accepted {
        let _ = writeln!(
            lib,
            "/// Spec {n} (target/downstream/random-specs/specs/{n}).\n\
             #[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]\n\
             pub mod spec{n} {{ include!(\"spec{n}.rs\"); }}"
        );
    }
    std::fs::write(
        krate.join("src/lib.rs"),
        format!("//! Random specs, generated.\n#![no_std]\n{lib}"),
    )
    .unwrap();
    downstream::manifest(&krate, "random-specs", "");
    downstream::cargo(&krate, &["build", "--quiet", "--lib"]);
    let rate = accepted.len() as f64 / tried.max(1) as f64;
    eprintln!(
        "random specs: {} of {tried} accepted ({:.0}%), all compile; {regfiles} register files",
        accepted.len(),
        rate * 100.0
    );
    assert!(
        regfiles > 0 || cases < 8,
        "no accepted spec had a register file: the register emitters went untested"
    );
    assert!(
        rate >= 0.4,
        "the loader accepted only {} of {tried} random specs: the test proves too little",
        accepted.len()
    );
}
