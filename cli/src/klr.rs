//! `dmaspec klr lower FILE.json [--json]`: runs seed 003's KLR→BIR leaves
//! (`dmaspec::words::klr`) over a list of klr ops and prints, per op, the BIR node it
//! becomes or the compiler's error.
//!
//! The input (see README "KLR→BIR lowering") is a JSON list of ops, or `{"ops": [...]}`;
//! each op is an object with `"op"` (a leaf name) and the op's input fields, named as the
//! spec's layouts name them. The op list is one function: memoised effects (the identity
//! matrix per dtype, declared registers) happen once.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use dmaspec::json;
use dmaspec::words::klr::{
    self, Ap, Dynamic, FieldMeta, Fields, Function, Imm, Input, LeafMeta, Node, Op, Outcome, Value,
};
use serde_json::{Map, Value as Json, json};

use dmaspec::names::echo;

use dmaspec::verbs::Error;

use super::CliError;
use dmaspec::verbs::error::Listed;

/// Seed 003's KLR→BIR data-movement leaves: `klr lower FILE.json [--json]`.
#[derive(clap::Args)]
pub struct KlrArgs {
    #[command(subcommand)]
    pub command: KlrCommand,
}

/// The klr enum of a node's DGE type (`bir::DGEType`, spec/klr/enums.toml).
const DGE_TYPE: &str = "DGEType";

#[derive(Subcommand, Debug)]
pub enum KlrCommand {
    /// Lower a list of klr ops (JSON) with the seed-003 leaves: one result per op, the BIR
    /// node (class, IT, name prefix, stamped fields, operands) or the compiler's error.
    Lower {
        /// The ops: a JSON list, or an object with an `ops` list.
        input: PathBuf,
        /// Print one JSON document instead of the table.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: &KlrArgs) -> Result<(), CliError> {
    match &args.command {
        KlrCommand::Lower { input, json } => lower_file(input, *json),
    }
}

/// Reads the ops one at a time and writes each one's result as soon as it is lowered, so
/// memory is one op's, however long the list. The first malformed op stops the lowering
/// (the ops after it would run in a function missing its effects); the reading goes on
/// to list every problem.
fn lower_file(path: &Path, as_json: bool) -> Result<(), CliError> {
    let mut out = super::output::stdout();
    let mut fx = Function::new();
    let mut problems = Listed::default();
    let mut written = 0usize;
    let mut failed = None;
    let read = json::for_each_in(
        dmaspec::verbs::input::open(Some(path))?,
        "ops",
        true,
        |i, v| {
            match parse_op(&v) {
                Ok(own) if problems.is_empty() => {
                    let text = lower_op(&own, &mut fx, |o| render(as_json, i, &own, o));
                    let head = match (as_json, written) {
                        (false, _) => "",
                        (true, 0) => "{\n  \"results\": [\n",
                        (true, _) => ",\n",
                    };
                    if let Err(e) = write!(out, "{head}{text}") {
                        failed = Some(e);
                        return false;
                    }
                    written += 1;
                }
                Ok(_) => {}
                Err(errors) => {
                    for e in errors {
                        problems.push(format!("op #{i}: {e}"));
                    }
                }
            }
            true
        },
    );
    if let Some(e) = failed {
        return Err(e.into());
    }
    match read {
        Ok(_) => {}
        Err(json::ListError::Io(e)) => return Err(Error::read(path, e).into()),
        Err(json::ListError::NotAList(_)) => problems.push(NOT_A_LIST.into()),
        Err(json::ListError::Json(e)) => problems.push(format!("not JSON: {e}")),
        Err(e) => problems.push(format!("{}: {e}", dmaspec::verbs::input::name(Some(path)))),
    }
    // The JSON document is whole whenever something was written.
    match (as_json, written) {
        (true, 0) if problems.is_empty() => out.write_all(b"{\n  \"results\": []\n}\n")?,
        (true, 1..) => out.write_all(b"\n  ]\n}\n")?,
        _ => {}
    }
    out.flush()?;
    if problems.is_empty() {
        Ok(())
    } else {
        Err(CliError::Klr(problems))
    }
}

const NOT_A_LIST: &str = "expected a list of ops, or an object with only an `ops` list";

/// One op's result, as the table or as its entry in the JSON document's `results`.
fn render(as_json: bool, i: usize, own: &OwnedOp, out: &Outcome<'_>) -> String {
    if as_json {
        let text =
            serde_json::to_string_pretty(&result_json(i, own, out)).expect("a result serializes");
        // Indented as an element of `results` (a string's newlines are escaped).
        let mut indented = String::new();
        for (n, line) in text.lines().enumerate() {
            let _ = write!(indented, "{}    {line}", if n > 0 { "\n" } else { "" });
        }
        indented
    } else {
        dmaspec::verbs::table::fit_text(&result_text(i, own, out))
    }
}

/// One parsed op: its leaf and its field values, before borrowing.
#[derive(Debug)]
pub struct OwnedOp {
    pub leaf: &'static LeafMeta,
    vals: Vec<Owned>,
}

#[derive(Debug, Clone)]
struct OwnedAp {
    rank: u32,
    shape: Vec<i64>,
    dtype: Option<i64>,
    dynamic: Dynamic,
    step0: Option<i64>,
    indirect_dim: Option<i64>,
}

impl OwnedAp {
    fn view(&self) -> Ap<'_> {
        Ap {
            rank: self.rank,
            shape: &self.shape,
            dtype: self.dtype,
            dynamic: self.dynamic,
            step0: self.step0,
            indirect_dim: self.indirect_dim,
        }
    }
}

#[derive(Debug)]
enum Owned {
    Ap(Option<OwnedAp>),
    Aps(Vec<OwnedAp>),
    Imm(Option<Imm>),
    Imms(Vec<Imm>),
    Int(Option<i64>),
    Bool(bool),
    Text(Option<String>),
}

/// One op, or every problem with it (each unknown key, each missing or malformed field).
fn parse_op(v: &Json) -> Result<OwnedOp, Vec<String>> {
    let Json::Object(o) = v else {
        return Err(vec!["an op is a JSON object".into()]);
    };
    let name = match o.get("op") {
        Some(Json::String(s)) => s.as_str(),
        None => {
            return Err(vec![
                "missing `\"op\"`: the leaf name (one of the roster)".into(),
            ]);
        }
        Some(other) => {
            return Err(vec![format!(
                "`\"op\"` is the leaf name, a string; not {}",
                echo(&other.to_string())
            )]);
        }
    };
    let Some(leaf) = klr::leaf(name) else {
        let names: Vec<&str> = klr::LEAVES.iter().map(|l| l.name).collect();
        return Err(vec![format!(
            "unknown op `{}`{} (one of: {})",
            echo(name),
            dmaspec::verbs::lookup::did_you_mean(name, names.iter().copied()),
            names.join(", ")
        )]);
    };
    let known: BTreeSet<&str> = leaf.fields.iter().map(|f| f.name).collect();
    let mut errors = Vec::new();
    for k in o.keys() {
        if k != "op" && k != "comment" && !known.contains(k.as_str()) {
            let names: Vec<&str> = known.iter().copied().collect();
            errors.push(format!(
                "`{name}` has no field `{}` (its fields: {})",
                echo(k),
                names.join(", ")
            ));
        }
    }
    let mut vals = Vec::new();
    for f in leaf.fields {
        let val = o.get(f.name).filter(|v| !v.is_null());
        match field(f, val) {
            Ok(owned) => vals.push(owned),
            Err(e) => errors.push(format!("`{name}.{}`: {e}", f.name)),
        }
    }
    if errors.is_empty() {
        Ok(OwnedOp { leaf, vals })
    } else {
        Err(errors)
    }
}

fn field(f: &FieldMeta, v: Option<&Json>) -> Result<Owned, String> {
    let required = !f.optional && !matches!(f.input, Input::Aps | Input::Imms);
    if v.is_none() && required {
        return Err("missing".into());
    }
    Ok(match f.input {
        Input::Ap => Owned::Ap(v.map(ap).transpose()?),
        Input::Aps => match v {
            None => Owned::Aps(Vec::new()),
            Some(Json::Array(a)) => Owned::Aps(a.iter().map(ap).collect::<Result<_, _>>()?),
            Some(_) => return Err("expected a list of access patterns".into()),
        },
        Input::Imm => Owned::Imm(v.map(imm).transpose()?),
        Input::Imms => match v {
            None => Owned::Imms(Vec::new()),
            Some(Json::Array(a)) => Owned::Imms(a.iter().map(imm).collect::<Result<_, _>>()?),
            Some(_) => return Err("expected a list of immediates".into()),
        },
        Input::Int => Owned::Int(v.map(|v| int(v, f.enum_ty)).transpose()?),
        Input::Bool => match v {
            Some(Json::Bool(b)) => Owned::Bool(*b),
            _ => return Err("expected true or false".into()),
        },
        Input::Text => match v {
            None => Owned::Text(None),
            Some(Json::String(s)) => Owned::Text(Some(s.clone())),
            Some(_) => return Err("expected a string".into()),
        },
    })
}

fn int(v: &Json, enum_ty: Option<&str>) -> Result<i64, String> {
    match v {
        Json::Number(n) if n.is_f64() => Err(format!("`{n}` is not an integer")),
        Json::Number(n) => n
            .as_i64()
            .ok_or_else(|| format!("`{n}` is out of range (a 64-bit signed integer)")),
        Json::String(s) => match enum_ty {
            Some(ty) => klr::enum_value(klr::enums::ALL, ty, s).ok_or_else(|| {
                let names: Vec<&str> = klr::enums::ALL
                    .iter()
                    .find(|e| e.0 == ty)
                    .map(|e| e.1.iter().map(|x| x.name).collect())
                    .unwrap_or_default();
                format!("`{}` is not a `{ty}` ({})", echo(s), names.join(", "))
            }),
            None => Err(format!("`{}`: expected a number", echo(s))),
        },
        _ => Err("expected a number".into()),
    }
}

fn imm(v: &Json) -> Result<Imm, String> {
    match v {
        Json::Number(n) if n.is_f64() => Ok(Imm::Float(n.as_f64().unwrap_or(0.0))),
        Json::Number(n) => n
            .as_i64()
            .map(Imm::Int)
            .ok_or_else(|| format!("`{n}` is out of range")),
        Json::String(_) => Ok(Imm::Other),
        _ => Err(
            "an immediate is a number (int or float) or a string naming a non-immediate operand"
                .into(),
        ),
    }
}

const AP_KEYS: &[&str] = &["rank", "shape", "dtype", "dynamic", "steps", "indirect_dim"];

fn ap(v: &Json) -> Result<OwnedAp, String> {
    let Json::Object(o) = v else {
        return Err(
            "an access pattern is an object (shape, rank, dtype, dynamic, steps, indirect_dim)"
                .into(),
        );
    };
    if let Some(k) = o.keys().find(|k| !AP_KEYS.contains(&k.as_str())) {
        return Err(format!(
            "an access pattern has no `{}` (keys: {})",
            echo(k),
            AP_KEYS.join(", ")
        ));
    }
    let ints = |key: &str| -> Result<Option<Vec<i64>>, String> {
        match o.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Array(a)) => a
                .iter()
                .map(|x| x.as_i64().ok_or_else(|| format!("`{key}` holds integers")))
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err(format!("`{key}` is a list of integers")),
        }
    };
    let shape = ints("shape")?.unwrap_or_default();
    let rank = match o.get("rank") {
        None | Some(Json::Null) => shape.len() as u32,
        Some(r) => r
            .as_u64()
            .and_then(|r| u32::try_from(r).ok())
            .ok_or("`rank` is a non-negative integer")?,
    };
    if o.get("shape").is_none() && o.get("rank").is_none() {
        return Err("an access pattern needs a `shape` (or at least a `rank`)".into());
    }
    let dtype = match o.get("dtype") {
        None | Some(Json::Null) => None,
        Some(d) => Some(int(d, Some("BirDtype"))?),
    };
    let dynamic = match o.get("dynamic") {
        None | Some(Json::Null) => Dynamic::Static,
        Some(Json::String(s)) => match s.as_str() {
            "static" => Dynamic::Static,
            "scalar" => Dynamic::Scalar,
            "vector" => Dynamic::Vector,
            other => {
                return Err(format!(
                    "`dynamic` is static, scalar or vector; not `{}`",
                    echo(other)
                ));
            }
        },
        Some(_) => return Err("`dynamic` is \"static\", \"scalar\" or \"vector\"".into()),
    };
    let step0 = ints("steps")?.and_then(|s| s.first().copied());
    let indirect_dim = match o.get("indirect_dim") {
        None | Some(Json::Null) => None,
        Some(d) => Some(d.as_i64().ok_or("`indirect_dim` is an integer")?),
    };
    Ok(OwnedAp {
        rank,
        shape,
        dtype,
        dynamic,
        step0,
        indirect_dim,
    })
}

/// The access-pattern lists of an op, borrowed from it.
struct Lists<'a> {
    aps: Vec<Vec<Ap<'a>>>,
}

struct View<'a> {
    own: &'a OwnedOp,
    lists: &'a Lists<'a>,
}

impl View<'_> {
    fn index(&self, f: &FieldMeta) -> usize {
        self.own
            .leaf
            .fields
            .iter()
            .position(|x| x.name == f.name)
            .expect("a field of the op's leaf")
    }
}

fn wrong(f: &FieldMeta) -> String {
    format!("internal: field `{}` parsed as another kind", f.name)
}

impl<'a> Fields<'a> for View<'a> {
    type Error = String;
    fn ap(&self, f: &'static FieldMeta) -> Result<Ap<'a>, String> {
        self.opt_ap(f)?.ok_or_else(|| wrong(f))
    }
    fn opt_ap(&self, f: &'static FieldMeta) -> Result<Option<Ap<'a>>, String> {
        match &self.own.vals[self.index(f)] {
            Owned::Ap(a) => Ok(a.as_ref().map(OwnedAp::view)),
            _ => Err(wrong(f)),
        }
    }
    fn aps(&self, f: &'static FieldMeta) -> Result<&'a [Ap<'a>], String> {
        Ok(&self.lists.aps[self.index(f)])
    }
    fn imm(&self, f: &'static FieldMeta) -> Result<Imm, String> {
        self.opt_imm(f)?.ok_or_else(|| wrong(f))
    }
    fn opt_imm(&self, f: &'static FieldMeta) -> Result<Option<Imm>, String> {
        match &self.own.vals[self.index(f)] {
            Owned::Imm(i) => Ok(*i),
            _ => Err(wrong(f)),
        }
    }
    fn imms(&self, f: &'static FieldMeta) -> Result<&'a [Imm], String> {
        match &self.own.vals[self.index(f)] {
            Owned::Imms(v) => Ok(v),
            _ => Err(wrong(f)),
        }
    }
    fn int(&self, f: &'static FieldMeta) -> Result<i64, String> {
        self.opt_int(f)?.ok_or_else(|| wrong(f))
    }
    fn opt_int(&self, f: &'static FieldMeta) -> Result<Option<i64>, String> {
        match &self.own.vals[self.index(f)] {
            Owned::Int(i) => Ok(*i),
            _ => Err(wrong(f)),
        }
    }
    fn boolean(&self, f: &'static FieldMeta) -> Result<bool, String> {
        match &self.own.vals[self.index(f)] {
            Owned::Bool(b) => Ok(*b),
            _ => Err(wrong(f)),
        }
    }
    fn text(&self, f: &'static FieldMeta) -> Result<&'a str, String> {
        self.opt_text(f)?.ok_or_else(|| wrong(f))
    }
    fn opt_text(&self, f: &'static FieldMeta) -> Result<Option<&'a str>, String> {
        match &self.own.vals[self.index(f)] {
            Owned::Text(t) => Ok(t.as_deref()),
            _ => Err(wrong(f)),
        }
    }
}

/// Lowers `own` in the function `fx` (the ops before it, in order); hands `each` the
/// outcome.
fn lower_op<R>(own: &OwnedOp, fx: &mut Function, each: impl FnOnce(&Outcome<'_>) -> R) -> R {
    let lists = Lists {
        aps: own
            .vals
            .iter()
            .map(|v| match v {
                Owned::Aps(list) => list.iter().map(OwnedAp::view).collect(),
                _ => Vec::new(),
            })
            .collect(),
    };
    let view = View { own, lists: &lists };
    let op: Op<'_> = match Op::build(own.leaf.name, &view) {
        Some(Ok(op)) => op,
        // Every field was checked while parsing; a leaf of the roster always builds.
        Some(Err(e)) => panic!("{e}"),
        None => panic!("leaf `{}` is in the roster", own.leaf.name),
    };
    each(&klr::lower(&op, fx))
}

fn value_text(v: &Value<'_>) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Enum {
            name: Some(n), raw, ..
        } => format!("{n} ({raw})"),
        Value::Enum { ty, raw, .. } => format!("{raw} (not a {ty} the sources name)"),
        Value::One(i) => format!("[{i}]"),
        Value::Imm(i) => imm_text(i),
        Value::Imms(list) => {
            let items: Vec<String> = list.iter().map(imm_text).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Opaque(t) => format!("({t})"),
        Value::Missing(e) => format!("unknown: needs {e}"),
    }
}

fn imm_text(i: &Imm) -> String {
    match i {
        Imm::Int(v) => v.to_string(),
        Imm::Float(f) => format!("{f:?}"),
        Imm::Other => "(not an immediate)".into(),
    }
}

fn value_json(v: &Value<'_>) -> Json {
    match v {
        Value::Int(i) => json!(i),
        Value::Bool(b) => json!(b),
        Value::Enum { name, raw, .. } => json!({"raw": raw, "name": name}),
        Value::One(i) => json!([i]),
        Value::Imm(i) => imm_json(i),
        Value::Imms(list) => Json::Array(list.iter().map(imm_json).collect()),
        Value::Opaque(t) => json!({ "opaque": t }),
        Value::Missing(e) => json!({ "missing": e }),
    }
}

fn imm_json(i: &Imm) -> Json {
    match i {
        Imm::Int(v) => json!(v),
        Imm::Float(f) => json!(f),
        Imm::Other => json!({ "operand": true }),
    }
}

fn node_json(n: &Node<'_>) -> Json {
    let mut o = Map::new();
    o.insert("leaf".into(), json!(n.leaf));
    o.insert("routed_from".into(), json!(n.routed_from));
    o.insert("path".into(), json!(n.path.name));
    o.insert("class".into(), json!(n.path.class));
    o.insert(
        "it".into(),
        match n.path.it {
            Some((name, v)) => json!({"value": v, "name": name}),
            None => Json::Null,
        },
    );
    o.insert("name_prefix".into(), json!(n.path.prefix));
    o.insert("construction".into(), json!(n.path.build));
    o.insert(
        "dge_type".into(),
        match n.enum_stamp(DGE_TYPE) {
            Some(v) => json!({"raw": v, "name": klr::enum_name(klr::enums::ALL, DGE_TYPE, v)}),
            None => Json::Null,
        },
    );
    o.insert(
        "stamps".into(),
        n.stamps
            .iter()
            .map(|s| {
                json!({
                    "offset": s.offset,
                    "offset_hex": format!("{:#x}", s.offset),
                    "field": s.field,
                    "class": s.class,
                    "value": value_json(&s.value),
                })
            })
            .collect(),
    );
    o.insert(
        "operands".into(),
        n.bindings
            .iter()
            .map(|b| json!({"role": b.role, "operand": b.operand, "what": b.what, "note": b.note}))
            .collect(),
    );
    o.insert(
        "effects".into(),
        n.effects
            .iter()
            .map(|e| json!({"kind": e.kind, "text": e.text, "key": e.key}))
            .collect(),
    );
    o.insert(
        "values".into(),
        n.shown
            .iter()
            .map(|s| json!({"name": s.name, "value": value_json(&s.value)}))
            .collect(),
    );
    o.insert(
        "unevaluated".into(),
        n.unevaluated
            .iter()
            .map(|u| json!({"what": u.what, "condition": u.condition}))
            .collect(),
    );
    Json::Object(o)
}

/// One op's entry in the JSON document's `results`.
fn result_json(i: usize, own: &OwnedOp, out: &Outcome<'_>) -> Json {
    let mut r = Map::new();
    r.insert("index".into(), json!(i));
    r.insert("op".into(), json!(own.leaf.name));
    match out {
        Outcome::Node(n) => {
            r.insert("outcome".into(), json!("node"));
            r.insert("node".into(), node_json(n));
        }
        Outcome::Error(e) => {
            r.insert("outcome".into(), json!("error"));
            r.insert(
                "error".into(),
                json!({
                    "leaf": e.leaf,
                    "routed_from": e.routed_from,
                    "kind": e.kind.name(),
                    "message": e.to_string(),
                    "arg": e.arg,
                    "condition": e.condition,
                    "helper": e.helper,
                }),
            );
        }
        Outcome::Undetermined(u) => {
            r.insert("outcome".into(), json!("undetermined"));
            r.insert(
                "undetermined".into(),
                json!({"leaf": u.leaf, "routed_from": u.routed_from, "at": u.at, "condition": u.condition}),
            );
        }
    }
    Json::Object(r)
}

/// One op's result as text: its block of the table.
fn result_text(i: usize, own: &OwnedOp, out: &Outcome<'_>) -> String {
    let mut o = String::new();
    match out {
        Outcome::Node(n) => {
            let it = match n.path.it {
                Some((name, v)) => format!("IT {v} {name}"),
                None => "IT not given".into(),
            };
            let via = match n.routed_from {
                Some(from) => format!(" (routed from {from})"),
                None => String::new(),
            };
            let _ = writeln!(
                o,
                "#{i} {} → {} ({it}) via {}, path {}{via}",
                own.leaf.name, n.path.class, n.leaf, n.path.name
            );
            let _ = writeln!(
                o,
                "    name prefix   {}",
                n.path.prefix.unwrap_or("(not given)")
            );
            let _ = writeln!(o, "    construction  {}", n.path.build);
            if let Some(d) = n.enum_stamp(DGE_TYPE) {
                let _ = writeln!(
                    o,
                    "    DGEType       {} ({d})",
                    klr::enum_name(klr::enums::ALL, DGE_TYPE, d).unwrap_or("?")
                );
            }
            if !n.stamps.is_empty() {
                o.push_str("    stamps\n");
                for s in n.stamps.iter() {
                    let _ = writeln!(
                        o,
                        "      +{:#05x}  {:<34} {:<24} {}",
                        s.offset,
                        s.field,
                        value_text(&s.value),
                        s.class
                    );
                }
            }
            if !n.bindings.is_empty() {
                o.push_str("    operands\n");
                for b in n.bindings.iter() {
                    let what = b.operand.or(b.what).unwrap_or("");
                    let note = b.note.map(|n| format!("  — {n}")).unwrap_or_default();
                    let _ = writeln!(o, "      {:<10} {what}{note}", b.role);
                }
            }
            for s in n.shown.iter() {
                let _ = writeln!(o, "    value         {} = {}", s.name, value_text(&s.value));
            }
            if !n.effects.is_empty() {
                o.push_str("    effects\n");
                for e in n.effects.iter() {
                    let _ = writeln!(o, "      {:<8} {}", e.kind, e.text);
                }
            }
            if !n.unevaluated.is_empty() {
                o.push_str("    not evaluated\n");
                for u in n.unevaluated.iter() {
                    let _ = writeln!(o, "      {} — {}", u.what, u.condition);
                }
            }
        }
        Outcome::Error(e) => {
            let via = match e.routed_from {
                Some(from) => format!(" (routed from {from})"),
                None => String::new(),
            };
            let _ = writeln!(
                o,
                "#{i} {} → error ({}) in {}{via}: {e}",
                own.leaf.name,
                e.kind.name(),
                e.leaf
            );
        }
        Outcome::Undetermined(u) => {
            let _ = writeln!(
                o,
                "#{i} {} → undetermined in {}: the {} depends on `{}`, which the op leaves out",
                own.leaf.name, u.leaf, u.at, u.condition
            );
        }
    }
    o
}
