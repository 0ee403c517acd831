//! The semaphore operands of a word's events block, as the producer prints them:
//! `$S[10]>0` (wait until semaphore 10 is greater than the block's `semaphore_value`) and
//! `$S[22]++@complete` (increment semaphore 22 on completion): pe.asm and pool.asm on the
//! page "Per-Engine TPB-Sequencer Microcode (64-byte word)" §7.1 and §7.2, over wait mode
//! 0x04 and update mode 0x13. The other immediate compares and semaphore updates are
//! written the same way (our extension: `>=`, `==`, `<=`, `<`; `--`, `+=v`, `-=v`, `=v`;
//! `@read` for the read-complete modes). The event and register modes have no such form:
//! they print as fields (`events.wait_mode=WAIT_FOR_EVT_SET events.wait_idx=3`).
//!
//! Both forms share one value, the block's `semaphore_value`: a wait and an update that
//! both show it show the same number.

use serde_json::{Value as Json, json};

use super::value::number;
use crate::names::echo;

/// Wait modes with a compare form: (WAIT_MODE enumerator, operator). Longer operators come
/// first, so that reading tries `>=` before `>`.
pub const WAITS: &[(&str, &str)] = &[
    ("WAIT_FOR_SEM_GE_IMM", ">="),
    ("WAIT_FOR_SEM_LE_IMM", "<="),
    ("WAIT_FOR_SEM_EQ_IMM", "=="),
    ("WAIT_FOR_SEM_GT_IMM", ">"),
    ("WAIT_FOR_SEM_LT_IMM", "<"),
];

/// Update modes with a form: (UPDATE_MODE enumerator, operator, when). An operator ending
/// in `=` takes the block's value.
pub const UPDATES: &[(&str, &str, &str)] = &[
    ("SEM_INC_COMPLETE", "++", "complete"),
    ("SEM_DEC_COMPLETE", "--", "complete"),
    ("SEM_ADD_IMM_COMPLETE", "+=", "complete"),
    ("SEM_SUB_IMM_COMPLETE", "-=", "complete"),
    ("SEM_WR_IMM_COMPLETE", "=", "complete"),
    ("SEM_INC_READ", "++", "read"),
    ("SEM_DEC_READ", "--", "read"),
    ("SEM_ADD_IMM_READ", "+=", "read"),
    ("SEM_SUB_IMM_READ", "-=", "read"),
    ("SEM_WR_IMM_READ", "=", "read"),
];

const MODE: &str = "wait_mode";

/// The prefix of the events block's keys (`events.`), found by its wait mode's type.
pub(crate) fn prefix<'k>(mut keys: impl Iterator<Item = (&'k str, &'k str)>) -> Option<&'k str> {
    keys.find(|(key, ty)| *ty == "WAIT_MODE" && key.ends_with(MODE))
        .map(|(key, _)| &key[..key.len() - MODE.len()])
}

/// The operands the block's fields print as, and the keys they stand for.
pub(crate) fn print<'j>(
    prefix: &str,
    get: impl Fn(&str) -> Option<&'j Json>,
) -> (Vec<String>, Vec<String>) {
    let key = |name: &str| format!("{prefix}{name}");
    let name = |k: &str| {
        get(&key(k))
            .and_then(|v| v.get("name"))
            .and_then(Json::as_str)
    };
    let num = |k: &str| get(&key(k)).and_then(Json::as_u64);
    let (mut operands, mut consumed) = (Vec::new(), Vec::new());
    let (Some(value), Some(wait_idx), Some(update_idx)) =
        (num("semaphore_value"), num("wait_idx"), num("update_idx"))
    else {
        return (operands, consumed);
    };
    if let Some((_, op)) = name(MODE).and_then(|n| WAITS.iter().find(|w| w.0 == n)) {
        operands.push(format!("$S[{wait_idx}]{op}{value}"));
        consumed.extend([key(MODE), key("wait_idx"), key("semaphore_value")]);
    }
    if let Some((_, op, when)) = name("update_mode").and_then(|n| UPDATES.iter().find(|u| u.0 == n))
    {
        let shown = if op.ends_with('=') {
            consumed.push(key("semaphore_value"));
            value.to_string()
        } else {
            String::new()
        };
        operands.push(format!("$S[{update_idx}]{op}{shown}@{when}"));
        consumed.extend([key("update_mode"), key("update_idx")]);
    }
    (operands, consumed)
}

/// The fields a `$S[…]` operand sets (key, value), or what was expected.
pub(crate) fn parse(prefix: &str, token: &str) -> Result<Vec<(String, Json)>, String> {
    let key = |name: &str| format!("{prefix}{name}");
    let rest = token
        .strip_prefix("$S[")
        .ok_or("a semaphore operand starts with `$S[`")?;
    let (idx, rest) = rest
        .split_once(']')
        .ok_or("expected `]` after the semaphore index")?;
    let idx = number(idx)?;
    if let Some((op, when)) = rest.split_once('@') {
        let (op, value) = split_op(op);
        let (mode, _, _) = UPDATES
            .iter()
            .find(|u| u.1 == op && u.2 == when)
            .ok_or_else(|| update_expected(rest))?;
        let mut set = vec![(key("update_mode"), json!(mode)), (key("update_idx"), idx)];
        if op.ends_with('=') {
            set.push((key("semaphore_value"), number(value)?));
        } else if !value.is_empty() {
            return Err(update_expected(rest));
        }
        return Ok(set);
    }
    let (mode, op) = WAITS
        .iter()
        .find(|w| rest.starts_with(w.1))
        .ok_or_else(|| format!("expected a compare (>, >=, ==, <=, <) or an update (++@complete …) after `$S[…]`, got `{}`", echo(rest)))?;
    Ok(vec![
        (key(MODE), json!(mode)),
        (key("wait_idx"), idx),
        (key("semaphore_value"), number(&rest[op.len()..])?),
    ])
}

/// `+=5` -> (`+=`, `5`); `++` -> (`++`, ``).
fn split_op(op: &str) -> (&str, &str) {
    match op.find('=') {
        Some(i) => op.split_at(i + 1),
        None => (op, ""),
    }
}

fn update_expected(got: &str) -> String {
    format!(
        "expected an update `++`, `--`, `+=v`, `-=v` or `=v` then `@complete` or `@read`, got `{}`",
        echo(got)
    )
}
