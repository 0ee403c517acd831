//! The editor schema: `schema/dmaspec-spec.schema.json`, a JSON Schema (draft 7, which
//! taplo and other TOML language servers read) of one spec file, derived from the loader's
//! own [`RawFile`] types so it cannot drift from what the loader accepts.
//!
//! Doc comments become `description`s (shown on hover); `deny_unknown_fields` becomes
//! `additionalProperties: false`, so a misspelt key is flagged as it is typed. It checks
//! shape only (keys, types, required keys); names, tags and cross-references are the
//! loader's to check.

use schemars::Schema;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use serde_json::Value;

use crate::schema::RawFile;

/// Where the schema lies under `generated/`.
pub const PATH: &str = "schema/dmaspec-spec.schema.json";

/// The schema file, as (relative path, contents).
pub fn render() -> (String, String) {
    let schema = SchemaSettings::draft07()
        .with_transform(RecursiveTransform(without_null))
        .into_generator()
        .into_root_schema_for::<RawFile>();
    // The stamp comes first: it is how gen knows the file for its own without a manifest.
    let mut doc = serde_json::Map::new();
    doc.insert(
        "$comment".to_string(),
        format!(
            "{} from codegen/src/schema/*.rs: do not edit, run `dmaspec gen`",
            crate::output::STAMP
        )
        .into(),
    );
    let body = schema.as_object().cloned().unwrap_or_default();
    // What a reader looks for first, then the rest as schemars built it (a key already
    // placed keeps its place).
    for key in ["$schema", "title", "description"] {
        if let Some(value) = body.get(key) {
            doc.insert(key.to_string(), value.clone());
        }
    }
    doc.extend(body);
    doc.insert("title".to_string(), "dmaspec spec file".into());
    let mut text = serde_json::to_string_pretty(&doc).expect("a schema serializes");
    text.push('\n');
    (PATH.to_string(), text)
}

/// TOML has no null (an optional key is left out), so an `Option`'s schema is its
/// value's: `"type": ["string", "null"]` becomes `"string"` and
/// `"anyOf": [{"$ref": …}, {"type": "null"}]` becomes the `$ref`.
/// (Applied to every subschema by [`RecursiveTransform`].)
fn without_null(schema: &mut Schema) {
    let null = Value::from("null");
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| *t != null);
        if let [only] = types.as_slice() {
            let only = only.clone();
            schema.insert("type".to_string(), only);
        }
    }
    if let Some(Value::Array(any)) = schema.get_mut("anyOf") {
        any.retain(|s| s.get("type") != Some(&null));
        if let [Value::Object(only)] = any.as_slice() {
            let only = only.clone();
            schema.remove("anyOf");
            if let Some(obj) = schema.as_object_mut() {
                obj.extend(only);
            }
        }
    }
}
