//! The member tree the loader follows: `neff.json`'s `__kelf` node names the kelf
//! descriptor (`kelf-a.json`), its `graphs[].definition` each `sgNN/def.json`, whose keys name
//! the engines' `<eng>.json`, whose `instr` names the `<eng>.bin` stream. A reference to a
//! member the tar lacks is recorded, not refused: the loader's `neff_get_file_content`
//! answers "not found" and it proceeds (the carve's `wavegraph-bin.json`, `act_info.json`).

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use super::payload::Member;

/// The five engines in the loader's order (`NEURON_ENG_NAMES`: PE=0 ACT=1 POOL=2 DVE=3
/// SP=4), which are also the `def.json` keys and the file stems.
pub const ENGINES: [&str; 5] = ["pe", "act", "pool", "dve", "sp"];

/// The legacy name of the kelf descriptor, read when there is no `neff.json`.
const LEGACY_KELF: &str = "kelf-a.json";

/// The tree of one NEFF.
#[derive(Debug, Clone)]
pub struct Tree {
    /// The kelf descriptor's member name, and who named it.
    pub kelf: String,
    pub kelf_named_by: &'static str,
    pub version: Option<String>,
    pub target: Option<String>,
    pub graphs: Vec<Graph>,
    /// References to members the tar does not hold: (who refers, key, member).
    pub dangling: Vec<(String, String, String)>,
}

/// One `graphs[]` entry and its `def.json`.
#[derive(Debug, Clone)]
pub struct Graph {
    pub name: String,
    pub definition: String,
    /// `dma_queue`, one entry per queue: (name, its object).
    pub queues: Vec<(String, Map<String, Json>)>,
    /// `var`, one entry per variable: (name, its object).
    pub vars: Vec<(String, Map<String, Json>)>,
    pub engines: Vec<Engine>,
}

/// One engine of a graph.
#[derive(Debug, Clone)]
pub struct Engine {
    pub name: &'static str,
    /// The `<eng>.json` member, if `def.json` names one.
    pub json: Option<String>,
    /// Its `dma` blocks.
    pub dma: Vec<Json>,
    /// Its `instr` member and that member's bytes (None when absent).
    pub instr: Option<(String, Option<Vec<u8>>)>,
}

/// The members the loader keeps, by name.
pub struct Files<'m>(BTreeMap<&'m str, &'m [u8]>);

impl<'m> Files<'m> {
    pub fn new(members: &'m [Member]) -> Self {
        Files(
            (members.iter())
                .filter_map(|m| Some((m.name.as_str(), m.data.as_deref()?)))
                .collect(),
        )
    }

    fn get(&self, name: &str) -> Option<&'m [u8]> {
        self.0.get(name).copied()
    }

    fn json(&self, name: &str) -> Result<Option<Json>, String> {
        let Some(bytes) = self.get(name) else {
            return Ok(None);
        };
        serde_json::from_slice(bytes)
            .map(Some)
            .map_err(|e| format!("{}: bad JSON: {e}", dmaspec::names::echo(name)))
    }
}

/// `dir/name` (the member names in `def.json` are relative to its directory).
fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn dir_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

fn text(v: &Json, key: &str) -> Option<String> {
    v.get(key).and_then(Json::as_str).map(str::to_string)
}

/// The entries of a keyed table: an object of named objects (the carve's `dma_queue` and
/// `var`), or an array of objects named by their `name` key (the metadata page's reading).
fn entries(v: Option<&Json>) -> Vec<(String, Map<String, Json>)> {
    match v {
        Some(Json::Object(m)) => (m.iter())
            .map(|(k, v)| (k.clone(), v.as_object().cloned().unwrap_or_default()))
            .collect(),
        Some(Json::Array(a)) => (a.iter().enumerate())
            .map(|(i, v)| {
                let name = text(v, "name").unwrap_or_else(|| format!("#{i}"));
                (name, v.as_object().cloned().unwrap_or_default())
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl Tree {
    /// Follows the manifests from `neff.json` (or the legacy `kelf-a.json`).
    pub fn follow(files: &Files) -> Result<Tree, String> {
        let mut dangling = Vec::new();
        let (kelf, kelf_named_by) = match files.json("neff.json")? {
            Some(graph) => (kelf_node(&graph)?, "neff.json"),
            None => (LEGACY_KELF.to_string(), "the legacy name"),
        };
        let Some(desc) = files.json(&kelf)? else {
            return Err(format!(
                "no kelf descriptor: `{}` (named by {kelf_named_by}) is not in the tar",
                dmaspec::names::echo(&kelf)
            ));
        };
        let mut graphs = Vec::new();
        for g in desc
            .get("graphs")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let name = text(g, "name").unwrap_or_default();
            let Some(definition) = text(g, "definition") else {
                return Err(format!("{kelf}: graph `{name}` has no definition"));
            };
            match files.json(&definition)? {
                Some(def) => graphs.push(graph(files, name, definition, &def, &mut dangling)?),
                None => dangling.push((kelf.clone(), "definition".into(), definition)),
            }
        }
        Ok(Tree {
            version: text(&desc, "version"),
            target: text(&desc, "target"),
            kelf,
            kelf_named_by,
            graphs,
            dangling,
        })
    }
}

/// The member `neff.json`'s `__kelf` node names (`attrs.func_name == "__kelf"`, `attrs.kelf`).
fn kelf_node(graph: &Json) -> Result<String, String> {
    let nodes = graph.get("nodes").and_then(Json::as_array);
    let node = (nodes.into_iter().flatten())
        .filter_map(|n| n.get("attrs"))
        .find(|a| a.get("func_name").and_then(Json::as_str) == Some("__kelf"));
    let Some(attrs) = node else {
        return Err("neff.json: no KELF node (attrs.func_name \"__kelf\")".into());
    };
    text(attrs, "kelf").ok_or_else(|| "neff.json: the KELF node has no string attrs.kelf".into())
}

fn graph(
    files: &Files,
    name: String,
    definition: String,
    def: &Json,
    dangling: &mut Vec<(String, String, String)>,
) -> Result<Graph, String> {
    let dir = dir_of(&definition).to_string();
    if let Some(wave) = def.pointer("/debug_info/wavegraph").and_then(Json::as_str) {
        let path = join(&dir, wave);
        if files.get(&path).is_none() {
            dangling.push((definition.clone(), "debug_info.wavegraph".into(), path));
        }
    }
    let mut engines = Vec::new();
    for eng in ENGINES {
        let Some(json_name) = text(def, eng) else {
            // The loader fills an absent engine with an empty placeholder.
            engines.push(Engine {
                name: eng,
                json: None,
                dma: Vec::new(),
                instr: None,
            });
            continue;
        };
        let path = join(&dir, &json_name);
        let Some(ej) = files.json(&path)? else {
            dangling.push((definition.clone(), eng.into(), path.clone()));
            engines.push(Engine {
                name: eng,
                json: Some(path),
                dma: Vec::new(),
                instr: None,
            });
            continue;
        };
        if let Some(side) = text(&ej, "act_info") {
            let side_path = join(&dir, &side);
            if files.get(&side_path).is_none() {
                dangling.push((path.clone(), "act_info".into(), side_path));
            }
        }
        let instr = text(&ej, "instr").map(|i| {
            let ipath = join(&dir, &i);
            let bytes = files.get(&ipath).map(<[u8]>::to_vec);
            if bytes.is_none() {
                dangling.push((path.clone(), "instr".into(), ipath.clone()));
            }
            (ipath, bytes)
        });
        let dma = ej
            .get("dma")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        engines.push(Engine {
            name: eng,
            json: Some(path),
            dma,
            instr,
        });
    }
    Ok(Graph {
        name,
        definition,
        queues: entries(def.get("dma_queue")),
        vars: entries(def.get("var")),
        engines,
    })
}
