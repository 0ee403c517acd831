//! Names the user types (a register file, bundle, register, field, record or field path):
//! one rule for every verb, `crate::names::lookup`'s, and its "did you mean".

/// The item of `items` that `typed` names (`name` gives each one's): its exact name, else
/// the only name equal to it but for case. `Err` with the name it most likely misspells.
pub fn named<'t, T>(
    items: &'t [T],
    name: impl Fn(&T) -> &'static str,
    typed: &str,
) -> Result<&'t T, Option<&'static str>> {
    let found = crate::names::lookup(typed, items.iter().map(&name))?;
    items.iter().find(|i| name(i) == found).ok_or(None)
}

/// ` (did you mean `X`?)` when `typed` is most likely a misspelling of `X`, one of `names`.
pub fn did_you_mean<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    hint(crate::names::nearest(typed, names.into_iter()))
}

/// ` (did you mean `X`?)` for a `guess`, else nothing.
pub fn hint(guess: Option<&str>) -> String {
    guess.map_or(String::new(), |g| format!(" (did you mean `{g}`?)"))
}
