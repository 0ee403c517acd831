//! A small block-style YAML writer for the `.ksy` files: maps and lists nested by
//! indentation, every string that is not a plain identifier or integer double-quoted with
//! JSON's escapes (a JSON string is a valid YAML double-quoted scalar), so no spec text can
//! change the document's structure.

/// One YAML node.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Map(Vec<(String, Node)>),
    List(Vec<Node>),
    Scalar(String),
}

impl Node {
    pub fn str(s: impl Into<String>) -> Node {
        Node::Scalar(s.into())
    }

    pub fn int(v: u64) -> Node {
        Node::Scalar(v.to_string())
    }

    /// A map from (key, value) pairs, in the order given.
    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Node)>) -> Node {
        Node::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

/// `s` as a scalar: bare when it is an identifier or key (`repeat-expr`, `-orig-id`), a
/// Kaitai path (`dtype::dtype`) or a decimal integer, which YAML reads back as written;
/// quoted otherwise.
fn scalar(s: &str) -> String {
    let ident = s
        .trim_start_matches('-')
        .starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_:-".contains(c))
        && !s.ends_with(':')
        && !matches!(s, "null" | "true" | "false" | "yes" | "no" | "on" | "off");
    let int = !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) && !s.starts_with("00");
    if ident || int {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("a string serializes")
    }
}

/// The document `root` (a map), with a trailing newline.
pub fn render(root: &Node) -> String {
    let mut out = String::new();
    write(&mut out, root, 0);
    out
}

fn write(out: &mut String, node: &Node, depth: usize) {
    let pad = "  ".repeat(depth);
    match node {
        Node::Map(entries) => {
            for (k, v) in entries {
                out.push_str(&pad);
                out.push_str(&scalar(k));
                out.push(':');
                value(out, v, depth);
            }
        }
        Node::List(items) => {
            for item in items {
                out.push_str(&pad);
                out.push('-');
                match item {
                    // A map's first key shares the dash's line, the rest align under it.
                    Node::Map(entries) if !entries.is_empty() => {
                        let mut first = String::new();
                        write(&mut first, item, depth + 1);
                        out.push(' ');
                        out.push_str(first.trim_start());
                    }
                    _ => value(out, item, depth),
                }
            }
        }
        Node::Scalar(s) => {
            out.push_str(&pad);
            out.push_str(&scalar(s));
            out.push('\n');
        }
    }
}

/// The value after `key:` (or `-`): a scalar or empty collection on the same line, a
/// non-empty collection on the lines below, one level deeper.
fn value(out: &mut String, v: &Node, depth: usize) {
    match v {
        Node::Scalar(s) => {
            out.push(' ');
            out.push_str(&scalar(s));
            out.push('\n');
        }
        Node::Map(e) if e.is_empty() => out.push_str(" {}\n"),
        Node::List(e) if e.is_empty() => out.push_str(" []\n"),
        _ => {
            out.push('\n');
            write(out, v, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Node, render};

    #[test]
    fn nested_maps_and_lists_are_indented_and_text_is_quoted() {
        let doc = Node::map([
            (
                "meta",
                Node::map([("id", Node::str("dtype")), ("imports", Node::List(vec![]))]),
            ),
            (
                "seq",
                Node::List(vec![Node::map([
                    ("id", Node::str("x")),
                    ("enum", Node::str("dtype::dtype")),
                    ("doc", Node::str("a: \"b\"\n# c")),
                ])]),
            ),
            (
                "enums",
                Node::map([("10", Node::map([("-orig-id", Node::str("FP32"))]))]),
            ),
            ("value", Node::str("true")),
        ]);
        assert_eq!(
            render(&doc),
            "meta:\n  id: dtype\n  imports: []\nseq:\n  - id: x\n    enum: dtype::dtype\n    \
             doc: \"a: \\\"b\\\"\\n# c\"\nenums:\n  10:\n    -orig-id: \"FP32\"\nvalue: \"true\"\n"
        );
    }
}
