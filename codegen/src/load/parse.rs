//! Parses one spec file into a [`RawFile`], reporting every syntax and schema problem in it
//! rather than the first (serde stops at the first). After each schema error the loader
//! repairs its copy of the tree and deserializes again: a misspelled key is renamed to the
//! key it most likely means (or dropped), and a declaration with a missing or mistyped
//! value is dropped whole, so the rest of the file still feeds the later checks. The names
//! the dropped declarations define are returned, so that errors which only follow from
//! the drop ("unknown type `X`") can be suppressed.

use std::borrow::Cow;
use std::ops::Range;

use serde::Deserialize;
use serde_spanned::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

use crate::diagnostics::did_you_mean;
use crate::schema::RawFile;

/// At most this many schema errors are reported per file.
const MAX_ERRORS: usize = 100;

/// What one file yields.
pub(super) struct Parsed {
    /// `None` when the file cannot be read as TOML at all.
    pub raw: Option<RawFile>,
    pub errors: Vec<(Range<usize>, String)>,
    /// `name` / `id` values of the declarations that were dropped, with the index in
    /// `errors` of the error that dropped them.
    pub dropped: Vec<(String, usize)>,
}

pub(super) fn parse(text: &str) -> Parsed {
    let (mut tree, syntax) = DeTable::parse_recoverable(text);
    let mut out = Parsed {
        raw: None,
        errors: Vec::new(),
        dropped: Vec::new(),
    };
    if !syntax.is_empty() {
        for e in &syntax {
            out.errors
                .push((e.span().unwrap_or(0..0), e.message().trim().to_string()));
        }
        // The recovered tree is a guess; use it only to know what the file declares.
        declared_names(&DeValue::Table(tree.into_inner()), 0, &mut out.dropped);
        return out;
    }
    while out.errors.len() < MAX_ERRORS {
        let e = match RawFile::deserialize(toml::de::Deserializer::from(tree.clone())) {
            Ok(raw) => {
                out.raw = Some(raw);
                return out;
            }
            Err(e) => e,
        };
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim().to_string();
        let index = out.errors.len();
        let repaired = match unknown_field(&message) {
            Some((key, expected)) => {
                let guess = did_you_mean(key, expected.iter().copied());
                // A top-level key is a table's header (`[[strcut]]`).
                let what = match tree.get_ref().keys().any(|k| k.span() == span) {
                    true => "table",
                    false => "field",
                };
                let text = match guess {
                    Some(g) => format!("unknown {what} `{key}`; did you mean `{g}`?"),
                    None => message.replacen("unknown field", &format!("unknown {what}"), 1),
                };
                out.errors.push((span.clone(), text));
                match rename_key(tree.get_mut(), &span, guess) {
                    Some(dropped) => {
                        if let Some(v) = dropped {
                            declared_names(v.get_ref(), index, &mut out.dropped);
                        }
                        true
                    }
                    None => false,
                }
            }
            None => {
                out.errors.push((span.clone(), message));
                drop_declaration(tree.get_mut(), &span, index, &mut out.dropped)
            }
        };
        if !repaired {
            break;
        }
    }
    let last = out.errors.len().saturating_sub(1);
    declared_names(&DeValue::Table(tree.into_inner()), last, &mut out.dropped);
    out
}

/// The names a file's text declares, read as far as it parses (for a file that is not
/// loaded: what it declares is not unknown elsewhere).
pub(super) fn declared(text: &str) -> Vec<String> {
    let (tree, _) = DeTable::parse_recoverable(text);
    let mut out = Vec::new();
    declared_names(&DeValue::Table(tree.into_inner()), 0, &mut out);
    out.into_iter().map(|(name, _)| name).collect()
}

/// `unknown field `k`, expected one of `a`, `b`` (serde's wording) -> (`k`, [`a`, `b`]).
fn unknown_field(message: &str) -> Option<(&str, Vec<&str>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    let expected = rest.split('`').skip(1).step_by(2).collect();
    Some((key, expected))
}

/// Renames the key at `span` to `guess`, or removes it. When its table has `guess`
/// already, as a table whose keys the renamed value lacks (`[[strcut]]` then
/// `[[struct.field]]`, which makes an implicit `struct`), that table's keys move into the
/// renamed value (its last element, for an array of tables), as the author meant them.
/// Returns the value removed, if it was (`None`: the key was not found).
fn rename_key<'i>(
    table: &mut DeTable<'i>,
    span: &Range<usize>,
    guess: Option<&str>,
) -> Option<Option<Spanned<DeValue<'i>>>> {
    let Some(key) = table.keys().find(|k| k.span() == *span).cloned() else {
        return table.iter_mut().find_map(|(_, v)| match v.get_mut() {
            DeValue::Table(t) => rename_key(t, span, guess),
            DeValue::Array(a) => a.iter_mut().find_map(|v| match v.get_mut() {
                DeValue::Table(t) => rename_key(t, span, guess),
                _ => None,
            }),
            _ => None,
        });
    };
    let (_, mut value) = table.remove_entry(key.get_ref().as_ref())?;
    let Some(g) = guess else {
        return Some(Some(value));
    };
    if let Some((gk, there)) = table.remove_entry(g) {
        match merge_into(&mut value, there) {
            Ok(()) => {}
            Err(there) => {
                table.insert(gk, there);
                return Some(Some(value));
            }
        }
    }
    table.insert(Spanned::new(key.span(), Cow::Owned(g.to_string())), value);
    Some(None)
}

/// Moves the keys of the table `there` into `value` (its last element, for an array of
/// tables) when none of them is in it already; gives `there` back otherwise.
fn merge_into<'i>(
    value: &mut Spanned<DeValue<'i>>,
    there: Spanned<DeValue<'i>>,
) -> Result<(), Spanned<DeValue<'i>>> {
    let target = match value.get_mut() {
        DeValue::Table(t) => Some(t),
        DeValue::Array(a) => a.iter_mut().last().and_then(|v| match v.get_mut() {
            DeValue::Table(t) => Some(t),
            _ => None,
        }),
        _ => None,
    };
    let span = there.span();
    let from = match there.into_inner() {
        DeValue::Table(from) => from,
        other => return Err(Spanned::new(span, other)),
    };
    let Some(target) =
        target.filter(|t| !from.keys().any(|k| t.contains_key(k.get_ref().as_ref())))
    else {
        return Err(Spanned::new(span, DeValue::Table(from)));
    };
    for (k, v) in from {
        target.insert(k, v);
    }
    Ok(())
}

/// Removes the outermost array element (a `[[struct]]`, a `[[klr.leaf]]`, …) or, outside
/// any array, the top-level entry that holds `span`. Returns whether anything was removed.
fn drop_declaration(
    root: &mut DeTable<'_>,
    span: &Range<usize>,
    error: usize,
    dropped: &mut Vec<(String, usize)>,
) -> bool {
    // Arrays of tables interleave (`[[enum]]`, `[[struct]]`, `[[enum]]`), so several
    // entries may reach over `span`.
    let keys: Vec<_> = (root.iter())
        .filter(|(k, v)| contains(extent(v), span) || contains(k.span(), span))
        .map(|(k, v)| (k.clone(), extent(v).len()))
        .collect();
    for (key, _) in &keys {
        if let Some(removed) = remove_element(root[key.get_ref().as_ref()].get_mut(), span) {
            declared_names(removed.get_ref(), error, dropped);
            return true;
        }
    }
    let Some((key, _)) = keys.iter().min_by_key(|(_, len)| *len) else {
        return false;
    };
    if let Some((_, v)) = root.remove_entry(key.get_ref().as_ref()) {
        declared_names(v.get_ref(), error, dropped);
    }
    true
}

/// Takes the outermost array element below `value` that holds `span` out of its array.
fn remove_element<'i>(
    value: &mut DeValue<'i>,
    span: &Range<usize>,
) -> Option<Spanned<DeValue<'i>>> {
    match value {
        DeValue::Array(a) => {
            let at = a.iter().position(|v| contains(extent(v), span))?;
            let mut items: Vec<_> = std::mem::replace(a, DeArray::new()).into_iter().collect();
            let removed = items.remove(at);
            *a = items.into_iter().collect();
            Some(removed)
        }
        DeValue::Table(t) => t
            .iter_mut()
            .filter(|(_, v)| contains(extent(v), span))
            .find_map(|(_, v)| remove_element(v.get_mut(), span)),
        _ => None,
    }
}

/// The bytes `value` and everything in it span (a `[[table]]`'s own span is its header).
fn extent(value: &Spanned<DeValue<'_>>) -> Range<usize> {
    let inner: Vec<Range<usize>> = match value.get_ref() {
        DeValue::Table(t) => t.iter().flat_map(|(k, v)| [k.span(), extent(v)]).collect(),
        DeValue::Array(a) => a.iter().map(extent).collect(),
        _ => Vec::new(),
    };
    inner
        .into_iter()
        .fold(value.span(), |a, b| a.start.min(b.start)..a.end.max(b.end))
}

fn contains(outer: Range<usize>, inner: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end && outer != (0..0)
}

/// The names `value` declares: a table's own `name` or `id`, or, for a table without
/// one (the file, `[klr]`) and for an array, those of the tables inside it.
fn declared_names(value: &DeValue<'_>, error: usize, out: &mut Vec<(String, usize)>) {
    match value {
        DeValue::Table(t) => {
            let own: Vec<&str> = ["name", "id"]
                .iter()
                .filter_map(|k| t.get(*k).and_then(|v| v.get_ref().as_str()))
                .collect();
            if own.is_empty() {
                t.iter()
                    .for_each(|(_, v)| declared_names(v.get_ref(), error, out));
            }
            out.extend(own.into_iter().map(|n| (n.to_string(), error)));
        }
        DeValue::Array(a) => a
            .iter()
            .for_each(|v| declared_names(v.get_ref(), error, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_declaration_is_dropped_alone_and_its_name_kept() {
        let text = "[[enum]]\nname = \"A\"\nc_name = \"A\"\nrepr = \"u8\"\ndco = \"d\"\n\
                    confidence = \"HIGH\"\nevidence = []\nvalues = []\n\n\
                    [[enum]]\nname = \"B\"\nrepr = \"u8\"\ndoc = \"d\"\n\
                    confidence = \"HIGH\"\nevidence = []\nvalues = []\n";
        let parsed = parse(text);
        let messages: Vec<&str> = parsed.errors.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "unknown field `dco`; did you mean `doc`?",
                "missing field `c_name`"
            ]
        );
        let raw = parsed.raw.expect("the rest of the file is read");
        assert_eq!(raw.enums.len(), 1);
        assert_eq!(raw.enums[0].doc, "d");
        assert_eq!(parsed.dropped, [("B".to_string(), 1)]);
    }

    #[test]
    fn a_broken_table_between_two_of_another_kind_is_dropped_alone() {
        let text = "[[arch]]\nname = \"a\"\nnc = 1\ndoc = \"d\"\n\n\
                    [[source]]\nid = \"s\"\ntitle = \"t\"\nfile = 7\nscale = \"x\"\n\n\
                    [[arch]]\nname = \"b\"\nnc = 2\ndoc = \"d\"\n";
        let parsed = parse(text);
        assert_eq!(parsed.errors.len(), 1, "{:?}", parsed.errors);
        let raw = parsed.raw.expect("the rest of the file is read");
        assert_eq!((raw.arch.len(), raw.source.len()), (2, 0));
        assert_eq!(parsed.dropped, [("s".to_string(), 0)]);
    }
}
