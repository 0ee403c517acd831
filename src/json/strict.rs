//! JSON values with every key once. serde_json keeps the last of two equal keys without a
//! word (`{"semaphore": 1, "semaphore": 2}` is 2), so an edit written above an old value
//! could vanish; TOML refuses such a document, and so does [`Strict`].
//!
//! ```
//! use dmaspec::json::from_str_strict;
//!
//! assert!(from_str_strict(r#"{"a": {"b": 1}, "c": [2]}"#).is_ok());
//! let e = from_str_strict(r#"{"a": 1, "a": 2}"#).unwrap_err();
//! assert_eq!(e.to_string(), "duplicate key `a` at line 1 column 12");
//! ```

use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value as Json};

use crate::names::echo;

/// A JSON value read with every key of each object once: a key given twice is an error
/// naming it.
pub struct Strict(pub Json);

/// The JSON value of `text`, refusing a key given twice in one object ([`Strict`]).
pub fn from_str_strict(text: &str) -> Result<Json, serde_json::Error> {
    serde_json::from_str::<Strict>(text).map(|s| s.0)
}

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Number::from_f64(v).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut list = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            list.push(v);
        }
        Ok(Json::Array(list))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if obj.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "duplicate key `{}`",
                    echo(&key)
                )));
            }
            let Strict(v) = map.next_value()?;
            obj.insert(key, v);
        }
        Ok(Json::Object(obj))
    }
}
