//! What one byte-map cell says: an offset (`+0x10`, `0x10`, `16`, `[16..20)`, `+0x04[7:4]`,
//! `(_DWORD)v104+3`), a bit range (`[15:0]`, `0..28`, `b5..6`), a width (`4`, `b16`, `8 B`),
//! a field name (`` `instr.src_num_elem[0]` ``, `inst_word_len = 0x10`) or a C type.
//! Every reader returns `None` for text it does not understand.

use crate::model::registers::Access;

/// Where a row puts its field, in bits from the start of the item, and how wide it says
/// the field is (`None` when neither the cell nor a width column says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: u64,
    pub width: Option<u64>,
}

/// The markup a cell may wrap its text in.
fn plain(cell: &str) -> String {
    cell.replace(['`', '*'], "").trim().to_string()
}

/// A decimal or `0x` number at the start of `s`, and the rest.
fn number(s: &str) -> Option<(u64, &str)> {
    let s = s.trim_start();
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        let end = hex
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(hex.len());
        return Some((u64::from_str_radix(&hex[..end], 16).ok()?, &hex[end..]));
    }
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// A byte-offset cell: the byte, optionally a bit range within it (`[7:4]`) or an end
/// (`..20)` exclusive, `..+0x0B` inclusive).
pub fn offset(cell: &str) -> Option<Span> {
    let t = plain(cell);
    // The DGE arm's `(_DWORD)v104+N`: element N of an array of the cast's width.
    for (cast, unit) in [
        ("(_DWORD)", 4),
        ("(_WORD)", 2),
        ("(_BYTE)", 1),
        ("(_QWORD)", 8),
    ] {
        if let Some(rest) = t.strip_prefix(cast) {
            let (_, index) = rest.split_once('+')?;
            let (n, _) = number(index)?;
            return Some(Span {
                start: n.checked_mul(unit * 8)?,
                width: Some(unit * 8),
            });
        }
    }
    let (t, exclusive_end) = match t.strip_prefix('[') {
        Some(inner) => (inner.to_string(), inner.contains(')')),
        None => (t.clone(), false),
    };
    let t = t.trim_start_matches(['+', '@']);
    let (byte, rest) = number(t)?;
    let start = byte.checked_mul(8)?;
    let rest = rest.trim_start();
    if let Some(bits) = rest.strip_prefix('[') {
        let (lo, width) = bit_range(bits.split(']').next()?)?;
        return Some(Span {
            start: start.checked_add(lo)?,
            width: Some(width),
        });
    }
    let end = rest
        .strip_prefix("..")
        .or_else(|| rest.strip_prefix('–'))
        .and_then(|e| number(e.trim_start_matches(['+', '@'])));
    let width = match end {
        None => None,
        Some((end, _)) => {
            let last = if exclusive_end {
                end.checked_sub(1)
            } else {
                Some(end)
            };
            match last.and_then(|l| l.checked_sub(byte)) {
                // An end before the start says no width.
                None => None,
                // An end too far to count in bits: the cell cannot be placed
                // ([`out_of_range`] says why), rather than read without its end.
                Some(d) => Some(d.checked_add(1)?.checked_mul(8)?),
            }
        }
    };
    Some(Span { start, width })
}

/// A bit-range cell (`[15:0]`, `30:29`, `0..28`, `b5..6`, `[17]`, `b7`): `(lsb, width)`.
pub fn bit_range(cell: &str) -> Option<(u64, u64)> {
    let t = plain(cell);
    let t = t.trim_matches(|c| c == '[' || c == ']').trim();
    let t = t.strip_prefix('b').unwrap_or(t);
    let (a, rest) = number(t)?;
    let rest = rest.trim_start();
    let b = match rest.strip_prefix(':').or_else(|| rest.strip_prefix("..")) {
        Some(r) => number(r)?.0,
        None => a,
    };
    let (lo, hi) = (a.min(b), a.max(b));
    (hi < MAX_BITS).then(|| (lo, hi - lo + 1))
}

/// The bits a bit range may reach: past them a range is no field of any item.
const MAX_BITS: u64 = 4096;

/// Why an offset cell (`bits`: of a bits column) that [`offset`] or [`bit_range`] could not
/// read holds a position the audit cannot place: a number too large for 64 bits, a bit past
/// [`MAX_BITS`], a byte whose bit offset is too large. `None` for a cell with no such number
/// (prose, a dash), which is no row at all.
pub fn out_of_range(cell: &str, bits: bool) -> Option<String> {
    let t = plain(cell);
    let mut rest = t.as_str();
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let s = &rest[at..];
        let (digits, radix, tail) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => {
                let end = hex
                    .find(|c: char| !c.is_ascii_hexdigit())
                    .unwrap_or(hex.len());
                (&hex[..end], 16, &hex[end..])
            }
            None => {
                let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
                (&s[..end], 10, &s[end..])
            }
        };
        rest = tail;
        let Ok(n) = u64::from_str_radix(digits, radix) else {
            if digits.is_empty() {
                continue;
            }
            return Some(format!(
                "{} does not fit in 64 bits",
                &s[..s.len() - tail.len()]
            ));
        };
        if bits && n >= MAX_BITS {
            return Some(format!(
                "bit {n} is past the {MAX_BITS} bits a field may reach"
            ));
        }
        if !bits && n.checked_mul(8).is_none() {
            return Some(format!("byte {n} is past the bits a 64-bit offset counts"));
        }
    }
    None
}

/// A width cell, in bits: `4` and `8 B` are bytes, `b16` is bits. A number that goes on
/// (`4.5`, `2^61`) or is too large to count in bits is no width.
pub fn width(cell: &str) -> Option<u64> {
    let t = plain(cell);
    let whole = |(n, rest): (u64, &str)| {
        rest.chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || c == '(' || c == 'B')
            .then_some(n)
    };
    if let Some(bits) = t.strip_prefix('b') {
        return number(bits).and_then(whole);
    }
    whole(number(&t)?)?.checked_mul(8)
}

/// Why a width cell [`width`] cannot read is no width: `None` for a cell that gives none
/// (empty, a dash, `?`).
pub fn unreadable_width(cell: &str) -> Option<String> {
    let t = plain(cell);
    let absent = t.is_empty() || ["-", "—", "–", "?"].contains(&t.as_str());
    (!absent && width(cell).is_none())
        .then(|| format!("width `{t}` is not a whole number of bytes (or `bN` bits) that fits"))
}

/// An access cell (`RW`, `**RO**`, `W/O`), or `None` for anything else.
pub fn access(cell: &str) -> Option<Access> {
    Access::parse(&plain(cell).to_ascii_uppercase().replace('/', ""))
}

/// A reset cell that is one number (`0`, `**1**`, `` `0xe` ``), or `None`.
pub fn reset(cell: &str) -> Option<u64> {
    let t = plain(cell);
    let (n, rest) = number(&t)?;
    rest.trim().is_empty().then_some(n)
}

/// The names a field-name cell may give, most likely first: each backticked identifier
/// and the identifier the cell starts with, lower-cased, `instr.` dropped
/// (`` `instr.src_step_elem[0]` `` -> `src_step_elem[0]`; `opcode = 0xD4` -> `opcode`).
pub fn names(cell: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: &str| {
        let s = s.trim().trim_start_matches("instr.").to_ascii_lowercase();
        if is_ident(&s) && !out.contains(&s) {
            out.push(s);
        }
    };
    for (i, span) in cell.split('`').enumerate() {
        if i % 2 == 1 {
            push(span.split([' ', ':', '=']).next().unwrap_or(""));
        }
    }
    let lead = cell.trim_start_matches(['*', ' ']);
    if !lead.starts_with('`') {
        let end = lead
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_.[]".contains(c)))
            .unwrap_or(lead.len());
        push(&lead[..end]);
    }
    // Prose up to a value or a remark, as a snake-case name (`bound-result reg`).
    let prose = cell.split(['`', '=', '(', ';', ',']).next().unwrap_or("");
    let snake: Vec<String> = prose
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    push(&snake.join("_"));
    out
}

/// A field name or path: `a_b`, `events.wait_idx`, `src_num_elem[0]`; not a number.
fn is_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c))
}

/// A C type cell in the spec's spelling (`uint16_t[2]` -> `u16[2]`, `int32_t` -> `i32`,
/// a named type as written), or `None` for prose.
pub fn type_name(cell: &str) -> Option<String> {
    let t = plain(cell);
    let word = t.split_whitespace().next()?;
    let (base, array) = match word.find('[') {
        Some(i) => (&word[..i], &word[i..]),
        None => (word, ""),
    };
    let base = match base {
        "uint8_t" | "u8" => "u8",
        "uint16_t" | "u16" => "u16",
        "uint32_t" | "u32" => "u32",
        "uint64_t" | "u64" => "u64",
        "int8_t" | "i8" => "i8",
        "int16_t" | "i16" => "i16",
        "int32_t" | "i32" => "i32",
        "int64_t" | "i64" => "i64",
        b if is_ident(b) && b.chars().all(|c| !c.is_ascii_lowercase()) => b,
        _ => return None,
    };
    Some(format!("{base}{array}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start_byte: u64, width_bits: Option<u64>) -> Option<Span> {
        Some(Span {
            start: start_byte * 8,
            width: width_bits,
        })
    }

    #[test]
    fn offsets_as_the_pages_write_them() {
        assert_eq!(offset("`+0x10`"), at(16, None));
        assert_eq!(offset("0x10"), at(16, None));
        assert_eq!(offset("16"), at(16, None));
        assert_eq!(offset("[16..20)"), at(16, Some(32)));
        assert_eq!(offset("`+0x04..+0x0B`"), at(4, Some(64)));
        assert_eq!(
            offset("+0x04[7:4]"),
            Some(Span {
                start: 36,
                width: Some(4)
            })
        );
        assert_eq!(offset("`(_DWORD)v104+3`"), at(12, Some(32)));
        assert_eq!(offset("—"), None);
        assert_eq!(offset("99999999999999999999"), None);
    }

    #[test]
    fn bits_widths_names_types() {
        assert_eq!(bit_range("[15:0]"), Some((0, 16)));
        assert_eq!(bit_range("`0..28`"), Some((0, 29)));
        assert_eq!(bit_range("b7"), Some((7, 1)));
        assert_eq!(bit_range("0..18446744073709551615"), None);
        assert!(out_of_range("0..18446744073709551615", true).is_some());
        assert!(out_of_range("99999999999999999999", false).is_some());
        assert!(out_of_range("0x2000000000000000", false).is_some());
        assert_eq!(out_of_range("—", true), None);
        assert_eq!(out_of_range("[15:0]", true), None);
        assert_eq!(width("b16"), Some(16));
        assert_eq!(width("8 B"), Some(64));
        assert_eq!(names("`instr.src_step_elem[0]`"), ["src_step_elem[0]"]);
        assert_eq!(names("opcode = `0xD4`"), ["opcode"]);
        assert_eq!(names("idx-AP meta"), ["idx", "idx_ap_meta"]);
        assert_eq!(names("**SRC `ADDR8`**"), ["addr8", "src"]);
        assert_eq!(type_name("`uint16_t[2]`"), Some("u16[2]".into()));
        assert_eq!(
            type_name("`NEURON_ISA_TPB_HEADER`"),
            Some("NEURON_ISA_TPB_HEADER".into())
        );
        assert_eq!(type_name("wait/update semaphore"), None);
        assert_eq!(access("**R/W**"), Some(Access::RW));
        assert_eq!(access("role"), None);
        assert_eq!(reset("`0xe`"), Some(14));
        assert_eq!(reset("**1**"), Some(1));
        assert_eq!(reset("—"), None);
    }
}
