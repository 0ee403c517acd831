//! Random but well-formed spec trees, rendered to TOML: the structure-aware mode of the
//! `spec_loader` target. The input bytes drive an `arbitrary::Unstructured`; the tree is a
//! self-contained spec (confidence levels, one scale, one source, architectures, an OPCODE
//! enum) with enums, flags, bitfields, structs, unions, words bound to opcodes and rules
//! over their fields. Most values are consistent (fields tile their struct, references
//! name declared types) so that the loader's deeper checks run; now and then a value is
//! extreme (offsets and lengths near `u64::MAX`, long names, deep type nesting, long and
//! deeply nested rule expressions) or simply wrong.

use std::fmt::Write as _;

use arbitrary::{Result, Unstructured};

const INTS: [(&str, usize); 8] = [
    ("u8", 1),
    ("u16", 2),
    ("u32", 4),
    ("u64", 8),
    ("i8", 1),
    ("i16", 2),
    ("i32", 4),
    ("i64", 8),
];

const EVIDENCE: &str = r#"evidence = [{ source = "src §1" }]"#;

/// A declared type a later member may use. None is a rule operand: enums and flags
/// compare with their enumerators and bits, the rest are composites.
struct Named {
    name: String,
    size: usize,
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    out: String,
    types: Vec<Named>,
    opcodes: Vec<String>,
    next: usize,
}

/// A number: usually at most `small`, now and then (1 in 40) on a boundary.
fn number(u: &mut Unstructured, small: u64) -> Result<u64> {
    if !u.ratio(1, 40)? {
        return u.int_in_range(0..=small);
    }
    Ok(match u.int_in_range(0..=5u8)? {
        0 => u64::MAX,
        1 => u64::MAX / 4 + 1,
        2 => 1 << 62,
        3 => u64::from(u32::MAX) + 1,
        4 => i64::MAX as u64,
        _ => u.arbitrary()?,
    })
}

impl Gen<'_, '_> {
    fn chance(&mut self, num: u8, den: u8) -> Result<bool> {
        self.u.ratio(num, den)
    }

    /// A fresh identifier, sometimes very long, sometimes a keyword-ish word.
    fn name(&mut self, stem: &str) -> Result<String> {
        self.next += 1;
        Ok(match self.u.int_in_range(0..=60u8)? {
            0 => format!(
                "{stem}_{}",
                "x".repeat(self.u.int_in_range(64..=5000usize)?)
            ),
            1 => (*self
                .u
                .choose(&["Self", "self", "type", "NULL", "int", "Other", "_"])?)
            .into(),
            _ => format!("{stem}{}", self.next),
        })
    }

    fn prelude(&mut self) -> Result<()> {
        self.out
            .push_str(include_str!("../../tests/common/prelude.toml"));
        for i in 0..self.u.int_in_range(1..=3u8)? {
            let nc = number(self.u, 8)?;
            writeln!(
                self.out,
                "\n[[arch]]\nname = \"a{i}\"\nnc = {nc}\ndoc = \"Arch.\""
            )
            .unwrap();
        }
        let n = self.u.int_in_range(1..=4u8)?;
        self.out.push_str(
            "\n[[enum]]\nname = \"OPCODE\"\nc_name = \"OP\"\nrepr = \"u8\"\ndoc = \"Opcodes.\"\n\
             confidence = \"HIGH\"\nevidence = [{ source = \"src §1\" }]\nvalues = [\n",
        );
        for i in 0..n {
            let value = if self.chance(1, 16)? {
                number(self.u, 300)?
            } else {
                u64::from(i) + 1
            };
            writeln!(self.out, "  {{ name = \"OP{i}\", value = {value} }},").unwrap();
            self.opcodes.push(format!("OP{i}"));
        }
        self.out.push_str("]\n");
        self.declare("OPCODE", 1);
        Ok(())
    }

    fn head(&mut self, kind: &str, name: &str, extra: &str) {
        let ev = EVIDENCE;
        write!(
            self.out,
            "\n[[{kind}]]\nname = \"{name}\"\nc_name = \"{name}_C\"\n{extra}doc = \"A {kind}.\"\n\
             confidence = \"HIGH\"\n{ev}\n"
        )
        .unwrap();
    }

    fn declare(&mut self, name: impl Into<String>, size: usize) {
        self.types.push(Named {
            name: name.into(),
            size,
        });
    }

    fn int_repr(&mut self) -> Result<(&'static str, usize)> {
        Ok(*self.u.choose(&INTS)?)
    }

    fn enumeration(&mut self) -> Result<()> {
        let name = self.name("E")?;
        let (repr, size) = self.int_repr()?;
        self.head("enum", &name, &format!("repr = \"{repr}\"\n"));
        self.out.push_str("values = [\n");
        for _ in 0..self.u.int_in_range(1..=6u8)? {
            let v = number(self.u, 1 << (8 * size.min(4) - 1))?;
            let vname = self.name("V")?;
            writeln!(self.out, "  {{ name = \"{vname}\", value = {v} }},").unwrap();
        }
        self.out.push_str("]\n");
        self.declare(name, size);
        Ok(())
    }

    fn flags(&mut self) -> Result<()> {
        let name = self.name("F")?;
        let (repr, size) = self.int_repr()?;
        self.head("flags", &name, &format!("repr = \"{repr}\"\n"));
        self.out.push_str("bits = [\n");
        for i in 0..self.u.int_in_range(1..=4u64)? {
            let bit = if self.chance(1, 40)? {
                number(self.u, 64)?
            } else {
                i
            };
            let bname = self.name("B")?;
            writeln!(
                self.out,
                "  {{ name = \"{bname}\", bit = {bit}, doc = \"b\" }},"
            )
            .unwrap();
        }
        self.out.push_str("]\n");
        self.declare(name, size);
        Ok(())
    }

    fn bitfield(&mut self) -> Result<Vec<String>> {
        let name = self.name("BF")?;
        let (repr, size) = *self.u.choose(&INTS[..4])?;
        self.head("bitfield", &name, &format!("repr = \"{repr}\"\n"));
        self.out.push_str("fields = [\n");
        let width = 8 * size as u64;
        let mut lsb = 0;
        let mut names = Vec::new();
        while lsb < width {
            let w = self.u.int_in_range(1..=width - lsb)?;
            let bits = if self.chance(1, 40)? {
                format!("{}..{}", number(self.u, 70)?, number(self.u, 70)?)
            } else if w == 1 {
                format!("{lsb}")
            } else {
                format!("{lsb}..{}", lsb + w - 1)
            };
            let fname = self.name("b")?;
            writeln!(self.out, "  {{ bits = \"{bits}\", name = \"{fname}\" }},").unwrap();
            names.push(fname);
            lsb += w;
        }
        self.out.push_str("]\n");
        self.declare(name, size);
        Ok(names)
    }

    /// A member type of at most `room` bytes: (spelling, size, is a rule operand: an integer
    /// of at most 63 bits).
    fn member_type(&mut self, room: usize) -> Result<(String, usize, bool)> {
        if self.chance(1, 40)? {
            let len = number(self.u, 8)?;
            let (int, _) = self.int_repr()?;
            let dims = if self.chance(1, 4)? {
                self.u.int_in_range(2..=12usize)?
            } else {
                1
            };
            return Ok((
                format!("{int}{}", format!("[{len}]").repeat(dims)),
                1,
                false,
            ));
        }
        let fitting: Vec<usize> = (0..self.types.len())
            .filter(|&i| self.types[i].size <= room && self.types[i].size > 0)
            .collect();
        if !fitting.is_empty() && self.chance(1, 2)? {
            let t = &self.types[*self.u.choose(&fitting)?];
            let (name, size) = (t.name.clone(), t.size);
            if size * 2 <= room && self.chance(1, 4)? {
                let len = self.u.int_in_range(2..=room / size)?;
                return Ok((format!("{name}[{len}]"), size * len, false));
            }
            return Ok((name, size, false));
        }
        let ints: Vec<(&str, usize)> = INTS.iter().copied().filter(|i| i.1 <= room).collect();
        let (int, size) = *self.u.choose(&ints)?;
        if size * 2 <= room && self.chance(1, 4)? {
            let len = self.u.int_in_range(2..=room / size)?;
            return Ok((format!("{int}[{len}]"), size * len, false));
        }
        // Rules read at most 63 bits: a u64 is no rule operand.
        Ok((int.into(), size, int != "u64"))
    }

    /// Fields tiling `from..size`; returns those a rule may read.
    fn fields(&mut self, from: usize, size: usize) -> Result<Vec<String>> {
        let mut off = from;
        let mut scalars = Vec::new();
        while off < size {
            let (ty, len, scalar) = self.member_type(size - off)?;
            let fname = self.name("f")?;
            let shown = if self.chance(1, 40)? {
                number(self.u, 64)?
            } else {
                off as u64
            };
            if self.chance(1, 8)? {
                writeln!(
                    self.out,
                    "  {{ off = {shown}, size = {len}, name = \"{fname}\", unknown = true }},"
                )
                .unwrap();
            } else {
                let ev = EVIDENCE;
                writeln!(
                    self.out,
                    "  {{ off = {shown}, name = \"{fname}\", type = \"{ty}\", {ev} }},"
                )
                .unwrap();
                if scalar {
                    scalars.push(fname);
                }
            }
            off += len.max(1);
        }
        Ok(scalars)
    }

    /// A struct (or, with an opcode, a 64-byte word) and its rules.
    fn strukt(&mut self, opcode: Option<String>) -> Result<()> {
        let name = self.name(if opcode.is_some() { "W" } else { "S" })?;
        let size = match &opcode {
            Some(_) => 64,
            None if self.chance(1, 40)? => number(self.u, 64)? as usize,
            None => self.u.int_in_range(1..=32usize)?,
        };
        let extra = match &opcode {
            Some(op) => format!("size = {size}\nopcode = \"{op}\"\n"),
            None => format!("size = {size}\n"),
        };
        self.head("struct", &name, &extra);
        self.out.push_str("field = [\n");
        let mut scalars = Vec::new();
        let mut from = 0;
        if opcode.is_some() {
            let ev = EVIDENCE;
            writeln!(
                self.out,
                "  {{ off = 0, name = \"opcode\", type = \"OPCODE\", {ev} }},"
            )
            .unwrap();
            from = 1;
        }
        if size <= 1 << 16 {
            scalars.extend(self.fields(from, size)?);
        }
        self.out.push_str("]\n");
        if !scalars.is_empty() {
            for _ in 0..self.u.int_in_range(0..=3u8)? {
                self.rule(&scalars)?;
            }
        }
        if opcode.is_none() {
            self.declare(name, size);
        }
        Ok(())
    }

    fn union(&mut self) -> Result<()> {
        let name = self.name("U")?;
        let size = self.u.int_in_range(2..=16usize)?;
        self.head("union", &name, &format!("size = {size}\n"));
        let ev = EVIDENCE;
        writeln!(
            self.out,
            "discriminator = {{ off = 0, name = \"kind\", type = \"u8\", {ev} }}"
        )
        .unwrap();
        let arms = self.u.int_in_range(1..=3u8)?;
        for i in 0..arms {
            let vname = self.name("arm")?;
            let select = if i + 1 == arms {
                "default = true".to_string()
            } else {
                format!("mask = 0xff\nvalue = {}", number(self.u, 254)? & 0xff)
            };
            let ev = EVIDENCE;
            write!(
                self.out,
                "\n[[union.variant]]\nname = \"{vname}\"\n{select}\ndoc = \"An arm.\"\n\
                 confidence = \"HIGH\"\n{ev}\nfield = [\n"
            )
            .unwrap();
            self.fields(1, size)?;
            self.out.push_str("]\n");
        }
        self.declare(name, size);
        Ok(())
    }

    /// An expression over `fields`: nested, long sums, long `in` lists, extreme numbers.
    /// A length: usually up to `usual`, one time in sixteen up to `long`.
    fn length(&mut self, usual: usize, long: usize) -> Result<usize> {
        let max = if self.chance(1, 16)? { long } else { usual };
        self.u.int_in_range(1..=max)
    }

    fn expr(&mut self, fields: &[String], depth: u32) -> Result<String> {
        let f = self.u.choose(fields)?.clone();
        Ok(match self.u.int_in_range(0..=15u8)? {
            0 => {
                let n = self.length(40, 3000)?;
                let list: Vec<String> = (0..n).map(|i| i.to_string()).collect();
                format!("{f} in [{}]", list.join(", "))
            }
            1 => {
                let n = self.length(16, 2000)?;
                format!("{} <= 100000", vec![f.as_str(); n].join(" + "))
            }
            2 => {
                let n = self.length(30, 3000)?;
                format!("{}{f} == 0{}", "(".repeat(n), ")".repeat(n))
            }
            3 => {
                let n = self.length(30, 3000)?;
                format!("{}({f} == 0)", "!".repeat(n))
            }
            4..=6 if depth < 3 => {
                let a = self.expr(fields, depth + 1)?;
                let b = self.expr(fields, depth + 1)?;
                let op = *self.u.choose(&["&&", "||"])?;
                format!("({a}) {op} ({b})")
            }
            7 | 8 => format!("{f} < {}", number(self.u, 100)?),
            9 => format!("{f} % {} == 0", number(self.u, 16)?),
            _ => format!("{f} != 0"),
        })
    }

    fn rule(&mut self, fields: &[String]) -> Result<()> {
        let name = self.name("r")?;
        let expr = self.expr(fields, 0)?;
        let ev = EVIDENCE;
        write!(
            self.out,
            "\n[[struct.rule]]\nname = \"{name}\"\nexpr = \"{expr}\"\nmessage = \"m\"\n{ev}\n"
        )
        .unwrap();
        Ok(())
    }

    fn spec(&mut self) -> Result<()> {
        self.prelude()?;
        for _ in 0..self.u.int_in_range(0..=12u8)? {
            match self.u.int_in_range(0..=5u8)? {
                0 => self.enumeration()?,
                1 => self.flags()?,
                2 => {
                    self.bitfield()?;
                }
                3 => self.union()?,
                _ => self.strukt(None)?,
            }
        }
        // A chain of nested one-byte structs, deeper than any real spec.
        if self.chance(1, 16)? {
            let mut inner = "u8".to_string();
            for _ in 0..self.u.int_in_range(2..=300usize)? {
                let name = self.name("N")?;
                self.head("struct", &name, "size = 1\n");
                let ev = EVIDENCE;
                writeln!(
                    self.out,
                    "field = [{{ off = 0, name = \"n\", type = \"{inner}\", {ev} }}]"
                )
                .unwrap();
                inner = name;
            }
            self.declare(inner, 1);
        }
        for op in self.opcodes.clone() {
            if self.chance(3, 4)? {
                self.strukt(Some(op))?;
            }
        }
        Ok(())
    }
}

/// The TOML text of a spec tree drawn from `data`.
pub fn render(data: &[u8]) -> String {
    let mut u = Unstructured::new(data);
    let mut g = Gen {
        u: &mut u,
        out: String::new(),
        types: Vec::new(),
        opcodes: Vec::new(),
        next: 0,
    };
    // Running out of bytes ends the tree early; what was written so far is still a spec.
    let _ = g.spec();
    g.out
}
