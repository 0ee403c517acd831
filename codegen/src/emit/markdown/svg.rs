//! `docs/svg/<NAME>.svg`: a register-diagram bit map of each struct (word, record or
//! nested struct), one row per 32-bit little-endian word, a box per leaf coloured by its
//! confidence level.
//!
//! Every box carries `data-path`, `data-bit` (first bit it covers, counted from bit 0 of
//! byte 0) and `data-width`, and the root carries the geometry (`data-bit-px`,
//! `data-left`), so tests can read the picture back and check it against the model.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::pages::*;
use crate::model::*;

/// Where the pictures go, relative to `generated/`.
pub(super) const DIR: &str = "docs/svg";

pub(super) const ROW_BITS: usize = 32;
/// Pixels per bit.
pub(super) const BIT_PX: usize = 24;
/// Left margin, for the byte offset of each row.
pub(super) const LEFT: usize = 56;
/// Title and bit ruler above the first row.
pub(super) const TOP: usize = 48;
/// Height of one lane; a row holding union arms gets one lane per overlapping arm, and
/// only the first lane's background counts bits no leaf covers as unknown.
pub(super) const LANE_PX: usize = 40;
pub(super) const ROW_GAP: usize = 6;
/// Approximate advance of one character of the 11px monospace labels.
pub(super) const CHAR_PX: usize = 7;
const LEGEND_PX: usize = 64;

/// Paul Tol's "light" scheme (colour-blind safe, dark text readable on every fill): one
/// fill per common level, strongest first; levels past the last share its colour.
const DATA_FILLS: [&str; 4] = ["#44BB99", "#77AADD", "#EEDD88", "#EE8866"];
const RESERVED_FILL: &str = "#DDDDDD";
const UNKNOWN_FILL: &str = "#FFAABB";

/// The Markdown image of `w`'s bit map, for a page `up` (`"../"` or `""`) below `docs/`.
pub(super) fn image(w: &TypeDef, up: &str) -> String {
    format!("![{0} bit map]({up}svg/{0}.svg)", w.name)
}

/// Every struct that gets a picture: the words, the records, then the nested structs, each
/// group in spec order.
pub(super) fn pictured(m: &Model) -> impl Iterator<Item = &TypeDef> {
    let nested = m
        .types
        .iter()
        .filter(|t| matches!(t.kind, TypeKind::Struct { .. }) && !t.is_top_level());
    m.words().chain(m.records()).chain(nested)
}

/// The colour key of the six classes, as the coverage page lists them (the viewer's too).
pub(crate) fn classes(m: &Model) -> Vec<(String, &'static str)> {
    m.levels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.clone(), data_fill(i)))
        .chain([
            ("reserved".to_string(), RESERVED_FILL),
            ("unknown".to_string(), UNKNOWN_FILL),
        ])
        .collect()
}

pub(super) fn data_fill(rank: usize) -> &'static str {
    DATA_FILLS[rank.min(DATA_FILLS.len() - 1)]
}

/// A leaf's class: its level's name and fill.
fn class<'a>(leaf: &'a Leaf) -> (&'a str, &'static str) {
    match (leaf.role, leaf.confidence) {
        (Role::Data, Some(c)) => (c.level.as_str(), data_fill(c.rank)),
        (Role::Reserved, _) => ("reserved", RESERVED_FILL),
        _ => ("unknown", UNKNOWN_FILL),
    }
}

pub(super) fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `s`, cut with an ellipsis to at most `room` characters; empty when not even two fit.
pub(super) fn fit(s: &str, room: usize) -> String {
    match s.chars().count() {
        n if n <= room => s.to_string(),
        _ if room < 2 => String::new(),
        _ => s.chars().take(room - 1).chain(['…']).collect(),
    }
}

/// A qualified label (`src_bound_reg.bc_reg`) in at most `room` characters: whole if it
/// fits, else with the middle of its qualifier cut (`src_idx_bound…bc_reg`), else, when not
/// even the last component fits beside a character of the qualifier, `short` cut as any
/// label is (the tooltip has the path).
pub(super) fn fit_qualified(s: &str, short: &str, room: usize) -> String {
    let tail = s.rsplit('.').next().unwrap_or(s);
    let t = tail.chars().count();
    if s.chars().count() <= room {
        s.to_string()
    } else if room >= t + 2 {
        let head: String = s.chars().take(room - t - 1).collect();
        format!("{head}…{tail}")
    } else {
        fit(short, room)
    }
}

/// A leaf's label: its member's own name; in a union arm, with the arm's name before it.
fn short_name<'l>(leaf: &'l Leaf) -> &'l str {
    leaf.variant
        .as_deref()
        .and_then(|v| v.rsplit_once('.'))
        .and_then(|(union, _)| leaf.path.strip_prefix(&format!("{union}.")))
        .unwrap_or_else(|| leaf.path.rsplit('.').next().unwrap_or(&leaf.path))
}

/// The labels more than one leaf of a picture would carry.
fn repeated_names<'l>(leaves: &'l [Leaf]) -> BTreeSet<&'l str> {
    let mut paths: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for leaf in leaves {
        paths
            .entry(short_name(leaf))
            .or_default()
            .insert(leaf.path.as_str());
    }
    paths
        .into_iter()
        .filter(|(_, p)| p.len() > 1)
        .map(|(name, _)| name)
        .collect()
}

/// One box: the part of a leaf inside one row.
struct Piece<'l, 'm> {
    leaf: &'l Leaf<'m>,
    /// First bit, from bit 0 of byte 0.
    bit: usize,
    width: usize,
    lane: usize,
}

/// The leaf's bits, as `(first bit from bit 0 of byte 0, width)`.
fn bits_of(leaf: &Leaf) -> (usize, usize) {
    match leaf.bits {
        Some((lsb, width)) => (leaf.offset * 8 + lsb as usize, width as usize),
        None => (leaf.offset * 8, leaf.size * 8),
    }
}

/// The leaf's bits in the word, as `(first bit, width)`, clipped to the word.
fn span(leaf: &Leaf, size: usize) -> (usize, usize) {
    let (lsb, width) = bits_of(leaf);
    let end = (lsb + width).min(size * 8);
    (lsb.min(end), end - lsb.min(end))
}

/// Every leaf cut at row boundaries, each piece in the first lane of its row it does not
/// overlap there.
fn pieces<'l, 'm>(leaves: &'l [Leaf<'m>], size: usize) -> Vec<Vec<Piece<'l, 'm>>> {
    let rows = size.div_ceil(4);
    let mut out: Vec<Vec<Piece>> = (0..rows).map(|_| Vec::new()).collect();
    for leaf in leaves {
        let (mut bit, end) = {
            let (b, w) = span(leaf, size);
            (b, b + w)
        };
        while bit < end {
            let row = bit / ROW_BITS;
            let width = end.min((row + 1) * ROW_BITS) - bit;
            let pieces = &mut out[row];
            let lane = (0..)
                .find(|&lane| {
                    !pieces
                        .iter()
                        .any(|p| p.lane == lane && p.bit < bit + width && bit < p.bit + p.width)
                })
                .unwrap_or(0);
            pieces.push(Piece {
                leaf,
                bit,
                width,
                lane,
            });
            bit += width;
        }
    }
    out
}

/// x of the left edge of `bit`'s cell in its row (bit 31 leftmost).
pub(super) fn x_of(bit: usize) -> usize {
    LEFT + (ROW_BITS - 1 - bit % ROW_BITS) * BIT_PX
}

impl<'m> Pages<'m> {
    /// `(path, contents)` of every struct's bit map.
    pub(super) fn bit_maps(&self) -> Vec<(String, String)> {
        pictured(self.model)
            .map(|w| (format!("{DIR}/{}.svg", w.name), self.bit_map(w)))
            .collect()
    }

    fn bit_map(&self, w: &TypeDef) -> String {
        let m = self.model;
        let walk = m.walk(w);
        let rows = pieces(&walk.leaves, w.size);
        let repeated = repeated_names(&walk.leaves);
        let lanes: Vec<usize> = rows
            .iter()
            .map(|r| r.iter().map(|p| p.lane + 1).max().unwrap_or(1))
            .collect();
        let width = LEFT + ROW_BITS * BIT_PX + 8;
        let body: usize = lanes.iter().map(|l| l * LANE_PX + ROW_GAP).sum();
        let height = TOP + body + LEGEND_PX;
        let mut out = String::from(BANNER);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"11\" \
             data-bit-px=\"{BIT_PX}\" data-left=\"{LEFT}\" data-row-bits=\"{ROW_BITS}\">"
        );
        out.push_str(
            "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" \
             patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" \
             stroke=\"#000\" stroke-width=\"2\"/></pattern></defs>\n",
        );
        let _ = writeln!(
            out,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#FFFFFF\"/>\n\
             <text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"bold\">{} — {} bytes</text>",
            xml(&w.name),
            w.size
        );
        for b in 0..ROW_BITS {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\">{b}</text>",
                x_of(b) + BIT_PX / 2,
                TOP - 6
            );
        }
        let mut y = TOP;
        for (r, (pieces, lanes)) in rows.iter().zip(&lanes).enumerate() {
            let bits = (w.size * 8 - r * ROW_BITS).min(ROW_BITS);
            let x0 = x_of(r * ROW_BITS + bits - 1);
            let _ = writeln!(
                out,
                "<text x=\"4\" y=\"{}\">+0x{:02X}</text>\n\
                 <rect class=\"row\" data-row=\"{r}\" x=\"{x0}\" y=\"{y}\" width=\"{}\" \
                 height=\"{}\" fill=\"{UNKNOWN_FILL}\" stroke=\"#000\"/>",
                y + LANE_PX / 2 + 4,
                r * 4,
                bits * BIT_PX,
                LANE_PX
            );
            for p in pieces {
                self.piece(p, y, &walk, &repeated, &mut out);
            }
            y += lanes * LANE_PX + ROW_GAP;
        }
        self.legend(y, &mut out);
        out.push_str("</svg>\n");
        out
    }

    /// One leaf's box in its row, whose top is at `y`.
    fn piece(
        &self,
        p: &Piece,
        y: usize,
        walk: &crate::model::path::Walk,
        repeated: &BTreeSet<&str>,
        out: &mut String,
    ) {
        let leaf = p.leaf;
        let (level, fill) = class(leaf);
        let x = x_of(p.bit + p.width - 1);
        let y = y + p.lane * LANE_PX;
        let w = p.width * BIT_PX;
        let alts = walk.alternatives_over(&leaf.path);
        let short = short_name(leaf);
        // A name two leaves of the picture share is given with the path that tells them
        // apart (`src_bound_reg.bc_reg`, `dst_bound_reg.bc_reg`).
        let qualified = repeated.contains(short);
        let (name, range) = label(leaf, p, if qualified { &leaf.path } else { short });
        let at = match leaf.bits {
            Some((lsb, width)) => format!(
                "byte +{}, bits {lsb}..{}",
                leaf.offset,
                lsb + width.max(1) - 1
            ),
            None => format!(
                "bytes +{}..+{}",
                leaf.offset,
                (leaf.offset + leaf.size).saturating_sub(1)
            ),
        };
        let mut title = format!("{} — {at} — {} — {level}", leaf.path, leaf.type_name);
        if let Some(c) = leaf.confidence {
            let _ = write!(title, " ({})", c.tag);
        }
        if let Some(v) = &leaf.variant {
            let _ = write!(title, " — arm {v}");
        }
        if alts > 0 {
            let _ = write!(title, " — {alts} alternative reading(s)");
        }
        let dash = if alts > 0 {
            " stroke-dasharray=\"5 3\" stroke-width=\"2\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<g><title>{}</title><rect class=\"field\" data-path=\"{}\" data-bit=\"{}\" \
             data-width=\"{}\" data-level=\"{level}\" data-alternatives=\"{alts}\" x=\"{x}\" \
             y=\"{y}\" width=\"{w}\" height=\"{LANE_PX}\" fill=\"{fill}\" stroke=\"#000\"{dash}/>",
            xml(&title),
            xml(&leaf.path),
            p.bit,
            p.width,
        );
        if alts > 0 {
            let _ = writeln!(
                out,
                "<path d=\"M{} {y}h-10l10 10z\" fill=\"url(#hatch)\" stroke=\"#000\"/>",
                x + w
            );
        }
        let room = w.saturating_sub(4) / CHAR_PX;
        let cx = x + w / 2;
        // The bit range is shown whole or not at all (the tooltip has it).
        let range = if range.len() <= room {
            range
        } else {
            String::new()
        };
        let shown = if qualified {
            let (short, _) = label(leaf, p, short);
            fit_qualified(&name, &short, room)
        } else {
            fit(&name, room)
        };
        for (text, dy) in [(shown, 17), (range, 32)] {
            if !text.is_empty() {
                let _ = writeln!(
                    out,
                    "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    y + dy,
                    xml(&text)
                );
            }
        }
        out.push_str("</g>\n");
    }

    /// The colour key and how to read a row, below the last row.
    fn legend(&self, y: usize, out: &mut String) {
        let mut x = 4;
        let y = y + 8;
        for (name, fill) in classes(self.model) {
            let _ = writeln!(
                out,
                "<rect class=\"legend\" data-level=\"{}\" x=\"{x}\" y=\"{y}\" width=\"14\" \
                 height=\"14\" fill=\"{fill}\" stroke=\"#000\"/><text x=\"{}\" y=\"{}\">{}</text>",
                xml(&name),
                x + 18,
                y + 11,
                xml(&name)
            );
            x += 18 + name.len() * CHAR_PX + 16;
        }
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"14\" height=\"14\" fill=\"#FFFFFF\" stroke=\"#000\" \
             stroke-dasharray=\"5 3\" stroke-width=\"2\"/><path d=\"M{} {y}h-10l10 10z\" \
             fill=\"url(#hatch)\" stroke=\"#000\"/><text x=\"{}\" y=\"{}\">alternative \
             readings</text>",
            x + 14,
            x + 18,
            y + 11
        );
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{}\">Each row is the little-endian 32-bit word at the byte offset \
             on its left, MSB left: bit 31 leftmost, bit 0 rightmost.</text>\n<text x=\"4\" \
             y=\"{}\">Hover a box for its full path, bytes, type and confidence.</text>",
            y + 34,
            y + 50
        );
    }
}

/// The name and bit range a piece is labelled with. A piece of an array names the elements
/// it holds (`src_step_elem[1]`); a piece of a scalar wider than its row gives the scalar's
/// own bits (`buf_ptr [63:32]`); any other piece, its bits in the row, as the ruler numbers them.
fn label(leaf: &Leaf, p: &Piece, name: &str) -> (String, String) {
    let range = |lo: usize, hi: usize| {
        if lo == hi {
            format!("[{lo}]")
        } else {
            format!("[{hi}:{lo}]")
        }
    };
    let row = range(p.bit % ROW_BITS, (p.bit + p.width - 1) % ROW_BITS);
    let (start, leaf_bits) = bits_of(leaf);
    if p.width >= leaf_bits || p.bit < start {
        return (name.to_string(), row);
    }
    let rel = p.bit - start;
    let elements = leaf
        .type_name
        .strip_suffix(']')
        .and_then(|t| t.rsplit_once('['))
        .and_then(|(_, n)| n.parse::<usize>().ok())
        .filter(|&n| n > 0 && leaf.bits.is_none() && leaf_bits % n == 0);
    match elements {
        Some(n) => {
            let elem = leaf_bits / n;
            let (first, last) = (rel / elem, (rel + p.width - 1) / elem);
            let index = if first == last {
                format!("[{first}]")
            } else {
                format!("[{first}..{last}]")
            };
            (format!("{name}{index}"), row)
        }
        None => (name.to_string(), range(rel, rel + p.width - 1)),
    }
}
