//! The text inputs that are JSON or TOML (`encode`'s list, `--vars`), read as one JSON
//! value: TOML by its extension in any case (`x.TOML`), JSON otherwise. A key given twice
//! is refused in both (serde_json alone keeps the last), and so is a TOML date-time, which
//! no field takes.

use std::path::Path;

use crate::names::echo;
use serde_json::{Map, Number, Value as Json};

/// Whether `path` is read as TOML: its extension is `toml`, in any case.
pub fn is_toml(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
}

/// The document `text` holds, as JSON: TOML when `toml`, else JSON.
pub fn parse(text: &str, toml: bool) -> Result<Json, String> {
    if !toml {
        return crate::json::from_str_strict(text).map_err(|e| e.to_string());
    }
    let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    from_toml(toml::Value::Table(table), "")
}

/// A TOML value as JSON; `at` is its key path, for the error of a date-time.
fn from_toml(v: toml::Value, at: &str) -> Result<Json, String> {
    Ok(match v {
        toml::Value::String(s) => Json::String(s),
        toml::Value::Integer(i) => Json::Number(i.into()),
        toml::Value::Float(f) => Number::from_f64(f)
            .map(Json::Number)
            .ok_or_else(|| format!("`{}`: {f} is not a number JSON can hold", echo(at)))?,
        toml::Value::Boolean(b) => Json::Bool(b),
        toml::Value::Datetime(d) => {
            return Err(format!(
                "`{}`: {d} is a TOML date-time; no value here is one (quote it for a text)",
                echo(at)
            ));
        }
        toml::Value::Array(list) => Json::Array(
            list.into_iter()
                .enumerate()
                .map(|(i, v)| from_toml(v, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        toml::Value::Table(t) => {
            let mut obj = Map::new();
            for (k, v) in t {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                obj.insert(k, from_toml(v, &path)?);
            }
            Json::Object(obj)
        }
    })
}
