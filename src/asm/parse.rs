//! A line back to its 64 bytes: the mnemonic picks the layout, each operand sets fields
//! over the layout's template, and a word is laid out by the JSON encoder
//! ([`crate::json::encode_instruction`]), which range-checks every value and refuses a
//! union arm its discriminator does not select.

use serde_json::{Map, Value as Json, json};

use crate::json::encode_instruction;
use crate::names::{echo, nearest};
use crate::words::{Arch, WORDS, Word, enumerators};

use super::error::AsmError;
use super::events;
use super::layout::{Layout, Slot};
use super::value::{self, is_text};

/// One token and the column (from 1, in characters) it starts at.
type Token<'l> = (usize, &'l str);

/// The bytes of `line`; `None` for a blank line or a `#` comment.
pub fn assemble(line: &str, arch: Arch) -> Result<Option<[u8; 64]>, AsmError> {
    let Some(tokens) = lex(line)? else {
        return Ok(None);
    };
    let (&(col, mnemonic), operands) = tokens
        .split_first()
        .ok_or(AsmError::new(1, "expected a mnemonic"))?;
    if mnemonic == ".word" {
        return raw_word(col, operands).map(Some);
    }
    let layout = resolve(mnemonic, arch).map_err(|m| AsmError::new(col, m))?;
    let slots = layout.slots();
    let mut set: Vec<(String, Json, usize)> = Vec::new();
    let mut bytes = layout.template();
    let mut raw = Vec::new();
    for &(col, tok) in operands {
        for (key, v) in operand(&layout, &slots, col, tok, &mut raw)? {
            match set.iter().find(|(k, _, _)| *k == key) {
                Some((_, old, _)) if *old != v => {
                    return Err(AsmError::new(
                        col,
                        format!(
                            "`{key}` is given twice, as {} and {}",
                            echo(&old.to_string()),
                            echo(&v.to_string())
                        ),
                    ));
                }
                Some(_) => {}
                None => set.push((key, v, col)),
            }
        }
    }
    match layout {
        Layout::Word(w) => {
            let mut fields = Map::new();
            for (key, v, _) in &set {
                insert(&mut fields, key, v.clone());
            }
            let ins = json!({ "struct": w.name, "fields": fields });
            bytes = encode_instruction(0, &ins).map_err(|errors| {
                let message = errors.first().map_or(String::new(), |e| e.message.clone());
                let at = set
                    .iter()
                    .find(|(k, _, _)| message.contains(&format!("`{k}`")))
                    .map_or(col, |s| s.2);
                AsmError::new(at, message)
            })?;
        }
        Layout::Opcode(..) => {
            for (key, v, col) in &set {
                if let Some(s) = slots.iter().find(|s| s.key == *key) {
                    crate::json::write_leaf(&s.leaf, v, &mut bytes)
                        .map_err(|m| AsmError::new(*col, format!("`{key}`: {m}")))?;
                }
            }
        }
    }
    for (start, data) in raw {
        bytes[start..start + data.len()].copy_from_slice(&data);
    }
    Ok(Some(bytes))
}

/// The fields one operand sets (key, value); a `raw[a..b]=0x…` operand goes to `raw`.
fn operand(
    layout: &Layout,
    slots: &[Slot],
    col: usize,
    tok: &str,
    raw: &mut Vec<(usize, Vec<u8>)>,
) -> Result<Vec<(String, Json)>, AsmError> {
    if tok.starts_with('$') {
        let prefix = events::prefix(slots.iter().map(|s| (s.key.as_str(), s.leaf.type_name)))
            .ok_or_else(|| {
                AsmError::new(col, format!("{} has no events block", layout.mnemonic()))
            })?;
        return events::parse(prefix, tok).map_err(|m| AsmError::new(col, m));
    }
    let Some((key, text)) = tok.split_once('=') else {
        // A bare operand is the text of the first text field (a queue name).
        let slot = slots.iter().find(|s| is_text(&s.leaf)).ok_or_else(|| {
            AsmError::new(
                col,
                format!("expected `name=value` or `$S[…]`, got `{}`", echo(tok)),
            )
        })?;
        let v = value::parse(&slot.leaf, tok).map_err(|m| AsmError::new(col, m))?;
        return Ok(vec![(slot.key.clone(), v)]);
    };
    let vcol = col + key.chars().count() + 1;
    if let Some(range) = key.strip_prefix("raw[") {
        raw.push(raw_bytes(layout, range, text).map_err(|m| AsmError::new(col, m))?);
        return Ok(Vec::new());
    }
    let Some(slot) = slots.iter().find(|s| s.key == key) else {
        let guess = nearest(key, slots.iter().map(|s| s.key.as_str()))
            .map_or(String::new(), |g| format!("; did you mean `{g}`?"));
        return Err(AsmError::new(
            col,
            format!("{} has no field `{}`{guess}", layout.mnemonic(), echo(key)),
        ));
    };
    let v = value::parse(&slot.leaf, text).map_err(|m| AsmError::new(vcol, m))?;
    Ok(vec![(slot.key.clone(), v)])
}

/// `a..b]` and `0x…` of `raw[a..b]=0x…`: bytes the layout names no field for.
fn raw_bytes(layout: &Layout, range: &str, text: &str) -> Result<(usize, Vec<u8>), String> {
    let from = layout.raw_from();
    let expected = || format!("expected `raw[a..b]=0x…` with {from} <= a < b <= 64");
    let (a, b) = range
        .strip_suffix(']')
        .and_then(|r| r.split_once(".."))
        .ok_or_else(expected)?;
    let (a, b) = (a.parse::<usize>(), b.parse::<usize>());
    let (Ok(a), Ok(b)) = (a, b) else {
        return Err(expected());
    };
    if !(from <= a && a < b && b <= 64) {
        return Err(expected());
    }
    let data = hex(text.strip_prefix("0x").ok_or_else(expected)?)
        .ok_or_else(|| format!("`{}` is not hex bytes", echo(text)))?;
    if data.len() != b - a {
        return Err(format!(
            "raw[{a}..{b}] is {} bytes, got {}",
            b - a,
            data.len()
        ));
    }
    Ok((a, data))
}

/// `.word 0x…`: all 64 bytes.
fn raw_word(col: usize, operands: &[Token]) -> Result<[u8; 64], AsmError> {
    let expected = || AsmError::new(col, "expected `.word 0x` and 128 hex digits");
    let [(vcol, text)] = operands else {
        return Err(expected());
    };
    let data = text
        .strip_prefix("0x")
        .and_then(hex)
        .ok_or_else(|| AsmError::new(*vcol, format!("`{}` is not hex bytes", echo(text))))?;
    data.try_into().map_err(|_| expected())
}

/// Bytes from pairs of hex digits.
fn hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// The layout a mnemonic names in `arch`: a word (by name or alias), else an `OPCODE`
/// enumerator (its word, if it has one).
fn resolve(mnemonic: &str, arch: Arch) -> Result<Layout, String> {
    let named = |w: &&crate::WordMeta| w.name == mnemonic || w.aliases.contains(&mnemonic);
    if let Some(w) = WORDS.iter().filter(named).find(|w| w.arch.contains(&arch)) {
        return Ok(Layout::Word(w));
    }
    if WORDS.iter().any(|w| named(&w)) {
        return Err(format!("`{mnemonic}` is not a word on {}", arch.name()));
    }
    let opcodes = enumerators("OPCODE").unwrap_or(&[]);
    let on_arch = |e: &&crate::runtime::meta::EnumeratorMeta| {
        e.arch.is_empty() || e.arch.contains(&arch.name())
    };
    if let Some(e) = opcodes
        .iter()
        .filter(on_arch)
        .find(|e| e.name == mnemonic || e.aliases.contains(&mnemonic))
    {
        let mut template = [0u8; 64];
        template[0] = e.value as u8;
        return Ok(Word::identify(&template, arch)
            .map_or(Layout::Opcode(e.value as u8, e.name), Layout::Word));
    }
    let names = WORDS
        .iter()
        .map(|w| w.name)
        .chain(opcodes.iter().map(|e| e.name));
    Err(match nearest(mnemonic, names) {
        Some(g) => format!("unknown mnemonic `{}`; did you mean `{g}`?", echo(mnemonic)),
        None => format!(
            "unknown mnemonic `{}` (a word, an OPCODE enumerator or `.word`)",
            echo(mnemonic)
        ),
    })
}

/// Sets `value` at the leaf path `path` (`a.b[2].c`) of `fields`, making the objects and
/// array elements on the way.
fn insert(fields: &mut Map<String, Json>, path: &str, value: Json) {
    let (head, rest) = match path.find(['.', '[']) {
        Some(i) => (&path[..i], Some(&path[i..])),
        None => (path, None),
    };
    let Some(rest) = rest else {
        fields.insert(head.to_string(), value);
        return;
    };
    let entry = fields.entry(head.to_string());
    if let Some(after) = rest.strip_prefix('.') {
        let obj = entry.or_insert_with(|| Json::Object(Map::new()));
        if let Json::Object(m) = obj {
            insert(m, after, value);
        }
    } else if let Some((index, after)) = rest[1..].split_once(']') {
        let arr = entry.or_insert_with(|| Json::Array(Vec::new()));
        let (Json::Array(items), Ok(i)) = (arr, index.parse::<usize>()) else {
            return;
        };
        if items.len() <= i {
            items.resize(i + 1, Json::Object(Map::new()));
        }
        if let (Json::Object(m), Some(after)) = (&mut items[i], after.strip_prefix('.')) {
            insert(m, after, value);
        }
    }
}

/// The tokens of a line up to its `;` (text in `"…"` may hold spaces); `None` for a blank
/// line or a comment. After the `;` only a `#` comment may follow.
fn lex(line: &str) -> Result<Option<Vec<Token<'_>>>, AsmError> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let mut tokens = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut quoted = false;
    for (col, (i, c)) in line.char_indices().enumerate().map(|(n, ic)| (n + 1, ic)) {
        if quoted {
            quoted = c != '"';
            continue;
        }
        match c {
            ';' | ' ' | '\t' | '\r' => {
                if let Some((s, scol)) = start.take() {
                    tokens.push((scol, &line[s..i]));
                }
                if c == ';' {
                    let after = line[i + 1..].trim_start();
                    if !(after.is_empty() || after.starts_with('#')) {
                        let at = col + 1 + line[i + 1..].chars().count() - after.chars().count();
                        return Err(AsmError::new(
                            at,
                            "nothing but a `#` comment may follow `;`",
                        ));
                    }
                    return Ok(Some(tokens));
                }
            }
            _ => {
                quoted = c == '"';
                start.get_or_insert((i, col));
            }
        }
    }
    let end = line.chars().count() + 1;
    let message = if quoted {
        "the text has no closing `\"`"
    } else {
        "expected `;` at the end of the line"
    };
    Err(AsmError::new(end, message))
}
