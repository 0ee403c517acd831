//! Random but well-formed spec trees, rendered to TOML: the structure-aware mode of the
//! `spec_loader` target. The input bytes drive an `arbitrary::Unstructured`; the tree is a
//! self-contained spec (confidence levels, one scale, one source, architectures, an OPCODE
//! enum) with enums, flags, bitfields, structs, unions, words bound to opcodes and rules
//! over their fields. Most values are consistent (fields tile their struct, references
//! name declared types) so that the loader's deeper checks run; now and then a value is
//! extreme (offsets and lengths near `u64::MAX`, long names, deep type nesting, long and
//! deeply nested rule expressions) or simply wrong. Register files (`[[regfile]]`) come
//! last: bundles (arrays too) tiling the window, registers tiling their bundle, fields
//! tiling their register, with resets that agree, access no wider than the register's,
//! fields naming the tree's enums, and per-arch twins (same name, disjoint `arch`); now
//! and then one is extreme (offsets near `u64::MAX`, huge counts and strides) or wrong
//! (overlaps, misaligned or duplicate registers, resets that do not fit, wider access).

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
    /// The declared architectures.
    archs: Vec<String>,
    /// Declared enums and the bits their widest value needs.
    enums: Vec<(String, u32)>,
    /// The register file being drawn has no wrong value (one in three).
    clean: bool,
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
            self.archs.push(format!("a{i}"));
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
        let mut widest = 0;
        for _ in 0..self.u.int_in_range(1..=6u8)? {
            let v = number(self.u, 1 << (8 * size.min(4) - 1))?;
            let vname = self.name("V")?;
            writeln!(self.out, "  {{ name = \"{vname}\", value = {v} }},").unwrap();
            widest = widest.max(u64::BITS - v.leading_zeros());
        }
        self.out.push_str("]\n");
        self.enums.push((name.clone(), widest.max(1)));
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
        for _ in 0..self.u.int_in_range(0..=3u8)? {
            self.regfile()?;
        }
        Ok(())
    }

    /// A wrong value one time in `den`; never once the input is used up (which makes every
    /// `ratio` true), so that a short input still gives a register file that loads.
    fn wrong(&mut self, den: u8) -> Result<bool> {
        Ok(!self.clean && !self.u.is_empty() && self.u.ratio(1, den)?)
    }

    /// `arch = [...]` for some of `of` (a non-empty subset, sometimes an undeclared name),
    /// or nothing; and the architectures the item is then on.
    fn sub_archs(&mut self, of: &[String]) -> Result<(String, Vec<String>)> {
        if self.wrong(60)? {
            return Ok(("arch = [\"nosuch\"]\n".into(), of.to_vec()));
        }
        if of.len() < 2 || !self.chance(1, 4)? {
            return Ok((String::new(), of.to_vec()));
        }
        let mut on: Vec<String> = Vec::new();
        for a in of {
            if self.chance(1, 2)? {
                on.push(a.clone());
            }
        }
        if on.is_empty() {
            on.push(of[0].clone());
        }
        Ok((arch_line(&on), on))
    }

    /// Two disjoint non-empty parts of `of` (at least two architectures).
    fn split(&mut self, of: &[String]) -> Result<(Vec<String>, Vec<String>)> {
        let at = self.u.int_in_range(1..=of.len() - 1)?;
        let (a, b) = of.split_at(at);
        Ok((a.to_vec(), b.to_vec()))
    }

    fn access(&mut self) -> Result<&'static str> {
        if self.wrong(80)? {
            return Ok(*self.u.choose(&["W1C", "rw", ""])?);
        }
        Ok(*self.u.choose(&["RW", "RW", "RO", "WO"])?)
    }

    fn confidence_line(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=40u8)? {
            0 => "confidence = \"BOGUS\"\n".into(),
            1..=4 => "confidence = \"LOW\"\n".into(),
            5..=8 => "confidence = \"HIGH\"\n".into(),
            _ => String::new(),
        })
    }

    /// A `[[regfile]]`: mostly consistent, now and then extreme or wrong.
    fn regfile(&mut self) -> Result<()> {
        self.clean = false;
        self.clean = self.chance(1, 3)?;
        self.next += 1;
        let name = if self.wrong(40)? {
            self.name("rf")?
        } else {
            format!("RF{}", self.next)
        };
        let size: u64 = if self.wrong(30)? {
            number(self.u, 0x10000)?
        } else {
            1 << self.u.int_in_range(6..=16u32)?
        };
        let bus_width = if self.wrong(40)? {
            number(self.u, 128)?
        } else {
            32
        };
        let (arch, archs) = if self.chance(1, 3)? {
            let all = self.archs.clone();
            self.sub_archs(&all)?
        } else {
            (String::new(), self.archs.clone())
        };
        let confidence = if self.wrong(40)? { "NOPE" } else { "HIGH" };
        let evidence = if self.wrong(40)? {
            "evidence = []"
        } else {
            EVIDENCE
        };
        write!(
            self.out,
            "\n[[regfile]]\nname = \"{name}\"\ndoc = \"A register file.\"\nsize = {size}\n\
             bus_width = {bus_width}\n{arch}confidence = \"{confidence}\"\n{evidence}\n"
        )
        .unwrap();
        // A bigger or smaller window on one architecture.
        let mut window = size;
        if !archs.is_empty() && self.chance(1, 6)? {
            let a = self.u.choose(&archs)?.clone();
            let a = if self.wrong(30)? { "nosuch".into() } else { a };
            let other = if self.chance(1, 2)? {
                size.saturating_mul(2)
            } else {
                number(self.u, size)?
            };
            window = window.min(other);
            writeln!(self.out, "arch_size = {{ {a} = {other} }}").unwrap();
        }
        if self.chance(1, 3)? {
            self.out.push_str("counts = [\n");
            for _ in 0..self.u.int_in_range(1..=3u8)? {
                let value = number(self.u, 300)?;
                let source = if self.wrong(30)? { "nosuch" } else { "src §2" };
                writeln!(
                    self.out,
                    "  {{ what = \"registers\", value = {value}, source = \"{source}\", names = \"n\" }},"
                )
                .unwrap();
            }
            self.out.push_str("]\n");
        }
        let mut names: Vec<String> = Vec::new();
        let mut off: u64 = 0;
        for _ in 0..self.u.int_in_range(0..=6u8)? {
            if off >= window && !self.wrong(10)? {
                break;
            }
            self.bundle(&archs, window, &mut off, &mut names)?;
        }
        Ok(())
    }

    /// A name of `stem`, now and then one of `taken` again (a duplicate) or no identifier.
    fn item_name(&mut self, stem: &str, taken: &[String]) -> Result<String> {
        if self.u.is_empty() {
            // `name` would give every item one long name: a flood of duplicates.
            self.next += 1;
            return Ok(format!("{stem}{}", self.next));
        }
        if !taken.is_empty() && self.wrong(60)? {
            return Ok(self.u.choose(taken)?.clone());
        }
        if self.wrong(60)? {
            return Ok(self
                .u
                .choose(&["1st", "a-b", "", "Self", "self", "_", "crate", "with_x"])?
                .to_string());
        }
        self.name(stem)
    }

    fn bundle(
        &mut self,
        file_archs: &[String],
        window: u64,
        off: &mut u64,
        names: &mut Vec<String>,
    ) -> Result<()> {
        let name = self.item_name("bd", names)?;
        names.push(name.clone());
        let (arch, archs) = self.sub_archs(file_archs)?;
        let room = window.saturating_sub(*off).max(4);
        let mut size = 4 * self.u.int_in_range(1..=(room / 4).clamp(1, 64))?;
        let mut count: u64 = if size * 2 <= room && self.chance(1, 3)? {
            self.u.int_in_range(2..=(room / size).min(16))?
        } else {
            1
        };
        let mut stride = if count > 1 {
            let most = (room - size) / (count - 1);
            self.u.int_in_range(size..=most.max(size))?
        } else {
            size
        };
        let mut offset = *off;
        if self.wrong(25)? {
            match self.u.int_in_range(0..=7u8)? {
                0 => offset = number(self.u, window)?,
                1 => offset = u64::MAX - self.u.int_in_range(0..=8u64)?,
                2 => count = number(self.u, 1 << 20)?,
                3 => stride = number(self.u, size)?,
                4 => size = number(self.u, 1 << 20)?,
                5 => offset = offset.saturating_sub(4),
                6 => {
                    count = u64::MAX;
                    stride = u64::MAX / 2;
                }
                _ => offset = offset.saturating_add(2),
            }
        }
        write!(
            self.out,
            "\n[[regfile.bundle]]\nname = \"{name}\"\noffset = {offset}\nsize = {size}\n{arch}"
        )
        .unwrap();
        if count != 1 || self.chance(1, 8)? {
            writeln!(self.out, "count = {count}").unwrap();
        }
        if (count > 1 && !self.wrong(30)?) || self.chance(1, 8)? {
            writeln!(self.out, "stride = {stride}").unwrap();
        }
        let confidence = self.confidence_line()?;
        self.out.push_str(&confidence);
        if self.chance(1, 4)? {
            writeln!(self.out, "doc = \"A bundle.\"\n{EVIDENCE}").unwrap();
        }
        *off = offset
            .saturating_add(count.saturating_sub(1).saturating_mul(stride))
            .saturating_add(size);
        let mut regs: Vec<String> = Vec::new();
        let slots = size.min(64) / 4;
        let mut slot = 0;
        while slot < slots {
            slot += self.u.int_in_range(0..=2u64)?;
            if slot >= slots {
                break;
            }
            let name = self.item_name("r", &regs)?;
            regs.push(name.clone());
            if archs.len() >= 2 && self.chance(1, 8)? {
                // Per-arch twins: one name, disjoint architectures, at one offset or two.
                let (a, b) = self.split(&archs)?;
                self.register(&name, slot * 4, &a, true)?;
                let again = if slot + 1 < slots && self.chance(1, 2)? {
                    slot + 1
                } else {
                    slot
                };
                let b = if self.wrong(20)? { archs.clone() } else { b };
                self.register(&name, again * 4, &b, true)?;
                slot = again;
            } else {
                self.register(&name, slot * 4, &archs, false)?;
            }
            slot += 1;
        }
        Ok(())
    }

    /// A register on `on` (its bundle's architectures, or a twin's own list).
    fn register(&mut self, name: &str, offset: u64, on: &[String], twin: bool) -> Result<()> {
        let offset = if self.wrong(30)? {
            match self.u.int_in_range(0..=3u8)? {
                0 => u64::MAX - self.u.int_in_range(0..=7u64)?,
                1 => offset + 2,
                2 => offset.saturating_sub(4),
                _ => number(self.u, 1 << 12)?,
            }
        } else {
            offset
        };
        let access = self.access()?;
        let arch = if twin { arch_line(on) } else { String::new() };
        write!(
            self.out,
            "\n[[regfile.bundle.register]]\nname = \"{name}\"\noffset = {offset}\n\
             access = \"{access}\"\n{arch}"
        )
        .unwrap();
        if self.chance(1, 6)? {
            let width = if self.wrong(20)? {
                number(self.u, 64)?
            } else {
                32
            };
            writeln!(self.out, "width = {width}").unwrap();
        }
        let reset: Option<u64> = if self.chance(1, 3)? {
            Some(if self.wrong(30)? {
                number(self.u, u64::MAX)?
            } else {
                u64::from(self.u.arbitrary::<u32>()?)
            })
        } else {
            None
        };
        if let Some(r) = reset {
            writeln!(self.out, "reset = {r}").unwrap();
        }
        let confidence = self.confidence_line()?;
        self.out.push_str(&confidence);
        // Required: without it the file does not parse, and no check would run.
        if self.wrong(40)? {
            self.out.push_str("evidence = []\n");
        } else {
            writeln!(self.out, "{EVIDENCE}").unwrap();
        }
        let mut fields: Vec<String> = Vec::new();
        let mut lsb = 0u32;
        while lsb < 32 {
            lsb += self.u.int_in_range(0..=3u32)?;
            if lsb >= 32 {
                break;
            }
            // Widest when the input is used up: a few fields, not 32 one-bit ones.
            let most = (32 - lsb).min(12);
            let w = most - self.u.int_in_range(0..=most - 1)?;
            let fname = self.item_name("f", &fields)?;
            fields.push(fname.clone());
            if on.len() >= 2 && w >= 2 && !twin && self.chance(1, 10)? {
                // Two layouts of one field: bits w on some architectures, w - 1 on the rest.
                let (a, b) = self.split(on)?;
                self.field(&fname, lsb, w, access, reset, Some(&a))?;
                self.field(&fname, lsb, w - 1, access, None, Some(&b))?;
            } else {
                self.field(&fname, lsb, w, access, reset, None)?;
            }
            lsb += w;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn field(
        &mut self,
        name: &str,
        lsb: u32,
        w: u32,
        reg_access: &str,
        reg_reset: Option<u64>,
        arch: Option<&[String]>,
    ) -> Result<()> {
        let msb = lsb + w - 1;
        let bits = if self.wrong(50)? {
            match self.u.int_in_range(0..=5u8)? {
                0 => format!("{lsb}:{msb}"),
                1 => format!("{}:{}", msb + 8, lsb),
                2 => "64".into(),
                3 => format!("{}", number(self.u, 100)?),
                4 => "x:y".into(),
                _ => format!("{}:{}", msb.saturating_sub(4), lsb.saturating_sub(4)),
            }
        } else if w == 1 && self.chance(3, 4)? {
            format!("{lsb}")
        } else {
            format!("{msb}:{lsb}")
        };
        write!(
            self.out,
            "\n[[regfile.bundle.register.field]]\nname = \"{name}\"\nbits = \"{bits}\"\n"
        )
        .unwrap();
        if let Some(on) = arch {
            self.out.push_str(&arch_line(on));
        }
        if self.chance(1, 4)? {
            let access = if self.wrong(40)? {
                "RW"
            } else if reg_access == "RW" {
                *self.u.choose(&["RW", "RO", "WO"])?
            } else {
                reg_access
            };
            writeln!(self.out, "access = \"{access}\"").unwrap();
        }
        let mask = (1u64 << w) - 1;
        if self.chance(1, 3)? {
            let reset = match reg_reset {
                _ if self.wrong(40)? => number(self.u, 1 << 33)?,
                Some(r) => (r >> lsb) & mask,
                None => self.u.int_in_range(0..=mask)?,
            };
            writeln!(self.out, "reset = {reset}").unwrap();
        }
        if !self.enums.is_empty() && self.chance(1, 4)? {
            let fits: Vec<String> = (self.enums.iter())
                .filter(|(_, b)| *b <= w)
                .map(|(n, _)| n.clone())
                .collect();
            if fits.is_empty() && !self.wrong(10)? {
                return Ok(());
            }
            let e = if fits.is_empty() || self.wrong(20)? {
                if self.chance(1, 2)? {
                    "NOSUCH".to_string()
                } else {
                    self.u.choose(&self.enums)?.0.clone()
                }
            } else {
                self.u.choose(&fits)?.clone()
            };
            writeln!(self.out, "enum = \"{e}\"").unwrap();
        }
        let confidence = self.confidence_line()?;
        self.out.push_str(&confidence);
        if self.chance(1, 8)? {
            writeln!(self.out, "doc = \"A field.\"\n{EVIDENCE}").unwrap();
        }
        Ok(())
    }
}

/// `arch = ["a0", "a1"]`, a line.
fn arch_line(on: &[String]) -> String {
    let list: Vec<String> = on.iter().map(|a| format!("\"{a}\"")).collect();
    format!("arch = [{}]\n", list.join(", "))
}

/// The TOML text of a spec tree drawn from `data`.
pub fn render(data: &[u8]) -> String {
    let mut u = Unstructured::new(data);
    let mut g = Gen {
        u: &mut u,
        out: String::new(),
        types: Vec::new(),
        opcodes: Vec::new(),
        archs: Vec::new(),
        enums: Vec::new(),
        clean: false,
        next: 0,
    };
    // Running out of bytes ends the tree early; what was written so far is still a spec.
    let _ = g.spec();
    g.out
}
